"""The one game protocol: what every registered game is, whatever its rules.

Call Break's :class:`~callbreak.core.match.Match` is one implementation; each related game
(:mod:`callbreak.games`) is another. Everything above the rules (records, bots, the arena, the
terminal, the web tables) drives a game only through this protocol and finds games by name in
the registry (:func:`callbreak.games.game_info`).

A game is a state machine over the actions of :mod:`callbreak.core.actions`:

- ``to_act`` is the seat to act, :data:`~callbreak.core.actions.CHANCE` when chance must deal
  (or draw for dealer), None once the game is over;
- ``legal_actions()`` lists what the seat to act may do (never empty while a seat is to act);
  chance steps come from a :class:`Chance` source, so the rules never touch randomness;
- ``verify(action)`` raises a specific :class:`~callbreak.core.errors.IllegalActionError` and
  ``apply(action)`` verifies first, so a refused action changes nothing;
- ``view(seat)`` is everything that seat may know, built by allow-list (``None``: a spectator);
- ``history`` is every action applied, chance steps included: replaying it rebuilds the game.

>>> from callbreak.core.dealing import Dealer
>>> from callbreak.core.match import Match
>>> from callbreak.core.rules import make_rules
>>> game: Game = Match(make_rules("bhoos-tournament"))
>>> chance = Dealer(seed=1)
>>> while not game.is_over:
...     game.apply(chance.chance(game) if game.to_act == CHANCE else game.legal_actions()[0])
>>> len(game.scores), len(game.view(0).played)  # the last deal's tricks stay in view
(4, 52)
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Any, ClassVar, Protocol, runtime_checkable

from callbreak.core.actions import CHANCE, Action, Play
from callbreak.core.cards import Card

__all__ = ["CHANCE", "Chance", "Game", "GameView", "TrickView"]


@runtime_checkable
class GameView(Protocol):
    """What one seat may know of any game (``seat`` None: a spectator); ``game`` is the game's
    registry name and ``options`` its options value (Call Break's :class:`Rules`)."""

    @property
    def game(self) -> str: ...
    @property
    def options(self) -> Any: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def players(self) -> int: ...
    @property
    def phase(self) -> Enum: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def hand(self) -> tuple[Card, ...] | None: ...
    @property
    def trick(self) -> tuple[Card, ...]: ...
    @property
    def trick_seats(self) -> tuple[int, ...]: ...
    @property
    def won(self) -> tuple[int, ...]: ...
    @property
    def scores(self) -> tuple[float, ...]: ...
    @property
    def winners(self) -> tuple[int, ...]: ...
    @property
    def legal(self) -> tuple[Action, ...]: ...
    @property
    def legal_cards(self) -> tuple[Card, ...]: ...
    @property
    def played(self) -> tuple[Card, ...]: ...
    @property
    def is_over(self) -> bool: ...


@runtime_checkable
class Game(Protocol):
    """A game in progress: the state machine every registered game implements. ``NAME`` is its
    registry name (what its records say); ``dealer`` the seat dealing the current or next deal
    (None until the first dealer is drawn)."""

    NAME: ClassVar[str]

    @property
    def players(self) -> int: ...
    @property
    def dealer(self) -> int | None: ...
    @property
    def options(self) -> Any: ...  # the game's options value, with ``to_dict()`` for records
    @property
    def phase(self) -> Enum: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def scores(self) -> Sequence[float]: ...
    @property
    def winners(self) -> tuple[int, ...]: ...
    @property
    def history(self) -> Sequence[Action]: ...
    @property
    def results(self) -> Sequence[Any]: ...  # one entry per scored deal

    def legal_actions(self, seat: int | None = None) -> list[Any]: ...
    def verify(self, action: Any) -> None: ...
    def is_legal(self, action: Any) -> bool: ...
    def apply(self, action: Any) -> None: ...
    def default_action(self) -> Any: ...
    def view(self, seat: int | None) -> Any: ...
    def clone(self) -> Any: ...
    def snapshot(self) -> tuple[object, ...]: ...
    def result_json(self) -> dict[str, Any]: ...


class Chance(Protocol):
    """A source of chance actions (a seeded dealer): the deal, the draw for dealer."""

    def chance(self, game: Any) -> Action: ...


class TrickView:
    """What every trick game's view derives the same way from its fields (a mixin for the
    frozen view dataclasses; it adds no state)."""

    __slots__ = ()
    # The allow-list of what may leave the server: fields every seat may see, then the seat's own
    # (its hand, its legal actions). Each view class names its own.
    PUBLIC_FIELDS: ClassVar[tuple[str, ...]] = ()
    PRIVATE_FIELDS: ClassVar[tuple[str, ...]] = ()
    legal: tuple[Action, ...]
    trick: tuple[Card, ...]
    tricks: Sequence[Any]  # completed tricks, each with ``cards`` in play order
    phase: Enum

    @property
    def played(self) -> tuple[Card, ...]:
        """Every card played this deal, completed tricks then the current one."""
        out: list[Card] = []
        for t in self.tricks:
            out.extend(t.cards)
        out.extend(self.trick)
        return tuple(out)

    @property
    def legal_cards(self) -> tuple[Card, ...]:
        """The cards this seat may play now (empty outside its turn to play)."""
        return tuple(a.card for a in self.legal if isinstance(a, Play))

    @property
    def is_over(self) -> bool:
        return bool(self.phase.value == "over")

    @property
    def face_up(self) -> tuple[Card, ...]:
        """Cards laid face up outside the tricks (none here; games with an upcard or a shown
        hand say so)."""
        return ()

    @property
    def notice(self) -> str:
        """Why the last deal was thrown in or what its end settled, if anything ("" if not)."""
        return ""

    def shown_cards(self) -> frozenset[Card]:
        """Every card this view shows: its own hand, the cards played, the cards face up."""
        hand: tuple[Card, ...] = getattr(self, "hand", None) or ()
        return frozenset((*hand, *self.played, *self.face_up))
