"""The Play now queue in the store: who waits for a table of which rules, and where they sat.

It lives in the database so that people who reach different server processes meet at one
table. Times are the database's clock, so every process agrees on who is due. Seating is one
transaction that marks the places taken and inserts the new game together; on PostgreSQL the
waiting rows are locked first (``FOR UPDATE``), so however many processes try at once, each
person is seated once and each table is made once. SQLite is one process's database: its
writes are serialized, and a seating that finds the queue changed under it just fails and is
tried again on the next round.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, insert
from sqlalchemy import text as text_sql
from sqlalchemy.exc import IntegrityError, OperationalError

from callbreak.store.models import GameRow

log = logging.getLogger("callbreak.store")

_COLUMNS = "p.ticket, p.guest, p.name, p.rules, p.status, p.seat_hash, p.address, p.table_code, p.seat"


@dataclass(frozen=True, slots=True)
class Place:
    """One guest's place in the queue: ``waiting``, ``seated`` (at ``table_code``) or ``left``."""

    ticket: str
    guest: str  # the guest's player key (a hash of their browser's secret)
    name: str
    rules: str
    status: str
    seat_hash: str  # the hash of the seat token the guest's own requests can work out
    address: str | None  # the key of the address they asked from (a hash), as games keep it
    table_code: str | None
    seat: int | None


@dataclass(frozen=True, slots=True)
class Party:
    """The people a place is with: those waiting in its group (up to a table's seats, in the
    order they came) and the seconds until bots fill the rest; or those seated at its table."""

    place: Place
    names: list[str]
    seconds_left: float
    you: int | None  # the place's own index in ``names``


@dataclass(frozen=True, slots=True)
class NewGame:
    """What a seating inserts: the game's code, stored settings, seats and maker keys."""

    code: str
    config: dict[str, Any]
    seats: list[dict[str, Any]]
    made_by: dict[str, str | None]


class _Raced(Exception):
    """A place changed between being read and being seated: roll the seating back."""


