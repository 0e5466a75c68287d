"""Actions of every game: small frozen values that round-trip to JSON.

One vocabulary serves every registered game. Call Break takes calls (with looks and redeal
claims when its rules have them) and card plays; the related games add bids and passes, naming
trump, saying in or out, exchanging cards with the stock, and the Snarples bidder's choice when
everyone sits out. A game refuses a kind of action it does not have, naming it.

Chance steps (the first-dealer draw, the deal with any upcard or stock) are actions too, made by
the "chance" seat (:data:`CHANCE`), so that the rules never touch a random generator and a record
is just a list of actions.

>>> Play(seat=2, card=Card.parse("QH")).to_json()
{'type': 'play', 'seat': 2, 'card': 'QH'}
>>> Play(seat=2, card=Card.parse("QH")).actor, ChooseDealer(seat=2).actor  # who acts: a seat or CHANCE
(2, -1)
>>> action_from_json({'type': 'call', 'seat': 1, 'tricks': 4})
Call(seat=1, tricks=4, blind=False)
>>> action_from_json({'type': 'join', 'seat': 2, 'playing': False})
Join(seat=2, playing=False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from callbreak.core.cards import Card, Suit
from callbreak.core.errors import CallbreakError, IllegalActionError, RecordError

CHANCE = -1
"""The seat number of chance: who draws for dealer and deals the cards."""


class _BySeat:
    """An action a seat makes (every action declares its ``actor``: chance steps say
    :data:`CHANCE`)."""

    __slots__ = ()
    seat: int

    @property
    def actor(self) -> int:
        """The seat making the action."""
        return self.seat


@dataclass(frozen=True, slots=True)
class ChooseDealer:
    """Chance picks the first dealer (``first_dealer=random``)."""

    seat: int
    kind: ClassVar[str] = "choose_dealer"
    actor: ClassVar[int] = CHANCE

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Draw:
    """Each seat draws one card to decide the first dealer; a tied draw is drawn again."""

    cards: tuple[Card, ...]
    kind: ClassVar[str] = "draw"
    actor: ClassVar[int] = CHANCE

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "cards": [c.text for c in self.cards]}


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards dealt: one hand per seat, seat 0 first (empty for a seat out of the game), the
    face-up card (Donut: the dealer's fifth card; Horsethief: the turned top of the stock), and
    the stock in order from the top (Horsethief only)."""

    hands: tuple[tuple[Card, ...], ...]
    upcard: Card | None = None
    stock: tuple[Card, ...] = ()
    kind: ClassVar[str] = "deal"
    actor: ClassVar[int] = CHANCE

    def hand_masks(self, sizes: Sequence[int]) -> list[int]:
        """Each hand as a card mask, ``sizes`` being the cards each seat is dealt (every game's
        check of a deal's hands; the upcard and the stock are the game's to check).

        Raises :class:`~callbreak.core.errors.IllegalActionError` naming what is malformed: the
        number of hands, a hand's size, something that is not a card, a card dealt twice.
        """
        hands = self.hands
        if not isinstance(hands, (tuple, list)) or len(hands) != len(sizes):
            raise IllegalActionError(f"a deal needs {len(sizes)} hands, one a seat")
        masks = []
        seen = 0
        for s, h in enumerate(hands):
            if not isinstance(h, (tuple, list)):
                raise IllegalActionError(f"hand {s} is not a list of cards: {h!r}")
            if len(h) != sizes[s]:
                raise IllegalActionError(f"hand {s} has {len(h)} cards, not {sizes[s]}")
            m = 0
            for c in h:
                if c.__class__ is not Card:
                    raise IllegalActionError(f"hand {s} holds something that is not a card: {c!r}")
                m |= 1 << c
            if m.bit_count() != len(h) or m & seen:  # a card twice: find the first for the message
                twice = 0
                for c in (c for hand in hands for c in hand):
                    if twice >> c & 1:
                        raise IllegalActionError(f"{c} is dealt twice")
                    twice |= 1 << c
            seen |= m
            masks.append(m)
        return masks

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.kind, "hands": [[c.text for c in h] for h in self.hands]}
        if self.upcard is not None:
            d["upcard"] = self.upcard.text
        if self.stock:
            d["stock"] = [c.text for c in self.stock]
        return d


@dataclass(frozen=True, slots=True)
class Look(_BySeat):
    """With blind calls on: the seat looks at its cards (and so may no longer call blind)."""

    seat: int
    kind: ClassVar[str] = "look"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Redeal(_BySeat):
    """A weak-hand claim decision: ``claim=True`` shows the hand and demands a redeal."""

    seat: int
    claim: bool
    kind: ClassVar[str] = "redeal"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat, "claim": self.claim}


@dataclass(frozen=True, slots=True)
class Call(_BySeat):
    """A call (bid) of a number of tricks; ``blind`` if made without looking at the cards."""

    seat: int
    tricks: int
    blind: bool = False
    kind: ClassVar[str] = "call"

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.kind, "seat": self.seat, "tricks": self.tricks}
        if self.blind:
            d["blind"] = True
        return d


