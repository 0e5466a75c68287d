"""Turning a player spec (a bot name with options, or a bot's URL) into a player of a game.

Players are made by :func:`callbreak.protocol.players.make_player`, the one place that reads a
spec (the web tables and the terminal use it too): bot names go through the bot registry
(``"expert:budget=0.1"``), which refuses a bot that does not play the game; URLs
(``http://host:port``) are bots speaking the public tournament protocol, which plays Call Break
only.
"""

from __future__ import annotations

from typing import Any

from callbreak.bots import Bot, BotError
from callbreak.protocol.players import check_url_rules, is_url, make_player

__all__ = ["build_player", "check_player", "is_url"]


def build_player(spec: str, seed: int | None = None, timeout: float | None = None,
                 game: str = "callbreak") -> Bot:
    """A fresh player of ``game`` for ``spec``; ``seed`` seeds its randomness where it has any.

    ``timeout`` is how long a remote player waits for each answer (its HTTP timeout).
    Raises :class:`BotError` naming what is wrong (unknown bot, a bot that does not play the
    game, bad option, a URL for a game other than Call Break).
    """
    return make_player(spec, seed, game=game, timeout=timeout)


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
    return str(player.name)


def _check_protocol_rules(options: Any) -> None:
    try:
        check_url_rules(options)
    except BotError as e:
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
