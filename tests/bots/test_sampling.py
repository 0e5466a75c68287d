"""Hidden-hand sampling (core.sampling): every sample fits the view, the engine's public caps are
never wrong about the true deal, and samples are uniform over the consistent deals."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from callbreak.core import CHANCE, Call, Dealer, Look, Match, Phase, Redeal, make_rules, parse_cards
from callbreak.core.cards import FULL_DECK, SUIT_MASKS, mask_of
from callbreak.core.errors import CallbreakError
from callbreak.core.rules import PRESETS
from callbreak.core.sampling import (
    HandSampler,
    SamplingError,
    allowed_mask,
    call_likelihood,
    estimated_tricks,
    sample_by_calls,
    sample_hands,
)
from callbreak.core.view import SeatView

# Option combinations whose inference differs (the presets cover the rest).
EXTRA_RULES = [
    make_rules("callbreak", void_rule="free"),
    make_rules("callbreak", no_wasting_trumps=True),
    make_rules("callbreak", follow_must_beat=False, no_wasting_trumps=True, void_rule="free"),
    make_rules("callbreak", side_off_declaration=True),
    make_rules("nepal-traditional", follow_must_beat=False),
]
ALL_RULES = [p.rules for p in PRESETS.values()] + EXTRA_RULES


def play_to(rules_index: int, seed: int, plays: int) -> Match:
    """A match under some rules, dealt and called, with ``plays`` random cards played."""
    rules = ALL_RULES[rules_index]
    rng = random.Random(seed)
    match = Match(rules)
    dealer = Dealer(seed)
    while True:
        if match.to_act == CHANCE:
            match.apply(dealer.chance(match))
            continue
        if match.phase is Phase.PLAY and plays == 0:
            return match
        legal = match.legal_actions()
        if match.phase is Phase.REDEAL_CLAIM:
            action = next(a for a in legal if isinstance(a, Redeal) and not a.claim)
        elif match.phase is Phase.CALL:
            looks = [a for a in legal if isinstance(a, Look)]
            action = looks[0] if looks else rng.choice(
                [a for a in legal if isinstance(a, Call) and not a.blind])
        else:
            action = rng.choice(legal)
            plays -= 1
        match.apply(action)


def check_sample(view: SeatView, hands: tuple[int, int, int, int]) -> None:
    played = mask_of(view.played)
    union = 0
    for s, h in enumerate(hands):
        assert h & union == 0, "a card was dealt twice"
        union |= h
        assert h.bit_count() == view.hand_sizes[s]
        assert h & played == 0, "a played card was dealt again"
        if s == view.seat and view.hand is not None:
            assert h == mask_of(view.hand), "the seat's own hand must be exact"
        else:
            assert h & ~allowed_mask(view.caps[s]) == 0, f"seat {s} got a card its caps exclude"
    assert union | played == FULL_DECK


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_index=st.integers(0, len(ALL_RULES) - 1), seed=st.integers(0, 10**6),
       plays=st.integers(0, 51), viewer=st.integers(0, 3))
def test_samples_respect_every_constraint_and_the_truth_is_possible(
        rules_index: int, seed: int, plays: int, viewer: int) -> None:
    match = play_to(rules_index, seed, plays)
    view = match.view(viewer)
    # The engine's public caps are never wrong: the real hands fit them.
    for s in range(4):
        assert match.hands[s] & ~allowed_mask(view.caps[s]) == 0, f"caps wrong for seat {s}"
    sampler = HandSampler(view)
    assert sampler.count >= 1
    rng = random.Random(seed)
    for _ in range(5):
        check_sample(view, sampler.sample(rng))
    check_sample(view, sample_by_calls(sampler, view, rng, candidates=4))
    check_sample(view, sample_hands(view, rng))


@settings(max_examples=40, deadline=None)
@given(rules_index=st.integers(0, len(ALL_RULES) - 1), seed=st.integers(0, 10**6))
def test_caps_stay_true_through_a_whole_deal(rules_index: int, seed: int) -> None:
    match = play_to(rules_index, seed, 0)
    rng = random.Random(seed)
    while match.phase is Phase.PLAY:
        for s in range(4):
            assert match.hands[s] & ~allowed_mask(match.view(0).caps[s]) == 0
        match.apply(rng.choice(match.legal_actions()))


def test_with_no_information_every_card_is_equally_likely_in_every_other_hand() -> None:
    match = play_to(0, 11, 0)
    view = match.view(0)
    sampler = HandSampler(view)
    rng = random.Random(5)
    counts: Counter[tuple[int, int]] = Counter()
    n = 3000
    for _ in range(n):
        hands = sampler.sample(rng)
        for s in (1, 2, 3):
            m = hands[s]
            while m:
                low = m & -m
                counts[(low.bit_length() - 1, s)] += 1
                m ^= low
    unseen = [c for c in range(52) if not match.hands[0] >> c & 1]
    assert len(unseen) == 39
    for c in unseen:
        for s in (1, 2, 3):
            # Expected n/3 = 1000 with a standard deviation near 26: allow six of them.
            assert abs(counts[(c, s)] - n / 3) < 160, (c, s, counts[(c, s)])


def late_view_with_voids() -> SeatView:
    """Two cards left in each hand; seat 1 is made void in two suits to constrain the deal."""
    match = play_to(0, 3, 44)
    view = match.view(0)
    unseen = view.unseen
    suits = sorted({c.suit for c in unseen})
    caps = [list(c) for c in view.caps]
    for s in suits[:2]:
        # Void seat 1 in a suit only if seats 2 and 3 can still take its unseen cards.
        if sum(1 for c in unseen if c.suit == s) <= 4:
            caps[1][s] = s * 13 - 1
    return dataclasses.replace(view, caps=tuple(tuple(c) for c in caps))


def brute_force(view: SeatView) -> list[tuple[int, int, int, int]]:
    """Every consistent deal, by enumeration."""
    unseen = list(view.unseen)
    own = mask_of(view.hand or ())
    sizes = view.hand_sizes
    others = [s for s in range(4) if s != view.seat]
    out = []
    for first in itertools.combinations(unseen, sizes[others[0]]):
        rest = [c for c in unseen if c not in first]
        for second in itertools.combinations(rest, sizes[others[1]]):
            third = [c for c in rest if c not in second]
            hands = [0, 0, 0, 0]
            hands[view.seat] = own  # type: ignore[index]
            for s, cards in zip(others, (first, second, third), strict=True):
                hands[s] = mask_of(cards)
            if all(hands[s] & ~allowed_mask(view.caps[s]) == 0 for s in others):
                out.append((hands[0], hands[1], hands[2], hands[3]))
    return out


def test_constrained_samples_are_uniform_over_the_deals_enumeration_finds() -> None:
    view = late_view_with_voids()
    every = brute_force(view)
    sampler = HandSampler(view)
    assert sampler.count == len(every) > 1
    rng = random.Random(9)
    n = 200 * len(every)
    seen = Counter(sampler.sample(rng) for _ in range(n))
    assert set(seen) == set(every)
    for deal in every:
        assert 140 < seen[deal] < 260, seen[deal]  # expected 200, sd about 14


def test_a_view_no_deal_can_satisfy_is_refused_clearly() -> None:
    view = play_to(0, 4, 8).view(0)
    void_everywhere = tuple(tuple(s * 13 - 1 for s in range(4)) if seat != 0 else caps
                            for seat, caps in enumerate(view.caps))
    with pytest.raises(SamplingError, match="no seat may hold"):
        HandSampler(dataclasses.replace(view, caps=void_everywhere))
    bad_sizes = dataclasses.replace(view, hand_sizes=(13, 13, 13, 13))
    with pytest.raises(CallbreakError, match="unseen cards cannot fill"):
        HandSampler(bad_sizes)


def test_a_spectator_or_a_seat_yet_to_look_gets_every_hand_sampled() -> None:
    match = Match(make_rules("567"))  # blind calls on: the seats start without looking
    dealer = Dealer(2)
    while match.phase is not Phase.CALL:
        match.apply(dealer.chance(match))
    view = match.view(1)
    assert view.hand is None
    hands = sample_hands(view, random.Random(1))
    assert [h.bit_count() for h in hands] == [13, 13, 13, 13]
    assert hands[0] | hands[1] | hands[2] | hands[3] == FULL_DECK
    spectator = match.view(None)
    check_sample(spectator, sample_hands(spectator, random.Random(2)))


def test_calls_count_as_evidence_of_strength() -> None:
    rules = make_rules("callbreak")
    strong = mask_of(parse_cards("AS KS QS JS 10S 9S AH KH QH AC KC AD KD"))
    weak = mask_of(parse_cards("2H 3H 4H 5H 2C 3C 4C 5C 2D 3D 4D 5D 6D"))
    assert estimated_tricks(strong, rules) > 6 > 1 > estimated_tricks(weak, rules)
    assert call_likelihood(strong, 7, rules) > call_likelihood(weak, 7, rules)
    assert call_likelihood(weak, 1, rules) > call_likelihood(weak, 6, rules)
    # Seat 1 called the maximum: weighted samples give it more spades than uniform ones do.
    match = play_to(0, 21, 0)
    view = dataclasses.replace(match.view(0), calls=(1, 13, 1, 1))
    sampler = HandSampler(view)
    rng = random.Random(3)
    uniform = sum((sampler.sample(rng)[1] & SUIT_MASKS[0]).bit_count() for _ in range(300))
    weighted = sum((sample_by_calls(sampler, view, rng, 8)[1] & SUIT_MASKS[0]).bit_count()
                   for _ in range(300))
    assert weighted > uniform * 1.15
