"""What goes over the wire: seat views as JSON built by allow-list, and message checks.

Nothing here reads the game: it only turns a seat's view of any game (which already holds only
what one seat may know) into JSON, field by field, naming only the fields the view's class lists
in its allow-list (``PUBLIC_FIELDS``, then ``PRIVATE_FIELDS`` for the seat's own).
"""

from __future__ import annotations

import dataclasses
import json
import re
from enum import Enum
from typing import Any

from callbreak.core import Action, CallbreakError, Card, Play, Suit, action_from_json, wellformed
from callbreak.core.errors import (
    CallOutOfRangeError,
    IllegalActionError,
    IllegalPlayError,
    NotYourTurnError,
    RecordError,
    WrongPhaseError,
)
from callbreak.core.game import GameView
from callbreak.core.words import N_  # (the one marker the catalog tools read)
from callbreak.i18n import DEFAULT, format_number, gettext_for, supported

MAX_MESSAGE_BYTES = 4096
"""The largest client message accepted; real messages are a few hundred bytes."""

CLIENT_ACTIONS = {"play", "call", "look", "redeal", "bid", "pass", "trump", "join", "exchange", "settle"}
"""Action kinds a client may send (a game refuses those it does not have); chance steps (draw,
deal, stop) belong to the server."""



def say(lang: str, message: str, params: dict[str, Any] | None = None) -> str:
    """``message`` in ``lang``, its {placeholders} filled from ``params`` (numbers in the
    language's digits)."""
    text = gettext_for(lang, "server")(message)
    if not params:
        return text
    return text.format(**{k: format_number(v, lang) if isinstance(v, int) and not isinstance(v, bool) else v
                          for k, v in params.items()})


class MessageError(CallbreakError):
    """A client message we refuse; ``code`` is a short machine-readable reason, ``message`` the
    English text: a message marked ``N_`` with its {placeholders} in ``params``, told to each
    person in their language by :meth:`text`. ``english``: the English text when it says more
    than the message (an engine's own words, which are not translated)."""

    def __init__(self, code: str, message: str, /, *, english: str | None = None, **params: Any) -> None:
        text = english if english is not None else message.format(**params) if params else message
        super().__init__(text)
        self.code = code
        self.message = text
        self.template = message
        self.params = params

    def text(self, lang: str) -> str:
        """The refusal in ``lang`` (a language we do not speak: English)."""
        if (supported(lang) or DEFAULT) == DEFAULT:
            return self.message
        return say(lang, self.template, self.params)


_TEXT = [Card(i).text for i in range(52)]  # card texts by index: views are built very often


def cards_json(cards: tuple[Card, ...] | None) -> list[str] | None:
    return None if cards is None else [_TEXT[c] for c in cards]


def public_action_json(action: Any) -> dict[str, Any]:
    """An action as every seat may see it: which cards went back to a stock in an exchange stay
    private (only how many)."""
    data: dict[str, Any] = action.to_json()
    if data.get("type") == "exchange":
        return {"type": "exchange", "seat": data.get("seat"), "count": len(data.get("cards") or ())}
    return data


def plain(value: Any) -> Any:
    """A view's value as JSON: cards by text, suits by letter, actions and options by their own
    JSON, records of a deal or trick field by field."""
    if isinstance(value, Card):
        return _TEXT[value]
    if isinstance(value, Suit):
        return value.letter
    if isinstance(value, Enum):
        return value.value
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    to_json = getattr(value, "to_json", None) or getattr(value, "to_dict", None)
    if to_json is not None:
        return to_json()
    if dataclasses.is_dataclass(value):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    raise TypeError(f"no JSON form for {type(value).__name__}")  # pragma: no cover - a view field type


_SEAT = re.compile(r"\b([Ss])eat (\d+)\b")
_PYTHON_VALUE = re.compile(r":? ?\{[^{}]*\}")


def people_text(text: str) -> str:
    """An engine's words as the page shows them: the engines count seats from 0 (as the API
    and the records do), people count them from 1 (the page's Seat 1 is seat 0); and a Python
    value copied into a message (an action as a dict) is left out.

    >>> people_text("it is seat 1's turn, not seat 0's")
    "it is seat 2's turn, not seat 1's"
    >>> people_text("malformed play action: {'type': 'play', 'card': 'ZZ', 'seat': 0}")
    'malformed play action'
    """
    text = _PYTHON_VALUE.sub("", text)
    return _SEAT.sub(lambda m: f"{m[1]}eat {int(m[2]) + 1}", text)


