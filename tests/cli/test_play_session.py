"""The game logic behind `callbreak play`: seats, bots, saving after every action, resuming."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from callbreak.bots import BotError, Decision
from callbreak.cli.tui.saves import (
    latest_unfinished,
    list_saved,
    resolve_record_path,
    write_atomically,
)
from callbreak.cli.tui.session import Session, Turn, best_bot_name
from callbreak.core import Call, CallbreakError, Match, Play, RecordError, make_rules
from callbreak.games import game_info, games
from callbreak.record import loads


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CALLBREAK_DATA_DIR", str(tmp_path))
    return tmp_path


def _advance_to_human(s: Session) -> None:
    """Let chance and the bots act until the person is to act (or the match is over)."""
    while s.turn in (Turn.CHANCE, Turn.BOT):
        if s.turn is Turn.CHANCE:
            s.apply(s.chance_action())
        else:
            seat, view = s.bot_view()
            s.apply(s.decide(seat, view, 0.01).action)


def _finish(s: Session) -> None:
    while s.turn is not Turn.OVER:
        _advance_to_human(s)
        if s.turn is Turn.HUMAN:
            s.apply_human(s.view().legal[-1] if s.view().phase.value == "call" else s.view().legal[0])


def test_new_session_saves_a_loadable_record_with_what_resume_needs(data_dir: Path) -> None:
    s = Session.new(options={"deals": 1}, opponents=["random"], seat=2, seed=5)
    assert s.save_path is not None and s.save_path.parent == data_dir / "games"
    record = loads(s.save_path.read_text())
    assert record.seats[2] == "you" and record.seats[0] == "random"
    assert record.meta["human_seat"] == 2 and record.meta["seed"] == 5
    assert sorted(record.meta["opponents"]) == ["0", "1", "3"]


def test_every_action_is_saved_and_resume_rebuilds_the_same_match() -> None:
    s = Session.new(options={"deals": 2}, opponents=["random"] * 3, seed=11)
    _advance_to_human(s)
    assert s.save_path is not None
    on_disk = loads(s.save_path.read_text())
    assert list(on_disk.actions) == s.game.history  # nothing applied is missing from the save
    resumed = Session.resume(s.save_path)
    assert resumed.game.snapshot() == s.game.snapshot()
    assert resumed.human == s.human and resumed.opponents == s.opponents


def test_a_resumed_match_deals_the_cards_the_uninterrupted_one_would() -> None:
    a = Session.new(options={"deals": 2}, opponents=["random"], seed=3, save=False)
    b = Session.new(options={"deals": 2}, opponents=["random"], seed=3)
    _finish(a)
    # Interrupt b after its first deal and carry on from the saved file.
    _advance_to_human(b)
    assert b.save_path is not None
    b = Session.resume(b.save_path)
    _finish(b)
    deals_a = [x for x in a.game.history if x.kind == "deal"]
    deals_b = [x for x in b.game.history if x.kind == "deal"]
    assert deals_a == deals_b and len(deals_a) == 2


def test_refused_action_changes_neither_the_match_nor_the_file() -> None:
    s = Session.new(opponents=["random"], seed=2)
    _advance_to_human(s)
    assert s.save_path is not None
    before, saved = s.game.snapshot(), s.save_path.read_bytes()
    with pytest.raises(CallbreakError, match="call must be 1..13"):
        s.apply_human(Call(0, 14))
    with pytest.raises(CallbreakError, match="your own seat"):
        s.apply_human(Call(1, 3))
    assert s.game.snapshot() == before and s.save_path.read_bytes() == saved


def test_the_person_only_ever_gets_their_own_seat_view() -> None:
    s = Session.new(opponents=["random"], seat=1, seed=4, save=False)
    _advance_to_human(s)
    view = s.view()
    assert view.seat == 1
    assert view.hand is not None and set(view.hand) == set(s.game.view(1).hand or ())
    others = {c for seat in (0, 2, 3) for c in s.game.view(seat).hand or ()}
    assert not others & set(view.hand)


def test_bad_seats_and_bots_are_refused_with_what_is_allowed() -> None:
    with pytest.raises(CallbreakError, match="--seat must be 0, 1, 2 or 3"):
        Session.new(seat=4, save=False)
    with pytest.raises(BotError, match="unknown bot 'nosuchbot'.*random"):
        Session.new(opponents=["nosuchbot"], save=False)
    with pytest.raises(BotError, match="one or three"):
        Session.new(opponents=["random", "random"], save=False)
    with pytest.raises(BotError, match="'search' does not play callbreak"):
        Session.new(opponents=["search"], save=False)  # a bot of the other games only


def test_default_opponents_are_the_strongest_bot_that_plays_the_game() -> None:
    assert best_bot_name(["random", "beginner"]) == "beginner"
    assert best_bot_name(["random", "heuristic", "expert"]) == "expert"
    assert best_bot_name(["random"]) == "random"
    assert set(Session.new(save=False).opponents.values()) == {best_bot_name()} == {"expert"}
    assert set(Session.new("donut", players=5, save=False).opponents.values()) == {"search"}
    assert best_bot_name(game="donut") == "search"


class _Broken:
    name = "broken"

    def decide(self, view: object, budget: float) -> Decision:
        raise RuntimeError("boom")


class _Cheat:
    name = "cheat"

    def decide(self, view: object, budget: float) -> Decision:
        return Decision(Call(seat=9, tricks=99), "illegal on purpose")


@pytest.mark.parametrize("bot", [_Broken(), _Cheat()])
def test_a_failing_or_illegal_bot_is_replaced_by_the_default_action(bot: object) -> None:
    s = Session.new(opponents=["random"], seat=0, seed=8, save=False)
    while s.turn is Turn.CHANCE:
        s.apply(s.chance_action())
    seat, view = s.bot_view()
    s.table.seats[seat].bot = bot  # type: ignore[attr-defined]  # (the bot the referee asks for that seat)
    move = s.decide(seat, view, 0.01)
    assert move.fallback and move.action in view.legal
    assert move.action == Call(seat, 1)  # the turn timer's default call is the minimum


def test_hint_is_a_legal_action_with_the_bot_name() -> None:
    s = Session.new(opponents=["random"], seed=6, save=False)
    _advance_to_human(s)
    name, decision = s.hint(s.view(), 0.05)
    assert name == best_bot_name() and decision.action in s.view().legal


def test_resume_refuses_records_it_cannot_continue(tmp_path: Path) -> None:
    m = Match(make_rules("callbreak"))
    from callbreak.record import dumps, record_of

    other = tmp_path / "other.json"
    other.write_text(dumps(record_of(m)))
    with pytest.raises(RecordError, match="not saved by `callbreak play`"):
        Session.resume(other)
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(RecordError, match="not a JSON record"):
        Session.resume(broken)
    with pytest.raises(RecordError, match="cannot read"):
        Session.resume(tmp_path / "missing.json")


def test_latest_unfinished_skips_finished_and_unreadable_games(data_dir: Path) -> None:
    done = Session.new(options={"deals": 1}, opponents=["random"], seed=1)
    _finish(done)
    assert latest_unfinished() is None
    open_game = Session.new(options={"deals": 1}, opponents=["random"], seed=2)
    (data_dir / "games" / "zz-garbage.json").write_text("not json")
    assert latest_unfinished() == open_game.save_path
    listed = {g.path.name: g for g in list_saved()}
    assert listed["zz-garbage.json"].readable is False
    assert done.save_path is not None and listed[done.save_path.name].finished
    assert resolve_record_path(done.save_path.name) == done.save_path


def test_atomic_write_leaves_the_old_file_when_writing_fails(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    write_atomically(target, json.dumps({"v": 1}))

    with pytest.raises(TypeError):
        write_atomically(target, 123)  # type: ignore[arg-type]
    assert json.loads(target.read_text()) == {"v": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left


def test_playing_by_the_session_api_reaches_the_end() -> None:
    s = Session.new(options={"deals": 1}, opponents=["random"], seed=9, save=False)
    _finish(s)
    assert s.game.is_over and len(s.game.results) == 1
    assert all(isinstance(a, (Play, Call)) or a.kind in ("deal", "choose_dealer") for a in s.game.history)


def test_remote_bots_are_checked_against_the_rules_and_fail_gracefully() -> None:
    url = "http://127.0.0.1:9"  # the discard port: nothing answers there
    with pytest.raises(BotError, match="remote bots cannot play these rules.*bhoos-tournament"):
        Session.new(opponents=[url, "random", "random"], save=False)
    with pytest.raises(BotError, match=r"no tournament bot answers at http://127\.0\.0\.1:9 "):
        Session.new(preset="bhoos-tournament", opponents=["random", url, "random"], seed=1,
                    save=False)
    # A bot that goes away in the middle of a match: its seat plays the default.
    s = Session.new(preset="bhoos-tournament", opponents=["random", url, "random"], seed=1,
                    save=False, reach_timeout=None)
    while s.turn is Turn.CHANCE:
        s.apply(s.chance_action())
    while s.game.to_act != 2:  # let the local bots act up to the remote one
        seat, view = s.bot_view()
        s.apply(s.decide(seat, view, 0.01).action)
    seat, view = s.bot_view()
    move = s.decide(seat, view, 0.2)
    assert move.fallback.startswith("failed") and move.action in view.legal


def test_a_failing_save_does_not_stop_the_game(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the games folder should be")
    s = Session.new(opponents=["random"], seed=3, save=False)
    s.save_path = blocker / "game.json"
    s.apply(s.chance_action())  # applied although it cannot be saved
    assert s.game.history and s.save_error is not None and "could not save" in s.save_error
    s.save_path = tmp_path / "game.json"
    assert s.turn is Turn.CHANCE  # the first dealer is chosen; the deal is due
    s.apply(s.chance_action())
    assert s.save_error is None and loads(s.save_path.read_text()).actions


def test_opponents_are_seated_in_play_order_from_the_persons_right() -> None:
    s = Session.new(opponents=["heuristic", "beginner", "random"], seat=2,
                    save=False)
    assert s.opponents == {3: "heuristic", 0: "beginner", 1: "random"}
    assert s.names()[3].startswith("East") and s.names()[0].startswith("North")
    assert s.names()[1].startswith("West") and s.names()[2] == "You · Seat 3"


@pytest.mark.parametrize("name", [info.name for info in games()])
def test_every_game_has_a_hint_from_its_strongest_bot(name: str) -> None:
    """The terminal's hint (h) in every registered game, Call Break and the related games alike:
    a legal action from the strongest bot that plays it."""
    info = game_info(name)
    s = Session.new(name, opponents=["random"], seed=6, save=False,
                    options={"deals": 1} if name == "callbreak" else {"max_hands": 1})
    _advance_to_human(s)
    bot, decision = s.hint(s.view(), 0.05)
    assert bot == best_bot_name(game=name) and bot in ("expert", "search")
    assert decision.action in s.view().legal and info.name == name
