"""What a bot is, and how bots are found by name for each game.

A bot sees only its seat's view (:class:`~callbreak.core.game.GameView`: a
:class:`~callbreak.core.SeatView` in Call Break) and a time budget, and returns an action from
``view.legal``. Bots are named in a registry that says which games each plays; ``"expert:budget=0.1"``
names a bot with options. Third-party bots register through the ``callbreak.bots`` entry-point
group: the entry point is a factory called with the options as keyword arguments (strings) and
returning a :class:`Bot`; it plays Call Break and Call Bridge unless the factory has a ``games``
attribute naming the games it plays, or saying which it plays (a function of a game's registry
name, asked whenever it matters, so a game registered later is asked too). The first line of the factory's docstring (or its
``description`` attribute) is what people choosing an opponent read; a factory that needs an
optional extra says so with ``requires`` (a module) and ``extra`` (the extra's name), and one that
runs on the compiled kernel (:mod:`callbreak.bots.kernel`) with a true ``kernel`` attribute.

The built-in bots register themselves when :mod:`callbreak.bots` is imported.
"""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Protocol, TypeVar, runtime_checkable

from callbreak.core import Action, CallbreakError
from callbreak.core.game import GameView


class BotError(CallbreakError):
    """An unknown bot name or a bad bot option."""


@dataclass(frozen=True, slots=True)
class Decision:
    """An action and a short phrase saying why (shown as a hint to people)."""

    action: Action
    reason: str = ""


ViewT_contra = TypeVar("ViewT_contra", bound=GameView, contravariant=True)


@runtime_checkable
class BotOf(Protocol[ViewT_contra]):
    """A bot that decides from views of type ``ViewT_contra``: Call Break's bots are
    ``BotOf[SeatView]``, the related games' ``BotOf[games.ContractView]``, and a bot that reads only
    what every view has (``random``) is a bot of every game's views."""

    name: str

    def decide(self, view: ViewT_contra, budget: float) -> Decision:
        """Choose one of ``view.legal`` within ``budget`` seconds."""
        ...


@runtime_checkable
class Bot(BotOf[Any], Protocol):
    """A bot of a game's views, its view type left open: what the registry makes by name (which
    games a bot plays is asked of the registry, :func:`plays`, not of its type)."""


@runtime_checkable
class Remembers(Bot, Protocol):
    """A bot that keeps what it learns from deal to deal of a game (the expert: its reading of the
    other players' styles). A table that builds its bots again (the web's, for each decision, and
    in another process after a crash) hands that memory on: :meth:`memory` is plain JSON, and a bot
    given it back by :meth:`recall` decides as the one that made it would have."""

    def memory(self) -> dict[str, Any]:
        """What the bot has learnt so far in this game, as plain JSON."""
        ...

    def recall(self, memory: Mapping[str, Any]) -> None:
        """Take back a :meth:`memory`; raises ValueError, keeping its own, for anything else."""
        ...


BotFactory = Callable[..., Bot]

CALL_BREAK_ENGINE = ("callbreak", "call-bridge")
"""Call Break's names (``call-bridge``: its alias, Call Break under the call-bridge preset): what
a bot plays unless it says otherwise."""

GameTest = Callable[[str], bool]
"""Whether a bot plays a game, asked by the game's registry name when it matters."""


@dataclass(frozen=True, slots=True)
class BotInfo:
    """What people choosing an opponent are told of a bot: its name, the games it plays (names;
    a :data:`GameTest` asked when needed; None: every game), a one-line description, and whether
    it can be made in this installation."""

    name: str
    games: tuple[str, ...] | GameTest | None
    description: str
    factory: BotFactory
    requires: str | None = None  # a module the bot needs that an optional extra installs
    extra: str | None = None  # that extra's name
    kernel: bool = False  # it runs on the compiled kernel: a server has it ready before it plays

    @property
    def installed(self) -> bool:
        return self.requires is None or _importable(self.requires)

    @property
    def install(self) -> str:
        """What to run for a bot that is not installed."""
        return f"pip install 'callbreak[{self.extra or self.requires}]'"

    def plays(self, game: str) -> bool:
        if self.games is None:
            return True
        if callable(self.games):
            try:
                return bool(self.games(game))
            except CallbreakError:  # not a registered game
                return False
        return game in self.games

    @property
    def played(self) -> tuple[str, ...]:
        """The registered games it plays now."""
        from callbreak.games import games  # the registry as it is now

        return tuple(info.name for info in games() if self.plays(info.name))


@functools.cache
def _importable(module: str) -> bool:
    # Asked on every lobby page; a missing module costs a search of every path entry.
    return importlib.util.find_spec(module) is not None


# name -> its entries, one per set of games, most specific first
_REGISTRY: dict[str, list[BotInfo]] = {}


