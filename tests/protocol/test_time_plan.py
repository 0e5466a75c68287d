"""The bot-server's plan of a deal's time: never more than is left, most of it used."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from callbreak.protocol.client import deal_budget_ms
from callbreak.protocol.server import (
    ANSWER_TIME,
    HTTP_MARGIN,
    MIN_THINK,
    RESERVE,
    SPARE,
    allotment,
    deadline,
    think_budget,
)


@given(budget_ms=st.floats(0, 20_000), left=st.integers(1, 14), bid=st.booleans(),
       forced=st.booleans())
def test_a_decision_is_never_planned_more_than_the_deal_has_left(budget_ms: float, left: int,
                                                                  bid: bool, forced: bool) -> None:
    later = left - 1
    room = budget_ms / 1000 - HTTP_MARGIN - SPARE - RESERVE * later  # kept: network, stalls, later
    allot = allotment(budget_ms, left, bid=bid, forced=forced)
    think = think_budget(budget_ms, left, bid=bid, forced=forced)
    assert MIN_THINK <= think <= max(MIN_THINK, allot - ANSWER_TIME) + 1e-9
    if room > ANSWER_TIME:
        assert allot <= room + 1e-4
        assert deadline(budget_ms, left, bid=bid, forced=forced) <= room + HTTP_MARGIN / 2 + 1e-9
    if forced:
        assert think == MIN_THINK


def _deal(budget_ms: float, used_of_think: list[float]) -> list[float]:
    """A deal of a call and 13 plays where the bot uses ``used_of_think[i]`` of the think time it
    is given at decision i, and each answer costs ANSWER_TIME: the seconds each decision took."""
    left_s = budget_ms / 1000
    took = []
    for i, part in enumerate(used_of_think):
        bid = i == 0
        decisions = 14 - i
        forced = decisions == 1 and not bid
        think = think_budget(left_s * 1000, decisions, bid=bid, forced=forced)
        spent = think * part + ANSWER_TIME
        took.append(spent)
        left_s -= spent
    return took


@given(parts=st.lists(st.floats(0, 1), min_size=14, max_size=14))
def test_a_deal_never_runs_over_whatever_the_bot_does_within_its_time(parts: list[float]) -> None:
    assert sum(_deal(1500, parts)) <= 1.5 - HTTP_MARGIN - SPARE + 1e-6


def test_a_bot_using_its_time_uses_most_of_the_deal() -> None:
    took = _deal(1500, [1.0] * 14)
    assert sum(took) >= 0.8 * 1.5
    assert took[-1] == MIN_THINK + ANSWER_TIME  # the forced last card: a token think


def test_time_a_clear_choice_leaves_goes_to_the_later_choices() -> None:
    always = _deal(1500, [1.0] * 14)
    settles_early = _deal(1500, [0.3] * 4 + [1.0] * 10)
    assert all(b > a for a, b in zip(always[4:12], settles_early[4:12], strict=True))
    assert sum(settles_early) >= 0.8 * 1.5  # the deal's time is still mostly used


def test_a_close_choice_may_take_more_than_an_even_share() -> None:
    even = (1.5 - HTTP_MARGIN - SPARE - RESERVE * 12) / 12.5  # 13 plays, the last but one weighing half
    assert allotment(1500, 13) > 1.5 * even


@given(budget=st.floats(0.01, 5.0), left=st.integers(1, 14), bid=st.booleans())
def test_a_per_decision_referee_gets_answers_within_its_budget(budget: float, left: int,
                                                               bid: bool) -> None:
    """The arena gives each decision a budget; the deal time sent for it never lets our server's
    plan go past that budget, and is never more than an even split would give."""
    sent = deal_budget_ms(budget, left, bid=bid)
    assert 0 <= sent <= budget * 1000 * left + 1e-6
    assert allotment(sent, left, bid=bid) <= budget + 1e-9 or sent == 0
