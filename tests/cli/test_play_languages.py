"""The terminal game, its replay and its review in Nepali, Hindi and Bengali: every word on the
screen in the chosen language, numbers in its digits; the language chosen by --lang, else the
one remembered, else the locale's variables; F2 switches and remembers it."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from _pilot import until
from rich.console import Console
from textual.widgets import Static
from typer.testing import CliRunner

from callbreak.cli.main import app as cli
from callbreak.cli.tui import language, render
from callbreak.cli.tui.app import PlayApp
from callbreak.cli.tui.replay_app import ReplayApp
from callbreak.cli.tui.session import Session, Turn
from callbreak.core import Phase
from callbreak.record import loads, record_of, replay

runner = CliRunner()

# What stays in Latin letters on a translated screen, and why: the keys as printed on the keyboard
# (Enter, ctrl+q, Home/End, Tab), and the bots' names, which are what `--opponents` and `--hint`
# take (the seats show "East (random)"; the hint names the expert). Card faces (Q♥) and what is
# typed (QH, 3b) are at most two letters.
LATIN_ALLOWED = {"Enter", "ctrl", "Home", "End", "Tab", "random", "expert"}
DIGITS = {"ne": "०१२३४५६७८९", "bn": "০১২৩৪৫৬৭৮৯", "hi": "0123456789"}
SCRIPT = {"ne": "\u0900-\u097f", "hi": "\u0900-\u097f", "bn": "\u0980-\u09ff"}


def _screen(app: PlayApp | ReplayApp) -> str:
    lines = []
    for widget in app.query(Static):
        if widget.display:
            lines += ["".join(s.text for s in widget.render_line(y)).rstrip()
                      for y in range(widget.region.height)]
    return "\n".join(lines)


def _assert_in(lang: str, text: str) -> None:
    """``text`` is in ``lang``: no English words, its script, its digits (and no other's)."""
    latin = set(re.findall(r"[A-Za-z]{3,}", text)) - LATIN_ALLOWED
    assert not latin, f"untranslated in {lang}: {sorted(latin)}\n{text}"
    assert re.search(f"[{SCRIPT[lang]}]", text), text
    assert any(d in text for d in DIGITS[lang]), text
    others = set("".join(DIGITS.values())) - set(DIGITS[lang]) - set("0123456789")
    assert not others & set(text), f"another language's digits in {lang}:\n{text}"


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ne", "hi", "bn"])
def test_a_whole_one_deal_game_is_played_in_the_language(lang: str) -> None:
    language.use(lang)
    session = Session.new(options={"deals": 1}, opponents=["random"], seed=5, save=False)
    app = PlayApp(session, delay=0.0, think=0.02)
    screens: list[str] = []

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            asked_hint = False
            while app.mode != "over":
                await until(pilot, lambda: app.mode in ("act", "continue", "stop", "over"))
                screens.append(_screen(app))
                view = session.view()
                if app.mode == "act" and view.phase is Phase.PLAY and not asked_hint:
                    asked_hint = True  # the hint's advice, in words
                    await pilot.press("h")
                    await until(pilot, lambda: not app._hint_busy)
                    hint = language._("Hint from {bot}: {advice}").format(bot="expert", advice="")
                    assert app.log_lines[-1].startswith(hint), app.log_lines[-1]
                    screens.append(_screen(app))
                if app.mode != "over":
                    await pilot.press("enter")
            screens.append(_screen(app))
            await pilot.press("enter")

    asyncio.run(main())
    assert session.is_over and len(screens) > 14  # 13 cards, the call and the end at least
    for screen in screens:
        _assert_in(lang, screen)
    _assert_in(lang, "\n".join(app.log_lines))
    plays = [a for a in session.game.history if a.kind == "play"]
    assert all(language.card_words(a.card) in "\n".join(app.log_lines) for a in plays)


def test_f2_switches_the_language_at_once_and_the_next_game_starts_in_it() -> None:
    session = Session.new(opponents=["random"], seed=3, save=False)
    app = PlayApp(session, delay=0.0, think=0.02)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.mode == "act")
            assert "Your call" in _screen(app)
            await pilot.press("f2")  # English -> Nepali: the whole screen, titles and seats too
            assert language.current() == "ne"
            _assert_in("ne", _screen(app))  # the English news so far is cleared
            assert "तपाईंको कल" in _screen(app) and "कल ब्रेक" in _screen(app)
            assert app.log_lines[-1] == "भाषा: नेपाली"
            await pilot.press("f2", "f2")  # -> Hindi -> Bengali
            assert language.current() == "bn" and "আপনার কল" in _screen(app)
            await pilot.press("৩", "enter")  # the call typed in Bengali digits, as the picker shows
            await until(pilot, lambda: session.view().calls[0] is not None)
            assert session.view().calls[0] == 3 and "আপনি ৩ কল করলেন" in app.log_lines
            app.exit()

    asyncio.run(main())
    assert language.choose(None, environ={"LANG": "hi_IN.UTF-8"}) == "bn"  # remembered, over the locale


