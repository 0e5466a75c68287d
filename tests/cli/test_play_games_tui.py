"""`callbreak play --game NAME`: the related games in the same terminal app as Call Break, driven
by keys through Textual's test pilot, saved after every move and resumed."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from _pilot import until
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static
from typer.testing import CliRunner

from callbreak.cli.main import app as cli
from callbreak.cli.tui.app import PlayApp
from callbreak.cli.tui.saves import latest_unfinished
from callbreak.cli.tui.session import APP_TAG, Session
from callbreak.core.actions import Bid, Exchange, Join, NameTrump, Pass, Play, Settle
from callbreak.core.cards import cards_of, sort_for_display
from callbreak.core.game import Phase
from callbreak.games import CHANCE
from callbreak.record import Record, loads, replay

SIZE = (80, 24)

# Which keys the test presses in each phase (the scheme shown on the bottom line).
PHASE_KEYS: dict[tuple[str, ...]] = {
    Phase.AUCTION: ("p",),
    Phase.TRUMP: ("h",),
    Phase.JOIN: ("y",),
    Phase.SETTLE: ("o",),
    Phase.EXCHANGE: ("1", "2", "space", "enter"),  # mark 1 and 2, unmark 2 again: discard 1
    Phase.PLAY: ("enter",),
}


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CALLBREAK_DATA_DIR", str(tmp_path))
    return tmp_path


def _screen_text(app: PlayApp) -> str:
    console = Console(width=SIZE[0], record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    for widget_id in ("#table", "#hand", "#status", "#prompt", "#keys"):
        console.print(app.query_one(widget_id, Static).content)
    text = console.export_text()
    console.file.close()
    return text


def _run(session: Session, body: Callable[[PlayApp, Pilot[None]], Awaitable[None]]) -> PlayApp:
    app = PlayApp(session, delay=0.0, think=0.02)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await body(app, pilot)

    asyncio.run(main())
    return app


def _waiting(app: PlayApp) -> bool:
    return not app.is_running or app.mode in ("act", "continue", "over", "broken")


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players"), [
    ("batak-ihaleli", 4), ("batak-koz-maca", 4), ("snarples", 3), ("snarples", 6), ("donut", 5),
    ("horsethief", 3), ("horsethief", 5),
])
def test_a_short_game_by_key_presses_shows_only_my_cards(game: str, players: int) -> None:
    session = Session.new(game, players=players, options={"max_hands": "2"},
                              opponents=["random"], seed=11)
    phases_seen: set[Phase] = set()

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        while app.is_running:
            await until(pilot, lambda: _waiting(app))
            if not app.is_running:
                break
            assert app.mode != "broken", app.log_lines[-3:]
            if app.mode != "act":
                await pilot.press("enter")
                continue
            view = app.session.view()
            game_state = app.session.game
            screen = _screen_text(app)
            # Hidden information: no card still held by another seat is anywhere on screen
            # (Donut's upcard is public although the dealer holds it).
            for seat in range(players):
                if seat != session.human:
                    held = [c for c in cards_of(game_state.hands[seat]) if c != view.upcard]
                    assert not [c for c in held if c.pretty in screen], (seat, screen)
            phases_seen.add(view.phase)
            keys = PHASE_KEYS[view.phase]
            assert any(word in screen for word in ("Enter", "←→")), screen
            if view.phase is Phase.AUCTION and Pass(session.human) not in view.legal:
                bid = min(a.tricks for a in view.legal if isinstance(a, Bid))
                keys = (*str(bid), "enter")
            before = len(game_state.history)
            await pilot.press(*keys)
            await until(pilot, _moved(app, before))

    _run(session, body)
    assert session.is_over and 1 <= len(session.game.results) <= 2
    assert Phase.PLAY in phases_seen or any(not r.active[session.human] for r in session.game.results)
    record = _saved(session)
    assert record.game == game and record.meta["app"] == APP_TAG
    assert replay(record).scores == session.game.scores  # the save is the whole game
    mine = [a for a in record.actions if getattr(a, "seat", None) == session.human]
    assert mine, "the person made moves"
    for a in mine:  # each of them came from the phase's keys
        if isinstance(a, Exchange):
            assert len(a.cards) == 1
        assert isinstance(a, (Play, Pass, Bid, NameTrump, Join, Settle, Exchange))


def _moved(app: PlayApp, before: int) -> Callable[[], bool]:
    """Whether the game got past ``before`` actions (or the app ended)."""
    return lambda: len(app.session.game.history) > before or not app.is_running


def _saved(session: Session) -> Record:
    assert session.save_path is not None
    return loads(session.save_path.read_text(encoding="utf-8"))


def _advance_to(session: Session, phase: Phase) -> None:
    """Let random choices (the person's too) play until the person must act in ``phase``."""
    import random

    rng = random.Random(0)
    for _ in range(2000):
        g = session.game
        if g.to_act == session.human and g.phase is phase:
            return
        if g.to_act == CHANCE:
            session.apply(session.chance_action())
        else:
            view = g.view(g.to_act)
            legal = list(view.legal)
            if g.to_act == session.human:
                # The person bids high and stays in, so that the later phases come round.
                keen = [a for a in legal if isinstance(a, Bid) or (isinstance(a, Join) and a.playing)]
                session.apply(max(keen, key=lambda a: getattr(a, "tricks", 0)) if keen
                              else rng.choice(legal))
            else:
                session.apply(rng.choice([a for a in legal if not isinstance(a, Bid)] or legal))
    raise AssertionError(f"never reached {phase}")


def test_bad_keys_are_refused_with_a_message_and_change_nothing() -> None:
    session = Session.new("batak-ihaleli", opponents=["random"], seed=4)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await until(pilot, lambda: app.mode == "act")
        view = app.session.view()
        assert view.phase is Phase.AUCTION
        before = app.session.game.snapshot()
        await pilot.press("3", "enter")  # below the minimum bid of 5
        assert "Not allowed" in app.log_lines[-1] and "5..13" in app.log_lines[-1]
        await pilot.press("x", "y", "enter")
        assert "is not a bid" in app.log_lines[-1]
        await pilot.press("s", "m", "escape")  # keys of other phases do nothing here
        assert app.session.game.snapshot() == before and app.mode == "act"
        bid = min(a.tricks for a in view.legal if isinstance(a, Bid))
        await pilot.press(*str(bid), "enter")
        await until(pilot, lambda: app.session.game.bids[app.session.human] == bid)

    _run(session, body)


def test_trump_and_exchange_keys_choose_exactly_what_was_asked() -> None:
    session = Session.new("horsethief", players=3, opponents=["heuristic"], seed=8)
    _advance_to(session, Phase.EXCHANGE)
    hand = sorted(session.view().hand or ())

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await until(pilot, lambda: app.mode == "act")
        assert "Space or 1-5" in _screen_text(app)
        await pilot.press("3", "1", "right", "space", "space", "escape", "2", "4", "enter")
        await until(pilot, lambda: any(isinstance(a, Exchange) and a.seat == session.human
                                        for a in app.session.game.history))

    _run(session, body)
    mine = [a for a in session.game.history if isinstance(a, Exchange) and a.seat == session.human]
    shown = sort_for_display(hand)  # the order the hand is drawn and numbered in
    assert set(mine[0].cards) == {shown[1], shown[3]}  # Esc cleared the first marks

    session = Session.new("snarples", players=4, opponents=["random"], seed=3)
    _advance_to(session, Phase.TRUMP)

    async def name_trump(app: PlayApp, pilot: Pilot[None]) -> None:
        await until(pilot, lambda: app.mode == "act")
        assert "s h d c" in _screen_text(app)
        await pilot.press("d")
        await until(pilot, lambda: app.session.game.phase is not Phase.TRUMP
                     or app.session.game.to_act != session.human)

    _run(session, name_trump)
    trump = session.view().trump
    assert trump is not None and trump.letter == "D"
    assert NameTrump(session.human, trump) in session.game.history


def test_resume_rebuilds_the_saved_game_and_continues_it() -> None:
    session = Session.new("donut", players=4, opponents=["heuristic", "random", "search"], seed=6)
    _advance_to(session, Phase.PLAY)
    assert session.save_path is not None
    assert latest_unfinished() == session.save_path
    assert loads(session.save_path.read_text()).game == "donut"
    again = Session.resume(session.save_path)
    assert again.game.snapshot() == session.game.snapshot()
    assert again.opponents == session.opponents and again.human == session.human
    # Both go on the same way to the next deal, and deal the same cards there.
    for s in (session, again):
        while s.game.to_act != CHANCE:
            s.apply(s.game.legal_actions()[0])
    assert again.chance_action() == session.chance_action()


def test_resume_refuses_a_record_not_saved_by_play(tmp_path: Path) -> None:
    session = Session.new("horsethief", players=3, opponents=["random"], seed=2)
    assert session.save_path is not None
    data = json.loads(session.save_path.read_text())
    data["meta"] = {}
    other = tmp_path / "other.json"
    other.write_text(json.dumps(data))
    with pytest.raises(Exception, match="not saved by `callbreak play`"):
        Session.resume(other)


@pytest.mark.parametrize(("args", "message"), [
    (["--game", "snarples", "--players", "9"], "Snarples is for 3 to 8 players"),
    (["--game", "horsethief", "--players", "3", "--seat", "3"], "--seat must be 0, 1 or 2"),
    (["--game", "donut", "--opponents", "random,random"], "one or three bot names"),
    (["--game", "donut", "--opponents", "expert"], "'expert' does not play donut; bots for donut are"),
    (["--game", "donut", "--opponents", "http://127.0.0.1:9"], "remote bots play the Call Break"),
    (["--game", "batak-ihaleli", "--option", "min_bid=99"], "min_bid"),
    (["--game", "nope"], "unknown game"),
    (["--game", "call-bridge", "--preset", "call-bridge-x"], "Call Break has no preset 'call-bridge-x'"),
    (["--players", "3"], "Call Break is for 4 players"),
])
def test_play_refuses_bad_settings_before_any_screen(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["play", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_i_asks_the_search_bot_for_a_hint_and_selects_it() -> None:
    session = Session.new("donut", players=4, opponents=["random"], seed=9)
    _advance_to(session, Phase.PLAY)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await until(pilot, lambda: app.mode == "act")
        before = app.session.game.snapshot()
        await pilot.press("i")
        await until(pilot, lambda: any(line.startswith("Hint from search: play") for line in app.log_lines))
        assert app.session.game.snapshot() == before  # a hint only suggests
        hinted = [line for line in app.log_lines if line.startswith("Hint from")][-1]
        order = sort_for_display(app.session.view().hand or ())
        assert app.selected_card is not None and order[app.selected_card].pretty in hinted
        status = app.query_one("#status")
        shown = " ".join("".join(s.text for s in status.render_line(y))
                         for y in range(status.region.height))
        assert " ".join(shown.split()).endswith(" ".join(hinted.split()))  # the reason and all
        app.say("a message much longer than one line of the status area " * 3)
        app.say("the newest message")
        app.redraw()
        last = "".join(s.text for s in status.render_line(status.region.height - 1))
        assert last.strip() == "the newest message"  # not pushed out of sight by the long one

    _run(session, body)
