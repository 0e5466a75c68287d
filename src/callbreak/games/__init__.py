"""The related trick-taking games of seed 000, built on the core's trick mechanics.

Every game has the shape of :class:`callbreak.core.match.Match` (see :mod:`callbreak.games.base`),
so a UI or an arena drives any of them the same way:

>>> game = make_game("donut", players=5)
>>> dealer = GameDealer(seed=1)
>>> while not game.is_over:
...     if game.to_act == CHANCE:
...         game.apply(dealer.chance(game))
...     else:
...         game.apply(game.legal_actions()[0])
>>> len(game.winners) >= 1
True

Call Bridge is not a separate game: it is the ``call-bridge`` preset of the Call Break engine, and
``make_game("call-bridge")`` returns a :class:`~callbreak.core.match.Match` with those rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from callbreak.core.actions import CHANCE
from callbreak.core.errors import RulesError
from callbreak.core.match import Match
from callbreak.core.rules import make_rules
from callbreak.games.actions import (
    Bid,
    Exchange,
    GameAction,
    GameDeal,
    Join,
    NameTrump,
    Pass,
    Settle,
    game_action_from_json,
)
from callbreak.games.base import (
    GameDealer,
    GameOptions,
    GamePhase,
    GameTrick,
    GameView,
    HandResult,
    TrickGame,
)
from callbreak.games.batak import BatakIhaleli, BatakKozMaca
from callbreak.games.donut import Donut
from callbreak.games.horsethief import Horsethief
from callbreak.games.snarples import Snarples


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A registry entry: the name to ask for, a title, a one-line description, player counts."""

    name: str
    title: str
    description: str
    min_players: int
    max_players: int
    cls: type[TrickGame] | None  # None: a preset of the Call Break engine

    @property
    def player_counts(self) -> range:
        return range(self.min_players, self.max_players + 1)


def _info(cls: type[TrickGame]) -> GameInfo:
    return GameInfo(cls.NAME, cls.TITLE, cls.DESCRIPTION, cls.MIN_PLAYERS, cls.MAX_PLAYERS, cls)


GAMES: dict[str, GameInfo] = {
    "call-bridge": GameInfo("call-bridge", "Call Bridge",
                            "Call Break's cousin (000, 003): the call-bridge preset of the Call "
                            "Break engine; calls 2-12, call or call+1 scores.", 4, 4, None),
    **{cls.NAME: _info(cls) for cls in (BatakIhaleli, BatakKozMaca, Snarples, Donut, Horsethief)},
}


def make_game(name: str, players: int | None = None, **options: Any) -> TrickGame | Match:
    """A new game by registry name, for ``players`` seats, with options (text values accepted).

    Raises :class:`RulesError` for an unknown game, a player count the game does not allow, or a
    bad option.

    >>> make_game("horsethief", players=3, target=10).options.target
    10
    >>> make_game("snarples", players=9)
    Traceback (most recent call last):
    ...
    callbreak.core.errors.RulesError: Snarples is for 3-8 players, not 9
    """
    info = GAMES.get(name)
    if info is None:
        raise RulesError(f"unknown game {name!r}; games are: {', '.join(GAMES)}")
    if info.cls is None:
        if players not in (None, 4):
            raise RulesError(f"{info.title} is for 4 players, not {players!r}")
        return Match(make_rules(name, **options))
    return info.cls(players, **options)


def make_trick_game(name: str, players: int | None = None, **options: Any) -> TrickGame:
    """Like :func:`make_game` but only for the games of this package (not Call Bridge)."""
    game = make_game(name, players, **options)
    if not isinstance(game, TrickGame):
        raise RulesError(f"{name!r} is a preset of the Call Break engine, not a game of its own")
    return game


__all__ = [
    "CHANCE", "GAMES", "BatakIhaleli", "BatakKozMaca", "Bid", "Donut", "Exchange", "GameAction",
    "GameDeal", "GameDealer", "GameInfo", "GameOptions", "GamePhase", "GameTrick", "GameView",
    "HandResult", "Horsethief", "Join", "NameTrump", "Pass", "Settle", "Snarples", "TrickGame",
    "game_action_from_json", "make_game", "make_trick_game",
]
