"""The authoritative table service: lobby, seats and tokens, the game loop, timers and bots.

All of it runs on the server's event loop. Everything that changes a table is a step, and a
table's steps run one at a time (its ``lock``): an action is checked (token, seat, version, then
the engine's own verify), written to the store, applied, and only then broadcast. The store write
runs in a writer thread (:meth:`TableService.write`): while one table waits for a slow commit,
the loop serves every other table and client, and that table's next step waits its turn, so its
writes stay in order and nothing is shown before it is stored. Bots think in a worker thread and
their answer is applied only if the table has not moved on meanwhile.

A program or test that drives a service directly calls the plain methods (``act``, ``create``...):
they run the same steps to their end on the calling thread, the store writes included.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import hashlib
import logging
import math
import os
import re
import secrets
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any, TypeVar

from callbreak.core import (
    CHANCE,
    Action,
    CallbreakError,
    IllegalActionError,
)
from callbreak.core.game import Game, GameView
from callbreak.core.words import N_
from callbreak.games import game_info
from callbreak.games.registry import option_names
from callbreak.referee import Fault, PersonSeat, Referee, judge
from callbreak.server import engines, players
from callbreak.server.limits import Gate, Limits, Refusal
from callbreak.server.metrics import Metrics
from callbreak.server.warmup import KernelWarmup
from callbreak.server.wire import (
    MessageError,
    dumps,
    engine_refusal,
    parse_action,
    people_text,
    personal_json,
    public_action_json,
    public_json,
    state_text,
    view_json,
)
from callbreak.store import LeaseLost, Store, StoredGame, StoreError, store_away

log = logging.getLogger("callbreak.server")

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L: easy to read aloud
CODE_LENGTH = 12  # 31**12 ~ 7.9e17 codes: guessing a live one is hopeless
NOTICES_KEPT = 20  # the latest clock notices a table keeps (a returning player sees theirs)
# Why a table closed, as its sockets are told.
NEVER_STARTED = "this table was never started and has closed; make a new one"
ABANDONED = "everyone left this table long enough that it has ended; make a new one"
ABSENT_GRACE = 20.0  # seconds an absent player's turn waits (without a turn timer) before a bot plays
BOT_BUDGET = 1.0
FINISHED_TTL = 3600.0  # seconds a finished table stays live before only the history has it
MAX_NAME = 24
PREPARING = "preparing the expert, first use: up to a minute"  # the kernel is being compiled
RETRY_MOST = 30.0  # seconds at most between tries of a step the store refused while away
STORE_WRITERS = 4  # threads that write the tables' changes to the store
# Threads that work out hints: apart from the tables' bots, so that no flood of hints holds up a
# game's moves, and one, so that hints take one core at most (each is a second of the expert's).
HINT_WORKERS = 1
HINT_NICENESS = 10  # how much lower their CPU priority is than the rest of the server's

T = TypeVar("T")
# Set while a step runs to its end on the calling thread (:func:`inline`): its writes run there.
_INLINE: contextvars.ContextVar[bool] = contextvars.ContextVar("callbreak_inline_step", default=False)


async def whole(step: Coroutine[Any, Any, T]) -> T:
    """Await a step that runs to its end even if the caller is cancelled (a socket that closed, an
    HTTP request dropped): a step cut at its write would leave the table behind its store (the
    deal stored, not applied: the table waited for ever)."""
    task = asyncio.ensure_future(step)
    task.add_done_callback(lambda t: t.cancelled() or t.exception())  # (retrieved: never "lost")
    return await asyncio.shield(task)


def inline(step: Coroutine[Any, Any, T]) -> T:
    """Run a table step to its end on this thread, its store writes included: what the plain
    methods of :class:`TableService` do, for a program or test without an event loop to await
    on. A step that would have to wait (for another step at its table) is an error here."""
    token = _INLINE.set(True)
    try:
        step.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    finally:
        _INLINE.reset(token)
    step.close()
    raise RuntimeError("a table step had to wait for another; await it on the event loop instead")


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(code: str) -> str:
    """Codes are shown grouped (``ABCD-EFGH-JKMN``) and typed in any case."""
    return "".join(ch for ch in code.upper() if ch.isalnum())


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


GUEST = re.compile(r"[A-Za-z0-9_-]{16,64}")
HANDOFF_TTL = 600.0  # seconds a "continue on another device" code stays good


def player_key(guest: Any) -> str | None:
    """The leaderboard's key for a browser's guest identity (a random secret the page keeps):
    only its hash is stored, so the key in the database cannot be used to play as that guest."""
    if guest is None:
        return None
    if not isinstance(guest, str) or not GUEST.fullmatch(guest):
        raise MessageError("bad_guest", "guest must be 16 to 64 letters, digits, - or _")
    return token_hash("guest:" + guest)[:32]


def maker_keys(who: dict[str, str | None]) -> dict[str, str | None]:
    """The keys a table's maker is stored under: the guest key as it is (already a hash), the
    address hashed (the store need not keep people's addresses)."""
    address = who.get("address")
    return {"guest": who.get("guest"),
            "address": None if not address else token_hash("address:" + address)[:32]}


def clean_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip():
        raise MessageError("bad_name", N_("a display name is needed"))
    text = " ".join(str(name).split())
    if len(text) > MAX_NAME:
        raise MessageError("bad_name", N_("a display name has at most {count} characters"), count=MAX_NAME)
    return text


def parse_config(data: Any, *, url_bots: bool = True) -> dict[str, Any]:
    """Check a create-table request for any registered game and return the stored configuration
    (seed excluded).

    With ``url_bots`` off, a bot seated by URL is refused (``url_bots_off``): such a bot makes the
    server send HTTP requests wherever the table's creator points it.
    """
    if not isinstance(data, dict):
        raise MessageError("bad_config", "the table settings must be a JSON object")
    name = data.get("game", engines.CALLBREAK)
    try:
        info = game_info(name if isinstance(name, str) else repr(name))
    except CallbreakError as e:
        raise MessageError("bad_config", N_("these settings are not valid: {problem}"), problem=str(e), english=str(e)) from None
    count = data.get("players", info.default_seats)
    try:
        count = info.check_seats(count)
    except CallbreakError as e:
        raise MessageError("bad_config", N_("these settings are not valid: {problem}"), problem=str(e), english=str(e)) from None
    preset = data.get("preset", info.default_preset)
    try:
        info.preset(preset if isinstance(preset, str) else repr(preset))
    except CallbreakError as e:
        raise MessageError("bad_config", N_("these settings are not valid: {problem}"), problem=str(e), english=str(e)) from None
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise MessageError("bad_config", N_("options must be an object of option: value"))
    for key, setting in (("deals", "deals"), ("turn_timer", "timer")):
        if key in options:  # the table's own setting would silently override it
            raise MessageError("bad_config", f"set {key} with the table setting {setting!r}, not as a "
                                             "rule option")
    defaults = info.make_options(preset, {})
    deals = data.get("deals", defaults.deal_limit or 5) if "deals" in option_names(info) else None
    # deals None: unlimited, until the host stops the table between deals.
    if deals is not None and (isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= 100):
        raise MessageError("bad_config", f"deals must be a whole number 1..100 or null (unlimited), "
                                         f"got {deals!r}")
    timer, bot_delay = _check_timing(data, defaults.turn_timer)
    config = {"game": info.name, "players": count, "preset": preset, "options": options,
              "deals": deals, "timer": timer}
    bots = data.get("bots", [engines.strongest_bot(config)] * count)
    if isinstance(bots, str):
        bots = [bots] * count
    if not isinstance(bots, list) or len(bots) != count:
        raise MessageError("bad_config", f"bots must be one level for every seat (a list of {count})")
    bots = [engines.check_bot(config, b) for b in bots]
    if not url_bots:
        refuse_url_bots(bots)
    try:
        made_game = engines.new_game(config)
        if any(players.is_url(b) for b in bots):
            players.check_remote_rules(made_game.options)
    except MessageError:
        raise
    except CallbreakError as e:
        raise MessageError("bad_config", N_("these settings are not valid: {problem}"), problem=str(e), english=str(e)) from None
    # Store the options as the game read them, so the lobby shows every setting in force.
    read = made_game.options.to_dict()
    options = {k: read[k] for k in options if k in read}
    return {**config, "options": options, "bots": bots, "bot_delay": bot_delay}


def refuse_url_bots(bots: list[str]) -> None:
    """Refuse (``url_bots_off``) a list of seat bots that seats any bot by URL."""
    urls = [f"seat {i + 1}: {b}" for i, b in enumerate(bots) if players.is_url(b)]
    if urls:
        raise MessageError("url_bots_off", N_("cannot seat a bot by URL ({urls}): bots by URL are turned off on "
                                              "this server; pick a bot level instead"), urls="; ".join(urls))


def _check_timing(data: dict[str, Any], default_timer: Any) -> tuple[Any, float]:
    """The turn timer and bot delay of a create-table request."""
    timer = data.get("timer", default_timer)
    if timer is not None and (isinstance(timer, bool) or not isinstance(timer, int | float)
                              or not 1 <= timer <= 600):
        raise MessageError("bad_config", f"timer must be 1..600 seconds or null, got {timer!r}")
    bot_delay = data.get("bot_delay", 0.7)
    if isinstance(bot_delay, bool) or not isinstance(bot_delay, int | float) or not 0 <= bot_delay <= 10:
        raise MessageError("bad_config", f"bot_delay must be 0..10 seconds, got {bot_delay!r}")
    return timer, float(bot_delay)


@dataclass
class Connection:
    """One websocket (or test) client: its seat (None for a spectator) and its outbox."""

    seat: int | None
    send: Callable[[dict[str, Any] | str], None]  # a message, or one already encoded
    alive: bool = True
    token_hash: str | None = None  # of the token it said hello with: the seat is its while they match
    # Sends a state with the time its action was stored (a socket: the latency is measured once
    # the state is written); None: ``send``.
    timed_send: Callable[[str, float], None] | None = None
    # Closes a socket with a websocket close code (the server is stopping: 1012); None: a test's.
    close: Callable[[int], None] | None = None
    address: str | None = None  # the client's (hints a minute are counted by it too)


@dataclass
class Seat:
    kind: str = "open"  # open, human, bot
    name: str = ""
    bot: str | None = None
    token_hash: str | None = None
    # Decisions of this seat's bot that failed (crashed, timed out, illegal) and were replaced by
    # the default action: public, so everyone can see a remote bot misbehaving.
    faults: int = 0
    last_fault: str = ""
    player: str | None = None  # a person's guest identity (its key), for the leaderboard

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "bot": self.bot, "token_hash": self.token_hash,
                "faults": self.faults, "last_fault": self.last_fault, "player": self.player}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Seat:
        return cls(kind=d["kind"], name=d["name"], bot=d.get("bot"), token_hash=d.get("token_hash"),
                   faults=int(d.get("faults", 0)), last_fault=str(d.get("last_fault", "")),
                   player=d.get("player"))


