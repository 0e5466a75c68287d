"""Several server processes (on one machine or many) sharing one PostgreSQL act as one server.

Ownership: each live table is run by one process at a time, the holder of its lease in the
store (``table_leases``: owner, expiry by the database's clock, and an epoch that grows at every
change of hands). Only the owner runs the table's clock, bots and deals, and it writes actions
under its epoch, so a process that lost the lease (killed, paused, cut off) cannot write again:
fencing. The unique (table, version) key of the stored actions makes a duplicate impossible.

Every other process that has sockets at the table keeps a replica: the same Table, rebuilt from
the stored actions. Messages go through PostgreSQL's LISTEN/NOTIFY on one channel:

- ``changed``: the owner stored and applied something. The notice carries the latest stored
  actions (what the store holds, seen only by the processes, which read the store anyway) and a
  fingerprint of the table; a replica applies the actions it lacks and reads the store (the
  truth) only if it still differs. Each process renders each of its sockets its own seat's view
  itself: no view, and so no card, is ever carried for a seat.
- ``call`` / ``reply``: an action, join, start... arriving at a replica is run by the owner.
- ``presence``: which seats have sockets on a replica, so the owner's clock knows who is there.

Failover: the owner renews its leases every second; a killed process's leases lapse after
LEASE_SECONDS and a live process takes the table over by the restart path (load, replay, and
carry on: timers and bots included).

Every lease change (a takeover, a handover, a drain) is a store write and runs in a writer thread
(``TableService.write``), never on the event loop: a slow commit holds up that table alone. A
table being taken over is loaded and replayed in that thread too, and installed on the loop only
once its lease is this process's (concurrent claims of one table here share one: ``claiming``);
a table is given up inside its own turn (its ``lock``), so no step of it runs while its lease is
being released, and one waiting behind finds it followed and forwards to the new owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import threading
import time
import zlib
from datetime import UTC
from typing import Any

from callbreak.core.words import N_
from callbreak.server import engines
from callbreak.server.tables import Seat, Table, TableService
from callbreak.server.wire import MessageError
from callbreak.store import StoredGame

log = logging.getLogger("callbreak.cluster")

CHANNEL = "callbreak_tables"
LEASE_SECONDS = 3.0  # a dead owner's tables wait at most this long for a new owner
TICK_SECONDS = 1.0  # lease renewal, takeover scan and presence refresh
TAIL_ACTIONS = 8  # the latest actions a change notice carries
NOTIFY_BYTES = 8000  # PostgreSQL refuses a longer NOTIFY payload
HANDOVER_AFTER = 5.0  # a process keeps a table it just took this long before handing it on
STALL_SECONDS = 10.0  # an event loop silent this long is hung: its leases are let lapse
CALL_SECONDS = 10.0  # how long a forwarded action waits for the owner's answer
REPLY_GRACE = 0.5  # how long a call waits for a reply already on its way from a former owner
SEND_BATCH = 64  # notices sent in one statement at most
RECONNECT_MAX = 2.0  # seconds between tries to reach the database again, at most


class Cluster:
    """This process's part in a set of processes sharing tables through PostgreSQL."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.store = service.store
        self.me = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.outbox: asyncio.Queue[str] = asyncio.Queue()
        self.waiting: dict[str, asyncio.Future[dict[str, Any] | None]] = {}
        self.calls: dict[str, str] = {}  # caller side: each call still waiting, as sent (sent again)
        # owner side: the calls taken lately (by caller and id), each with when it was answered
        # and its reply (None while it runs): a call sent again is run once and answered again
        self.answers: dict[str, tuple[float, str | None]] = {}
        # owner side: per table, per other process, its connected seats and when it said so
        self.remote: dict[str, dict[str, tuple[set[int], float]]] = {}
        self.owner_seen: dict[str, str] = {}  # replica side: the owner that last spoke for a table
        self.owned_since: dict[str, float] = {}  # owner side: when this process took each table
        self.handed: dict[str, float] = {}  # tables this process handed on, and when
        # CALLBREAK_HANDOVER=0: a table stays with the process that took it until it dies
        self.handover = os.environ.get("CALLBREAK_HANDOVER", "1").lower() not in ("0", "false", "off", "no")
        self.tasks: list[asyncio.Task[Any]] = []
        self.listener: Any = None
        self.sender: Any = None
        self.heartbeat = time.monotonic()  # the event loop's last lease tick
        self.stopping = threading.Event()
        self.draining = False  # handing every table on before it stops: it takes none
        self.answering: set[asyncio.Task[Any]] = set()  # calls from other processes being run, claims
        self.handing: set[asyncio.Task[None]] = set()  # tables handed on once their step is done
        self.in_flight = False  # a batch of notices is being sent
        self.claiming: dict[str, asyncio.Task[bool]] = {}  # tables whose lease is being taken here
        self.offered: dict[str, str] = {}  # tables another process offered this one, and who
        self.taking: asyncio.Task[int] | None = None  # the tick's scan for unowned tables

    @classmethod
    async def start(cls, service: TableService) -> int:
        """Join the cluster: listen, take over every unowned table, start the lease keeper."""
        import psycopg

        cluster = cls(service)
        service.cluster = cluster
        service.loop = asyncio.get_running_loop()
        dsn = _dsn(cluster.store.url)
        cluster.listener = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
        await cluster.listener.execute(f"LISTEN {CHANNEL}")
        cluster.sender = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
        taken = await cluster.take_over()
        cluster.tasks = [asyncio.create_task(cluster._listen()), asyncio.create_task(cluster._send()),
                         asyncio.create_task(cluster._keep())]
        threading.Thread(target=cluster._renew_beside, name="lease-renewer", daemon=True).start()
        log.info("process %s joined; took over %d tables", cluster.me, taken)
        return taken

    async def stop(self) -> None:
        """Leave: give every lease up at once, so the others need not wait for it to lapse."""
        self.stopping.set()
        for task in self.tasks:
            task.cancel()
        held = [(t.id, t.epoch) for t in self.service.tables.values() if t.epoch is not None and not t.replica]
        with contextlib.suppress(Exception):
            await self.service.write(self._release_all, held)
        for conn in (self.listener, self.sender):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()

    # --- ownership ---------------------------------------------------------------------------

    async def adopt(self, table: Table) -> None:
        """A table this process just created: it owns it, unless another process claimed it
        first (its scan for unowned tables found the new game before this claim): then this
        process follows it there, as any table another process runs."""
        epoch = await self.service.write(self.store.acquire_lease, table.id, self.me, LEASE_SECONDS)
        if epoch is None:
            lease = await self.service.write(self.store.lease_of, table.id)
            if lease is None or lease[0] == self.me or not lease[2]:  # refused rather than run unowned
                raise MessageError("unavailable", N_("the new table could not be claimed; try again"))
            log.info("process %s made table %s; %s claimed it first and runs it", self.me, table.code, lease[0])
            table.replica, table.epoch = True, None
            return
        self.owns(table, epoch)

    def owns(self, table: Table, epoch: int) -> None:
        """This process holds the table's lease (``epoch``): it runs the table."""
        table.epoch, table.replica = epoch, False
        self.owned_since[table.code] = time.monotonic()
        self.owner_seen.pop(table.code, None)  # (if it followed the table: it speaks for it now)

    async def take_over(self) -> int:
        """Claim every unfinished table whose lease is free (never taken, lapsed or given up)."""
        if self.draining:
            return 0  # stopping: it takes none
        codes = await self.service.write(self.store.unowned_games)
        # (a table handed on from here just now: the process it went to claims it first)
        claims = [self._claim(code, "found free", runnable=True) for code in codes if not self._handed_lately(code)]
        return sum(await asyncio.gather(*claims))

    def _take_over_soon(self) -> None:
        """The tick's scan for unowned tables, as a task of its own (one at a time): a scan that
        takes over many tables does not hold up the lease upkeep."""
        if self.taking is not None and not self.taking.done():
            return
        self.taking = asyncio.get_running_loop().create_task(self._take_over_logged())

    async def _take_over_logged(self) -> int:
        try:
            return await self.take_over()
        except Exception as e:  # the database is away: the next tick tries again
            log.error("takeover scan failed: %s", e)
            return 0

    async def _claim(self, code: str, why: str, *, runnable: bool = False) -> bool:
        """Take the table's lease and run it here; ``why`` is said in the log (found free: its
        lease was never taken, lapsed or given up; offered by a process handing it on).
        ``runnable``: only if this process's bots can play it now. A claim of the table already
        under way here is waited for, not made twice. Whether the table is run here now."""
        if self.draining:
            # Stopping: a table it takes now (an action arriving while it hands its tables on,
            # a table loaded for a socket) would wait for its exit to be let go. It goes to the
            # process its offer reaches; an action here is forwarded there (forward()).
            return False
        claim = self.claiming.get(code)
        if claim is None:
            claim = asyncio.get_running_loop().create_task(self._claim_now(code, why, runnable))
            self.claiming[code] = claim
            claim.add_done_callback(lambda _: self.claiming.pop(code, None))
        return await asyncio.shield(claim)

    async def _claim_now(self, code: str, why: str, runnable: bool) -> bool:
        service = self.service
        try:
            taken = await service.write(self._take_lease, code, runnable)
        except Exception as e:  # the database is away: the table is claimed later
            log.error("cannot claim table %s: %s", code, e)
            return False
        if taken is None:
            return False
        epoch, before, stored, restored = taken
        if code in self.offered:  # (the scan may have found it free as its offer came: it was offered)
            why = f"offered by {self.offered.pop(code)}"
        table = service.tables.get(code)
        try:
            if table is None:
                table = restored or service._restore(stored)  # (a replica dropped meanwhile)
                service.tables[code] = table
            else:  # a replica here (its sockets stay): it comes up to the store
                self._bring_up(table, stored)
        except Exception as e:  # a damaged game must not stop the others
            log.error("cannot take over table %s: %s", code, e)
            with contextlib.suppress(Exception):
                await service.write(self.store.release_lease, stored.id, self.me, epoch)
            return False
        table.epoch, table.replica = epoch, False
        self.owned_since[table.code] = time.monotonic()
        self.owner_seen.pop(table.code, None)  # it speaks for the table itself now
        previous = f"from {before[0]}" if before else "never run before"
        log.info("process %s took over table %s (epoch %d, %s, %s)", self.me, table.code, epoch, previous, why)
        service.metrics.takeovers.inc()
        if table.match is not None:
            service.settle(table)  # the restart path, in the table's turn: deal on, arm the clock, broadcast
        else:
            service.broadcast(table)
        if self.draining:  # the drain began while the lease was being taken: it goes on at once
            self.handing.add(service.spawn(table, self._hand_on_stopping_in_turn(table)))
        return True

    def _take_lease(self, code: str, runnable: bool) -> tuple[int, tuple[str, int, bool] | None, StoredGame,
                                                               Table | None] | None:
        """In a writer thread: the lease of an unfinished table, then the table as stored once
        the lease is ours (the old owner can write nothing more), replayed unless it is followed
        here already. (epoch, the lease before, the stored game, the table), or None if the
        table is not to be claimed here (finished, taken, or its bots cannot play here yet)."""
        stored = self.store.load_game(code)
        if stored is None or stored.status not in ("lobby", "playing"):
            return None
        if runnable and not self._can_run(stored.config):
            return None  # (its bots could not play yet here: a process whose kernel is ready takes it)
        before = None
        with contextlib.suppress(Exception):  # whose table it was (for the log), and whether it is free
            before = self.store.lease_of(stored.id)
        if before is not None and before[2]:
            return None  # run by a process (this one too: a second claim would fence its own writes out)
        if before is None and time.time() - stored.created_at.replace(tzinfo=UTC).timestamp() < LEASE_SECONDS:
            # Never leased, and just made: its maker is claiming it. Taken from under it, the
            # table would be run where its maker's players are not (a maker here would write
            # under the older epoch, and so follow a table nobody runs).
            return None
        epoch = self.store.acquire_lease(stored.id, self.me, LEASE_SECONDS)
        if epoch is None:
            return None
        try:
            stored = self.store.load_game(code) or stored
            restored = None if code in self.service.tables else self.service._restore(stored)
        except Exception as e:  # a damaged game must not stop the others
            log.error("cannot take over table %s: %s", code, e)
            with contextlib.suppress(Exception):
                self.store.release_lease(stored.id, self.me, epoch)
            return None
        return epoch, before, stored, restored

    def _release_all(self, held: list[tuple[int, int | None]]) -> None:
        """In a writer thread: give up every lease in ``held`` ((game, epoch) pairs)."""
        for game_id, epoch in held:
            if epoch is not None:
                with contextlib.suppress(Exception):
                    self.store.release_lease(game_id, self.me, epoch)

    def lost(self, table: Table) -> None:
        """This process no longer holds the table's lease: become a replica of the new owner."""
        if table.replica:
            return
        log.warning("process %s lost the lease of table %s (epoch %s)", self.me, table.code, table.epoch)
        self.service.metrics.leases_lost.inc()
        self._follow(table)

    def hand_on(self, table: Table) -> None:
        """Give the table to the process where more of its seated players are connected than
        here, so their actions need no forwarding (all of them, behind a proxy that sends a
        table's players to one process). The lease is given up first: this process can write
        nothing more; the other claims it (or, if it does not, any process does in a tick)."""
        if self._hand_to(table) is not None:
            self.service.spawn(table, self._hand_on_in_turn(table))

    def _hand_to(self, table: Table) -> str | None:
        """The process to hand the table to, if its players are more there than here."""
        if not self.handover or table.replica or table.epoch is None or table.status == "over":
            return None
        if time.monotonic() - self.owned_since.get(table.code, 0.0) < HANDOVER_AFTER:
            return None  # no handing a table back and forth while players come and go
        best, most = None, len(table.seats_here())
        for proc, (seats, _) in self.remote.get(table.code, {}).items():
            if len(seats) > most:
                best, most = proc, len(seats)
        return best

    async def _hand_on_in_turn(self, table: Table) -> None:
        best = self._hand_to(table)  # (asked again: its players may have moved meanwhile)
        if best is None:
            return
        here, there = len(table.seats_here()), len(self.remote[table.code][best][0])
        await self._give(table, best, f"hands table {table.code} to {best} ({there} seated players there, "
                                      f"{here} here)")

    async def _give(self, table: Table, to: str, said: str) -> bool:
        """In the table's turn: give its lease up (in a writer thread), then offer it to ``to``
        (a process, or "*": any) and follow it. No step of the table runs meanwhile; one waiting
        for its turn finds it followed and goes to the new owner. Whether it was given up."""
        assert table.epoch is not None
        try:
            await self.service.write(self.store.release_lease, table.id, self.me, table.epoch)
        except Exception as e:  # the database is away: the lease lapses as for a dead process
            log.error("process %s could not give up table %s: %s", self.me, table.code, e)
            return False
        log.info("process %s %s", self.me, said)
        self.service.metrics.handovers.inc()
        self.handed[table.code] = time.monotonic()
        self._post({"k": "adopt", "to": to, "from": self.me, "code": table.code})
        self._follow(table)  # its presence notice goes after: the new owner knows who is here
        return True

    async def drain(self) -> int:
        """Hand every table this process runs to another process at once (it is stopping: a
        SIGTERM): each lease is given up and the table offered to the process where most of its
        seated players are, else to any; the first to claim it runs it, with no lease to wait
        out. Each is handed on in its turn (after a step under way, its write, is done).
        Returns how many tables were handed on."""
        self.draining = True
        owned = [t for t in self.service.tables.values()
                 if not t.replica and t.epoch is not None and t.status != "over"]
        for table in owned:
            self.handing.add(self.service.spawn(table, self._hand_on_stopping_in_turn(table)))
        if self.handing:
            await asyncio.wait(set(self.handing))
        return sum(1 for t in owned if t.replica)

    async def _hand_on_stopping_in_turn(self, table: Table) -> None:
        """Give the table up and offer it on (this process is stopping)."""
        if table.replica or table.epoch is None or table.status == "over":
            return
        self._remote_seats(table)
        best, most = "*", 0
        for proc, (seats, _) in self.remote.get(table.code, {}).items():
            if len(seats) > most:
                best, most = proc, len(seats)
        # An action arriving here meanwhile waits for the claim and goes to the new owner.
        await self._give(table, best, f"is stopping: hands table {table.code} to "
                                      f"{'any process' if best == '*' else best}")

    def _can_run(self, config: dict[str, Any]) -> bool:
        """Whether this process's bots can play a table of these settings now: its compiled
        kernel is ready, or none of the table's bots runs on it (a process still compiling
        serves every other table; a person's stand-in waits for the kernel, as at any table)."""
        warmup = self.service.warmup
        if warmup is None or warmup.ready:
            return True
        return not any(engines.bot_needs_kernel(config, spec) for spec in config.get("bots", []))

    def _handed_lately(self, code: str) -> bool:
        """Whether this process handed the table on so lately that the process it went to may
        not have claimed it yet (after that, any process may take it, as a dead owner's)."""
        return time.monotonic() - self.handed.get(code, -HANDOVER_AFTER) < 2 * TICK_SECONDS

    def _follow(self, table: Table) -> None:
        table.replica, table.epoch = True, None
        # Whoever spoke for the table before this process ran it may be gone (a process since
        # restarted): an action forwarded to it would wait 1.5 s for no answer. The next owner's
        # first notice names it; until then the lease does.
        self.owner_seen.pop(table.code, None)
        table.remote_seats = set()
        self.service._cancel_clock(table)
        with contextlib.suppress(Exception):
            self.refresh(table)
        self.presence(table)

    def load(self, code: str) -> Table | None:
        """A table another process runs, loaded here as a replica (or claimed, if unowned)."""
        stored = self.store.load_game(code)
        if stored is None or stored.status not in ("lobby", "playing"):
            return None
        lease = self.store.lease_of(stored.id)
        table = self.service._restore(stored)
        table.replica = True
        self.service.tables[code] = table
        if lease is None or not lease[2]:  # nobody runs it: claimed here, off the loop (it follows till then)
            self._claim_soon(code)
        return table

    def _claim_soon(self, code: str, why: str = "found free", *, runnable: bool = False) -> None:
        """Claim the table in a task of its own (from code that cannot wait for the store)."""
        if code in self.claiming or self.draining:
            return
        task = asyncio.get_running_loop().create_task(self._claim(code, why, runnable=runnable))
        self.answering.add(task)  # (kept till done, as the calls being answered are)
        task.add_done_callback(self.answering.discard)

    def refresh(self, table: Table) -> None:
        """Bring a table up to the store: seats, status, and the actions it has not applied."""
        stored = self.store.load_game(table.code, since=table.version)
        if stored is not None:
            self._bring_up(table, stored, since=table.version)

    def _bring_up(self, table: Table, stored: StoredGame, since: int = 0) -> None:
        """Bring a table up to ``stored`` (loaded with the actions from ``since`` on)."""
        table.seats = [Seat.from_json(s) for s in stored.seats]
        table.host_hash = stored.config.get("host_hash", table.host_hash)
        table.stop_requested = bool(stored.config.get("stop_requested", False))
        table.rematch_code = stored.config.get("rematch", table.rematch_code)
        self.service.follow_seats(table)  # a seat moved or claimed at another process
        if stored.status != "lobby" and table.match is None:
            table.match = engines.new_game(table.config)
        if table.match is not None:
            table.follow(stored.actions[table.version - since:])
        table.memories = dict(stored.memories)  # (stored with the latest action: the seats' bots')
        table.status = stored.status

    @staticmethod
    def follow_clock(table: Table, clock: dict[str, Any] | None) -> None:
        """A replica shows the owner's clock (what is left, and what happens when it runs out)."""
        if clock is not None and table.replica:
            left = clock.get("left")
            table.deadline = None if left is None else time.monotonic() + float(left)
            table.deadline_kind = clock.get("kind") or ""

    # --- messages ----------------------------------------------------------------------------

    def _post(self, message: dict[str, Any]) -> None:
        self.outbox.put_nowait(_encode(message))

    def changed(self, table: Table) -> None:
        """The owner's table moved on (called with every broadcast)."""
        if table.replica:
            return
        left = None if table.deadline is None else round(max(0.0, table.deadline - time.monotonic()), 2)
        message: dict[str, Any] = {"k": "changed", "code": table.code, "from": self.me, "v": table.version,
                                   "state": _state_key(table),
                                   "clock": {"left": left, "kind": table.deadline_kind or None}}
        if table.notices:  # public: what the clock did (a few dozen bytes each, NOTICES_KEPT at most)
            message["notices"] = table.notices
        if table.match is not None:
            # The latest actions ride along, so a replica that is up to date need not read the
            # store; if they would take the notice past NOTIFY's limit, it goes without them (and
            # the replicas read the store).
            first = max(0, table.version - TAIL_ACTIONS)
            message["first"] = first
            message["tail"] = [a.to_json() for a in table.match.history[first:]]
        text = _encode(message)
        if len(text.encode()) >= NOTIFY_BYTES and "tail" in message:
            del message["first"], message["tail"]
            text = _encode(message)
        self.outbox.put_nowait(text)

    def rematched(self, table: Table) -> None:
        """The owner made the table's rematch: every process following the table tells its
        sockets there (the players keep their seat keys, so the notice carries no secret)."""
        if table.replica or table.rematch_code is None:
            return
        self._post({"k": "rematch", "from": self.me, "code": table.code, "new": table.rematch_code})

    def presence(self, table: Table) -> None:
        """Tell the owner which seats have sockets here."""
        if not table.replica:
            return
        self._post({"k": "presence", "code": table.code, "from": self.me, "seats": sorted(table.seats_here())})

    async def forward(self, table: Table, method: str, args: tuple[Any, ...]) -> Any:
        """Run ``method`` at the table's owner and wait for its answer. If the owner dies while
        the call waits, the call goes to the next owner (this process, if it claims the table):
        the client sees a short wait, not an error; the version check stops a double action.
        Counted as forwarded (in :meth:`_call`) only when it goes to another process: a call that
        waits out a claim here and then runs here was not forwarded."""
        owner = self.owner_seen.get(table.code)
        # Not while this process claims the table (its lease may name us already, the table not
        # yet switched from replica): the owner last heard is handing it over, or gone; the loop
        # below waits for the claim and runs the call here.
        if owner is not None and owner != self.me and table.code not in self.claiming:
            # The owner that last spoke for the table, without reading its lease: a forwarded
            # action costs one store read less. An owner that has let the table go answers
            # "moved", a dead one loses its lease while the call waits: then the lease decides.
            reply = await self._call(table, owner, method, args)
            if reply is not None and not reply.get("moved"):
                return self._forwarded(table, method, reply)
            self.owner_seen.pop(table.code, None)
        calls = 0
        while calls < 3:
            claim = self.claiming.get(table.code)
            if claim is not None:  # being claimed here (its lease may read ours already): once it runs here
                await asyncio.shield(claim)
            lease = await asyncio.to_thread(self.store.lease_of, table.id)  # (a read: off the loop)
            if (lease is None or not lease[2]) and self._handed_lately(table.code):
                await asyncio.sleep(0.05)  # handed on from here: the process it went to claims it
                continue
            if lease is None or not lease[2]:  # nobody runs it (the owner died): take it here
                if await self._claim(table.code, "found free"):
                    return await self.service.run_here(method, table.code, *args)
                lease = await asyncio.to_thread(self.store.lease_of, table.id)
            if lease is not None and lease[0] == self.me and lease[2]:
                # taken over meanwhile (by the tick, maybe as a new Table object): run it here
                return await self.service.run_here(method, table.code, *args)
            if lease is None or lease[0] == self.me:
                raise MessageError("unavailable", N_("the table's server process is changing; try again"))
            reply = await self._call(table, lease[0], method, args)
            calls += 1
            if reply is not None and not reply.get("moved"):
                break  # (a process that has just handed the table on answers "moved": ask again)
        else:
            raise MessageError("unavailable", N_("the table's server process did not answer; try again"))
        return self._forwarded(table, method, reply)

    def _forwarded(self, table: Table, method: str, reply: dict[str, Any]) -> Any:
        """What a call run at the owner returns here, from the owner's reply."""
        if not reply.get("ok"):
            params: dict[str, Any] = reply["params"] if isinstance(reply.get("params"), dict) else {}
            raise MessageError(str(reply.get("code", "unavailable")), str(reply.get("template", reply.get("message", ""))),
                               english=str(reply.get("message", "")), **params)
        if method == "act" and table.version >= int(reply.get("v", table.version + 1)):
            return table  # the owner's change notice came first (it is sent first) and is followed
        self.refresh(table)  # the owner stored it before answering
        self.service.broadcast(table)
        if method in ("join", "claim"):
            return table, reply["token"], reply["seat"]
        if method == "handoff":
            return reply["secret"]
        if method == "rematch":
            return self.service.get(reply["code"])
        return table

    async def _call(self, table: Table, owner: str, method: str, args: tuple[Any, ...]) -> dict[str, Any] | None:
        """Send one call to ``owner``; its reply, or None if the owner lost the lease (died)
        before answering or its answer may have been missed (the notices' connection was lost):
        the caller asks again. A live owner that stays silent past CALL_SECONDS is an error."""
        self.service.metrics.forwarded.labels(method).inc()
        call_id = secrets.token_hex(8)
        answer: asyncio.Future[dict[str, Any] | None] = asyncio.get_running_loop().create_future()
        self.waiting[call_id] = answer
        call = self.calls[call_id] = _encode({"k": "call", "to": owner, "from": self.me, "id": call_id,
                                              "code": table.code, "method": method, "args": list(args)})
        self.outbox.put_nowait(call)
        try:
            waited = 0.0
            while waited < CALL_SECONDS:
                try:
                    return await asyncio.wait_for(asyncio.shield(answer), TICK_SECONDS)
                except TimeoutError:
                    waited += TICK_SECONDS
                # Not answered yet: the call, or its answer, may have been lost with a connection
                # the database ended (the owner listens again only once it has reconnected), so
                # it goes again; the owner runs it once and answers each time it hears it.
                self.outbox.put_nowait(call)
                lease = await asyncio.to_thread(self.store.lease_of, table.id)
                if lease is None or lease[0] != owner or not lease[2]:
                    # It may have answered just before it let the table go (its answer is sent
                    # before its lease is given up, but the store can say so first): a last wait,
                    # so an action it played is not reported as failed and sent again.
                    try:
                        return await asyncio.wait_for(asyncio.shield(answer), REPLY_GRACE)
                    except TimeoutError:
                        # The table waited (a second and more) on a process that no longer
                        # runs it: said, so that a test or an operator sees it happen.
                        log.warning("table %s: %s (call %s) to %s went unanswered: it no longer runs "
                                    "the table; asking its new owner", table.code, method, call_id, owner)
                        return None
        finally:
            self.waiting.pop(call_id, None)
            self.calls.pop(call_id, None)
        log.warning("table %s: %s (call %s) had no answer from %s in %.0f s", table.code, method,
                    call_id, owner, CALL_SECONDS)
        raise MessageError("unavailable", N_("the table's server process did not answer; try again"))

    def _take_call(self, message: dict[str, Any]) -> None:
        """A call for this process: answered by a task of its own (it runs in the table's turn).
        One heard again (its caller had no answer yet) is not run again: its answer goes again."""
        key = f"{message['from']}/{message['id']}"
        taken = self.answers.get(key)
        if taken is not None:
            if taken[1] is not None:
                self.outbox.put_nowait(taken[1])
            return  # (still running: answered when done)
        self.answers[key] = (time.monotonic(), None)
        task = asyncio.get_running_loop().create_task(self._answer_call(message))
        self.answering.add(task)
        task.add_done_callback(self.answering.discard)

    async def _answer_call(self, message: dict[str, Any]) -> None:
        reply: dict[str, Any] = {"k": "reply", "to": message["from"], "id": message["id"]}
        claim = self.claiming.get(message["code"])
        if claim is not None:  # its lease is ours already (the caller read so): it runs here once claimed
            await asyncio.shield(claim)
        table = self.service.tables.get(message["code"])
        try:
            if table is None or table.replica:
                reply["moved"] = True  # the caller asks the store who runs it now
                raise MessageError("unavailable", N_("that table moved to another server process; try again"))
            if message["method"] not in FORWARDED:
                raise MessageError("unavailable", f"{message['method']} is not run for another process")
            try:
                result = await self.service.run_here(message["method"], message["code"], *message["args"])
            except MessageError:
                if table.replica:  # it moved while the call waited for the table's turn
                    reply["moved"] = True
                raise
            reply["ok"] = True
            reply["v"] = table.version
            if message["method"] in ("join", "claim"):
                reply["token"], reply["seat"] = result[1], result[2]
            elif message["method"] == "handoff":
                reply["secret"] = result
            elif message["method"] == "rematch":
                reply["code"] = result.code
        except MessageError as e:
            reply.update(ok=False, code=e.code, message=e.message, template=e.template, params=e.params)
        except Exception as e:  # the caller gets a refusal, never silence
            log.exception("forwarded %s failed", message.get("method"))
            reply.update(ok=False, code="unavailable", message=f"the table's server process failed: {e}")
        text = _encode(reply)
        self.answers[f"{message['from']}/{message['id']}"] = (time.monotonic(), text)
        self.outbox.put_nowait(text)

    def _on_changed(self, message: dict[str, Any]) -> None:
        table = self.service.tables.get(message["code"])
        if table is None or not table.replica:
            return
        if self.owner_seen.get(table.code) != message["from"]:  # a new owner: tell it who is here
            self.owner_seen[table.code] = message["from"]
            self.presence(table)
        try:
            first, tail = int(message.get("first", 0)), message.get("tail")
            if (tail is not None and table.match is not None and table.status == "playing"
                    and first <= table.version < first + len(tail)):
                table.follow(tail[table.version - first:])
            if message.get("state") != _state_key(table):  # else nothing to read
                self.refresh(table)
            self.follow_clock(table, message.get("clock"))
            table.notices = list(message.get("notices", []))
        except Exception as e:
            log.error("table %s: cannot follow the store: %s", table.code, e)
            return
        self.service.broadcast(table)

    def _on_rematch(self, message: dict[str, Any]) -> None:
        table = self.service.tables.get(message["code"])
        if table is None or not table.replica:
            return
        table.rematch_code = str(message["new"])
        self.service.announce_rematch(table)

    def _on_adopt(self, message: dict[str, Any]) -> None:
        """Another process handed this one a table (most of its players are here), or any
        process one (it is stopping): claim it (the first claim wins)."""
        code = message["code"]
        table = self.service.tables.get(code)
        if message.get("to") not in (self.me, "*") or self.draining or (table is not None and not table.replica):
            return  # not for us, or taken here already (an action here found it unowned)
        self.offered[code] = str(message.get("from"))
        # (offered to any process: one whose bots can play takes it)
        self._claim_soon(code, f"offered by {message.get('from')}", runnable=message.get("to") == "*")

    def _on_presence(self, message: dict[str, Any]) -> None:
        table = self.service.tables.get(message["code"])
        if table is None or table.replica:
            return
        self.remote.setdefault(table.code, {})[message["from"]] = (set(message["seats"]), time.monotonic())
        self._remote_seats(table)

    def _remote_seats(self, table: Table) -> None:
        """Recount the seats connected elsewhere (forgetting processes gone quiet)."""
        fresh = time.monotonic() - LEASE_SECONDS
        others = self.remote.get(table.code, {})
        for proc in [p for p, (_, seen) in others.items() if seen < fresh]:
            del others[proc]
        seats = set().union(*(s for s, _ in others.values())) if others else set()
        if seats != table.remote_seats:
            table.remote_seats = seats
            self.service._arm(table)
            self.service.broadcast(table)

    # --- the loops ---------------------------------------------------------------------------

    async def _connect(self, listen: bool) -> Any:
        """A new connection to the database for notices (``listen``: one that listens), tried
        until the database answers again (it restarted, failed over, or ended our session)."""
        import psycopg

        delay = 0.1
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(_dsn(self.store.url), autocommit=True)
                if listen:
                    await conn.execute(f"LISTEN {CHANNEL}")
                return conn
            except Exception as e:
                log.warning("cannot reach the database for the cluster's notices (%s); trying again", e)
                await asyncio.sleep(delay)
                delay = min(2 * delay, RECONNECT_MAX)

    async def _listen(self) -> None:
        """Take the other processes' notices as they come; when the connection is lost, listen
        again on a new one and catch up with what was missed meanwhile."""
        while True:
            try:
                await self._take_notices()
            except Exception as e:
                log.warning("lost the connection the cluster's notices come on (%s); reconnecting", e)
            with contextlib.suppress(Exception):
                await self.listener.close()
            self.listener = await self._connect(listen=True)
            log.info("reconnected to the cluster's notices")
            self._catch_up()

    def _catch_up(self) -> None:
        """After notices were missed: every followed table comes up to the store (and its players
        get the state they missed), and every forwarded call still waiting is sent again at once
        (its answer may have been lost; the owner runs a call once, and answers it again)."""
        for call in self.calls.values():
            self.outbox.put_nowait(call)
        for table in list(self.service.tables.values()):
            if table.replica:
                self.refresh(table)
                self.service.broadcast(table)

    async def _take_notices(self) -> None:
        handlers = {"changed": self._on_changed, "presence": self._on_presence,
                    "rematch": self._on_rematch, "adopt": self._on_adopt}
        async for note in self.listener.notifies():
            try:
                message = json.loads(note.payload)
                kind = message.get("k")
                if kind == "reply":
                    waiting = self.waiting.get(message["id"]) if message.get("to") == self.me else None
                    if waiting is not None and not waiting.done():
                        waiting.set_result(message)
                elif kind == "call":
                    if message.get("to") == self.me:
                        self._take_call(message)
                elif kind in handlers and message.get("from") != self.me:
                    handlers[kind](message)
            except Exception:  # one bad message must not stop the listener
                log.exception("cluster message failed")

    async def _send(self) -> None:
        """Send the outbox in order, everything waiting in one statement (one round trip, one
        transaction: delivered together, in order). Under load, one NOTIFY a round trip fell
        behind the changes, and a forwarded call's answer waited its turn for over 10 s."""
        while True:
            batch = [await self.outbox.get()]
            while not self.outbox.empty() and len(batch) < SEND_BATCH:
                batch.append(self.outbox.get_nowait())
            self.in_flight = True
            try:
                if await self._sent(batch):
                    continue
                for payload in batch:  # one bad payload must not take the others with it
                    try:
                        await self._notify([payload])
                    except Exception as e:
                        log.error("cannot notify the other processes: %s", e)
            finally:
                self.in_flight = False

    async def flush(self, timeout: float = 2.0) -> None:
        """Until the tables being handed on are (a step was under way at them) and every notice
        posted so far has gone (or ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        if self.handing:
            await asyncio.wait(self.handing, timeout=timeout)
        while (not self.outbox.empty() or self.in_flight) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)

    async def _sent(self, batch: list[str]) -> bool:
        """Send ``batch`` in one statement, on a new connection if the database has ended the
        session (a restart, a failover); whether it went."""
        for _ in range(2):
            try:
                await self._notify(batch)
                return True
            except Exception as e:
                if not self.sender.closed:
                    return False
                log.warning("lost the connection the cluster's notices go on (%s); reconnecting", e)
                self.sender = await self._connect(listen=False)
                log.info("reconnected to send the cluster's notices")
        return False

    async def _notify(self, payloads: list[str]) -> None:
        sql = "SELECT " + ", ".join(["pg_notify(%s, %s)"] * len(payloads))
        await self.sender.execute(sql, [x for p in payloads for x in (CHANNEL, p)])

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            self.heartbeat = time.monotonic()
            try:
                # The renewal is a write: in a writer thread, off the loop.
                asked = time.monotonic()
                held = await self.service.write(self.store.renew_leases, self.me, LEASE_SECONDS)
                self._tick(held, asked)
            except Exception as e:  # the database is away: try again next tick
                log.error("lease upkeep failed: %s", e)

    def _renew_beside(self) -> None:
        """Renew this process's leases from a thread of its own too, while the event loop has
        ticked lately: a loop held up for a few seconds (a burst of connections on a loaded
        machine) keeps its tables instead of losing them all to another process; a hung one
        still lets them lapse. Only current leases are extended, so fencing is unchanged."""
        while not self.stopping.wait(TICK_SECONDS):
            if time.monotonic() - self.heartbeat < STALL_SECONDS:
                try:
                    self.store.renew_leases(self.me, LEASE_SECONDS)
                except Exception as e:  # the database is away: the loop's tick says so too
                    log.debug("lease renewal beside the loop failed: %s", e)

    def _tick(self, held: set[int], asked: float) -> None:
        """What the lease upkeep does with the leases still ``held`` (renewed from ``asked`` on):
        follow the tables lost, hand on the ones whose players are elsewhere, take over the
        unowned ones."""
        for table in list(self.service.tables.values()):
            if table.replica:
                if table.id in held and table.code not in self.claiming:
                    self._let_go_soon(table)
                if table.connections:
                    self.presence(table)
                else:  # nobody here watches it: stop following it (get() loads it again)
                    self.service.tables.pop(table.code, None)
            elif table.epoch is not None and table.status != "over":
                # A lease taken since the renewal was asked for (a table just made or claimed)
                # is not among the renewed, and is still this process's.
                kept = table.id in held or self.owned_since.get(table.code, 0.0) >= asked
                # Only between the table's steps: one under way (its write) must not find the
                # table following the store, or gone to another process, when it goes on.
                if table.lock.locked():
                    self.service.spawn(table, self._upkeep_in_turn(table, kept))
                else:
                    self._upkeep(table, kept)
        self._take_over_soon()
        self._forget_gone()

    def _let_go_soon(self, table: Table) -> None:
        """A table followed here whose lease this process holds: nobody runs it (this process
        follows it, the others see it held). Its lease is given up, off the loop, so that a scan
        takes it over (this process's too)."""
        def let_go() -> None:
            with contextlib.suppress(Exception):  # (the database is away: the next tick tries again)
                lease = self.store.lease_of(table.id)
                if lease is not None and lease[0] == self.me and lease[2]:  # (not a lease just given up)
                    log.warning("process %s holds the lease of table %s but follows it; giving it up",
                                self.me, table.code)
                    self.store.release_lease(table.id, self.me, lease[1])

        task = asyncio.get_running_loop().create_task(self.service.write(let_go))
        self.answering.add(task)
        task.add_done_callback(self.answering.discard)

    def _upkeep(self, table: Table, held: bool) -> None:
        """Follow a table whose lease is lost; else hand it on if its players are elsewhere."""
        if not held:
            self.lost(table)
        else:
            self._remote_seats(table)
            self.hand_on(table)

    async def _upkeep_in_turn(self, table: Table, held: bool) -> None:
        if not table.replica and table.epoch is not None and table.status != "over":
            self._upkeep(table, held)

    def _forget_gone(self) -> None:
        """Drop what this process keeps about tables it no longer has, and handovers past their
        window: a process that runs for weeks sees many thousands of tables."""
        live = self.service.tables
        for book in (self.owner_seen, self.remote, self.owned_since):
            for code in [c for c in book if c not in live]:
                del book[code]
        for code in [c for c in self.handed if not self._handed_lately(c)]:
            del self.handed[code]
        for code in [c for c in self.offered if c not in self.claiming]:  # (not claimed here)
            del self.offered[code]
        old = time.monotonic() - 2 * CALL_SECONDS  # (a caller sends a call again for CALL_SECONDS)
        for key in [k for k, (at, reply) in self.answers.items() if reply is not None and at < old]:
            del self.answers[key]


def _encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def _state_key(table: Table) -> int:
    """A short fingerprint of what a replica reads from the store (actions, seats, status), so a
    change notice that brings nothing new costs no read."""
    seats = [(s.kind, s.name, s.bot, s.token_hash, s.faults, s.player) for s in table.seats]
    return zlib.crc32(repr((table.version, table.status, table.stop_requested, table.host_hash,
                            seats)).encode())


FORWARDED = frozenset({"act", "join", "move", "start", "stop", "rematch", "handoff", "claim"})


def _dsn(url: str) -> str:
    """The store's SQLAlchemy URL as psycopg takes it."""
    return url.replace("postgresql+psycopg://", "postgresql://", 1)