# What each kind of engine refusal tells a player in their language: the engines' own words stay
# English (they are many, and written for developers); a player gets the kind of refusal, and the
# card where it is a card. English keeps the engine's words, which say more.
ENGINE_REFUSALS: list[tuple[type[Exception], str]] = [
    (NotYourTurnError, N_("it is not your turn")),
    (IllegalPlayError, N_("you cannot play {card} now")),
    (CallOutOfRangeError, N_("that call is outside what these rules allow")),
    (WrongPhaseError, N_("that move does not belong to this part of the game")),
    (IllegalActionError, N_("that move is not allowed now")),
]
SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def engine_refusal(code: str, error: Exception, action: Any = None) -> MessageError:
    """A refusal to send a player for an engine's error (an illegal move, a malformed action)."""
    english = people_text(str(error))
    message = next((m for kind, m in ENGINE_REFUSALS if isinstance(error, kind)), N_("that move is not allowed now"))
    if "{card}" not in message:
        return MessageError(code, message, english=english)
    if not isinstance(action, Play):
        return MessageError(code, N_("you cannot play that card now"), english=english)
    text = _TEXT[action.card]
    return MessageError(code, message, english=english, card=text[:-1] + SUIT_SIGNS[text[-1]])


def _for_people(name: str, value: Any) -> Any:
    """A view field with the engine's words in it, as people read them: the related games'
    notice and each hand's note, Call Break's thrown-in deal's reason."""
    if name == "notice" and isinstance(value, str):
        return people_text(value)
    if name == "results" and isinstance(value, list):
        return [{**r, "note": people_text(r["note"])} if isinstance(r, dict) and r.get("note") else r for r in value]
    if name == "redeal" and isinstance(value, dict) and isinstance(value.get("reason"), str):
        return {**value, "reason": people_text(value["reason"])}
    return value


def view_json(view: GameView) -> dict[str, Any]:
    """A seat view as JSON: only the fields its class allow-lists ever leave the server."""
    return {**public_json(view), **personal_json(view)}


def personal_json(view: GameView) -> dict[str, Any]:
    """The fields of a view that belong to its seat alone."""
    return {name: plain(getattr(view, name)) for name in view.PRIVATE_FIELDS}


def public_json(view: GameView) -> dict[str, Any]:
    """The fields of a view that are the same for every seat (and for spectators)."""
    return {name: _for_people(name, plain(getattr(view, name))) for name in view.PUBLIC_FIELDS}


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


def refuse_ill_formed(data: Any, what: str) -> None:
    """Refuse decoded JSON holding text that cannot be encoded again (see core/wellformed.py):
    refused here, at the edge, it is never stored, sent or logged."""
    why = wellformed.refusal(data, what)
    if why is not None:
        raise MessageError("malformed", why)


def json_object(text: str | bytes, what: str) -> dict[str, Any]:
    """``text`` decoded as a JSON object, or a ``malformed`` refusal saying why, naming ``what``
    it is (not JSON, nested too deeply, not an object, text that is not well-formed)."""
    try:
        data = json.loads(text)
    except ValueError as e:  # (UnicodeDecodeError among them)
        raise MessageError("malformed", f"{what} is not valid JSON: {e}") from None
    except RecursionError:
        raise MessageError("malformed", f"{what} is nested too deeply") from None
    if not isinstance(data, dict):
        raise MessageError("malformed", f"{what} must be a JSON object")
    refuse_ill_formed(data, what)
    return data


def parse_message(text: str | bytes) -> dict[str, Any]:
    """Decode one client message; refuse oversized, non-JSON and non-object messages."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise MessageError("too_large", f"message too large: {len(text)} bytes, the limit is "
                                        f"{MAX_MESSAGE_BYTES}")
    data = json_object(text, "message")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise MessageError("malformed", "message needs a string field 'type'")
    return data


def parse_action(data: Any, seat: int) -> Action:
    """The action a client sent for ``seat``; its seat may be omitted but not wrong."""
    if not isinstance(data, dict):
        raise MessageError("malformed", "'action' must be an object like {\"type\": \"play\", \"card\": \"AS\"}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_ACTIONS:  # (a list or an object: not even hashable)
        raise MessageError("malformed", f"unknown action type {kind!r}; a player may send "
                                        f"{', '.join(sorted(CLIENT_ACTIONS))}")
    given = data.get("seat", seat)
    if given != seat or isinstance(given, bool):
        raise MessageError("wrong_seat", people_text(f"your token is for seat {seat}, not seat {given!r}"))
    try:
        return action_from_json({**data, "seat": seat})
    except (CallbreakError, RecordError) as e:
        raise engine_refusal("malformed", e) from None


def error_json(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}
