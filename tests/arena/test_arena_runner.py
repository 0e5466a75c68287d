"""The refereed match runner: views only, faults replaced by the default action, deal streams."""

from __future__ import annotations

import itertools

import arena_testbots  # noqa: F401  (registers the test-* bots)
import pytest
from arena_testbots import SpyBot

from callbreak.arena import ArenaError, DealStream, play_match
from callbreak.bots import make_bot
from callbreak.core import Deal, Dealer, Match, make_rules
from callbreak.record import dumps, loads, replay


def bots(*specs: str) -> list:
    return [make_bot(spec, seed=i) for i, spec in enumerate(specs)]


def test_a_match_is_played_to_the_end_and_its_record_replays() -> None:
    rules = make_rules("callbreak")
    out = play_match(rules, bots("random", "random", "random", "random"), seed=11)
    assert out.match.is_over and len(out.match.results) == 5
    again = replay(loads(dumps(out.record)))
    assert again.totals == out.match.totals
    assert [s.moves for s in out.seats] == [
        sum(1 for a in out.match.history if getattr(a, "seat", None) == s and a.kind in ("call", "play"))
        for s in range(4)]
    assert not out.faults


def test_each_seat_sees_only_its_own_view() -> None:
    SpyBot.seen.clear()
    out = play_match(make_rules("callbreak"), bots("test-spy", "test-spy", "test-spy", "test-spy"), seed=3)
    assert SpyBot.seen
    deals = [a for a in out.match.history if isinstance(a, Deal)]
    for seat, view in SpyBot.seen:
        assert view.seat == seat and view.to_act == seat
        # The hand shown is a subset of the cards this seat was dealt in the current deal.
        dealt = set(deals[view.deal_number - 1].hands[seat])
        assert set(view.hand or ()) <= dealt


def test_a_crashing_bot_is_a_fault_and_the_match_goes_on() -> None:
    out = play_match(make_rules("callbreak"), bots("test-crash", "random", "random", "random"), seed=5)
    assert out.match.is_over and len(out.match.results) == 5
    faults = out.seats[0].faults
    # Deal 1 is played normally; from deal 2 on every one of its 14 moves (call + 13 cards) faults.
    assert len(faults) == 4 * 14
    assert {f.kind for f in faults} == {"error"} and {f.deal for f in faults} == {2, 3, 4, 5}
    assert "boom" in faults[0].detail
    assert not any(s.faults for s in out.seats[1:])
    assert out.record.meta["faults"][0]["kind"] == "error"


def test_the_default_action_replaces_a_faulted_move() -> None:
    rules = make_rules("callbreak")
    out = play_match(rules, bots("test-crash:crash_deal=1", "random", "random", "random"), seed=8)
    # Replay the record and check that every seat-0 action is what the turn timer would do.
    m = Match(rules)
    for action in out.record.actions:
        if m.to_act == 0:
            assert action == m.default_action()
        m.apply(action)


def test_an_illegal_answer_is_a_fault() -> None:
    out = play_match(make_rules("callbreak"), bots("random", "test-illegal", "random", "random"), seed=2)
    assert out.match.is_over
    faults = out.seats[1].faults
    assert len(faults) == 5 * 14 and {f.kind for f in faults} == {"illegal"}


def test_an_overrun_is_a_fault_measured_by_the_clock() -> None:
    # A fake clock: seat 2's decisions take 0.5 s each, everyone else's 1 ms.
    ticks = itertools.count()
    slow_moves: set[int] = set()
    now = [0.0]

    def clock() -> float:
        return now[0]

    class Timed:
        def __init__(self, seat: int) -> None:
            self.inner = make_bot("random", seed=seat)
            self.name = f"timed{seat}"
            self.seat = seat

        def decide(self, view, budget):  # type: ignore[no-untyped-def]
            n = next(ticks)
            if self.seat == 2:
                slow_moves.add(n)
                now[0] += 0.5
            else:
                now[0] += 0.001
            return self.inner.decide(view, budget)

    out = play_match(make_rules("callbreak"), [Timed(s) for s in range(4)], seed=4, budget=0.2,
                     tolerance=0.05, clock=clock)
    assert out.match.is_over
    assert len(out.seats[2].faults) == out.seats[2].moves == 5 * 14
    assert {f.kind for f in out.seats[2].faults} == {"timeout"}
    assert all(abs(t - 0.5) < 1e-9 for t in out.seats[2].times)
    assert not out.seats[0].faults and all(abs(t - 0.001) < 1e-9 for t in out.seats[0].times)