@dataclass
class Table:
    """One live table: settings, seats, the match once started, connections and the turn clock."""

    id: int
    code: str
    config: dict[str, Any]
    seed: int
    host_hash: str
    seats: list[Seat]
    status: str = "lobby"
    match: Game | None = None
    connections: list[Connection] = field(default_factory=list)
    deadline: float | None = None  # monotonic time the seat to act runs out
    deadline_kind: str = ""  # "timer" (default action), "absent" (a bot stands in), "bot"
    turn_started: float = 0.0
    clock: asyncio.TimerHandle | None = None
    thinking: bool = False
    thinking_at: int | None = None  # the version the bot's decision under way is for
    rematch_code: str | None = None  # stored too: a player who comes back later is sent there
    stop_requested: bool = False  # unlimited deals: the host asked to stop at the next deal's end
    paused: bool = False  # every person left: the clock stopped, and restarts in full on a return
    paused_at: float = 0.0  # when it last paused (time.time()): a table left long enough ends
    # The hint being (or last) worked out here: for which (version, seat), and its answer to come.
    # One at a time per table; asking again on the same turn gets the same answer.
    hinting: tuple[tuple[int, int], asyncio.Task[dict[str, Any]]] | None = None
    store_failures: int = 0  # the store refused the table's own step (a deal, the end) this many times running
    # Several processes (server/cluster.py): the lease epoch this process writes under while it
    # owns the table; a replica follows the owner's stored actions and runs no clock of its own.
    epoch: int | None = None
    replica: bool = False
    remote_seats: set[int] = field(default_factory=set)  # seats connected to other processes
    # What the clock did for people (newest last): shown to the table and to whoever comes back.
    notices: list[dict[str, Any]] = field(default_factory=list)
    # Seat -> what its bot learnt in the game so far (players.decide), as stored with its last
    # action: the seat's bot for the next decision, here or after a crash elsewhere, is given it.
    memories: dict[int, dict[str, Any]] = field(default_factory=dict)
    # Seat -> (hash of a one-time code, expiry): the seat may move to the device that shows it.
    handoffs: dict[int, tuple[str, float]] = field(default_factory=dict)
    stored_at: float | None = None  # perf_counter when its latest action was stored, until sent
    created_at: float = field(default_factory=time.time)  # when it was made (a lobby expires)
    made_by: dict[str, str | None] = field(default_factory=dict)  # its maker's guest key and address
    # Held by the step that changes the table (an action, a bot's move, a deal...): one at a time,
    # so the store writes of a table are made, and its changes shown, in order.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False, compare=False)
    # The referee of the match (see referee).
    _referee: Referee | None = field(default=None, repr=False, compare=False)

    @property
    def version(self) -> int:
        return 0 if self.match is None else len(self.match.history)

    @property
    def referee(self) -> Referee:
        """The match's referee, which the table's steps go through (callbreak/referee.py); made
        again for a match set anew (a restore) or moved on without it (:meth:`follow`)."""
        match = self.match
        assert match is not None
        if self._referee is None or self._referee.game is not match:
            seats = [PersonSeat(s.name) for s in self.seats]  # (bots are asked by the service, off the loop)
            self._referee = Referee(match, TableDealer(self), seats)
        return self._referee

    def follow(self, stored: Iterable[Any]) -> None:
        """Apply actions another process stored (this one a replica of its table): a record
        replayed, not refereed again; a referee made before has not seen them, so it is let go."""
        assert self.match is not None
        for data in stored:
            self.match.apply(engines.stored_action(data))
        self._referee = None

    def seat_of(self, token: Any) -> int | None:
        if not isinstance(token, str) or not token:
            return None
        h = token_hash(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return i
        return None

    def people_connected(self) -> bool:
        """Whether a person seated here has a live socket (on this process or another)."""
        return any(self.connected(s) for s, st in enumerate(self.seats) if st.kind == "human")

    def has_bots(self) -> bool:
        """Whether bots play here: a bot seat, or an open seat (a bot takes it at the start)."""
        return any(s.kind in ("bot", "open") for s in self.seats)

    def seats_here(self) -> set[int]:
        """The seats with a live socket on this process."""
        return {c.seat for c in self.connections if c.alive and c.seat is not None}

    def connected(self, seat: int) -> bool:
        return seat in self.remote_seats or any(c.seat == seat and c.alive for c in self.connections)

    def public_seats(self) -> list[dict[str, Any]]:
        return [{"seat": i, "kind": s.kind, "name": s.name, "bot": s.bot,
                 "connected": s.kind == "bot" or self.connected(i), "faults": s.faults,
                 "last_fault": s.last_fault} for i, s in enumerate(self.seats)]

    def lobby_json(self) -> dict[str, Any]:
        c = self.config
        info = engines.info_of(c)
        practice = bool(c.get("practice"))
        return {"code": self.code, "status": self.status, "game": info.name,
                "title": f"{info.title}, practice (seeded)" if practice else info.title,
                "practice": practice,
                "players": len(self.seats), "preset": c.get("preset", info.default_preset),
                "options": c["options"],
                "deals": c["deals"], "timer": c["timer"], "bots": c["bots"], "seats": self.public_seats(),
                # what the page needs of the game beyond its view: whether the host may stop the
                # table (its rules count deals and none were set) and whether low scores win
                "unlimited": c["deals"] is None and engines.counts_deals(c), "low_wins": info.low_wins,
                "host_seat": next((i for i, s in enumerate(self.seats) if s.token_hash == self.host_hash), None),
                "rematch": self.rematch_code, "stop_requested": self.stop_requested}

    def stored_config(self) -> dict[str, Any]:
        """The settings as stored: the table's settings plus what only the server knows."""
        stored = {**self.config, "seed": self.seed, "host_hash": self.host_hash,
                  "stop_requested": self.stop_requested}
        if self.rematch_code is not None:
            stored["rematch"] = self.rematch_code
        return stored


class TableService:
    """Every live table, the store behind them, and the loop their clocks run on."""

    def __init__(self, store: Store, *, url_bots: bool = True, practice: bool = False,
                 metrics: Metrics | None = None, limits: Limits | None = None) -> None:
        self.store = store
        self.metrics = metrics if metrics is not None else Metrics()
        self.gate = Gate(limits if limits is not None else Limits())
        self.url_bots = url_bots  # whether a table may seat a bot by URL (the server then calls it)
        self.practice = practice  # whether a client may seed a table's deals (practice tables)
        self.tables: dict[str, Table] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.cluster: Any = None  # a server/cluster.Cluster when processes share PostgreSQL
        # The bots' compiled kernel, made ready off the loop when the app starts (None: a
        # service without an app, as some tests make: bots build it themselves).
        self.warmup: KernelWarmup | None = None
        self._writers = ThreadPoolExecutor(STORE_WRITERS, thread_name_prefix="store-write")
        self._hinters = ThreadPoolExecutor(HINT_WORKERS, thread_name_prefix="hint", initializer=_lower_priority)
        self._steps: set[asyncio.Task[Any]] = set()  # steps started by a clock or a bot, running
        # Who makes each new table admitted and not yet made (or given up): the ceiling and the
        # shares of it count them.
        self._making: list[dict[str, str | None]] = []

    async def write(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)``, a store write of a step, in a writer thread: a slow commit
        holds up the step that waits for it, not the event loop (every other table and client
        goes on). Run inline (:func:`inline`), it runs on the calling thread."""
        if _INLINE.get():
            return fn(*args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._writers, functools.partial(fn, *args, **kwargs))

    async def finishing(self, code: str | None = None) -> None:
        """Wait for the ends of games being stored here (``code``'s, or every table's): a player
        sees a game end as soon as its last move is stored, and the history must list it by the
        time they ask for it."""
        tables = list(self.tables.values()) if code is None else [t for t in (self.tables.get(code),) if t]
        for t in tables:
            if not t.replica and t.status != "over" and t.match is not None and t.match.is_over:
                async with t.lock:  # the step that stores the end holds the table's turn
                    pass

    def close(self) -> None:
        """Stop the writer threads once the writes under way are done (the server is stopping)."""
        self._writers.shutdown(wait=True)
        self._hinters.shutdown(wait=False, cancel_futures=True)

    def spawn(self, table: Table, step: Coroutine[Any, Any, Any]) -> asyncio.Task[None]:
        """Run ``step`` at ``table`` once the step before it is done (a clock ran out, a bot
        answered, a table was taken over): a task of its own, on the loop."""
        async def in_turn() -> None:
            _INLINE.set(False)  # (this task's own context: a clock armed inline runs on the loop)
            async with table.lock:
                try:
                    await step
                except Exception:
                    log.exception("table %s: a step failed", table.code)

        loop = self.loop or asyncio.get_running_loop()
        task = loop.create_task(in_turn())
        self._steps.add(task)
        task.add_done_callback(self._steps.discard)
        return task

    # --- limits ---------------------------------------------------------------------------------

    def bot_tables(self) -> list[Table]:
        """Live tables run here with bots (or open seats bots will take): the ceiling counts them."""
        return [t for t in self.tables.values()
                if not t.replica and t.status in ("lobby", "playing") and t.has_bots()]

    @contextlib.asynccontextmanager
    async def admitting(self, guest: Any, address: str | None) -> AsyncIterator[dict[str, str | None]]:
        """Refuse a new table over a limit (:class:`~callbreak.server.limits.Refusal`), else
        yield who makes it (their guest key and address), to make it meanwhile
        (:meth:`create_async` with ``made_by``, which counts the maker's tables once more, under
        a lock, as it stores it). Until the block ends the table counts against the ceiling.

        The client's tables are counted here and in the store, which every process sharing it
        writes: the larger count stands (the store has the other processes'). The store away,
        this process's own counts stand."""
        who = {"guest": player_key(guest), "address": address}
        live = {kind: sum(1 for t in self.tables.values()
                          if key is not None and t.made_by.get(kind) == key and t.status != "over")
                for kind, key in who.items()}
        recent: dict[str, tuple[int, float]] | None = None
        if self.gate.limits.counts_tables():
            try:
                counts = await asyncio.to_thread(self.store.made_by_counts, maker_keys(who))
            except Exception as e:
                log.warning("could not count a client's tables in the store (%s); counting this "
                            "process's", e)
                counts = {}
            live = {kind: max(n, counts[kind][0]) if kind in counts else n for kind, n in live.items()}
            recent = {kind: (made, age) for kind, (_, made, age) in counts.items()}
        # (No await from here to the count: requests at the same moment are counted in turn.)
        # The tables being made count as made: against the ceiling, and the maker's share of it.
        makers = [t.made_by for t in self.bot_tables()] + self._making
        held = {kind: sum(1 for made_by in makers if made_by.get(kind) == key)
                for kind, key in who.items() if key is not None}
        self.gate.new_table(who, live, len(makers), now=time.monotonic(), recent=recent, held=held)
        self._making.append(who)
        try:
            yield who
        finally:
            self._making.remove(who)

    def expire_lobbies(self, now: float | None = None) -> int:
        """:meth:`expire_lobbies_async` to its end, on this thread."""
        return inline(self.expire_lobbies_async(now))

    async def expire_lobbies_async(self, now: float | None = None) -> int:
        """Remove the tables run here that were never started within the lobby expiry; their
        sockets are told. Returns how many."""
        ttl = self.gate.limits.lobby_expiry
        now = time.time() if now is None else now

        def due(table: Table) -> bool:
            return table.status == "lobby" and now - table.created_at >= ttl

        async def remove(table: Table) -> bool:  # (False: it started meanwhile, at another process)
            return await self.write(self.store.delete_unstarted, table.id)

        return await self._sweep(ttl, due, remove, "never started", NEVER_STARTED)

    async def end_abandoned_async(self, now: float | None = None) -> int:
        """End the started tables run here that everyone left longer than the limits allow
        (``abandon_after``): stored as abandoned (the moves so far kept, out of the history),
        no longer live nor counted against their makers. Returns how many."""
        ttl = self.gate.limits.abandon_after
        now = time.time() if now is None else now

        def due(table: Table) -> bool:
            return (table.status == "playing" and table.paused and now - table.paused_at >= ttl
                    and not table.people_connected())

        async def end(table: Table) -> bool:
            await self.write(self.store.update_game, table.id, status="abandoned", epoch=table.epoch)
            table.status = "abandoned"
            self._cancel_clock(table)
            return True

        return await self._sweep(ttl, due, end, "everyone left", ABANDONED)

    async def _sweep(self, ttl: float, due: Callable[[Table], bool], close: Callable[[Table], Awaitable[bool]],
                     why: str, told: str) -> int:
        """``close`` each table run here that is ``due`` (checked again in its turn), then let it
        go with its sockets ``told`` why; a table that cannot be closed now (the store away, the
        table moved) is tried at the next sweep. Returns how many closed; none when ``ttl`` is 0."""
        if ttl <= 0:
            return 0
        count = 0
        for table in list(self.tables.values()):
            if table.replica or table.lock.locked() or not due(table):
                continue  # (a step at it, a start maybe: next time)
            try:
                async with table.lock:
                    closed = due(table) and await close(table)
            except Exception as e:
                log.error("table %s (%s): could not close it: %s", table.code, why, e)
                continue
            if closed:
                self._let_go(table, told)
                log.info("table %s closed: %s, for %.0f minutes", table.code, why, ttl / 60)
                count += 1
        return count

    def _let_go(self, table: Table, told: str) -> None:
        """No longer run ``table`` here; its sockets are told ``told`` (why it closed)."""
        if self.tables.get(table.code) is table:
            del self.tables[table.code]
        for conn in table.connections:
            conn.send({"type": "closed", "message": told})

    # --- bots, built off the loop -------------------------------------------------------------

    def preparing(self, config: dict[str, Any], spec: str) -> bool:
        """Whether the bot ``spec`` at a table of these settings must wait for the kernel to be
        ready: it runs on it (the expert) and the kernel is not ready yet. Other bots play at once."""
        if self.warmup is None or self.warmup.ready:
            return False
        return engines.bot_needs_kernel(config, spec)

    async def check_settings(self, settings: Any) -> dict[str, Any]:
        """:func:`parse_config` in a worker thread (it builds each seat's bot to check it),
        after the kernel is ready if a bot asked for needs it: the loop never waits for either."""
        if any(self.preparing(settings, spec) for spec in engines.requested_bots(settings)):
            assert self.warmup is not None
            await self.warmup.wait()
        return await asyncio.to_thread(parse_config, settings, url_bots=self.url_bots)

    async def think(self, config: dict[str, Any], spec: str, seed: int, view: GameView,
                    pool: ThreadPoolExecutor | None = None,
                    memory: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any] | None]:
        """One decision of a bot given its seat's ``memory`` (or, in ``pool``, a hint) in a worker
        thread, once the kernel is ready if the bot needs it; and the bot's memory after it."""
        if self.preparing(config, spec):
            assert self.warmup is not None
            await self.warmup.wait()
        started = time.perf_counter()
        try:
            if pool is not None:
                return await asyncio.get_running_loop().run_in_executor(
                    pool, functools.partial(engines.decide, config, spec, seed, view, BOT_BUDGET, memory))
            return await asyncio.to_thread(engines.decide, config, spec, seed, view, BOT_BUDGET, memory)
        finally:
            kind = "url" if players.is_url(spec) else spec.split(":")[0]
            self.metrics.bot_seconds.labels(kind).observe(time.perf_counter() - started)

    # --- startup ---------------------------------------------------------------------------

    async def resume_all(self) -> int:
        """Load every unfinished table and replay its stored actions; returns how many."""
        self.loop = asyncio.get_running_loop()
        count = 0
        for stored in self.store.load_games("lobby", "playing"):
            try:
                table = self._restore(stored)
            except CallbreakError as e:  # a damaged game must not stop the others resuming
                log.error("cannot resume table %s: %s", stored.code, e)
                continue
            self.tables[table.code] = table
            if table.match is not None:
                async with table.lock:
                    await self._advance(table)
            count += 1
        return count

    def _restore(self, stored: StoredGame) -> Table:
        config = dict(stored.config)
        seed = config.pop("seed")
        host_hash = config.pop("host_hash")
        stop_requested = bool(config.pop("stop_requested", False))
        rematch_code = config.pop("rematch", None)
        table = Table(id=stored.id, code=stored.code, config=config, seed=seed, host_hash=host_hash,
                      seats=[Seat.from_json(s) for s in stored.seats],
                      status=stored.status, stop_requested=stop_requested, rematch_code=rematch_code,
                      created_at=stored.created_at.replace(tzinfo=UTC).timestamp())
        if stored.status == "playing":
            match = engines.new_game(config)
            for i, data in enumerate(stored.actions):
                try:
                    match.apply(engines.stored_action(data))
                except CallbreakError as e:
                    raise CallbreakError(f"stored action {i} does not replay: {e}") from None
            table.match = match
            table.memories = dict(stored.memories)
        return table

    # --- lobby -----------------------------------------------------------------------------

    def get(self, code: str) -> Table:
        table = self.tables.get(normalize_code(code))
        if table is None and self.cluster is not None:  # a table another process opened
            table = self.cluster.load(normalize_code(code))
        if table is None:
            raise MessageError("no_table", N_("no open table has that code (finished games are in the history)"))
        return table

    def create(self, settings: Any, host_name: Any, seed: Any = None, guest: Any = None, *,
               config: dict[str, Any] | None = None,
               made_by: dict[str, str | None] | None = None) -> tuple[Table, str, int]:
        """:meth:`create_async` to its end, on this thread."""
        return inline(self.create_async(settings, host_name, seed, guest, config=config, made_by=made_by))

    async def create_async(self, settings: Any, host_name: Any, seed: Any = None, guest: Any = None, *,
                           config: dict[str, Any] | None = None,
                           made_by: dict[str, str | None] | None = None) -> tuple[Table, str, int]:
        """A new table in the lobby; ``config``: the settings already checked
        (:meth:`check_settings`, off the loop), else they are checked here."""
        if config is None:
            config = parse_config(settings, url_bots=self.url_bots)
        name = clean_name(host_name)
        player = player_key(guest)
        if seed is None:
            # The deals of a table come from this secret alone; it never leaves the server.
            seed = secrets.randbits(64)
        elif not self.practice:
            raise MessageError("seed_refused", "a table's deals come from the server alone: nobody may "
                                               "choose them (seeded tables are for a practice server, "
                                               "callbreak serve --practice)")
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**62:
            raise MessageError("bad_config", "seed must be a whole number 0..2**62")
        else:
            config = {**config, "practice": True}
        token = secrets.token_urlsafe(24)
        seats = [Seat() for _ in range(engines.seat_count(config))]
        seats[0] = Seat(kind="human", name=name, token_hash=token_hash(token), player=player)
        code = new_code()
        while code in self.tables or self.store.load_game(code) is not None:
            code = new_code()
        stored = {**config, "seed": seed, "host_hash": token_hash(token)}
        # The last word on the maker's limits, under the store's lock on their keys.
        admit = functools.partial(self.gate.stored_counts, made_by) if made_by and self.gate.limits.counts_tables() else None
        game_id = await self.write(self.store.create_game, code, stored, [s.to_json() for s in seats],
                                   made_by=maker_keys(made_by or {}), admit=admit)
        table = Table(id=game_id, code=code, config=config, seed=seed, host_hash=token_hash(token),
                      seats=seats, made_by=made_by or {})
        if self.cluster is not None:
            await self.cluster.adopt(table)
        self.tables[code] = table
        return table, token, 0

    async def run_made(self, code: str, epoch: int | None) -> Table:
        """Run here a table made outside the lobby (Play now: server/playnow.py), stored with its
        seats filled and its status ``playing``, whose lease (``epoch``) this process took as it
        was made: it is listed, dealt, and its clock armed, as a restored table is."""
        table = self.tables.get(code)  # a replica, if a player's request here loaded it meanwhile
        if table is None:
            stored = await asyncio.to_thread(self.store.load_game, code)
            if stored is None:
                raise StoreError(f"the table {code} just made is not in the store")
            table = self.tables[code] = self._restore(stored)
        if self.cluster is not None and epoch is not None:
            self.cluster.owns(table, epoch)
        async with table.lock:
            await self._advance(table)
        return table

    # The steps a client asks for (run() runs them at their table, in turn); the plain methods
    # run one to its end on the calling thread.

    def join(self, code: str, name: Any, seat: Any = None, guest: Any = None) -> tuple[Table, str, int]:
        return inline(self._join(code, name, seat, guest))

    def handoff(self, code: str, token: Any) -> str:
        return inline(self._handoff(code, token))

    def claim(self, code: str, handoff: Any) -> tuple[Table, str, int]:
        return inline(self._claim(code, handoff))

    def move(self, code: str, token: Any, seat: Any) -> Table:
        return inline(self._move(code, token, seat))

    def start(self, code: str, token: Any) -> Table:
        return inline(self._start(code, token))

    def rematch(self, code: str, token: Any) -> Table:
        return inline(self._rematch(code, token))

    def act(self, code: str, token: Any, version: Any, action_data: Any) -> Table:
        return inline(self._act(code, token, version, action_data))

    def stop(self, code: str, token: Any) -> Table:
        return inline(self._stop(code, token))

    async def _join(self, code: str, name: Any, seat: Any = None,
                    guest: Any = None) -> tuple[Table, str, int]:
        table = self.get(code)
        if table.status != "lobby":
            raise MessageError("started", N_("this table has already started; you can watch it"))
        name = clean_name(name)
        player = player_key(guest)
        free = [i for i, s in enumerate(table.seats) if s.kind == "open"]
        if seat is None:
            if not free:
                raise MessageError("full", N_("every seat at this table is taken"))
            seat = free[0]
        _check_seat_number(table, seat)
        if seat not in free:
            raise MessageError("seat_taken", N_("seat {seat} is taken"), seat=seat)
        token = secrets.token_urlsafe(24)
        seats = list(table.seats)
        seats[seat] = Seat(kind="human", name=name, token_hash=token_hash(token), player=player)
        await self._save_seats(table, seats)  # stored first: a refused write changes nothing
        table.seats = seats
        self.broadcast(table)
        return table, token, seat

    # --- a seat moves to another device ------------------------------------------------------

    async def _handoff(self, code: str, token: Any) -> str:
        """A one-time code that moves the seat of ``token`` to whichever device presents it."""
        table = self.get(code)
        seat = self._require_seat(table, token)
        secret = secrets.token_urlsafe(12)
        table.handoffs[seat] = (token_hash(secret), time.monotonic() + HANDOFF_TTL)
        return secret

    async def _claim(self, code: str, handoff: Any) -> tuple[Table, str, int]:
        """The new device takes the seat: a fresh token for it; the old token holds nothing now
        and the old device's sockets are told and become spectators."""
        table = self.get(code)
        now = time.monotonic()
        wanted = token_hash(handoff) if isinstance(handoff, str) and handoff else None
        seat = next((s for s, (h, until) in table.handoffs.items()
                     if wanted is not None and until > now and secrets.compare_digest(h, wanted)), None)
        if seat is None:
            raise MessageError("bad_handoff", N_("that link to continue on another device is not good "
                                                 "(used, expired, or for another table): make a new one"))
        token = secrets.token_urlsafe(24)
        old = table.seats[seat].token_hash
        new_hash = token_hash(token)
        host_moves = old == table.host_hash
        if host_moves:  # stored first: a restart must know the host's new token
            await self._store_change(table, config={**table.stored_config(), "host_hash": new_hash})
            table.host_hash = new_hash
        table.seats[seat].token_hash = new_hash
        del table.handoffs[seat]
        await self._save_seats(table)
        self.follow_seats(table)
        self.broadcast(table)
        return table, token, seat

    def follow_seats(self, table: Table) -> None:
        """Each player's sockets follow their token: to the seat it moved to in the lobby, or,
        if the seat went to another device (the token changed), they are told so and only
        watch from now on. Here, or on any other process (which calls this as it follows)."""
        seat_of_hash = {s.token_hash: i for i, s in enumerate(table.seats) if s.token_hash}
        for c in table.connections:
            if c.seat is None or c.token_hash is None:
                continue
            seat = seat_of_hash.get(c.token_hash)
            if seat is None:
                c.send({"type": "moved", "message": "your seat moved to another device; "
                                                    "this one now watches"})
                c.token_hash = None
            c.seat = seat

    async def _move(self, code: str, token: Any, seat: Any) -> Table:
        """Before the start, a seated player may move to another open seat."""
        table = self.get(code)
        if table.status != "lobby":
            raise MessageError("started", N_("seats are fixed once the table has started"))
        current = self._require_seat(table, token)
        _check_seat_number(table, seat)
        if seat != current:
            if table.seats[seat].kind != "open":
                raise MessageError("seat_taken", N_("seat {seat} is taken"), seat=seat)
            seats = list(table.seats)
            seats[seat], seats[current] = seats[current], Seat()
            await self._save_seats(table, seats)  # stored first: a refused write changes nothing
            table.seats = seats
            self.follow_seats(table)
            self.broadcast(table)
        return table

    async def _start(self, code: str, token: Any) -> Table:
        """The host starts: open seats get bots at the chosen levels, and the first deal is dealt."""
        table = self.get(code)
        self._require_host(table, token)
        if table.status != "lobby":
            raise MessageError("started", N_("this table has already started"))
        bots = table.config["bots"]
        seats = [bot_seat(bots[i], i) if s.kind == "open" else s for i, s in enumerate(table.seats)]
        match = engines.new_game(table.config)
        await self._store_change(table, seats=[s.to_json() for s in seats], status="playing")  # stored first
        table.seats, table.status, table.match = seats, "playing", match
        await self._advance(table)
        return table

    async def _rematch(self, code: str, token: Any) -> Table:
        """A new table with the same settings and the same people, in the lobby. Each person keeps
        their seat and their seat key, so whoever comes back later, to any server process, even
        after a restart, is sent on (`closed_with_rematch`) and sits down with the key they already hold."""
        table = self.get(code)
        self._require_host(table, token)
        if table.status != "over":
            raise MessageError("not_over", N_("a rematch can start once this game is over"))
        if table.rematch_code is not None:
            return self.get(table.rematch_code)
        if not self.url_bots:  # a table from before bots by URL were turned off
            refuse_url_bots(table.config["bots"])
        seats = [Seat(kind="human", name=s.name, token_hash=s.token_hash) if s.kind == "human" else Seat()
                 for s in table.seats]
        seed = secrets.randbits(64)
        code2 = new_code()
        game_id = await self.write(self.store.create_game, code2,
                                   {**table.config, "seed": seed, "host_hash": table.host_hash},
                                   [s.to_json() for s in seats], made_by=maker_keys(table.made_by))
        new = Table(id=game_id, code=code2, config=dict(table.config), seed=seed, host_hash=table.host_hash,
                    seats=seats, made_by=dict(table.made_by))
        if self.cluster is not None:
            await self.cluster.adopt(new)
        self.tables[code2] = new
        table.rematch_code = code2
        await self._store_change(table, config=table.stored_config())
        self.announce_rematch(table)
        if self.cluster is not None:
            self.cluster.rematched(table)
        return new

    def closed_with_rematch(self, code: str) -> Table | None:
        """A finished game no longer live here (closed, or the server restarted) that had a
        rematch, as stored: its players' seat keys find their seats at the rematch."""
        stored = self.store.load_game(normalize_code(code))
        if stored is None or stored.status != "over" or not stored.config.get("rematch"):
            return None
        return self._restore(stored)

    def announce_rematch(self, table: Table) -> None:
        """Tell the table's sockets here where the rematch is (a seated player keeps their seat)."""
        assert table.rematch_code is not None
        for c in table.connections:
            c.send(rematch_message(table.rematch_code, c.seat))

    async def _save_seats(self, table: Table, seats: list[Seat] | None = None) -> None:
        await self._store_change(table, seats=[s.to_json() for s in (table.seats if seats is None else seats)])

    async def _store_change(self, table: Table, **values: Any) -> None:
        """Store a change of the table's seats, status or settings, or refuse it with why."""
        try:
            await self.write(self.store.update_game, table.id, epoch=table.epoch, **values)
        except LeaseLost:
            if self.cluster is not None:
                self.cluster.lost(table)  # follows the store again: the change is undone here
            raise MessageError("unavailable", N_("the table moved to another server process; try "
                                                 "again")) from None
        except StoreError:
            raise MessageError("unavailable", N_("the change could not be saved; try again")) from None

    def _require_seat(self, table: Table, token: Any) -> int:
        seat = table.seat_of(token)
        if seat is None:
            raise MessageError("bad_token", N_("that token does not hold a seat at this table"))
        return seat

    def _require_host(self, table: Table, token: Any) -> None:
        if not isinstance(token, str) or not secrets.compare_digest(token_hash(token), table.host_hash):
            raise MessageError("not_host", N_("only the host (who created the table) can do that"))

    # --- playing ---------------------------------------------------------------------------

    async def _act(self, code: str, token: Any, version: Any, action_data: Any) -> Table:
        """A player's action: right token and seat, not stale, then the engine's checks."""
        table = self.get(code)
        seat = self._require_seat(table, token)
        if table.match is None or table.status != "playing":
            raise MessageError("not_playing", N_("the game is over") if table.status == "over"
                               else N_("the game has not started yet"))
        if isinstance(version, bool) or not isinstance(version, int):
            raise MessageError("malformed", "an action needs the state 'version' it was made against")
        action = parse_action(action_data, seat)
        if 0 <= version < table.version and table.match.history[version] == action:
            # This very action was played already: a retry whose first answer was lost (a
            # reconnect, or a call forwarded again while its table changed processes). Done once.
            return table
        if version != table.version:
            raise MessageError("stale", f"stale action: made against version {version}, the table "
                                        f"is at version {table.version}")
        try:
            await self._apply(table, action)
        except IllegalActionError as e:
            code_name = "not_your_turn" if type(e).__name__ == "NotYourTurnError" else "illegal"
            raise engine_refusal(code_name, e, action) from None
        await self._advance(table)
        return table

    async def _stop(self, code: str, token: Any) -> Table:
        """The host stops a table with unlimited deals: at once between deals, else when the
        current deal ends."""
        table = self.get(code)
        self._require_host(table, token)
        match = table.match
        if table.status != "playing" or match is None:
            raise MessageError("not_playing", N_("only a game in progress can be stopped"))
        if "deals" not in table.config or table.config["deals"] is not None:
            raise MessageError("not_unlimited", N_("this table plays a fixed {deals} deals; only a table with "
                                                   "unlimited deals can be stopped"), deals=table.config.get("deals"))
        if not table.stop_requested:
            # Stored first, so a server restart before the deal ends still stops the table.
            try:
                await self.write(self.store.update_game, table.id, epoch=table.epoch,
                                 config={**table.stored_config(), "stop_requested": True})
            except Exception:  # any store failure: refuse, and nothing has changed
                raise MessageError("unavailable", N_("the stop could not be saved; try again")) from None
            table.stop_requested = True
        await self._advance(table)
        return table

    @staticmethod
    def _fence(table: Table) -> dict[str, int]:
        """The store writes of a table run under a lease carry its epoch (fencing)."""
        return {} if table.epoch is None else {"epoch": table.epoch}

    async def _apply(self, table: Table, action: Any, memory: dict[str, Any] | None = None) -> None:
        """Verify, store, apply: a refused or unstorable action changes nothing. The table's
        lock is held (a step): nothing else changes it while the write is under way. ``memory``:
        the deciding bot's, stored for the seat to act in the same write."""
        match = table.match
        assert match is not None
        if table.replica:  # e.g. a bot's answer that comes after the table went to another process
            raise MessageError("unavailable", N_("the table moved to another server process; try again"))
        referee = table.referee
        referee.check(action)
        seat = match.to_act
        memories = None if memory is None or seat is None else {**table.memories, seat: memory}
        try:
            await self.write(self.store.append_action, table.id, len(match.history), action.to_json(),
                             memories=memories, **self._fence(table))
        except LeaseLost:
            if self.cluster is not None:
                self.cluster.lost(table)
            raise MessageError("unavailable", N_("the table moved to another server process; try "
                                                 "again")) from None
        except StoreError:
            raise MessageError("unavailable", N_("the action could not be saved, so it was not "
                                                 "played; try again")) from None
        referee.commit(action)  # (checked above, and the table's lock held since)
        if memories is not None:
            table.memories = memories
        table.stored_at = time.perf_counter()
        self.metrics.actions.inc()

    def unsettled(self, table: Table) -> bool:
        """Whether the table owes a step of its own (a deal, the end of the game): one taken
        over or restored, whose step is under way or failed."""
        match = table.match
        return (not table.replica and table.status == "playing" and match is not None
                and (match.to_act == CHANCE or match.is_over))

    def settle(self, table: Table) -> None:
        """Deal on, finish, arm the clock and broadcast, in the table's turn (a table just
        taken over or restored)."""
        async def step() -> None:
            if not table.replica and table.match is not None and table.status == "playing":
                await self._advance(table)

        self.spawn(table, step())

    async def _advance(self, table: Table) -> None:
        """Run chance steps, finish a game that is over, then broadcast and start the clock."""
        match = table.match
        assert match is not None
        while match.to_act == CHANCE:
            try:
                await self._apply(table, table.referee.chance_due())
            except MessageError as e:
                self._carry_on_later(table, f"could not deal ({e.message})")
                return
        if match.is_over and table.status != "over":
            try:
                await self._finish(table)
            except Exception as e:
                if not store_away(e):  # it would fail again, forever: the game ends unrecorded
                    await self._unrecorded(table, e)
                    return
                # The store is away: the game is over all the same, and recorded once it is back.
                self._carry_on_later(table, f"could not record the end of the game ({e})")
                return
        table.store_failures = 0  # (the store took the step: a later refusal starts the backoff afresh)
        self._arm(table, new_turn=True)  # first, so the broadcast carries the new clock
        self.broadcast(table)

    def _carry_on_later(self, table: Table, why: str) -> None:
        """The store refused what the server does by itself (a deal, the end of the game): what
        the players did stands, so tell them, and try again shortly (a table that moved to
        another process is carried on there)."""
        table.store_failures += 1
        wait = min(RETRY_MOST, 2.0 ** (table.store_failures - 1))  # 1, 2, 4... s: a store away a while is not hammered
        log.error("table %s: %s; trying again in %g s", table.code, why, wait)
        if not table.replica:
            loop = self.loop or asyncio.get_running_loop()
            loop.call_later(wait, self._carry_on, table, table.version)
        self.broadcast(table)

    async def _unrecorded(self, table: Table, error: Exception) -> None:
        """The end of a game the store refused for good (not for being away): said to its
        players, logged and counted, and the table ends as it stands rather than try forever."""
        log.error("table %s: the end of the game cannot be recorded (%s: %s); it ends unrecorded",
                  table.code, type(error).__name__, error)
        self.metrics.unrecorded.inc()
        table.status = "over"
        self._cancel_clock(table)
        with contextlib.suppress(Exception):  # (so that no restart resumes it: best effort)
            await self.write(self.store.update_game, table.id, status="unrecorded", epoch=table.epoch)
        for conn in table.connections:
            conn.send({"type": "error", "code": "not_recorded",
                       "message": "this game is over, but the server could not keep it in the history"})
        self.broadcast(table)
        loop = self.loop or asyncio.get_running_loop()
        loop.call_later(FINISHED_TTL, self._forget, table)

    def _carry_on(self, table: Table, version: int) -> None:
        async def step() -> None:
            if not table.replica and table.version == version and table.status == "playing":
                await self._advance(table)

        self.spawn(table, step())

    async def _finish(self, table: Table) -> None:
        match = table.match
        assert match is not None
        # Bots are counted by level, whichever seat they sat in.
        names = [(seat.name if seat.kind != "bot" else _bot_name(seat.bot or "", None), seat.kind)
                 for seat in table.seats]
        rows = engines.results(match, names, table.config)
        for row, seat in zip(rows, table.seats, strict=True):
            row["player"] = seat.player if seat.kind == "human" else None
        await self.write(self.store.finish_game, table.id, rows)
        table.status = "over"
        self._cancel_clock(table)
        # Keep a finished table live for a while (scoreboard, rematch), then only in the history.
        loop = self.loop or asyncio.get_running_loop()
        loop.call_later(FINISHED_TTL, self._forget, table)

    def _forget(self, table: Table) -> None:
        if self.tables.get(table.code) is table:
            self._let_go(table, "this finished table has closed; it is in the history")

    # --- the clock: timers, absent players and bots ------------------------------------------

    def _cancel_clock(self, table: Table) -> None:
        if table.clock is not None:
            table.clock.cancel()
            table.clock = None
        table.deadline = None
        table.deadline_kind = ""

    def _arm(self, table: Table, new_turn: bool = False) -> None:
        """Decide when and how the seat to act will be moved if nobody else moves it."""
        match = table.match
        now = time.monotonic()
        if new_turn:
            table.turn_started = now
        self._cancel_clock(table)
        if table.replica or match is None or table.status != "playing" or match.to_act is None or match.to_act < 0:
            return
        seat = match.to_act
        timer = table.config["timer"]
        if table.seats[seat].kind != "bot":
            if not table.people_connected():
                # Everyone has left: rather than let bots play the whole game out for nobody,
                # the table waits (and resumes the moment someone comes back, or ends unless
                # someone does: end_abandoned_async).
                if not table.paused:
                    table.paused, table.paused_at = True, time.time()
                return
            if table.paused:
                # Back at a table that waited: the turn starts afresh, so the player to act is
                # not timed out on arrival for the time the table stood still.
                table.paused = False
                table.turn_started = now
        if table.seats[seat].kind == "bot":
            delay, kind = table.config["bot_delay"], "bot"
        elif timer is not None:
            delay = max(0.0, table.turn_started + timer - now)
            kind = "timer"
        elif not table.connected(seat):
            delay, kind = ABSENT_GRACE, "absent"
        else:
            return
        table.deadline = now + delay
        table.deadline_kind = kind
        loop = self.loop or asyncio.get_running_loop()
        version = table.version
        table.clock = loop.call_later(delay, self._clock_fired, table, version)

    @staticmethod
    def bot_for(table: Table, seat: int) -> str:
        """The bot that plays ``seat``: its own, or the strongest standing in for a person."""
        return table.seats[seat].bot or engines.strongest_bot(table.config)

    def _clock_fired(self, table: Table, version: int) -> None:
        table.clock = None
        match = table.match
        if (match is None or table.version != version or table.status != "playing"
                or (table.thinking and table.thinking_at == version)):
            return  # (a decision for this turn is under way: being thought, or being played)
        seat = match.to_act
        assert seat is not None and seat >= 0
        if table.deadline_kind == "timer" and table.connected(seat):
            self.spawn(table, self._timed_out(table, version))
            return
        spec = self.bot_for(table, seat)
        if table.seats[seat].kind != "bot":
            log.info("table %s: seat %d away for %s s, a bot plays for them", table.code, seat,
                     ABSENT_GRACE if table.deadline_kind == "absent" else table.config["timer"])
        view = match.view(seat)
        seed = _mix(table.seed, version, seat)
        table.thinking, table.thinking_at = True, version
        loop = self.loop or asyncio.get_running_loop()
        task = loop.create_task(self.think(table.config, spec, seed, view, memory=table.memories.get(seat)))
        task.add_done_callback(lambda t: self.spawn(table, self._bot_decided(table, version, t, view)))

    async def _timed_out(self, table: Table, version: int) -> None:
        """The turn timer ran out (the clock fired): the default action, if still that turn."""
        match = table.match
        if table.replica or match is None or table.version != version or table.status != "playing":
            return
        await self._play_for(table, match.default_action(), "timer")

    async def _bot_decided(self, table: Table, version: int, task: asyncio.Task[Any], view: Any) -> None:
        # The decision is under way until it is played: a clock of this turn that fires while its
        # write is made must not start a second one (which, still thinking once the table moved
        # on, kept the next turn's clock from starting any: the table stalled).
        try:
            await self._play_decided(table, version, task, view)
        finally:
            if table.thinking_at == version:
                table.thinking = False

    async def _play_decided(self, table: Table, version: int, task: asyncio.Task[Any], view: Any) -> None:
        match = table.match
        if table.replica or match is None or table.version != version or table.status != "playing":
            return  # the table moved on, or to another process, while the bot thought
        seat = match.to_act
        assert seat is not None and seat >= 0
        try:
            (answer, memory), error = task.result(), None
        except Exception as e:  # a broken or remote bot must not stall the table
            answer, memory, error = None, None, e
        # Judged by the referee's rule (callbreak/referee.py): among the legal actions of the view
        # it decided from, else the default (no time limit: the table's clock is its own); the
        # engine checks the action once, on its way to the store.
        action, fault = judge(view, seat, answer, error, 0.0, match.default_action, len(match.results) + 1,
                              math.inf, 0.0, self.bot_for(table, seat))
        if fault is not None:
            log.warning("table %s: bot failed (%s: %s); playing the default action", table.code, fault.kind,
                        fault.detail)
            await self._record_fault(table, seat, fault)
            memory = None  # (a bot that failed learnt nothing the seat keeps)
        await self._play_for(table, action, "away" if table.seats[seat].kind != "bot" else "bot", memory)

    async def _record_fault(self, table: Table, seat: int, fault: Fault) -> None:
        """Count a failed bot decision against its seat (stored with the seats, shown to all)."""
        s = table.seats[seat]
        s.faults += 1
        s.last_fault = people_text(fault.detail)[:200]
        try:
            await self.write(self.store.update_game, table.id, epoch=table.epoch,
                             seats=[x.to_json() for x in table.seats])
        except Exception as e:  # the count is information; the game must go on without it
            log.error("table %s: could not store a change of seats, status or settings: %s", table.code, e)

    async def _play_for(self, table: Table, action: Any, why: str, memory: dict[str, Any] | None = None) -> None:
        """Play ``action`` for the seat to act: its seated ``bot``, or for a person, because the
        turn ``timer`` ran out or they were ``away`` (a bot stood in): those two are told.
        ``memory``: the deciding bot's, after it decided (kept for the seat with the action)."""
        seat = table.match.to_act if table.match is not None else None
        try:
            await self._apply(table, action, memory)
        except Exception as e:  # e.g. the store is down: try again shortly rather than stall
            log.error("table %s: could not play %s (%s): %s", table.code, action, why, e)
            loop = self.loop or asyncio.get_running_loop()
            loop.call_later(1.0, self._arm, table)
            return
        if why != "bot":
            table.notices = [*table.notices, {"version": table.version, "seat": seat, "why": why,
                                              "action": public_action_json(action)}][-NOTICES_KEPT:]
        await self._advance(table)

    # --- connections and broadcasting --------------------------------------------------------

    def attach(self, table: Table, conn: Connection) -> None:
        table.connections.append(conn)
        if table.rematch_code is not None and conn.seat is not None:
            conn.send(rematch_message(table.rematch_code, conn.seat))
        if self.cluster is not None:
            self.cluster.presence(table)
        if conn.seat is not None:
            self._arm(table)
            self.broadcast(table)  # everyone sees the player is back
        else:
            conn.send(self.state_message(table, None))

    def detach(self, table: Table, conn: Connection) -> None:
        conn.alive = False
        if conn in table.connections:
            table.connections.remove(conn)
        if self.cluster is not None:
            self.cluster.presence(table)
        if conn.seat is not None and table.status != "over":
            self._arm(table)
            self.broadcast(table)

    def state_message(self, table: Table, seat: int | None,
                      shared: dict[str, Any] | None = None) -> dict[str, Any]:
        """The state as ``seat`` may see it; ``shared`` is the seat-independent part, if built."""
        if shared is None:
            shared = self._shared_state(table)
        view = None if table.match is None else view_json(table.match.view(seat))
        return {**shared, "you": seat, "view": view}

    def _shared_state(self, table: Table) -> dict[str, Any]:
        left = None
        if table.deadline is not None:
            left = round(max(0.0, table.deadline - time.monotonic()), 2)
        shared = {"type": "state", "version": table.version, "table": table.lobby_json(),
                  "clock": {"left": left, "kind": table.deadline_kind or None},
                  "notices": table.notices}
        seat = None if table.match is None else table.match.to_act
        if (table.thinking and table.thinking_at == table.version and seat is not None and seat >= 0
                and self.preparing(table.config, self.bot_for(table, seat))):  # it waits for the kernel
            shared["preparing"] = PREPARING
        return shared

    def broadcast(self, table: Table) -> None:
        """Each connection gets the view of its own seat (spectators: public information).

        The public part is taken from the spectator view and encoded once; each seat's own view
        adds only its hand and legal actions.
        """
        if self.cluster is not None:  # the owner tells the other processes the table moved on
            self.cluster.changed(table)
        stored_at, table.stored_at = table.stored_at, None  # timed once: the first state after it
        if not table.connections:
            return
        shared = self._shared_state(table)
        match = table.match
        watcher = None if match is None else match.view(None)
        public = None if watcher is None else dumps(public_json(watcher))
        cache: dict[int | None, str] = {}
        for conn in list(table.connections):
            seat = conn.seat
            if seat not in cache:
                personal = None
                if watcher is not None and match is not None:  # (a spectator's view is the one above)
                    personal = personal_json(watcher if seat is None else match.view(seat))
                cache[seat] = state_text(shared, public, seat, personal)
            if stored_at is not None and conn.timed_send is not None:
                conn.timed_send(cache[seat], stored_at)
            else:
                conn.send(cache[seat])

    async def run(self, method: str, code: str, *args: Any) -> Any:
        """``method`` (act, join, move, start, stop, rematch, handoff, claim) of the table ``code``, run by the
        process that owns the table: here, in the table's turn, or forwarded to its owner."""
        table = self.get(code)
        if self.cluster is None or not table.replica:
            moved = object()

            async def in_turn() -> Any:
                async with table.lock:
                    return moved if table.replica else await self._step(table, method, code, args)

            result = await whole(in_turn())
            if result is not moved:
                return result
        # Another process runs it (or it moved there while this waited for its turn).
        return await self.cluster.forward(table, method, args)

    async def run_here(self, method: str, code: str, *args: Any) -> Any:
        """``method`` of the table ``code`` in its turn, here: this process runs the table (a
        call another process forwarded, or a table it has just taken over)."""
        table = self.get(code)

        async def in_turn() -> Any:
            async with table.lock:
                if table.replica:
                    raise MessageError("unavailable", N_("that table moved to another server process; try again"))
                return await self._step(table, method, code, args)

        return await whole(in_turn())

    async def _step(self, table: Table, method: str, code: str, args: tuple[Any, ...]) -> Any:
        if self.unsettled(table):  # a deal or an end the table owes comes first
            await self._advance(table)
        return await getattr(self, f"_{method}")(code, *args)

    async def hint(self, code: str, token: Any, address: str | None) -> dict[str, Any]:
        """The strongest bot's choice for the seat of ``token``, on its turn, with its reason.

        Hints are bot work a client asks for, so they are shared out: asking again on the same
        turn gets the answer already (being) worked out, free; a new one counts against the
        seat's and the address's hints a minute; a table works out one at a time; and they run
        in threads of their own (``HINT_WORKERS``), never in the tables' bots' way."""
        table = self.get(code)
        seat = self._require_seat(table, token)
        if table.match is None or table.status != "playing":
            raise MessageError("not_playing", N_("there is nothing to hint outside a game"))
        if not table.match.legal_actions(seat):
            raise MessageError("not_your_turn", N_("it is not your turn"))
        turn = (table.version, seat)
        if table.hinting is not None:
            asked, task = table.hinting
            if asked == turn:
                return await asyncio.shield(task)
            if not task.done():
                raise Refusal("hint_busy", N_("a hint is still being worked out at this table; try again "
                                              "in a moment"), 1.0)
        self.gate.hint({"seat": f"{table.code}:{seat}", "address": address}, now=time.monotonic())
        task = asyncio.get_running_loop().create_task(
            self._work_out_hint(table, table.match.view(seat), table.version))
        table.hinting = (turn, task)
        return await asyncio.shield(task)

    async def _work_out_hint(self, table: Table, view: GameView, version: int) -> dict[str, Any]:
        """The hint for ``view``, the seat's view at ``version`` (taken when it was asked for:
        the task runs later, maybe after a move)."""
        spec = engines.strongest_bot(table.config)
        try:
            decision, _ = await self.think(table.config, spec, secrets.randbits(32), view, pool=self._hinters)
        except Exception as e:  # a failing bot must not drop the player's connection
            log.warning("table %s: hint failed: %s", table.code, e)
            table.hinting = None  # (not kept for the turn: asking again tries again)
            raise MessageError("unavailable", N_("no hint could be worked out just now; try again")) from None
        return {"type": "hint", "version": version, "action": decision.action.to_json(),
                "reason": decision.reason or f"what the {spec} bot would do", "bot": spec}


def _check_seat_number(table: Table, seat: Any) -> None:
    last = len(table.seats) - 1
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= last:
        raise MessageError("bad_seat", f"seat must be 0..{last}, got {seat!r}")


def rematch_message(code: str, seat: int | None) -> dict[str, Any]:
    """Where a finished table's rematch is; a seated player sits there with the same seat key."""
    return {"type": "rematch", "code": code} if seat is None else {"type": "rematch", "code": code, "seat": seat}


class TableDealer:
    """A web table's chance, as its referee asks it: each deal depends only on the table's seed
    and its version, so a table resumed after a crash, or at another process, deals the cards it
    would have dealt without the interruption; once the host asked a table of unlimited deals to
    stop, the stop, at the first moment it may."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def chance(self, game: Game) -> Action:
        table = self.table
        return engines.chance(table.config, game, _mix(table.seed, len(game.history), 99), stop=table.stop_requested)


def _mix(seed: int, version: int, salt: int) -> int:
    digest = hashlib.sha256(f"{seed}:{version}:{salt}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def bot_seat(level: str, seat: int) -> Seat:
    """The seat ``seat`` taken by a bot of ``level`` (a seat nobody took, as the game starts)."""
    return Seat(kind="bot", name=_bot_name(level, seat), bot=level)


def _lower_priority() -> None:
    """In a hint thread: a lower CPU priority than the tables' own work (Linux keeps one for
    each thread), so that on a busy machine the games' moves come first."""
    with contextlib.suppress(AttributeError, OSError):  # (elsewhere, the same priority)
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HINT_NICENESS)


def _bot_name(level: str, seat: int | None) -> str:
    number = "" if seat is None else f" {seat + 1}"
    if players.is_url(level):
        return f"Remote bot{number}" if seat is not None else f"Remote bot {level[:40]}"
    return f"{level.split(':')[0].capitalize()} bot{number}"


def close_clocks(service: TableService) -> None:
    for table in service.tables.values():
        with contextlib.suppress(Exception):
            service._cancel_clock(table)
