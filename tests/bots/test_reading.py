"""Reading the other seats' style from their play (bots/reading.py and the expert's read=on)."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from callbreak.bots import make_bot
from callbreak.bots.expert import ExpertBot
from callbreak.bots.heuristic import classic_steps
from callbreak.bots.kernel import Kernel, options_array
from callbreak.bots.kernel_classic import S_SEAT
from callbreak.bots.kernel_sampling import WorldSampler
from callbreak.bots.reading import PRIOR_CLASSIC, apply_inference, classic_belief, mismatch_factors
from callbreak.core import CHANCE, Dealer, Match, Phase, SeatView, make_rules
from test_styles import _other_deal


def late_view(others: str, seed: int, tricks: int = 9) -> tuple[Match, SeatView]:
    """Seat 0's view, with a choice to make, after ``tricks`` tricks (or more) of a deal where
    seats 1..3 are ``others`` bots."""
    match = Match(make_rules("callbreak"))
    dealer = Dealer(seed)
    bots = [make_bot("heuristic", seed=seed)] + [make_bot(others, seed=seed + s) for s in (1, 2, 3)]
    while True:
        seat = match.to_act
        if seat == CHANCE:
            match.apply(dealer.chance(match))
            continue
        assert seat is not None
        view = match.view(seat)
        if seat == 0 and view.phase is Phase.PLAY and len(view.tricks) >= tricks and len(view.legal) > 1:
            return match, view
        match.apply(bots[seat].decide(view, 1.0).action)


def read(kernel: Kernel, view: SeatView, worlds: int = 200) -> tuple[np.ndarray, ...]:
    sampler = WorldSampler(view, kernel)
    deals, weights = sampler.draw(worlds, random.Random(1))
    steps = classic_steps(view)
    agree = np.empty((len(deals), len(steps)), dtype=np.int64)
    options = np.empty_like(agree)
    trump = -1 if view.trump is None else int(view.trump)
    kernel.classic_agreement(deals, steps, trump, options_array(view.rules), agree, options)
    return deals, weights, steps, agree, options


def test_classic_players_are_read_as_classic_and_random_ones_as_not(kernel: Kernel) -> None:
    for seed in (1, 2, 3):
        _, view = late_view("heuristic", seed)
        *_, steps, agree, options = read(kernel, view)
        weights = np.ones(len(agree))
        belief = classic_belief(agree, options, weights, steps[:, S_SEAT])
        assert (belief[1:] > 0.95).all(), (seed, belief)
        _, view = late_view("random", seed)
        *_, steps, agree, options = read(kernel, view)
        belief = classic_belief(agree, options, np.ones(len(agree)), steps[:, S_SEAT])
        assert (belief[1:] < 0.3).all(), (seed, belief)  # from 0.8 before any move
        assert belief[0] == PRIOR_CLASSIC  # the reader's own seat: no moves of its own read


@settings(max_examples=40, deadline=None)
@given(moves=st.integers(0, 30), worlds=st.integers(1, 20), seed=st.integers(0, 10_000))
def test_a_belief_is_a_probability_that_forced_moves_do_not_move(moves: int, worlds: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    agree = rng.integers(-1, 2, size=(worlds, moves))
    options = np.where(agree < 0, 1, rng.integers(2, 14, size=(worlds, moves)))
    seats = rng.integers(1, 4, size=moves)
    weights = rng.random(worlds) + 0.01
    belief = classic_belief(agree, options, weights, seats)
    assert ((belief > 0) & (belief < 1)).all()
    forced = classic_belief(np.full_like(agree, -1), np.ones_like(options), weights, seats)
    assert (forced == PRIOR_CLASSIC).all()
    # One more move that classic explains in every deal never makes a seat look less classic.
    more = classic_belief(np.hstack([agree, np.ones((worlds, 1), dtype=np.int64)]),
                          np.hstack([options, np.full((worlds, 1), 5)]), weights,
                          np.append(seats, 1))
    assert more[1] >= belief[1] - 1e-12


def test_read_as_classic_the_inference_is_the_classic_weights(kernel: Kernel) -> None:
    """With every seat read as surely classic, the per-seat inference is the old one exactly."""
    _, view = late_view("heuristic", 5, tricks=6)
    deals, weights, steps, agree, _ = read(kernel, view, worlds=100)
    old = weights.copy()
    trump = -1 if view.trump is None else int(view.trump)
    kernel.classic_weights(deals, steps, trump, options_array(view.rules), 0.2, old)
    new = weights.copy()
    apply_inference(agree, steps[:, S_SEAT], mismatch_factors(np.ones(4), 0.2), new)
    assert np.allclose(new, old)
    # Read as not classic at all, a seat's moves change no deal's weight.
    none = weights.copy()
    apply_inference(agree, steps[:, S_SEAT], mismatch_factors(np.zeros(4), 0.2), none)
    assert np.allclose(none, weights)


def test_the_expert_reads_random_opponents_and_plays_on(kernel: Kernel) -> None:
    match, view = late_view("random", 2, tricks=8)
    bot = ExpertBot(samples=150, seed=3, read=True)
    action = bot.decide(view, 1.0).action
    assert action in view.legal
    assert bot.belief is not None and (bot.belief[1:] < 0.2).all()
    assert make_bot("expert:samples=60,read=on").read and not make_bot("expert:samples=60").read


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 1000), tricks=st.integers(1, 9), other=st.integers(0, 1000))
def test_the_reading_does_not_depend_on_the_cards_the_seat_cannot_see(seed: int, tricks: int,
                                                                       other: int) -> None:
    match, view = late_view("greedy", seed, tricks)
    redealt = _other_deal(match, 0, random.Random(other))
    assert redealt.view(0) == view
    first, second = ExpertBot(samples=60, seed=4, read=True), ExpertBot(samples=60, seed=4, read=True)
    assert first.decide(view, 1.0).action == second.decide(redealt.view(0), 1.0).action
    assert first.belief is not None and second.belief is not None
    assert np.array_equal(first.belief, second.belief)
