"""Duplicate fairness: the same deals at every seating, every player in every seat."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import arena_testbots  # noqa: F401  (registers the test-* bots)
import pytest

from callbreak.arena import ArenaPlan, SetResult, TableResult, lineups, run_set, run_sets, seating, summarise
from callbreak.arena.duplicate import rotations
from callbreak.arena.tournament import sets_for
from callbreak.core import Deal, make_rules
from callbreak.record import loads


def _deals(record_json: str) -> list[Deal]:
    return [a for a in loads(record_json).actions if isinstance(a, Deal)]


def _first_dealer_action(record_json: str) -> object:
    return loads(record_json).actions[0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_player_sits_every_seat_equally_often(players: int) -> None:
    counts: Counter[tuple[int, int]] = Counter()
    for lineup in lineups(players):
        for rotation in range(4):
            for seat, p in enumerate(seating(lineup, rotation)):
                counts[p, seat] += 1
    per_player = Counter(p for p, _ in counts.elements())
    for p in range(players):
        seats = {seat: counts[p, seat] for seat in range(4)}
        assert len(set(seats.values())) == 1 and seats[0] > 0, seats
    # Two players: the first sits alone against three copies of the second at every table.
    if players == 2:
        assert per_player == {0: 4, 1: 12}


def test_four_players_rotate_through_the_four_seats() -> None:
    rows = [seating((0, 1, 2, 3), r) for r in range(4)]
    assert rows == [(0, 1, 2, 3), (3, 0, 1, 2), (2, 3, 0, 1), (1, 2, 3, 0)]


def test_other_numbers_of_players_are_refused() -> None:
    with pytest.raises(ValueError, match="2, 3 or 4 players"):
        lineups(5)


@pytest.mark.parametrize("preset", ["callbreak", "catsatcards", "call-bridge-simple", "nepal-traditional"])
def test_every_seating_of_a_set_gets_the_same_deals(preset: str) -> None:
    # Under presets with redeals the number of deals dealt can differ between seatings (the
    # players' calls decide what is thrown in), but the stream is the same: one is a prefix of
    # the other, and the first dealer is the same.
    plan = ArenaPlan(("random", "test-spy", "random", "random"), make_rules(preset), seed=21, sets=2,
                     keep_records=True)
    for set_index in range(2):
        result = run_set(plan, set_index)
        streams = [_deals(t.record) for t in result.tables if t.record]
        assert len(streams) == 4
        shortest = min(streams, key=len)
        for s in streams:
            assert s[:len(shortest)] == shortest
        assert len({repr(_first_dealer_action(t.record)) for t in result.tables if t.record}) == 1
        assert [t.rotation for t in result.tables] == [0, 1, 2, 3]
    other = run_set(plan, 1)
    assert _deals(other.tables[0].record or "")[0] != _deals(run_set(plan, 0).tables[0].record or "")[0]


def untimed(result: SetResult) -> list[TableResult]:
    """The tables of a set without the decision times (the one thing that varies run to run)."""
    return [replace(t, times=()) for t in result.tables]


def test_a_set_is_the_same_whenever_it_is_played() -> None:
    plan = ArenaPlan(("random", "random"), make_rules("callbreak"), seed=5, sets=3, keep_records=True)
    assert untimed(run_set(plan, 2)) == untimed(run_set(plan, 2))
    assert untimed(run_set(plan, 1)) != untimed(run_set(plan, 2))


def test_four_copies_of_one_deterministic_bot_score_the_same_in_every_seat() -> None:
    # With the same deterministic bot everywhere, rotating seats must give every seat's score to
    # every player: the per-set mean of each player is then the same, and its margin zero.
    plan = ArenaPlan(("test-illegal", "test-illegal", "test-illegal", "test-illegal"),
                     make_rules("callbreak"), seed=2, sets=2)
    report = summarise(plan, "callbreak", run_sets(plan))
    means = {round(p.mean_score_per_deal, 9) for p in report.players}
    assert len(means) == 1
    assert all(abs(p.margin_per_deal) < 1e-9 for p in report.players)


def test_how_many_sets_a_request_needs() -> None:
    assert sets_for(4, 5, matches=7) == 7
    assert sets_for(4, 5, deals=2000) == 100  # 5 deals x 4 seatings = 20 table deals a set
    assert sets_for(2, 5, deals=21) == 2
    assert sets_for(3, 5, deals=60) == 1  # 3 lineups x 4 rotations x 5 deals
    with pytest.raises(ValueError):
        sets_for(4, 5, matches=0)
    with pytest.raises(ValueError):
        sets_for(4, 5, matches=1, deals=1)


@pytest.mark.parametrize("workers", [1, pytest.param(2, marks=pytest.mark.process)])
def test_progress_counts_every_table(workers: int) -> None:
    plan = ArenaPlan(("random", "random"), make_rules("callbreak").replace(deals=1), seed=3, sets=3)
    seen: list[tuple[int, int]] = []
    results = run_sets(plan, workers=workers, progress=lambda done, total: seen.append((done, total)))
    assert [r.set_index for r in results] == [0, 1, 2]
    assert seen[-1] == (12, 12)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen) and {t for _, t in seen} == {12}
    if workers == 1:
        assert [d for d, _ in seen] == list(range(1, 13))


@pytest.mark.parametrize("players", [2, 4])
def test_partnership_keeps_pairs_together_and_every_player_in_every_seat(players: int) -> None:
    tables = [seating(lineup, r) for lineup in lineups(players, True) for r in rotations(players, True)]
    if players == 2:
        assert tables == [(0, 1, 0, 1), (1, 0, 1, 0)]
    for seats in tables:
        # Partners (seats 0+2 and 1+3) are one player twice, or the 1st with the 3rd player.
        pairs = [{seats[0], seats[2]}, {seats[1], seats[3]}]
        assert sorted(map(sorted, pairs)) in ([[0], [1]], [[0, 2], [1, 3]])
    for p in range(players):
        per_seat = [sum(seats[s] == p for seats in tables) for s in range(4)]
        assert len(set(per_seat)) == 1 and per_seat[0] > 0


def test_partnership_with_three_players_is_refused() -> None:
    with pytest.raises(ValueError, match="partnership"):
        lineups(3, partnership=True)
    assert sets_for(2, 5, deals=20, partnership=True) == 2  # 2 tables x 5 deals a set


def test_partnership_margin_is_against_the_other_pair() -> None:
    plan = ArenaPlan(("random", "random"), make_rules("partnership"), seed=4, sets=3)
    report = summarise(plan, "partnership", run_sets(plan))
    a, b = report.players
    # Pairs score together, so one pair's margin is exactly the other's, negated.
    assert a.margin_per_deal == pytest.approx(a.mean_score_per_deal - b.mean_score_per_deal)
    assert a.margin_per_deal == pytest.approx(-b.margin_per_deal)
    assert report.deals == 3 * 2 * 5
