"""What one seat may know: the per-seat view, built by allow-list.

A :class:`SeatView` holds only tuples, ints and frozen values copied out of the match; it has no
reference back to the state. It is the only thing bots, terminals, web clients and protocol
responses ever receive.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from callbreak.core.cards import SUIT_MASKS, Card, Suit, cards_of
from callbreak.core.game import TrickView
from callbreak.core.rules import Rules, Trump
from callbreak.core.words import Words


@dataclass(frozen=True, slots=True)
class RedealNotice:
    """Why the last deal was thrown in; ``shown`` is a claimant's hand, shown to everyone."""

    reason: str  # the English, as records and logs read it
    seat: int | None
    shown: tuple[Card, ...] = ()
    words: Words | None = None  # the reason as a message id and values, for the reader's language


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatView(TrickView):
    """Everything ``seat`` may know of a Call Break match, and nothing more (``seat`` None: a
    spectator): every trick game's view, and what Call Break's contract keeps."""

    rules: Rules
    looked: bool  # whether this seat has seen its cards (blind calls)
    calls: tuple[int | None, ...]
    blind: tuple[bool, ...]
    caps: tuple[tuple[int, ...], ...]  # per seat, per suit: highest card index it may still hold
    redeal: RedealNotice | None
    tiebreak_seats: tuple[int, ...]
    chips: tuple[float, ...] | None

    # What a client may be sent of this view, by name (see TrickView): the same for every seat,
    # then the seat's own.
    PUBLIC_FIELDS: ClassVar[tuple[str, ...]] = (
        "phase", "deal_number", "deal_limit", "dealer", "to_act", "hand_sizes", "calls", "blind", "won",
        "trump", "leader", "trick", "trick_seats", "tricks", "totals", "results", "redeal",
        "tiebreak_seats", "winners", "chips", "call_range", "blind_calls", "partnership",
    )
    PRIVATE_FIELDS: ClassVar[tuple[str, ...]] = ("seat", "hand", "looked", "legal")

    @property
    def game(self) -> str:
        """The registry name of the game: Call Break's engine plays one (Call Bridge is presets)."""
        return "callbreak"

    @property
    def options(self) -> Rules:
        """The game's options (the protocol's name for them): the rules."""
        return self.rules

    @property
    def call_range(self) -> tuple[int, int]:
        return (self.rules.min_call, self.rules.max_call)

    @property
    def fixed_trump(self) -> Suit | None:
        """Spades, before any deal too, unless the rules name no fixed trump."""
        return Suit.SPADES if self.rules.trump is Trump.SPADES else None

    @property
    def contract_word(self) -> str:
        """Every seat calls."""
        return "call"

    def contract_part(self, seat: int) -> str:
        """Its call ("3", "3b" blind), "-" before it calls."""
        call = self.calls[seat]
        return "-" if call is None else f"{call}{'b' if self.blind[seat] else ''}"

    @property
    def blind_calls(self) -> bool:
        return self.rules.blind_call

    @property
    def partnership(self) -> bool:
        return self.rules.partnership

    # What the related games' views hold and Call Break never has (the protocol's shared
    # vocabulary): no declarer or contract (every seat calls), no upcard, no stock, and the
    # usual ranks.
    @property
    def declarer(self) -> int | None:
        return None

    @property
    def contract(self) -> int | None:
        return None

    @property
    def upcard(self) -> Card | None:
        return None

    @property
    def stock_size(self) -> int:
        return 0

    @property
    def low_high(self) -> bool:
        return False

    @property
    def face_up(self) -> tuple[Card, ...]:
        """A redeal claimant's hand, shown to everyone."""
        return self.redeal.shown if self.redeal is not None else ()

    @property
    def notice(self) -> str:
        return self.redeal.reason if self.redeal is not None else ""

    @property
    def notice_words(self) -> Words | None:
        return self.redeal.words if self.redeal is not None else None

    def voids(self, seat: int) -> frozenset[Suit]:
        """Suits that ``seat`` is publicly known not to hold."""
        return frozenset(s for s in Suit if self.caps[seat][s] < s * 13)

    @property
    def unseen(self) -> tuple[Card, ...]:
        """Cards neither in this seat's hand nor played this deal."""
        mask = (1 << 52) - 1
        for c in self.hand or ():
            mask &= ~(1 << c)
        for c in self.played:
            mask &= ~(1 << c)
        return cards_of(mask)

    def suit_count(self, suit: Suit) -> int:
        return sum(1 for c in self.hand or () if SUIT_MASKS[suit] >> c & 1)
