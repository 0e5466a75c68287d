"""`callbreak replay FILE --step` (the stepper) and the `play` / `games` command-line checks."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from typer.testing import CliRunner

from callbreak.cli.main import app
from callbreak.cli.tui.replay_app import ReplayApp
from callbreak.cli.tui.session import Session, Turn
from callbreak.core import CHANCE, Dealer, Match, Phase, make_rules
from callbreak.record import Record, dumps, record_of

runner = CliRunner()


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CALLBREAK_DATA_DIR", str(tmp_path))
    return tmp_path


def _finished_record(deals: int = 2) -> Record:
    m = Match(make_rules("callbreak", deals=deals))
    dealer = Dealer(seed=12)
    while not m.is_over:
        m.apply(dealer.chance(m) if m.to_act == CHANCE else m.legal_actions()[0])
    return record_of(m, seats=["ann", "bob", "cy", "di"])


def test_the_stepper_moves_by_action_trick_and_deal_and_shows_one_seat() -> None:
    record = _finished_record()
    app = ReplayApp(record, seat=1)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            assert app.index == 0
            await pilot.press("d")  # to just after the first deal
            assert record.actions[app.index - 1].kind == "deal"
            view = app.states[app.index].view(app.seat)
            assert view.hand is not None and len(view.hand) == 13 and view.seat == 1
            first_deal = app.index
            await pilot.press("t")  # to the end of the first trick
            state = app.states[app.index]
            assert len(state.tricks) == 1 and not state.trick
            await pilot.press("right")
            assert len(app.states[app.index].trick) == 1  # one card into trick 2
            await pilot.press("left", "T")
            assert app.index == first_deal  # back a trick from trick 1: the deal's start
            await pilot.press("tab")
            assert app.seat == 2
            await pilot.press("end")
            assert app.index == len(app.states) - 1 and app.states[app.index].phase is Phase.OVER
            await pilot.press("D")
            assert record.actions[app.index - 1].kind == "deal" and app.index > first_deal
            await pilot.press("home")
            assert app.index == 0
            await pilot.press("q")

    asyncio.run(main())
    assert not app.is_running


def test_replay_step_reports_a_bad_file_without_opening_a_screen(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something-else"}')
    result = runner.invoke(app, ["replay", str(bad), "--step"])
    assert result.exit_code == 2 and "not a game record" in result.output
    result = runner.invoke(app, ["replay", str(tmp_path / "nope.json"), "--step"])
    assert result.exit_code == 2 and "cannot read" in result.output


def test_plain_replay_still_prints_the_account(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(dumps(_finished_record(1)))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0 and "Trick 13" in result.output and "Winner" in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["--preset", "nope"], "Call Break has no preset 'nope'"),
    (["--option", "deals"], "--option expects key=value"),
    (["--option", "colour=blue"], "unknown option 'colour'"),
    (["--option", "max_call=20"], "max_call must be 1..13"),
    (["--opponents", "random,nosuch,random"], "unknown bot 'nosuch'"),
    (["--seat", "7"], "--seat must be 0, 1, 2 or 3"),
])
def test_play_refuses_bad_options_before_any_screen_opens(
        args: list[str], message: str, data_dir: Path) -> None:
    result = runner.invoke(app, ["play", *args])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())
    assert not (data_dir / "games").exists() or not any((data_dir / "games").iterdir())


def test_resume_with_nothing_to_resume_says_so() -> None:
    result = runner.invoke(app, ["play", "--resume"])
    assert result.exit_code == 2 and "no unfinished match" in result.output


def test_games_lists_saved_games() -> None:
    assert "No saved games" in runner.invoke(app, ["games"]).output
    s = Session.new(opponents=["random"], seed=1)
    while s.turn is Turn.CHANCE:
        s.apply(s.chance_action())
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    assert s.save_path is not None and s.save_path.name[:12] in result.output
    assert "unfinished" in result.output


def test_play_resume_opens_the_last_unfinished_match(monkeypatch: pytest.MonkeyPatch) -> None:
    from callbreak.cli.tui.app import PlayApp

    s = Session.new(opponents=["heuristic", "random", "random"], seed=4)
    while s.turn is Turn.CHANCE:
        s.apply(s.chance_action())
    opened: list[PlayApp] = []
    monkeypatch.setattr(PlayApp, "run", lambda self: opened.append(self))
    result = runner.invoke(app, ["play", "--resume", "--fast"])
    assert result.exit_code == 0, result.output
    assert s.save_path is not None and f"Resuming {s.save_path.name}" in result.output
    assert "play --resume" in result.output  # still unfinished: how to continue is printed
    (resumed,) = opened
    assert resumed.session.game.history == s.game.history
    assert resumed.session.opponents == s.opponents and resumed.delay == 0.0


def test_play_starts_a_saved_match_with_the_options_given(monkeypatch: pytest.MonkeyPatch) -> None:
    from callbreak.cli.tui.app import PlayApp

    opened: list[PlayApp] = []
    monkeypatch.setattr(PlayApp, "run", lambda self: opened.append(self))
    result = runner.invoke(app, ["play", "--preset", "bhoos-tournament", "-o", "deals=3",
                                 "--opponents", "random,beginner,random", "--seat", "1",
                                 "--seed", "77", "--delay", "0.25", "--think", "0.5"])
    assert result.exit_code == 0, result.output
    (started,) = opened
    session = started.session
    assert session.name == "callbreak"
    assert session.game.rules.max_call == 8 and session.game.rules.deals == 3
    assert session.human == 1 and session.seed == 77
    assert session.opponents == {2: "random", 3: "beginner", 0: "random"}
    assert started.delay == 0.25 and started.think == 0.5
    assert session.save_path is not None and session.save_path.exists()


def _unfinished_play_save(seat: int) -> Session:
    """A `callbreak play` save stopped in the middle of its first deal."""
    s = Session.new(opponents=["random"], seat=seat, seed=19)
    while len(s.view().played) < 6:
        if s.turn is Turn.CHANCE:
            s.apply(s.chance_action())
        else:
            s.apply(s.game.legal_actions()[0])
    return s


def test_stepping_through_an_unfinished_play_save_shows_only_the_persons_seat() -> None:
    s = _unfinished_play_save(seat=2)
    assert s.save_path is not None
    from callbreak.record import loads

    app = ReplayApp(loads(s.save_path.read_text()), seat=0)  # asked for seat 0: not allowed

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            assert app.seat == 2
            await pilot.press("d")
            await pilot.press("tab")
            assert app.seat == 2
            status = app.query_one("#status").render_line(0)
            assert "only your seat can be watched" in "".join(seg.text for seg in status)
            await pilot.press("shift+tab", "end")
            assert app.seat == 2
            view = app.states[app.index].view(app.seat)
            assert view.hand is not None and view.seat == 2

    asyncio.run(main())

    finished = _finished_record()  # a finished match may be watched from any seat
    app = ReplayApp(finished, seat=0)

    async def other() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("tab")
            assert app.seat == 1

    asyncio.run(other())


def test_the_account_of_an_unfinished_play_save_is_refused_not_printed() -> None:
    s = _unfinished_play_save(seat=0)
    assert s.save_path is not None
    result = runner.invoke(app, ["replay", str(s.save_path)])
    assert result.exit_code == 2
    assert "you have not finished" in result.output and "--step" in result.output
    assert "♠" not in result.output and "♥" not in result.output  # no hand was printed


def test_resume_refuses_settings_it_would_ignore(monkeypatch: pytest.MonkeyPatch) -> None:
    from callbreak.cli.tui.app import PlayApp

    opened: list[PlayApp] = []
    monkeypatch.setattr(PlayApp, "run", lambda self: opened.append(self))
    s = Session.new(opponents=["random"], seed=4)
    for args, named in ((["--seat", "2"], ["--seat"]), (["--preset", "567"], ["--preset"]),
                        (["--opponents", "heuristic", "-o", "deals=1"], ["--option", "--opponents"]),
                        # Given with its default's value it is still refused: the save may be of another game.
                        (["--game", "callbreak", "--seat", "0"], ["--game", "--seat"])):
        result = runner.invoke(app, ["play", "--resume", *args])
        assert result.exit_code == 2 and "own settings" in result.output, result.output
        assert all(flag in result.output for flag in named), result.output
    assert not opened
    result = runner.invoke(app, ["play", "--resume", "--fast", "--delay", "0.5", "--think", "0.2"])
    assert result.exit_code == 0, result.output  # pacing may change when resuming
    (resumed,) = opened
    assert resumed.session.save_path == s.save_path and resumed.delay == 0.0
