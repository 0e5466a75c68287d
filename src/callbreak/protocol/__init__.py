"""The public bot-tournament HTTP protocol (``/hi``, ``/bid``, ``/play``), both ways.

Serve our bots to it with :func:`create_app` (``callbreak bot-server``); seat any bot that speaks
it with :class:`RemoteBot`, or name players uniformly with :func:`make_player`.
"""

from callbreak.protocol.client import (
    RemoteBadAnswerError,
    RemoteBot,
    RemoteBotError,
    RemoteTimeoutError,
    RemoteUnreachableError,
    RulesNotSupportedError,
    wait_until_ready,
)
from callbreak.protocol.players import is_remote, is_url, make_player
from callbreak.protocol.server import create_app
from callbreak.protocol.wire import ProtocolError, parse_request, request_from_view

__all__ = [
    "ProtocolError", "RemoteBadAnswerError", "RemoteBot", "RemoteBotError", "RemoteTimeoutError",
    "RemoteUnreachableError", "RulesNotSupportedError", "create_app", "is_remote", "is_url", "make_player",
    "parse_request", "request_from_view", "wait_until_ready",
]
