"""One way to name any player: a bot of ours or a bot behind the tournament protocol.

>>> make_player("random", seed=1).name
'random'
>>> make_player("http://127.0.0.1:7000")
RemoteBot('http://127.0.0.1:7000')
"""

from __future__ import annotations

from callbreak.bots import Bot, make_bot
from callbreak.protocol.client import RemoteBot


def is_remote(spec: str) -> bool:
    """Whether ``spec`` names a protocol bot by URL."""
    return spec.strip().lower().startswith(("http://", "https://"))


def make_player(spec: str, seed: int | None = None, *, timeout: float | None = None) -> Bot:
    """A player from a spec: ``http://host:port`` is a :class:`RemoteBot`, anything else a bot
    of ours by registry name (``"heuristic"``, ``"expert:budget=0.1"``), built with ``seed``.

    ``timeout`` (seconds per answer) applies to remote players only; ``seed`` to ours only.
    Raises :class:`~callbreak.bots.BotError` for an unknown bot name or bad options.
    """
    if is_remote(spec):
        return RemoteBot(spec.strip(), timeout=timeout)
    return make_bot(spec, seed)
