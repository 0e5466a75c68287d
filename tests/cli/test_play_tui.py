"""The `callbreak play` screen driven by key presses through Textual's test pilot."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from _pilot import until
from textual.pilot import Pilot

from callbreak.cli.tui import render
from callbreak.cli.tui.app import PlayApp
from callbreak.cli.tui.session import Session, Turn
from callbreak.core import Call, Phase, Redeal, make_rules
from callbreak.core.cards import DECK
from callbreak.record import loads

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CALLBREAK_DATA_DIR", str(tmp_path))
    return tmp_path


def _last_message(app: PlayApp) -> str:
    return app.messages[-1].plain if app.messages else ""


async def _my_turn(app: PlayApp, pilot: Pilot[None], phase: Phase | None = None) -> None:
    await until(pilot, lambda: not app.is_running or app.mode in ("act", "continue", "stop", "over"))
    if phase is not None:
        assert app.mode == "act" and app.session.view().phase is phase


async def _type(pilot: Pilot[None], text: str) -> None:
    await pilot.press(*text, "enter")


def _run(session: Session, body: Callable[[PlayApp, Pilot[None]], Awaitable[None]]) -> PlayApp:
    app = PlayApp(session, delay=0.0, think=0.02)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await body(app, pilot)

    asyncio.run(main())
    return app


@pytest.mark.slow
def test_a_whole_match_by_key_presses_with_every_way_of_choosing() -> None:
    """Calls typed as numbers or picked with arrows; cards typed as text, as numbers, or Enter."""
    session = Session.new(options={"deals": 1}, opponents=["random"] * 3, seed=21)
    plays_made = 0

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        nonlocal plays_made
        while app.is_running:
            await _my_turn(app, pilot)
            if not app.is_running:
                break
            if app.mode != "act":
                await pilot.press("enter")
                continue
            view = app.session.view()
            if view.phase is Phase.CALL:
                await pilot.press("escape", "left", "left", "right")  # the picker moves...
                await _type(pilot, "3")  # ...but a typed number wins
                continue
            legal = view.legal_cards
            hand = sorted(view.hand or (), key=lambda c: (c.suit, -c.rank))
            before = len(view.played)
            style = plays_made % 3
            if style == 0:
                await _type(pilot, legal[-1].text.lower())  # typed card text, any case
            elif style == 1:
                await _type(pilot, str(hand.index(legal[0]) + 1))  # the card's number
            else:
                await pilot.press("right", "enter")  # arrows pick among legal cards only
            deal = view.deal_number
            await until(pilot, lambda b=before, d=deal: len(app.session.view().played) > b  # type: ignore[misc]
                         or app.session.view().deal_number != d)
            plays_made += 1

    _run(session, body)
    assert session.game.is_over and len(session.game.results) == 1
    assert plays_made == 13
    assert session.save_path is not None
    saved = loads(session.save_path.read_text())
    assert list(saved.actions) == session.game.history
    calls = [a for a in session.game.history if isinstance(a, Call) and a.seat == session.human]
    assert calls[0].tricks == 3


@pytest.mark.slow
def test_a_full_default_match_by_enter_alone() -> None:
    session = Session.new(opponents=["random"], seed=7, save=False)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        while app.is_running:
            await _my_turn(app, pilot)
            if app.is_running:
                await pilot.press("enter")

    _run(session, body)
    assert session.game.is_over and len(session.game.results) == 5


def test_an_illegal_card_is_refused_with_the_legal_ones_named() -> None:
    session = Session.new(opponents=["random"], seed=1, save=False)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        for _ in range(60):  # find a turn where following suit rules out some card
            await _my_turn(app, pilot)
            view = app.session.view()
            if view.phase is Phase.PLAY and len(view.legal_cards) < len(view.hand or ()):
                break
            await pilot.press("enter")
        else:
            pytest.fail("never had an illegal card to try")
        view = app.session.view()
        illegal = next(c for c in view.hand or () if c not in view.legal_cards)
        before = app.session.game.snapshot()
        await _type(pilot, illegal.text)
        assert "Not allowed" in _last_message(app) and "legal:" in _last_message(app)
        assert app.session.game.snapshot() == before and app.mode == "act"
        await _type(pilot, "ZZ")
        assert "is not a card" in _last_message(app)
        await _type(pilot, "99")
        assert "no card number 99" in _last_message(app)
        await _type(pilot, "٣")  # an Arabic-Indic three: not one of the card numbers we show
        assert "is not a card" in _last_message(app)
        held = set(view.hand or ())
        missing = next(c for c in DECK if c not in held)
        await _type(pilot, missing.text)
        assert f"you do not hold {missing.pretty}; you may play " in _last_message(app)
        assert all(c.pretty in _last_message(app) for c in view.legal_cards)
        assert app.session.game.snapshot() == before
        await _type(pilot, view.legal_cards[0].text)
        await until(pilot, lambda: app.session.game.snapshot() != before)
        app.exit()

    _run(session, body)


def test_a_call_out_of_range_is_refused_and_a_good_one_taken() -> None:
    session = Session.new(options={"max_call": 8}, opponents=["random"], seed=2, save=False)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await _my_turn(app, pilot, Phase.CALL)
        from callbreak.cli.tui import render

        menu = render.menu_actions(app.session.view())
        assert [a.tricks for a in menu] == list(range(1, 9))
        start = app.selected_choice
        await pilot.press("right", "right", "left")
        assert app.selected_choice == (start + 1) % 8  # the picker wraps within 1..8
        before = app.session.game.snapshot()
        await _type(pilot, "9")
        assert "call must be 1..8, got 9" in _last_message(app)
        await _type(pilot, "0")
        assert "call must be 1..8" in _last_message(app)
        await _type(pilot, "three")
        assert "is not a call" in _last_message(app) and "1-8" in _last_message(app)
        await _type(pilot, "²")  # a digit to str.isdigit, but not a number int() reads
        assert "is not a call" in _last_message(app)
        await _type(pilot, "4b")  # blind calls are not allowed by this preset
        assert "blind calls are not allowed" in _last_message(app)
        assert app.session.game.snapshot() == before and app.mode == "act"
        await _type(pilot, "8")
        await until(pilot, lambda: app.session.view().calls[app.session.human] == 8)
        assert Call(app.session.human, 8) in app.session.game.history
        app.exit()

    _run(session, body)


def test_the_hint_key_names_the_bot_and_a_legal_move() -> None:
    session = Session.new(opponents=["random"], seed=3, save=False)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await _my_turn(app, pilot, Phase.CALL)
        await pilot.press("h")
        await until(pilot, lambda: "Hint from" in _last_message(app))
        assert "call " in _last_message(app)
        await pilot.press("enter")  # the hint moved the picker to the suggested call
        await _my_turn(app, pilot, Phase.PLAY)
        await pilot.press("h")
        await until(pilot, lambda: "Hint from" in _last_message(app))
        hint = _last_message(app)
        assert "play " in hint
        assert " ".join(" ".join(_drawn(app, "#status")).split()).endswith(hint)  # reason and all
        assert not any("Thinking" in line for line in _drawn(app, "#status"))
        assert any(f"play {c.pretty}" in hint for c in app.session.view().legal_cards)
        app.exit()

    _run(session, body)


def test_blind_call_before_looking_under_the_567_preset() -> None:
    session = Session.new(preset="567", options={"turn_timer": "off"}, opponents=["random"], seed=4,
                          save=False)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await _my_turn(app, pilot, Phase.CALL)
        assert app.session.view().hand is None  # face down until looked at
        await _type(pilot, "3b")
        await until(pilot, lambda: app.session.view().calls[app.session.human] == 3)
        assert app.session.view().blind[app.session.human]
        app.exit()

    _run(session, body)


def test_looking_then_calling_under_the_567_preset() -> None:
    session = Session.new(preset="567", options={"turn_timer": "off"}, opponents=["random"], seed=4, save=False)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await _my_turn(app, pilot, Phase.CALL)
        await pilot.press("l")
        assert app.session.view().hand is not None
        await _type(pilot, "2b")  # too late to call blind once the cards were seen
        assert "may not call blind" in _last_message(app)
        await _type(pilot, "2")
        await until(pilot, lambda: app.session.view().calls[app.session.human] == 2)
        assert not app.session.view().blind[app.session.human]
        app.exit()

    _run(session, body)


def test_the_turn_timer_plays_the_default_when_time_runs_out() -> None:
    session = Session.new(options={"turn_timer": "1"}, opponents=["random"], seed=5, save=False)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await _my_turn(app, pilot, Phase.CALL)
        await until(pilot, lambda: app.session.view().calls[app.session.human] is not None)
        assert app.session.view().calls[app.session.human] == 1  # the minimum call
        app.exit()

    _run(session, body)


def _seed_with_claim(rules_name: str) -> int:
    """A seed whose first deal lets seat 0 claim a redeal (found by dealing, not hard-coded)."""
    for seed in range(1, 3000):
        s = Session.new(preset=rules_name, opponents=["random"], seed=seed, save=False)
        while s.turn is Turn.CHANCE:
            s.apply(s.chance_action())
        while s.turn is Turn.BOT and s.game.phase is Phase.REDEAL_CLAIM:
            s.apply(Redeal(s.game.to_act, False))  # type: ignore[arg-type]
        if s.game.phase is not Phase.REDEAL_CLAIM:
            continue
        if s.turn is Turn.HUMAN and Redeal(0, True) in s.view().legal:
            return seed
    pytest.fail("no seed gives seat 0 a weak hand")


def test_a_redeal_claim_is_offered_and_taken_under_catsatcards() -> None:
    seed = _seed_with_claim("catsatcards")
    session = Session.new(preset="catsatcards", opponents=["random"], seed=seed, save=False)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await _my_turn(app, pilot)
        assert app.session.view().phase is Phase.REDEAL_CLAIM  # asked, not thrown in by a bot
        assert Redeal(0, True) in app.session.view().legal
        await pilot.press("y")
        await until(pilot, lambda: Redeal(0, True) in app.session.game.history)
        await until(pilot, lambda: any("Thrown in: seat 1 shows" in m for m in app.log_lines))  # seats from 1, as people count
        app.exit()

    _run(session, body)


def test_unlimited_deals_let_the_person_stop_the_table() -> None:
    session = Session.new(preset="call-bridge", opponents=["random"], seed=6, save=False)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        while app.mode != "stop":
            await _my_turn(app, pilot)
            if app.mode == "act":
                await pilot.press("enter")
        assert len(app.session.view().results) == 1
        await pilot.press("s")
        await until(pilot, lambda: app.mode == "over")
        await pilot.press("enter")

    app = _run(session, body)
    assert session.game.is_over and len(session.game.results) == 1
    assert session.turn is Turn.OVER and not app.is_running


def test_typing_while_the_bots_play_is_answered_not_acted_on() -> None:
    session = Session.new(opponents=["random"], seat=3, seed=8, save=False)
    app = PlayApp(session, delay=0.3, think=0.02)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            def two_bots_before_me() -> bool:  # so the keys surely arrive before my turn
                to_act = session.view().to_act
                return to_act is not None and to_act >= 0 and (3 - to_act) % 4 >= 2

            while not (app.mode == "busy" and session.view().phase is Phase.PLAY
                       and two_bots_before_me()):
                if app.mode == "act":
                    await pilot.press("enter")
                await pilot.pause(0.02)
            before, said = len(session.game.history), len(app.log_lines)
            await pilot.press("1", "enter")
            assert any("wait for your turn" in m for m in app.log_lines[said:])
            assert all(a.seat != 3 for a in session.game.history[before:] if hasattr(a, "seat"))
            app.exit()

    asyncio.run(main())


def _click_offset(text: object, action: str) -> tuple[int, int]:
    """Where on a two-line clickable Text (as drawn with one column of padding) ``action`` is."""
    from rich.style import Style
    from rich.text import Text

    assert isinstance(text, Text)
    plain = text.plain
    first_line = plain.index("\n") if "\n" in plain else len(plain)
    for span in text.spans:
        style = span.style
        if isinstance(style, Style) and style.meta.get("@click") == action and (
                "\n" not in plain or span.start > first_line):
            col = span.start - (first_line + 1 if "\n" in plain else 0)
            return 1 + col, (1 if "\n" in plain else 0)
    raise AssertionError(f"{action} is not on screen")


def test_mouse_clicks_make_the_call_and_play_a_legal_card() -> None:
    from callbreak.cli.tui import render

    session = Session.new(opponents=["random"], seed=9, save=False)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await _my_turn(app, pilot, Phase.CALL)
        view = app.session.view()
        picker = render.choices_text(view, selected=app.selected_choice)
        four = render.menu_actions(view).index(Call(0, 4))
        x, _ = _click_offset(picker, f"app.pick_choice({four})")
        await pilot.click("#prompt", offset=(x, 1))  # the picker is the prompt's second line
        await until(pilot, lambda: app.session.view().calls[0] == 4)
        await _my_turn(app, pilot, Phase.PLAY)
        view = app.session.view()
        order = render.hand_order(view)
        target = order.index(view.legal_cards[-1])
        drawn = render.hand_text(view, selected=app.selected_card, my_turn=True)
        await pilot.click("#hand", offset=_click_offset(drawn, f"app.pick_card({target})"))
        await until(pilot, lambda: order[target] in app.session.view().played)
        app.exit()

    _run(session, body)


@pytest.mark.slow
def test_keys_between_deals_are_answered_with_what_is_allowed() -> None:
    session = Session.new(options={"deals": 2}, opponents=["random"], seed=10, save=False)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        while app.mode != "continue":
            await _my_turn(app, pilot)
            if app.mode == "act":
                await pilot.press("enter")
        await pilot.press("x")
        assert "Enter starts the next deal" in _last_message(app)
        assert app.mode == "continue"
        app.exit()

    _run(session, body)


def test_the_screen_is_drawn_only_from_the_persons_seat_view(monkeypatch: pytest.MonkeyPatch) -> None:
    from callbreak.cli.tui import render

    drawn_for: set[int | None] = set()
    for name in ("table_view", "hand_text", "scores_view", "scoreboard"):
        original = getattr(render, name)

        def spy(view, *args, _original=original, **kwargs):  # type: ignore[no-untyped-def]
            drawn_for.add(view.seat)
            return _original(view, *args, **kwargs)

        monkeypatch.setattr(render, name, spy)
    session = Session.new(options={"deals": 1}, opponents=["random"], seat=2, seed=13, save=False)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        while app.is_running:
            await _my_turn(app, pilot)
            if app.is_running:
                await pilot.press("enter")

    _run(session, body)
    assert session.is_over and drawn_for == {2}


@pytest.mark.slow
def test_random_typing_never_breaks_the_game() -> None:
    import random

    keys = [*"abcdefghijklmnopqrstuvwxyzQHSD0123456789?!. -+", "enter", "backspace", "escape",
            "left", "right", "up", "down", "tab", "home", "end", "space", "f1"]
    rng = random.Random(2024)
    session = Session.new(preset="567", options={"deals": 1, "turn_timer": "off"}, opponents=["random"], seed=14)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        for _ in range(40):
            if not app.is_running:
                break
            await pilot.press(rng.choice(keys))
            assert app.mode != "broken", app.log_lines[-3:]
        while app.is_running:  # then finish the match properly
            await _my_turn(app, pilot)
            if app.is_running:
                await pilot.press("escape", "enter")
        assert app.mode != "broken"

    _run(session, body)
    assert session.game.is_over
    assert session.save_path is not None
    assert list(loads(session.save_path.read_text()).actions) == session.game.history


def test_the_draw_for_first_dealer_is_shown_under_catsatcards() -> None:
    session = Session.new(preset="catsatcards", opponents=["random"], seed=15, save=False)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await _my_turn(app, pilot)
        dealer = app.session.view().dealer
        assert dealer is not None
        assert any(line.startswith("Draw for dealer: You ") for line in app.log_lines)
        assert f"{render.deals_first(app.names[dealer], mine=dealer == app.session.human)}." in app.log_lines  # "You deal first."
        app.exit()

    _run(session, body)


def _hand_cells(app: PlayApp) -> tuple[dict[int, Any], dict[Any, Any]]:
    """The drawn faces row of the hand: card index -> its rank's style, suit -> symbol style."""
    from callbreak.core import Suit

    ranks: dict[int, Any] = {}
    symbols: dict[Any, Any] = {}
    for segment in app.query_one("#hand").render_line(1):
        style = segment.style
        if style is None or not segment.text.strip():
            continue
        click = style.meta.get("@click", "")
        if click.startswith("app.pick_card("):
            ranks[int(click.removeprefix("app.pick_card(").rstrip(")"))] = style
        else:
            symbols[next(s for s in Suit if s.symbol == segment.text.strip())] = style
    return ranks, symbols


