"""`callbreak replay FILE` reads any game's record (the record names its game), and steps
through it with --step."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from callbreak.cli.main import app
from callbreak.cli.tui.replay_app import ReplayApp
from callbreak.cli.tui.session import Session
from callbreak.core.actions import Bid, Join
from callbreak.core.scoring import format_points
from callbreak.games import CHANCE, game_info, new_game
from callbreak.record import dumps, loads, record_of

runner = CliRunner()


def _record_file(tmp_path: Path, game: str, players: int) -> tuple[Path, list[int]]:
    g = new_game(game, players, max_hands=2)
    dealer = game_info(game).dealer(3)
    rng = random.Random(3)
    while not g.is_over:
        if g.to_act == CHANCE:
            g.apply(dealer.chance(g))
            continue
        legal = g.legal_actions()
        # Everyone bids and plays, so that tricks are played and narrated.
        keen = [x for x in legal if isinstance(x, Bid) or (isinstance(x, Join) and x.playing)]
        g.apply(keen[0] if keen else rng.choice(legal))
    path = tmp_path / f"{game}.json"
    path.write_text(dumps(record_of(g, seats=[f"p{i}" for i in range(players)])))
    return path, list(g.totals)


@pytest.mark.parametrize(("game", "players"), [("batak-ihaleli", 4), ("snarples", 5), ("horsethief", 3)])
def test_replay_narrates_a_related_game_record(tmp_path: Path, game: str, players: int) -> None:
    path, totals = _record_file(tmp_path, game, players)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "Deal 1 (dealer" in result.output and "Trick 1:" in result.output
    last_scores = [line for line in result.output.splitlines() if line.strip().startswith("Scores:")][-1]
    assert last_scores.strip() == "Scores: " + ", ".join(f"Seat {s + 1} · p{s} {format_points(totals[s])}" for s in range(players))
    assert "Winner" in result.output


def test_replay_refuses_a_tampered_game_record_naming_the_problem(tmp_path: Path) -> None:
    path, _ = _record_file(tmp_path, "donut", 4)
    data = json.loads(path.read_text())
    data["result"]["scores"] = [0, 0, 0, 0]
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "result.scores[0] says 0 but replaying the actions gives" in " ".join(result.output.split())
    data = json.loads(path.read_text())
    first_play = next(i for i, a in enumerate(data["actions"]) if a["type"] == "play")
    data["actions"][first_play]["seat"] = (data["actions"][first_play]["seat"] + 1) % 4
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and f"action {first_play}" in result.output


def test_replay_step_opens_the_stepper_on_a_related_game_record(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    path, _ = _record_file(tmp_path, "horsethief", 4)
    opened: list[ReplayApp] = []
    monkeypatch.setattr(ReplayApp, "run", lambda self: opened.append(self))
    result = runner.invoke(app, ["replay", str(path), "--step", "--seat", "3"])
    assert result.exit_code == 0, result.output
    (stepper,) = opened
    assert stepper.record.game == "horsethief" and stepper.seat == 3
    result = runner.invoke(app, ["replay", str(path), "--step", "--seat", "4"])
    assert result.exit_code == 2 and "--seat must be 0-3" in result.output


def test_the_stepper_moves_through_a_related_game_seen_from_one_seat(tmp_path: Path) -> None:
    path, _ = _record_file(tmp_path, "snarples", 5)
    record = loads(path.read_text())
    stepper = ReplayApp(record, seat=4)

    async def main() -> None:
        async with stepper.run_test(size=(80, 24)) as pilot:
            await pilot.press("d")  # to just after the first deal
            assert record.actions[stepper.index - 1].kind == "deal"
            view = stepper.states[stepper.index].view(stepper.seat)
            dealt = record.actions[stepper.index - 1].hands[4]  # type: ignore[union-attr]
            assert view.seat == 4 and view.hand is not None and set(view.hand) == set(dealt)
            table = "".join(s.text for y in range(stepper.query_one("#table").region.height)
                            for s in stepper.query_one("#table").render_line(y))
            assert "South" not in table and "Seat 1" in table  # five seats: named by number, from 1
            await pilot.press("t")
            assert len(stepper.states[stepper.index].view(None).tricks) == 1
            await pilot.press("tab")
            assert stepper.seat == 0  # round the five seats
            await pilot.press("end")
            assert stepper.states[stepper.index].is_over
            await pilot.press("q")

    asyncio.run(main())
    assert not stepper.is_running


def test_replay_finds_a_saved_terminal_game_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CALLBREAK_DATA_DIR", str(tmp_path))
    session = Session.new("snarples", players=3, opponents=["random"], seed=1, options={"max_hands": "1"})
    session.apply(session.chance_action())
    assert session.save_path is not None
    # Not finished: the account (every hand) is refused, as for Call Break.
    result = runner.invoke(app, ["replay", session.save_path.name])
    assert result.exit_code == 2 and "you have not finished" in result.output
    rng = random.Random(1)  # not always the first choice: everyone passing redeals for ever
    while not session.is_over:
        g = session.game
        session.apply(session.chance_action() if g.to_act == CHANCE else rng.choice(g.legal_actions()))
    result = runner.invoke(app, ["replay", session.save_path.name])
    assert result.exit_code == 0, result.output
    assert "Snarples record: You · Seat 1" in result.output and "Winner" in result.output


def test_saved_games_list_names_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from callbreak.cli.tui.saves import list_saved

    monkeypatch.setenv("CALLBREAK_DATA_DIR", str(tmp_path))
    session = Session.new("horsethief", players=3, opponents=["random"], seed=1, options={"max_hands": "1"})
    rng = random.Random(1)  # not always the first choice: everyone passing redeals for ever
    while not session.is_over:
        g = session.game
        session.apply(session.chance_action() if g.to_act == CHANCE else rng.choice(g.legal_actions()))
    (saved,) = list_saved()
    assert saved.game == "horsethief" and saved.finished and saved.deals_played == 1
    assert saved.seats == ("you", "random", "random")
    result = CliRunner().invoke(app, ["games"], env={"COLUMNS": "200"})
    assert result.exit_code == 0 and "horsethief" in result.output
