"""Who made each table, counted for the limits on one client (server/limits.py).

Every table keeps keys of its maker (a hash of their guest identity, one of their address), so
the limits count a client's tables over every process sharing the database. A new table is
counted and stored under a lock on its maker's keys (``Store.create_game(admit=...)``), so that
a client's requests at the same moment are counted one after another.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

from sqlalchemy import Engine, func, select

from callbreak.store.models import GameRow, utc_now

MADE_BY_PERIOD = 60.0  # seconds: the "new tables a minute" that create_game's admit is given
# By kind of key (guest, address): a maker's games not yet finished, those made in the last
# period, and how many seconds ago the oldest of those was made.
MakerCounts = dict[str, tuple[int, int, float]]


def _lock_number(key: str) -> int:
    """A PostgreSQL advisory lock number for ``key``, the same in every process (a signed
    64-bit number from a hash, as pg_advisory_xact_lock takes)."""
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big", signed=True)


class TableMakers:
    """The store's counts of who made which tables (a part of :class:`~callbreak.store.Store`)."""

    engine: Engine
    is_sqlite: bool

    def made_by_counts(self, keys: dict[str, str | None], period: float = MADE_BY_PERIOD) -> MakerCounts:
        """What the limits on one client count, over every process sharing this database: for
        each key given (``guest`` or ``address``, as :meth:`create_game` stored them), its games
        not yet finished, its games made in the last ``period`` seconds, and how many seconds ago
        the oldest of those was made (0.0 if none)."""
        with self.engine.connect() as conn:
            return self._made_by_counts(conn, keys, period)

    def _made_by_counts(self, conn: Any, keys: dict[str, str | None], period: float) -> MakerCounts:
        now = utc_now()
        since = now - timedelta(seconds=period)
        columns = {"guest": GameRow.made_by_guest, "address": GameRow.made_by_address}
        counts: MakerCounts = {}
        for kind, key in keys.items():
            if key is None:
                continue
            column = columns[kind]
            live = conn.execute(select(func.count()).select_from(GameRow).where(
                column == key, GameRow.status.in_(("lobby", "playing")))).scalar_one()
            recent, oldest = conn.execute(select(func.count(), func.min(GameRow.created_at)).where(
                column == key, GameRow.created_at >= since)).one()
            age = (now - oldest).total_seconds() if oldest is not None else 0.0
            counts[kind] = (int(live), int(recent), max(0.0, age))
        return counts

    def lock_makers(self, conn: Any, keys: dict[str, str | None]) -> None:
        """Begin ``conn``'s transaction holding the lock that counting a maker's games takes
        (until it ends). SQLite has one writer at a time, so its write lock, taken at once
        (``BEGIN IMMEDIATE``: a plain transaction would only take it at the insert, after the
        count), is that lock; PostgreSQL takes one advisory lock per key, in a fixed order
        so that two clients sharing a key cannot deadlock."""
        if self.is_sqlite:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
            return
        for number in sorted(_lock_number(f"{kind}:{key}") for kind, key in keys.items() if key):
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({number})")