def test_the_hand_is_drawn_in_suit_colours_with_only_legal_cards_marked() -> None:
    """Red suits' cards are red (not just their symbols); legal cards underlined, others dim."""
    from callbreak.cli.tui import render

    session = Session.new(opponents=["random"], seed=3, save=False)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        for _ in range(60):  # a turn where following suit rules out some cards
            await _my_turn(app, pilot)
            view = app.session.view()
            if view.phase is Phase.PLAY and len(view.legal_cards) < len(view.hand or ()):
                break
            await pilot.press("enter")
        else:
            pytest.fail("never had an illegal card to draw")
        order = render.hand_order(view)
        ranks, symbols = _hand_cells(app)
        assert sorted(ranks) == list(range(len(order)))
        red_colour = {style.color for suit, style in symbols.items() if suit.is_red}
        black_colour = {style.color for suit, style in symbols.items() if not suit.is_red}
        assert len(red_colour) == len(black_colour) == 1, "the hand should hold both colours"
        assert red_colour != black_colour
        for i, card in enumerate(order):
            style = ranks[i]
            assert style.color == symbols[card.suit].color, f"{card.pretty} drawn in another colour"
            if card in view.legal_cards:
                assert style.underline and not style.dim, card.pretty
            else:
                assert style.dim and not style.underline, card.pretty
        app.exit()

    _run(session, body)


