"""Trick mechanics shared by Call Break and the related games of the catsatcards rules.

Everything here works on card masks and plain ints so that it is cheap enough for search.
"""

from __future__ import annotations

from collections.abc import Sequence

from callbreak.core.cards import DECK, SUIT_MASKS, Card
from callbreak.core.errors import IllegalActionError, IllegalPlayError, NotYourTurnError
from callbreak.core.rules import Rules, SpadeLead, VoidRule

NO_TRUMP = -1


def beats(card: int, best: int, trump: int, low_high: bool = False) -> bool:
    """Whether ``card`` beats the trick's current winner ``best``.

    A card of the winner's suit beats it by rank (reversed when ``low_high``); a trump beats any
    non-trump; anything else loses.

    >>> from callbreak.core.cards import Card
    >>> beats(Card.parse("2S"), Card.parse("AH"), trump=0)
    True
    >>> beats(Card.parse("KH"), Card.parse("AH"), trump=0)
    False
    """
    cs, bs = card // 13, best // 13
    if cs == bs:
        return card < best if low_high else card > best
    return cs == trump


def trick_winner(cards: Sequence[int], trump: int, low_high: bool = False) -> int:
    """Index in ``cards`` (play order) of the winning card.

    >>> from callbreak.core.cards import parse_cards
    >>> trick_winner(parse_cards("2H AH 3S KH"), trump=0)
    2
    """
    win = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[win], trump, low_high):
            win = i
    return win


