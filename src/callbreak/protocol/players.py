"""The one way to make a player from what a person types: a bot of ours by name, or a bot behind
the tournament protocol by its URL. The arena, the web tables and the terminal all seat players
through here, so they agree on what a URL is and on which games a URL bot plays.

>>> make_player("random", seed=1).name
'random'
>>> make_player(" HTTP://127.0.0.1:7000")
RemoteBot('http://127.0.0.1:7000')
>>> is_url("heuristic"), is_url(" https://bots.example/mine")
(False, True)
"""

from __future__ import annotations

from typing import Any

from callbreak.bots import CALL_BREAK_ENGINE, Bot, BotError, make_bot
from callbreak.core import CallbreakError
from callbreak.protocol.client import RemoteBot

URL_SCHEMES = ("http://", "https://")


def is_url(spec: object) -> bool:
    """Whether ``spec`` names a bot by its URL: ``http://`` or ``https://`` in any case (a URL's
    scheme is case-insensitive), spaces around it ignored."""
    return isinstance(spec, str) and spec.strip().lower().startswith(URL_SCHEMES)


is_remote = is_url  # the earlier name


def plays_url_bots(game: str) -> bool:
    """Whether a bot by URL can sit at a table of ``game`` (the tournament protocol speaks Call
    Break only)."""
    # A capability honestly absent: the protocol's wire has Call Break's rules and actions only.
    return game in CALL_BREAK_ENGINE


def check_url_game(spec: str, game: str) -> None:
    """Raise :class:`BotError` unless a bot by URL can play ``game``."""
    if not plays_url_bots(game):
        raise BotError(f"{spec.strip()!r} is a bot by URL: it speaks the public bot tournament's "
                       f"protocol, which plays Call Break only, not {game}")


def check_url_rules(options: Any) -> None:
    """Raise :class:`BotError` unless the tournament protocol can express these rules (it speaks
    the ``bhoos-tournament`` preset); the message is the protocol's reason."""
    from callbreak.core.rules import Rules
    from callbreak.protocol.wire import check_rules

    # A capability honestly absent: the protocol's wire has Call Break's rules and actions only.
    if not isinstance(options, Rules):
        raise BotError("the tournament protocol plays Call Break only")
    try:
        check_rules(options)
    except CallbreakError as e:
        raise BotError(str(e)) from None


def make_player(spec: str, seed: int | None = None, *, game: str = "callbreak",
                timeout: float | None = None) -> Bot:
    """A fresh player of ``game`` from a spec: a URL (see :func:`is_url`) is a
    :class:`RemoteBot`, anything else a bot of ours by registry name (``"heuristic"``,
    ``"expert:budget=0.1"``) built with ``seed``.

    ``timeout`` (seconds per answer) applies to remote players only; ``seed`` to ours only.
    Raises :class:`~callbreak.bots.BotError` for an unknown bot, a bot that does not play the
    game, bad options, or a URL for a game other than Call Break.
    """
    if not is_url(spec):
        return make_bot(spec, seed=seed, game=game)
    check_url_game(spec, game)
    try:
        return RemoteBot(spec.strip(), timeout=timeout)
    except CallbreakError as e:
        raise BotError(f"cannot make player {spec.strip()!r}: {e}") from None
