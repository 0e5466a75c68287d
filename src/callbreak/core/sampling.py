"""Hidden hands consistent with what one seat knows: determinization for search bots.

A seat sees its own hand, the cards played and the public inference of the play (``view.caps``:
per seat and suit, the highest card the seat may still hold; voids, "could not beat" caps and
side-off declarations all become caps). :class:`HandSampler` draws complete deals of the unseen
cards that agree with all of it, **exactly uniformly** over every consistent deal, and never fails
when one exists.

How: every unseen card is classed by the set of seats that may hold it (at most 15 classes).
A deal is then a choice, per class, of how many of its cards each seat receives, times the ways to
pick those cards. Counting completions with a small memoized recursion over the seats' remaining
capacities gives exact weights, so a sample is drawn class by class with the right probability
(no rejection, no retries), then the cards of each class are shuffled among the seats given
counts. Building the table is done once per view; each sample then costs a few dozen
microseconds.

:func:`sample_by_calls` additionally treats the calls as evidence of strength, by importance
resampling of uniform samples with a simple likelihood of each call given the hand.

>>> import random
>>> from callbreak.core.dealing import Dealer
>>> from callbreak.core.match import Match
>>> from callbreak.core.rules import make_rules
>>> m, d = Match(make_rules("callbreak")), Dealer(seed=3)
>>> m.apply(d.chance(m)); m.apply(d.chance(m))
>>> hands = sample_hands(m.view(0), random.Random(1))
>>> hands[0] == m.hands[0], [h.bit_count() for h in hands]
(True, [13, 13, 13, 13])
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Sequence

from callbreak.core.cards import FULL_DECK, SUIT_MASKS
from callbreak.core.errors import CallbreakError
from callbreak.core.rules import Rules
from callbreak.core.view import SeatView

PLAYERS = 4

Hands = tuple[int, int, int, int]


class SamplingError(CallbreakError):
    """No deal of the unseen cards agrees with the view (the view contradicts itself)."""


def allowed_mask(caps: Sequence[int]) -> int:
    """The cards a seat with these per-suit caps may still hold.

    >>> allowed_mask([12, 25, 38, 51]) == FULL_DECK
    True
    >>> allowed_mask([-1, 25, 38, 51]) & SUIT_MASKS[0]  # void in spades
    0
    """
    mask = 0
    for suit, cap in enumerate(caps):
        if cap >= suit * 13:
            mask |= SUIT_MASKS[suit] & ((2 << cap) - 1)
    return mask


class HandSampler:
    """Uniform random deals of the unseen cards consistent with ``view``.

    Raises :class:`SamplingError` if the view allows no deal at all.
    """

    __slots__ = ("hands", "unknown", "sizes", "classes", "_counts", "_choices")

    def __init__(self, view: SeatView) -> None:
        fixed = [0] * PLAYERS
        if view.seat is not None and view.hand is not None:
            for c in view.hand:
                fixed[view.seat] |= 1 << c
        played = 0
        for c in view.played:
            played |= 1 << c
        self.hands = tuple(fixed)
        self.unknown = tuple(s for s in range(PLAYERS)
                             if not (s == view.seat and view.hand is not None))
        self.sizes = tuple(view.hand_sizes[s] for s in self.unknown)
        pool = FULL_DECK & ~played
        for h in fixed:
            pool &= ~h
        if sum(self.sizes) != pool.bit_count():
            raise SamplingError(f"{pool.bit_count()} unseen cards cannot fill hands of "
                                f"{', '.join(map(str, self.sizes))} cards")
        allowed = [allowed_mask(view.caps[s]) for s in self.unknown]
        groups: dict[tuple[int, ...], list[int]] = {}
        m = pool
        while m:
            low = m & -m
            index = low.bit_length() - 1
            m ^= low
            who = tuple(i for i, a in enumerate(allowed) if a >> index & 1)
            if not who:
                raise SamplingError(f"card index {index} is unseen but no seat may hold it")
            groups.setdefault(who, []).append(index)
        # Most constrained classes first: their splits are few, which keeps the table small.
        self.classes: list[tuple[tuple[int, ...], tuple[int, ...]]] = sorted(
            ((who, tuple(cards)) for who, cards in groups.items()), key=lambda g: (len(g[0]), g[0]))
        self._counts: dict[tuple[int, tuple[int, ...]], int] = {}
        self._choices: dict[tuple[int, tuple[int, ...]],
                            tuple[list[tuple[int, ...]], list[int]]] = {}
        if self.count == 0:
            raise SamplingError("no deal of the unseen cards fits every seat's known voids and caps")

    @property
    def count(self) -> int:
        """The exact number of consistent deals."""
        return self._count(0, self.sizes)

    def _splits(self, k: int, room: tuple[int, ...]) -> tuple[list[tuple[int, ...]], list[int]]:
        """Ways to share class ``k`` among its seats given their ``room``, with cumulative
        weights (ways to pick the cards x ways to complete the deal)."""
        key = (k, room)
        got = self._choices.get(key)
        if got is not None:
            return got
        who, cards = self.classes[k]
        splits: list[tuple[int, ...]] = []
        cumulative: list[int] = []
        total = 0
        for split in _compositions(len(cards), [room[i] for i in who]):
            rest = list(room)
            ways = math.factorial(len(cards))
            for i, n in zip(who, split, strict=True):
                rest[i] -= n
                ways //= math.factorial(n)
            weight = ways * self._count(k + 1, tuple(rest))
            if weight:
                total += weight
                splits.append(split)
                cumulative.append(total)
        self._choices[key] = (splits, cumulative)
        return splits, cumulative

    def _count(self, k: int, room: tuple[int, ...]) -> int:
        if k == len(self.classes):
            return 1 if not any(room) else 0
        key = (k, room)
        got = self._counts.get(key)
        if got is None:
            cumulative = self._splits(k, room)[1]
            got = self._counts[key] = cumulative[-1] if cumulative else 0
        return got

    def draw_splits(self, rng: random.Random) -> list[tuple[int, ...]]:
        """The first half of a sample: for each class (in :attr:`classes` order), how many of
        its cards each of its seats receives, drawn with the exact weights. Which cards go
        where is then a uniform shuffle within each class (fast samplers do that part in bulk).
        """
        room = self.sizes
        out = []
        for k, (who, _) in enumerate(self.classes):
            splits, cumulative = self._splits(k, room)
            if len(splits) == 1:
                split = splits[0]  # forced (common): no random draw needed
            else:
                split = splits[bisect.bisect_right(cumulative, rng.randrange(cumulative[-1]))]
            out.append(split)
            rest = list(room)
            for i, n in zip(who, split, strict=True):
                rest[i] -= n
            room = tuple(rest)
        return out

    def sample(self, rng: random.Random) -> Hands:
        """One deal: every seat's remaining hand as a card mask (the known hand as it is)."""
        hands = list(self.hands)
        for (who, cards), split in zip(self.classes, self.draw_splits(rng), strict=True):
            order = list(cards)
            rng.shuffle(order)
            at = 0
            for i, n in zip(who, split, strict=True):
                seat = self.unknown[i]
                for c in order[at:at + n]:
                    hands[seat] |= 1 << c
                at += n
        return hands[0], hands[1], hands[2], hands[3]