def follow_suit_mask(hand: int, lead: int) -> int:
    """Cards that follow ``lead``'s suit, or the whole hand when void (the plain rule)."""
    own = hand & SUIT_MASKS[lead // 13]
    return own or hand


def legal_mask(
    hand: int,
    trick: Sequence[int],
    trump: int,
    rules: Rules,
    first_trick: bool,
) -> int:
    """The mask of cards a player holding ``hand`` may play to ``trick`` under ``rules``.

    ``trump`` is the trump suit (or :data:`NO_TRUMP` before the first lead of a ``first_led``
    deal). ``trick`` holds the cards already played, in order.

    Leading: anything, except that with ``spade_lead_first_trick=forbidden`` a spade may not lead
    the first trick unless the hand is all spades.

    Following with cards of the led suit: any of them, or with ``follow_must_beat`` one that
    beats the highest card of the led suit in the trick, if held (unless a non-trump lead was
    already trumped).

    Void in the led suit (trump led, or no trump held: any card). Otherwise by ``void_rule``:
    ``trump_if_winning``: a trump that would win now, if held; else any card.
    ``must_trump``: a winning trump if held, else any trump.
    ``free``: any card.
    ``no_wasting_trumps``: after the lead was trumped, a player who cannot overtrump may not play
    a lower trump unless they hold nothing else.
    """
    if not trick:
        if first_trick and rules.spade_lead_first_trick is SpadeLead.FORBIDDEN:
            return (hand & ~SUIT_MASKS[0]) or hand
        return hand
    best = trick[0]
    for c in trick:  # the current winner: the highest trump, else the highest of the suit led
        cs, bs = c // 13, best // 13
        if (cs == bs and c > best) or (cs != bs and cs == trump):
            best = c
    return follow_mask(hand, trick[0] // 13, best, trump, rules)


def follow_mask(hand: int, led_suit: int, best: int, trump: int, rules: Rules) -> int:
    """The legal cards of a player who does not lead, given only the suit led and the card
    currently winning the trick (which is all the trick's history that matters).

    When the winner is not of the suit led, a trump has taken a non-trump lead ("trumped"); the
    winner is then the highest trump in the trick, otherwise the highest card of the suit led.
    See :func:`legal_mask` for the rules.

    >>> from callbreak.core.cards import Card, mask_of, parse_cards
    >>> hand = mask_of(parse_cards("3S KS 4C"))
    >>> [Card(c).text for c in range(52) if follow_mask(hand, 1, Card.parse("9S"), 0,
    ...      Rules()) >> c & 1]
    ['KS']
    """
    own = hand & SUIT_MASKS[led_suit]
    trumped = best // 13 != led_suit
    if own:
        if trumped or not rules.follow_must_beat:
            return own
        return (own & ~((2 << best) - 1)) or own
    if trump < 0 or led_suit == trump:
        return hand
    own_trump = hand & SUIT_MASKS[trump]
    if not own_trump:
        return hand
    winning = own_trump & ~((2 << best) - 1) if trumped else own_trump
    rule = rules.void_rule
    if rule is VoidRule.MUST_TRUMP:
        return winning or own_trump
    if rule is VoidRule.TRUMP_IF_WINNING and winning:
        return winning
    if rules.no_wasting_trumps and trumped and not winning:
        return (hand & ~own_trump) or hand
    return hand


def biggest_card(mask: int, trump: int) -> Card:
    """The "biggest" card of a mask: highest rank, a trump preferred among equals.

    The 567 platform's timer plays the biggest legal card for a player who runs out of time.
    """
    best = -1
    best_key = (-1, -1, -1)
    m = mask
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        key = (c % 13, 1 if c // 13 == trump else 0, -(c // 13))
        if key > best_key:
            best, best_key = c, key
    return Card(best)


def lead_mask_unbroken(hand: int, trump: int) -> int:
    """Cards that may lead while trump is not yet broken (Batak): anything but a trump, unless
    the hand holds only trumps.

    >>> from callbreak.core.cards import mask_of, parse_cards, cards_of
    >>> cards_of(lead_mask_unbroken(mask_of(parse_cards("AS 2H")), trump=0))
    (Card('2H'),)
    """
    if trump < 0:
        return hand
    return (hand & ~SUIT_MASKS[trump]) or hand


def check_seat(seat: object, players: int) -> None:
    """Raise :class:`IllegalActionError` unless ``seat`` is a seat number of the table."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise IllegalActionError(f"no such seat: {seat!r}")


def check_turn(seat: object, turn: int, players: int) -> None:
    """Raise unless ``seat`` is a seat of the table and the one to act."""
    check_seat(seat, players)
    if seat != turn:
        raise NotYourTurnError(f"it is seat {turn}'s turn, not seat {seat}'s")


def check_play(seat: object, card: object, *, turn: int, hands: Sequence[int], legal: int,
               trick: Sequence[int], lead_rule: str) -> None:
    """Raise unless ``seat`` is to act, holds ``card`` and may play it (``legal``: the mask of the
    cards the seat to act may play); ``lead_rule`` says why a lead may be refused."""
    check_turn(seat, turn, len(hands))
    if not isinstance(card, Card):
        raise IllegalPlayError(f"not a card: {card!r}")
    hand = hands[turn]
    if not hand >> card & 1:
        raise IllegalPlayError(f"seat {seat} does not hold {card}")
    if not legal >> card & 1:
        raise IllegalPlayError(why_illegal(card, trick, hand, legal, lead_rule))


def why_illegal(card: Card, trick: Sequence[int], hand: int, legal: int, lead_rule: str) -> str:
    """Why ``card`` from ``hand`` may not be played to ``trick`` when ``legal`` is the mask of
    the cards that may; ``lead_rule`` says why a lead is refused (it depends on the game).

    >>> from callbreak.core.cards import mask_of, parse_cards
    >>> why_illegal(Card.parse("2S"), parse_cards("KH"), mask_of(parse_cards("2S 3H")),
    ...             mask_of(parse_cards("3H")), "")
    '2S does not follow suit: hearts were led; legal: 3H'
    """
    options = ", ".join(DECK[c].text for c in range(52) if legal >> c & 1)
    if not trick:
        return f"{card} {lead_rule}; legal: {options}"
    lead = DECK[trick[0]].suit
    if card.suit is not lead and hand & SUIT_MASKS[lead]:
        return f"{card} does not follow suit: {lead.name.lower()} were led; legal: {options}"
    if card.suit is lead:
        return f"{card} does not beat the trick though a higher card is held; legal: {options}"
    return f"{card} breaks the rule for a player void in the led suit; legal: {options}"
