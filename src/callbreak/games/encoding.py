"""What a game's observation encoding is: its action ids, its layout, its per-game blocks.

Each game owns its encoding, beside its rules (as OpenSpiel's and pgx's games do): Call Break's
is in :mod:`callbreak.games.callbreak`, the related trick games' in
:mod:`callbreak.games.trick_encoding`, and a game's registry entry names it
(:attr:`~callbreak.games.registry.GameInfo.encoding`). This module is the shape they share and
holds no arrays; :class:`callbreak.games.spaces.Encoder` lays an encoding out in numpy and
documents the ids and the blocks.

An encoding writes only what one seat may know (its view), through a ``put(name, index,
value)`` that sets one number of a named block, and ``rel(seat)``, the seat relative to the
observer (0: the observer, 1: the seat that plays next, ...).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

from callbreak.core.cards import DECK
from callbreak.core.errors import RulesError
from callbreak.core.game import GameView, Phase

Put = Callable[[str, int, float], None]
Rel = Callable[[int], int]

# Ids every family shares: play a card (0..51), call or bid 0..13 tricks (52..65).
PLAY0 = 0
CALL0 = 52


V = TypeVar("V", bound=GameView, contravariant=True)


class Encoding(Generic[V]):
    """A family of games' action space and observation layout (one instance per family), for
    views of type ``V``.

    ``family`` names it, ``num_actions`` is the size of its action space and ``phases`` the
    phases its games go through, in the order of the ``phase`` block.
    """

    family: ClassVar[str] = ""
    num_actions: ClassVar[int] = 0
    phases: ClassVar[tuple[Phase, ...]] = ()

    def calls(self, view: V) -> tuple[int | None, ...]:
        """Each seat's call or bid so far (None: none yet), for the ``calls`` block."""
        raise NotImplementedError

    def deal_steps(self, players: int) -> tuple[int, int]:
        """For a fixed-size information state (OpenSpiel's perfect-recall tensor): a bound on
        the steps one deal gives a seat, and how many deals a match may have beyond its limit."""
        raise NotImplementedError

    def extra_blocks(self, players: int) -> list[tuple[str, int]]:
        """The family's own blocks after the shared ones: ``(name, size)`` in order."""
        raise NotImplementedError

    def encode_extra(self, view: V, put: Put, rel: Rel) -> None:
        """Write the family's own blocks for ``view``."""
        raise NotImplementedError

    def describe(self, index: int) -> str:
        """A short text for an action id (for error messages and rendering)."""
        if 0 <= index < 52:
            return f"play {DECK[index]}"
        return self.describe_own(index)

    def describe_own(self, index: int) -> str:
        raise NotImplementedError


_FAMILIES: dict[str, Encoding[Any]] = {}

E = TypeVar("E", bound="Encoding[Any]")


def register_encoding(encoding: E) -> E:
    """Make ``encoding`` known by its family name (what :func:`encoding_of` finds)."""
    _FAMILIES[encoding.family] = encoding
    return encoding


def encoding_of(family: str) -> Encoding[Any]:
    """The encoding of a family by name."""
    try:
        return _FAMILIES[family]
    except KeyError:
        raise RulesError(f"no observation encoding named {family!r}; there are: "
                         f"{', '.join(_FAMILIES)}") from None
