"""Presets are listed to users by the names players know (their titles) beside the names typed."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from callbreak.cli import games as cli_games
from callbreak.cli import main as cli_main
from callbreak.cli.main import app
from callbreak.core import PRESETS
from callbreak.games import game_info, games

runner = CliRunner()


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables are checked line by line: keep rich from wrapping them whatever the terminal."""
    monkeypatch.setattr(cli_main.console, "width", 200)
    monkeypatch.setattr(cli_games.console, "width", 200)


def _row(stdout: str, name: str) -> str:
    return next(ln for ln in stdout.splitlines() if ln.split() and ln.split()[0] == name)


def test_presets_lists_every_preset_with_its_title() -> None:
    result = runner.invoke(app, ["presets"], terminal_width=200)
    assert result.exit_code == 0
    assert "title" in result.stdout.splitlines()[0]
    for name, p in PRESETS.items():
        row = _row(result.stdout, name)
        assert p.title in row and p.description.split(":")[0] in row, name


def test_presets_name_is_headed_by_its_title() -> None:
    result = runner.invoke(app, ["presets", "call-bridge"], terminal_width=200)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].startswith("Call Bridge (pagat.com) (call-bridge): The pagat.com rules")


def test_related_games_name_lists_the_game_presets_with_their_titles() -> None:
    result = runner.invoke(app, ["related-games", "callbreak"], terminal_width=200)
    assert result.exit_code == 0
    for p in game_info("callbreak").presets:
        assert p.title in _row(result.stdout, p.name), p.name


@pytest.mark.parametrize("name", [info.name for info in games()])
def test_a_games_options_are_shown_as_they_are_typed(name: str) -> None:
    """`callbreak related-games NAME` lists the first preset's options as a player types them
    (on/off, an enum's value, off for an empty one), never Python's None/True/False; typed back
    with --option, each gives the same options."""
    result = runner.invoke(app, ["related-games", name], terminal_width=200)
    assert result.exit_code == 0
    info = game_info(name)
    options = info.make_options(None, {})
    table = result.stdout[result.stdout.index("\n option ") :]  # (below the presets' table)
    for key, value in options.describe():
        row = _row(table, key).split()
        assert row[1:] == value.split(), key
        assert not {"None", "True", "False"} & set(row), key
        if "=" not in value:  # (a pair is shown by its parts' names, typed as A:B)
            assert info.make_options(None, {key: value}) == options, key
