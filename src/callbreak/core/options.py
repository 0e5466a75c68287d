"""What every game's options value is: a frozen dataclass of typed options, read from text.

Call Break's :class:`~callbreak.core.rules.Rules` and the related games' options
(:class:`~callbreak.games.base.GameOptions` and each game's own) are subclasses of
:class:`Options`: one way to read an option from what a person typed, one JSON form for records,
one way to say how many deals a match has.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True, kw_only=True)
... class Example(Options):
...     target: int = 15
...     deals: int | None = None
...     @property
...     def deal_limit(self) -> int | None:
...         return self.deals
>>> Example.build({"target": "21", "deals": "unlimited"})
Example(target=21, deals=None)
>>> Example.build({"target": "many"})
Traceback (most recent call last):
...
callbreak.core.errors.RulesError: option target must be a whole number, got 'many'
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from enum import Enum
from typing import Any, Self

from callbreak.core.errors import RulesError

_OFF = {"off", "none", "no", "false", "0", "unlimited", ""}
_ON = {"on", "yes", "true", "1"}


class Options:
    """Base of every game's options (a frozen, slotted, keyword-only dataclass in each game)."""

    __slots__ = ()

    @property
    def deal_limit(self) -> int | None:
        """The deals a match has at most (None: no limit)."""
        raise NotImplementedError

    @property
    def dealer_step(self) -> int:
        """Which way the deal passes: +1 to the next seat in the direction of play, -1 against."""
        return 1

    @property
    def partnership(self) -> bool:
        """Whether seats across the table play as pairs (none but Call Break's option does)."""
        return False

    @property
    def turn_timer(self) -> float | None:
        """Seconds a seat has to act (None: no clock among the options; a table may still time
        its seats)."""
        return None

    def with_deal_limit(self, deals: int) -> Self:
        """The same options, at most ``deals`` deals (the field that limits them is the game's)."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready options, every one spelled out (what a record stores)."""
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}  # type: ignore[arg-type]

    def describe(self) -> list[tuple[str, str]]:
        """(option, value) pairs for people: on/off, an enum's value, "off" for an empty option
        (each as it may be typed back), and a pair's parts by name (``stake=10, commission=0.05``)."""
        return [(k, _shown(v)) for k, v in self.to_dict().items()]

    @classmethod
    def parse_option(cls, name: str, value: Any) -> Any:
        """The typed value of option ``name`` from what a user gave (often text): "on"/"off",
        numbers, an enum's value (``-`` for ``_``), "unlimited" or "none" where an option may be
        empty, ``A:B`` for a pair. :class:`RulesError` names the option and what was wrong."""
        hints = _hints(cls)
        if name not in hints:
            raise RulesError(f"unknown option {name!r}; options are: {', '.join(sorted(hints))}")
        allowed = hints[name]
        nullable = type(None) in allowed
        base = next(t for t in allowed if t is not type(None))
        if value is None:
            if nullable:
                return None
            raise RulesError(f"option {name} cannot be empty")
        if isinstance(value, str):
            return _from_text(name, value, base, nullable)
        if isinstance(value, dict) and dataclasses.is_dataclass(base):
            try:
                return typing.cast(Any, base)(**value)
            except TypeError as e:
                raise RulesError(f"option {name}: {e}") from None
        if isinstance(base, type) and issubclass(base, Enum) and not isinstance(value, base):
            try:
                return base(value)
            except ValueError:
                raise RulesError(f"option {name} must be one of {_choices(base)}, got {value!r}") from None
        if not _is_a(value, allowed):
            raise RulesError(f"option {name} has a value of the wrong type: {value!r}")
        return value

    @classmethod
    def build(cls, values: Mapping[str, Any], base: Self | None = None) -> Self:
        """Options of this type from ``values`` (text accepted), over ``base`` (None: the
        defaults). :class:`RulesError` names an unknown option, a bad value or combination."""
        parsed = {k: cls.parse_option(k, v) for k, v in values.items()}
        try:
            return dataclasses.replace(base, **parsed) if base is not None else cls(**parsed)  # type: ignore[type-var]
        except TypeError as e:  # pragma: no cover - parse_option refuses unknown names
            raise RulesError(str(e)) from None

    def check_types(self) -> None:
        """Raise :class:`RulesError` naming an option whose value is not of its type."""
        for name, allowed in _hints(type(self)).items():
            value = getattr(self, name)
            if not _is_a(value, allowed):
                raise RulesError(f"option {name} has a value of the wrong type: {value!r}")


_HINTS: dict[type, dict[str, tuple[Any, ...]]] = {}


def _hints(cls: type) -> dict[str, tuple[Any, ...]]:
    """Each option of ``cls`` and the types it allows, in field order (read once a class)."""
    out = _HINTS.get(cls)
    if out is None:
        hints = typing.get_type_hints(cls)
        out = _HINTS[cls] = {}
        for f in dataclasses.fields(cls):
            hint = hints[f.name]
            out[f.name] = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    return out


def _is_a(value: Any, allowed: tuple[Any, ...]) -> bool:
    for t in allowed:
        if t is type(None):
            if value is None:
                return True
        elif t is float:
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return True
        elif t is int:
            if isinstance(value, int) and not isinstance(value, bool):
                return True
        elif isinstance(value, t):
            return True
    return False


def _from_text(name: str, value: str, base: Any, nullable: bool) -> Any:
    text = value.strip().lower()
    if nullable and text in _OFF and base is not bool:
        return None
    if base is bool:
        if text in _ON:
            return True
        if text in _OFF:
            return False
        raise RulesError(f"option {name} is on or off, got {value!r}")
    if base is int:
        try:
            return int(text)
        except ValueError:
            raise RulesError(f"option {name} must be a whole number, got {value!r}") from None
    if base is float:
        try:
            return float(text)
        except ValueError:
            raise RulesError(f"option {name} needs a number, got {value!r}") from None
    if isinstance(base, type) and issubclass(base, Enum):
        try:
            return base(text.replace("-", "_"))
        except ValueError:
            raise RulesError(f"option {name} must be one of {_choices(base)}, got {value!r}") from None
    if dataclasses.is_dataclass(base):
        return _pair(name, text, base)
    raise RulesError(f"option {name} cannot be given as text, got {value!r}")  # pragma: no cover


def _pair(name: str, text: str, cls: Any) -> Any:
    """A two-field option from ``A:B`` (or ``A``, the second keeping its default)."""
    first, second = dataclasses.fields(cls)
    kinds = typing.get_type_hints(cls)
    parts = text.replace("->", ":").split(":")
    try:
        if len(parts) > 2:
            raise ValueError
        values = {first.name: kinds[first.name](parts[0])}
        if len(parts) == 2 and parts[1]:
            values[second.name] = kinds[second.name](parts[1])
        return cls(**values)
    except (ValueError, TypeError):
        raise RulesError(f"option {name} expects 'A:B', got {text!r}") from None


def _choices(enum: type[Enum]) -> str:
    return ", ".join(e.value for e in enum)


def _shown(v: Any) -> str:
    if v is None or v is False:
        return "off"
    if v is True:
        return "on"
    if isinstance(v, dict):
        return ", ".join(f"{k}={x}" for k, x in v.items())
    return str(v)


def _plain(v: Any) -> Any:
    if isinstance(v, Enum):
        return v.value
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return dataclasses.asdict(v)
    return v
