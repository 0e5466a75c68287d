"""``callbreak review FILE``: the tables (mistakes first), the chart, the JSON, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from callbreak.bots import make_bot
from callbreak.cli import review as cli_review
from callbreak.cli.main import app
from callbreak.core.actions import CHANCE
from callbreak.games import game_info, new_game
from callbreak.record import dumps, record_of

runner = CliRunner()
ORDER = ["blunder", "mistake", "inaccuracy", "good", "best"]


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_review.console, "width", 200)


def _record(tmp_path: Path, stop_after: int | None = None) -> Path:
    g = new_game("callbreak", preset="bhoos-tournament")
    chance = game_info("callbreak").dealer(11)
    bots = [make_bot("heuristic", seed=i) for i in range(4)]
    while not g.is_over and (stop_after is None or len(g.history) < stop_after):
        g.apply(chance.chance(g) if g.to_act == CHANCE
                else bots[g.to_act].decide(g.view(g.to_act), 1.0).action)
    path = tmp_path / "game.json"
    path.write_text(dumps(record_of(g, seats=["ann", "bo", "cy", "di"])))
    return path


@pytest.mark.process
def test_review_prints_accuracy_and_decisions_mistakes_first_and_draws_the_chart(tmp_path):
    path = _record(tmp_path)
    png, out = tmp_path / "chart.png", tmp_path / "review.json"
    result = runner.invoke(app, ["review", str(path), "--samples", "8", "--all",
                                 "--plot", str(png), "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "Accuracy" in result.output and "Decisions, mistakes first" in result.output
    for seat, name in enumerate(("ann", "bo", "cy", "di")):
        assert f"Seat {seat + 1} · {name}" in result.output  # seats named by number and player
    for line in result.output.splitlines():
        if line.split()[:1] == ["best"]:
            # "best" is within noise of the top: no other card named better, no loss shown.
            assert "better" not in line and "0.00" not in line.split("Seat", 1)[1].split()[3:4]
    assert "trick so far:" in result.output or "leads;" in result.output
    assert "hand: " in result.output
    classes = [w for line in result.output.splitlines() for w in line.split()[:1] if w in ORDER]
    assert classes, result.output
    assert classes == sorted(classes, key=ORDER.index)  # the worst first
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads(out.read_text())
    assert data["format"] == "callbreak-review" and len(data["summary"]) == 4


def test_review_refuses_bad_input_with_a_clear_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = runner.invoke(app, ["review", str(bad)])
    assert result.exit_code == 2 and "not a JSON record" in result.output
    result = runner.invoke(app, ["review", str(tmp_path / "missing.json")])
    assert result.exit_code == 2 and "cannot read" in result.output
    result = runner.invoke(app, ["review", str(_record(tmp_path, stop_after=30))])
    assert result.exit_code == 2 and "not finished" in result.output


@pytest.mark.process
def test_the_review_offered_at_the_end_of_a_terminal_match_prints(capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from callbreak.cli import play as cli_play
    from callbreak.cli.tui.session import Session

    monkeypatch.setattr(cli_play.console, "width", 200)
    session = Session.new(preset="call-bridge", opponents=["random"], seed=6, save=False)
    game = session.game
    while not game.is_over:
        if game.to_act == CHANCE:
            stop = any(a.kind == "stop" for a in game.legal_actions(CHANCE))
            game.apply(session.chance_action(stop=stop))
        else:
            game.apply(game.legal_actions()[0])
    cli_play.review_session(session)
    out = capsys.readouterr().out
    assert "Accuracy" in out and "You" in out


@pytest.mark.parametrize(("name", "players", "options"), [("batak-koz-maca", 4, {"max_hands": 1}),
                                                         ("donut", 5, {})])
def test_review_of_a_related_game_record_by_its_search_bot(tmp_path: Path, name: str, players: int,
                                                           options: dict[str, int]) -> None:
    g = new_game(name, players=players, **options)
    chance = game_info(name).dealer(5)
    bots = [make_bot("heuristic" if s % 2 == 0 else "random", seed=s, game=name) for s in range(players)]
    while not g.is_over:
        g.apply(chance.chance(g) if g.to_act == CHANCE
                else bots[g.to_act].decide(g.view(g.to_act), 1.0).action)
    path = tmp_path / f"{name}.json"
    path.write_text(dumps(record_of(g, seats=[b.name for b in bots])))
    out = tmp_path / "review.json"
    result = runner.invoke(app, ["review", str(path), "--samples", "48", "--all", "--workers", "1",
                                 "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "not available" not in result.output
    assert "Judged by the search bot" in result.output and "Decisions, mistakes first" in result.output
    for seat in range(players):
        assert f"Seat {seat + 1} · " in result.output
    data = json.loads(out.read_text())
    assert data["judge"] == "search" and data["game"] == name and len(data["summary"]) == players
    kinds = {d["kind"] for d in data["decisions"] if d["label"] not in ("forced", "not judged")}
    assert kinds == {"call", "play"}
    assert any(line.split()[:1] and line.split()[0] in ORDER for line in result.output.splitlines())