def _drawn(app: PlayApp, selector: str) -> list[str]:
    """The lines a widget is drawn as on the screen."""
    widget = app.query_one(selector)
    return ["".join(s.text for s in widget.render_line(y)).rstrip()
            for y in range(widget.region.height)]


def test_a_message_longer_than_a_line_is_shown_whole_as_the_newest() -> None:
    session = Session.new(opponents=["random"], seed=3, save=False)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await _my_turn(app, pilot, Phase.CALL)
        await _type(pilot, "3")
        await _my_turn(app, pilot, Phase.PLAY)
        await _type(pilot, "zz")
        await _type(pilot, "qq")  # two long refusals: more lines than the status shows at 24 rows
        refusal = _last_message(app)
        assert "'qq' is not a card" in refusal
        assert len(refusal) > 78  # wraps at 80 columns
        shown = " ".join(" ".join(_drawn(app, "#status")).split())
        assert shown.endswith(refusal), shown
        app.exit()

    _run(session, body)


@pytest.mark.slow
def test_the_final_standings_fit_80x24_with_every_seat_placed() -> None:
    session = Session.new(preset="567", options={"deals": 2, "turn_timer": "off"}, opponents=["random"],
                          seed=16, save=False)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        while app.mode != "over":
            await _my_turn(app, pilot)
            await pilot.press("enter")
        screen = _drawn(app, "#table")
        text = "\n".join(screen)
        assert "Final standings" in text and "total" in text and "chips:" in text
        standings = next(line for line in screen if "Standings:" in line)
        totals = app.session.view().totals
        best = max(totals)
        for seat, name in enumerate(("You", "East", "North", "West")):
            place = 1 + sum(t > totals[seat] for t in totals)
            assert f"{place}. {name} " in standings
            assert (totals[seat] == best) == (seat in app.session.view().winners)
        assert "match is over" in " ".join(_drawn(app, "#prompt"))
        await pilot.press("enter")

    _run(session, body)
    assert session.is_over


