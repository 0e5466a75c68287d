"""What goes over the wire: seat views as JSON built by allow-list, and message checks.

Nothing here reads the match: it only turns a :class:`~callbreak.core.SeatView` (which already
holds only what one seat may know) into JSON, field by named field.
"""

from __future__ import annotations

import json
from typing import Any

from callbreak.core import Action, CallbreakError, Card, SeatView, action_from_json

MAX_MESSAGE_BYTES = 4096
"""The largest client message accepted; real messages are a few hundred bytes."""

CLIENT_ACTIONS = {"play", "call", "look", "redeal"}
"""Action kinds a client may send; chance steps (draw, deal, stop) belong to the server."""


class MessageError(CallbreakError):
    """A client message we refuse; ``code`` is a short machine-readable reason."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


_TEXT = [Card(i).text for i in range(52)]  # card texts by index: views are built very often


def cards_json(cards: tuple[Card, ...] | None) -> list[str] | None:
    return None if cards is None else [_TEXT[c] for c in cards]


def view_json(view: SeatView) -> dict[str, Any]:
    """A seat view as JSON: only the fields listed here ever leave the server."""
    return {**public_json(view), **personal_json(view)}


def personal_json(view: SeatView) -> dict[str, Any]:
    """The fields of a view that belong to its seat alone."""
    return {"seat": view.seat, "hand": cards_json(view.hand), "looked": view.looked,
            "legal": [a.to_json() for a in view.legal]}


def public_json(view: SeatView) -> dict[str, Any]:
    """The fields of a view that are the same for every seat (and for spectators)."""
    redeal = view.redeal
    return {
        "phase": view.phase.value,
        "deal_number": view.deal_number,
        "deals": view.rules.deals,
        "dealer": view.dealer,
        "to_act": view.to_act,
        "hand_sizes": list(view.hand_sizes),
        "calls": list(view.calls),
        "blind": list(view.blind),
        "won": list(view.won),
        "trump": view.trump.letter if view.trump is not None else None,
        "leader": view.leader,
        "trick": cards_json(view.trick),
        "trick_seats": list(view.trick_seats),
        "tricks": [{"leader": t.leader, "cards": cards_json(t.cards), "winner": t.winner}
                   for t in view.tricks],
        "totals": list(view.totals),
        "results": [{"number": r.number, "dealer": r.dealer, "calls": list(r.calls),
                     "blind": list(r.blind), "won": list(r.won), "points": list(r.points),
                     "tiebreak": r.tiebreak} for r in view.results],
        "redeal": None if redeal is None else {"reason": redeal.reason, "seat": redeal.seat,
                                                "shown": cards_json(redeal.shown)},
        "tiebreak_seats": list(view.tiebreak_seats),
        "winners": list(view.winners),
        "chips": None if view.chips is None else list(view.chips),
        "call_range": [view.rules.min_call, view.rules.max_call],
        "blind_calls": view.rules.blind_call,
        "partnership": view.rules.partnership,
    }


def dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


def state_text(shared: dict[str, Any], public: str | None, seat: int | None,
               personal: dict[str, Any] | None) -> str:
    """One seat's state message as text, spliced from parts encoded once per broadcast.

    ``public`` is the encoded :func:`public_json` of the spectator view; ``personal`` the seat's
    own fields. The result is the same JSON as ``{**shared, "you": seat, "view": {...}}``.
    """
    head = dumps(shared)[:-1]
    you = dumps(seat)
    if public is None:
        return f'{head},"you":{you},"view":null}}'
    if personal is None:
        return f'{head},"you":{you},"view":{public}}}'
    return f'{head},"you":{you},"view":{public[:-1]},{dumps(personal)[1:]}}}'


def parse_message(text: str | bytes) -> dict[str, Any]:
    """Decode one client message; refuse oversized, non-JSON and non-object messages."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise MessageError("too_large", f"message too large: {len(text)} bytes, the limit is "
                                        f"{MAX_MESSAGE_BYTES}")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as e:
        raise MessageError("malformed", f"message is not valid JSON: {e}") from None
    except RecursionError:
        raise MessageError("malformed", "message is nested too deeply") from None
    if not isinstance(data, dict):
        raise MessageError("malformed", "message must be a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise MessageError("malformed", "message needs a string field 'type'")
    return data


def parse_action(data: Any, seat: int) -> Action:
    """The action a client sent for ``seat``; its seat may be omitted but not wrong."""
    if not isinstance(data, dict):
        raise MessageError("malformed", "'action' must be an object like {\"type\": \"play\", \"card\": \"AS\"}")
    kind = data.get("type")
    if kind not in CLIENT_ACTIONS:
        raise MessageError("malformed", f"unknown action type {kind!r}; a player may send "
                                        f"{', '.join(sorted(CLIENT_ACTIONS))}")
    given = data.get("seat", seat)
    if given != seat or isinstance(given, bool):
        raise MessageError("wrong_seat", f"your token is for seat {seat}, not seat {given!r}")
    try:
        return action_from_json({**data, "seat": seat})
    except CallbreakError as e:
        raise MessageError("malformed", str(e)) from None


def error_json(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}
