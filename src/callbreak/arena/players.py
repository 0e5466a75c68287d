"""Turning a player spec (a bot name with options, or a bot's URL) into a player of a game.

Bot names go through the bot registry (``"expert:budget=0.1"``), which also refuses a bot that
does not play the game. URLs (``http://host:port``) are bots speaking the public tournament
protocol (``callbreak.protocol.players.make_player``), which plays Call Break only.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from callbreak.bots import CALL_BREAK_ENGINE, Bot, BotError, make_bot
from callbreak.core import CallbreakError

URL_PREFIXES = ("http://", "https://")


def is_url(spec: str) -> bool:
    return spec.strip().lower().startswith(URL_PREFIXES)


def _protocol_factory() -> Callable[..., Any] | None:
    """The protocol package's ``make_player``, if this installation can import it."""
    try:
        module = importlib.import_module("callbreak.protocol.players")
    except ImportError:
        return None
    factory = getattr(module, "make_player", None)
    return factory if callable(factory) else None


def build_player(spec: str, seed: int | None = None, timeout: float | None = None,
                 game: str = "callbreak") -> Bot:
    """A fresh player of ``game`` for ``spec``; ``seed`` seeds its randomness where it has any.

    ``timeout`` is how long a remote player waits for each answer (its HTTP timeout).
    Raises :class:`BotError` naming what is wrong (unknown bot, a bot that does not play the
    game, bad option, no URL support).
    """
    if not is_url(spec):
        return make_bot(spec, seed=seed, game=game)
    if game not in CALL_BREAK_ENGINE:
        raise BotError(f"{spec!r} is a tournament-protocol bot, which plays Call Break only, not {game}")
    factory = _protocol_factory()
    if factory is None:
        raise BotError(f"{spec!r} is a URL, but this installation has no tournament-protocol "
                       "players (callbreak.protocol.players.make_player)")
    try:
        return factory(spec, seed, timeout=timeout)  # type: ignore[no-any-return]
    except CallbreakError:
        raise
    except (TypeError, ValueError, OSError) as e:
        raise BotError(f"cannot make player {spec!r}: {e}") from None


def check_player(spec: str, options: Any = None, timeout: float = 3.0, game: str = "callbreak") -> str:
    """Build ``spec`` once and, for a URL, check that the protocol can express ``options`` (the
    game's options value) and that something answers there.

    Returns the player's display name. Raises :class:`BotError` with a clear message otherwise.
    """
    if not spec or not spec.strip():
        raise BotError("empty player spec")
    player = build_player(spec, seed=0, game=game)
    if is_url(spec):
        if options is not None:
            _check_protocol_rules(options)
        _check_reachable(spec.strip(), timeout)
        return spec.strip()
    return str(getattr(player, "name", spec))


def _check_protocol_rules(options: Any) -> None:
    from callbreak.protocol.wire import check_rules  # only URL players need it

    try:
        check_rules(options)
    except CallbreakError as e:
        raise BotError(f"a protocol bot cannot play these rules: {e}") from None


def _check_reachable(url: str, timeout: float) -> None:
    import httpx  # only URL players need it

    try:
        httpx.get(url, timeout=timeout)
    except httpx.InvalidURL as e:
        raise BotError(f"bad URL {url!r}: {e}") from None
    except httpx.HTTPError as e:
        # Any HTTP answer (even 404) shows a server is there; only no answer at all is refused.
        raise BotError(f"cannot reach the bot at {url}: {type(e).__name__}: {e}") from None
