"""Play any bot that speaks the bot-tournament protocol: :class:`RemoteBot`.

A :class:`RemoteBot` is a :class:`~callbreak.bots.Bot`: given a seat view it writes the ``/bid``
or ``/play`` body from that view alone, posts it, and reads the answer. Whatever goes wrong (no
answer in time, an HTTP or network error, an answer that is not a legal action) raises a
:class:`RemoteBotError` subclass naming what happened; the caller records a fault and plays the
rules' default, and the game goes on.
"""

from __future__ import annotations

import os
import threading
import time
from types import TracebackType
from typing import Any

import httpx

from callbreak.bots import Decision
from callbreak.core import CallbreakError, SeatView
from callbreak.protocol.wire import (
    ProtocolError,
    action_from_answer,
    check_rules,
    kind_for,
    request_from_view,
)

GRACE = 1.0
"""Seconds a remote bot gets beyond its thinking budget for the round trip, unless told."""


def deal_budget_ms(budget: float, decisions_left: int, *, bid: bool = False,
                   forced: bool = False) -> float:
    """The ``timeBudget`` to send for a referee that gives each decision ``budget`` seconds.

    The protocol speaks of the time left for the deal, and our bot-server plans it, letting a
    close choice take more than an even share. A referee with a per-decision clock (the arena)
    would file that as a timeout, so this sends the most deal time under which our server's plan
    (:func:`callbreak.protocol.server.allotment`) gives this decision no more than ``budget``,
    and never more than ``budget`` times the decisions left (what a bot dividing evenly gets).

    >>> deal_budget_ms(1.0, 13) <= 13_000
    True
    """
    from callbreak.protocol.server import allotment  # the web stack, only when asking

    most = budget * 1000 * max(decisions_left, 1)
    if allotment(most, decisions_left, bid=bid, forced=forced) <= budget:
        return most
    low, high = 0.0, most
    for _ in range(40):
        middle = (low + high) / 2
        if allotment(middle, decisions_left, bid=bid, forced=forced) <= budget:
            low = middle
        else:
            high = middle
    return low


class RemoteBotError(CallbreakError):
    """A remote bot failed to give a legal answer; the message says how.

    ``fault_kind`` is how a referee (the arena's) should file the fault: ``"error"``,
    ``"timeout"`` or ``"illegal"``.
    """

    fault_kind = "error"


class RemoteTimeoutError(RemoteBotError):
    """The remote bot did not answer in time."""

    fault_kind = "timeout"


class RemoteUnreachableError(RemoteBotError):
    """The remote bot could not be reached, or answered with an HTTP error."""


class RemoteBadAnswerError(RemoteBotError):
    """The remote bot answered, but not with a legal action."""

    fault_kind = "illegal"


class RulesNotSupportedError(RemoteBotError):
    """The protocol cannot express the rules the table plays."""


_shared: tuple[int, httpx.Client] | None = None  # (process id, client)
_shared_lock = threading.Lock()


def _shared_client() -> httpx.Client:
    """One connection pool for every remote bot of this process: players built per decision (as
    the web tables do) then reuse kept-alive connections instead of opening a socket per move.
    A forked worker (the arena's) gets its own pool rather than its parent's sockets."""
    global _shared
    with _shared_lock:
        if _shared is None or _shared[0] != os.getpid():
            _shared = (os.getpid(), httpx.Client(timeout=10.0,
                                                 limits=httpx.Limits(max_connections=64)))
        return _shared[1]


def _base(url: str) -> str:
    scheme, sep, rest = url.strip().partition("://")
    if not sep or scheme.lower() not in ("http", "https"):
        raise RemoteBotError(f"a remote bot is named by an http:// or https:// URL, got {url!r}")
    return f"{scheme.lower()}://{rest}".rstrip("/")  # a scheme is case-insensitive


class RemoteBot:
    """A bot behind the protocol at ``url``, e.g. ``http://127.0.0.1:7000``.

    Args:
        url: the bot's base URL.
        timeout: seconds to wait for each answer; by default the decision's budget plus
            :data:`GRACE`.
        name: how the bot is shown; the URL by default.
    """

    def __init__(self, url: str, *, timeout: float | None = None, name: str | None = None) -> None:
        self.url = _base(url)
        if timeout is not None and not timeout > 0:
            raise RemoteBotError(f"timeout must be a positive number of seconds, got {timeout!r}")
        self.timeout = timeout
        self.name = name or self.url
        self._http = _shared_client()

    def decide(self, view: SeatView, budget: float) -> Decision:
        """Ask the remote bot for this seat's action, giving it ``budget`` seconds.

        Raises :class:`RulesNotSupportedError` for rules other than ``bhoos-tournament``, and
        another :class:`RemoteBotError` when the bot does not answer a legal action in time.
        """
        try:
            check_rules(view.rules)
        except ProtocolError as e:
            raise RulesNotSupportedError(f"{self.name}: {e}") from None
        kind = kind_for(view)
        hand = len(view.hand or ())
        left = hand + 1 if kind == "bid" else hand
        body = request_from_view(view, time_budget_ms=deal_budget_ms(
            max(budget, 0.0), left, bid=kind == "bid", forced=len(view.legal) == 1))
        data = self._post(kind, body, self.timeout or max(budget, 0.0) + GRACE)
        try:
            action = action_from_answer(view, data)
        except ProtocolError as e:
            raise RemoteBadAnswerError(f"{self.name} /{kind}: {e}") from None
        return Decision(action, f"chosen by the remote bot {self.name}")

    def _post(self, kind: str, body: dict[str, Any], timeout: float) -> Any:
        where = f"{self.url}/{kind}"
        try:
            response = self._http.post(where, json=body, timeout=timeout)
        except httpx.TimeoutException:
            raise RemoteTimeoutError(f"{self.name} did not answer /{kind} within {timeout:.2f} s") \
                from None
        except httpx.HTTPError as e:
            raise RemoteUnreachableError(f"cannot reach {where}: {e}") from None
        if response.status_code != 200:
            raise RemoteUnreachableError(
                f"{where} answered HTTP {response.status_code}: {response.text[:300]}")
        try:
            return response.json()
        except ValueError:
            raise RemoteBadAnswerError(
                f"{where} answered something that is not JSON: {response.text[:100]!r}") from None

    def hello(self, timeout: float = 1.0) -> bool:
        """Whether the bot answers ``GET /hi`` with ``{"value": "hello"}`` right now."""
        try:
            r = self._http.get(f"{self.url}/hi", timeout=timeout)
            return r.status_code == 200 and r.json() == {"value": "hello"}
        except (httpx.HTTPError, ValueError):
            return False

    def close(self) -> None:
        """Nothing to release: connections live in a pool shared by all remote bots."""

    def __enter__(self) -> RemoteBot:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"RemoteBot({self.url!r})"


def wait_until_ready(url: str, *, timeout: float = 10.0, interval: float = 0.05) -> None:
    """Poll ``GET /hi`` until the bot at ``url`` answers; raise :class:`RemoteBotError` if it
    has not within ``timeout`` seconds (the tournament polls every bot like this)."""
    base = _base(url)
    end = time.monotonic() + timeout
    with httpx.Client(timeout=max(interval, 0.5)) as http:
        while True:
            try:
                r = http.get(f"{base}/hi")
                if r.status_code == 200 and r.json() == {"value": "hello"}:
                    return
            except (httpx.HTTPError, ValueError):
                pass
            if time.monotonic() >= end:
                raise RemoteUnreachableError(f"no bot answered GET {base}/hi within {timeout:g} s")
            time.sleep(interval)
