"""The registry of games by name: what each game is, its options, presets and seat counts.

Everything above the rules (records, bots, the arena, the terminal, the web tables) asks the
registry for a game by name and drives it through the one game protocol
(:class:`callbreak.core.game.Game`); nothing above it special-cases a game. Adding a game is one
module and one :func:`register_game` call:

>>> info = game_info("horsethief")
>>> info.title, info.seats
('Horsethief', (3, 4, 5))
>>> game = new_game("horsethief", players=3, target=10)
>>> game.options.target, game.players
(10, 3)
>>> new_game("snarples", players=9)
Traceback (most recent call last):
...
callbreak.core.errors.RulesError: Snarples is for 3 to 8 players, not 9
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from callbreak.core.actions import Action
from callbreak.core.dealing import Dealer
from callbreak.core.errors import RulesError
from callbreak.core.game import Chance, GameOf
from callbreak.core.view import SeatView
from callbreak.games.base import ContractGame, ContractView, GameOptions
from callbreak.games.encoding import Encoding
from callbreak.games.trick_encoding import ENCODING as TRICK_ENCODING

View: TypeAlias = SeatView | ContractView
"""The view of any registered game: Call Break's :class:`~callbreak.core.view.SeatView` or a
related game's :class:`~callbreak.games.base.ContractView`. A game from the
registry is a ``GameOf[View, Action]``."""


@dataclass(frozen=True, slots=True)
class PresetInfo:
    """A named set of options a player picks: its identifier, display title and summary."""

    name: str
    title: str
    description: str


@dataclass(frozen=True, slots=True, kw_only=True)
class GameInfo:
    """A registry entry.

    ``presets`` are the named option sets, the first being the default; ``make_options`` builds
    the game's options value from a preset name (None: the default) and option overrides (text
    accepted, as typed on a command line); ``load_options`` reads the value back from the
    ``to_dict()`` form a record stores; ``create`` makes a game before its first chance step;
    ``dealer`` makes a seeded source of its chance steps; ``encoding`` is the game's own
    observation encoding and action ids (None: it has none, and the research environments
    refuse it); ``deal_word`` and ``made_word`` are what reports call a deal and a deal that
    gained a seat points.
    """

    name: str
    title: str
    description: str
    seats: tuple[int, ...]
    options_type: type
    presets: tuple[PresetInfo, ...]
    make_options: Callable[[str | None, Mapping[str, Any]], Any]
    load_options: Callable[[Any], Any]
    create: Callable[[int, Any], GameOf[View, Action]]
    dealer: Callable[[int | str | None], Chance]
    low_wins: bool = False  # race-down games: a lower score is better
    encoding: Encoding[Any] | None = None
    deal_word: str = "deal"  # what one deal is called in this game ("hand" in the related games)
    made_word: str = "gains"  # what a deal that gained a seat points is ("calls made" in Call Break)

    @property
    def default_seats(self) -> int:
        return 4 if 4 in self.seats else self.seats[0]

    @property
    def default_preset(self) -> str:
        return self.presets[0].name

    def preset(self, name: str) -> PresetInfo:
        for p in self.presets:
            if p.name == name:
                return p
        raise RulesError(f"{self.title} has no preset {name!r}; presets are: "
                         f"{', '.join(p.name for p in self.presets)}")

    def preset_of(self, options: Any) -> PresetInfo | None:
        """The preset whose options are exactly ``options`` (None: options of no preset).

        >>> info = game_info("callbreak")
        >>> info.preset_of(info.make_options("call-bridge", {})).title
        'Call Bridge (pagat.com)'
        >>> info.preset_of(info.make_options("call-bridge", {"max_call": 10})) is None
        True
        """
        return next((p for p in self.presets if self.make_options(p.name, {}) == options), None)

    def check_seats(self, players: int | None) -> int:
        """``players`` if the game takes that many (None: its usual count); else RulesError."""
        n = self.default_seats if players is None else players
        if isinstance(n, bool) or not isinstance(n, int) or n not in self.seats:
            span = (f"{self.seats[0]}" if len(self.seats) == 1
                    else f"{self.seats[0]} to {self.seats[-1]}")
            raise RulesError(f"{self.title} is for {span} players, not {n!r}")
        return n

    def new(self, players: int | None = None, preset: str | None = None,
            **options: Any) -> GameOf[View, Action]:
        """A new game for ``players`` seats under ``preset`` with ``options`` overridden."""
        n = self.check_seats(players)
        if preset is not None:
            self.preset(preset)
        return self.create(n, self.make_options(preset, options))


_GAMES: dict[str, GameInfo] = {}
_ALIASES: dict[str, GameInfo] = {}


def register_game(info: GameInfo) -> GameInfo:
    """Add a game to the registry (a name may be registered once)."""
    if info.name in _GAMES and _GAMES[info.name] != info:
        raise RulesError(f"a game named {info.name!r} is already registered")
    if not info.presets:
        raise RulesError(f"game {info.name!r} needs at least one preset")
    _GAMES[info.name] = info
    return info


def register_alias(name: str, info: GameInfo) -> GameInfo:
    """Let ``name`` stand for a registered game under another default preset: a name that was
    once a game of its own and is now one of a game's presets (``call-bridge``), so that records
    and commands naming it keep working. The entry ``game_info(name)`` gives is ``info``: its
    ``name`` is the game's own, which is what records, tables and lists show."""
    if name in _GAMES:
        raise RulesError(f"{name!r} is a game, not an alias")
    if _GAMES.get(info.name) is None:
        raise RulesError(f"an alias needs a registered game, not {info.name!r}")
    _ALIASES[name] = info
    return info