@dataclass(frozen=True, slots=True)
class Play(_BySeat):
    """Play one card to the current trick."""

    seat: int
    card: Card
    kind: ClassVar[str] = "play"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat, "card": self.card.text}


@dataclass(frozen=True, slots=True)
class Stop:
    """With unlimited deals: the table stops between deals and the match ends."""

    kind: ClassVar[str] = "stop"
    actor: ClassVar[int] = CHANCE

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind}


@dataclass(frozen=True, slots=True)
class Bid(_BySeat):
    """A bid (or, in Batak Koz Maca, a call) of a number of tricks in an auction."""

    seat: int
    tricks: int
    kind: ClassVar[str] = "bid"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat, "tricks": self.tricks}


@dataclass(frozen=True, slots=True)
class Pass(_BySeat):
    """A pass in an auction; in Batak and Snarples a pass is final for the hand."""

    seat: int
    kind: ClassVar[str] = "pass"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class NameTrump(_BySeat):
    """The seat entitled to it names the trump suit."""

    seat: int
    suit: Suit
    kind: ClassVar[str] = "trump"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat, "suit": self.suit.letter}


@dataclass(frozen=True, slots=True)
class Join(_BySeat):
    """Play this hand (``playing=True``) or sit out / drop / stay out (``False``)."""

    seat: int
    playing: bool
    kind: ClassVar[str] = "join"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat, "playing": self.playing}


@dataclass(frozen=True, slots=True)
class Exchange(_BySeat):
    """Horsethief: discard these cards (possibly none) and draw as many from the stock."""

    seat: int
    cards: tuple[Card, ...]
    kind: ClassVar[str] = "exchange"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat, "cards": [c.text for c in self.cards]}


@dataclass(frozen=True, slots=True)
class Settle(_BySeat):
    """Snarples, everyone else sat out: the bidder takes -5 (``penalize_others=False``) or gives
    each other player +5."""

    seat: int
    penalize_others: bool
    kind: ClassVar[str] = "settle"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat, "penalize_others": self.penalize_others}


Action = (ChooseDealer | Draw | Deal | Look | Redeal | Call | Play | Stop
          | Bid | Pass | NameTrump | Join | Exchange | Settle)


def action_from_json(data: Any) -> Action:
    """Parse an action from its JSON form; raise :class:`RecordError` saying what is wrong."""
    if not isinstance(data, dict):
        raise RecordError(f"an action must be an object, got {data!r}")
    kind = data.get("type")
    try:
        if kind == "play":
            return Play(seat=_int(data["seat"]), card=Card.parse(data["card"]))
        if kind == "call":
            return Call(seat=_int(data["seat"]), tricks=_int(data["tricks"]),
                        blind=_bool(data.get("blind", False)))
        if kind == "deal":
            hands = data["hands"]
            if not isinstance(hands, list):
                raise RecordError("deal hands must be a list")
            up = data.get("upcard")
            return Deal(hands=tuple(_cards(h) for h in hands),
                        upcard=Card.parse(up) if up is not None else None,
                        stock=_cards(data.get("stock", [])))
        if kind == "look":
            return Look(seat=_int(data["seat"]))
        if kind == "redeal":
            return Redeal(seat=_int(data["seat"]), claim=_bool(data["claim"]))
        if kind == "draw":
            return Draw(cards=tuple(Card.parse(c) for c in data["cards"]))
        if kind == "choose_dealer":
            return ChooseDealer(seat=_int(data["seat"]))
        if kind == "stop":
            return Stop()
        if kind == "bid":
            return Bid(seat=_int(data["seat"]), tricks=_int(data["tricks"]))
        if kind == "pass":
            return Pass(seat=_int(data["seat"]))
        if kind == "trump":
            return NameTrump(seat=_int(data["seat"]), suit=Suit.parse(_str(data["suit"])))
        if kind == "join":
            return Join(seat=_int(data["seat"]), playing=_bool(data["playing"]))
        if kind == "exchange":
            return Exchange(seat=_int(data["seat"]), cards=_cards(data["cards"]))
        if kind == "settle":
            return Settle(seat=_int(data["seat"]), penalize_others=_bool(data["penalize_others"]))
    except KeyError as e:
        raise RecordError(f"{kind} action is missing {e.args[0]!r}: {data!r}") from None
    except TypeError:
        raise RecordError(f"malformed {kind} action: {data!r}") from None
    except CallbreakError as e:
        if isinstance(e, RecordError):
            raise
        raise RecordError(f"malformed {kind} action {data!r}: {e}") from None
    raise RecordError(f"unknown action type {kind!r}")


def _cards(v: Any) -> tuple[Card, ...]:
    if not isinstance(v, list):
        raise RecordError(f"expected a list of cards, got {v!r}")
    return tuple(Card.parse(c) for c in v)


def _str(v: Any) -> str:
    if not isinstance(v, str):
        raise RecordError(f"expected text, got {v!r}")
    return v


def _int(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise RecordError(f"expected a whole number, got {v!r}")
    return v


def _bool(v: Any) -> bool:
    if not isinstance(v, bool):
        raise RecordError(f"expected true or false, got {v!r}")
    return v
