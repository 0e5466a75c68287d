"""What a bot is, and how bots are found by name for each game.

A bot sees only its seat's view (:class:`~callbreak.core.game.GameView`: a
:class:`~callbreak.core.SeatView` in Call Break) and a time budget, and returns an action from
``view.legal``. Bots are named in a registry that says which games each plays; ``"expert:budget=0.1"``
names a bot with options. Third-party bots register through the ``callbreak.bots`` entry-point
group: the entry point is a factory called with the options as keyword arguments (strings) and
returning a :class:`Bot`; it plays Call Break and Call Bridge unless the factory has a ``games``
attribute naming the games it plays.

The built-in bots register themselves when :mod:`callbreak.bots` is imported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Protocol, runtime_checkable

from callbreak.core import Action, CallbreakError


class BotError(CallbreakError):
    """An unknown bot name or a bad bot option."""


@dataclass(frozen=True, slots=True)
class Decision:
    """An action and a short phrase saying why (shown as a hint to people)."""

    action: Action
    reason: str = ""


@runtime_checkable
class Bot(Protocol):
    name: str

    def decide(self, view: Any, budget: float) -> Decision:
        """Choose one of ``view.legal`` within ``budget`` seconds."""
        ...


BotFactory = Callable[..., Bot]

CALL_BREAK_ENGINE = ("callbreak", "call-bridge")
"""The games of the Call Break engine: what a bot plays unless it says otherwise."""

# name -> (the games it plays, None for every game; its factory), most specific first
_REGISTRY: dict[str, list[tuple[tuple[str, ...] | None, BotFactory]]] = {}


def register(name: str, games: Iterable[str] | None = CALL_BREAK_ENGINE
             ) -> Callable[[BotFactory], BotFactory]:
    """Decorator: make a bot factory available by ``name`` for ``games`` (None: every game).

    One name may have a factory per set of games (``heuristic`` is one bot for Call Break and
    another for the related games)."""
    key = None if games is None else tuple(games)

    def wrap(factory: BotFactory) -> BotFactory:
        entries = [e for e in _REGISTRY.get(name, []) if e[0] != key]
        entries.append((key, factory))
        entries.sort(key=lambda e: e[0] is None)  # a game's own bot before an every-game one
        _REGISTRY[name] = entries
        return factory

    return wrap


def _factory(name: str, game: str) -> BotFactory | None:
    for games, factory in _REGISTRY.get(name, ()):
        if games is None or game in games:
            return factory
    return None


def plays(spec: str, game: str) -> bool:
    """Whether the bot named by ``spec`` plays ``game``."""
    _load_entry_points()
    return _factory(parse_spec(spec)[0], game) is not None


def bots_for(game: str) -> list[str]:
    """The names of the bots that play ``game``."""
    _load_entry_points()
    return sorted(name for name in _REGISTRY if _factory(name, game) is not None)


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

    Raises :class:`BotError` for an unknown name, a bot that does not play ``game``, or an option
    the bot does not take.
    """
    name, opts = parse_spec(spec)
    if name not in _REGISTRY:
        _load_entry_points()
    if name not in _REGISTRY:
        raise BotError(f"unknown bot {name!r}; bots are: {', '.join(available())}")
    factory = _factory(name, game)
    if factory is None:
        raise BotError(f"bot {name!r} does not play {game}; bots for {game} are: "
                       f"{', '.join(bots_for(game))}")
    kwargs: dict[str, Any] = dict(opts)
    if seed is not None:
        kwargs.setdefault("seed", str(seed))
    try:
        return factory(**kwargs)
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
            register(ep.name, getattr(factory, "games", CALL_BREAK_ENGINE))(factory)
