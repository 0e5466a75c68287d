"""What one client may make and send, and the server-wide ceiling a public server needs.

A client is counted twice: by its guest identity (the browser's secret, sent with a new table,
or the seat's owner on a websocket) and by its address (behind a proxy, the address the proxy
forwards, which uvicorn reads from ``X-Forwarded-For`` when the proxy is in
``--forwarded-allow-ips``). A client that drops its guest identity is still one address; the
per-address allowances are larger, since people behind one address (a school, a mobile
network) share it. Every refusal is a :class:`Refusal`: a coded error with the seconds to wait
(``Retry-After``).

Tables are counted in the store as well as in the process: every table keeps keys of who made
it (a hash of the guest identity, and one of the address), so the new tables a minute and the
live tables of one client are counted over every process sharing the database (``--workers N``,
or processes behind a proxy): a client spread over two processes gets the allowance once, not
twice. Requests that arrive together are counted one by one: the store counts a client's tables
again just before it stores a new one, under a lock on the client's keys that every process
respects (:meth:`Gate.stored_counts`), and each process counts the tables it is making but has
not made yet against its ceiling. Websocket messages are counted per process (a
socket lives on one; a client with sockets on two processes may send up to twice as many), and
the ceiling on live bot tables is each process's own (it is about that process's CPU).

>>> window = Window(limit=2, period=60.0)
>>> window.hit("ann", now=0.0), window.hit("ann", now=1.0), window.hit("ann", now=2.0)
(None, None, 58.0)
>>> window.hit("ann", now=60.5)
"""

from __future__ import annotations

import math
import os
from collections import deque
from dataclasses import dataclass, fields
from typing import Any

from callbreak.core.words import N_
from callbreak.server.wire import MessageError


def _too_many_tables(kind: str) -> str:
    return (N_("at most {count} new tables a minute each; try again in {seconds} s") if kind == "guest"
            else N_("at most {count} new tables a minute from one address; try again in {seconds} s"))


class Refusal(MessageError):
    """A request refused by a limit: ``code``, why, and ``retry_after`` seconds to wait."""

    def __init__(self, code: str, message: str, retry_after: float, **params: Any) -> None:
        super().__init__(code, message, **params)
        self.retry_after = max(1, math.ceil(retry_after))  # whole seconds, as HTTP wants


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """The operator's settings (``callbreak serve`` flags, or ``CALLBREAK_<NAME>`` in capitals).

    0 turns a limit off.
    """

    tables_per_minute: int = 10  # new tables, per guest identity
    tables_per_minute_per_address: int = 30
    live_tables: int = 5  # tables made and not finished (lobby or playing), per guest identity
    live_tables_per_address: int = 20
    messages_per_second: float = 20.0  # websocket messages, per socket's guest or address...
    messages_per_second_per_address: float = 60.0  # ...bursts up to twice as many at once
    hints_per_minute: int = 20  # hints worked out for one seat (asking again on the same turn is free)...
    hints_per_minute_per_address: int = 60  # ...and for one address
    reviews_per_hour_per_address: int = 20  # game reviews started (a review done or under way is free)
    reviews_at_once: int = 4  # reviews being worked out, server-wide (per process)
    live_bot_tables: int = 200  # tables with bots (or open seats a bot will take), server-wide
    bot_table_share: float = 0.05  # the most of that ceiling one guest, or one address, may hold
    # Kept by --no-limits: nothing a client leaves behind counts against anyone for good.
    lobby_expiry: float = 600.0  # seconds a table never started lives before it is removed
    abandon_after: float = 600.0  # seconds a started table whose people have all left waits, then ends
    # Slow clients, also kept by --no-limits: seconds a request's headers, its body and a
    # websocket's hello may take to arrive, before the connection is closed.
    read_headers: float = 10.0
    read_body: float = 30.0
    hello: float = 15.0

    def counts_tables(self) -> bool:
        """Whether a limit counts a client's tables (then the store is asked for its counts)."""
        return any(n > 0 for n in (self.tables_per_minute, self.tables_per_minute_per_address,
                                   self.live_tables, self.live_tables_per_address))

    @classmethod
    def none(cls) -> Limits:
        """No limit at all (an app made in a program or a test; ``callbreak serve`` has them)."""
        return cls(**{f.name: 0 for f in fields(cls)})

    @classmethod
    def from_env(cls, **overrides: float | None) -> Limits:
        """Defaults, then ``CALLBREAK_TABLES_PER_MINUTE`` and the like, then ``overrides``;
        ``CALLBREAK_NO_LIMITS=1`` first turns every limit off but those in ``ALWAYS_ON`` (the
        lobby expiry, abandoned tables, slow clients): a trusted network, a load test."""
        values: dict[str, float] = {}
        if os.environ.get("CALLBREAK_NO_LIMITS", "") in ("1", "true"):
            values = {f.name: 0 for f in fields(cls) if f.name not in ALWAYS_ON}
        for f in fields(cls):
            raw = os.environ.get(f"CALLBREAK_{f.name.upper()}")
            if raw:
                values[f.name] = float(raw)
            given = overrides.get(f.name)
            if given is not None:
                values[f.name] = given
        typed = {k: (int(v) if isinstance(getattr(cls(), k), int) else float(v)) for k, v in values.items()}
        return cls(**typed)  # type: ignore[arg-type]