@pytest.mark.slow
def test_bot_moves_are_paced_and_a_finished_trick_stays_in_sight_longer() -> None:
    import time

    delay = 0.25
    session = Session.new(opponents=["random"], seed=18, save=False)
    moves: list[tuple[float, bool, bool]] = []  # (when applied, by a bot, led a trick after the 1st)
    apply = session.apply

    def timed_apply(action: Any) -> None:
        apply(action)
        m = session.game
        if action.kind in ("call", "play"):
            lead = action.kind == "play" and len(m.trick) == 1 and bool(m.tricks)
            moves.append((time.monotonic(), action.seat != 0, lead))

    session.apply = timed_apply  # type: ignore[method-assign]
    app = PlayApp(session, delay=delay, think=0.01)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            while len(session.game.tricks) < 4:
                if app.mode == "act":
                    await pilot.press("enter")
                await pilot.pause(0.01)
            app.exit()

    asyncio.run(main())
    gaps = [(b[0] - a[0], b[2]) for a, b in zip(moves, moves[1:], strict=False) if a[1] and b[1]]
    assert len(gaps) >= 6 and any(lead for _, lead in gaps)
    for gap, lead in gaps:
        assert gap >= (2 * delay if lead else delay) - 0.01, gaps


def test_the_status_lines_are_refitted_when_the_terminal_is_resized() -> None:
    session = Session.new(opponents=["random"], seed=3, save=False)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await _my_turn(app, pilot, Phase.CALL)
        await pilot.press("?")
        help_text = _last_message(app)
        narrow = [line for line in _drawn(app, "#status") if line.strip()]
        def shown() -> list[str]:
            return [line for line in _drawn(app, "#status") if line.strip()]

        await pilot.resize_terminal(160, 40)
        await until(pilot, lambda: len(shown()) > 4)  # a taller terminal shows more
        wide = shown()
        assert len(narrow) == 4
        assert " ".join(" ".join(wide[-2:]).split()) == help_text  # wrapped at the new width
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: shown() == narrow)
        app.exit()

    _run(session, body)


