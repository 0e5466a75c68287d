"""The rules of trick play on int64 card masks, for compiled loops: the one kernel below the bots.

The expert's search (:mod:`callbreak.bots.kernel_impl`) and the batched research environment
(:mod:`callbreak.env.vector_impl`) both play tricks with these functions, so the rules a
compiled loop plays are written once beside the engine's (:mod:`callbreak.core.tricks`), which a
differential test holds them to (tests/env/test_env_kernel_differential.py).

Every function is plain Python that numba can also compile: helpers are ``register_jitable``, so
numba inlines them into compiled callers and plain Python calls them as they are, with the same
integer arithmetic (kept below 2**53, where numba's wrapping int64 and Python's ints agree).
Cards are ``suit * 13 + rank - 2`` as in :mod:`callbreak.core.cards`; hands are int64 masks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

F = TypeVar("F", bound=Callable[..., Any])

_jitable: Any
try:
    from numba.extending import register_jitable as _jitable
except ImportError:  # pragma: no cover - numba is a dependency; the fallback still works without
    _jitable = None


def jitable(fn: F) -> F:
    """Mark a helper numba may inline into compiled callers; returns ``fn`` unchanged."""
    if _jitable is None:  # pragma: no cover
        return fn
    _jitable(fn)
    return fn


# state indices
ST_NTRICK = 0  # cards in the current trick
ST_LEADER = 1  # seat that led the current trick
ST_TRUMP = 2  # trump suit, or -1 before the first lead of a ``first_led`` deal
ST_DONE = 3  # completed tricks
ST_WINPOS = 4  # index in the trick of the card winning it so far
STATE_SIZE = 5

# option indices
OPT_MUST_BEAT = 0  # follow_must_beat
OPT_VOID_RULE = 1  # VOID_* below
OPT_NO_WASTING = 2  # no_wasting_trumps
OPT_NO_SPADE_LEAD = 3  # spade_lead_first_trick=forbidden
OPT_PARTNERSHIP = 4  # partners sit opposite (the rollout policy lets a partner's trick stand)
OPT_NOISE = 5  # rollout policy: one move in this many is random (0: never); not a rule
OPT_SOLVE = 6  # evaluate: the last this many tricks are solved exactly, not rolled out (0: none)
OPTS_SIZE = 7
NOISE_DEFAULT = 16

VOID_TRUMP_IF_WINNING = 0
VOID_MUST_TRUMP = 1
VOID_FREE = 2

SUIT_BITS = 0x1FFF
SPADE_MASK = 0x1FFF
U32 = 0xFFFFFFFF


def _bit_tables() -> tuple[np.ndarray, np.ndarray]:
    low = np.full(1 << 13, -1, dtype=np.int64)
    high = np.full(1 << 13, -1, dtype=np.int64)
    for m in range(1, 1 << 13):
        low[m] = (m & -m).bit_length() - 1
        high[m] = m.bit_length() - 1
    return low, high


LOW_RANK, HIGH_RANK = _bit_tables()


# --- bits and randomness -------------------------------------------------------------------
# The helpers take and return scalars only: passing arrays into a compiled call costs
# reference counting each time, which measured more than twice the cost of the work itself.


@jitable
def xorshift(x: int) -> int:
    """One step of a 32-bit xorshift generator (``x`` nonzero, below 2**32)."""
    x ^= (x << 13) & U32
    x ^= x >> 17
    x ^= (x << 5) & U32
    return x


@jitable
def mix_seed(a: int, b: int) -> int:
    """A nonzero 32-bit generator state from two ints."""
    x = ((a * 0x9E37 + b * 0x85EB + 0x2545) ^ (b << 7)) & U32
    if x == 0:
        x = 0x6A09E667
    for _ in range(4):
        x = xorshift(x)
    return x


@jitable
def popcount(m: int) -> int:
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


@jitable
def low_card(m: int) -> int:
    """Index of the lowest card in a mask, -1 if empty."""
    for s in range(4):
        part = (m >> (13 * s)) & SUIT_BITS
        if part:
            return 13 * s + int(LOW_RANK[part])
    return -1


@jitable
def high_card(m: int) -> int:
    """Index of the highest card in a mask, -1 if empty."""
    for s in range(3, -1, -1):
        part = (m >> (13 * s)) & SUIT_BITS
        if part:
            return 13 * s + int(HIGH_RANK[part])
    return -1


@jitable
def nth_card(m: int, k: int) -> int:
    """The ``k``-th lowest card (0-based) of a mask."""
    while k > 0:
        m &= m - 1
        k -= 1
    return low_card(m)


@jitable
def suit_mask(s: int) -> int:
    return SUIT_BITS << (13 * s)


# --- the rules of trick play ---------------------------------------------------------------


@jitable
def legal_mask(hand: int, t0: int, t1: int, t2: int, ntrick: int, trump: int, first_trick: bool,
               must_beat: int, void_rule: int, no_wasting: int, no_spade_lead: int) -> int:
    """Cards ``hand`` may play after the trick's first ``ntrick`` cards ``t0, t1, t2``.

    The same rule as :func:`callbreak.core.tricks.legal_mask`, on scalars.
    """
    if ntrick == 0:
        if first_trick and no_spade_lead != 0:
            rest = hand & ~SPADE_MASK
            return rest if rest else hand
        return hand
    ls = t0 // 13
    own = hand & suit_mask(ls)
    hi_lead = t0
    hi_trump = t0 if ls == trump else -1
    if ntrick > 1:
        s = t1 // 13
        if s == ls and t1 > hi_lead:
            hi_lead = t1
        if s == trump and t1 > hi_trump:
            hi_trump = t1
        if ntrick > 2:
            s = t2 // 13
            if s == ls and t2 > hi_lead:
                hi_lead = t2
            if s == trump and t2 > hi_trump:
                hi_trump = t2
    trumped = ls != trump and hi_trump >= 0
    if own:
        if must_beat == 0 or trumped:
            return own
        higher = own & ~((2 << hi_lead) - 1)
        return higher if higher else own
    if trump < 0 or ls == trump:
        return hand
    own_trump = hand & suit_mask(trump)
    if not own_trump:
        return hand
    winning = own_trump & ~((2 << hi_trump) - 1) if trumped else own_trump
    if void_rule == VOID_MUST_TRUMP:
        return winning if winning else own_trump
    if void_rule == VOID_TRUMP_IF_WINNING and winning:
        return winning
    if no_wasting != 0 and trumped and not winning:
        rest = hand & ~own_trump
        return rest if rest else hand
    return hand


@jitable
def beats(card: int, best: int, trump: int) -> bool:
    cs = card // 13
    bs = best // 13
    if cs == bs:
        return card > best
    return cs == trump


@jitable
def play_to_trick(card: int, ntrick: int, leader: int, trump: int, winpos: int, t0: int, t1: int,
                  t2: int) -> tuple[int, int, int, int, int, int, int, int]:
    """The trick after ``card`` is played to it (the trick held in scalars, as the loops below
    keep it): ``(ntrick, leader, trump, winpos, t0, t1, t2, winner)``. ``winner`` is -1 unless
    the card completed the trick; then ``ntrick`` is 0 and ``leader`` is the winner."""
    if ntrick == 0:
        if trump < 0:
            trump = card // 13  # first_led: the deal's first card sets trump
        return 1, leader, trump, 0, card, t1, t2, -1
    best = t0 if winpos == 0 else (t1 if winpos == 1 else t2)
    if beats(card, best, trump):
        winpos = ntrick
    if ntrick == 1:
        t1 = card
    elif ntrick == 2:
        t2 = card
    if ntrick < 3:
        return ntrick + 1, leader, trump, winpos, t0, t1, t2, -1
    winner = (leader + winpos) % 4
    return 0, winner, trump, winpos, t0, t1, t2, winner
