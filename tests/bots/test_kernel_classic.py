"""The kernel's model of classic play: the heuristic bot's card choice, written for the kernel
and used by the expert to read the other seats' play (``infer_policy=classic``)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from _dealing import heuristic_positions

from callbreak.bots import heuristic
from callbreak.bots import kernel_classic as classic
from callbreak.bots.expert import ExpertBot
from callbreak.bots.heuristic import HeuristicBot, classic_steps, classic_table
from callbreak.bots.kernel import (
    POLICY_HEURISTIC,
    Kernel,
    get_kernel,
    make_position,
    options_array,
)
from callbreak.bots.kernel_sampling import WorldSampler
from callbreak.core import CHANCE, Dealer, Match, SeatView, make_rules

PRESETS = ("callbreak", "nepal-traditional", "catsatcards", "567", "bhoos-tournament",
           "partnership", "no-trump")


def weights_of(kernel: Kernel, view: SeatView, worlds: np.ndarray, mismatch: float = 0.5
               ) -> np.ndarray:
    out = np.ones(len(worlds))
    steps = classic_steps(view)
    trump = -1 if view.trump is None else int(view.trump)
    kernel.classic_weights(worlds, steps, trump, options_array(view.rules), mismatch, out)
    return out


@pytest.mark.parametrize("preset", PRESETS)
def test_the_model_plays_every_card_the_heuristic_bot_played(kernel: Kernel, preset: str) -> None:
    # Four heuristic bots play; at every decision, the model is asked to replay every earlier
    # move of the other seats from the true hands. It must agree with the bot on all of them,
    # so the true deal keeps its full weight however small the mismatch factor.
    checked = 0
    for match, view in heuristic_positions(preset, seed=3, deals=2):
        if not (view.tricks or view.trick):
            continue
        true = np.array([match.hands], dtype=np.int64)
        assert weights_of(kernel, view, true, mismatch=0.01)[0] == 1.0, (preset, view.tricks)
        checked += len(classic_steps(view))
    assert checked > 1000


def test_deals_the_play_does_not_fit_lose_weight(kernel: Kernel) -> None:
    # Sampled deals consistent with the voids shown still often hold cards with which a classic
    # player would have played differently: those count less, the true deal never does.
    penalised = 0
    for match, view in heuristic_positions("callbreak", seed=5, deals=1):
        if len(view.tricks) < 3:
            continue
        worlds, _ = WorldSampler(view, kernel).draw(200, random.Random(1))
        w = weights_of(kernel, view, np.vstack([np.array([match.hands]), worlds]))
        assert w[0] == 1.0
        assert ((w == 1.0) | (w <= 0.5)).all()  # whole mismatch factors only
        penalised += int((w[1:] < 1).sum())
    assert penalised > 1000


def test_both_backends_weigh_alike() -> None:
    numba_kernel, python_kernel = get_kernel("numba"), get_kernel("python")
    for k, (_match, view) in enumerate(heuristic_positions("partnership", seed=7, deals=1)):
        if k % 9 or not view.tricks:
            continue
        worlds, _ = WorldSampler(view, numba_kernel).draw(40, random.Random(k))
        np.testing.assert_array_equal(weights_of(numba_kernel, view, worlds, 0.3),
                                      weights_of(python_kernel, view, worlds, 0.3))


def test_the_thresholds_are_the_heuristic_bots() -> None:
    assert (classic.SAFE_RISK, classic.TRY_RISK, classic.CASH_RISK) == (
        heuristic._SAFE_RISK, heuristic._TRY_RISK, heuristic._CASH_RISK)
    assert (classic.LEAD_TRUMP_PENALTY, classic.LEAD_KING_PENALTY, classic.LEAD_RUFF_PENALTY) == (
        heuristic._LEAD_TRUMP_PENALTY, heuristic._LEAD_KING_PENALTY, heuristic._LEAD_RUFF_PENALTY)


def test_steps_hold_only_the_other_seats_moves() -> None:
    for _, view in heuristic_positions("callbreak", seed=2, deals=1):
        rows = classic_steps(view)
        played = [c for t in view.tricks for c in t.cards] + list(view.trick)
        mine = {int(c) for t in view.tricks for j, c in enumerate(t.cards)
                if t.seats[j] == view.seat}
        mine |= {int(c) for s, c in zip(view.trick_seats, view.trick, strict=True)
                 if s == view.seat}
        assert [r[classic.S_CARD] for r in rows] == [int(c) for c in played if int(c) not in mine]
        assert all(r[classic.S_SEAT] != view.seat for r in rows)


def test_the_expert_takes_the_classic_model_and_refuses_unknown_ones() -> None:
    bot = ExpertBot(samples=50, seed=1, infer=0.3, infer_policy="classic")
    for _, view in heuristic_positions("callbreak", seed=4, deals=1):
        if view.seat == 0 and len(view.legal) > 1:
            assert bot.decide(view, 1.0).action in view.legal
    with pytest.raises(ValueError, match="classic"):
        ExpertBot(samples=50, infer=0.3, infer_policy="psychic")


def rest_of_deal_by_classic_players(kernel: Kernel, match: Match, view: SeatView) -> list[int]:
    """Tricks per seat at the end of the deal when every seat plays the kernel's classic model
    from ``view``'s position on, with the true hands and no random moves."""
    pos = make_position(view.trick, view.leader, int(view.trump), len(view.tricks), view.won)
    out = np.zeros((1, 1, 1, 4), dtype=np.int64)
    kernel.classic_evaluate(np.array([match.hands], dtype=np.int64), pos.trick, pos.state,
                            pos.won, options_array(view.rules, noise=0),
                            np.array([-1], dtype=np.int64), 1, POLICY_HEURISTIC, 1, -1,
                            classic_table(view), out)
    return [int(x) for x in out[0, 0, 0]]


