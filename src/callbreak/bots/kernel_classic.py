"""The heuristic bot's card play, on int64 masks, as a model of how the other seats play.

:func:`classic_card` is the play decision of the heuristic bot (:mod:`callbreak.bots.heuristic`,
the habits of a classic club player) written again for the kernel, with the same thresholds, the
same order of the probability products and the same tie-breaks; the tests check that both give
the same card on thousands of positions. (The bot keeps its own Python copy because it also
explains each choice in words.) The expert uses the model twice:

* :func:`classic_weights`, the inference from play (``infer_policy=classic``): would a classic
  player holding that seat's cards in this sampled deal have played the card that was played?
  What does not depend on the hidden hand (the seat's stance, the seats it targets, what the
  play had shown of each hand) is worked out once per earlier move in Python
  (:func:`callbreak.bots.heuristic.classic_steps`) and passed as a row of integers.
* :func:`classic_evaluate`, the playouts (``opponents=classic``): the other seats finish the
  deal as classic players from their own hands.

Like :mod:`callbreak.bots.kernel_impl` this source runs both compiled by numba and as plain
Python, with identical results.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from callbreak.bots.kernel_impl import (
    POLICY_RANDOM,
    apply_card,
    chance_card,
    cheapest,
    legal_now,
    policy_card,
    unpack_position,
)
from callbreak.kernel.rules import (
    OPT_MUST_BEAT,
    OPT_NO_SPADE_LEAD,
    OPT_NO_WASTING,
    OPT_NOISE,
    OPT_PARTNERSHIP,
    OPT_VOID_RULE,
    ST_DONE,
    ST_LEADER,
    ST_NTRICK,
    ST_TRUMP,
    ST_WINPOS,
    VOID_FREE,
    VOID_MUST_TRUMP,
    VOID_TRUMP_IF_WINNING,
    beats,
    high_card,
    jitable,
    legal_mask,
    low_card,
    mix_seed,
    play_to_trick,
    popcount,
    suit_mask,
)

# The heuristic bot's thresholds (kept equal to callbreak.bots.heuristic's; a test checks).
SAFE_RISK = 0.35
TRY_RISK = 0.4
CASH_RISK = 0.5
LEAD_TRUMP_PENALTY = 6.0
LEAD_KING_PENALTY = 3.0
LEAD_RUFF_PENALTY = 4.0

MODE_WIN = 0
MODE_AVOID = 1
MODE_SPOIL = 2
MODES = {"win": MODE_WIN, "avoid": MODE_AVOID, "spoil": MODE_SPOIL}

ALL_CARDS = (1 << 52) - 1

# Columns of a step row (one earlier move of the deal).
S_SEAT = 0
S_CARD = 1
S_NTRICK = 2  # cards already in the trick
S_LEADER = 3
S_T0 = 4  # S_T0, S_T1, S_T2: the trick's cards so far
S_T1 = 5
S_T2 = 6
S_FIRST = 7  # 1 in the deal's first trick
S_LATER = 8  # the cards this seat plays from this move on (added back to its hand in a deal)
S_PLAYED = 9  # every card played before this move
S_MODE = 10
S_TARGETS = 11  # bit s: opponent s still needs tricks and can make its call
S_PARTNER = 12  # -1 without partners
S_ALLOWED = 13  # ... 16: per seat, the cards the public play still allows it to hold
STEP_COLS = 17


@jitable
def above(card: int) -> int:
    """Mask of the cards of ``card``'s suit ranked above it."""
    return suit_mask(card // 13) & ~((2 << card) - 1)


@jitable
def allowed_of(a0: int, a1: int, a2: int, a3: int, s: int) -> int:
    return a0 if s == 0 else (a1 if s == 1 else (a2 if s == 2 else a3))


@jitable
def holders(seat: int, suit: int, a0: int, a1: int, a2: int, a3: int) -> int:
    """How many other seats may still hold cards of ``suit`` (at least 1)."""
    k = 0
    for s in range(4):
        if s != seat and allowed_of(a0, a1, a2, a3, s) & suit_mask(suit):
            k += 1
    return k if k > 0 else 1


@jitable
def p_holds_above(me: int, s: int, card: int, unseen: int, a0: int, a1: int, a2: int,
                  a3: int) -> float:
    allowed = allowed_of(a0, a1, a2, a3, s)
    suit = card // 13
    if not allowed & suit_mask(suit):
        return 0.0
    h = popcount(unseen & above(card) & allowed)
    if h == 0:
        return 0.0
    k = holders(me, suit, a0, a1, a2, a3)
    return 1.0 - ((k - 1) / k) ** h


@jitable
def p_void(me: int, s: int, suit: int, unseen: int, a0: int, a1: int, a2: int, a3: int) -> float:
    if not allowed_of(a0, a1, a2, a3, s) & suit_mask(suit):
        return 1.0
    u = popcount(unseen & suit_mask(suit))
    if u == 0:
        return 1.0
    k = holders(me, suit, a0, a1, a2, a3)
    return ((k - 1) / k) ** u


@jitable
def p_beats(me: int, s: int, card: int, lead_suit: int, trump: int, unseen: int, a0: int,
            a1: int, a2: int, a3: int) -> float:
    """Chance that seat ``s``, playing after ``me``, beats ``card`` in a trick led in ``lead_suit``."""
    suit = card // 13
    if suit == lead_suit:
        higher = p_holds_above(me, s, card, unseen, a0, a1, a2, a3)
        if trump < 0 or lead_suit == trump:
            return higher
        void = p_void(me, s, lead_suit, unseen, a0, a1, a2, a3)
        ruff = void * (1.0 - p_void(me, s, trump, unseen, a0, a1, a2, a3))
        return 1.0 - (1.0 - higher * (1.0 - void)) * (1.0 - ruff)
    if suit == trump:
        return (p_void(me, s, lead_suit, unseen, a0, a1, a2, a3)
                * p_holds_above(me, s, card, unseen, a0, a1, a2, a3))
    return 0.0


@jitable
def risk(me: int, card: int, lead_suit: int, trump: int, first: int, count: int, partner: int,
         unseen: int, a0: int, a1: int, a2: int, a3: int, skip_me: bool) -> float:
    """Chance that an opponent beats ``card``. The seats asked are ``count`` seats from
    ``first`` on (``skip_me``: every seat but ``me``, in seat order), a partner never counting."""
    safe = 1.0
    for k in range(count):
        s = k if skip_me else (first + k) % 4
        if skip_me and s >= me:
            s += 1
        if s != partner:
            safe *= 1.0 - p_beats(me, s, card, lead_suit, trump, unseen, a0, a1, a2, a3)
    return 1.0 - safe


@jitable
def cost(card: int, trump: int) -> int:
    """How much a card is worth keeping: trumps above every side card."""
    return card % 13 + (20 if card // 13 == trump else 0)


@jitable
def classic_lead(me: int, hand: int, legal: int, unseen: int, trump: int, mode: int,
                 partner: int, a0: int, a1: int, a2: int, a3: int) -> int:
    if mode == MODE_AVOID:  # lead what someone else will win
        lose = -1
        lose_score = -1000
        m = legal
        while m:
            c = low_card(m)
            m &= m - 1
            above_it = popcount(unseen & above(c)) - (8 if c // 13 == trump else 0)
            if above_it > lose_score:
                lose_score = above_it
                lose = c
        return lose
    trump_mask = suit_mask(trump)
    unseen_trumps = unseen & trump_mask
    # 1. Cash side-suit masters while a ruff is still unlikely.
    best = -1
    best_r = 2.0
    for suit in range(4):
        if suit == trump:
            continue
        mine = legal & suit_mask(suit)
        if not mine:
            continue
        c = high_card(mine)
        if unseen & above(c):
            continue
        r = risk(me, c, suit, trump, 0, 3, partner, unseen, a0, a1, a2, a3, True)
        if r < CASH_RISK and r < best_r:
            best_r = r
            best = c
    if best >= 0:
        return best
    # 2. Draw trumps with the top trump when holding more of them than the others do.
    my_trumps = legal & trump_mask
    if my_trumps and not unseen & above(high_card(my_trumps)) and (
            not unseen_trumps or popcount(hand & trump_mask) >= popcount(unseen_trumps)):
        return high_card(my_trumps)
    # 3. A low singleton, to ruff that suit later.
    if popcount(hand & trump_mask) >= 2 and mode != MODE_SPOIL:
        for suit in range(4):
            mine = legal & suit_mask(suit)
            if (suit != trump and popcount(hand & suit_mask(suit)) == 1 and mine
                    and high_card(mine) % 13 < 9 and unseen & suit_mask(suit)):
                return high_card(mine)
    # 4. A suit the partner can ruff.
    if partner >= 0 and allowed_of(a0, a1, a2, a3, partner) & trump_mask:
        for suit in range(4):
            mine = legal & suit_mask(suit)
            if suit != trump and mine and not allowed_of(a0, a1, a2, a3, partner) & suit_mask(suit):
                return low_card(mine)
    # 5. Low from the longest side suit that gives nothing away.
    best = -1
    best_score = -1e9
    for suit in range(4):
        mine = legal & suit_mask(suit)
        if not mine:
            continue
        c = low_card(mine)
        length = popcount(hand & suit_mask(suit))
        score = float(length)
        if suit == trump:
            score -= LEAD_TRUMP_PENALTY
        king = (hand >> (suit * 13 + 11)) & 1
        ace = (hand >> (suit * 13 + 12)) & 1
        if king and not ace and length <= 3:
            score -= LEAD_KING_PENALTY
        ruff = 0.0
        for s in range(4):
            if s != me and s != partner:
                p = p_void(me, s, suit, unseen, a0, a1, a2, a3) * (
                    1.0 - p_void(me, s, trump, unseen, a0, a1, a2, a3) if suit != trump else 0.0)
                if p > ruff:
                    ruff = p
        score -= LEAD_RUFF_PENALTY * ruff
        # Ties go to the lowest card, which the suits' order visits first.
        if score > best_score:
            best_score = score
            best = c
    return best


@jitable
def classic_duck(hand: int, losers: int, lead_suit: int, unseen: int, trump: int) -> int:
    follow = losers & suit_mask(lead_suit)
    if follow:
        return low_card(follow)
    best = -1
    best_key = 1 << 30
    m = losers
    while m:
        c = low_card(m)
        m &= m - 1
        suit = c // 13
        key = (((1 if suit == trump else 0) * 2 + (0 if unseen & above(c) else 1)) * 64
               + popcount(hand & suit_mask(suit))) * 16 + c % 13
        if key < best_key:
            best_key = key
            best = c
    return best


@jitable
def classic_follow(me: int, hand: int, legal: int, unseen: int, trump: int, mode: int,
                   targets: int, partner: int, ntrick: int, leader: int, t0: int, t1: int,
                   t2: int, a0: int, a1: int, a2: int, a3: int) -> int:
    lead_suit = t0 // 13
    win_i = 0
    best = t0
    if ntrick > 1 and beats(t1, best, trump):
        win_i = 1
        best = t1
    if ntrick > 2 and beats(t2, best, trump):
        win_i = 2
        best = t2
    winner_seat = (leader + win_i) % 4
    count = 3 - ntrick  # seats still to play after this one
    winners = 0
    m = legal
    while m:
        c = low_card(m)
        m &= m - 1
        if beats(c, best, trump):
            winners |= 1 << c
    losers = legal & ~winners
    later_targets = False
    for k in range(1, count + 1):
        if (targets >> ((me + k) % 4)) & 1:
            later_targets = True
    first = (me + 1) % 4
    if partner >= 0 and winner_seat == partner:
        partner_risk = risk(me, best, lead_suit, trump, first, count, partner, unseen,
                            a0, a1, a2, a3, False)
        if partner_risk < SAFE_RISK and losers and mode != MODE_AVOID:
            return classic_duck(hand, losers, lead_suit, unseen, trump)
    want = mode == MODE_WIN or (mode == MODE_SPOIL and (((targets >> winner_seat) & 1) != 0
                                                        or later_targets))
    if partner >= 0 and winner_seat == partner and mode == MODE_SPOIL:
        want = later_targets
    if mode == MODE_AVOID:
        if losers:  # shed the highest loser, trumps last
            pick = -1
            pick_key = -1
            m = losers
            while m:
                c = low_card(m)
                m &= m - 1
                key = (1 if c // 13 == trump else 0) * 16 + c % 13
                if key > pick_key:
                    pick_key = key
                    pick = c
            return pick
        if count > 0:
            return cheapest(winners, trump)
        pick = -1
        pick_key = -1
        m = winners
        while m:
            c = low_card(m)
            m &= m - 1
            if cost(c, trump) > pick_key:
                pick_key = cost(c, trump)
                pick = c
        return pick
    if want and winners:
        safe = 0
        pick = -1
        risk_key = 1e9
        pick_r = 1.0
        m = winners
        while m:
            c = low_card(m)
            m &= m - 1
            r = risk(me, c, lead_suit, trump, first, count, partner, unseen, a0, a1, a2, a3, False)
            if r < SAFE_RISK:
                safe |= 1 << c
            # The bot's key is (risk to two decimals, cost); costs stay below 100.
            keyed = round(r, 2) * 10000.0 + cost(c, trump)
            if keyed < risk_key:
                risk_key = keyed
                pick = c
                pick_r = r
        if safe:
            return cheapest(safe, trump)
        try_it = pick_r < TRY_RISK and (count <= 1 or pick // 13 == trump)
        if try_it or count == 0:
            return pick
    if not losers:
        return cheapest(winners, trump)
    return classic_duck(hand, losers, lead_suit, unseen, trump)


@jitable
def classic_card(me: int, hand: int, legal: int, unseen: int, trump: int, mode: int,
                 targets: int, partner: int, ntrick: int, leader: int, t0: int, t1: int, t2: int,
                 a0: int, a1: int, a2: int, a3: int) -> int:
    """The card the heuristic bot plays from ``hand`` (``legal`` its legal cards, ``unseen`` the
    cards it has not seen), or -1 where the model has no opinion (no trump suit yet)."""
    if popcount(legal) == 1:
        return low_card(legal)
    if trump < 0:
        return -1
    if ntrick == 0:
        return classic_lead(me, hand, legal, unseen, trump, mode, partner, a0, a1, a2, a3)
    return classic_follow(me, hand, legal, unseen, trump, mode, targets, partner, ntrick, leader,
                          t0, t1, t2, a0, a1, a2, a3)


@jitable
def step_legal(hand: int, steps: Any, k: int, trump: int, opts: Any) -> int:
    """The cards ``hand`` could play at earlier move ``k`` (a row of ``steps``)."""
    return legal_mask(hand, steps[k, S_T0], steps[k, S_T1], steps[k, S_T2], steps[k, S_NTRICK], trump,
                      steps[k, S_FIRST] != 0, opts[OPT_MUST_BEAT], opts[OPT_VOID_RULE],
                      opts[OPT_NO_WASTING], opts[OPT_NO_SPADE_LEAD])


@jitable
def step_classic_card(hand: int, legal: int, steps: Any, k: int, trump: int) -> int:
    """The card a classic player holding ``hand`` would have played at earlier move ``k``."""
    return classic_card(steps[k, S_SEAT], hand, legal, ALL_CARDS & ~hand & ~steps[k, S_PLAYED], trump,
                        steps[k, S_MODE], steps[k, S_TARGETS], steps[k, S_PARTNER], steps[k, S_NTRICK],
                        steps[k, S_LEADER], steps[k, S_T0], steps[k, S_T1], steps[k, S_T2],
                        steps[k, S_ALLOWED], steps[k, S_ALLOWED + 1], steps[k, S_ALLOWED + 2],
                        steps[k, S_ALLOWED + 3])


def classic_weights(worlds: Any, steps: Any, trump: int, opts: Any, mismatch: float,
                    out: Any) -> None:
    """Multiply ``out[i]`` by ``mismatch`` for every earlier move (a row of ``steps``) that a
    classic player holding its seat's cards of world ``i`` would not have made."""
    for i in range(worlds.shape[0]):
        w = 1.0
        for k in range(steps.shape[0]):
            hand = worlds[i, steps[k, S_SEAT]] | steps[k, S_LATER]
            legal = step_legal(hand, steps, k, trump, opts)
            if popcount(legal) < 2:
                continue
            chosen = step_classic_card(hand, legal, steps, k, trump)
            if chosen >= 0 and chosen != steps[k, S_CARD]:
                w *= mismatch
        out[i] *= w


@jitable
def narrow_allowed(allowed: int, card: int, ntrick: int, t0: int, t1: int, t2: int, trump: int,
                   first_trick: bool, must_beat: int, void_rule: int, no_wasting: int,
                   no_spade_lead: int) -> int:
    """What playing ``card`` to the trick's first ``ntrick`` cards shows of the rest of a seat's
    hand: :func:`callbreak.core.inference.infer_play` on an allowed-cards mask."""
    cs = card // 13
    if ntrick == 0:
        if first_trick and no_spade_lead != 0 and cs == 0:
            return allowed & suit_mask(0)  # led a spade to trick 1: holds nothing else
        return allowed
    ls = t0 // 13
    hi_lead = t0
    hi_trump = t0 if ls == trump else -1
    for k in range(1, ntrick):
        c = t1 if k == 1 else t2
        if c // 13 == ls and c > hi_lead:
            hi_lead = c
        if c // 13 == trump and c > hi_trump:
            hi_trump = c
    trumped = ls != trump and hi_trump >= 0
    if cs == ls:
        if must_beat != 0 and not trumped and card < hi_lead:
            return allowed & ~above(hi_lead)
        return allowed
    allowed &= ~suit_mask(ls)  # shown void in the suit led
    if trump < 0 or ls == trump:
        return allowed
    if cs == trump:
        if trumped and card < hi_trump:  # a losing trump
            if void_rule != VOID_FREE:
                allowed &= ~above(hi_trump)
            if no_wasting != 0 and void_rule == VOID_TRUMP_IF_WINNING:
                allowed &= suit_mask(trump)
        return allowed
    if void_rule == VOID_MUST_TRUMP or (void_rule == VOID_TRUMP_IF_WINNING and not trumped):
        return allowed & ~suit_mask(trump)
    if void_rule == VOID_TRUMP_IF_WINNING:
        return allowed & ~above(hi_trump)
    return allowed


# --- playouts in which the other seats play the classic model --------------------------------
# Table columns (one row per seat) for classic_evaluate.
T_CALL = 0  # the seat's call
T_MADE = 1  # its MODE_* once the call is made (rules: overtricks worth tenths, nothing, or hurt)
T_ALLOWED = 2  # the cards the public play allows it to hold at the root
T_STYLE = 3  # how it plays in the playouts: STYLE_CLASSIC (0), STYLE_GREEDY or STYLE_RANDOM
TABLE_COLS = 4
STYLE_CLASSIC = 0
STYLE_GREEDY = 1
STYLE_RANDOM = 2


@jitable
def need_of(table: Any, won: Any, s: int, pair: bool) -> int:
    need: int = table[s, T_CALL] - won[s]
    if pair:
        need += table[(s + 2) % 4, T_CALL] - won[(s + 2) % 4]
    return need


@jitable
def stance_of(table: Any, won: Any, s: int, left: int, pair: bool) -> tuple[int, int]:
    """:func:`callbreak.bots.heuristic.stance` inside a playout: (mode, targets)."""
    partner = (s + 2) % 4 if pair else -1
    targets = 0
    for t in range(4):
        if t != s and t != partner:
            n = need_of(table, won, t, pair)
            if 0 < n <= left:
                targets |= 1 << t
    need = need_of(table, won, s, pair)
    if need > left:
        return MODE_SPOIL, targets
    if need > 0:
        return MODE_WIN, targets
    return table[s, T_MADE], targets


@jitable
def classic_finish(h: Any, w: Any, al: Any, ntrick: int, leader: int, trump: int, done: int,
                   winpos: int, t0: int, t1: int, t2: int, card: int, x: int, opts: Any,
                   policy: int, me: int, table: Any, until: int
                   ) -> tuple[int, int, int, int, int, int, int, int, int]:
    """Play one position on as :func:`classic_evaluate` describes, until ``until`` cards of the
    deal are played (52: to its end): ``card`` first for the seat to act (-1: none given), ``x``
    the random stream. The hands ``h``, tricks won ``w`` and allowed cards ``al`` (per seat)
    change in place; returns the position reached and the stream,
    ``(ntrick, leader, trump, done, winpos, t0, t1, t2, x)``."""
    must_beat = opts[OPT_MUST_BEAT]
    void_rule = opts[OPT_VOID_RULE]
    no_wasting = opts[OPT_NO_WASTING]
    no_spade_lead = opts[OPT_NO_SPADE_LEAD]
    pair = opts[OPT_PARTNERSHIP] != 0
    noise = opts[OPT_NOISE]
    while done * 4 + ntrick < until:
        seat = (leader + ntrick) % 4
        if card < 0:
            legal = legal_mask(h[seat], t0, t1, t2, ntrick, trump, done == 0,
                               must_beat, void_rule, no_wasting, no_spade_lead)
            card, x = chance_card(legal, policy, noise, x)
            if card < 0:
                if seat == me or trump < 0:
                    best = t0 if winpos == 0 else (t1 if winpos == 1 else t2)
                    partner_winning = (pair and ntrick > 0
                                       and (leader + winpos) % 4 == (seat + 2) % 4)
                    card = policy_card(policy, legal, h[seat], h[(seat + 1) % 4],
                                       h[(seat + 2) % 4], h[(seat + 3) % 4], ntrick, t0,
                                       best, partner_winning, trump)
                elif table[seat, T_STYLE] == STYLE_GREEDY:
                    gone = ALL_CARDS & ~(h[0] | h[1] | h[2] | h[3])
                    card = greedy_card(h[seat], legal, ntrick, t0, t1, t2, trump, gone)
                elif table[seat, T_STYLE] == STYLE_RANDOM:
                    card, x = chance_card(legal, POLICY_RANDOM, 0, x)
                else:
                    unseen = h[(seat + 1) % 4] | h[(seat + 2) % 4] | h[(seat + 3) % 4]
                    mode, targets = stance_of(table, w, seat, popcount(h[seat]), pair)
                    card = classic_card(seat, h[seat], legal, unseen, trump, mode, targets,
                                        (seat + 2) % 4 if pair else -1, ntrick, leader,
                                        t0, t1, t2, al[0], al[1], al[2], al[3])
        al[seat] = narrow_allowed(al[seat], card, ntrick, t0, t1, t2, trump,
                                  done == 0, must_beat, void_rule, no_wasting,
                                  no_spade_lead)
        h[seat] &= ~(1 << card)
        ntrick, leader, trump, winpos, t0, t1, t2, winner = play_to_trick(
            card, ntrick, leader, trump, winpos, t0, t1, t2)
        if winner >= 0:
            w[winner] += 1
            done += 1
        card = -1
    return ntrick, leader, trump, done, winpos, t0, t1, t2, x


def classic_evaluate(worlds: Any, trick: Any, state: Any, won: Any, opts: Any, cands: Any,
                     reps: int, policy: int, seed: int, me: int, table: Any, out: Any) -> None:
    """:func:`callbreak.bots.kernel_impl.evaluate` with the other seats playing
    :func:`classic_card` (from their own hand, the cards they have not seen and what the play
    has shown of every hand; a seat whose ``table`` style is greedy plays :func:`greedy_card`,
    one whose style is random any legal card) and ``me`` the rollout policy ``policy`` (``me`` = -1:
    every seat classic). One move in ``opts[OPT_NOISE]`` is random, as in the rollouts; there
    is no exact search."""
    h = np.zeros(4, dtype=np.int64)
    w = np.zeros(4, dtype=np.int64)
    al = np.zeros(4, dtype=np.int64)
    for i in range(worlds.shape[0]):
        for r in range(reps):
            stream = mix_seed(seed + i, r)
            for c in range(len(cands)):
                for s in range(4):
                    h[s] = worlds[i, s]
                    w[s] = won[s]
                    al[s] = table[s, T_ALLOWED]
                ntrick, leader, trump, done, winpos, t0, t1, t2 = unpack_position(trick, state)
                classic_finish(h, w, al, ntrick, leader, trump, done, winpos, t0, t1, t2,
                               cands[c], stream, opts, policy, me, table, 52)
                for s in range(4):
                    out[i, c, r, s] = w[s]


# --- lanes: sampled deals advanced in lockstep, each from its own position -------------------
# (the network's moves in the playouts, :mod:`callbreak.bots.neural_playout`, are chosen between
# the kernel's calls, one batch of lanes at a time)


def lanes_legal(hands: Any, tricks: Any, states: Any, opts: Any, out: Any) -> None:
    """The legal cards of the seat to act in every lane (rows of ``hands``, ``tricks``,
    ``states``), into ``out``."""
    for i in range(hands.shape[0]):
        out[i] = legal_now(hands[i], tricks[i], states[i], opts)


def lanes_play(hands: Any, tricks: Any, states: Any, wons: Any, allowed: Any, cards: Any,
               opts: Any) -> None:
    """Play ``cards[i]`` for the seat to act in lane ``i`` (no legality check), narrowing that
    seat's ``allowed`` cards by what the play tells everyone (:func:`narrow_allowed`)."""
    for i in range(hands.shape[0]):
        ntrick, leader, trump, done, winpos, t0, t1, t2 = unpack_position(tricks[i], states[i])
        seat = (leader + ntrick) % 4
        card = cards[i]
        allowed[i, seat] = narrow_allowed(allowed[i, seat], card, ntrick, t0, t1, t2, trump,
                                          done == 0, opts[OPT_MUST_BEAT], opts[OPT_VOID_RULE],
                                          opts[OPT_NO_WASTING], opts[OPT_NO_SPADE_LEAD])
        apply_card(hands[i], tricks[i], states[i], wons[i], card)


def classic_lanes(hands: Any, tricks: Any, states: Any, wons: Any, allowed: Any, opts: Any,
                  per_world: int, reps: int, policy: int, seed: int, me: int, table: Any,
                  out: Any) -> None:
    """:func:`classic_evaluate` from each lane's own position: ``reps`` playouts of lane ``i``
    into ``out[i, r]`` (tricks won per seat at the end). Lanes ``i`` with the same
    ``i // per_world`` (one sampled deal's candidates) share their random streams, as the
    candidates of one deal do in :func:`classic_evaluate`."""
    h = np.zeros(4, dtype=np.int64)
    w = np.zeros(4, dtype=np.int64)
    al = np.zeros(4, dtype=np.int64)
    for i in range(hands.shape[0]):
        for r in range(reps):
            for s in range(4):
                h[s] = hands[i, s]
                w[s] = wons[i, s]
                al[s] = allowed[i, s]
            ntrick, leader, trump, done, winpos, t0, t1, t2 = unpack_position(tricks[i], states[i])
            classic_finish(h, w, al, ntrick, leader, trump, done, winpos, t0, t1, t2, -1,
                           mix_seed(seed + i // per_world, r), opts, policy, me, table, 52)
            for s in range(4):
                out[i, r, s] = w[s]


def classic_lanes_until(hands: Any, tricks: Any, states: Any, wons: Any, allowed: Any, streams: Any,
                        opts: Any, until: int, policy: int, me: int, table: Any) -> None:
    """Play every lane on as :func:`classic_lanes` does until ``until`` cards of the deal are
    played, each lane with its own random stream ``streams[i]``; the lanes change in place."""
    for i in range(hands.shape[0]):
        ntrick, leader, trump, done, winpos, t0, t1, t2 = unpack_position(tricks[i], states[i])
        ntrick, leader, trump, done, winpos, t0, t1, t2, x = classic_finish(
            hands[i], wons[i], allowed[i], ntrick, leader, trump, done, winpos, t0, t1, t2, -1,
            streams[i], opts, policy, me, table, until)
        tricks[i, 0] = t0
        tricks[i, 1] = t1
        tricks[i, 2] = t2
        states[i, ST_NTRICK] = ntrick
        states[i, ST_LEADER] = leader
        states[i, ST_TRUMP] = trump
        states[i, ST_DONE] = done
        states[i, ST_WINPOS] = winpos
        streams[i] = x


@jitable
def greedy_card(hand: int, legal: int, ntrick: int, t0: int, t1: int, t2: int, trump: int,
                played: int) -> int:
    """The card the ``greedy`` style (:class:`callbreak.bots.styles.GreedyBot`) plays: following,
    its cheapest card that wins the trick so far, else its cheapest card; leading, the highest
    side card that is the top card still out (the lowest suit among equal ranks), else its
    cheapest card. ``played``: every card played this deal before this move."""
    if ntrick == 0:
        gone = played | hand
        for rank in range(12, -1, -1):
            for suit in range(4):
                c = 13 * suit + rank
                if suit != trump and (legal >> c) & 1 and not (suit_mask(suit) & ~gone & ~((2 << c) - 1)):
                    return c
        return cheapest(legal, trump)
    best = t0
    if ntrick > 1 and beats(t1, best, trump):
        best = t1
    if ntrick > 2 and beats(t2, best, trump):
        best = t2
    winners = 0
    m = legal
    while m:
        c = low_card(m)
        m &= m - 1
        if beats(c, best, trump):
            winners |= 1 << c
    return cheapest(winners if winners else legal, trump)


def style_moves(worlds: Any, steps: Any, trump: int, opts: Any, classic_out: Any, greedy_out: Any,
                nlegal_out: Any) -> None:
    """For every sampled deal ``i`` and earlier move ``k`` (a row of ``steps``), from the hand
    its seat holds in that deal: how many cards it could play (``nlegal_out[i, k]``), the card a
    classic player would have played (``classic_out``, -1: no opinion) and the card the greedy
    style would have (``greedy_out``). What :mod:`callbreak.bots.reading` reads styles from."""
    for i in range(worlds.shape[0]):
        for k in range(steps.shape[0]):
            hand = worlds[i, steps[k, S_SEAT]] | steps[k, S_LATER]
            legal = step_legal(hand, steps, k, trump, opts)
            n = popcount(legal)
            nlegal_out[i, k] = n
            if n < 2:
                classic_out[i, k] = low_card(legal)
                greedy_out[i, k] = low_card(legal)
                continue
            classic_out[i, k] = step_classic_card(hand, legal, steps, k, trump)
            greedy_out[i, k] = greedy_card(hand, legal, steps[k, S_NTRICK], steps[k, S_T0],
                                           steps[k, S_T1], steps[k, S_T2], trump, steps[k, S_PLAYED])


ENTRY_POINTS = ("classic_weights", "classic_evaluate", "style_moves", "lanes_legal", "lanes_play",
                "classic_lanes", "classic_lanes_until")
