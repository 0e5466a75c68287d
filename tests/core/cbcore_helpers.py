"""Helpers for the core tests: scripted deals, and reference rules written from RULES.md.

The reference functions here are deliberately naive (lists of cards, no masks, no caching) and
written from the text of RULES.md rather than from the engine, so that comparing the engine
with them is an independent check.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from callbreak.core import CHANCE, Match, Rules, make_rules, parse_cards
from callbreak.core.actions import Action, Call, ChooseDealer, Deal, Draw, Look, Play, Redeal, Stop
from callbreak.core.cards import DECK, Card, Suit
from callbreak.core.game import Phase
from callbreak.core.rules import FirstDealer, Scoring, SpadeLead, VoidRule

# --- building positions ------------------------------------------------------------------


def fill_deal(spec: dict[int, str]) -> Deal:
    """A deal where each seat in ``spec`` holds the given cards; the rest of the pack is dealt
    round the seats that still need cards, in pack order."""
    hands: list[list[Card]] = [list(parse_cards(spec.get(s, ""))) for s in range(4)]
    used = {c for h in hands for c in h}
    assert len(used) == sum(len(h) for h in hands), "a card is given twice"
    rest = [c for c in DECK if c not in used]
    # Round robin, so that every seat gets a spread of suits unless the spec says otherwise.
    seat = 0
    while rest:
        if len(hands[seat]) < 13:
            hands[seat].append(rest.pop(0))
        seat = (seat + 1) % 4
    return Deal(hands=tuple(tuple(sorted(h)) for h in hands))


def started(rules: Rules | str, deal: Deal | None = None, dealer: int = 0) -> Match:
    """A match whose first dealer is ``dealer`` and which has ``deal`` dealt (if given)."""
    r = make_rules(rules) if isinstance(rules, str) else rules
    m = Match(make_rules(r, first_dealer="random"))
    m.apply(ChooseDealer(dealer))
    if deal is not None:
        m.apply(deal)
    return m


def call_all(m: Match, calls: Sequence[int]) -> None:
    """Make the calls in turn order (``calls[i]`` for the i-th seat to call)."""
    for n in calls:
        m.apply(Call(m.turn, n))


def play(m: Match, cards: str) -> None:
    """Each card in turn by whoever is to act."""
    for c in parse_cards(cards):
        m.apply(Play(m.turn, c))


def names(cards: Iterable[Card]) -> set[str]:
    return {c.text for c in cards}


# --- reference rules ---------------------------------------------------------------------


def ref_legal(hand: Sequence[Card], trick: Sequence[Card], trump: Suit | None, rules: Rules,
              first_trick: bool) -> set[Card]:
    """The legal cards, following RULES.md section 2 word by word."""
    hand = list(hand)
    if not trick:
        if (first_trick and rules.spade_lead_first_trick is SpadeLead.FORBIDDEN
                and any(c.suit is not Suit.SPADES for c in hand)):
            return {c for c in hand if c.suit is not Suit.SPADES}
        return set(hand)
    led = trick[0].suit
    of_led = [c for c in hand if c.suit is led]
    trumps_in_trick = [c for c in trick if trump is not None and c.suit is trump]
    already_trumped = led is not trump and bool(trumps_in_trick)
    if of_led:
        if not rules.follow_must_beat or already_trumped:
            return set(of_led)
        best = max(c.rank for c in trick if c.suit is led)
        beaters = [c for c in of_led if c.rank > best]
        return set(beaters or of_led)
    my_trumps = [c for c in hand if trump is not None and c.suit is trump]
    if trump is None or led is trump or not my_trumps:
        return set(hand)
    top_trump = max((c.rank for c in trumps_in_trick), default=0)
    winning_trumps = [c for c in my_trumps if c.rank > top_trump]
    if rules.void_rule is VoidRule.MUST_TRUMP:
        return set(winning_trumps or my_trumps)
    if rules.void_rule is VoidRule.TRUMP_IF_WINNING and winning_trumps:
        return set(winning_trumps)
    if rules.no_wasting_trumps and already_trumped and not winning_trumps:
        others = [c for c in hand if c.suit is not trump]
        return set(others or hand)
    return set(hand)


def ref_winner(cards: Sequence[Card], trump: Suit | None) -> int:
    """Index of the winning card: highest trump, else highest card of the suit led."""
    trumps = [i for i, c in enumerate(cards) if trump is not None and c.suit is trump]
    if trumps:
        return max(trumps, key=lambda i: cards[i].rank)
    led = cards[0].suit
    return max((i for i, c in enumerate(cards) if c.suit is led), key=lambda i: cards[i].rank)


def ref_points(call: int, won: int, rules: Rules, blind: bool = False) -> float:
    """One deal's score in points (floats are fine here: small numbers, compared after rounding)."""
    if rules.scoring is Scoring.EXACT_OR_ONE_OVER:
        made = won in (call, call + 1)
    else:
        made = won >= call
    if not made:
        pts = -float(call)
    elif rules.bonus_call is not None and call >= rules.bonus_call.threshold:
        pts = float(rules.bonus_call.points)
    elif rules.scoring is Scoring.TENTHS:
        pts = call + 0.1 * (won - call)
    else:
        pts = float(call)
    return pts * 2 if blind else pts


# --- random play ---------------------------------------------------------------------------


def random_chance(m: Match, rng: random.Random, stop_after: int = 3) -> Action:
    """A random chance action; with unlimited deals the table stops after ``stop_after`` deals."""
    if m.phase is Phase.DRAW:
        if m.rules.first_dealer is FirstDealer.RANDOM:
            return ChooseDealer(rng.randrange(4))
        return Draw(cards=tuple(rng.sample(DECK, 4)))
    if m.can_stop and len(m.results) >= stop_after:
        return Stop()
    deck = list(DECK)
    rng.shuffle(deck)
    return Deal(hands=tuple(tuple(sorted(deck[i * 13:(i + 1) * 13])) for i in range(4)))


def random_action(m: Match, rng: random.Random, stop_after: int = 3) -> Action:
    """A random legal action of whoever may act (sometimes a non-acting seat's Look)."""
    if m.to_act == CHANCE:
        return random_chance(m, rng, stop_after)
    if m.phase is Phase.CALL and m.rules.blind_call and rng.random() < 0.1:
        lookers = [s for s in range(4) if Look(s) in m.legal_actions(s)]
        if lookers:
            return Look(rng.choice(lookers))
    return rng.choice(m.legal_actions())


def rules_from_preset_override(name: str, **overrides: object) -> Rules:
    return make_rules(name, **overrides)


__all__ = ["Call", "Play", "Redeal", "Look", "Stop", "ChooseDealer", "Deal", "Draw"]
