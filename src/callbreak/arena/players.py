"""Turning a player spec (a bot name with options, or a bot's URL) into a player.

Bot names go through the bot registry (``"expert:budget=0.1"``). URLs (``http://host:port``) are
bots speaking the public tournament protocol; the protocol package supplies those players through
``callbreak.protocol.players.make_player`` once it exists. Until then a URL is refused with a
message saying so, rather than failing halfway through a run.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

from callbreak.bots import Bot, BotError, make_bot
from callbreak.core import CallbreakError

URL_PREFIXES = ("http://", "https://")


def is_url(spec: str) -> bool:
    return spec.strip().lower().startswith(URL_PREFIXES)


def _protocol_factory() -> Callable[..., Any] | None:
    """The protocol package's ``make_player``, if that package provides one."""
    try:
        module = importlib.import_module("callbreak.protocol.players")
    except ImportError:
        return None
    factory = getattr(module, "make_player", None)
    return factory if callable(factory) else None


def build_player(spec: str, seed: int | None = None) -> Bot:
    """A fresh player for ``spec``; ``seed`` seeds its randomness where it has any.

    Raises :class:`BotError` naming what is wrong (unknown bot, bad option, no URL support).
    """
    factory = _protocol_factory()
    if factory is not None:
        try:
            if seed is not None and "seed" in inspect.signature(factory).parameters:
                return factory(spec, seed=seed)  # type: ignore[no-any-return]
            return factory(spec)  # type: ignore[no-any-return]
        except CallbreakError:
            raise
        except (TypeError, ValueError, OSError) as e:
            raise BotError(f"cannot make player {spec!r}: {e}") from None
    if is_url(spec):
        raise BotError(f"{spec!r} is a URL, but this installation has no tournament-protocol "
                       "players (callbreak.protocol.players.make_player)")
    return make_bot(spec, seed=seed)


def check_player(spec: str, timeout: float = 3.0) -> str:
    """Build ``spec`` once and, for a URL, check that something answers there.

    Returns the player's display name. Raises :class:`BotError` with a clear message otherwise.
    """
    if not spec or not spec.strip():
        raise BotError("empty player spec")
    player = build_player(spec, seed=0)
    if is_url(spec):
        _check_reachable(spec.strip(), timeout)
        return spec.strip()
    return str(getattr(player, "name", spec))


def _check_reachable(url: str, timeout: float) -> None:
    import httpx  # only URL players need it

    try:
        httpx.get(url, timeout=timeout)
    except httpx.InvalidURL as e:
        raise BotError(f"bad URL {url!r}: {e}") from None
    except httpx.HTTPError as e:
        # Any HTTP answer (even 404) shows a server is there; only no answer at all is refused.
        raise BotError(f"cannot reach the bot at {url}: {type(e).__name__}: {e}") from None
