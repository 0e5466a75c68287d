"""Sampled deals in bulk: the exact split draws of :class:`~callbreak.core.sampling.HandSampler`
with the card shuffles and the call-evidence weights done by the kernel.

Drawing samples one by one in Python cost ten times the rollouts that evaluate them; here Python
only draws, per sample and class of cards, how many cards each seat receives (the part that
needs exact big-integer weights), and the kernel shuffles and deals the cards. The result has the
same distribution as :meth:`HandSampler.sample`.

Calls are used as evidence by importance weights rather than resampling: every sample is kept
with the likelihood of the calls made given the hands it deals (see
:func:`callbreak.core.sampling.call_likelihood`), so no sample is wasted.
"""

from __future__ import annotations

import random

import numpy as np

from callbreak.bots.hand_value import fitted_weights
from callbreak.bots.kernel import Kernel
from callbreak.bots.kernel_impl import FITTED_TERMS
from callbreak.core import SeatView
from callbreak.core.sampling import CALL_SPREAD, HandSampler

EVIDENCE = ("count", "fitted")
GREEDY_CALL_SPREAD = 0.6  # tricks: a greedy caller calls its count of sure winners, near enough

__all__ = ["WorldSampler", "or_equal"]


def or_equal(weights: np.ndarray) -> np.ndarray:
    """``weights``, or all 1 if every sampled deal is implausible (weights 0 or underflowed): a
    search needs some deal to count."""
    if not weights.sum() > 0:
        weights[:] = 1.0
    return weights


class WorldSampler:
    """Deals consistent with ``view``, drawn in batches, with their call-evidence weights.

    Raises :class:`~callbreak.core.sampling.SamplingError` if the view allows no deal.
    """

    def __init__(self, view: SeatView, kernel: Kernel, use_calls: bool = True,
                 spread: float = CALL_SPREAD, evidence: str = "count") -> None:
        if not spread > 0:
            raise ValueError(f"the call spread must be positive, got {spread!r}")
        if evidence not in EVIDENCE:
            raise ValueError(f"evidence must be one of {', '.join(EVIDENCE)}, got {evidence!r}")
        self.spread = spread
        # What a call says of a hand: the quick hand count, or the fitted trick model (which
        # needs the trump suit; with none known yet the count is used).
        self.trump = int(view.trump) if view.trump is not None else -1
        fitted = evidence == "fitted" and self.trump >= 0
        self.model = np.array(fitted_weights(FITTED_TERMS) if fitted else [], dtype=np.float64)
        self.sampler = HandSampler(view)
        self.kernel = kernel
        classes = self.sampler.classes
        k = len(classes)
        self.class_cards = np.full((k, 52), -1, dtype=np.int64)
        self.class_sizes = np.zeros(k, dtype=np.int64)
        self.class_seats = np.full((k, 4), -1, dtype=np.int64)
        for i, (who, cards) in enumerate(classes):
            self.class_sizes[i] = len(cards)
            self.class_cards[i, :len(cards)] = cards
            for e, index in enumerate(who):
                self.class_seats[i, e] = self.sampler.unknown[index]
        self.fixed = np.array(self.sampler.hands, dtype=np.int64)
        self.played_by = np.zeros(4, dtype=np.int64)
        for trick in view.tricks:
            for j, c in enumerate(trick.cards):
                self.played_by[trick.seats[j]] |= 1 << int(c)
        for seat, c in zip(view.trick_seats, view.trick, strict=True):
            self.played_by[seat] |= 1 << int(c)
        self.calls = np.full(4, -1, dtype=np.int64)
        if use_calls:
            for s in range(4):
                call = view.calls[s]
                if s != view.seat and call is not None and not view.blind[s]:
                    self.calls[s] = call
        self.called = [s for s in range(4) if self.calls[s] >= 0]  # the others' calls read
        self.weighted = bool(self.called)
        self.lowest = min(view.rules.call_range)

    def draw(self, n: int, rng: random.Random,
             weigh: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """``n`` deals as an (n, 4) array of hand masks, and their weights (n): by the calls,
        or all 1 without ``weigh`` (for :meth:`call_fits`)."""
        k = len(self.sampler.classes)
        flat: list[int] = []
        for _ in range(n):
            for split in self.sampler.draw_splits(rng):
                flat.extend(split)
                flat.extend((0,) * (4 - len(split)))
        splits = np.array(flat, dtype=np.int64).reshape(n, k, 4)
        worlds = np.zeros((n, 4), dtype=np.int64)
        self.kernel.deal_worlds(self.fixed, self.class_cards, self.class_sizes, self.class_seats,
                                splits, rng.getrandbits(30), worlds)
        weights = np.ones(n)
        if self.weighted and weigh:
            self.kernel.call_weights(worlds, self.played_by, self.calls, self.spread, self.model,
                                     self.trump, weights)
        return worlds, or_equal(weights)

    def call_fits(self, worlds: np.ndarray) -> np.ndarray:
        """(n, 4, 2): how likely each seat's call is with the hand ``worlds`` deals it, for a
        classic and a greedy caller (:func:`callbreak.bots.kernel_impl.call_fits`)."""
        out = np.ones((len(worlds), 4, 2))
        if self.weighted:
            self.kernel.call_fits(worlds, self.played_by, self.calls, self.spread,
                                  GREEDY_CALL_SPREAD, max(self.trump, 0), self.lowest, out)
        return out
