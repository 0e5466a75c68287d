"""The simulation kernel agrees with the engine (legal moves, trick winners, tricks won) under
every combination of the play options, and its numba and Python backends give identical results."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random

import numpy as np
import pytest
from _dealing import dealt

from callbreak.bots.hand_value import fitted_tricks, fitted_weights
from callbreak.bots.kernel import (
    POLICY_HEURISTIC,
    POLICY_HONEST,
    POLICY_RANDOM,
    POLICY_SMART,
    Kernel,
    get_kernel,
    make_position,
    options_array,
    position_of,
)
from callbreak.bots.kernel_impl import FITTED_TERMS
from callbreak.bots.kernel_sampling import WorldSampler
from callbreak.core import Dealer, Match, Phase, Play, RulesError, make_rules
from callbreak.core.cards import DECK, FULL_DECK, mask_of
from callbreak.core.rules import Rules
from callbreak.core.sampling import allowed_mask, call_likelihood

NO_POINTS = np.zeros((4, 27), dtype=np.int64)  # the exact search's scores; unused without solve


def option_combinations() -> list[Rules]:
    out = []
    for must_beat, void, no_waste, spade_lead, trump, partner in itertools.product(
            (True, False), ("trump_if_winning", "must_trump", "free"), (False, True),
            ("allowed", "forbidden"), ("spades", "first_led"), (False, True)):
        try:
            out.append(make_rules("callbreak", follow_must_beat=must_beat, void_rule=void,
                                  no_wasting_trumps=no_waste, spade_lead_first_trick=spade_lead,
                                  trump=trump, partnership=partner))
        except RulesError:
            continue  # a contradictory combination the engine refuses
    return out


COMBINATIONS = option_combinations()


def kernel_arrays(match: Match) -> tuple[np.ndarray, ...]:
    pos = position_of(match.view(match.to_act))
    return np.array(match.hands, dtype=np.int64), pos.trick, pos.state, pos.won


def test_the_option_grid_covers_every_play_option() -> None:
    assert len(COMBINATIONS) >= 40
    assert {r.void_rule.value for r in COMBINATIONS} == {"trump_if_winning", "must_trump", "free"}


@pytest.mark.parametrize("rules", COMBINATIONS, ids=lambda r: "-".join(
    f"{k}={v}" for k, v in r.to_dict().items()
    if k in ("follow_must_beat", "void_rule", "no_wasting_trumps", "spade_lead_first_trick",
             "trump", "partnership")))
def test_kernel_matches_the_engine_move_by_move(kernel: Kernel, rules: Rules) -> None:
    opts = options_array(rules)
    for seed in range(4):
        match = dealt(rules, seed)
        rng = random.Random(seed)
        while match.phase is Phase.PLAY:
            hands, trick, state, won = kernel_arrays(match)
            seat = match.to_act
            assert seat is not None
            legal = kernel.legal_for(int(hands[seat]), trick, int(state[0]), int(state[2]),
                                     not match.tricks, opts)
            assert legal == match.play_mask(), "legal cards differ"
            card = rng.choice(match.legal_cards())
            # The kernel's own step: same trick winner and tricks won as the engine.
            cards = np.array([int(card)], dtype=np.int64)
            done = kernel.replay(hands, trick, state, won, opts, cards, np.zeros(1, dtype=np.int64))
            assert done == 1
            match.apply(Play(seat, card))
            if match.phase is Phase.PLAY:
                # The kernel's leader is the engine's: who led this trick, or, once it closed,
                # its winner.
                assert int(state[1]) == match.leader
                if not match.trick:
                    assert int(state[1]) == match.tricks[-1].winner
            assert list(won) == list(match.results[-1].won if match.phase is not Phase.PLAY
                                     else match.won)


@pytest.mark.parametrize("rules", COMBINATIONS[::3])
@pytest.mark.parametrize("policy", [POLICY_RANDOM, POLICY_HEURISTIC, POLICY_SMART, POLICY_HONEST])
def test_kernel_playouts_are_legal_games_the_engine_scores_the_same(
        kernel: Kernel, rules: Rules, policy: int) -> None:
    opts = options_array(rules)
    for seed in range(6):
        match = dealt(rules, 100 + seed)
        hands, trick, state, won = kernel_arrays(match)
        log = np.zeros(52, dtype=np.int64)
        rng = np.array([seed + 1], dtype=np.int64)
        assert kernel.playout(hands, trick, state, won, opts, policy, rng, log) == 52
        for c in log:
            match.apply(Play(match.to_act, DECK[int(c)]))  # type: ignore[arg-type]
        assert list(won) == list(match.results[-1].won)
        # Replaying the same sequence from the deal gives the same tricks again.
        again = dealt(rules, 100 + seed)
        hands, trick, state, won2 = kernel_arrays(again)
        legal_seen = np.zeros(52, dtype=np.int64)
        assert kernel.replay(hands, trick, state, won2, opts, log, legal_seen) == 52
        assert list(won2) == list(won)


def test_numba_and_python_backends_give_identical_results(kernel: Kernel) -> None:
    python = get_kernel("python")
    for rules in (make_rules("callbreak"), make_rules("no-trump"), make_rules("nepal-traditional"),
                  make_rules("partnership")):
        opts = options_array(rules)
        for policy in (POLICY_RANDOM, POLICY_HEURISTIC, POLICY_SMART, POLICY_HONEST):
            first_led = rules.trump.value == "first_led"
            a, b = np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64)
            check_a = kernel.random_deals(40, 5, opts, policy, first_led, a)
            check_b = python.random_deals(40, 5, opts, policy, first_led, b)
            assert check_a == check_b and list(a) == list(b)
            assert a.sum() == 40 * 13
        match = dealt(rules, 8)
        for _ in range(9):
            match.apply(match.legal_actions()[0])
        view = match.view(match.to_act)
        pos = position_of(view)
        worlds = np.array([match.hands] * 3, dtype=np.int64)
        cands = np.array([int(c) for c in view.legal_cards], dtype=np.int64)
        for policy in (POLICY_HEURISTIC, POLICY_SMART, POLICY_HONEST):
            outs = []
            for k in (kernel, python):
                out = np.zeros((3, len(cands), 2, 4), dtype=np.int64)
                k.evaluate(worlds, pos.trick, pos.state, pos.won, opts, cands, 2, policy, 77, NO_POINTS, out)
                outs.append(out)
            assert np.array_equal(outs[0], outs[1])
            assert (outs[0].sum(axis=-1) == 13).all()


def test_rollouts_without_noise_ignore_the_random_stream(kernel: Kernel) -> None:
    """``noise=0``: the rollout policies never play a random card, so the stream changes
    nothing; with the default noise it does change some deals."""
    rules = make_rules("callbreak")
    quiet, noisy = options_array(rules, noise=0), options_array(rules)
    differ = 0
    for policy in (POLICY_HEURISTIC, POLICY_SMART, POLICY_HONEST):
        for seed in range(20):
            logs = {}
            for opts, tag in ((quiet, "quiet"), (noisy, "noisy")):
                for stream in (1, 2):
                    hands, trick, state, won = kernel_arrays(dealt(rules, 300 + seed))
                    log = np.zeros(52, dtype=np.int64)
                    rng = np.array([stream * 7919], dtype=np.int64)
                    kernel.playout(hands, trick, state, won, opts, policy, rng, log)
                    logs[tag, stream] = list(log)
            assert logs["quiet", 1] == logs["quiet", 2]
            differ += logs["noisy", 1] != logs["noisy", 2]
    assert differ > 10
    with pytest.raises(ValueError, match="noise"):
        options_array(rules, noise=-1)


def test_common_random_numbers_make_evaluation_reproducible(kernel: Kernel) -> None:
    rules = make_rules("callbreak")
    match = dealt(rules, 3)
    view = match.view(match.to_act)
    pos = position_of(view)
    worlds = np.array([match.hands] * 4, dtype=np.int64)
    cands = np.array([int(c) for c in view.legal_cards], dtype=np.int64)
    first = np.zeros((4, len(cands), 3, 4), dtype=np.int64)
    second = np.zeros_like(first)
    opts = options_array(rules)
    kernel.evaluate(worlds, pos.trick, pos.state, pos.won, opts, cands, 3, POLICY_HEURISTIC, 5, NO_POINTS, first)
    kernel.evaluate(worlds, pos.trick, pos.state, pos.won, opts, cands, 3, POLICY_HEURISTIC, 5, NO_POINTS, second)
    assert np.array_equal(first, second)


def test_heuristic_rollouts_beat_random_rollouts(kernel: Kernel) -> None:
    """Seats 0 and 2 play the rollout heuristic against random seats 1 and 3 (via partnership
    off): the heuristic must take clearly more tricks, or search would learn little from it."""
    rules = make_rules("callbreak")
    opts = options_array(rules)
    heuristic_tricks = 0
    deals = 300
    for seed in range(deals):
        match = dealt(rules, 1000 + seed)
        hands, trick, state, won = kernel_arrays(match)
        rng = np.array([seed + 1], dtype=np.int64)
        log = np.zeros(52, dtype=np.int64)
        # Alternate one move at a time: the heuristic for even seats, random for odd ones.
        while state[3] < 13:
            seat = (int(state[1]) + int(state[0])) % 4
            policy = POLICY_HEURISTIC if seat % 2 == 0 else POLICY_RANDOM
            h, t, s, w = hands.copy(), trick.copy(), state.copy(), won.copy()
            kernel.playout(h, t, s, w, opts, policy, rng, log)
            kernel.replay(hands, trick, state, won, opts, log[:1], np.zeros(1, dtype=np.int64))
        heuristic_tricks += int(won[0] + won[2])
    # 6.5 is an even split; the standard error of this mean is about 0.12 tricks.
    assert heuristic_tricks / deals > 7.2


def test_positions_are_refused_outside_the_play_phase() -> None:
    match = Match(make_rules("callbreak"))
    dealer = Dealer(1)
    while match.phase is not Phase.CALL:
        match.apply(dealer.chance(match))
    with pytest.raises(ValueError, match="play phase"):
        position_of(match.view(match.to_act))
    with pytest.raises(ValueError, match="unknown kernel backend"):
        Kernel("fortran")
    pos = make_position((), 2, 0, 0, (0, 0, 0, 0))
    assert pos.seat_to_act == 2


def mid_game(rules: Rules, seed: int, plays: int) -> Match:
    match = dealt(rules, seed)
    rng = random.Random(seed)
    for _ in range(plays):
        match.apply(rng.choice(match.legal_actions()))
    return match


@pytest.mark.parametrize("preset", ["callbreak", "nepal-traditional", "no-trump", "partnership"])
def test_bulk_sampled_deals_fit_the_view_and_weigh_the_calls_like_the_core(
        kernel: Kernel, preset: str) -> None:
    python = get_kernel("python")
    for seed in range(8):
        match = mid_game(make_rules(preset), seed, seed * 5)
        view = match.view(seed % 4)
        # Pretend calls that strain the evidence a little, so the weights differ between deals.
        view = dataclasses.replace(view, calls=(1, 6, 2, 4))
        sampler = WorldSampler(view, kernel)
        worlds, weights = sampler.draw(50, random.Random(seed))
        assert worlds.shape == (50, 4)
        played = mask_of(view.played)
        own = mask_of(view.hand or ())
        for row, weight in zip(worlds, weights, strict=True):
            hands = [int(h) for h in row]
            assert hands[view.seat] == own  # type: ignore[index]
            assert sum(h.bit_count() for h in hands) == 52 - played.bit_count()
            assert hands[0] | hands[1] | hands[2] | hands[3] | played == FULL_DECK
            expected = 1.0
            for s in range(4):
                assert hands[s].bit_count() == view.hand_sizes[s]
                if s != view.seat:
                    assert hands[s] & ~allowed_mask(view.caps[s]) == 0
                    dealt_hand = hands[s] | int(sampler.played_by[s])
                    expected *= call_likelihood(dealt_hand, view.calls[s], view.rules)  # type: ignore[arg-type]
            assert weight == pytest.approx(expected, rel=1e-9)
        # The Python backend deals the very same cards.
        again = WorldSampler(view, python).draw(50, random.Random(seed))
        assert np.array_equal(again[0], worlds)
        assert np.allclose(again[1], weights, rtol=1e-12)


def test_bulk_sampling_is_uniform_with_no_information(kernel: Kernel) -> None:
    match = dealt(make_rules("callbreak"), 12)
    view = match.view(0)
    worlds, weights = WorldSampler(view, kernel, use_calls=False).draw(3000, random.Random(1))
    assert (weights == 1.0).all()
    for c in range(52):
        if match.hands[0] >> c & 1:
            continue
        for s in (1, 2, 3):
            held = int(((worlds[:, s] >> c) & 1).sum())
            assert abs(held - 1000) < 160, (c, s, held)  # expected 1000, sd about 26


@pytest.mark.parametrize("policy", [POLICY_SMART, POLICY_HONEST])
@pytest.mark.parametrize("preset", ["callbreak", "no-trump", "partnership"])
def test_play_evidence_keeps_the_deal_that_explains_the_play_and_weighs_others_down(
        kernel: Kernel, preset: str, policy: int) -> None:
    """When the other seats played exactly as the (noise-free) rollout policy, the true deal
    keeps its full weight; sampled deals that would have led them to other cards weigh less;
    and both backends agree."""
    rules = make_rules(preset)
    opts = options_array(rules, noise=0)
    python = get_kernel("python")
    lowered = 0
    for seed in range(6):
        match = dealt(rules, 500 + seed)
        leader = match.leader
        hands, trick, state, won = kernel_arrays(match)
        log = np.zeros(52, dtype=np.int64)
        kernel.playout(hands, trick, state, won, opts, policy, np.array([1], dtype=np.int64), log)
        for c in log[:21]:
            match.apply(Play(match.to_act, DECK[int(c)]))  # type: ignore[arg-type]
        me = match.to_act
        assert me is not None
        history = log[:21].copy()
        trump0 = -1 if rules.trump.value == "first_led" else 0
        truth = np.array([match.hands], dtype=np.int64)
        weight = np.ones(1)
        kernel.play_weights(truth, history, leader, trump0, opts, policy, me, 0.5, weight)
        assert weight[0] == 1.0
        worlds, _ = WorldSampler(match.view(me), kernel, use_calls=False).draw(40, random.Random(seed))
        a, b = np.ones(40), np.ones(40)
        kernel.play_weights(worlds, history, leader, trump0, opts, policy, me, 0.5, a)
        python.play_weights(worlds, history, leader, trump0, opts, policy, me, 0.5, b)
        assert np.array_equal(a, b)
        assert ((a > 0) & (a <= 1)).all()
        lowered += int((a < 1).sum())
    assert lowered > 40



def test_calls_read_with_the_fitted_model_weigh_deals_by_the_heuristics_estimate(
        kernel: Kernel) -> None:
    """With ``evidence=fitted`` a call is read with the very model the heuristic bot calls with:
    a seat's call of c weighs a deal by exp(-(c - fitted_tricks(hand))^2 / 2 spread^2), on both
    backends, for any hand and trump suit (-1: none)."""
    python = get_kernel("python")
    weights = np.array(fitted_weights(FITTED_TERMS), dtype=np.float64)
    rng = random.Random(5)
    for _ in range(200):
        deck = list(DECK)
        rng.shuffle(deck)
        worlds = np.array([[mask_of(deck[13 * s:13 * s + 13]) for s in range(4)]], dtype=np.int64)
        calls = np.array([-1, rng.randint(1, 8), -1, -1], dtype=np.int64)
        for trump in (-1, 0, 2):
            gap = calls[1] - fitted_tricks(int(worlds[0, 1]), trump)
            expected = math.exp(-gap * gap / (2 * 1.3 * 1.3))
            for k in (kernel, python):
                out = np.zeros(1)
                k.call_weights(worlds, np.zeros(4, dtype=np.int64), calls, 1.3, weights, trump, out)
                assert out[0] == pytest.approx(expected, rel=1e-9)


def test_the_kernel_knows_whether_its_disk_cache_holds_it(kernel: Kernel, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a warm-up numba's cache holds every entry point for this machine; an index that is
    missing or stale (numba reads either as empty) means a compile is coming."""
    assert kernel.cached()
    cache_file = type(kernel.playout._cache._cache_file)
    monkeypatch.setattr(cache_file, "_load_index", lambda self: {})
    assert not kernel.cached()
    monkeypatch.undo()
    index = kernel.solve._cache._cache_file._load_index()
    other_machine = {(sig, ("another", "cpu"), hashes): name for (sig, _, hashes), name in index.items()}
    monkeypatch.setattr(cache_file, "_load_index", lambda self: other_machine)
    assert not kernel.cached()