def test_the_side_panel_fits_its_25_columns_under_every_preset() -> None:
    from rich.console import Console

    from callbreak.cli.tui import render
    from callbreak.core import CHANCE, PRESETS, Dealer, Match

    for name in PRESETS:
        m = Match(make_rules(name))
        dealer = Dealer(seed=1)
        while m.to_act == CHANCE:
            m.apply(dealer.chance(m))
        console = Console(width=25, record=True)
        with console.capture() as captured:
            console.print(render.scores_view(m.view(0), ["You", "East (expert)", "North (x)", "West (y)"]),
                          crop=False, overflow="ignore")
        lines = captured.get().splitlines()
        assert lines[0].startswith("Deal 1") and "trump" in "".join(lines[:2]), (name, lines)
        assert all(len(line.rstrip()) <= 25 for line in lines), (name, lines)
        assert not lines[1].startswith(("yet", "none")), (name, lines)  # no word wrapped off


def test_the_same_answer_to_repeated_keys_is_shown_once() -> None:
    session = Session.new(opponents=["random"], seed=3, save=False)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await _my_turn(app, pilot, Phase.CALL)
        await pilot.press(*"xxxxxxxxxxxx")
        assert app.log_lines.count("Too much typed: Esc clears, Enter confirms.") == 6
        shown = [m.plain for m in app.messages]
        assert shown.count("Too much typed: Esc clears, Enter confirms.") == 1
        assert len(shown) > 1  # what happened before is still on the status lines
        app.exit()

    _run(session, body)


