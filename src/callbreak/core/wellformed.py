"""Text from outside that Python decoded but cannot encode again.

JSON may spell a lone UTF-16 surrogate (``"\\ud800"``): ``json.loads`` accepts it, and the string
it makes fails only later, wherever it is encoded (a database write, a response, a log line).
Every edge that decodes JSON from a client (the web app's bodies and websocket messages, the
bot-tournament server) asks :func:`refusal` once and refuses the whole message, so that no such
string is ever stored or passed on. (Records read back are not checked here: they are written
from text these edges let through.)

>>> ill_formed_text({"name": "Ann", "seats": [{"name": "x\\ud800y"}]})
'seats[0].name'
>>> ill_formed_text({"name": "Ann"}) is None
True
>>> refusal({"token": "\\ud800"}, "message")
"message field 'token' is not well-formed text (a lone surrogate such as \\\\ud800)"
"""

from __future__ import annotations

import re

_SURROGATE = re.compile("[\ud800-\udfff]")


def ill_formed_text(data: object, path: str = "") -> str | None:
    """The path of the first string (or object key) in decoded JSON ``data`` that is not
    well-formed Unicode, or None when every one is."""
    if isinstance(data, str):
        return (path or "the text") if _SURROGATE.search(data) else None
    if isinstance(data, dict):
        for key, value in data.items():
            where = f"{path}.{key}" if path else str(key)
            if isinstance(key, str) and _SURROGATE.search(key):
                return (path or "the object") + " (a key)"
            found = ill_formed_text(value, where)
            if found is not None:
                return found
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found = ill_formed_text(value, f"{path}[{i}]")
            if found is not None:
                return found
    return None


def refusal(data: object, what: str) -> str | None:
    """Why ``what`` (decoded JSON) must be refused, naming the field, or None when its text is
    well-formed: the one wording every edge uses."""
    where = ill_formed_text(data)
    if where is None:
        return None
    return f"{what} field {where!r} is not well-formed text (a lone surrogate such as \\ud800)"
