"""Text from outside that Python decoded but cannot encode again.

JSON may spell a lone UTF-16 surrogate (``"\\ud800"``): ``json.loads`` accepts it, and the string
it makes fails only later, wherever it is encoded (a database write, a response, a log line).
Every edge that decodes JSON from a client (the web app, the bot-tournament server, a record read
back) asks :func:`ill_formed_text` once and refuses the whole message, so that no such string is
ever stored or passed on.

>>> ill_formed_text({"name": "Ann", "seats": [{"name": "x\\ud800y"}]})
'seats[0].name'
>>> ill_formed_text({"name": "Ann"}) is None
True
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
