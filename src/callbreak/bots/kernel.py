"""The fast simulation kernel: trick play compiled by numba, with an identical Python fallback.

The search bots play thousands of deals to the end for every decision; the general engine
(:class:`~callbreak.core.Match`) checks and records everything and is far too slow for that. The
kernel plays on int64 card masks with a fast rollout policy. Its source is
:mod:`callbreak.bots.kernel_impl`; :func:`get_kernel` returns it compiled by numba (``"numba"``) or
as plain Python (``"python"``), and both give identical results for identical inputs.

The backend is chosen by the ``CALLBREAK_KERNEL`` environment variable (``numba`` or
``python``), else numba when it can be imported. Compiled code is cached on disk
(``cache=True``), so only the first run after installation pays the compile time; call
:meth:`Kernel.warm_up` before timing anything.

>>> k = get_kernel("python")
>>> totals = np.zeros(4, dtype=np.int64)
>>> _ = k.random_deals(3, 7, options_array(make_rules("callbreak")), POLICY_RANDOM, False, totals)
>>> int(totals.sum())
39
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from callbreak.bots import kernel_classic as classic
from callbreak.bots import kernel_impl as impl
from callbreak.bots.kernel_impl import POLICY_HEURISTIC, POLICY_HONEST, POLICY_RANDOM, POLICY_SMART
from callbreak.core import Rules, SeatView, make_rules
from callbreak.core.rules import SpadeLead, VoidRule
from callbreak.core.tricks import trick_winner
from callbreak.kernel.rules import (
    NOISE_DEFAULT,
    OPT_MUST_BEAT,
    OPT_NO_SPADE_LEAD,
    OPT_NO_WASTING,
    OPT_NOISE,
    OPT_PARTNERSHIP,
    OPT_SOLVE,
    OPT_VOID_RULE,
    OPTS_SIZE,
    ST_DONE,
    ST_LEADER,
    ST_NTRICK,
    ST_TRUMP,
    ST_WINPOS,
    STATE_SIZE,
    VOID_FREE,
    VOID_MUST_TRUMP,
    VOID_TRUMP_IF_WINNING,
)

__all__ = [
    "BACKENDS", "NOISE_DEFAULT", "Kernel", "POLICY_HEURISTIC", "POLICY_HONEST", "POLICY_RANDOM", "POLICY_SMART", "Position",
    "default_backend",
    "get_kernel", "options_array", "position_of",
]

BACKENDS = ("numba", "python")

_VOID_CODES = {
    VoidRule.TRUMP_IF_WINNING: VOID_TRUMP_IF_WINNING,
    VoidRule.MUST_TRUMP: VOID_MUST_TRUMP,
    VoidRule.FREE: VOID_FREE,
}


def options_array(rules: Rules, noise: int = NOISE_DEFAULT, solve: int = 0) -> np.ndarray:
    """The rule options the kernel needs, as its int64 option array, with the rollout policy's
    ``noise`` (one move in ``noise`` random; 0: none) and ``solve``, how many last tricks
    :meth:`Kernel.evaluate` searches exactly instead of rolling them out (0: none)."""
    if noise < 0:
        raise ValueError(f"noise must be 0 (no random moves) or more, got {noise!r}")
    if not 0 <= solve <= 13:
        raise ValueError(f"solve must be between 0 and 13 tricks, got {solve!r}")
    opts = np.zeros(OPTS_SIZE, dtype=np.int64)
    opts[OPT_MUST_BEAT] = int(rules.follow_must_beat)
    opts[OPT_VOID_RULE] = _VOID_CODES[rules.void_rule]
    opts[OPT_NO_WASTING] = int(rules.no_wasting_trumps)
    opts[OPT_NO_SPADE_LEAD] = int(rules.spade_lead_first_trick is SpadeLead.FORBIDDEN)
    opts[OPT_PARTNERSHIP] = int(rules.partnership)
    opts[OPT_NOISE] = noise
    opts[OPT_SOLVE] = solve
    return opts


class Kernel:
    """One backend's entry points (see :mod:`callbreak.bots.kernel_impl` for their contracts)."""

    playout: Any
    legal_for: Any
    replay: Any
    random_deals: Any
    evaluate: Any
    deal_worlds: Any
    call_weights: Any
    call_fits: Any
    play_weights: Any
    solve: Any
    classic_weights: Any
    classic_evaluate: Any
    style_moves: Any
    past_legal: Any
    lanes_legal: Any
    lanes_play: Any
    classic_lanes: Any
    classic_lanes_until: Any

    def __init__(self, backend: str) -> None:
        if backend not in BACKENDS:
            raise ValueError(f"unknown kernel backend {backend!r}; choose one of {', '.join(BACKENDS)}")
        self.backend = backend
        self._warm = False
        if backend == "numba":
            import numba

            for module, name in _entry_points():
                setattr(self, name, numba.njit(cache=True, nogil=True)(getattr(module, name)))
        else:
            for module, name in _entry_points():
                setattr(self, name, getattr(module, name))

    def cached(self) -> bool:
        """Whether numba's disk cache already holds every entry point, compiled for this machine
        from this source, so that :meth:`warm_up` only loads (a fraction of a second) and
        compiles nothing. It reads numba's cache indexes, the way numba looks an entry up before
        it compiles; anything unexpected in them answers False (then a compile may follow)."""
        if self.backend != "numba":
            return True
        try:
            for _, name in _entry_points():
                dispatcher = getattr(self, name)
                cache, codegen = dispatcher._cache, dispatcher.targetctx.codegen()
                index = cache._cache_file._load_index()  # {} when missing or stale
                if not any(cache._index_key(key[0], codegen) == key for key in index):
                    return False
        except Exception:  # numba's private layout changed: assume a compile
            return False
        return True

    def warm_up(self) -> None:
        """Compile (or load from the disk cache) every entry point by running it once."""
        if self._warm:
            return
        opts = options_array(make_rules("callbreak"))
        totals = np.zeros(4, dtype=np.int64)
        self.random_deals(1, 1, opts, POLICY_HEURISTIC, False, totals)
        worlds = np.zeros((1, 4), dtype=np.int64)
        for s in range(4):
            worlds[0, s] = 0x1FFF << (13 * s)
        state = np.zeros(STATE_SIZE, dtype=np.int64)
        out = np.zeros((1, 1, 1, 4), dtype=np.int64)
        trick = np.zeros(4, dtype=np.int64)
        won = np.zeros(4, dtype=np.int64)
        points = np.zeros((4, 27), dtype=np.int64)
        self.evaluate(worlds, trick, state, won, opts, np.array([-1], dtype=np.int64), 1,
                      POLICY_HEURISTIC, 1, points, out)
        solving = options_array(make_rules("callbreak"), solve=1)
        self.evaluate(worlds, trick, state, won, solving, np.array([-1], dtype=np.int64), 1,
                      POLICY_HEURISTIC, 1, points, out)
        self.solve(worlds[0].copy(), trick, state.copy(), won.copy(), solving, points)
        hands = worlds[0].copy()
        self.replay(hands, trick, state.copy(), won.copy(), opts, np.array([0], dtype=np.int64),
                    np.zeros(1, dtype=np.int64))
        rng = np.array([1], dtype=np.int64)
        self.playout(worlds[0].copy(), trick, state.copy(), won.copy(), opts, POLICY_RANDOM, rng,
                     np.zeros(52, dtype=np.int64))
        self.legal_for(int(worlds[0, 0]), trick, 0, 0, True, opts)
        self.past_legal(worlds, np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64),
                        np.zeros((1, 3), dtype=np.int64), np.zeros(1, dtype=np.int64),
                        np.ones(1, dtype=np.int64), 0, opts, np.zeros((1, 1), dtype=np.int64))
        cards = np.full((1, 52), -1, dtype=np.int64)
        cards[0, :2] = (0, 1)
        seats = np.full((1, 4), -1, dtype=np.int64)
        seats[0, :2] = (1, 2)
        self.deal_worlds(np.zeros(4, dtype=np.int64), cards, np.array([2], dtype=np.int64), seats,
                         np.ones((1, 1, 4), dtype=np.int64), 1, worlds)
        for model in (np.zeros(0), np.ones(len(impl.FITTED_TERMS))):
            self.call_weights(worlds, np.zeros(4, dtype=np.int64), np.full(4, -1, dtype=np.int64),
                              1.6, model, 0, np.zeros(1))
        self.call_fits(worlds, np.zeros(4, dtype=np.int64), np.full(4, -1, dtype=np.int64), 1.6,
                       0.6, 0, 1, np.zeros((1, 4, 2)))
        self.play_weights(worlds, np.array([0], dtype=np.int64), 0, 0, opts, POLICY_SMART, 1, 0.5,
                          np.ones(1))
        full = np.array([[0x1FFF << (13 * s) for s in range(4)]], dtype=np.int64)  # a deal
        step = np.zeros((1, classic.STEP_COLS), dtype=np.int64)
        step[0, classic.S_SEAT:classic.S_T0] = (1, 13, 1, 0)  # a heart played to a spade lead
        step[0, classic.S_ALLOWED:] = (1 << 52) - 1
        self.classic_weights(full, step, 0, opts, 0.5, np.ones(1))
        moves = np.zeros((1, 1), dtype=np.int64)
        self.style_moves(full, step, 0, opts, moves, moves.copy(), moves.copy())
        table = np.zeros((4, classic.TABLE_COLS), dtype=np.int64)
        table[:, classic.T_ALLOWED] = (1 << 52) - 1
        self.classic_evaluate(full, np.zeros(4, dtype=np.int64), np.zeros(STATE_SIZE, dtype=np.int64),
                              np.zeros(4, dtype=np.int64), opts, np.array([-1], dtype=np.int64), 1,
                              POLICY_HEURISTIC, 1, 0, table, out)
        lanes = full.copy(), np.zeros((1, 4), dtype=np.int64), np.zeros((1, STATE_SIZE), dtype=np.int64)
        self.lanes_legal(*lanes, opts, np.zeros(1, dtype=np.int64))
        wons, allowed = np.zeros((1, 4), dtype=np.int64), np.full((1, 4), (1 << 52) - 1, dtype=np.int64)
        self.lanes_play(*lanes, wons, allowed, np.zeros(1, dtype=np.int64), opts)
        self.classic_lanes(*lanes, wons, allowed, opts, 1, 1, POLICY_HEURISTIC, 1, 0, table,
                           np.zeros((1, 1, 4), dtype=np.int64))
        self.classic_lanes_until(*lanes, wons, allowed, np.ones(1, dtype=np.int64), opts, 8,
                                 POLICY_HEURISTIC, 0, table)
        self._warm = True


