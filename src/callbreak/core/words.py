"""Sentences the rules say to people (why a deal was thrown in, how a hand ended), kept as an
English message id and its values, so every reader's language can say them.

The core knows no language: it marks each message id with :func:`N_` (which does nothing) so the
catalog tools find it, and keeps the values beside it. The English text the records, logs and
tests read is the id filled in with the engine's values (seats counted from 0); a client fills the
id's translation with the values people read (seats counted from 1, in their digits).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# The values that are seats: counted from 0 by the engine and from 1 by people. "seats" is a
# list, said as a list of SEAT.
SEAT_VALUES = ("seat", "seats")


def N_(message: str) -> str:
    """Marks ``message`` for translation (whatever catalog its source belongs to) and returns it
    unchanged: every layer marks its messages with this one."""
    return message


SEAT = N_("seat {seat}")  # one seat of a list of seats

Value = int | tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Words:
    """A sentence as its message id and values.

    >>> w = Words.of(N_("seat {seat} takes it at {bid}"), seat=2, bid=4)
    >>> w.english
    'seat 2 takes it at 4'
    >>> w.to_json()
    {'template': 'seat {seat} takes it at {bid}', 'params': {'seat': 3, 'bid': 4}}
    """

    template: str
    values: tuple[tuple[str, Value], ...] = ()

    @classmethod
    def of(cls, template: str, **values: Value) -> Words:
        return cls(template, tuple((k, tuple(v) if isinstance(v, (list, tuple)) else v)
                                   for k, v in values.items()))

    @property
    def english(self) -> str:
        """The sentence as the engine writes it (seats from 0): what records and logs keep."""
        return self.template.format(**{
            k: ", ".join(SEAT.format(seat=s) for s in v) if isinstance(v, tuple) else v
            for k, v in self.values})

    def people_values(self) -> dict[str, int | list[int]]:
        """The values as people read them: seats counted from 1."""
        out: dict[str, int | list[int]] = {}
        for k, v in self.values:
            step = 1 if k in SEAT_VALUES else 0
            out[k] = [s + step for s in v] if isinstance(v, tuple) else v + step
        return out

    def to_json(self) -> dict[str, Any]:
        """What a client is sent: the message id and the values people read."""
        return {"template": self.template, "params": self.people_values()}

    def __str__(self) -> str:
        return self.english