def test_a_terminal_smaller_than_80x24_still_shows_the_hand_and_prompt() -> None:
    session = Session.new(opponents=["random"], seed=3, save=False)
    app = PlayApp(session, delay=0.0, think=0.02)

    async def main() -> None:
        async with app.run_test(size=(60, 18)) as pilot:
            await _my_turn(app, pilot, Phase.CALL)
            for selector in ("#hand", "#prompt"):
                region = app.query_one(selector).region
                assert region.height > 0 and region.bottom <= 18, (selector, region)
            assert "Your call" in " ".join(_drawn(app, "#prompt"))
            await pilot.press("enter")
            await _my_turn(app, pilot, Phase.PLAY)
            hand = len(session.view().hand or ())
            await pilot.press("enter")
            await until(pilot, lambda: len(session.view().hand or ()) == hand - 1)
            app.exit()

    asyncio.run(main())


def test_the_title_names_the_save_file_at_80_columns_whatever_the_seed() -> None:
    session = Session.new(opponents=["random"], seed=2**31 - 1)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await _my_turn(app, pilot, Phase.CALL)
        (title,) = _drawn(app, "#title")
        assert session.save_path is not None and session.save_path.name in title
        assert f"seed {2**31 - 1}" in title and "calls 1-13" in title
        app.exit()

    _run(session, body)