def register(name: str, games: Iterable[str] | GameTest | None = CALL_BREAK_ENGINE,
             description: str | None = None, requires: str | None = None, extra: str | None = None,
             kernel: bool = False) -> Callable[[BotFactory], BotFactory]:
    """Decorator: make a bot factory available by ``name`` for ``games``: their names, a
    :data:`GameTest` (asked whenever it matters, so a game registered later is asked too), or
    None (every game).

    ``description`` (default: the first line of the factory's docstring; failing that, where the
    bot comes from) is what the lobby and ``callbreak bots`` show. A bot that needs an optional
    extra names a module it imports (``requires``) and the extra (``extra``): it is listed but not
    offered where it is missing. ``kernel``: the bot runs on the compiled kernel
    (:mod:`callbreak.bots.kernel`, compiled by numba on its first use after an install), so a
    server has it ready before the bot plays (:func:`needs_kernel`); other bots play at once.
    One name may have a factory per set of games (``heuristic`` is one bot for Call Break and
    another for the related games)."""
    key: tuple[str, ...] | GameTest | None = (games if games is None or callable(games)
                                              else tuple(games))

    def wrap(factory: BotFactory) -> BotFactory:
        text = (description or (factory.__doc__ or "").strip().split("\n")[0]
                or f"A bot from {getattr(factory, '__module__', None) or 'elsewhere'} (it says no more).")
        info = BotInfo(name, key, text, factory, requires, extra, kernel)
        entries = [e for e in _REGISTRY.get(name, []) if e.games != key]
        entries.append(info)
        entries.sort(key=lambda e: e.games is None)  # a game's own bot before an every-game one
        _REGISTRY[name] = entries
        return factory

    return wrap


def _entry(name: str, game: str) -> BotInfo | None:
    return next((e for e in _REGISTRY.get(name, ()) if e.plays(game)), None)


def plays(spec: str, game: str) -> bool:
    """Whether the bot named by ``spec`` plays ``game``."""
    _load_entry_points()
    return _entry(parse_spec(spec)[0], game) is not None


def needs_kernel(spec: str, game: str = "callbreak") -> bool:
    """Whether the bot named by ``spec`` runs on the compiled kernel when it plays ``game`` (False
    for a name no bot of ``game`` has, or a bot by URL: the server does not build those from the
    registry).

    >>> needs_kernel("expert:budget=0.1"), needs_kernel("heuristic"), needs_kernel("random", "donut")
    (True, False, False)
    """
    _load_entry_points()
    try:
        name = parse_spec(spec)[0]
    except BotError:
        return False
    entry = _entry(name, game)
    return entry is not None and entry.kernel


def catalog(game: str | None = None) -> list[BotInfo]:
    """Every registered bot (for ``game``: the ones that play it), by name, installed or not."""
    _load_entry_points()
    if game is None:
        return [e for name in sorted(_REGISTRY) for e in _REGISTRY[name]]
    return [e for e in (_entry(name, game) for name in sorted(_REGISTRY)) if e is not None]


def bots_for(game: str) -> list[str]:
    """The names of the bots that play ``game`` and can be made here (what a lobby offers)."""
    return [e.name for e in catalog(game) if e.installed]


def describe(name: str, game: str = "callbreak") -> str:
    """The one-line description of the bot ``name`` as it plays ``game``."""
    _load_entry_points()
    entry = _entry(parse_spec(name)[0], game)
    if entry is None:
        raise BotError(f"no bot {name!r} plays {game}")
    return entry.description


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"expert:budget=0.1,samples=20"`` -> ``("expert", {"budget": "0.1", "samples": "20"})``."""
    name, _, rest = spec.strip().partition(":")
    opts: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key:
            raise BotError(f"bad bot option {part!r} in {spec!r}: expected key=value")
        opts[key.strip()] = value.strip()
    if not name:
        raise BotError(f"empty bot name in {spec!r}")
    return name, opts


def available() -> list[str]:
    """Every bot name, whatever game it plays."""
    _load_entry_points()
    return sorted(_REGISTRY)


def make_bot(spec: str, seed: int | None = None, game: str = "callbreak") -> Bot:
    """Build a bot for ``game`` from a spec like ``"heuristic"`` or ``"expert:budget=0.1"``.

    Raises :class:`BotError` for an unknown name, a bot that does not play ``game``, a bot whose
    optional extra is not installed, or an option the bot does not take.
    """
    name, opts = parse_spec(spec)
    if name not in _REGISTRY:
        _load_entry_points()
    if name not in _REGISTRY:
        raise BotError(f"unknown bot {name!r}; bots are: {', '.join(available())}")
    entry = _entry(name, game)
    if entry is None:
        raise BotError(f"bot {name!r} does not play {game}; bots for {game} are: "
                       f"{', '.join(bots_for(game))}")
    if not entry.installed:
        raise BotError(f"bot {name!r} needs the {entry.extra or entry.requires} extra, which is not "
                       f"installed here: {entry.install}")
    kwargs: dict[str, Any] = dict(opts)
    if seed is not None:
        kwargs.setdefault("seed", str(seed))
    try:
        return entry.factory(**kwargs)
    except TypeError as e:
        raise BotError(f"bad options for bot {name!r}: {e}") from None
    except ValueError as e:
        raise BotError(f"bad options for bot {name!r}: {e}") from None


_entry_points_loaded = False


def _load_entry_points() -> None:
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    for ep in entry_points(group="callbreak.bots"):
        if ep.name not in _REGISTRY:
            factory = ep.load()
            register(ep.name, getattr(factory, "games", CALL_BREAK_ENGINE),
                     getattr(factory, "description", None), getattr(factory, "requires", None),
                     getattr(factory, "extra", None), bool(getattr(factory, "kernel", False)))(factory)