def _entry_points() -> Iterator[tuple[Any, str]]:
    """Each entry point of the kernel, by its module and name."""
    for module in (impl, classic):
        for name in module.ENTRY_POINTS:
            yield module, name


_KERNELS: dict[str, Kernel] = {}
_LOCK = threading.Lock()


def default_backend() -> str:
    """``CALLBREAK_KERNEL`` if set, else numba when it can be imported, else python."""
    chosen = os.environ.get("CALLBREAK_KERNEL", "").strip().lower()
    if chosen:
        if chosen not in BACKENDS:
            raise ValueError(f"CALLBREAK_KERNEL must be one of {', '.join(BACKENDS)}, got {chosen!r}")
        return chosen
    try:
        import numba  # noqa: F401
    except ImportError:  # pragma: no cover
        return "python"
    return "numba"


def get_kernel(backend: str | None = None) -> Kernel:
    """The kernel for ``backend`` (default: :func:`default_backend`), built once per process."""
    name = backend or default_backend()
    with _LOCK:
        kernel = _KERNELS.get(name)
        if kernel is None:
            kernel = _KERNELS[name] = Kernel(name)
    return kernel


class Position:
    """The public part of a play-phase position as kernel arrays (hands come from sampling)."""

    __slots__ = ("trick", "state", "won")

    def __init__(self, trick: np.ndarray, state: np.ndarray, won: np.ndarray) -> None:
        self.trick = trick
        self.state = state
        self.won = won

    @property
    def seat_to_act(self) -> int:
        return int((self.state[ST_LEADER] + self.state[ST_NTRICK]) % 4)


def position_of(view: SeatView) -> Position:
    """The kernel position of a play-phase view.

    Raises ValueError outside the play phase.
    """
    if view.leader is None:
        raise ValueError("the kernel plays out positions of the play phase only")
    return make_position(view.trick, view.leader, -1 if view.trump is None else int(view.trump),
                         len(view.tricks), view.won)


def make_position(trick_cards: Sequence[int], leader: int, trump: int, done: int,
                  won: Sequence[int]) -> Position:
    """A kernel position from plain values (``trump`` -1: not set yet, for ``first_led``)."""
    trick = np.zeros(4, dtype=np.int64)
    for i, c in enumerate(trick_cards):
        trick[i] = int(c)
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[ST_NTRICK] = len(trick_cards)
    state[ST_LEADER] = leader
    state[ST_TRUMP] = trump
    state[ST_DONE] = done
    state[ST_WINPOS] = trick_winner([int(c) for c in trick_cards], trump) if trick_cards else 0
    return Position(trick, state, np.array([int(w) for w in won], dtype=np.int64))