def test_a_really_slow_bot_is_faulted_on_the_wall_clock() -> None:
    out = play_match(make_rules("callbreak").replace(deals=1),
                     bots("test-slow:delay=0.3", "random", "random", "random"), seed=6, budget=0.1,
                     tolerance=0.1)
    faults = out.seats[0].faults
    assert [f.kind for f in faults] == ["timeout"]  # only the one sleeping move
    assert faults[0].seconds >= 0.3


def _deals(stream: DealStream, n: int) -> list[Deal]:
    """The stream's first ``n`` deals, asked for by a table waiting for a deal."""
    waiting = Match(make_rules("bhoos-tournament"))  # seat 0 deals first: the table waits for a deal
    out = [stream.chance(waiting) for _ in range(n)]
    assert all(isinstance(d, Deal) for d in out)
    return out  # type: ignore[return-value]


def test_fixed_deals_are_played_in_order_then_the_seeded_stream_continues() -> None:
    d = Dealer(99)
    fixed = [d.deal(), d.deal()]
    rules = make_rules("bhoos-tournament").replace(deals=3)
    out = play_match(rules, bots("random", "random", "random", "random"), deals=fixed, seed=1)
    dealt = [a for a in out.match.history if isinstance(a, Deal)]
    assert dealt[:2] == fixed and len(dealt) == 3
    assert dealt[2] == _deals(DealStream(1), 3)[2]  # the stream's third deal: the fixed ones replace the first two


def test_a_fixed_list_of_deals_ends_an_unlimited_match() -> None:
    d = Dealer(7)
    fixed = [d.deal() for _ in range(3)]
    out = play_match(make_rules("call-bridge"), bots("random", "random", "random", "random"), deals=fixed)
    assert len(out.match.results) == 3 and out.match.is_over


def test_an_unlimited_match_is_stopped_after_five_deals() -> None:
    out = play_match(make_rules("call-bridge"), bots("random", "random", "random", "random"), seed=3)
    assert len(out.match.results) == 5 and out.match.is_over


def test_the_deal_stream_does_not_depend_on_what_was_thrown_in() -> None:
    # Whatever the players did before, the n-th deal handed out is the same.
    first = _deals(DealStream("x"), 5)
    assert _deals(DealStream("x"), 5) == first
    assert _deals(DealStream("y"), 1)[0] != first[0]
    assert len({d.hands for d in first}) == 5


def test_a_match_whose_deals_are_always_thrown_in_stops_with_an_error() -> None:
    rules = make_rules("catsatcards")  # calls totalling under 8 are redealt
    with pytest.raises(ArenaError, match="did not finish"):
        play_match(rules, bots("test-illegal", "test-illegal", "test-illegal", "test-illegal"), seed=1)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ArenaError, match="4 players"):
        play_match(make_rules("callbreak"), bots("random", "random"))
    with pytest.raises(ArenaError, match="budget"):
        play_match(make_rules("callbreak"), bots("random", "random", "random", "random"), budget=0)


def test_one_refereed_decision_applies_nothing_and_names_the_fault() -> None:
    from callbreak.arena import refereed_action

    m = Match(make_rules("callbreak"))
    dealer = Dealer(4)
    while m.to_act == -1:
        m.apply(dealer.chance(m))
    seat = m.to_act
    assert seat is not None
    before = m.snapshot()
    action, seconds, fault = refereed_action(m, seat, make_bot("test-crash:crash_deal=1"), budget=0.5)
    assert m.snapshot() == before
    assert action == m.default_action() and seconds >= 0
    assert fault is not None and fault.kind == "error" and fault.player == "test-crash" and fault.deal == 1
    action, _, fault = refereed_action(m, seat, make_bot("random", seed=1), budget=0.5)
    assert fault is None and action in m.legal_actions()
