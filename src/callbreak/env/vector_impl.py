"""The compiled core of :class:`callbreak.env.vector.VectorEnv`: Call Break tables on int64 arrays.

Each table's state is one row of ``S`` (the ``C_*`` columns); the rule options are one int64
array ``P`` (the ``O_*`` indices); the observation layout's block offsets come from the
:class:`~callbreak.games.spaces.Encoder` (the ``F_*`` indices of ``F``). The trick rules are the
simulation kernel's (:func:`callbreak.bots.kernel_impl.legal_mask` and ``play_to_trick``), which
the kernel's tests hold equal to the engine's; everything around the tricks (deals and redeals,
calls, claims, scoring, the end of the match and its tie-break) follows
:class:`~callbreak.core.match.Match`, and the tests compare the two step by step.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from callbreak.kernel.rules import legal_mask, low_card, mix_seed, play_to_trick, xorshift

# --- table state columns ---------------------------------------------------------------------
C_PHASE = 0  # PH_* below (the engine's Phase order: the obs phase one-hot index)
C_TURN = 1
C_DEALER = 2
C_NTRICK = 3
C_LEADER = 4
C_TRUMP = 5  # -1 before the first lead of a first_led deal
C_WINPOS = 6
C_T0 = 7
C_T1 = 8
C_T2 = 9
C_DONE = 10  # completed tricks this deal
C_NDEALS = 11  # deals scored this match
C_TIEBREAK = 12  # bit mask of the seats in a tie-break deal (0: none)
C_CLAIM = 13  # how many seats have kept their hand (weak-hand claims)
C_RNG = 14
C_HANDS = 15  # 4 columns each from here
C_DEALT = 19
C_CALLS = 23  # -1: not called
C_WON = 27
C_TOTALS = 31  # tenths
C_PLAYED = 35  # cards each seat played this deal
C_VOIDS = 39  # suits each seat has shown it lacks (bit mask)
C_LOOKED = 43  # bit mask of the seats that have seen their cards this deal
C_BLIND = 44  # bit mask of the seats that called blind this deal
NCOLS = 45

PH_CLAIM = 2
PH_CALL = 3
PH_PLAY = 4

# --- option indices ----------------------------------------------------------------------------
O_MIN_CALL = 0
O_MAX_CALL = 1
O_MUST_BEAT = 2
O_VOID_RULE = 3  # the kernel's VOID_* codes
O_NO_WASTING = 4
O_NO_SPADE_LEAD = 5
O_SCORING = 6  # SC_* below
O_BONUS_THRESHOLD = 7  # 0: no bonus call
O_BONUS_POINTS = 8
O_WEAK = 9  # WEAK_* below
O_ONE_SUIT = 10
O_MIN_TOTAL = 11  # 0: none
O_SIDE_OFF = 12
O_DEALS = 13  # deals in a match (the rules' number, or max_deals when unlimited)
O_DEALS_SHOWN = 14  # the rules' number of deals, 0 when unlimited (as the observation shows it)
O_TIE_EXTRA = 15
O_SEAT0_DEALS = 16  # first_dealer=seat_0; otherwise the first dealer is drawn at random
O_ROTATION = 17  # +1 or -1
O_PARTNERSHIP = 18
O_FIRST_LED = 19
O_REWARD_MATCH = 20  # 0: points per deal; 1: a share of 1 to the match's winners
O_BLIND = 21  # blind calls: a seat sees its cards once it looks or calls; a blind call scores double
NOPTS = 22

SC_TENTHS = 0
SC_EXACT_OR_ONE_OVER = 1
SC_AT_LEAST = 2

WEAK_OFF = 0
WEAK_CLAIM = 1
WEAK_NO_SPADE = 2

VOID_TRUMP_IF_WINNING = 0
VOID_MUST_TRUMP = 1

# --- observation offsets -----------------------------------------------------------------------
F_HAND = 0
F_PLAYED = 1
F_TRICK = 2
F_LEADER = 3
F_TO_ACT = 4
F_DEALER = 5
F_SEAT = 6
F_CALLS = 7
F_WON = 8
F_SCORES = 9
F_VOIDS = 10
F_TRUMP = 11
F_PHASE = 12
F_DEAL = 13
F_LOOKED = 14
F_BLIND = 15
NF = 16

# chance log entries: (kind, a, b, c, d): kind 0 = first dealer a; kind 1 = deal of hands a..d
LOG_SIZE = 16
LOG_DEALER = 0
LOG_DEAL = 1

SPADES = 0x1FFF
FACES = 0
for _s in range(4):
    for _r in range(9, 13):
        FACES |= 1 << (_s * 13 + _r)

_jit = numba.njit(cache=True, nogil=True)


@_jit
def _rand(S: Any, t: int) -> int:
    x = xorshift(S[t, C_RNG])
    S[t, C_RNG] = x
    return int(x)


@_jit
def _log(log: Any, logn: Any, t: int, kind: int, a: int, b: int, c: int, d: int) -> None:
    k = logn[t]
    if k < LOG_SIZE:
        log[t, k, 0] = kind
        log[t, k, 1] = a
        log[t, k, 2] = b
        log[t, k, 3] = c
        log[t, k, 4] = d
    logn[t] = k + 1


@_jit
def _deal(S: Any, P: Any, t: int, deck: Any, log: Any, logn: Any) -> None:
    """Deal (again, while a hand is redealt automatically) and open the claims or the calls."""
    while True:
        for i in range(52):
            deck[i] = i
        for i in range(51, 0, -1):
            j = _rand(S, t) % (i + 1)
            tmp = deck[i]
            deck[i] = deck[j]
            deck[j] = tmp
        thrown = False
        for s in range(4):
            m = 0
            for i in range(13):
                m |= 1 << deck[13 * s + i]
            S[t, C_HANDS + s] = m
            S[t, C_DEALT + s] = m
            if P[O_WEAK] == WEAK_NO_SPADE and m & SPADES == 0:
                thrown = True
            if P[O_ONE_SUIT] != 0:
                for suit in range(4):
                    if m == SPADES << (13 * suit):
                        thrown = True
        _log(log, logn, t, LOG_DEAL, S[t, C_HANDS], S[t, C_HANDS + 1], S[t, C_HANDS + 2],
             S[t, C_HANDS + 3])
        if not thrown:
            break
    for s in range(4):
        S[t, C_CALLS + s] = -1
        S[t, C_WON + s] = 0
        S[t, C_PLAYED + s] = 0
        S[t, C_VOIDS + s] = 0
    S[t, C_NTRICK] = 0
    S[t, C_DONE] = 0
    S[t, C_WINPOS] = 0
    S[t, C_TRUMP] = -1 if P[O_FIRST_LED] != 0 else 0
    S[t, C_TURN] = (S[t, C_DEALER] + 1) % 4
    S[t, C_CLAIM] = 0
    S[t, C_LOOKED] = 0 if P[O_BLIND] != 0 else 15
    S[t, C_BLIND] = 0
    S[t, C_PHASE] = PH_CLAIM if P[O_WEAK] == WEAK_CLAIM else PH_CALL


@_jit
def _new_match(S: Any, P: Any, t: int, deck: Any, log: Any, logn: Any) -> None:
    for s in range(4):
        S[t, C_TOTALS + s] = 0
    S[t, C_NDEALS] = 0
    S[t, C_TIEBREAK] = 0
    dealer = 0 if P[O_SEAT0_DEALS] != 0 else _rand(S, t) % 4
    S[t, C_DEALER] = dealer
    _log(log, logn, t, LOG_DEALER, dealer, 0, 0, 0)
    _deal(S, P, t, deck, log, logn)


@_jit
def _deal_points(call: int, won: int, P: Any, blind: bool) -> int:
    scoring = P[O_SCORING]
    if scoring == SC_EXACT_OR_ONE_OVER:
        made = call <= won <= call + 1
    else:
        made = won >= call
    if not made:
        points = -call * 10
    elif P[O_BONUS_THRESHOLD] > 0 and call >= P[O_BONUS_THRESHOLD]:
        points = int(P[O_BONUS_POINTS] * 10)
    elif scoring == SC_TENTHS:
        points = call * 10 + (won - call)
    else:
        points = call * 10
    return points * 2 if blind else points


@_jit
def _leaders(values: Any, among: int) -> int:
    best = -(1 << 60)
    for s in range(4):
        if among >> s & 1 and values[s] > best:
            best = values[s]
    out = 0
    for s in range(4):
        if among >> s & 1 and values[s] == best:
            out |= 1 << s
    return out


@_jit
def _end(S: Any, P: Any, t: int, winners: int, rewards: Any, done: Any, final: Any,
         won_by: Any, deck: Any, log: Any, logn: Any) -> None:
    k = 0
    for s in range(4):
        if winners >> s & 1:
            k += 1
    for s in range(4):
        final[t, s] = S[t, C_TOTALS + s]
        if P[O_REWARD_MATCH] != 0 and winners >> s & 1:
            rewards[t, s] += 1.0 / k
    won_by[t] = winners
    done[t] = 1
    _new_match(S, P, t, deck, log, logn)


@_jit
def _score_deal(S: Any, P: Any, t: int, rewards: Any, done: Any, final: Any, won_by: Any,
                deck: Any, log: Any, logn: Any) -> None:
    points = np.zeros(4, dtype=np.int64)
    if P[O_PARTNERSHIP] != 0:
        for team in range(2):
            p = _deal_points(S[t, C_CALLS + team] + S[t, C_CALLS + team + 2],
                             S[t, C_WON + team] + S[t, C_WON + team + 2], P, False)
            points[team] = p
            points[team + 2] = p
    else:
        for s in range(4):
            points[s] = _deal_points(S[t, C_CALLS + s], S[t, C_WON + s], P, S[t, C_BLIND] >> s & 1 == 1)
    for s in range(4):
        S[t, C_TOTALS + s] += points[s]
        if P[O_REWARD_MATCH] == 0:
            rewards[t, s] += points[s] / 10.0
    S[t, C_NDEALS] += 1
    S[t, C_DEALER] = (S[t, C_DEALER] + P[O_ROTATION]) % 4
    tie = S[t, C_TIEBREAK]
    if tie != 0:
        _end(S, P, t, _leaders(points, tie), rewards, done, final, won_by, deck, log, logn)
        return
    if S[t, C_NDEALS] >= P[O_DEALS]:
        totals = np.zeros(4, dtype=np.int64)
        for s in range(4):
            totals[s] = S[t, C_TOTALS + s]
        top = _leaders(totals, 15)
        n = 0
        for s in range(4):
            if top >> s & 1:
                n += 1
        tied = n > 1 and not (P[O_PARTNERSHIP] != 0 and n == 2)
        if tied and P[O_TIE_EXTRA] != 0:
            S[t, C_TIEBREAK] = top
            _deal(S, P, t, deck, log, logn)
            return
        _end(S, P, t, top, rewards, done, final, won_by, deck, log, logn)
        return
    _deal(S, P, t, deck, log, logn)


@_jit
def _infer(S: Any, P: Any, t: int, seat: int, card: int) -> None:
    """The suits a play shows the player lacks (the engine's public inference, voids only)."""
    ntrick = S[t, C_NTRICK]
    trump = S[t, C_TRUMP]
    cs = card // 13
    v = C_VOIDS + seat
    if ntrick == 0:
        if S[t, C_DONE] == 0 and P[O_NO_SPADE_LEAD] != 0 and cs == 0 and trump == 0:
            S[t, v] |= 0b1110
        return
    t0 = S[t, C_T0]
    ls = t0 // 13
    if cs == ls:
        return
    hi_trump = -1
    for i in range(ntrick):
        c = S[t, C_T0 + i]
        if c // 13 == trump and c > hi_trump:
            hi_trump = c
    trumped = ls != trump and hi_trump >= 0
    S[t, v] |= 1 << ls
    if trump < 0 or ls == trump:
        return
    rule = P[O_VOID_RULE]
    if cs == trump:
        if trumped and card < hi_trump and P[O_NO_WASTING] != 0 and rule == VOID_TRUMP_IF_WINNING:
            S[t, v] |= 15 & ~(1 << trump)
        return
    if rule == VOID_MUST_TRUMP or (rule == VOID_TRUMP_IF_WINNING and not trumped):
        S[t, v] |= 1 << trump


@_jit
def _apply(S: Any, P: Any, t: int, a: int, rewards: Any, done: Any, final: Any, won_by: Any,
           trick_winner: Any, deck: Any, log: Any, logn: Any) -> None:
    phase = S[t, C_PHASE]
    seat = S[t, C_TURN]
    dealer = S[t, C_DEALER]
    if phase == PH_CLAIM:
        if a == 81:  # a weak hand is shown: the same dealer deals again
            _deal(S, P, t, deck, log, logn)
            return
        S[t, C_CLAIM] += 1
        if S[t, C_CLAIM] == 4:
            S[t, C_PHASE] = PH_CALL
            S[t, C_TURN] = (dealer + 1) % 4
        else:
            S[t, C_TURN] = (seat + 1) % 4
        return
    if phase == PH_CALL:
        if a == 80:  # look at the cards: the same seat calls next
            S[t, C_LOOKED] |= 1 << seat
            return
        if a >= 66:
            S[t, C_BLIND] |= 1 << seat
            S[t, C_CALLS + seat] = a - 66
        else:
            S[t, C_CALLS + seat] = a - 52
        S[t, C_LOOKED] |= 1 << seat
        if seat != dealer:
            S[t, C_TURN] = (seat + 1) % 4
            return
        total = S[t, C_CALLS] + S[t, C_CALLS + 1] + S[t, C_CALLS + 2] + S[t, C_CALLS + 3]
        if P[O_MIN_TOTAL] > 0 and total < P[O_MIN_TOTAL]:
            _deal(S, P, t, deck, log, logn)
            return
        if P[O_SIDE_OFF] != 0:
            for s in range(4):
                for suit in range(4):
                    if S[t, C_HANDS + s] & (SPADES << (13 * suit)) == 0:
                        S[t, C_VOIDS + s] |= 1 << suit
        S[t, C_PHASE] = PH_PLAY
        S[t, C_TURN] = (seat + 1) % 4
        S[t, C_LEADER] = (seat + 1) % 4
        return
    card = a
    S[t, C_HANDS + seat] ^= 1 << card
    S[t, C_PLAYED + seat] |= 1 << card
    _infer(S, P, t, seat, card)
    ntrick, leader, trump, winpos, t0, t1, t2, winner = play_to_trick(
        card, S[t, C_NTRICK], seat if S[t, C_NTRICK] == 0 else S[t, C_LEADER], S[t, C_TRUMP],
        S[t, C_WINPOS], S[t, C_T0], S[t, C_T1], S[t, C_T2])
    S[t, C_NTRICK] = ntrick
    S[t, C_LEADER] = leader
    S[t, C_TRUMP] = trump
    S[t, C_WINPOS] = winpos
    S[t, C_T0] = t0
    S[t, C_T1] = t1
    S[t, C_T2] = t2
    if winner < 0:
        S[t, C_TURN] = (seat + 1) % 4
        return
    trick_winner[t] = winner
    S[t, C_WON + winner] += 1
    S[t, C_DONE] += 1
    S[t, C_TURN] = winner
    if S[t, C_DONE] == 13:
        _score_deal(S, P, t, rewards, done, final, won_by, deck, log, logn)


@_jit
def _write(S: Any, P: Any, F: Any, t: int, obs: Any, mask: Any) -> None:
    """The observation and action mask of the seat to act at table ``t``."""
    row = obs[t]
    row[:] = 0
    mrow = mask[t]
    mrow[:] = 0
    seat = S[t, C_TURN]
    phase = S[t, C_PHASE]
    looked = S[t, C_LOOKED] >> seat & 1
    m = S[t, C_HANDS + seat] if looked else 0
    base = F[F_HAND]
    while m:
        row[base + low_card(m)] = 1
        m &= m - 1
    for r in range(4):
        s = (seat + r) % 4
        m = S[t, C_PLAYED + s]
        base = F[F_PLAYED] + 52 * r
        while m:
            row[base + low_card(m)] = 1
            m &= m - 1
        c = S[t, C_CALLS + s]
        row[F[F_CALLS] + 15 * r + (14 if c < 0 else c)] = 1
        row[F[F_WON] + r] = S[t, C_WON + s]
        row[F[F_SCORES] + r] = S[t, C_TOTALS + s] / 10.0
        v = S[t, C_VOIDS + s]
        for suit in range(4):
            if v >> suit & 1:
                row[F[F_VOIDS] + 4 * r + suit] = 1
        if S[t, C_BLIND] >> s & 1:
            row[F[F_BLIND] + r] = 1
    ntrick = S[t, C_NTRICK]
    for i in range(ntrick):
        row[F[F_TRICK] + S[t, C_T0 + i]] = 1
    if phase == PH_PLAY:
        row[F[F_LEADER] + (S[t, C_LEADER] - seat) % 4] = 1
    row[F[F_TO_ACT]] = 1
    row[F[F_DEALER] + (S[t, C_DEALER] - seat) % 4] = 1
    row[F[F_SEAT] + seat] = 1
    if S[t, C_TRUMP] >= 0:
        row[F[F_TRUMP] + S[t, C_TRUMP]] = 1
    row[F[F_PHASE] + phase] = 1
    row[F[F_DEAL]] = S[t, C_NDEALS] + 1
    row[F[F_DEAL] + 1] = P[O_DEALS_SHOWN]
    row[F[F_LOOKED]] = looked
    if phase == PH_PLAY:
        legal = legal_mask(S[t, C_HANDS + seat], S[t, C_T0], S[t, C_T1], S[t, C_T2], ntrick,
                           S[t, C_TRUMP], S[t, C_DONE] == 0, P[O_MUST_BEAT], P[O_VOID_RULE],
                           P[O_NO_WASTING], P[O_NO_SPADE_LEAD])
        while legal:
            mrow[low_card(legal)] = 1
            legal &= legal - 1
    elif phase == PH_CALL:
        for n in range(P[O_MIN_CALL], P[O_MAX_CALL] + 1):
            mrow[52 + n] = 1
            if not looked:
                mrow[66 + n] = 1
        if not looked:
            mrow[80] = 1
    else:
        mrow[82] = 1
        h = S[t, C_HANDS + seat]
        if h & SPADES == 0 or h & FACES == 0:
            mrow[81] = 1


@_jit
def reset_tables(S: Any, P: Any, F: Any, seed: int, obs: Any, mask: Any, log: Any,
                 logn: Any) -> None:
    deck = np.zeros(52, dtype=np.int64)
    for t in range(S.shape[0]):
        S[t, C_RNG] = mix_seed(seed, t)
        logn[t] = 0
        _new_match(S, P, t, deck, log, logn)
        _write(S, P, F, t, obs, mask)


@_jit
def step_tables(S: Any, P: Any, F: Any, actions: Any, obs: Any, mask: Any, rewards: Any,
                done: Any, final: Any, won_by: Any, trick_winner: Any, log: Any,
                logn: Any) -> None:
    deck = np.zeros(52, dtype=np.int64)
    for t in range(S.shape[0]):
        logn[t] = 0
        done[t] = 0
        trick_winner[t] = -1
        for s in range(4):
            rewards[t, s] = 0.0
        _apply(S, P, t, actions[t], rewards, done, final, won_by, trick_winner, deck, log, logn)
        _write(S, P, F, t, obs, mask)


@_jit
def random_actions(mask: Any, rng: Any, out: Any) -> None:
    """A uniformly random legal action id per table (``rng``: a one-element xorshift state)."""
    x = rng[0]
    for t in range(mask.shape[0]):
        n = 0
        for i in range(mask.shape[1]):
            n += mask[t, i]
        x = xorshift(x)
        k = x % n
        for i in range(mask.shape[1]):
            if mask[t, i]:
                if k == 0:
                    out[t] = i
                    break
                k -= 1
    rng[0] = x
