"""The simulation kernel's source: trick play on int64 card masks, written once for two backends.

Every function here is plain Python that numba can also compile. :mod:`callbreak.bots.kernel`
compiles the entry points with ``numba.njit`` (the helpers are ``register_jitable``, so numba
inlines them and plain Python calls them as they are); without numba, or when asked, the very
same functions run as Python. Because both backends execute one source with the same integer
arithmetic and the same random stream (a 32-bit xorshift kept in a one-element array), they give
identical results, which the tests check.

Cards are ``suit * 13 + rank - 2`` as in :mod:`callbreak.core.cards`; hands are int64 masks.
Arithmetic is kept below 2**53 so that numba's wrapping int64 and Python's unbounded ints agree.

A position is held in five arrays: ``hands`` (4 masks), ``trick`` (cards of the current trick in
play order), ``state`` (see the ``ST_*`` indices), ``won`` (tricks per seat) and ``opts`` (the
rule options, see the ``OPT_*`` indices).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from callbreak.kernel.rules import (  # (the rules of trick play: one kernel, below the bots)
    LOW_RANK,
    OPT_MUST_BEAT,
    OPT_NO_SPADE_LEAD,
    OPT_NO_WASTING,
    OPT_NOISE,
    OPT_PARTNERSHIP,
    OPT_SOLVE,
    OPT_VOID_RULE,
    SPADE_MASK,
    ST_DONE,
    ST_LEADER,
    ST_NTRICK,
    ST_TRUMP,
    ST_WINPOS,
    STATE_SIZE,
    SUIT_BITS,
    U32,
    beats,
    high_card,
    jitable,
    legal_mask,
    low_card,
    mix_seed,
    nth_card,
    play_to_trick,
    popcount,
    suit_mask,
    xorshift,
)

POLICY_RANDOM = 0
POLICY_HEURISTIC = 1
POLICY_SMART = 2
POLICY_HONEST = 3  # POLICY_HEURISTIC judging sure winners from the unseen cards, not the hands



@jitable
def unpack_position(trick: Any, state: Any) -> tuple[int, int, int, int, int, int, int, int]:
    """The position's arrays as the scalars the loops keep:
    ``(ntrick, leader, trump, done, winpos, t0, t1, t2)``."""
    return (state[ST_NTRICK], state[ST_LEADER], state[ST_TRUMP], state[ST_DONE], state[ST_WINPOS],
            trick[0], trick[1], trick[2])


# --- the rollout policy --------------------------------------------------------------------


@jitable
def cheapest(m: int, trump: int) -> int:
    """The lowest-ranked card of a mask, a non-trump preferred (what to throw away)."""
    best = -1
    best_key = 1000
    for s in range(4):
        part = (m >> (13 * s)) & SUIT_BITS
        if part:
            key = LOW_RANK[part] + (100 if s == trump else 0)
            if key < best_key:
                best_key = key
                best = 13 * s + LOW_RANK[part]
    return best


@jitable
def unbeatable(card: int, lead_suit: int, trump: int, later: int, ha: int, hb: int, hc: int) -> bool:
    """Whether none of the ``later`` seats still to play (hands ``ha``, ``hb``, ``hc`` in order)
    could beat ``card``: the rollout sees every hand, as in perfect-information play."""
    for k in range(later):
        h = ha if k == 0 else (hb if k == 1 else hc)
        led = h & suit_mask(lead_suit)
        if led:
            if card // 13 == lead_suit and high_card(led) > card:
                return False
        elif trump >= 0 and lead_suit != trump:
            tr = h & suit_mask(trump)
            if tr and (card // 13 != trump or high_card(tr) > card):
                return False
    return True


@jitable
def heuristic_card(legal: int, ha: int, hb: int, hc: int, ntrick: int, lead: int,
                   best: int, partner_winning: bool, trump: int) -> int:
    """A quick, sensible card: cash sure winners, win cheaply when the trick can be held,
    otherwise throw the cheapest card (and let a partner's safe trick stand).

    ``ha``, ``hb``, ``hc`` are the hands of the next three seats; ``lead`` and ``best`` the trick's first and currently winning cards.
    """
    if ntrick == 0:
        # A top card nobody can beat (the rollout sees every hand, voids included) is a sure
        # trick: cash side suits first, then draw trumps with the top trump.
        for s in range(4):
            mine = legal & suit_mask(s)
            if s != trump and mine and unbeatable(high_card(mine), s, trump, 3, ha, hb, hc):
                return high_card(mine)
        if trump >= 0:
            mine = legal & suit_mask(trump)
            if mine and unbeatable(high_card(mine), trump, trump, 3, ha, hb, hc):
                return high_card(mine)
        longest = -1
        longest_len = -1
        for s in range(4):
            ln = popcount(legal & suit_mask(s))
            if s != trump and ln > longest_len:
                longest_len = ln
                longest = s
        if longest_len > 0:
            return low_card(legal & suit_mask(longest))
        return low_card(legal)
    ls = lead // 13
    later = 3 - ntrick
    if partner_winning and unbeatable(best, ls, trump, later, ha, hb, hc):
        return cheapest(legal, trump)
    m = legal
    while m:
        c = low_card(m)
        m &= m - 1
        if beats(c, best, trump) and unbeatable(c, ls, trump, later, ha, hb, hc):
            return c  # the cheapest card that surely wins the trick
    return cheapest(legal, trump)


@jitable
def ruff_risk(s: int, trump: int, ha: int, hb: int, hc: int) -> bool:
    """Whether one of the other seats could trump a lead of suit ``s`` (void in it, holding
    trumps)."""
    if trump < 0 or s == trump:
        return False
    for k in range(3):
        h = ha if k == 0 else (hb if k == 1 else hc)
        if not (h & suit_mask(s)) and (h & suit_mask(trump)):
            return True
    return False


@jitable
def smart_card(legal: int, hand: int, ha: int, hb: int, hc: int, ntrick: int, lead: int,
               best: int, partner_winning: bool, trump: int) -> int:
    """:func:`heuristic_card` with better losing cards: with no sure trick to cash, lead low
    from the longest side suit nobody can trump; void in the led suit with nothing to win, throw
    the lowest card of the shortest side suit, keeping sure winners.

    ``hand`` is the whole hand of the seat to act (``legal`` its legal cards).
    """
    if ntrick == 0:
        for s in range(4):
            mine = legal & suit_mask(s)
            if s != trump and mine and unbeatable(high_card(mine), s, trump, 3, ha, hb, hc):
                return high_card(mine)
        if trump >= 0:
            mine = legal & suit_mask(trump)
            if mine and unbeatable(high_card(mine), trump, trump, 3, ha, hb, hc):
                return high_card(mine)
        chosen = -1
        chosen_key = -1
        for s in range(4):
            ln = popcount(legal & suit_mask(s))
            if s != trump and ln > 0:
                key = ln + (0 if ruff_risk(s, trump, ha, hb, hc) else 100)
                if key > chosen_key:
                    chosen_key = key
                    chosen = s
        if chosen >= 0:
            return low_card(legal & suit_mask(chosen))
        return low_card(legal)
    ls = lead // 13
    later = 3 - ntrick
    if partner_winning and unbeatable(best, ls, trump, later, ha, hb, hc):
        return cheapest(legal, trump)
    m = legal
    while m:
        c = low_card(m)
        m &= m - 1
        if beats(c, best, trump) and unbeatable(c, ls, trump, later, ha, hb, hc):
            return c
    if legal & suit_mask(ls):
        return cheapest(legal, trump)
    # Void in the led suit: discard from the shortest side suit (a void to trump into later, or
    # length kept where it may still win), never a card nobody can beat.
    chosen = -1
    chosen_key = 1000
    for s in range(4):
        part = legal & suit_mask(s)
        if s != trump and part:
            c = low_card(part)
            key = popcount(hand & suit_mask(s)) * 16 + c % 13
            if unbeatable(c, s, trump, 3, ha, hb, hc):
                key += 500
            if key < chosen_key:
                chosen_key = key
                chosen = c
    if chosen >= 0:
        return chosen
    return cheapest(legal, trump)


@jitable
def policy_card(policy: int, legal: int, hand: int, ha: int, hb: int, hc: int, ntrick: int,
                lead: int, best: int, partner_winning: bool, trump: int) -> int:
    """The card the (noise-free) rollout policy ``policy`` plays: :func:`smart_card`,
    :func:`heuristic_card`, or ``POLICY_HONEST``, the heuristic judging sure winners from the
    cards the seat has not seen (``ha | hb | hc``) instead of from who holds them."""
    if policy == POLICY_SMART:
        return smart_card(legal, hand, ha, hb, hc, ntrick, lead, best, partner_winning, trump)
    if policy == POLICY_HONEST:
        unseen = ha | hb | hc
        return heuristic_card(legal, unseen, unseen, unseen, ntrick, lead, best, partner_winning,
                              trump)
    return heuristic_card(legal, ha, hb, hc, ntrick, lead, best, partner_winning, trump)


@jitable
def chance_card(legal: int, policy: int, noise: int, x: int) -> tuple[int, int]:
    """The card a rollout plays without asking its policy: the only legal card, or a random one
    (under ``POLICY_RANDOM``, and one move in ``noise`` otherwise); -1 when the policy is to
    choose. Returns the card and the random generator's new state."""
    count = popcount(legal)
    if count == 1:
        return low_card(legal), x
    at_random = policy == POLICY_RANDOM
    if not at_random and noise > 0:
        x = xorshift(x)
        at_random = x % noise == 0
    if at_random:
        x = xorshift(x)
        return nth_card(legal, x % count), x
    return -1, x


# --- playing ---------------------------------------------------------------------------------


@jitable
def apply_card(hands: Any, trick: Any, state: Any, won: Any, card: int) -> int:
    """Play ``card`` for the seat to act (no legality check); the trick's winner or -1."""
    n = state[ST_NTRICK]
    hands[(state[ST_LEADER] + n) % 4] &= ~(1 << card)
    ntrick, leader, trump, winpos, t0, t1, t2, winner = play_to_trick(
        card, n, state[ST_LEADER], state[ST_TRUMP], state[ST_WINPOS], trick[0], trick[1], trick[2])
    trick[0] = t0
    trick[1] = t1
    trick[2] = t2
    state[ST_NTRICK] = ntrick
    state[ST_LEADER] = leader
    state[ST_TRUMP] = trump
    state[ST_WINPOS] = winpos
    if winner >= 0:
        won[winner] += 1
        state[ST_DONE] += 1
    return int(winner)


@jitable
def legal_now(hands: Any, trick: Any, state: Any, opts: Any) -> int:
    """Legal cards of the seat to act."""
    n = state[ST_NTRICK]
    return legal_mask(hands[(state[ST_LEADER] + n) % 4], trick[0], trick[1], trick[2], n,
                      state[ST_TRUMP], state[ST_DONE] == 0, opts[OPT_MUST_BEAT],
                      opts[OPT_VOID_RULE], opts[OPT_NO_WASTING], opts[OPT_NO_SPADE_LEAD])


@jitable
def play_to_end(hands: Any, trick: Any, state: Any, won: Any, opts: Any, policy: int, rng: Any,
                log: Any, stop: int) -> int:
    """Play the deal with the rollout policy until ``stop`` tricks are done (13: its end);
    ``log`` receives the cards played.

    The rollout policy is uniformly random legal cards (``POLICY_RANDOM``), or
    :func:`heuristic_card` (``POLICY_HEURISTIC``) or :func:`smart_card` (``POLICY_SMART``) with
    one move in ``opts[OPT_NOISE]`` random (16 by default; 0: none). The position
    lives in local scalars inside the loop and is written back at the end. Returns the number of
    cards played (``log`` must have room for 52).
    """
    ntrick, leader, trump, done, winpos, t0, t1, t2 = unpack_position(trick, state)
    must_beat = opts[OPT_MUST_BEAT]
    void_rule = opts[OPT_VOID_RULE]
    no_wasting = opts[OPT_NO_WASTING]
    no_spade_lead = opts[OPT_NO_SPADE_LEAD]
    partnership = opts[OPT_PARTNERSHIP]
    noise = opts[OPT_NOISE]
    x = rng[0]
    k = 0
    while done < stop:
        seat = (leader + ntrick) % 4
        legal = legal_mask(hands[seat], t0, t1, t2, ntrick, trump, done == 0, must_beat,
                           void_rule, no_wasting, no_spade_lead)
        card, x = chance_card(legal, policy, noise, x)
        if card < 0:
            best = t0 if winpos == 0 else (t1 if winpos == 1 else t2)
            partner_winning = (partnership != 0 and ntrick > 0
                               and (leader + winpos) % 4 == (seat + 2) % 4)
            card = policy_card(policy, legal, hands[seat], hands[(seat + 1) % 4],
                               hands[(seat + 2) % 4], hands[(seat + 3) % 4], ntrick, t0,
                               best, partner_winning, trump)
        log[k] = card
        k += 1
        hands[seat] &= ~(1 << card)
        ntrick, leader, trump, winpos, t0, t1, t2, winner = play_to_trick(
            card, ntrick, leader, trump, winpos, t0, t1, t2)
        if winner >= 0:
            won[winner] += 1
            done += 1
    state[ST_NTRICK] = ntrick
    state[ST_LEADER] = leader
    state[ST_TRUMP] = trump
    state[ST_DONE] = done
    state[ST_WINPOS] = winpos
    trick[0] = t0
    trick[1] = t1
    trick[2] = t2
    rng[0] = x
    return k


# --- entry points (compiled by numba) ------------------------------------------------------


def playout(hands: Any, trick: Any, state: Any, won: Any, opts: Any, policy: int, rng: Any,
            log: Any) -> int:
    """Entry point for :func:`play_to_end` (the arrays are changed in place)."""
    return play_to_end(hands, trick, state, won, opts, policy, rng, log, 13)


def legal_for(hand: int, trick: Any, ntrick: int, trump: int, first_trick: bool, opts: Any) -> int:
    """Entry point for :func:`legal_mask` with the trick and options as arrays."""
    return legal_mask(hand, trick[0], trick[1], trick[2], ntrick, trump, first_trick,
                      opts[OPT_MUST_BEAT], opts[OPT_VOID_RULE], opts[OPT_NO_WASTING],
                      opts[OPT_NO_SPADE_LEAD])


def replay(hands: Any, trick: Any, state: Any, won: Any, opts: Any, cards: Any,
           legal_out: Any) -> int:
    """Apply ``cards`` in order, writing the legal mask before each into ``legal_out``.

    Stops at the first illegal card and returns how many were applied (used to check the kernel
    against the engine).
    """
    for k in range(len(cards)):
        legal = legal_now(hands, trick, state, opts)
        legal_out[k] = legal
        if not (legal >> cards[k]) & 1:
            return k
        apply_card(hands, trick, state, won, cards[k])
    return len(cards)


def random_deals(count: int, seed: int, opts: Any, policy: int, first_led: bool, totals: Any) -> int:
    """Shuffle, deal and play out ``count`` deals; add the tricks won per seat into ``totals``.

    The speed benchmark's loop. Returns a checksum of the cards played.
    """
    rng = np.empty(1, dtype=np.int64)
    deck = np.arange(52, dtype=np.int64)
    hands = np.zeros(4, dtype=np.int64)
    trick = np.zeros(4, dtype=np.int64)
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    won = np.zeros(4, dtype=np.int64)
    log = np.zeros(52, dtype=np.int64)
    x = mix_seed(seed, 1)
    check = 0
    for d in range(count):
        for i in range(51, 0, -1):
            x = xorshift(x)
            j = x % (i + 1)
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
        for s in range(4):
            h = 0
            for i in range(13):
                h |= 1 << deck[13 * s + i]
            hands[s] = h
            won[s] = 0
        state[ST_NTRICK] = 0
        state[ST_LEADER] = d % 4
        state[ST_TRUMP] = -1 if first_led else 0
        state[ST_DONE] = 0
        state[ST_WINPOS] = 0
        rng[0] = x
        play_to_end(hands, trick, state, won, opts, policy, rng, log, 13)
        x = rng[0]
        for s in range(4):
            totals[s] += won[s]
        check = (check * 31 + log[51] + log[17]) & U32
    return check


def evaluate(worlds: Any, trick: Any, state: Any, won: Any, opts: Any, cands: Any, reps: int,
             policy: int, seed: int, points: Any, out: Any) -> None:
    """Roll out every candidate card in every sampled world.

    ``worlds`` is (N, 4) hand masks consistent with the position; ``cands`` the cards to try for
    the seat to act (-1: no forced card, just play on). ``out`` (N, C, reps, 4) receives the
    final tricks won per seat. All candidates of one (world, rep) share a random stream, so their
    differences come from the card and not from luck (common random numbers). With
    ``opts[OPT_SOLVE]`` = k > 0 the last k tricks are not rolled out but solved exactly
    (:func:`solve_rest`, every seat maximising its deal score in ``points``).
    """
    stop = 13 - opts[OPT_SOLVE]  # tricks rolled out before the exact search takes over
    work = np.zeros((WORK_ROWS, WORK_COLS), dtype=np.int64)
    rng = np.empty(1, dtype=np.int64)
    h = np.zeros(4, dtype=np.int64)
    t = np.zeros(4, dtype=np.int64)
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    w = np.zeros(4, dtype=np.int64)
    log = np.zeros(52, dtype=np.int64)
    for i in range(worlds.shape[0]):
        for r in range(reps):
            stream = mix_seed(seed + i, r)
            for c in range(len(cands)):
                for s in range(4):
                    h[s] = worlds[i, s]
                    t[s] = trick[s]
                    w[s] = won[s]
                for s in range(STATE_SIZE):
                    st[s] = state[s]
                rng[0] = stream
                if cands[c] >= 0:
                    apply_card(h, t, st, w, cands[c])
                play_to_end(h, t, st, w, opts, policy, rng, log, stop)
                if st[ST_DONE] < 13:
                    solve_rest(h, t, st, w, opts, points, work)
                for s in range(4):
                    out[i, c, r, s] = w[s]


# --- exact search of the last tricks -------------------------------------------------------
# Work-array columns of one ply of :func:`solve_rest`: the cards still to try, the card being
# tried and who plays it, the position before it (to undo it), the trick it completed (-1:
# none), whether a value was found, and the best value found (four seats' utilities, then the
# four seats' final tricks).
W_CAND = 0
W_CARD = 1
W_SEAT = 2
W_NTRICK = 3
W_LEADER = 4
W_WINPOS = 5
W_T0 = 6
W_T1 = 7
W_T2 = 8
W_DONE = 9
W_TRUMP = 10
W_WINNER = 11
W_SET = 12
W_UTIL = 13  # ... 16
W_WON = 17  # ... 20
WORK_COLS = 21
WORK_ROWS = 54  # one row per card still to play, and one for the final position


@jitable
def distinct_choices(legal: int, others: int, t0: int, t1: int, t2: int, ntrick: int) -> int:
    """One card of each run of ``legal`` cards that no card of ``others`` (the other hands) or of
    the trick separates: playing the 9 or the 10 of a suit is the same when the other seats hold
    nothing between them (every outcome is the same with the two swapped)."""
    block = others
    if ntrick > 0:
        block |= 1 << t0
    if ntrick > 1:
        block |= 1 << t1
    if ntrick > 2:
        block |= 1 << t2
    chosen = 0
    prev = -1
    m = legal
    while m:
        c = low_card(m)
        m &= m - 1
        if prev >= 0 and prev // 13 == c // 13:
            between = ((1 << c) - 1) & ~((2 << prev) - 1)
            if between & block == 0:
                prev = c
                continue
        chosen |= 1 << c
        prev = c
    return chosen


@jitable
def open_ply(work: Any, d: int, hands: Any, won: Any, t0: int, t1: int, t2: int, ntrick: int,
             leader: int, trump: int, done: int, opts: Any, points: Any) -> None:
    """Start ply ``d``: the distinct legal cards of the seat to act or, when the deal is over,
    its value (every seat's utility: its deal points less the mean of its opponents')."""
    if done == 13:
        work[d, W_CAND] = 0
        work[d, W_SET] = 1
        partnership = opts[OPT_PARTNERSHIP]
        if partnership != 0:
            p0 = points[0, won[0] + won[2]]
            p1 = points[1, won[1] + won[3]]
            work[d, W_UTIL] = p0 - p1
            work[d, W_UTIL + 1] = p1 - p0
            work[d, W_UTIL + 2] = p0 - p1
            work[d, W_UTIL + 3] = p1 - p0
        else:
            total = 0
            for s in range(4):
                total += points[s, won[s]]
            for s in range(4):
                work[d, W_UTIL + s] = 4 * points[s, won[s]] - total
        for s in range(4):
            work[d, W_WON + s] = won[s]
        return
    seat = (leader + ntrick) % 4
    hand = hands[seat]
    legal = legal_mask(hand, t0, t1, t2, ntrick, trump, done == 0, opts[OPT_MUST_BEAT],
                       opts[OPT_VOID_RULE], opts[OPT_NO_WASTING], opts[OPT_NO_SPADE_LEAD])
    others = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hand
    work[d, W_CAND] = distinct_choices(legal, others, t0, t1, t2, ntrick)
    work[d, W_SEAT] = seat
    work[d, W_SET] = 0


@jitable
def solve_rest(hands: Any, trick: Any, state: Any, won: Any, opts: Any, points: Any,
               work: Any) -> int:
    """Finish the deal by exact search with every hand known: ``won`` receives the final tricks.

    Max-n search: at each turn the seat to act plays the card that is best for its own utility
    (its deal points, ``points[seat, tricks]`` in tenths, less the mean of its opponents'; in
    partnership ``tricks`` is the pair's), assuming every later seat does the same; ties go to
    the lowest card. Runs of equivalent cards are tried once (:func:`distinct_choices`). The
    arrays ``hands``, ``trick`` and ``state`` are left as they were; ``work`` is scratch space of
    ``(WORK_ROWS, WORK_COLS)``. Returns the number of cards tried (the search's size).
    """
    ntrick, leader, trump, done, winpos, t0, t1, t2 = unpack_position(trick, state)
    nodes = 0
    d = 0
    open_ply(work, 0, hands, won, t0, t1, t2, ntrick, leader, trump, done, opts, points)
    while True:
        cand = work[d, W_CAND]
        if cand == 0:
            if d == 0:
                break
            # Ply d is solved: undo the move of ply d - 1 that led here, and offer the value up.
            child = d
            d -= 1
            card = work[d, W_CARD]
            seat = work[d, W_SEAT]
            hands[seat] |= 1 << card
            if work[d, W_WINNER] >= 0:
                won[work[d, W_WINNER]] -= 1
            ntrick = work[d, W_NTRICK]
            leader = work[d, W_LEADER]
            winpos = work[d, W_WINPOS]
            t0 = work[d, W_T0]
            t1 = work[d, W_T1]
            t2 = work[d, W_T2]
            done = work[d, W_DONE]
            trump = work[d, W_TRUMP]
            if work[d, W_SET] == 0 or work[child, W_UTIL + seat] > work[d, W_UTIL + seat]:
                work[d, W_SET] = 1
                for k in range(8):
                    work[d, W_UTIL + k] = work[child, W_UTIL + k]
            continue
        card = low_card(cand)
        work[d, W_CAND] = cand & (cand - 1)
        seat = work[d, W_SEAT]
        work[d, W_CARD] = card
        work[d, W_NTRICK] = ntrick
        work[d, W_LEADER] = leader
        work[d, W_WINPOS] = winpos
        work[d, W_T0] = t0
        work[d, W_T1] = t1
        work[d, W_T2] = t2
        work[d, W_DONE] = done
        work[d, W_TRUMP] = trump
        work[d, W_WINNER] = -1
        nodes += 1
        hands[seat] &= ~(1 << card)
        ntrick, leader, trump, winpos, t0, t1, t2, winner = play_to_trick(
            card, ntrick, leader, trump, winpos, t0, t1, t2)
        if winner >= 0:
            won[winner] += 1
            work[d, W_WINNER] = winner
            done += 1
        d += 1
        open_ply(work, d, hands, won, t0, t1, t2, ntrick, leader, trump, done, opts, points)
    for s in range(4):
        won[s] = work[0, W_WON + s]
    return nodes


def solve(hands: Any, trick: Any, state: Any, won: Any, opts: Any, points: Any) -> int:
    """Entry point for :func:`solve_rest` (``won`` is changed in place)."""
    work = np.zeros((WORK_ROWS, WORK_COLS), dtype=np.int64)
    return solve_rest(hands, trick, state, won, opts, points, work)


# --- sampled deals and calls as evidence ---------------------------------------------------


@jitable
def estimate_tricks(hand: int) -> float:
    """Quick trick count of a 13-card hand; the same formula as
    :func:`callbreak.core.sampling.estimated_tricks`, for the kernel."""
    tricks = 0.0
    short = 0
    for suit in range(4):
        top = (hand >> (13 * suit)) & SUIT_BITS
        length = popcount(top)
        ace = (top >> 12) & 1
        king = (top >> 11) & 1
        queen = (top >> 10) & 1
        if suit == 0:
            tricks += ace + king * (1.0 if length >= 2 else 0.5) + queen * (0.8 if length >= 3 else 0.3)
            tricks += max(0, length - 3) * 0.8
        else:
            tricks += ace * (0.95 if length <= 5 else 0.7)
            tricks += king * (0.75 if 2 <= length <= 4 else 0.3)
            tricks += queen * (0.3 if 3 <= length <= 4 else 0.0)
            if length <= 1:
                short += 1
    spades = popcount(hand & SPADE_MASK)
    tricks += min(short, max(0, spades - 2)) * 0.5
    return tricks


def deal_worlds(fixed: Any, class_cards: Any, class_sizes: Any, class_seats: Any, splits: Any,
                seed: int, out: Any) -> None:
    """Finish sampled deals whose per-class splits are already drawn (see
    :meth:`callbreak.core.sampling.HandSampler.draw_splits`).

    ``fixed`` (4) holds the known hands; class ``k`` has ``class_sizes[k]`` cards
    ``class_cards[k, :]`` shared among the seats ``class_seats[k, :]`` (-1 ends the list);
    ``splits`` (N, K, 4) says how many each of those seats receives. The cards of each class are
    shuffled uniformly and dealt in that order. ``out`` (N, 4) receives the hands.
    """
    x = mix_seed(seed, 7)
    buf = np.zeros(52, dtype=np.int64)
    for i in range(splits.shape[0]):
        for s in range(4):
            out[i, s] = fixed[s]
        for k in range(class_cards.shape[0]):
            m = class_sizes[k]
            for j in range(m):
                buf[j] = class_cards[k, j]
            for j in range(m - 1, 0, -1):
                x = xorshift(x)
                r = x % (j + 1)
                t = buf[j]
                buf[j] = buf[r]
                buf[r] = t
            at = 0
            for e in range(4):
                seat = class_seats[k, e]
                if seat < 0:
                    break
                for j in range(at, at + splits[i, k, e]):
                    out[i, seat] |= 1 << buf[j]
                at += splits[i, k, e]


# The terms of the fitted trick model (:func:`callbreak.bots.hand_value.fitted_tricks`), in the
# order :func:`fitted_estimate` reads its weights (index 0 is the intercept).
FITTED_TERMS = (
    "intercept", "ace", "long_ace", "king_with_ace", "long_king_with_ace", "guarded_king",
    "long_guarded_king", "queen_with_ace_king", "queen_with_one_honour", "guarded_queen",
    "short_queen", "void", "singleton", "doubleton", "trump_ace", "trump_king",
    "bare_trump_king", "trump_queen", "short_trump_queen", "trump_jack", "trump_ten",
    "trump_length", "trump_length_over_3", "trump_length_over_5", "ruff_potential",
)


@jitable
def fitted_estimate(hand: int, trump: int, w: Any) -> float:
    """The fitted trick model (weights ``w`` in :data:`FITTED_TERMS` order, from
    :func:`callbreak.bots.hand_value.fitted_weights`) of a 13-card hand; ``trump`` -1: no trump
    suit. The heuristic's :func:`~callbreak.bots.hand_value.fitted_tricks` calls this too, so
    the bots and the kernel read calls with one model."""
    total = w[0]
    short = 0
    for suit in range(4):
        if suit == trump:
            continue
        top = (hand >> (13 * suit)) & SUIT_BITS
        length = popcount(top)
        ace = (top >> 12) & 1
        king = (top >> 11) & 1
        queen = (top >> 10) & 1
        if ace:
            total += w[1] if length <= 5 else w[2]
        if king and ace:
            total += w[3] if length <= 4 else w[4]
        elif king and 2 <= length <= 4:
            total += w[5]
        elif king and length >= 5:
            total += w[6]
        if queen:
            if ace and king:
                total += w[7]
            elif ace + king == 1 and length >= 3:
                total += w[8]
            elif ace + king == 0 and length >= 3:
                total += w[9]
            elif length < 3:
                total += w[10]
        if length <= 2:
            total += w[11 + length]
            short += 2 - length
    if trump >= 0:
        top = (hand >> (13 * trump)) & SUIT_BITS
        length = popcount(top)
        king = (top >> 11) & 1
        queen = (top >> 10) & 1
        total += w[14] * ((top >> 12) & 1)
        total += w[15] * king + w[16] * (1 if king and length == 1 else 0)
        total += w[17] * queen + w[18] * (1 if queen and length <= 2 else 0)
        total += w[19] * ((top >> 9) & 1) + w[20] * ((top >> 8) & 1)
        total += w[21] * length + w[22] * max(0, length - 3) + w[23] * max(0, length - 5)
        total += w[24] * min(short, max(0, length - 2))
    return float(min(13.0, max(0.0, total)))


def call_weights(worlds: Any, played_by: Any, calls: Any, spread: float, model: Any, trump: int,
                 out: Any) -> None:
    """How well each sampled deal fits the calls: for every seat with ``calls[s] >= 0``, a
    Gaussian likelihood of its call around the trick estimate of the hand it was dealt (the
    sampled remaining cards plus ``played_by[s]``); ``out`` (N) receives the products.

    The estimate is the quick hand count (:func:`estimate_tricks`) when ``model`` is empty, else
    the fitted model with those weights (:func:`fitted_estimate`, with ``trump``)."""
    fitted = len(model) > 0
    for i in range(worlds.shape[0]):
        w = 1.0
        for s in range(4):
            if calls[s] >= 0:
                hand = worlds[i, s] | played_by[s]
                mean = fitted_estimate(hand, trump, model) if fitted else estimate_tricks(hand)
                gap = calls[s] - mean
                w *= math.exp(-gap * gap / (2.0 * spread * spread))
        out[i] = w


@jitable
def sure_winners(hand: int, trump: int) -> int:
    """The greedy style's call (:class:`callbreak.bots.styles.GreedyBot`), also how the expert
    reads a greedy caller: cards that win a trick whatever the others hold, the top of each suit
    held in an unbroken run from its ace (side suits: at most the first two, as the third round
    is usually ruffed), and trumps beyond the fourth (long trumps outlast the others')."""
    count = 0
    for suit in range(4):
        top = (hand >> (13 * suit)) & SUIT_BITS
        run = 0
        for rank in range(12, -1, -1):
            if (top >> rank) & 1:
                run += 1
            else:
                break
        if suit == trump:
            count += max(run, popcount(top) - 4)
        else:
            count += min(run, 2)
    return count


def call_fits(worlds: Any, played_by: Any, calls: Any, spread: float, greedy_spread: float,
              trump: int, lowest: int, out: Any) -> None:
    """How likely each seat's call is, in each sampled deal, under two ways of calling: ``out``
    (N, 4, 2) receives, for every seat with ``calls[s] >= 0``, the normal density of its call
    around the quick trick estimate of the hand it was dealt (``spread``; a classic caller) and
    around its count of sure winners, at least ``lowest`` (``greedy_spread``; a greedy caller),
    and 1 for both where a seat has not called. Densities, not weights: they are compared
    across ways of calling (:func:`callbreak.bots.reading.read_styles`)."""
    norm = 1.0 / math.sqrt(2.0 * math.pi)
    for i in range(worlds.shape[0]):
        for s in range(4):
            if calls[s] < 0:
                out[i, s, 0] = 1.0
                out[i, s, 1] = 1.0
                continue
            hand = worlds[i, s] | played_by[s]
            gap = calls[s] - estimate_tricks(hand)
            out[i, s, 0] = norm / spread * math.exp(-gap * gap / (2.0 * spread * spread))
            gap = calls[s] - max(sure_winners(hand, trump), lowest)
            out[i, s, 1] = norm / greedy_spread * math.exp(
                -gap * gap / (2.0 * greedy_spread * greedy_spread))


def play_weights(worlds: Any, history: Any, leader: int, trump: int, opts: Any, policy: int,
                 me: int, mismatch: float, out: Any) -> None:
    """Multiply ``out[i]`` by how well the other seats' plays so far fit world ``i``.

    The deal is replayed from its first lead (``leader``; ``trump`` -1 for ``first_led``) with
    ``history`` (the cards played so far, in order), each seat holding its cards of the world
    plus the cards it has played. Every move of a seat other than ``me`` that had a choice counts
    1 if the rollout policy (without noise) would have played that card in that world, else
    ``mismatch``: deals in which the others' play makes sense count more.
    """
    must_beat = opts[OPT_MUST_BEAT]
    void_rule = opts[OPT_VOID_RULE]
    no_wasting = opts[OPT_NO_WASTING]
    no_spade_lead = opts[OPT_NO_SPADE_LEAD]
    partnership = opts[OPT_PARTNERSHIP]
    n = len(history)
    played = np.zeros(4, dtype=np.int64)
    # Who played each card: replay the seats once (the same in every world).
    seats = np.zeros(max(n, 1), dtype=np.int64)
    lead = leader
    tr = trump
    ntrick = 0
    winpos = 0
    t0 = 0
    t1 = 0
    t2 = 0
    for k in range(n):
        card = history[k]
        seat = (lead + ntrick) % 4
        seats[k] = seat
        played[seat] |= 1 << card
        ntrick, lead, tr, winpos, t0, t1, t2, _ = play_to_trick(card, ntrick, lead, tr, winpos,
                                                                t0, t1, t2)
    for i in range(worlds.shape[0]):
        h0 = worlds[i, 0] | played[0]
        h1 = worlds[i, 1] | played[1]
        h2 = worlds[i, 2] | played[2]
        h3 = worlds[i, 3] | played[3]
        lead = leader
        tr = trump
        ntrick = 0
        winpos = 0
        done = 0
        w = 1.0
        for k in range(n):
            card = history[k]
            seat = seats[k]
            if seat != me:
                hand = h0 if seat == 0 else (h1 if seat == 1 else (h2 if seat == 2 else h3))
                legal = legal_mask(hand, t0, t1, t2, ntrick, tr, done == 0, must_beat, void_rule,
                                   no_wasting, no_spade_lead)
                if popcount(legal) > 1 and tr >= 0:
                    ha = h0 if seat == 3 else (h1 if seat == 0 else (h2 if seat == 1 else h3))
                    hb = h0 if seat == 2 else (h1 if seat == 3 else (h2 if seat == 0 else h3))
                    hc = h0 if seat == 1 else (h1 if seat == 2 else (h2 if seat == 3 else h3))
                    best = t0 if winpos == 0 else (t1 if winpos == 1 else t2)
                    partner_winning = (partnership != 0 and ntrick > 0
                                       and (lead + winpos) % 4 == (seat + 2) % 4)
                    chosen = policy_card(policy, legal, hand, ha, hb, hc, ntrick, t0, best,
                                         partner_winning, tr)
                    if chosen != card:
                        w *= mismatch
            bit = ~(1 << card)
            if seat == 0:
                h0 &= bit
            elif seat == 1:
                h1 &= bit
            elif seat == 2:
                h2 &= bit
            else:
                h3 &= bit
            ntrick, lead, tr, winpos, t0, t1, t2, winner = play_to_trick(
                card, ntrick, lead, tr, winpos, t0, t1, t2)
            if winner >= 0:
                done += 1
        out[i] *= w


def past_legal(worlds: Any, seats: Any, later: Any, tricks: Any, ntricks: Any, firsts: Any,
               trump: int, opts: Any, out: Any) -> None:
    """For every sampled deal (a row of ``worlds``) and earlier move (rows of the others):
    the cards that move's seat could play then, held ``worlds[i, seats[r]] | later[r]`` (its
    cards now and those it has played since), after the trick's first ``ntricks[r]`` cards
    ``tricks[r]``, into ``out[i, r]``."""
    for i in range(worlds.shape[0]):
        for r in range(seats.shape[0]):
            hand = worlds[i, seats[r]] | later[r]
            out[i, r] = legal_mask(hand, tricks[r, 0], tricks[r, 1], tricks[r, 2], ntricks[r],
                                   trump, firsts[r] != 0, opts[OPT_MUST_BEAT], opts[OPT_VOID_RULE],
                                   opts[OPT_NO_WASTING], opts[OPT_NO_SPADE_LEAD])


ENTRY_POINTS = ("playout", "legal_for", "replay", "random_deals", "evaluate", "deal_worlds",
                "call_weights", "call_fits", "play_weights", "solve", "past_legal")
