"""The heuristic bot: sound calls from counted tricks, and classic card play.

The bot reads nothing but its :class:`~callbreak.core.SeatView`. Calls come from an estimate of
sure and likely tricks (aces, protected kings, spade length and top spades, short suits to ruff
with spare spades; see :mod:`callbreak.bots.hand_value`), turned into the call with the best
expected score under the rules' scoring, centred on a partner's call when there is one, and
tilted towards winning the match in the last deal. Play follows the habits a good club
player has: cash side-suit winners before anyone is void, ruff cheaply, keep high spades, count
cards and remember voids, win with the cheapest safe card, duck what cannot be won, leave a
partner's winning trick alone, stop taking tricks when more would hurt, and take tricks from an
opponent who still needs them.

>>> from callbreak.core import Dealer, Match, make_rules, CHANCE
>>> m = Match(make_rules("callbreak"))
>>> d, bot = Dealer(2), HeuristicBot(seed=1)
>>> while not m.is_over:
...     seat = m.to_act
...     m.apply(d.chance(m) if seat == CHANCE else bot.decide(m.view(seat), 1.0).action)
>>> len(m.results)
5
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from callbreak.bots.base import Decision, register
from callbreak.bots.hand_value import (
    SUIT_SINGULAR,
    SUIT_WORDS,
    Estimate,
    bottom_card,
    call_value,
    card_name,
    cards_in,
    estimate_tricks,
    fitted_tricks,
    popcount,
    top_card,
    trick_distribution,
)
from callbreak.bots.kernel_classic import MODES, STEP_COLS, T_ALLOWED, T_CALL, T_MADE, TABLE_COLS
from callbreak.core import Action, Call, Look, Play, Redeal, SeatView
from callbreak.core.cards import SUIT_MASKS, Card, above, mask_of
from callbreak.core.inference import fresh_caps, infer_play
from callbreak.core.rules import Rules, Scoring, Trump
from callbreak.core.sampling import allowed_mask
from callbreak.core.tricks import beats

# How many tricks an unseen hand is worth on average, and how unsure that is (blind calls).
_BLIND_MEAN, _BLIND_SPREAD = 3.25, 1.66
# What a call made after looking scores on average (tenths; heuristic self-play, callbreak).
# Doubled, a blind call of 2 is worth about 31 on the same deals: more than looking, so under
# blind_call rules the bot calls blind unless a close last deal asks for the cards to be seen.
_LOOKED_VALUE = 22.0
# How unsure the fitted trick count is: the spread of its error grows from 0.6 tricks for weak
# hands to 0.9 (measured on self-play).
_SPREAD_BASE, _SPREAD_SLOPE, _SPREAD_MAX = 0.6, 0.1, 0.92
# A redeal gives everyone an average hand again: claim it when ours is clearly below average.
_REDEAL_BELOW = 2.5
# Partners call cautiously, so a partner takes a little more than their call on average.
_PARTNER_MARGIN = 0.8
# With the first card led setting trump: the leader's hand does a little better than the count
# (it also chooses when to lead what), the others' counts are less sure (measured on self-play).
_LEADER_CHOICE_BONUS = 0.2
_UNKNOWN_TRUMP_SPREAD = 0.3
# Chances of being beaten: below _SAFE_RISK a card "should hold"; a riskier card is still tried
# below _TRY_RISK when only one opponent can overtake; a side winner is cashed below _CASH_RISK.
_SAFE_RISK, _TRY_RISK, _CASH_RISK = 0.35, 0.4, 0.5
# Leading a low card: length counts for a suit, trumps, a lone king and a likely ruff against.
_LEAD_TRUMP_PENALTY, _LEAD_KING_PENALTY, _LEAD_RUFF_PENALTY = 6.0, 3.0, 4.0


# --- the bot -----------------------------------------------------------------------------------


class HeuristicBot:
    """Counts tricks to call, and plays the classic way. Deterministic for a given view."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "heuristic"
        # Play is deterministic; the seed is taken so that every bot factory looks alike.
        self.seed = seed

    def decide(self, view: SeatView, budget: float) -> Decision:
        """Choose one of ``view.legal`` (the budget is not needed: a decision takes well under 5 ms)."""
        legal = view.legal
        if not legal or view.seat is None:
            raise ValueError("the bot was asked to act with no legal action")
        kinds = {a.kind for a in legal}
        if "play" in kinds:
            return _Play(view).choose()
        if "redeal" in kinds:
            return self._redeal(view)
        if "call" in kinds or "look" in kinds:
            return self._call(view)
        return Decision(legal[0], "the only move")

    # -- redeal claims --

    def _redeal(self, view: SeatView) -> Decision:
        claim = next((a for a in view.legal if isinstance(a, Redeal) and a.claim), None)
        keep = next((a for a in view.legal if isinstance(a, Redeal) and not a.claim), None)
        hand = mask_of(view.hand or ())
        est = _mean_estimate(view, hand)
        if keep is None or (claim is not None and est.tricks < _REDEAL_BELOW):
            assert claim is not None
            return Decision(claim, f"claim a redeal: this hand is worth about {est.tricks:.1f} tricks")
        if claim is None:
            return Decision(keep, "keep the hand: it may not be thrown in")
        return Decision(keep, f"keep the hand: {', '.join(est.features[:2])}")

    # -- calls --

    def _call(self, view: SeatView) -> Decision:
        legal = view.legal
        rules = view.rules
        seat = view.seat
        assert seat is not None
        calls = [a for a in legal if isinstance(a, Call)]
        if view.hand is None:
            blind = [a for a in calls if a.blind]
            look = next((a for a in legal if isinstance(a, Look)), None)
            if blind:
                target = _match_target(view)
                dist = trick_distribution(_BLIND_MEAN, _BLIND_SPREAD)
                if target is not None and target > 60:  # far behind in the last deal
                    best = max(blind, key=lambda a: (call_value(a.tricks, dist, rules, blind=True,
                                                                target=target), -a.tricks))
                    return Decision(best, f"call {best.tricks} blind: far behind in the last "
                                          "deal, the doubled score is the only way to catch up")
                best = max(blind, key=lambda a: (call_value(a.tricks, dist, rules, blind=True), -a.tricks))
                value = call_value(best.tricks, dist, rules, blind=True)
                # In a close last deal (0 < target <= 60) we look: the race needs the cards seen.
                if value > _LOOKED_VALUE and (target is None or target < 0):
                    return Decision(best, f"call {best.tricks} blind: doubled, a small blind call "
                                          "is worth more than an average call with the cards seen")
            if look is not None:
                return Decision(look, "look at the cards before calling")
            if not calls:
                return Decision(legal[0], "the only move")
        open_calls = [a for a in calls if not a.blind] or calls
        hand = mask_of(view.hand or ())
        est = _mean_estimate(view, hand)
        mean = _table_adjusted(view, est.tricks)
        spread = min(_SPREAD_MAX, _SPREAD_BASE + _SPREAD_SLOPE * mean)
        if _trump_for_estimate(view) is None and not _is_first_leader(view):
            spread += _UNKNOWN_TRUMP_SPREAD  # the trump suit is someone else's choice
        partner = (seat + 2) % 4 if rules.partnership else None
        partner_call = view.calls[partner] if partner is not None else None
        target = _match_target(view)
        if partner_call is not None:
            # The pair is judged on its summed calls and tricks: centre on the partner's call.
            dist = trick_distribution(mean + _PARTNER_MARGIN, math.hypot(spread, 1.0))
            best = max(open_calls, key=lambda a: (call_value(a.tricks, dist, rules, offset=partner_call,
                                                             target=target), -a.tricks))
        else:
            dist = trick_distribution(mean, spread)
            best = max(open_calls, key=lambda a: (call_value(a.tricks, dist, rules, target=target),
                                                  -a.tricks))
        why = " and ".join(est.features[:2])
        extra = ""
        if partner_call is not None:
            extra = f", with my partner's {partner_call}"
        elif target is not None and target > 30 and max(view.totals) > view.totals[seat]:
            extra = ", pushing to catch up in the last deal"
        return Decision(best, f"call {best.tricks}: {why}{extra}")