def game_info(name: str) -> GameInfo:
    """The registry entry of ``name`` (a game, or an alias of one: ``call-bridge`` is Call Break
    under its ``call-bridge`` preset); RulesError lists the games there are.

    >>> bridge = game_info("call-bridge")
    >>> bridge.name, bridge.default_preset
    ('callbreak', 'call-bridge')
    """
    try:
        return _GAMES[name]
    except KeyError:
        pass
    try:
        return _ALIASES[name]
    except KeyError:
        raise RulesError(f"unknown game {name!r}; games are: {', '.join(_GAMES)}") from None


def games() -> tuple[GameInfo, ...]:
    """Every registered game, in the order registered (Call Break first); aliases are not
    games."""
    return tuple(_GAMES.values())


def new_game(name: str, players: int | None = None, preset: str | None = None,
             **options: Any) -> GameOf[View, Action]:
    """A new game by registry name: see :meth:`GameInfo.new`."""
    return game_info(name).new(players, preset, **options)


def trick_game(cls: type[ContractGame]) -> GameInfo:
    """The registry entry of a :class:`~callbreak.games.base.ContractGame` subclass: its one preset
    is its standard rules under its own name, and its options are its ``OPTIONS`` type."""

    def make_options(preset: str | None, overrides: Mapping[str, Any]) -> GameOptions:
        return cls.OPTIONS.build(overrides)

    def load_options(data: Any) -> GameOptions:
        if not isinstance(data, dict):
            raise RulesError(f"options must be an object, got {type(data).__name__}")
        return cls.OPTIONS.build(data)

    def create(players: int, options: Any) -> GameOf[View, Action]:
        game: GameOf[ContractView, Action] = cls(players, options)  # checked against the protocol here
        return game

    return GameInfo(
        name=cls.NAME, title=cls.TITLE, description=cls.DESCRIPTION,
        seats=tuple(range(cls.MIN_PLAYERS, cls.MAX_PLAYERS + 1)), options_type=cls.OPTIONS,
        presets=(PresetInfo(cls.NAME, cls.TITLE, cls.DESCRIPTION),),
        make_options=make_options, load_options=load_options, create=create,
        dealer=Dealer, low_wins=cls.LOW_WINS, encoding=TRICK_ENCODING, deal_word="hand",
    )


def option_names(info: GameInfo) -> tuple[str, ...]:
    """The names of a game's options (for help text and forms)."""
    return tuple(f.name for f in dataclasses.fields(info.options_type))
