"""Cards, suits and ranks, with hands held as 52-bit masks.

A card is an ``int`` from 0 to 51: ``suit * 13 + (rank - 2)``. Cards of one suit are contiguous
and ordered by rank, so "every card of this suit above X" is one mask operation and the highest
card of a suit in a hand is ``bit_length() - 1``. That is what makes legal-move generation cheap.

>>> Card.parse("AS"), Card.parse("10h"), Card.parse("TH") == Card.parse("10H")
(Card('AS'), Card('10H'), True)
>>> Card.parse("QD").suit, Card.parse("QD").rank
(<Suit.DIAMONDS: 3>, <Rank.QUEEN: 12>)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum

from callbreak.core.errors import CardError


class Suit(IntEnum):
    """The four suits; spades first because spades are trump in Call Break."""

    SPADES = 0
    HEARTS = 1
    CLUBS = 2
    DIAMONDS = 3

    @property
    def letter(self) -> str:
        return "SHCD"[self]

    @property
    def symbol(self) -> str:
        return "♠♥♣♦"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def mask(self) -> int:
        """All 13 cards of this suit as a mask."""
        return SUIT_MASKS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``S``/``H``/``C``/``D`` or a suit symbol (any case).

        >>> Suit.parse("h"), Suit.parse("♣")
        (<Suit.HEARTS: 1>, <Suit.CLUBS: 2>)
        """
        t = text.strip().upper()
        for suit in cls:
            if t in (suit.letter, suit.symbol, suit.name):
                return suit
        raise CardError(f"unknown suit {text!r}: expected one of S, H, C, D")


class Rank(IntEnum):
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def label(self) -> str:
        """Display label: ``2``..``10``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_LABELS[self - 2]

    @property
    def is_face(self) -> bool:
        """Ace, king, queen or jack (the "high cards" of the catsatcards weak-hand rule)."""
        return self >= Rank.JACK


_RANK_LABELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_RANK_PARSE = {label: Rank(i + 2) for i, label in enumerate(_RANK_LABELS)} | {"T": Rank.TEN}

SUIT_MASKS: tuple[int, ...] = tuple(0x1FFF << (13 * s) for s in range(4))
FULL_DECK: int = (1 << 52) - 1


class Card(int):
    """One playing card; an ``int`` in 0..51 so it works directly as a bit index.

    Instances are interned: ``Card(5) is Card(5)``.
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        # Checked explicitly: tuple indexing would accept -1 (the ace of spades) and True.
        if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < 52:
            return _DECK[index]
        raise CardError(f"card index must be 0..51, got {index!r}")

    @classmethod
    def of(cls, suit: Suit, rank: Rank | int) -> Card:
        """The card of ``suit`` and ``rank``.

        >>> Card.of(Suit.SPADES, Rank.ACE)
        Card('AS')
        """
        if not 2 <= rank <= 14:
            raise CardError(f"rank must be 2..14, got {rank!r}")
        return _DECK[suit * 13 + rank - 2]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``AS``, ``10H``, ``TH``, ``qd``, ``A♠``; raise :class:`CardError` otherwise."""
        if not isinstance(text, str):
            raise CardError(f"a card must be text like 'AS' or '10H', got {text!r}")
        t = text.strip().upper()
        if len(t) < 2:
            raise CardError(f"malformed card {text!r}: expected rank then suit, like 'AS' or '10H'")
        rank = _RANK_PARSE.get(t[:-1])
        if rank is None:
            raise CardError(f"malformed card {text!r}: unknown rank {t[:-1]!r}")
        try:
            suit = Suit.parse(t[-1])
        except CardError:
            raise CardError(f"malformed card {text!r}: unknown suit {t[-1]!r}") from None
        return cls.of(suit, rank)

    @property
    def suit(self) -> Suit:
        return _SUITS[self // 13]

    @property
    def rank(self) -> Rank:
        return _RANKS[self % 13]

    @property
    def bit(self) -> int:
        return 1 << self

    @property
    def text(self) -> str:
        """Canonical text, e.g. ``AS``, ``10H``."""
        return _RANK_LABELS[self % 13] + "SHCD"[self // 13]

    @property
    def pretty(self) -> str:
        """Text with the suit symbol, e.g. ``A♠``."""
        return _RANK_LABELS[self % 13] + "♠♥♣♦"[self // 13]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


_SUITS = tuple(Suit)
_RANKS = tuple(Rank)
_DECK: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(52))
DECK: tuple[Card, ...] = _DECK


def mask_of(cards: Iterable[Card | int]) -> int:
    """Bit mask of some cards.

    >>> mask_of([Card.parse("2S"), Card.parse("3S")])
    3
    """
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> tuple[Card, ...]:
    """Cards in a mask, lowest index first (spades low to high, then hearts...).

    >>> cards_of(3)
    (Card('2S'), Card('3S'))
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(_DECK[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def iter_cards(mask: int) -> Iterator[Card]:
    while mask:
        low = mask & -mask
        yield _DECK[low.bit_length() - 1]
        mask ^= low


def parse_cards(texts: Iterable[str] | str) -> tuple[Card, ...]:
    """Parse cards from a list of strings or one space/comma separated string.

    >>> parse_cards("AS 10H, 2c")
    (Card('AS'), Card('10H'), Card('2C'))
    """
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    return tuple(Card.parse(t) for t in texts)


def highest_in(mask: int, suit: Suit) -> Card | None:
    """The highest card of ``suit`` in ``mask``, if any."""
    m = mask & SUIT_MASKS[suit]
    return _DECK[m.bit_length() - 1] if m else None


def above(card: int) -> int:
    """Mask of every card of the same suit ranked above ``card``."""
    return SUIT_MASKS[card // 13] & ~((2 << card) - 1)


def sort_for_display(cards: Iterable[Card], suit_order: tuple[Suit, ...] = (
        Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)) -> list[Card]:
    """Group by suit (spades first, colours alternating) and rank high to low."""
    order = {s: i for i, s in enumerate(suit_order)}
    return sorted(cards, key=lambda c: (order[c.suit], -c.rank))


# --- the public bot-tournament protocol's card strings: rank in 23456789TJQK1, then suit ---

_PROTO_RANKS = "23456789TJQK1"


def to_protocol(card: Card) -> str:
    """Card as the tournament protocol writes it (``1S`` = ace of spades, ``TS`` = ten).

    >>> to_protocol(Card.parse("AS")), to_protocol(Card.parse("10S"))
    ('1S', 'TS')
    """
    return _PROTO_RANKS[card % 13] + "SHCD"[card // 13]


def from_protocol(text: str) -> Card:
    """Parse a tournament protocol card string; raise :class:`CardError` if malformed.

    >>> from_protocol("1S"), from_protocol("TD")
    (Card('AS'), Card('10D'))
    """
    if not isinstance(text, str) or len(text) != 2:
        raise CardError(f"malformed protocol card {text!r}: expected two characters like '1S' or 'TD'")
    r = _PROTO_RANKS.find(text[0].upper())
    s = "SHCD".find(text[1].upper())
    if r < 0 or s < 0:
        raise CardError(f"malformed protocol card {text!r}: rank must be one of 23456789TJQK1 "
                        "and suit one of S H C D")
    return _DECK[s * 13 + r]