@pytest.mark.parametrize("preset", PRESETS)
def test_classic_playouts_play_the_deal_as_the_heuristic_bots_do(kernel: Kernel, preset: str
                                                                 ) -> None:
    # From positions of a game of four heuristic bots, a playout in which every seat is the
    # classic model (true hands, no noise) must end the deal with the tricks the bots took:
    # the stance, the targets and what the play shows of each hand are all tracked inside it.
    predicted: dict[int, list[list[int]]] = {}
    for match, view in heuristic_positions(preset, seed=11, deals=3):
        if view.tricks and len(view.tricks) % 4 == 1:  # a few positions a deal
            predicted.setdefault(match.deal_number, []).append(
                rest_of_deal_by_classic_players(kernel, match, view))
    checked = 0
    match = Match(make_rules(preset))
    dealer = Dealer(11)
    bot = HeuristicBot(seed=11)
    while not match.is_over and match.deal_number <= 3:
        if match.to_act == CHANCE:
            match.apply(dealer.chance(match))
            continue
        number = match.deal_number
        match.apply(bot.decide(match.view(match.to_act), 1.0).action)
        if match.results and match.results[-1].number == number and number in predicted:
            for tricks in predicted.pop(number):
                assert tricks == list(match.results[-1].won), (preset, number)
                checked += 1
    assert checked >= 6


def test_classic_playouts_agree_on_both_backends() -> None:
    numba_kernel, python_kernel = get_kernel("numba"), get_kernel("python")
    for k, (_match, view) in enumerate(heuristic_positions("callbreak", seed=12, deals=1)):
        if k % 7 or not view.tricks:
            continue
        worlds, _ = WorldSampler(view, numba_kernel).draw(20, random.Random(k))
        pos = make_position(view.trick, view.leader, int(view.trump), len(view.tricks), view.won)
        cands = np.array([int(c) for c in view.legal_cards], dtype=np.int64)
        outs = []
        for kern in (numba_kernel, python_kernel):
            out = np.zeros((20, len(cands), 2, 4), dtype=np.int64)
            kern.classic_evaluate(worlds, pos.trick, pos.state, pos.won, options_array(view.rules),
                                  cands, 2, POLICY_HEURISTIC, 5, view.seat,
                                  classic_table(view), out)
            assert (out.sum(axis=3) == 13).all()
            outs.append(out)
        np.testing.assert_array_equal(outs[0], outs[1])