def test_the_language_is_chosen_by_lang_else_remembered_else_the_locale(monkeypatch: pytest.MonkeyPatch,
                                                                        tmp_path: Path) -> None:
    assert language.choose(None, environ={}) == "en"
    assert language.choose(None, environ={"LANG": "ne_NP.UTF-8"}) == "ne"
    assert language.choose(None, environ={"LANG": "hi_IN.UTF-8", "LC_MESSAGES": "bn_BD"}) == "bn"
    assert language.choose(None, environ={"LANG": "bn_BD.UTF-8", "LC_ALL": "C.UTF-8"}) == "en"
    assert language.choose("ne-NP", environ={"LANG": "bn_BD.UTF-8"}) == "ne"
    started: list[str] = []

    def run(self: PlayApp) -> None:
        started.append(language.current())

    monkeypatch.setattr(PlayApp, "run", run)
    play = ["play", "--fast", "-o", "deals=1", "--opponents", "random"]
    result = runner.invoke(cli, play, env={"LANG": "bn_BD.UTF-8"})
    assert result.exit_code == 0, result.output
    assert started == ["bn"] and language.remembered() is None  # the locale's, not remembered
    assert "খেলা" in result.output  # "Match saved to ...": the words after the game too
    result = runner.invoke(cli, [*play, "--lang", "hi"], env={"LANG": "bn_BD.UTF-8"})
    assert result.exit_code == 0, result.output
    assert started[-1] == "hi" and language.remembered() == "hi"
    result = runner.invoke(cli, play, env={"LANG": "bn_BD.UTF-8"})
    assert started[-1] == "hi"  # remembered, over the locale


def test_an_unknown_language_is_refused_naming_those_offered() -> None:
    result = runner.invoke(cli, ["play", "--lang", "fr"])
    assert result.exit_code == 2
    text = " ".join(result.output.split())
    assert "unknown language 'fr'" in text
    for code, name in (("en", "English"), ("ne", "नेपाली"), ("hi", "हिन्दी"), ("bn", "বাংলা")):
        assert f"{code} ({name})" in text
    assert language.remembered() is None and not list(Path(language.settings_path().parent).glob("games/*"))


def played_out() -> Session:
    """A one-deal game against random bots, played to its end by defaults (seed 7)."""
    session = Session.new(options={"deals": 1}, opponents=["random"], seed=7, save=False)
    while not session.is_over:
        if session.turn is Turn.HUMAN:
            session.apply_human(session.default_action())
        elif session.turn is Turn.CHANCE:
            session.apply(session.chance_action())
        else:
            session.apply(session.decide(*session.bot_view(), 0.01).action)
    return session


@pytest.mark.parametrize("lang", ["ne", "bn"])
def test_the_replay_steps_through_a_game_in_the_language(lang: str) -> None:
    language.use("en")
    session = played_out()
    language.use(lang)
    record = record_of(session.game, seats=session.seat_labels())
    app = ReplayApp(record, seat=0)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            _assert_in(lang, _screen(app))
            await pilot.press("d", "t", "right", "right")
            _assert_in(lang, _screen(app))
            await pilot.press("end")
            _assert_in(lang, _screen(app))
            app.exit()

    asyncio.run(main())


def test_the_review_command_speaks_the_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from callbreak.cli import review as cli_review
    from callbreak.record import dumps

    monkeypatch.setattr(cli_review.console, "width", 200)
    session = played_out()
    path = tmp_path / "game.json"
    path.write_text(dumps(record_of(session.game, seats=["random"] * 4)))
    result = runner.invoke(cli, ["review", str(path), "--samples", "8", "--workers", "1", "--all",
                                 "--lang", "ne"])
    assert result.exit_code == 0, result.output
    faces = re.sub("(10|[2-9JQKA])[♠♥♦♣]", "", result.output)  # the cards as printed on them
    assert set(re.findall(r"[A-Za-z]{3,}", faces)) <= {"random"}, result.output
    assert "सिट १ · random" in result.output and "शुद्धता" in result.output
    assert "निर्णयहरू, गल्ती पहिले" in result.output and not re.search("[0-9]", faces)
    assert language.remembered() is None  # a review's --lang is for that review only


def test_a_refused_card_or_call_is_explained_in_the_language() -> None:
    """The games give their reasons in English; the terminal says in the language what is allowed."""
    language.use("hi")
    session = Session.new(opponents=["random"], seed=1, save=False)
    app = PlayApp(session, delay=0.0, think=0.02)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.mode == "act")
            await pilot.press("9", "9", "enter")  # a call out of range
            assert app.log_lines[-1] == "अनुमति नहीं: 99 अभी नहीं चुन सकते; 1-13 में से चुनें"
            await pilot.press("enter")
            for _ in range(60):  # a turn where following suit rules out some card
                await until(pilot, lambda: app.mode in ("act", "continue", "over"))
                view = session.view()
                if view.phase is Phase.PLAY and len(view.legal_cards) < len(view.hand or ()):
                    break
                await pilot.press("enter")
            illegal = next(c for c in view.hand or () if c not in view.legal_cards)
            await pilot.press(*illegal.text.lower(), "enter")
            said = app.log_lines[-1]
            assert said.startswith(f"अनुमति नहीं: {language.card_words(illegal)} अभी नहीं चल सकते")
            assert not re.findall(r"[A-Za-z]{3,}", said) and all(c.pretty in said for c in view.legal_cards)
            app.exit()

    asyncio.run(main())


def test_a_hands_note_is_said_in_the_terminals_language() -> None:
    """The related games' notes (how a hand ended) are said in the terminal's language, seats
    from 1 in its digits; English keeps the sentence, seats from 1 too."""
    fixture = Path(__file__).parents[1] / "record" / "fixtures" / "v1-donut.json"
    game = replay(loads(fixture.read_text()))
    view = game.view(0)
    assert view.results[-1].note == "donuts: seat 3, seat 4"  # the engine's English, seats from 0
    shown = {}
    for lang in ("en", "bn"):
        language.use(lang)
        console = Console(width=200, record=True)
        console.print(render.scoreboard(view, [f"P{i}" for i in range(view.players)], final=True))
        shown[lang] = console.export_text()
    language.use("en")
    assert "donuts: seat 4, seat 5" in shown["en"]
    assert "ডোনাট (একটিও পিঠ পায়নি): আসন ৪, আসন ৫" in shown["bn"]
