"""Bots for empty seats, stand-ins for absent players, and hints.

A seat's bot is rebuilt for every decision with a seed derived from the table seed, the state
version and the seat. That makes a table's play a pure function of its seed and its stored
actions, so a table resumed after a crash plays on exactly as it would have.
"""

from __future__ import annotations

import importlib
from typing import Any

from callbreak.bots import CALL_BREAK_ENGINE, Decision, make_bot
from callbreak.core import CallbreakError


class PlayerError(CallbreakError):
    """A bot spec we cannot seat."""


def is_url(spec: str) -> bool:
    return spec.startswith(("http://", "https://"))


def check_spec(spec: Any, game: str = "callbreak") -> str:
    """Refuse a bot spec that names nothing we can build for ``game``."""
    if not isinstance(spec, str) or not spec.strip() or len(spec) > 200:
        raise PlayerError(f"a bot must be a level name or a bot URL, got {spec!r}")
    text = str(spec).strip()
    if is_url(text):
        if game not in CALL_BREAK_ENGINE:
            raise PlayerError(f"a bot by URL speaks the public bot tournament's protocol, which "
                              f"plays Call Break only, not {game}")
        if _protocol_factory() is None:
            raise PlayerError("seating a bot by URL needs the tournament protocol module, "
                              "which is not installed")
        return text
    make_bot(text, seed=0, game=game)  # raises BotError naming the bots that play the game
    return text


def check_remote_rules(rules: Any) -> None:
    """A tournament-protocol bot plays only the rules that protocol speaks; refuse others early."""
    module = importlib.import_module("callbreak.protocol.wire")
    try:
        module.check_rules(rules)
    except Exception as e:
        raise PlayerError(f"a bot seated by URL cannot play these rules: {e}") from None


def build(spec: str, seed: int, game: str = "callbreak") -> Any:
    """A fresh player of ``game`` for ``spec``: a registered bot, or a tournament-protocol bot by
    URL."""
    if is_url(spec):
        factory = _protocol_factory()
        if factory is None:
            raise PlayerError("tournament-protocol bots are not available")
        return factory(spec, seed)
    return make_bot(spec, seed=seed, game=game)


def decide(spec: str, seed: int, view: Any, budget: float, game: str = "callbreak") -> Decision:
    """One decision by a freshly built player (run in a worker thread by the server)."""
    player = build(spec, seed, game)
    return player.decide(view, budget)  # type: ignore[no-any-return]


def _protocol_factory() -> Any:
    # The protocol layer is written alongside this one; use it when it is there.
    try:
        module = importlib.import_module("callbreak.protocol.players")
    except ImportError:
        return None
    return getattr(module, "make_player", None)
