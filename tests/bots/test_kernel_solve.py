"""The kernel's exact search of the last tricks (``solve``) agrees with a plain max-n search written
on the engine, leaves its inputs as they were, and gives the same results on both backends."""

from __future__ import annotations

import random

import numpy as np
import pytest
from _dealing import dealt

from callbreak.bots.kernel import (
    POLICY_HEURISTIC,
    Kernel,
    get_kernel,
    make_position,
    options_array,
    position_of,
)
from callbreak.core import Call, Match, Phase, make_rules
from callbreak.core.rules import Rules
from callbreak.core.scoring import deal_points


def endgame(rules: Rules, seed: int, tricks_left: int) -> Match:
    """A match in its play phase, random calls and random cards until ``tricks_left`` tricks (and
    a random part of the next) are left."""
    rng = random.Random(seed)

    def random_call(match: Match) -> Call:
        calls = [a for a in match.legal_actions() if isinstance(a, Call) and not a.blind]
        return rng.choice(calls[:5])

    match = dealt(rules, seed, random_call)
    cards = 4 * (13 - tricks_left) + rng.randrange(4)
    for _ in range(cards):
        match.apply(rng.choice(match.legal_actions()))
    return match


def points_table(match: Match) -> np.ndarray:
    rules = match.rules
    calls = [c or 0 for c in match.calls]
    table = np.zeros((4, 27), dtype=np.int64)
    for s in range(4):
        call = calls[s] + (calls[(s + 2) % 4] if rules.partnership else 0)
        for w in range(27):
            table[s, w] = deal_points(call, w, rules)
    return table


def utilities(match: Match, won: list[int], table: np.ndarray) -> list[float]:
    """Each seat's deal points less the mean of its opponents' (pairs' tricks in partnership)."""
    pair = match.rules.partnership
    counted = [won[s] + won[(s + 2) % 4] if pair else won[s] for s in range(4)]
    pts = [float(table[s, counted[s]]) for s in range(4)]
    out = []
    for s in range(4):
        rivals = [r for r in range(4) if r != s and not (pair and r % 2 == s % 2)]
        out.append(pts[s] - sum(pts[r] for r in rivals) / len(rivals))
    return out


def reference_maxn(match: Match, table: np.ndarray) -> tuple[list[float], list[int]]:
    """Max-n over every legal card (lowest first, ties kept): utilities and final tricks."""
    if match.phase is not Phase.PLAY:
        won = list(match.results[-1].won)
        return utilities(match, won, table), won
    seat = match.to_act
    assert seat is not None
    best: tuple[list[float], list[int]] | None = None
    for action in sorted(match.legal_actions(), key=lambda a: int(a.card)):  # type: ignore[attr-defined]
        child = match.clone()
        child.apply(action)
        value = reference_maxn(child, table)
        if best is None or value[0][seat] > best[0][seat]:
            best = value
    assert best is not None
    return best


@pytest.mark.parametrize("preset", ["callbreak", "partnership", "no-trump", "call-bridge"])
def test_solve_finds_the_max_n_outcome_of_a_plain_search_on_the_engine(
        kernel: Kernel, preset: str) -> None:
    rules = make_rules(preset)
    python = get_kernel("python")
    for seed in range(5):
        match = endgame(rules, 100 + seed, tricks_left=3)
        table = points_table(match)
        _, expected = reference_maxn(match, table)
        pos = position_of(match.view(match.to_act))
        hands = np.array(match.hands, dtype=np.int64)
        inputs = (hands.copy(), pos.trick.copy(), pos.state.copy())
        opts = options_array(rules, solve=3)
        for k in (kernel, python):
            won = pos.won.copy()
            nodes = k.solve(hands, pos.trick, pos.state, won, opts, table)
            assert [int(w) for w in won] == expected, (preset, seed, k.backend)
            assert nodes > 0
            # The search undoes every card it tries: the position is left as it was.
            for before, after in zip(inputs, (hands, pos.trick, pos.state), strict=True):
                assert np.array_equal(before, after)


def test_a_seat_that_holds_the_top_trumps_takes_every_trick_left(kernel: Kernel) -> None:
    rules = make_rules("callbreak")
    hands = np.zeros(4, dtype=np.int64)
    for s, cards in ((0, (12, 11)), (1, (13, 14)), (2, (26, 27)), (3, (39, 40))):
        for c in cards:  # seat 0: the ace and king of spades; the others: low side cards
            hands[s] |= 1 << c
    pos = make_position((), 1, 0, 11, (3, 3, 3, 2))  # seat 1 leads, 11 tricks done
    won = pos.won.copy()
    table = np.tile(np.arange(27, dtype=np.int64), (4, 1))  # every trick is worth a point
    kernel.solve(hands, pos.trick, pos.state, won, options_array(rules, solve=2), table)
    assert [int(w) for w in won] == [5, 3, 3, 2]


def test_evaluate_with_solve_is_the_same_on_both_backends(kernel: Kernel) -> None:
    rules = make_rules("callbreak")
    python = get_kernel("python")
    match = endgame(rules, 3, tricks_left=5)
    table = points_table(match)
    pos = position_of(match.view(match.to_act))
    worlds = np.array([match.hands] * 3, dtype=np.int64)
    cands = np.array([int(a.card) for a in match.legal_actions()], dtype=np.int64)  # type: ignore[attr-defined]
    opts = options_array(rules, solve=3)
    outs = []
    for k in (kernel, python):
        out = np.zeros((3, len(cands), 2, 4), dtype=np.int64)
        k.evaluate(worlds, pos.trick, pos.state, pos.won, opts, cands, 2, POLICY_HEURISTIC, 9,
                   table, out)
        assert (out.sum(axis=-1) == 13).all()
        outs.append(out)
    assert np.array_equal(outs[0], outs[1])


def test_solve_must_be_a_number_of_tricks() -> None:
    with pytest.raises(ValueError, match="solve must be between 0 and 13"):
        options_array(make_rules("callbreak"), solve=14)