ALWAYS_ON = ("lobby_expiry", "abandon_after", "read_headers", "read_body", "hello")  # kept by --no-limits


class Window:
    """At most ``limit`` events per key in any ``period`` seconds (a sliding window)."""

    def __init__(self, *, limit: int, period: float) -> None:
        self.limit = limit
        self.period = period
        self.events: dict[str, deque[float]] = {}

    def hit(self, key: str, *, now: float) -> float | None:
        """Count an event now, or refuse it: None, or the seconds until one is allowed."""
        if self.limit <= 0:
            return None
        seen = self.events.get(key)
        if seen is None:
            if len(self.events) > 100_000:  # forget keys with nothing left in their window
                self.events = {k: q for k, q in self.events.items() if q and q[-1] > now - self.period}
            seen = self.events[key] = deque()
        while seen and seen[0] <= now - self.period:
            seen.popleft()
        if len(seen) >= self.limit:
            return seen[0] + self.period - now
        seen.append(now)
        return None


class Bucket:
    """A token bucket per key: ``rate`` events a second on average, bursts up to ``burst``.

    >>> b = Bucket(rate=2.0, burst=2.0)
    >>> [b.take("k", now=0.0) for _ in range(3)]
    [None, None, 0.5]
    """

    def __init__(self, *, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.level: dict[str, tuple[float, float]] = {}  # key -> (tokens, when)

    def take(self, key: str, *, now: float) -> float | None:
        """Take a token, or refuse: None, or the seconds until one is there."""
        if self.rate <= 0:
            return None
        tokens, when = self.level.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.rate)
        if tokens < 1:
            self.level[key] = (tokens, now)
            return (1 - tokens) / self.rate
        if len(self.level) > 100_000:  # forget keys whose bucket has filled up again
            full = self.burst / self.rate
            self.level = {k: v for k, v in self.level.items() if now - v[1] < full}
        self.level[key] = (tokens - 1, now)
        return None


