"""The HTTP protocol ``callbreak serve`` runs: uvicorn's, with a time limit on a request's headers.

uvicorn waits for a request's headers as long as the client keeps the connection open, so a
client sending them a byte at a time holds a connection (and its memory) for good. Here the
headers of each request must all arrive within ``read_headers`` seconds (of the connection
opening, or of the answer to the request before it on a kept-alive connection); a client too
slow is cut off. The body's own limit is the app's (``read_body``), the hello's the websocket's.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from callbreak.server.limits import Limits

log = logging.getLogger("callbreak.server")


class HeadersInTime(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing a connection whose request headers are too slow."""

    read_headers: float | None = None  # seconds (0: no limit), read once from the settings

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if HeadersInTime.read_headers is None:
            HeadersInTime.read_headers = Limits.from_env().read_headers
        self.headers_due: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._expect_headers()

    def on_headers_complete(self) -> None:
        self._stop_waiting()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():  # kept alive: the next request's headers are due
            self._expect_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        super().connection_lost(exc)

    def _expect_headers(self) -> None:
        self._stop_waiting()
        if self.read_headers:
            self.headers_due = self.loop.call_later(self.read_headers, self._too_slow)

    def _stop_waiting(self) -> None:
        if self.headers_due is not None:
            self.headers_due.cancel()
            self.headers_due = None

    def _too_slow(self) -> None:
        self.headers_due = None
        log.info("closed a connection from %s: its request headers took over %g s",
                 self.client[0] if self.client else "?", self.read_headers)
        self.transport.close()
