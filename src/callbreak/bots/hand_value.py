"""How many tricks a hand is worth, and which call that makes best.

Two estimates of a hand's tricks: :func:`estimate_tricks`, a count of sure and likely tricks
that also names what makes the hand strong (used to explain a call), and :func:`fitted_tricks`,
a linear model fitted on self-play that predicts the tricks actually taken more closely.
:func:`call_value` turns a distribution of tricks into the expected score of each call under a
rule set's scoring.

>>> from callbreak.core.cards import mask_of, parse_cards
>>> hand = mask_of(parse_cards("AS KS 7S 5S 3S AH 4H 3H 9C 5C 2C 7D 4D"))
>>> estimate_tricks(hand, 0).features
('a long spade suit', 'one ace')
>>> 3.0 < fitted_tricks(hand, 0) < 5.0
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from callbreak.bots.kernel_impl import FITTED_TERMS, fitted_estimate
from callbreak.core.cards import SUIT_MASKS
from callbreak.core.rules import Rules
from callbreak.core.scoring import deal_points

__all__ = ["Estimate", "call_value", "card_name", "estimate_tricks", "fitted_tricks",
           "fitted_weights", "trick_distribution"]

SUIT_WORDS = ("spades", "hearts", "clubs", "diamonds")
SUIT_SINGULAR = ("spade", "heart", "club", "diamond")
_RANK_WORDS = {14: "ace", 13: "king", 12: "queen", 11: "jack"}
# Tenths of a point that a certain match win is worth beside the deal's own score (last deal).
MATCH_WEIGHT = 60.0


def card_name(card: int) -> str:
    """Spoken name of a card, for reasons: ``the ace of hearts``, ``the 7 of clubs``.

    >>> from callbreak.core.cards import Card
    >>> card_name(Card.parse("AH")), card_name(Card.parse("7C"))
    ('the ace of hearts', 'the 7 of clubs')
    """
    rank = card % 13 + 2
    return f"the {_RANK_WORDS.get(rank, str(rank))} of {SUIT_WORDS[card // 13]}"


def popcount(mask: int) -> int:
    return mask.bit_count()


def top_card(mask: int) -> int:
    """Highest card index in a non-empty mask."""
    return mask.bit_length() - 1


def bottom_card(mask: int) -> int:
    """Lowest card index in a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def cards_in(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# --- estimating the tricks a hand will take ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Estimate:
    """Expected tricks of a hand and the features that made it (for the reason phrase)."""

    tricks: float
    features: tuple[str, ...]


def estimate_tricks(hand: int, trump: int) -> Estimate:
    """Expected tricks of ``hand`` (a card mask) with ``trump`` as trump (-1: none).

    >>> from callbreak.core.cards import mask_of, parse_cards
    >>> round(estimate_tricks(mask_of(parse_cards("AS KS QS JS 10S AH AC AD KD 2H 3H 4C 5C")), 0).tricks)
    8
    """
    total = 0.0
    aces = kings = 0
    lengths = [popcount(hand & SUIT_MASKS[s]) for s in range(4)]
    for suit in range(4):
        if suit == trump:
            continue
        part, ace, king = _side_suit_tricks(hand & SUIT_MASKS[suit], suit, lengths[suit], trump < 0)
        total += part
        aces += ace
        kings += king
    features: list[str] = []
    if aces:
        features.append(f"{_count_word(aces)} ace{'s' if aces > 1 else ''}")
    if kings:
        features.append(f"{_count_word(kings)} guarded king{'s' if kings > 1 else ''}")
    if trump >= 0:
        length = lengths[trump]
        high, spare = _trump_tricks(hand & SUIT_MASKS[trump], trump, length)
        total += high
        ruffs = _ruff_tricks(lengths, trump, spare)
        total += ruffs
        word = SUIT_SINGULAR[trump]
        top = hand & SUIT_MASKS[trump] & ~((1 << (trump * 13 + 10)) - 1)  # Q, K, A of trump
        if length >= 5:
            features.insert(0, f"a long {word} suit")
        elif popcount(top) >= 2:
            features.append(f"top {SUIT_WORDS[trump]}")
        if ruffs >= 0.5:
            features.append("a short suit to ruff")
    if not features:
        features.append("no sure winners")
    return Estimate(min(total, 13.0), tuple(features))


# Weights of a linear model of tricks won, fitted by least squares on 16,000 hands of heuristic
# self-play (callbreak preset); out of sample its error spread is 0.87 tricks against 0.95 for
# the hand count above. Side-suit features are summed over the three side suits.
_WEIGHTS = {
    "ace": 0.993, "long_ace": 0.865, "king_with_ace": 0.677, "long_king_with_ace": 0.173,
    "guarded_king": 0.683, "long_guarded_king": 0.337, "queen_with_ace_king": 0.099,
    "queen_with_one_honour": 0.149, "guarded_queen": 0.201, "short_queen": 0.081,
    "void": 0.990, "singleton": 0.702, "doubleton": 0.359,
    "trump_ace": 0.915, "trump_king": 0.769, "bare_trump_king": -0.303, "trump_queen": 0.584,
    "short_trump_queen": -0.145, "trump_jack": 0.417, "trump_ten": 0.301,
    "trump_length": 0.284, "trump_length_over_3": 0.222, "trump_length_over_5": 0.161,
    "ruff_potential": 0.288,
}
_INTERCEPT = -0.339


def fitted_weights(terms: Sequence[str]) -> list[float]:
    """The fitted model's weights in the order of ``terms`` (``"intercept"`` for the constant),
    as :func:`callbreak.bots.kernel_impl.fitted_estimate` reads them."""
    return [_INTERCEPT if t == "intercept" else _WEIGHTS[t] for t in terms]


_FITTED = fitted_weights(FITTED_TERMS)


def fitted_tricks(hand: int, trump: int) -> float:
    """Expected tricks of ``hand`` with ``trump`` as trump, from the fitted linear model.

    >>> from callbreak.core.cards import mask_of, parse_cards
    >>> nothing = mask_of(parse_cards("2H 3H 4H 5H 6H 2C 3C 4C 5C 2D 3D 4D 5D"))
    >>> round(fitted_tricks(nothing, 0), 1)
    0.0
    """
    # One definition of the model, shared with the search's compiled kernel.
    return fitted_estimate(hand, trump, _FITTED)


def _count_word(n: int) -> str:
    return ("no", "one", "two", "three", "four")[n] if n < 5 else str(n)


def _side_suit_tricks(cards: int, suit: int, length: int, no_trump: bool) -> tuple[float, int, int]:
    """Likely tricks from one non-trump suit; also whether it holds an ace, a guarded king."""
    if not length:
        return 0.0, 0, 0
    base = suit * 13
    has = [bool(cards >> (base + r) & 1) for r in range(13)]  # has[12] = ace
    ace, king, queen = has[12], has[11], has[10]
    tricks = 0.0
    guarded_king = 0
    if ace:
        tricks += 0.95 if length <= 6 else 0.75
    if king:
        if ace:
            tricks += 0.85 if length <= 4 else 0.6
        elif length >= 2:
            tricks += 0.55 if length <= 4 else 0.35
            guarded_king = 1
        else:
            tricks += 0.15
    if queen:
        if ace and king:
            tricks += 0.55 if length <= 3 else 0.35
        elif (ace or king) and length >= 3:
            tricks += 0.35
        elif length >= 3:
            tricks += 0.2
    if no_trump and length > 4:
        tricks += 0.5 * (length - 4)  # with no trump a long suit runs
    return tricks, int(ace), guarded_king


def _trump_tricks(cards: int, trump: int, length: int) -> tuple[float, int]:
    """Tricks from the trump suit: top trumps, then length; and the spare low trumps."""
    if not length:
        return 0.0, 0
    base = trump * 13
    has = [bool(cards >> (base + r) & 1) for r in range(13)]
    tricks = 0.0
    honours = 0
    if has[12]:
        tricks += 1.0
        honours += 1
    if has[11]:
        tricks += 1.0 if (has[12] or length >= 2) else 0.5
        honours += 1
    if has[10]:
        tricks += 0.9 if (length >= 3 or (has[12] and has[11])) else 0.4
        honours += 1
    if has[9] and length >= 4:
        tricks += 0.9 if (has[12] and has[11] and has[10]) else 0.6
        honours += 1
    low = length - honours
    long_tricks = min(low, max(0, length - 3))
    tricks += 0.85 * long_tricks
    return tricks, max(0, low - long_tricks)


def _ruff_tricks(lengths: Sequence[int], trump: int, spare: int) -> float:
    """Tricks from ruffing short side suits with spare trumps."""
    if spare <= 0:
        return 0.0
    out = 0.0
    for suit in sorted((s for s in range(4) if s != trump), key=lambda s: lengths[s]):
        if spare <= 0:
            break
        n = lengths[suit]
        if n == 0:
            use = min(spare, 2)
            out += 0.75 * use
        elif n == 1:
            use = 1
            out += 0.55
        elif n == 2:
            use = 1
            out += 0.25
        else:
            break
        spare -= use
    return out


# --- choosing a call ---------------------------------------------------------------------------


def trick_distribution(mean: float, spread: float) -> list[float]:
    """A discrete distribution over 0..13 tricks around ``mean`` (a rounded normal).

    >>> d = trick_distribution(3.0, 1.0)
    >>> round(sum(d), 6), max(range(14), key=lambda k: d[k])
    (1.0, 3)
    """
    weights = [math.exp(-((k - mean) ** 2) / (2 * spread * spread)) for k in range(14)]
    total = sum(weights)
    return [w / total for w in weights]


def call_value(call: int, dist: Sequence[float], rules: Rules, *, blind: bool = False,
               offset: int = 0, target: float | None = None) -> float:
    """Expected points (tenths) of calling ``call`` when tricks follow ``dist``.

    ``offset`` adds to both the call and the tricks (a partner's call, counted as made).
    With a ``target`` (tenths), the value adds :data:`MATCH_WEIGHT` for each unit of probability
    that the deal scores more than the target: in the last deal, winning the match counts too.
    """
    ev = 0.0
    reach = 0.0
    for won, p in enumerate(dist):
        if p < 1e-6:
            continue
        pts = deal_points(call + offset, won + offset, rules, blind=blind)
        ev += p * pts
        if target is not None and pts > target:
            reach += p
    return ev + (MATCH_WEIGHT * reach if target is not None else 0.0)