class Gate:
    """The limits of one server process, applied: :meth:`new_table` and :meth:`message` raise
    a :class:`Refusal` or let the request through (and count it)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.made = {"guest": Window(limit=limits.tables_per_minute, period=60.0),
                     "address": Window(limit=limits.tables_per_minute_per_address, period=60.0)}
        self.live = {"guest": limits.live_tables, "address": limits.live_tables_per_address}
        self.hinted = {"seat": Window(limit=limits.hints_per_minute, period=60.0),
                       "address": Window(limit=limits.hints_per_minute_per_address, period=60.0)}
        self.reviewed = Window(limit=limits.reviews_per_hour_per_address, period=3600.0)
        self.sent = {"guest": Bucket(rate=limits.messages_per_second, burst=2 * limits.messages_per_second),
                     "address": Bucket(rate=limits.messages_per_second_per_address,
                                       burst=2 * limits.messages_per_second_per_address)}

    def share(self) -> int:
        """The live bot tables one guest, or one address, may hold here (0: no share limit):
        a fair share of the ceiling, so that a few clients cannot fill the server."""
        ceiling, share = self.limits.live_bot_tables, self.limits.bot_table_share
        return max(1, math.floor(ceiling * share)) if ceiling > 0 and share > 0 else 0

    def new_table(self, who: dict[str, str | None], live: dict[str, int], bot_tables: int, *,
                  now: float, recent: dict[str, tuple[int, float]] | None = None,
                  held: dict[str, int] | None = None) -> None:
        """A new table by ``who`` (its guest key and address, either None if unknown), who has
        ``live`` tables (by the same keys) not yet finished, on a server with ``bot_tables``
        live tables with bots, ``held`` (by key) of them ``who``'s; ``recent``: by kind, the
        tables ``who`` made in the last minute as the store counts them (every process's) and
        how many seconds ago the oldest was."""
        self._check_live(who, live)
        if 0 < self.limits.live_bot_tables <= bot_tables:
            raise Refusal("server_full", N_("this server is full: it is running as many tables with bots "
                                            "as it can ({ceiling}); try again in a few minutes"), 60.0,
                          ceiling=self.limits.live_bot_tables)
        share = self.share()
        for kind, key in who.items():
            if key is not None and 0 < share <= (held or {}).get(kind, 0):
                message = (N_("you have {count} of this server's {ceiling} tables with bots, the most one "
                              "player may hold: finish or leave one") if kind == "guest" else
                           N_("your address has {count} of this server's {ceiling} tables with bots, the "
                              "most one address may hold: finish or leave one"))
                raise Refusal("fair_share", message, 60.0, count=share, ceiling=self.limits.live_bot_tables)
        self._check_recent(who, recent or {})
        for kind, key in who.items():
            if key is None:
                continue
            wait = self.made[kind].hit(key, now=now)
            if wait is not None:
                per = self.made[kind].limit
                raise Refusal("too_many_tables", _too_many_tables(kind), wait, count=per, seconds=round(wait))

    def stored_counts(self, who: dict[str, str | None], counts: dict[str, tuple[int, int, float]]) -> None:
        """The last word on a new table by ``who``, given the store's ``counts`` of their tables
        (live, made in the last minute, the oldest's age), taken under a lock on their keys just
        before the table is stored (so that concurrent requests are counted one by one)."""
        self._check_live(who, {kind: live for kind, (live, _, _) in counts.items()})
        self._check_recent(who, {kind: (made, age) for kind, (_, made, age) in counts.items()})

    def _check_live(self, who: dict[str, str | None], live: dict[str, int]) -> None:
        for kind, key in who.items():
            if key is not None and 0 < self.live[kind] <= live.get(kind, 0):
                message = (N_("you have {count} tables not yet finished, the most this server allows at "
                              "once: finish or leave one (a table never started closes by itself after "
                              "{minutes} minutes)") if kind == "guest" else
                           N_("your address has {count} tables not yet finished, the most this server "
                              "allows at once: finish or leave one (a table never started closes by "
                              "itself after {minutes} minutes)"))
                raise Refusal("too_many_live_tables", message, 60.0, count=live[kind],
                              minutes=round(self.limits.lobby_expiry / 60))

    def _check_recent(self, who: dict[str, str | None], recent: dict[str, tuple[int, float]]) -> None:
        for kind, (count, age) in recent.items():
            per = self.made[kind].limit
            if who.get(kind) is not None and 0 < per <= count:
                raise Refusal("too_many_tables", _too_many_tables(kind), 60.0 - age, count=per,
                              seconds=round(60.0 - age))

    def hint(self, who: dict[str, str | None], *, now: float) -> None:
        """A hint to work out for ``who`` (a seat's key, and the address that asks)."""
        for kind, key in who.items():
            if key is None:
                continue
            wait = self.hinted[kind].hit(key, now=now)
            if wait is not None:
                message = (N_("at most {count} hints a minute for one seat; try again in {seconds} s")
                           if kind == "seat" else
                           N_("at most {count} hints a minute from one address; try again in {seconds} s"))
                raise Refusal("too_many_hints", message, wait, count=self.hinted[kind].limit,
                              seconds=max(1, round(wait)))

    def review(self, address: str | None, running: int, *, now: float) -> None:
        """A review to start for ``address``, with ``running`` reviews under way here."""
        if 0 < self.limits.reviews_at_once <= running:
            raise Refusal("reviews_busy", N_("this server is reviewing as many games as it can ({count}); "
                                             "try again in a minute"), 60.0, count=self.limits.reviews_at_once)
        wait = self.reviewed.hit(address, now=now) if address is not None else None
        if wait is not None:
            raise Refusal("too_many_reviews", N_("at most {count} reviews an hour from one address; try "
                                                 "again in {minutes} minutes"), wait,
                          count=self.reviewed.limit, minutes=max(1, math.ceil(wait / 60)))

    def message(self, who: dict[str, str | None], *, now: float) -> None:
        """One websocket message from ``who`` (the socket's seat owner and address)."""
        for kind, key in who.items():
            if key is None:
                continue
            wait = self.sent[kind].take(key, now=now)
            if wait is not None:
                message = (N_("too many messages: at most {rate} a second each; this one was dropped")
                           if kind == "guest" else
                           N_("too many messages: at most {rate} a second from one address; this one was "
                              "dropped"))
                raise Refusal("rate_limited", message, wait, rate=f"{self.sent[kind].rate:g}")
