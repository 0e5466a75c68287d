"""Words that read right: seats named by number and player, 'You deal first', Call Break's trump
before the first deal, a game record's account."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from callbreak.arena import play_match
from callbreak.bots import make_bot
from callbreak.cli.main import app
from callbreak.cli.tui import render
from callbreak.cli.tui.session import seat_names
from callbreak.core import Match, make_rules
from callbreak.core.actions import ChooseDealer
from callbreak.record import narrate

runner = CliRunner()


def test_you_deal_first_and_east_deals_first() -> None:
    names = ["You", "East (random)", "North (random)", "West (random)"]
    assert render.describe(ChooseDealer(0), names) == "You deal first"
    assert render.describe(ChooseDealer(1), names) == "East (random) deals first"


def test_call_break_shows_spades_as_trump_before_the_first_deal() -> None:
    view = Match(make_rules("callbreak")).view(0)
    assert view.trump is None  # nothing dealt yet
    console = Console(width=25, file=io.StringIO(), color_system=None)
    console.print(render.scores_view(view, ["You", "East", "North", "West"]))
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "trump ♠" in text and "none yet" not in text


def test_seats_beyond_four_are_numbered_from_one() -> None:
    assert seat_names(0, ["you", "random", "random", "random", "random"])[:3] == (
        "You · Seat 1", "Seat 2 · random", "Seat 3 · random")


def test_an_account_tells_seats_with_the_same_bot_apart() -> None:
    out = play_match(make_rules("callbreak"), [make_bot("random", seed=s) for s in range(4)], seed=1)
    lines = list(narrate(out.record))
    assert lines[0] == ("Call Break record: Seat 1 · random, Seat 2 · random, Seat 3 · random, "
                        "Seat 4 · random")
    assert lines[1].startswith("The first deal is dealt by Seat ")
    calls = [line.strip() for line in lines if " calls " in line][:4]
    assert [c.split(" calls ")[0] for c in calls] == [f"Seat {s} · random" for s in (1, 2, 3, 4)]
    assert not any(line.startswith("First dealer: random") for line in lines)


def test_the_saved_games_list_keeps_whole_file_names_at_80_columns(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from callbreak.cli import play as cli_play
    from callbreak.cli.tui.session import Session, Turn

    monkeypatch.setenv("CALLBREAK_DATA_DIR", str(tmp_path))
    session = Session.new(opponents=["heuristic", "random", "expert:budget=0.1"], seed=1)
    while session.turn is Turn.CHANCE:
        session.apply(session.chance_action())
    monkeypatch.setattr(cli_play.console, "width", 80)
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    assert session.save_path is not None and session.save_path.name in result.output


def test_presets_do_not_list_call_bridge_as_a_related_game() -> None:
    result = runner.invoke(app, ["presets"], env={"COLUMNS": "200"})
    related = " ".join(result.output.split("Related games", 1)[1].split())
    assert "call-bridge" not in related and "donut" in related


def test_flags_read_as_flags_in_help() -> None:
    text = runner.invoke(app, ["replay", "--help"], env={"COLUMNS": "120"}).output
    assert "<bool>" not in text and "--step" in text and "<int>" in text


def test_an_unknown_game_is_refused_before_setting_up_a_table() -> None:
    result = runner.invoke(app, ["play", "--game", "nosuch"])
    assert result.exit_code == 2 and "unknown game" in result.output
    assert "Setting up" not in result.output


def test_bot_server_help_does_not_say_stateless() -> None:
    text = " ".join(runner.invoke(app, ["bot-server", "--help"], env={"COLUMNS": "120"}).output.split())
    assert "stateless" not in text and "readings" in text


def test_every_command_is_summed_up_in_callbreak_help_without_a_broken_line() -> None:
    """`callbreak --help` lists each command by its summary, wrapped to the terminal: a summary
    with a hard line break inside shows as a ragged half line in that list."""
    import typer.main

    commands = typer.main.get_command(app).commands  # type: ignore[attr-defined]
    for name, command in commands.items():
        summary = (command.help or "").split("\n\n")[0].strip()
        assert summary and "\n" not in summary, name