def _trump_for_estimate(view: SeatView) -> int | None:
    """The trump suit to count with; None when the deal's trump is not known yet."""
    if view.trump is not None:
        return int(view.trump)
    if view.rules.trump is Trump.SPADES:
        return 0
    return None


def _mean_estimate(view: SeatView, hand: int) -> Estimate:
    """Expected tricks (from the fitted model) under the known trump, or under a first-led
    trump not chosen yet; the features come from the hand count, to explain the call."""
    trump = _trump_for_estimate(view)
    if trump is not None:
        return Estimate(fitted_tricks(hand, trump), estimate_tricks(hand, trump).features)
    options = [(fitted_tricks(hand, s), s) for s in range(4)]
    best, suit = max(options)
    features = estimate_tricks(hand, suit).features
    if _is_first_leader(view):
        # The first leader chooses trump by leading its best suit.
        return Estimate(best + _LEADER_CHOICE_BONUS, features)
    # The leader will pick a suit they are long in, which is more likely a suit we are short in.
    weights = [(13 - popcount(hand & SUIT_MASKS[s])) ** 4 for s in range(4)]
    mean = sum(w * t for w, (t, _) in zip(weights, options, strict=True)) / sum(weights)
    return Estimate(mean, features)


def _is_first_leader(view: SeatView) -> bool:
    return view.dealer is not None and view.seat == (view.dealer + 1) % 4


