"""The core's commands: ``callbreak --version``, ``presets``, ``presets NAME``, ``bots``, ``replay FILE``."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from callbreak import __version__
from callbreak.cli import main as cli_main
from callbreak.cli.main import app
from callbreak.core import CHANCE, PRESETS, Match, make_rules
from callbreak.core.dealing import Dealer
from callbreak.record import dumps, record_of

runner = CliRunner()


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables are checked line by line: keep rich from wrapping them whatever the terminal."""
    monkeypatch.setattr(cli_main.console, "width", 200)


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"callbreak {__version__}"


@pytest.mark.process
def test_version_from_the_installed_command() -> None:
    """The console script really exists and runs."""
    exe = Path(sys.executable).parent / "callbreak"
    out = subprocess.run([str(exe), "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and __version__ in out.stdout


def test_presets_lists_every_preset_with_its_description() -> None:
    result = runner.invoke(app, ["presets"], terminal_width=200)
    assert result.exit_code == 0
    for name, p in PRESETS.items():
        line = next(ln for ln in result.stdout.splitlines() if ln.split() and ln.split()[0] == name)
        assert p.description.split(":")[0] in line


def test_presets_name_prints_every_option() -> None:
    result = runner.invoke(app, ["presets", "nepal-traditional"], terminal_width=200)
    assert result.exit_code == 0
    lines = {ln.split()[0]: ln.split()[1:] for ln in result.stdout.splitlines()[1:] if ln.split()}
    rules = PRESETS["nepal-traditional"].rules
    for option in rules.to_dict():
        assert option in lines
    assert lines["min_call"] == ["2"] and lines["void_rule"] == ["must_trump"]
    assert lines["spade_lead_first_trick"] == ["forbidden"]


def test_unknown_preset_exits_2_with_a_clear_message() -> None:
    result = runner.invoke(app, ["presets", "bridge"])
    assert result.exit_code == 2
    err = " ".join(result.stderr.split())
    assert "unknown preset 'bridge'" in err and "callbreak" in err
    assert result.stdout == ""


def test_bots_lists_every_bot_with_what_it_is() -> None:
    from callbreak.bots.base import catalog

    result = runner.invoke(app, ["bots"], terminal_width=200)
    assert result.exit_code == 0
    rows = [ln.split(None, 1) for ln in result.stdout.splitlines() if ln.split()]
    for entry in catalog():
        assert any(r[0] == entry.name and entry.description in r[1] for r in rows), entry.name
    games_of = {r[0]: r[1] for r in rows if r[0] in ("random", "search")}
    assert games_of["random"].startswith("every game")
    assert "callbreak" not in games_of["search"].split("Our strongest")[0]  # the related games only


def test_bots_says_what_a_bot_whose_extra_is_missing_needs(monkeypatch: pytest.MonkeyPatch) -> None:
    from callbreak.bots import base as bot_base

    monkeypatch.setattr(bot_base, "_REGISTRY", dict(bot_base._REGISTRY))
    bot_base.register("needs-extra", requires="no_such_module_for_callbreak", extra="some-extra")(
        lambda seed=None: None)
    result = runner.invoke(app, ["bots"], terminal_width=200)
    line = next(ln for ln in result.stdout.splitlines() if ln.split() and ln.split()[0] == "needs-extra")
    assert "(needs pip install 'callbreak[some-extra]')" in line


def test_bots_for_one_game_lists_only_its_bots() -> None:
    result = runner.invoke(app, ["bots", "--game", "donut"], terminal_width=200)
    assert result.exit_code == 0
    names = {ln.split()[0] for ln in result.stdout.splitlines()[1:] if ln.startswith(" ")}
    assert {"search", "heuristic", "random"} <= names and "expert" not in names


def test_bots_for_an_unknown_game_exits_2() -> None:
    result = runner.invoke(app, ["bots", "--game", "bridge"])
    assert result.exit_code == 2 and "unknown game 'bridge'" in " ".join(result.stderr.split())


def _record_file(tmp_path: Path) -> tuple[Path, Match]:
    m = Match(make_rules("callbreak", deals=2))
    d = Dealer(9)
    rng = random.Random(9)
    while not m.is_over:
        m.apply(d.chance(m) if m.to_act == CHANCE else rng.choice(m.legal_actions()))
    path = tmp_path / "game.json"
    path.write_text(dumps(record_of(m, seats=["ana", "bo", "cy", "di"])))
    return path, m


def test_replay_prints_a_deal_by_deal_account(tmp_path: Path) -> None:
    path, m = _record_file(tmp_path)
    result = runner.invoke(app, ["replay", str(path)], terminal_width=200)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "Deal 1 (dealer" in out and "Deal 2 (dealer" in out
    assert out.count("Trick ") == 26
    assert "Winner" in out
    assert any(ln.strip().startswith("Scores:") for ln in out.splitlines())


def test_replay_refuses_a_corrupt_record(tmp_path: Path) -> None:
    path, _ = _record_file(tmp_path)
    data = json.loads(path.read_text())
    i = next(i for i, a in enumerate(data["actions"]) if a["type"] == "call")
    data["actions"][i]["tricks"] = 14
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    err = " ".join(result.stderr.split())  # rich may wrap long messages
    assert f"action {i}" in err and "call must be 1..13" in err
    assert result.stdout == ""


def test_replay_refuses_broken_json_and_missing_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 2 and "not a JSON record" in " ".join(result.stderr.split())
    result = runner.invoke(app, ["replay", str(tmp_path / "missing.json")])
    assert result.exit_code == 2 and "cannot read" in " ".join(result.stderr.split())


@pytest.mark.process
@pytest.mark.parametrize("module", ["callbreak", "callbreak.cli.main"])
def test_python_dash_m_has_every_subcommand(module: str) -> None:
    """``python -m callbreak`` (and the module itself) know the commands registered elsewhere."""
    out = subprocess.run([sys.executable, "-m", module, "arena", "--help"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "duplicate" in out.stdout.lower()


def test_help_lists_every_command_once_in_the_order_people_need_them() -> None:
    """Playing first (play, serve, review), then the rules and bots, then the tools; each panel
    titled, every registered command listed exactly once."""
    result = runner.invoke(app, ["--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    panels = [line.strip("╭─╮ ") for line in lines if line.startswith("╭─")]
    assert panels == ["Options", "Play", "Rules and bots", "Bot writers and researchers"]
    listed = [line.split()[1] for line in lines if line.startswith("│ ") and line.split()[1][:1].isalpha()
              and not line.split()[1].startswith("-")]
    registered = typer.main.get_command(app).commands  # type: ignore[attr-defined]
    shown = [name for name in listed if name in registered]
    assert sorted(shown) == sorted(registered)  # each once
    assert shown[:3] == ["play", "serve", "review"]