class PlayNowQueue:
    """The queue's part of :class:`~callbreak.store.Store` (which provides these three)."""

    engine: Engine
    is_sqlite: bool

    def _now_sql(self, ahead: str | None = None) -> str:  # pragma: no cover - Store's
        raise NotImplementedError

    def _since_sql(self, column: str) -> str:
        """Seconds from ``column`` to now, by the database's clock (negative: still to come)."""
        if self.is_sqlite:
            return f"((julianday('now') - julianday({column})) * 86400.0)"
        return f"EXTRACT(EPOCH FROM (timezone('UTC', clock_timestamp()) - {column}))"

    def _held(self, conn: Any, guest: str, lock: bool) -> Place | None:
        """The place the guest holds: waiting, or seated at a table not yet over."""
        sql = (f"SELECT {_COLUMNS}, g.status FROM play_now p LEFT JOIN games g ON g.code = p.table_code "
               f"WHERE p.guest = :guest")
        if lock and not self.is_sqlite:
            sql += " FOR UPDATE OF p"
        row = conn.execute(text_sql(sql), {"guest": guest}).first()
        if row is None:
            return None
        place = Place(*row[:9])
        if place.status == "waiting" or (place.status == "seated" and row[9] in ("lobby", "playing")):
            return place
        return None

    def queue_place(self, guest: str) -> Place | None:
        """The place the guest (a player key) holds now, if any."""
        with self.engine.connect() as conn:
            return self._held(conn, guest, lock=False)

    def join_queue(self, *, ticket: str, guest: str, name: str, rules: str, seat_hash: str,
                   address: str | None, wait: float) -> Place:
        """A place for the guest, due in ``wait`` seconds; or, if they hold one already (another
        tab, another process, a second click), that one: one guest, one place. A place they
        held before (left, or seated at a finished table) gives way to the new one."""
        insert_sql = (f"INSERT INTO play_now (ticket, guest, name, rules, status, seat_hash, address, "
                      f"joined_at, due_at, seen_at) VALUES (:ticket, :guest, :name, :rules, 'waiting', "
                      f":seat_hash, :address, {self._now_sql()}, {self._now_sql(':wait')}, {self._now_sql()})")
        for attempt in range(1, 4):
            try:
                with self.engine.begin() as conn:
                    held = self._held(conn, guest, lock=True)
                    if held is not None:
                        return held
                    conn.execute(text_sql("DELETE FROM play_now WHERE guest = :guest"), {"guest": guest})
                    conn.execute(text_sql(insert_sql), {
                        "ticket": ticket, "guest": guest, "name": name, "rules": rules,
                        "seat_hash": seat_hash, "address": address, "wait": float(wait)})
                return Place(ticket, guest, name, rules, "waiting", seat_hash, address, None, None)
            except (IntegrityError, OperationalError):
                # The guest's other request made a place just now (that one is theirs), or on
                # SQLite another write came between this one's read and write: again.
                if attempt == 3:
                    raise
        raise AssertionError("unreachable")

    def queue_party(self, ticket: str, seats: int, *, seen_by: str | None = None) -> Party | None:
        """The place of ``ticket`` and its party (None: no such ticket). ``seen_by``: the guest
        asking; if the place is theirs, it is marked seen now (a place nobody asks about for a
        while is given up: :meth:`seat_waiting`'s ``stale``)."""
        with self.engine.begin() as conn:
            if seen_by is not None:
                conn.execute(text_sql(f"UPDATE play_now SET seen_at = {self._now_sql()} "
                                      f"WHERE ticket = :ticket AND guest = :guest"),
                             {"ticket": ticket, "guest": seen_by})
            row = conn.execute(text_sql(f"SELECT {_COLUMNS} FROM play_now p WHERE p.ticket = :ticket"),
                               {"ticket": ticket}).first()
            if row is None:
                return None
            place = Place(*row)
            if place.status == "seated":
                names = conn.execute(text_sql("SELECT name FROM play_now WHERE table_code = :code "
                                              "ORDER BY seat"), {"code": place.table_code}).scalars().all()
                return Party(place, list(names), 0.0, place.seat)
            if place.status != "waiting":
                return Party(place, [], 0.0, None)
            queue = conn.execute(text_sql(
                f"SELECT ticket, name, {self._since_sql('due_at')} FROM play_now "
                f"WHERE status = 'waiting' AND rules = :rules ORDER BY joined_at, ticket"),
                {"rules": place.rules}).all()
        # The queue is seated a table at a time from its head: this place's group is its slice.
        index = next(i for i, r in enumerate(queue) if r[0] == ticket)
        group = queue[index - index % seats: index - index % seats + seats]
        return Party(place, [str(r[1]) for r in group], max(0.0, -float(group[0][2])), index % seats)

    def leave_queue(self, ticket: str) -> None:
        """Give up a place still waiting (a seated one stays seated)."""
        with self.engine.begin() as conn:
            conn.execute(text_sql("UPDATE play_now SET status = 'left' WHERE ticket = :ticket "
                                  "AND status = 'waiting'"), {"ticket": ticket})

    def waiting_rules(self) -> list[str]:
        """The rules somebody waits for."""
        with self.engine.connect() as conn:
            return [str(r) for r in conn.execute(text_sql(
                "SELECT DISTINCT rules FROM play_now WHERE status = 'waiting'")).scalars()]

    def seat_waiting(self, rules: str, seats: int, stale: float, build: Callable[[list[Place]], NewGame],
                     lease: tuple[str, float] | None = None) -> tuple[int, str, list[Place], int | None] | None:
        """Seat the head of the queue for ``rules`` at a new game, if it is ready: ``seats``
        people, or fewer whose first is due. The places of people who stopped asking (none for
        ``stale`` seconds: a closed tab) are given up first. ``build`` makes the game for the
        people (in seat order); it is stored with status ``playing``, and with ``lease``
        (owner, seconds) its lease is taken at once (epoch 1): the maker runs it.

        Returns (the game's id and code, the people, the lease's epoch or None), or None if
        nobody was ready or another seating got there first.
        """
        pick = (f"SELECT {_COLUMNS}, {self._since_sql('p.due_at')} >= 0 FROM play_now p "
                f"WHERE p.status = 'waiting' AND p.rules = :rules ORDER BY p.joined_at, p.ticket LIMIT :seats")
        if not self.is_sqlite:
            pick += " FOR UPDATE"  # a second seating waits, then sees these places taken
        try:
            with self.engine.begin() as conn:
                conn.execute(text_sql(f"UPDATE play_now SET status = 'left' WHERE status = 'waiting' "
                                      f"AND rules = :rules AND {self._since_sql('seen_at')} > :stale"),
                             {"rules": rules, "stale": float(stale)})
                rows = conn.execute(text_sql(pick), {"rules": rules, "seats": seats}).all()
                people = [Place(*r[:9]) for r in rows]
                if not people or (len(people) < seats and not rows[0][9]):
                    return None
                game = build(people)
                game_id = conn.execute(insert(GameRow).values(
                    code=game.code, status="playing", config=json.dumps(game.config),
                    seats=json.dumps(game.seats), created_at=datetime.now(UTC).replace(tzinfo=None),
                    made_by_guest=game.made_by.get("guest"),
                    made_by_address=game.made_by.get("address"))).inserted_primary_key[0]  # type: ignore[index]
                for seat, person in enumerate(people):
                    taken = conn.execute(text_sql(
                        "UPDATE play_now SET status = 'seated', table_code = :code, seat = :seat "
                        "WHERE ticket = :ticket AND status = 'waiting'"),
                        {"code": game.code, "seat": seat, "ticket": person.ticket}).rowcount
                    if taken != 1:
                        raise _Raced
                epoch = None
                if lease is not None:
                    conn.execute(text_sql(f"INSERT INTO table_leases (game_id, owner, epoch, expires_at) "
                                          f"VALUES (:game, :owner, 1, {self._now_sql(':ttl')})"),
                                 {"game": game_id, "owner": lease[0], "ttl": float(lease[1])})
                    epoch = 1
        except (_Raced, IntegrityError, OperationalError) as e:  # another seating, or a code taken
            log.info("play now: seating for %s not made this time (%s)", rules, type(e).__name__)
            return None
        seated = [Place(p.ticket, p.guest, p.name, p.rules, "seated", p.seat_hash, p.address, game.code, i)
                  for i, p in enumerate(people)]
        return int(game_id), game.code, seated, epoch