def _table_adjusted(view: SeatView, mean: float) -> float:
    """Shade the estimate down when the calls before ours leave little for us."""
    known = [c for s, c in enumerate(view.calls) if c is not None and s != view.seat]
    still = 3 - len(known)
    others = sum(known) + 1.0 * still  # a seat yet to call takes a trick or so at least
    room = 13.0 - others
    if mean > room + 1.0:
        mean = (mean + room + 1.0) / 2
    return max(0.0, mean)


def _match_target(view: SeatView) -> float | None:
    """In the last deal of a match, how many tenths we must score to finish ahead; else None.

    Negative when we lead by more than the rivals are likely to score: then the call that
    risks least is the one that wins the match.
    """
    rules = view.rules
    seat = view.seat
    assert seat is not None
    last = bool(view.tiebreak_seats) or (rules.deals is not None and view.deal_number >= rules.deals)
    if not last:
        return None
    if view.tiebreak_seats and seat not in view.tiebreak_seats:
        return None
    mine = view.totals[seat]
    rivals = [s for s in range(4) if s != seat and (not rules.partnership or s != (seat + 2) % 4)]
    if view.tiebreak_seats:
        rivals = [s for s in rivals if s in view.tiebreak_seats]
        mine = 0
    if not rivals:
        return None
    best = -1e9
    for s in rivals:
        call = view.calls[s]
        expect = 8.0 * call if call is not None else 25.0  # a rival's likely score this deal
        base = view.totals[s] if not view.tiebreak_seats else 0
        best = max(best, base + expect)
    return best - mine


# --- play ----------------------------------------------------------------------------------


def _need(view: SeatView, seat: int) -> int:
    """Tricks ``seat`` (with its partner, in a partnership) still needs for its call."""
    calls = [c if c is not None else 0 for c in view.calls]
    need = calls[seat] - view.won[seat]
    if view.rules.partnership:
        partner = (seat + 2) % 4
        need += calls[partner] - view.won[partner]
    return need


def stance(view: SeatView, seat: int, left: int) -> tuple[str, set[int]]:
    """How ``seat``, holding ``left`` cards, plays from here, from public facts only: ``win``
    (take tricks), ``avoid`` (more tricks would hurt) or ``spoil`` (hurt others); and the
    opponents who still need tricks and can still make their call (taking their tricks hurts
    them)."""
    rules = view.rules
    partner = (seat + 2) % 4 if rules.partnership else None
    targets = {s for s in range(4) if s != seat and s != partner and 0 < _need(view, s) <= left}
    need = _need(view, seat)
    if need > left:
        return "spoil", targets  # the call is lost whatever happens: deny the others
    if need > 0:
        return "win", targets
    return made_stance(rules, view.calls[seat] or 0), targets


def made_stance(rules: Rules, call: int) -> str:
    """How a seat plays once its call is made: on for overtricks worth a tenth (``win``),
    ``avoid`` where more tricks hurt, ``spoil`` where they are worth nothing."""
    if rules.scoring is Scoring.EXACT_OR_ONE_OVER:
        return "avoid"
    bonus = rules.bonus_call
    if rules.scoring is Scoring.AT_LEAST or (bonus is not None and call >= bonus.threshold):
        return "spoil"
    return "win"


