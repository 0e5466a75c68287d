"""Cards and suits named in words, as players of each language say them ("king of spades").

The terminal game, the review and the server name a card in a sentence through
:func:`card_name` and a suit through :func:`suit_name`; the hand and the table keep the printed
faces (``K♠``). Each card is a whole message of the ``cards`` domain, since languages join rank
and suit differently (Hindi's "पान की बेगम" but "पान का बादशाह").
"""

from __future__ import annotations

from callbreak.core.cards import Card, Suit
from callbreak.core.words import N_  # (the one marker the catalog tools read)
from callbreak.i18n import gettext_for

DOMAIN = "cards"

_SUITS = (N_("spades"), N_("hearts"), N_("clubs"), N_("diamonds"))  # in Suit's order

# In Card's order (Suit's order, two to ace within each suit).
_CARDS = (
    # spades: two to ace
    N_("two of spades"), N_("three of spades"), N_("four of spades"), N_("five of spades"),
    N_("six of spades"), N_("seven of spades"), N_("eight of spades"), N_("nine of spades"),
    N_("ten of spades"), N_("jack of spades"), N_("queen of spades"), N_("king of spades"),
    N_("ace of spades"),
    # hearts: two to ace
    N_("two of hearts"), N_("three of hearts"), N_("four of hearts"), N_("five of hearts"),
    N_("six of hearts"), N_("seven of hearts"), N_("eight of hearts"), N_("nine of hearts"),
    N_("ten of hearts"), N_("jack of hearts"), N_("queen of hearts"), N_("king of hearts"),
    N_("ace of hearts"),
    # clubs: two to ace
    N_("two of clubs"), N_("three of clubs"), N_("four of clubs"), N_("five of clubs"),
    N_("six of clubs"), N_("seven of clubs"), N_("eight of clubs"), N_("nine of clubs"),
    N_("ten of clubs"), N_("jack of clubs"), N_("queen of clubs"), N_("king of clubs"),
    N_("ace of clubs"),
    # diamonds: two to ace
    N_("two of diamonds"), N_("three of diamonds"), N_("four of diamonds"),
    N_("five of diamonds"), N_("six of diamonds"), N_("seven of diamonds"),
    N_("eight of diamonds"), N_("nine of diamonds"), N_("ten of diamonds"),
    N_("jack of diamonds"), N_("queen of diamonds"), N_("king of diamonds"),
    N_("ace of diamonds"),
)


def suit_name(suit: Suit, lang: str) -> str:
    """``hearts``, ``पान``, ``হরতন``.

    >>> suit_name(Suit.SPADES, "ne")
    'हुकुम'
    """
    return gettext_for(lang, DOMAIN)(_SUITS[suit])


def card_name(card: Card, lang: str) -> str:
    """A card in words: ``king of spades``, ``हुकुमको बादशाह``, ``ইস্কাপনের সাহেব``.

    >>> card_name(Card.parse("KS"), "en"), card_name(Card.parse("QH"), "hi")
    ('king of spades', 'पान की बेगम')
    """
    return gettext_for(lang, DOMAIN)(_CARDS[card])
