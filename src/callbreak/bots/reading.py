"""Reading the other seats' styles from their play.

At a table of strangers the expert should not assume every other seat plays as our heuristic
bot does. :func:`read_styles` keeps, for each other seat, a posterior over a few models of how it
plays (:data:`STYLES`):

* ``random``: any legal card, each as likely;
* ``greedy``: :class:`callbreak.bots.styles.GreedyBot`'s rule (win as cheaply as it can, else
  throw the cheapest card);
* ``classic``: the heuristic bot's play (:func:`callbreak.bots.kernel_classic.classic_card`);
* ``search``: a searching player (IS-MCTS, as most public tournament bots are): its cards follow
  no rule the reader can replay cheaply, so they count as ``random``'s do, but it calls by its
  hand's strength, as a classic caller does. Only the calls tell it from a random player.

A card's likelihood under a model depends on the hand it was played from, which the reader does
not see: it is averaged over the expert's sampled deals (each consistent with the reader's own
view only), jointly over all of that seat's moves this deal (one hand explains them all). Every
model but ``random`` is mixed with a random move (``EPSILON``), so no move rules a style out,
and a posterior carried over to the next deal keeps at least ``FLOOR`` on every style, so a seat
that changes its ways is read again. Calls are read too when asked (``read=calls``): a classic
caller (and a searching one) calls near the quick count of its hand, a greedy one its sure
winners, a random one anything, and the sampled deals are then weighed by each call as the
seat's reading says it was made.

:class:`StyleBook` carries the posteriors across the deals of a match for a stateless server: a
bounded LRU of matches, each entry dropped after a while idle.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from callbreak.bots.kernel_classic import S_CARD, S_SEAT
from callbreak.bots.kernel_sampling import or_equal

STYLES = ("random", "greedy", "classic", "search")
RANDOM, GREEDY, CLASSIC, SEARCH = range(len(STYLES))
EPSILON = 0.1  # a modelled player's chance of a move its model would not make
FLOOR = 0.02  # the least a style keeps when carried into a new deal

Posterior = np.ndarray  # one probability per style, in STYLES order


def uniform() -> Posterior:
    return np.full(len(STYLES), 1.0 / len(STYLES))


def move_likelihoods(steps: np.ndarray, classic: np.ndarray, greedy: np.ndarray,
                     nlegal: np.ndarray) -> np.ndarray:
    """(worlds, moves, styles): the chance of each earlier move (a row of ``steps``) in each
    sampled deal under each style, from :func:`callbreak.bots.kernel_classic.style_moves`' arrays.
    A forced move (one legal card) has chance 1 under every style; where the classic model has
    no opinion (-1) it counts as random."""
    played = steps[:, S_CARD][None, :]
    n = np.maximum(nlegal, 1).astype(float)
    rand = 1.0 / n
    out = np.empty((*classic.shape, len(STYLES)))
    out[..., RANDOM] = rand
    out[..., SEARCH] = rand
    out[..., GREEDY] = np.where(greedy == played, 1.0 - EPSILON, 0.0) + EPSILON * rand
    out[..., CLASSIC] = np.where(classic < 0, rand,
                                 np.where(classic == played, 1.0 - EPSILON, 0.0) + EPSILON * rand)
    out[nlegal < 2] = 1.0
    return out


def call_likelihoods(fits: np.ndarray, called: Sequence[int], choices: int) -> np.ndarray:
    """(worlds, 4, styles): the chance of each seat's call in each sampled deal under each
    style, from :meth:`callbreak.bots.kernel_sampling.WorldSampler.call_fits` (a classic and a
    greedy caller's; a searching one calls as a classic one); a random caller picks any of the
    ``choices`` calls. Seats not in
    ``called`` have 1 under every style."""
    out = np.ones((len(fits), 4, len(STYLES)))
    for seat in called:
        out[:, seat, RANDOM] = 1.0 / choices
        out[:, seat, GREEDY] = fits[:, seat, 1]
        out[:, seat, CLASSIC] = fits[:, seat, 0]
        out[:, seat, SEARCH] = fits[:, seat, 0]
    return out


def calls_as_read(calls: np.ndarray, posteriors: Mapping[int, Posterior]) -> np.ndarray:
    """Per sampled deal, how well it fits the calls made, each seat's call judged by the styles
    it is read as: the product over seats of the call's chance under each style, weighed by
    the seat's reading (``calls``: :func:`call_likelihoods`; a seat not read: uniform). (The
    style-blind weights are :meth:`~callbreak.bots.kernel_sampling.WorldSampler.draw`'s.)"""
    out = np.ones(len(calls))
    for seat in range(4):
        post = np.asarray(posteriors.get(seat, uniform()), dtype=float)
        out *= calls[:, seat, :] @ post
    return or_equal(out)


def read_styles(steps: np.ndarray, classic: np.ndarray, greedy: np.ndarray, nlegal: np.ndarray,
                weights: np.ndarray, priors: Mapping[int, Posterior],
                calls: np.ndarray | None = None) -> dict[int, Posterior]:
    """Each seat with moves in ``steps``: its prior (``priors``, else uniform) times the chance
    of all its moves this deal under each style, averaged over the sampled deals (``weights``:
    how well each deal fits what else is known, the calls). With ``calls``
    (:func:`call_likelihoods`, for deals drawn without regard to the calls, ``weights`` all 1)
    each seat's call is read too, with its moves; a seat that has called but not played is read
    from its call alone. Seats with neither keep their prior."""
    like = move_likelihoods(steps, classic, greedy, nlegal)
    logs = np.log(like)
    total = float(weights.sum())
    out = {s: np.asarray(p, dtype=float) for s, p in priors.items()}
    seats = {int(s) for s in steps[:, S_SEAT]}
    if calls is not None:
        seats |= {s for s in range(4) if not np.all(calls[:, s, :] == 1.0)}
    for seat in sorted(seats):
        mine = steps[:, S_SEAT] == seat
        per_world = logs[:, mine, :].sum(axis=1)  # (worlds, styles): all its moves at once
        if calls is not None:
            per_world = per_world + np.log(np.maximum(calls[:, seat, :], 1e-300))
        top = per_world.max(axis=0)
        if total > 0:
            mean = np.log((weights[:, None] * np.exp(per_world - top)).sum(axis=0) / total) + top
        else:
            mean = np.zeros(len(STYLES))
        prior = np.asarray(priors.get(seat, uniform()), dtype=float)
        post = np.log(np.maximum(prior, 1e-300)) + mean
        post = np.exp(post - post.max())
        out[seat] = post / post.sum()
    return out


def mismatch_factors(posteriors: Mapping[int, Posterior], infer: float) -> np.ndarray:
    """Per seat, what a sampled deal's weight is multiplied by for a move a classic player
    holding that deal's cards would not have made: ``infer`` for a seat surely classic, 1 (no
    evidence against the deal) for one surely not; in between, the mixture's ratio."""
    factors = np.full(4, float(infer))
    for seat, post in posteriors.items():
        factors[seat] = 1.0 - float(post[CLASSIC]) * (1.0 - infer)
    return factors


def classic_mismatch_weights(steps: np.ndarray, classic: np.ndarray, nlegal: np.ndarray,
                             factors: np.ndarray) -> np.ndarray:
    """Per sampled deal, the product of ``factors[seat]`` over the earlier moves a classic player
    would not have made in it (the per-seat form of
    :func:`callbreak.bots.kernel_classic.classic_weights`)."""
    played = steps[:, S_CARD][None, :]
    miss = (classic >= 0) & (classic != played) & (nlegal >= 2)
    per_move = np.where(miss, factors[steps[:, S_SEAT]][None, :], 1.0)
    out: np.ndarray = np.prod(per_move, axis=1)
    return out


def carry(post: Posterior) -> Posterior:
    """A deal's final reading as the next deal's prior: at least ``FLOOR`` on every style."""
    p: np.ndarray = np.maximum(np.asarray(post, dtype=float), FLOOR)
    out: np.ndarray = p / p.sum()
    return out


def readings_json(readings: Mapping[int, Posterior]) -> dict[str, list[float]]:
    """Readings by seat as plain JSON: a float's repr reads back exactly, so a bot given them
    back decides as the one that made them."""
    return {str(seat): [float(x) for x in post] for seat, post in readings.items()}


def readings_from_json(plain: Any) -> dict[int, Posterior]:
    """:func:`readings_json`'s readings back (seats 0-3, one chance a style, each finite and
    >= 0); a TypeError or ValueError for anything else."""
    if not isinstance(plain, Mapping):
        raise TypeError(f"readings by seat, got {plain!r}")
    out: dict[int, Posterior] = {}
    for seat, post in plain.items():
        p = np.asarray(post, dtype=float)
        if int(seat) not in range(4) or p.shape != (len(STYLES),) or not np.all(np.isfinite(p)) or np.any(p < 0):
            raise ValueError(f"a reading of seat {seat!r} must be {len(STYLES)} chances, got {post!r}")
        out[int(seat)] = p
    return out


@dataclass
class _Match:
    deal: int
    start: dict[str, Posterior]  # per player id: the reading before this deal
    latest: dict[str, Posterior] = field(default_factory=dict)  # after its last move seen
    seen: float = 0.0


class StyleBook:
    """Readings of the other players carried from deal to deal of a match, for a server that is
    stateless per request: at most ``capacity`` matches (least recently used dropped first), a
    match dropped after ``idle`` seconds without a request. Keyed by the caller (for the
    protocol: the match's id, or its seat order of player ids, and the reading player's id)."""

    def __init__(self, capacity: int = 1000, idle: float = 1800.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if capacity < 1 or idle <= 0:
            raise ValueError(f"a style book needs capacity >= 1 and idle > 0, got {capacity}, {idle}")
        self.capacity = capacity
        self.idle = idle
        self.clock = clock
        self._matches: OrderedDict[Hashable, _Match] = OrderedDict()

    def __len__(self) -> int:
        return len(self._matches)

    def _expire(self, now: float) -> None:
        while self._matches:
            key, oldest = next(iter(self._matches.items()))
            if now - oldest.seen < self.idle:
                break
            del self._matches[key]

    def priors(self, key: Hashable, deal: int) -> dict[str, Posterior]:
        """The readings to start deal ``deal`` from (empty: nothing known). A deal other than the
        last one seen starts from the last one's final readings."""
        now = self.clock()
        self._expire(now)
        entry = self._matches.get(key)
        if entry is None:
            entry = self._matches[key] = _Match(deal, {})
        elif entry.deal != deal:
            entry.start = {pid: carry(p) for pid, p in {**entry.start, **entry.latest}.items()}
            entry.latest = {}
            entry.deal = deal
        entry.seen = now
        self._matches.move_to_end(key)
        while len(self._matches) > self.capacity:
            self._matches.popitem(last=False)
        return dict(entry.start)

    def record(self, key: Hashable, deal: int, readings: Mapping[str, Posterior]) -> None:
        """The readings after the moves of deal ``deal`` seen so far (ignored if the match was
        dropped or moved on meanwhile)."""
        entry = self._matches.get(key)
        if entry is not None and entry.deal == deal:
            entry.latest.update({pid: np.asarray(p, dtype=float) for pid, p in readings.items()})