def test_the_table_shows_the_trick_who_led_who_is_winning_and_whose_turn_it_is() -> None:
    from callbreak.core.tricks import trick_winner

    session = Session.new(opponents=["random"], seed=3, save=False)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        for _ in range(60):  # a turn of ours with two or more cards on the table
            await _my_turn(app, pilot)
            view = app.session.view()
            if view.phase is Phase.PLAY and len(view.trick) >= 2:
                break
            await pilot.press("enter")
        else:
            pytest.fail("never saw a trick two cards deep on our turn")
        seats = view.trick_seats
        win = trick_winner([int(c) for c in view.trick], int(view.trump) if view.trump is not None else -1)
        leader = app.session.position(seats[0])
        winner = app.session.position(seats[win])
        lines = _drawn(app, "#table")
        led_row = next(i for i, line in enumerate(lines) if f"{leader} led {view.trick[0].suit.symbol}" in line)
        start = lines[led_row].index(f"{leader} led") - 3
        note = [line[start:start + len(f"{leader} led ♦") + 6] for line in lines[led_row:led_row + 3]]
        assert winner in " ".join(note[1:]) and "winning" in " ".join(note[1:]), note
        # Every card of the trick is on the table, the winning one (only) drawn reversed.
        reversed_cards = []
        for y in range(len(lines)):
            for segment in app.query_one("#table").render_line(y):
                if segment.style is not None and segment.style.reverse and segment.text.strip():
                    reversed_cards.append(segment.text.strip())
        assert reversed_cards == [view.trick[win].pretty]
        for card in view.trick:
            assert any(card.pretty in line for line in lines)
        assert "▶ to act" in " ".join(lines[-2:])  # under "You", at the bottom
        # Calls and tricks won for every seat, in the side panel.
        panel = _drawn(app, "#scores")
        for seat in range(4):
            name = app.session.position(seat) if seat != app.session.human else "You"
            row = next(line for line in panel if line.split()[:1] == [name])
            assert row.split()[1:3] == [str(view.calls[seat]), str(view.won[seat])], row
        app.exit()

    _run(session, body)


def test_the_side_panel_lists_you_first_then_the_seats_in_play_order() -> None:
    session = Session.new(opponents=["random"], seat=2, seed=20, save=False)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        await _my_turn(app, pilot, Phase.CALL)
        names = [line.split()[0] for line in _drawn(app, "#scores")
                 if line.split()[:1] and line.split()[0] in ("You", "East", "North", "West")]
        assert names == ["You", "East", "North", "West"]
        app.exit()

    _run(session, body)


def test_the_scoreboard_columns_start_with_you_whatever_your_seat() -> None:
    from rich.console import Console

    from callbreak.cli.tui import render
    from callbreak.core import CHANCE, Dealer, Match, format_points

    m = Match(make_rules("callbreak", deals=2))
    dealer = Dealer(seed=21)
    while not m.is_over:
        m.apply(dealer.chance(m) if m.to_act == CHANCE else m.legal_actions()[0])
    names = ["North · Seat 1 · a", "West · Seat 2 · b", "You · Seat 3", "East · Seat 4 · c"]  # the person sits at seat 2
    console = Console(width=78)
    with console.capture() as captured:
        console.print(render.scoreboard(m.view(2), names, final=True, me=2))
    lines = captured.get().splitlines()
    header = next(line for line in lines if line.split()[:1] == ["deal"])
    assert header.split()[1:] == ["You", "East", "North", "West"]
    total = next(line for line in lines if line.split()[:1] == ["total"])
    assert total.split()[1:] == [format_points(m.view(2).totals[s]) for s in (2, 3, 0, 1)]


def test_the_end_of_a_match_offers_the_expert_review() -> None:
    session = Session.new(preset="call-bridge", opponents=["random"], seed=6, save=False)

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        while app.mode != "stop":
            await _my_turn(app, pilot)
            if app.mode == "act":
                await pilot.press("enter")
        await pilot.press("s")
        await until(pilot, lambda: app.mode == "over")
        assert "r: the expert's review" in str(app._prompt(app.session.view()))
        await pilot.press("r")

    app = _run(session, body)
    assert session.game.is_over and app.return_value == "review"
