"""What a bot is, and how bots are found by name.

A bot sees only a :class:`~callbreak.core.SeatView` and a time budget, and returns an action from
``view.legal``. Bots are named in a registry; ``"expert:budget=0.1"`` names a bot with options.
Third-party bots register through the ``callbreak.bots`` entry-point group: the entry point is a
factory called with the options as keyword arguments (strings) and returning a :class:`Bot`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Protocol, runtime_checkable

from callbreak.core import Action, CallbreakError, SeatView


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

    def decide(self, view: SeatView, budget: float) -> Decision:
        """Choose one of ``view.legal`` within ``budget`` seconds."""
        ...


BotFactory = Callable[..., Bot]
_REGISTRY: dict[str, BotFactory] = {}


def register(name: str) -> Callable[[BotFactory], BotFactory]:
    """Decorator: make a bot factory available by ``name``."""

    def wrap(factory: BotFactory) -> BotFactory:
        _REGISTRY[name] = factory
        return factory

    return wrap


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
    _load_builtin()
    _load_entry_points()
    return sorted(_REGISTRY)


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """Build a bot from a spec like ``"heuristic"`` or ``"expert:budget=0.1"``.

    Raises :class:`BotError` for an unknown name or an option the bot does not take.
    """
    name, opts = parse_spec(spec)
    _load_builtin()
    if name not in _REGISTRY:
        _load_entry_points()
    factory = _REGISTRY.get(name)
    if factory is None:
        raise BotError(f"unknown bot {name!r}; bots are: {', '.join(available())}")
    kwargs: dict[str, Any] = dict(opts)
    if seed is not None:
        kwargs.setdefault("seed", str(seed))
    try:
        return factory(**kwargs)
    except TypeError as e:
        raise BotError(f"bad options for bot {name!r}: {e}") from None
    except ValueError as e:
        raise BotError(f"bad options for bot {name!r}: {e}") from None


def _load_builtin() -> None:
    # Importing the modules registers their bots.
    from callbreak.bots import expert, heuristic, simple  # noqa: F401


_entry_points_loaded = False


def _load_entry_points() -> None:
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    for ep in entry_points(group="callbreak.bots"):
        if ep.name not in _REGISTRY:
            _REGISTRY[ep.name] = ep.load()
