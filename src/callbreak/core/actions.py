"""Actions: small frozen values that round-trip to JSON.

Chance steps (the first-dealer draw and the deal) are actions too, made by the "chance" seat
(:data:`CHANCE`), so that the rules never touch a random generator and a record is just a list
of actions.

>>> Play(seat=2, card=Card.parse("QH")).to_json()
{'type': 'play', 'seat': 2, 'card': 'QH'}
>>> action_from_json({'type': 'call', 'seat': 1, 'tricks': 4})
Call(seat=1, tricks=4, blind=False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from callbreak.core.cards import Card
from callbreak.core.errors import CallbreakError, RecordError

CHANCE = -1
"""The seat number of chance: who draws for dealer and deals the cards."""


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
    """The cards dealt to each seat, seat 0 first."""

    hands: tuple[tuple[Card, ...], ...]
    kind: ClassVar[str] = "deal"
    actor: ClassVar[int] = CHANCE

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "hands": [[c.text for c in h] for h in self.hands]}


@dataclass(frozen=True, slots=True)
class Look:
    """With blind calls on: the seat looks at its cards (and so may no longer call blind)."""

    seat: int
    kind: ClassVar[str] = "look"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Redeal:
    """A weak-hand claim decision: ``claim=True`` shows the hand and demands a redeal."""

    seat: int
    claim: bool
    kind: ClassVar[str] = "redeal"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat, "claim": self.claim}


@dataclass(frozen=True, slots=True)
class Call:
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
class Play:
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


Action = ChooseDealer | Draw | Deal | Look | Redeal | Call | Play | Stop


def action_seat(action: Action) -> int:
    """The seat making the action (:data:`CHANCE` for chance steps and stopping)."""
    return getattr(action, "seat", CHANCE) if not isinstance(action, ChooseDealer) else CHANCE


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
            return Deal(hands=tuple(tuple(Card.parse(c) for c in h) for h in hands))
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
    except KeyError as e:
        raise RecordError(f"{kind} action is missing {e.args[0]!r}: {data!r}") from None
    except TypeError:
        raise RecordError(f"malformed {kind} action: {data!r}") from None
    except CallbreakError as e:
        if isinstance(e, RecordError):
            raise
        raise RecordError(f"malformed {kind} action {data!r}: {e}") from None
    raise RecordError(f"unknown action type {kind!r}")


def _int(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise RecordError(f"expected a whole number, got {v!r}")
    return v


def _bool(v: Any) -> bool:
    if not isinstance(v, bool):
        raise RecordError(f"expected true or false, got {v!r}")
    return v
