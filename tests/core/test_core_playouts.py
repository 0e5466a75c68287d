"""Random-playout conformance over every preset: 10,000+ deals in all.

Each preset plays random legal actions (including looks, blind calls, redeal claims and stops)
through the public API and checks, independently of the engine's own bookkeeping:
the legal cards equal a naive reference written from RULES.md, a legal action always exists for
the seat to act, the true hands respect the public inference (``caps``), 52 cards are conserved,
each trick has exactly one winner (recomputed), a deal has 13 tricks, every score equals a
recomputation from the record, and replaying the record reproduces every state (``snapshot()``).
"""

from __future__ import annotations

import math
import random

import pytest
from cbcore_helpers import random_action, ref_legal, ref_points, ref_winner

from callbreak.core import CHANCE, PRESETS, Match, make_rules
from callbreak.core.cards import FULL_DECK, SUIT_MASKS, Suit, cards_of
from callbreak.core.game import Phase
from callbreak.core.rules import TieBreak, Trump
from callbreak.record import dumps, loads, record_of, replay_states

TOTAL_DEALS = 10_000
PER_PRESET = math.ceil(TOTAL_DEALS / len(PRESETS))


def _check_caps(m: Match) -> None:
    """The public inference never rules out a card a seat really holds."""
    for seat in range(4):
        hand = m.hands[seat]
        caps = m.caps[seat]
        for suit in range(4):
            own = hand & SUIT_MASKS[suit]
            assert own.bit_length() - 1 <= caps[suit], (seat, suit, cards_of(own), caps)


def _check_play_step(m: Match) -> None:
    seat = m.turn
    legal = m.legal_cards()
    assert legal, "a seat must act but has no legal card"
    trump = Suit(m.trump) if m.trump >= 0 else None
    expected = ref_legal(cards_of(m.hands[seat]), [cards_of(1 << c)[0] for c in m.trick], trump,
                         m.rules, not m.tricks)
    assert set(legal) == expected


def _check_deal(m: Match) -> None:
    """After a deal is scored: 13 tricks, 52 cards, one recomputed winner per trick, scores."""
    rules = m.rules
    result = m.results[-1]
    assert len(m.tricks) == 13
    played = [0] * 4
    seen = 0
    won = [0] * 4
    trump = None if rules.trump is Trump.FIRST_LED else Suit.SPADES
    for t in m.tricks:
        if trump is None:
            trump = t.cards[0].suit  # first_led: the deal's first card sets trump
        assert len(t.cards) == 4
        for i, c in enumerate(t.cards):
            assert not seen >> c & 1, f"{c} played twice"
            seen |= 1 << c
            played[t.seats[i]] |= 1 << c
        winner = t.seats[ref_winner(t.cards, trump)]
        assert t.winner == winner
        won[winner] += 1
    assert seen == FULL_DECK
    assert played == m.dealt, "each seat played exactly the cards it was dealt"
    assert all(h == 0 for h in m.hands)
    assert list(result.won) == won
    calls = result.calls
    if rules.partnership:
        for s in range(4):
            pts = ref_points(calls[s] + calls[(s + 2) % 4], won[s] + won[(s + 2) % 4], rules)
            assert result.points[s] == round(pts * 10)
    else:
        for s in range(4):
            assert result.points[s] == round(ref_points(calls[s], won[s], rules, result.blind[s]) * 10)


def _expected_winners(m: Match) -> tuple[int, ...]:
    totals = [0] * 4
    for r in m.results:
        if r.tiebreak:
            tied = tuple(s for s in range(4) if totals[s] == max(totals))
            best = max(r.points[s] for s in tied)
            return tuple(s for s in tied if r.points[s] == best)
        totals = [totals[s] + r.points[s] for s in range(4)]
    return tuple(s for s in range(4) if totals[s] == max(totals))


def _check_match_end(m: Match) -> None:
    totals = [sum(r.points[s] for r in m.results) for s in range(4)]
    assert list(m.totals) == totals
    assert m.winners == _expected_winners(m)
    top = [s for s in range(4) if totals[s] == max(totals)]
    if m.rules.tie_break is TieBreak.EXTRA_DEAL and not any(r.tiebreak for r in m.results):
        # No extra deal was played, so the top was not tied (partners count as one).
        assert len(top) == 1 or (m.rules.partnership and len(top) == 2)
    stakes = m.rules.stakes
    if stakes is not None:
        assert m.chips is not None
        losers = 4 - len(m.winners)
        share = stakes.stake * losers * (1 - stakes.commission) / len(m.winners) if losers else 0
        for s in range(4):
            expected = share if s in m.winners else -stakes.stake
            assert m.chips[s] == pytest.approx(expected, abs=0.01)
        assert sum(m.chips) == pytest.approx(-stakes.stake * losers * stakes.commission, abs=0.05)
    else:
        assert m.chips is None


def play_and_check(rules_name: str, deals_wanted: int, seed: int) -> int:
    """Play matches of a preset until ``deals_wanted`` deals are scored; return how many."""
    rules = make_rules(rules_name)
    rng = random.Random(seed)
    deals = 0
    matches = 0
    while deals < deals_wanted:
        m = Match(rules)
        snapshots = [m.snapshot()]
        while not m.is_over:
            if m.phase is Phase.PLAY:
                _check_play_step(m)
                if not m.trick:
                    _check_caps(m)
            elif m.to_act != CHANCE:
                assert m.legal_actions(), f"seat {m.to_act} must act but has nothing legal"
            before = len(m.results)
            m.apply(random_action(m, rng, stop_after=rng.randint(1, 4)))
            if m.phase is Phase.PLAY:
                _check_caps(m)
            if len(m.results) > before:
                _check_deal(m)
                deals += 1
            snapshots.append(m.snapshot())
        _check_match_end(m)
        record = record_of(m, seats=["n", "e", "s", "w"])
        if matches % 4 == 0:  # the JSON round trip is slow-ish; a quarter of the matches suffice
            record = loads(dumps(record))
        replayed = [state.snapshot() for state in replay_states(record)]
        assert replayed == snapshots
        matches += 1
    return deals


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_random_playouts_conform(name: str) -> None:
    """RULES.md section 3, every preset: random deals obey every invariant (all seeds)."""
    assert play_and_check(name, PER_PRESET, seed=sorted(PRESETS).index(name)) >= PER_PRESET


def test_playout_total_is_at_least_ten_thousand() -> None:
    assert PER_PRESET * len(PRESETS) >= TOTAL_DEALS


def test_quick_playout_every_preset() -> None:
    """A short run of the same checks, for a fast feedback loop."""
    for i, name in enumerate(sorted(PRESETS)):
        assert play_and_check(name, 6, seed=100 + i) >= 6