class _Play:
    """Everything one card decision needs, computed once from the view."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        rules = view.rules
        seat = view.seat
        assert seat is not None
        self.seat = seat
        self.rules = rules
        self.partner = (seat + 2) % 4 if rules.partnership else None
        self.trump = int(view.trump) if view.trump is not None else -1
        self.hand = mask_of(view.hand or ())
        self.legal = mask_of(view.legal_cards)
        self.unseen = mask_of(view.unseen)
        self.caps = view.caps
        self.trick = view.trick
        self.left = len(view.hand or ())
        self.mode, self.targets = stance(view, seat, self.left)
        self.opponents = [s for s in range(4) if s != seat and s != self.partner]
        # Seats known void in each suit.
        self.void = [[view.caps[s][x] < x * 13 for x in range(4)] for s in range(4)]

    # -- reading the cards --

    def holders(self, suit: int) -> int:
        """How many other seats may still hold cards of ``suit``."""
        return sum(1 for s in range(4) if s != self.seat and not self.void[s][suit]) or 1

    def p_holds_above(self, seat: int, card: int) -> float:
        """Chance that ``seat`` holds a card of ``card``'s suit ranked above it."""
        suit = card // 13
        if self.void[seat][suit]:
            return 0.0
        cap = self.caps[seat][suit]
        higher = self.unseen & above(card) & ((2 << cap) - 1)
        h = popcount(higher)
        if not h:
            return 0.0
        k = self.holders(suit)
        return 1.0 - ((k - 1) / k) ** h

    def p_void(self, seat: int, suit: int) -> float:
        """Chance that ``seat`` has no card of ``suit``."""
        if self.void[seat][suit]:
            return 1.0
        u = popcount(self.unseen & SUIT_MASKS[suit])
        if not u:
            return 1.0
        k = self.holders(suit)
        return ((k - 1) / k) ** u

    def p_beats(self, seat: int, card: int, lead_suit: int) -> float:
        """Chance that ``seat``, playing after us, beats ``card`` in a trick led in ``lead_suit``."""
        suit, trump = card // 13, self.trump
        if suit == lead_suit:
            higher = self.p_holds_above(seat, card)
            if trump < 0 or lead_suit == trump:
                return higher
            void = self.p_void(seat, lead_suit)
            ruff = void * self.p_has(seat, trump)
            return 1.0 - (1.0 - higher * (1.0 - void)) * (1.0 - ruff)
        if suit == trump:
            return self.p_void(seat, lead_suit) * self.p_holds_above(seat, card)
        return 0.0

    def p_has(self, seat: int, suit: int) -> float:
        return 1.0 - self.p_void(seat, suit)

    def risk(self, card: int, lead_suit: int, later: Sequence[int]) -> float:
        """Chance that an opponent still to play beats ``card`` (a partner beating it is fine)."""
        safe = 1.0
        for s in later:
            if s != self.partner:
                safe *= 1.0 - self.p_beats(s, card, lead_suit)
        return 1.0 - safe

    def is_master(self, card: int) -> bool:
        """No card that others may hold ranks above ``card`` in its suit."""
        return not self.unseen & above(card)

    def later_seats(self) -> list[int]:
        return [(self.seat + k) % 4 for k in range(1, 4 - len(self.trick))]

    # -- choosing --

    def choose(self) -> Decision:
        if popcount(self.legal) == 1:
            card = top_card(self.legal)
            return self.decision(card, f"{card_name(card)} is the only legal card")
        if not self.trick:
            return self.lead()
        return self.follow()

    def decision(self, card: int, reason: str) -> Decision:
        action: Action = Play(self.seat, Card(card))
        return Decision(action, reason)

    # leading

    def lead(self) -> Decision:
        if self.trump < 0:
            return self.lead_choosing_trump()
        if self.mode == "avoid":
            return self.lead_low_to_lose()
        legal, trump = self.legal, self.trump
        others = [s for s in range(4) if s != self.seat]
        trump_mask = SUIT_MASKS[trump]
        unseen_trumps = self.unseen & trump_mask
        # 1. Cash side-suit masters while a ruff is still unlikely (below _CASH_RISK).
        best: tuple[float, int] | None = None
        for suit in range(4):
            if suit == trump:
                continue
            mine = legal & SUIT_MASKS[suit]
            if not mine:
                continue
            card = top_card(mine)
            if not self.is_master(card):
                continue
            r = self.risk(card, suit, others)
            if r < _CASH_RISK and (best is None or r < best[0]):
                best = (r, card)
        if best is not None:
            card = best[1]
            if not self.unseen & SUIT_MASKS[card // 13]:
                why = f"cash {card_name(card)}: nobody else holds a {SUIT_SINGULAR[card // 13]}"
            elif card % 13 == 12:
                why = f"cash {card_name(card)} before anyone is void"
            else:
                why = f"cash {card_name(card)}, now the best {SUIT_SINGULAR[card // 13]} left"
            return self.decision(card, why)
        # 2. Draw trumps with the top trump when we hold more of them than the others do.
        my_trumps = legal & trump_mask
        if my_trumps and self.is_master(top_card(my_trumps)):
            card = top_card(my_trumps)
            if not unseen_trumps:
                return self.decision(card, f"{card_name(card)} is a sure trick: no one else has trumps")
            if popcount(self.hand & trump_mask) >= popcount(unseen_trumps):
                return self.decision(card, f"draw trumps with {card_name(card)}")
        # 3. Lead a low singleton to ruff that suit later, with trumps to spare (a singleton
        #    honour is better kept: it may still win when the cards above it have gone).
        if popcount(self.hand & trump_mask) >= 2 and self.mode != "spoil":
            for suit in range(4):
                mine = legal & SUIT_MASKS[suit]
                if suit != trump and popcount(self.hand & SUIT_MASKS[suit]) == 1 and mine \
                        and top_card(mine) % 13 < 9 and self.unseen & SUIT_MASKS[suit]:
                    card = top_card(mine)
                    return self.decision(card, f"lead the singleton {card_name(card)[4:]} to ruff "
                                               f"{SUIT_WORDS[suit]} later")
        # 4. Lead a suit the partner can ruff.
        if self.partner is not None and not self.void[self.partner][trump]:
            for suit in range(4):
                mine = legal & SUIT_MASKS[suit]
                if suit != trump and mine and self.void[self.partner][suit]:
                    card = bottom_card(mine)
                    return self.decision(card, f"lead {SUIT_WORDS[suit]} for my partner to ruff")
        # 5. Lead low from the longest side suit that gives nothing away.
        return self.lead_low_safely()

    def lead_low_safely(self) -> Decision:
        legal, trump = self.legal, self.trump
        candidates: list[tuple[float, int]] = []
        for suit in range(4):
            mine = legal & SUIT_MASKS[suit]
            if not mine:
                continue
            card = bottom_card(mine)
            length = popcount(self.hand & SUIT_MASKS[suit])
            score = float(length)
            if suit == trump:
                score -= _LEAD_TRUMP_PENALTY  # keep trumps for ruffing
            # Leading away from an unguarded honour gives it to the player behind.
            king = self.hand >> (suit * 13 + 11) & 1
            ace = self.hand >> (suit * 13 + 12) & 1
            if king and not ace and length <= 3:
                score -= _LEAD_KING_PENALTY
            ruff_risk = max(self.p_void(s, suit) * (self.p_has(s, trump) if suit != trump else 0.0)
                            for s in self.opponents)
            score -= _LEAD_RUFF_PENALTY * ruff_risk
            candidates.append((score, -card))
        score, neg = max(candidates)
        card = -neg
        suit = card // 13
        if suit == trump and popcount(self.legal & ~SUIT_MASKS[trump]) == 0:
            return self.decision(card, f"only {SUIT_WORDS[suit]} left: lead the lowest")
        return self.decision(card, f"lead low from {SUIT_WORDS[suit]}, giving nothing away")

    def lead_low_to_lose(self) -> Decision:
        """The call is made and more tricks would hurt: lead what someone else will win."""
        best: tuple[float, int] | None = None
        for card in cards_in(self.legal):
            suit = card // 13
            higher = popcount(self.unseen & above(card))
            score = higher - (8 if suit == self.trump else 0)
            if best is None or score > best[0] or (score == best[0] and card < best[1]):
                best = (float(score), card)
        assert best is not None
        card = best[1]
        return self.decision(card, f"lead {card_name(card)}: my call is made and it should lose")

    def lead_choosing_trump(self) -> Decision:
        """First lead of a first-led-trump deal: the suit led becomes trump, so lead our best."""
        best_suit = max((s for s in range(4) if self.legal & SUIT_MASKS[s]),
                        key=lambda s: (fitted_tricks(self.hand, s), s))
        mine = self.legal & SUIT_MASKS[best_suit]
        top = top_card(mine)
        card = top if top % 13 == 12 else bottom_card(mine)
        return self.decision(card, f"lead {card_name(card)} to make {SUIT_WORDS[best_suit]} trump, "
                                   "my strongest suit")

    # following

    def follow(self) -> Decision:
        trick, trump = self.trick, self.trump
        lead_suit = trick[0] // 13
        win_i = 0
        for i in range(1, len(trick)):
            if beats(trick[i], trick[win_i], trump):
                win_i = i
        best = trick[win_i]
        winner_seat = self.view.trick_seats[win_i]
        later = self.later_seats()
        legal = cards_in(self.legal)
        winners = [c for c in legal if beats(c, best, trump)]
        losers = [c for c in legal if not beats(c, best, trump)]

        if self.partner is not None and winner_seat == self.partner:
            partner_risk = self.risk(best, lead_suit, later)
            if partner_risk < _SAFE_RISK and losers and self.mode != "avoid":
                return self.duck(losers, lead_suit, f"my partner's {card_name(best)[4:]} is winning: "
                                                    "play low")
        want = self.mode == "win" or (self.mode == "spoil" and (
            winner_seat in self.targets or any(s in self.targets for s in later)))
        if self.partner is not None and winner_seat == self.partner and self.mode == "spoil":
            want = any(s in self.targets for s in later)

        if self.mode == "avoid":
            return self.avoid(winners, losers, lead_suit, later)
        if want and winners:
            scored = [(self.risk(c, lead_suit, later), c) for c in winners]
            safe = [c for r, c in scored if r < _SAFE_RISK]
            if safe:
                card = self._cheapest(safe)
                return self.decision(card, self._win_reason(card, lead_suit, later, safe=True))
            r, card = min(scored, key=lambda rc: (round(rc[0], 2), self._cost(rc[1])))
            # Second hand low: with two opponents still to come, a card that may be beaten is
            # better kept; third hand may try, since only one player can still overtake.
            try_it = r < _TRY_RISK and (len(later) <= 1 or card // 13 == self.trump)
            if try_it or not later:
                return self.decision(card, self._win_reason(card, lead_suit, later, safe=False))
        if not losers:
            card = self._cheapest(winners)
            if want:
                return self.decision(card, f"{card_name(card)}: keep the big cards, others may "
                                           "still overtake")
            return self.decision(card, f"{card_name(card)}: the cheapest card I may play")
        reason = "I cannot win this trick: play low" if not winners else "not worth winning: play low"
        return self.duck(losers, lead_suit, reason)

    def _cost(self, card: int) -> int:
        """How much a card is worth keeping: trumps above every side card."""
        return card % 13 + (20 if card // 13 == self.trump else 0)

    def _cheapest(self, cards: Sequence[int]) -> int:
        return min(cards, key=self._cost)

    def _win_reason(self, card: int, lead_suit: int, later: Sequence[int], *, safe: bool) -> str:
        name = card_name(card)
        if card // 13 == self.trump and lead_suit != self.trump:
            verb = "ruff with"
        else:
            verb = "win with" if safe else "try to win with"
        if self.mode == "spoil":
            return f"{verb} {name} to stop an opponent making their call"
        if not later:
            return f"{verb} {name}, the cheapest card that wins"
        if safe:
            return f"{verb} {name}, the cheapest card that should hold"
        return f"{verb} {name}"

    def duck(self, losers: Sequence[int], lead_suit: int, reason: str) -> Decision:
        """Lose the trick as cheaply as possible, keeping masters, trumps and useful length."""
        follow = [c for c in losers if c // 13 == lead_suit]
        if follow:
            card = min(follow)
            return self.decision(card, f"{reason} ({card_name(card)[4:]})")
        trump = self.trump

        def discard_key(c: int) -> tuple[int, int, int, int]:
            suit = c // 13
            length = popcount(self.hand & SUIT_MASKS[suit])
            return (1 if suit == trump else 0, 1 if self.is_master(c) else 0, length, c % 13)

        card = min(losers, key=discard_key)
        if card // 13 == trump:
            return self.decision(card, f"{reason}: only trumps to spare ({card_name(card)[4:]})")
        return self.decision(card, f"{reason}: discard {card_name(card)[4:]}")

    def avoid(self, winners: Sequence[int], losers: Sequence[int], lead_suit: int,
              later: Sequence[int]) -> Decision:
        """More tricks would break the call: lose, and shed the cards that could win later."""
        if losers:
            # Shed the highest loser: it is the card most likely to win a trick later on.
            card = max(losers, key=lambda c: (c // 13 == self.trump, c % 13))
            return self.decision(card, f"my call is made: shed {card_name(card)[4:]} under the trick")
        if later:
            card = self._cheapest(winners)  # someone still to play may overtake it
            return self.decision(card, f"forced to head the trick: {card_name(card)[4:]}, "
                                       "hoping someone overtakes")
        card = max(winners, key=self._cost)
        return self.decision(card, f"the trick is mine anyway: get rid of {card_name(card)[4:]}")


def classic_steps(view: SeatView) -> np.ndarray:
    """The other seats' moves of this deal so far, each as the public facts the heuristic bot
    would have played it from (the rows :func:`callbreak.bots.kernel_classic.classic_weights`
    reads):
    the trick, its stance, its targets and what the play before it had shown of every hand.
    The first lead of a ``first_led`` deal, made with no trump suit yet, is left out."""
    me = view.seat
    rules = view.rules
    trump = int(view.trump) if view.trump is not None else -1
    tricks = [(t.leader, [int(c) for c in t.cards], t.winner) for t in view.tricks]
    if view.trick:
        tricks.append((view.leader if view.leader is not None else 0,
                       [int(c) for c in view.trick], -1))
    moves = [((leader + j) % 4, c, ti) for ti, (leader, cards, _) in enumerate(tricks)
             for j, c in enumerate(cards)]
    caps = [fresh_caps() for _ in range(4)]
    if rules.side_off_declaration:
        # Voids were declared before the first lead: a seat void now that never played the
        # suit this deal held none of it from the start.
        for s in range(4):
            for suit in range(4):
                shown = any(c // 13 == suit for seat, c, _ in moves if seat == s)
                if view.caps[s][suit] < suit * 13 and not shown:
                    caps[s][suit] = suit * 13 - 1
    later = [0, 0, 0, 0]
    later_at: list[int] = []
    for seat, c, _ in reversed(moves):
        later[seat] |= 1 << c
        later_at.append(later[seat])
    later_at.reverse()
    rows: list[tuple[int, ...]] = []
    won = [0, 0, 0, 0]
    played = 0
    k = 0
    for ti, (leader, cards, winner) in enumerate(tricks):
        for j, c in enumerate(cards):
            seat = (leader + j) % 4
            if seat != me and not (k == 0 and rules.trump is Trump.FIRST_LED):
                past = replace(view, won=tuple(won))
                mode, targets = stance(past, seat, 13 - ti)
                trick = cards[:j] + [0] * (3 - j)
                rows.append((seat, c, j, leader, trick[0], trick[1], trick[2], int(ti == 0),
                             later_at[k], played, MODES[mode], sum(1 << t for t in targets),
                             (seat + 2) % 4 if rules.partnership else -1,
                             *(allowed_mask(caps[s]) for s in range(4))))
            infer_play(caps[seat], cards[:j], c, trump, rules, ti == 0)
            played |= 1 << c
            k += 1
        if winner >= 0:
            won[winner] += 1
    return np.array(rows, dtype=np.int64).reshape(len(rows), STEP_COLS)


def classic_table(view: SeatView) -> np.ndarray:
    """Per seat: its call, its stance once the call is made, and the cards the public play
    allows it to hold (the table :func:`callbreak.bots.kernel_classic.classic_evaluate` reads)."""
    table = np.zeros((4, TABLE_COLS), dtype=np.int64)
    for s in range(4):
        call = view.calls[s] or 0
        table[s, T_CALL] = call
        table[s, T_MADE] = MODES[made_stance(view.rules, call)]
        table[s, T_ALLOWED] = allowed_mask(view.caps[s])
    return table


@register("heuristic")
def _heuristic(seed: str | None = None) -> HeuristicBot:
    """A good club player's habits: counted calls, winners cashed early, cheap ruffs."""
    return HeuristicBot(int(seed) if seed is not None else None)
