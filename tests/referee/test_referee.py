"""The one referee (callbreak/referee.py): what every table that runs through it relies on."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from callbreak.bots import Decision, make_bot
from callbreak.core import CallbreakError, make_rules
from callbreak.core.actions import CHANCE, Call
from callbreak.core.errors import IllegalActionError
from callbreak.core.match import Match
from callbreak.games import game_info, games, new_game
from callbreak.games.registry import option_names
from callbreak.referee import BotSeat, DealScored, Moved, PersonSeat, Referee


class Raises:
    name = "raises"

    def decide(self, view: Any, budget: float) -> Decision:
        raise RuntimeError("boom")


class Illegal:
    name = "illegal"

    def decide(self, view: Any, budget: float) -> Decision:
        return Decision(Call(seat=9, tricks=99), "not a call anyone may make")


class Slow:
    """Takes 2 s of a fake clock for every decision."""

    name = "slow"

    def __init__(self, clock: list[float]) -> None:
        self.clock = clock

    def decide(self, view: Any, budget: float) -> Decision:
        self.clock[0] += 2.0
        return Decision(view.legal[0], "first")


def callbreak_table(seats: list[Any], **kwargs: Any) -> Referee:
    return Referee(Match(make_rules("callbreak", deals=1)), game_info("callbreak").dealer(5), seats, **kwargs)


def to_first_call(table: Referee) -> None:
    while table.to_act == CHANCE:
        table.step()


@pytest.mark.parametrize("bot,kind", [(Raises(), "error"), (Illegal(), "illegal")])
def test_a_bot_that_fails_is_charged_a_fault_and_the_default_is_played(bot: Any, kind: str) -> None:
    seats = [BotSeat(make_bot("random", seed=s)) for s in range(4)]
    table = callbreak_table(seats)  # type: ignore[arg-type]
    to_first_call(table)
    seat = table.to_act
    assert seat is not None and seat >= 0
    table.seats[seat] = BotSeat(bot)
    default = table.game.default_action()
    assert table.step() == default
    (fault,) = table.stats[seat].faults
    assert (fault.seat, fault.kind, fault.deal) == (seat, kind, 1)
    if kind == "illegal":
        assert "Call(seat=9, tricks=99" in fault.answer


def test_a_bot_over_its_budget_is_charged_a_timeout_but_not_where_thinking_long_is_allowed() -> None:
    clock = [0.0]

    def now() -> float:
        return clock[0]

    for tolerance, faults in ((0.05, 1), (float("inf"), 0)):
        seats = [BotSeat(Slow(clock), budget=1.0, tolerance=tolerance, clock=now) for _ in range(4)]
        table = callbreak_table(seats)  # type: ignore[arg-type]
        to_first_call(table)
        seat = table.to_act
        assert seat is not None
        table.step()
        assert len(table.stats[seat].faults) == faults
        assert table.stats[seat].times == [2.0]


def test_a_persons_illegal_action_is_refused_and_changes_nothing() -> None:
    table = callbreak_table([PersonSeat(f"p{s}") for s in range(4)])  # type: ignore[arg-type]
    to_first_call(table)
    seat = table.to_act
    assert seat is not None
    before = table.game.snapshot()
    with pytest.raises(IllegalActionError):
        table.submit(seat, Call(seat, 99))
    with pytest.raises(IllegalActionError, match="cannot act for seat"):
        table.submit((seat + 1) % 4, Call(seat, 2))
    with pytest.raises(IllegalActionError, match="not an action"):
        table.submit(seat, "call 2")  # type: ignore[arg-type]
    assert table.game.snapshot() == before
    with pytest.raises(CallbreakError, match="is a person"):
        table.step()  # a person is not asked: their actions are submitted
    table.submit(seat, Call(seat, 2))
    assert table.game.calls[seat] == 2


def test_a_step_taken_in_two_checks_then_commits_and_plays_as_one() -> None:
    """A table that stores an action before applying it (the web's) checks it, stores it, then
    commits it: the check refuses an illegal action changing nothing, chance's action due is only
    named, not applied, and the game and what the listeners hear are those of one-step play."""
    heard: list[Any] = []
    two = callbreak_table([PersonSeat(f"p{s}") for s in range(4)], listeners=[heard.append])  # type: ignore[arg-type]
    one = callbreak_table([PersonSeat(f"p{s}") for s in range(4)])  # type: ignore[arg-type]
    while not one.game.is_over:
        seat = one.to_act
        assert seat is not None and two.to_act == seat
        if seat == CHANCE:
            before = two.game.snapshot()
            action = two.chance_due()
            assert two.game.snapshot() == before  # named, not applied
            one.step()
            assert one.game.history[-1] == action  # the same deal as one step deals
        else:
            action = one.game.default_action()
            before = two.game.snapshot()
            with pytest.raises(IllegalActionError):
                two.check(Call(seat, 99))  # (too many tricks, or a call in the play)
            with pytest.raises(IllegalActionError, match="not an action"):
                two.check("play")  # type: ignore[arg-type]
            assert two.game.snapshot() == before
            one.submit(seat, action)
        two.check(action)
        two.commit(action)
    assert two.game.snapshot() == one.game.snapshot()
    assert [e.action for e in heard if isinstance(e, Moved)] == one.game.history
    assert [e.seat for e in heard if isinstance(e, Moved)] == [a.actor for a in one.game.history]
    assert two.deal_points == one.deal_points and len(two.deal_points) == 1


def test_listeners_hear_every_action_and_each_deal_scored() -> None:
    heard: list[Any] = []
    seats = [BotSeat(make_bot("random", seed=s)) for s in range(4)]
    table = callbreak_table(seats, listeners=[heard.append])  # type: ignore[arg-type]
    game = table.play()
    moves = [e for e in heard if isinstance(e, Moved)]
    scored = [e for e in heard if isinstance(e, DealScored)]
    assert [e.action for e in moves] == list(game.history)  # every action, in order, once
    assert len(scored) == len(game.results) == 1
    assert scored[0].points == table.deal_points[0]
    assert sum(scored[0].points) == sum(round(10 * s) for s in game.scores)
    with pytest.raises(CallbreakError, match="over"):
        table.step()


def test_a_table_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(CallbreakError, match="seats 4 players, got 3"):
        callbreak_table([PersonSeat("a"), PersonSeat("b"), PersonSeat("c")])  # type: ignore[arg-type]


GAMES = [(info.name, n) for info in games() for n in sorted({min(info.seats), max(info.seats)})]


@settings(max_examples=12, deadline=None)
@given(case=st.sampled_from(GAMES), seed=st.integers(0, 10_000))
def test_any_game_refereed_to_its_end_conserves_its_record(case: tuple[str, int], seed: int) -> None:
    """Every registered game, bots at every seat: the game ends, no seat is charged a fault, and
    the referee applied exactly the game's history (one winner per trick, by the engine)."""
    name, players = case
    info = game_info(name)
    options = {"max_hands": 1} if "max_hands" in option_names(info) else {}
    game = new_game(name, players=players, **options)
    heard: list[Any] = []
    seats = [BotSeat(make_bot("random", seed=seed + s, game=name)) for s in range(players)]
    table = Referee(game, info.dealer(seed), seats, listeners=[heard.append], name=name)  # type: ignore[arg-type]
    moves = itertools.count()
    while not game.is_over:
        table.step()
        assert next(moves) < 20_000
    assert not any(s.faults for s in table.stats)
    assert [e.action for e in heard if isinstance(e, Moved)] == list(game.history)
    assert len(table.deal_points) == len(game.results)