def _compositions(total: int, limits: Sequence[int]) -> list[tuple[int, ...]]:
    """Every way to write ``total`` as ``len(limits)`` parts with part i in ``0..limits[i]``."""
    if len(limits) == 1:
        return [(total,)] if total <= limits[0] else []
    out: list[tuple[int, ...]] = []
    rest_max = sum(limits[1:])
    for first in range(max(0, total - rest_max), min(total, limits[0]) + 1):
        out.extend((first,) + tail for tail in _compositions(total - first, limits[1:]))
    return out


def sample_hands(view: SeatView, rng: random.Random) -> Hands:
    """One uniformly random deal of the unseen cards consistent with ``view``.

    Build a :class:`HandSampler` once instead when drawing many samples from one view.
    """
    return HandSampler(view).sample(rng)


# --- calls as evidence ---------------------------------------------------------------------


def estimated_tricks(hand: int, rules: Rules) -> float:
    """A quick count of the tricks a 13-card hand should take (aces, guarded kings, spade length).

    >>> from callbreak.core.cards import mask_of, parse_cards
    >>> from callbreak.core.rules import make_rules
    >>> round(estimated_tricks(mask_of(parse_cards("AS KS QS JS 10S AH KH AD 2C 3C 4C 5C 6C")),
    ...                        make_rules("callbreak")), 1)
    7.6
    """
    del rules  # the estimate is the same under every option; kept for future refinements
    tricks = 0.0
    for suit in range(4):
        cards = hand & SUIT_MASKS[suit]
        length = cards.bit_count()
        top = cards >> (suit * 13)
        ace, king, queen = top >> 12 & 1, top >> 11 & 1, top >> 10 & 1
        if suit == 0:
            tricks += ace + king * (1.0 if length >= 2 else 0.5) + queen * (0.8 if length >= 3 else 0.3)
            tricks += max(0, length - 3) * 0.8
        else:
            tricks += ace * (0.95 if length <= 5 else 0.7)
            tricks += king * (0.75 if 2 <= length <= 4 else 0.3)
            tricks += queen * (0.3 if 3 <= length <= 4 else 0.0)
    spades = (hand & SUIT_MASKS[0]).bit_count()
    short = sum(1 for s in (1, 2, 3) if (hand & SUIT_MASKS[s]).bit_count() <= 1)
    tricks += min(short, max(0, spades - 2)) * 0.5  # ruffing chances
    return tricks


CALL_SPREAD = 1.6  # tricks: how far a call typically strays from the quick estimate


def call_likelihood(hand: int, call: int, rules: Rules, spread: float = CALL_SPREAD) -> float:
    """How plausible ``call`` is for a player dealt ``hand`` (unnormalized, in (0, 1])."""
    gap = call - estimated_tricks(hand, rules)
    return math.exp(-gap * gap / (2 * spread * spread))


def sample_by_calls(sampler: HandSampler, view: SeatView, rng: random.Random,
                    candidates: int = 8) -> Hands:
    """A deal consistent with ``view`` and weighted by how well each hidden hand fits its call.

    Draws ``candidates`` uniform deals and picks one in proportion to the product, over the
    other seats that have called (and not blind), of :func:`call_likelihood` of the hand they
    were dealt (the sampled remaining cards plus the cards they have played this deal).
    """
    played_by = [0] * PLAYERS
    for trick in view.tricks:
        for i, c in enumerate(trick.cards):
            played_by[trick.seats[i]] |= 1 << c
    for seat, c in zip(view.trick_seats, view.trick, strict=True):
        played_by[seat] |= 1 << c
    evidence = [s for s in range(PLAYERS)
                if s != view.seat and view.calls[s] is not None and not view.blind[s]]
    if not evidence or candidates <= 1:
        return sampler.sample(rng)
    pool = [sampler.sample(rng) for _ in range(candidates)]
    weights = []
    for hands in pool:
        w = 1.0
        for s in evidence:
            call = view.calls[s]
            assert call is not None
            w *= call_likelihood(hands[s] | played_by[s], call, view.rules)
        weights.append(w)
    return rng.choices(pool, weights=weights)[0]
