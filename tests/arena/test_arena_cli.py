"""``callbreak arena``: outputs, errors before anything runs, determinism across workers."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import arena_testbots  # noqa: F401  (registers the test-* bots)
import pytest
from typer.testing import CliRunner

from callbreak.cli.main import app
from callbreak.record import loads, replay

runner = CliRunner()


def arena(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["arena", *args])
    return result.exit_code, " ".join(result.output.split())  # unwrapped: rich wraps long errors


def test_json_has_the_documented_shape(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    code, text = arena("random", "random", "--matches", "3", "--seed", "4", "--workers", "1", "-q",
                       "--json", str(out))
    assert code == 0, text
    data = json.loads(out.read_text())
    assert {"preset", "seed", "deals", "players"} <= set(data)
    assert data["preset"] == "callbreak" and data["seed"] == 4
    assert data["deals"] == 3 * 4 * 5  # 3 sets x 4 seatings x 5 deals
    assert [p["name"] for p in data["players"]] == ["random#1", "random#2"]
    for p in data["players"]:
        assert {"name", "mean_score_per_deal", "ci95", "match_win_rate", "call_made_rate",
                "mean_move_ms", "p99_move_ms", "faults"} <= set(p)
        low, high = p["ci95"]
        assert low <= p["mean_score_per_deal"] <= high
        assert 0 <= p["match_win_rate"] <= 1 and 0 <= p["call_made_rate"] <= 1
        assert p["mean_move_ms"] >= 0 and p["faults"] == 0
        assert isinstance(p["faults"], int)
    # One against three copies: the single player sits at 4 tables a set, the copies at 12 seats.
    assert [p["deals"] for p in data["players"]] == [60, 180]
    assert "random#1" in text
    assert "score/deal" in text and "calls made" in text  # Call Break's words (hands for other games)


def test_csv_has_a_row_per_player(tmp_path: Path) -> None:
    out, js = tmp_path / "r.csv", tmp_path / "r.json"
    code, text = arena("random", "random", "random", "random", "--matches", "2", "--seed", "1",
                       "--workers", "1", "-q", "--csv", str(out), "--json", str(js))
    assert code == 0, text
    rows = list(csv.DictReader(out.open()))
    data = json.loads(js.read_text())
    assert [r["name"] for r in rows] == [p["name"] for p in data["players"]]
    for row, p in zip(rows, data["players"], strict=True):
        assert float(row["mean_score_per_deal"]) == pytest.approx(p["mean_score_per_deal"])
        assert float(row["ci95_low"]) == pytest.approx(p["ci95"][0])
        assert int(row["faults"]) == p["faults"]


def test_records_are_written_and_replay(tmp_path: Path) -> None:
    directory = tmp_path / "games"
    code, text = arena("random", "random", "--matches", "2", "--seed", "9", "--workers", "1", "-q",
                       "--preset", "nepal-traditional", "--option", "deals=2", "--records", str(directory))
    assert code == 0, text
    files = sorted(directory.glob("*.json"))
    assert len(files) == 2 * 4
    for f in files:
        record = loads(f.read_text())  # verifies every action and the totals
        m = replay(record)
        assert m.is_over and len(m.results) >= 2
        assert record.rules.min_call == 2 and record.rules.deals == 2
        assert record.seats.count("random#1") == 1


def test_plot_is_a_png(tmp_path: Path) -> None:
    out = tmp_path / "scores.png"
    code, text = arena("random", "random", "--matches", "2", "--seed", "3", "--workers", "1", "-q",
                       "--plot", str(out))
    assert code == 0, text
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_faults_are_reported_and_the_run_finishes(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    code, text = arena("test-crash", "random", "--matches", "1", "--seed", "2", "--workers", "1", "-q",
                       "--json", str(out))
    assert code == 0, text
    crash, rnd = json.loads(out.read_text())["players"]
    assert crash["faults"] == 4 * 4 * 14  # 4 tables, deals 2..5, 14 moves a deal
    assert crash["fault_kinds"] == {"error": crash["faults"]}
    assert rnd["faults"] == 0
    assert "fault: test-crash" in text and "boom" in text


@pytest.mark.process
def test_more_workers_give_the_same_results(tmp_path: Path) -> None:
    one, two = tmp_path / "1.json", tmp_path / "2.json"
    common = ["random", "test-spy", "random", "--matches", "3", "--seed", "17", "-q",
              "--budget", "60"]  # generous: a loaded machine must not turn into timing faults
    assert arena(*common, "--workers", "1", "--json", str(one))[0] == 0
    assert arena(*common, "--workers", "2", "--json", str(two))[0] == 0
    a, b = json.loads(one.read_text()), json.loads(two.read_text())
    timing = {"mean_move_ms", "p99_move_ms", "median_move_ms"}
    for pa, pb in zip(a["players"], b["players"], strict=True):
        assert {k: v for k, v in pa.items() if k not in timing} == {k: v for k, v in pb.items() if k not in timing}
    assert a["deals"] == b["deals"]


def test_a_different_seed_gives_different_deals(tmp_path: Path) -> None:
    one, two = tmp_path / "1.json", tmp_path / "2.json"
    assert arena("random", "random", "--matches", "2", "--seed", "1", "--workers", "1", "-q", "--json", str(one))[0] == 0
    assert arena("random", "random", "--matches", "2", "--seed", "2", "--workers", "1", "-q", "--json", str(two))[0] == 0
    assert json.loads(one.read_text())["players"] != json.loads(two.read_text())["players"]


@pytest.mark.parametrize("args, message", [
    (["nosuchbot", "random"], "unknown bot 'nosuchbot'"),
    (["random:speed=3", "random"], "bad options for bot 'random'"),
    (["random", "random", "--preset", "nope"], "unknown preset 'nope'"),
    (["random", "random", "--option", "wings=4"], "unknown option 'wings'"),
    (["random", "random", "--option", "deals"], "expected key=value"),
    (["random", "random", "--option", "min_call=9", "--option", "max_call=3"], "min_call"),
    (["random"], "2 to 4 players"),
    (["random"] * 5, "2 to 4 players"),
    (["random", "random", "--matches", "0"], "--matches must be at least 1"),
    (["random", "random", "--matches", "2", "--deals", "10"], "either"),
    (["random", "random", "--budget", "0"], "--budget must be positive"),
    (["random", "random", "--workers", "0"], "--workers must be at least 1"),
    (["random", "random", "--plot", "scores.xyz"], "must end in one of .png"),
    (["random", "random", "random", "--preset", "partnership"], "not 3"),
    (["random", "http://127.0.0.1:9", "--preset", "bhoos-tournament"], "cannot reach the bot"),
    (["random", "http://127.0.0.1:9"], "protocol bot cannot play these rules"),
])
def test_bad_input_is_refused_before_anything_runs(tmp_path: Path, args: list[str], message: str) -> None:
    records = tmp_path / "never"
    code, text = arena(*args, "--seed", "1", "-q", "--json", str(tmp_path / "r.json"), "--records", str(records))
    assert code == 2, text
    assert message in text
    assert not (tmp_path / "r.json").exists() and not records.exists()


def test_bad_output_paths_are_refused(tmp_path: Path) -> None:
    code, text = arena("random", "random", "--json", str(tmp_path / "missing" / "r.json"))
    assert code == 2 and "does not exist" in text
    afile = tmp_path / "f"
    afile.write_text("x")
    code, text = arena("random", "random", "--records", str(afile))
    assert code == 2 and "not a directory" in text


def test_a_bad_ray_address_is_refused_before_anything_runs() -> None:
    pytest.importorskip("ray")
    code, text = arena("random", "random", "--ray", "127.0.0.1:1", "--matches", "1", "-q")
    assert code == 2 and "cannot reach a Ray cluster" in text
    code, text = arena("random", "random", "--ray", "nonsense", "-q")
    assert code == 2 and "HOST:PORT" in text
