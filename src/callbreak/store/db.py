"""The store: one interface over SQLite (default) and PostgreSQL, schema kept by alembic.

Everything is synchronous and short: the server calls it from its event loop so that an
accepted action is durably written before anyone hears about it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, Integer, create_engine, delete, event, func, insert, select, update
from sqlalchemy import text as text_sql
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

from callbreak.core import CallbreakError
from callbreak.store.makers import MADE_BY_PERIOD, MakerCounts, TableMakers
from callbreak.store.models import ActionRow, GameRow, ResultRow, ReviewRow, SheetRow, utc_now
from callbreak.store.queue import PlayNowQueue

MIGRATIONS = Path(__file__).parent / "migrations"
log = logging.getLogger("callbreak.store")
CHECKPOINT_SECONDS = 2.0
# A process frozen inside a transaction (stopped, swapped out, cut off) keeps its row locks, the
# lease row among them, until PostgreSQL ends its session: this is how long that takes. Shorter
# than any lease (3 s in server/cluster.py), so a table's next owner never waits on a dead one.
IDLE_TRANSACTION_MS = 2000
# How long a claim waits for a lease row that someone holds locked before it gives up until the
# next try: claims run on a server's event loop, which must not stall behind a frozen process.
CLAIM_LOCK_MS = 200
LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's error code for a lock_timeout that ran out
MIGRATION_LOCK = 0x63616C6C  # the advisory lock a schema upgrade holds on PostgreSQL ("call")
class StoreError(CallbreakError):
    """A database URL we cannot use, or a stored row that does not make sense."""


def store_away(error: BaseException) -> bool:
    """Whether a store error says the database is away (down, restarting, cut off), so that
    the same write may succeed later; any other refusal would be the same every time."""
    return isinstance(error, (OperationalError, InterfaceError)) or (
        isinstance(error, DBAPIError) and error.connection_invalidated)


class LeaseLost(StoreError):
    """A write under a table lease this process no longer holds (it lapsed or another took it)."""


def default_url() -> str:
    """SQLite in the user's data directory."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("callbreak"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'callbreak.db'}"


def normalize_url(url: str) -> str:
    """Accept plain ``postgresql://`` URLs (we use the psycopg 3 driver) and SQLite paths."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if "://" not in url:  # a bare file path
        return f"sqlite:///{Path(url).expanduser()}"
    return url


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite database URL (None for PostgreSQL, an in-memory database, or a URL
    that is not one: :class:`Store` says what is wrong with it)."""
    try:
        parsed = make_url(normalize_url(url))
    except Exception:
        return None
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


@dataclass(frozen=True, slots=True)
class StoredGame:
    id: int
    code: str
    status: str
    config: dict[str, Any]
    seats: list[dict[str, Any]]
    actions: list[dict[str, Any]]
    created_at: datetime
    finished_at: datetime | None
    memories: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat -> its bot's (append_action)


class Store(PlayNowQueue, TableMakers):
    """Persistence for games, results, score sheets and the Play now queue (store/queue.py)."""

    def __init__(self, url: str | None = None) -> None:
        self.url = normalize_url(url or default_url())
        try:
            parsed = make_url(self.url)
        except Exception as e:  # SQLAlchemy raises ArgumentError with a vague text
            raise StoreError(f"not a database URL: {url!r} ({e})") from None
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        self.file = sqlite_file(self.url)  # (None: PostgreSQL, or SQLite in memory)
        try:
            if self.is_sqlite:
                if self.file is not None:
                    self.file.parent.mkdir(parents=True, exist_ok=True)
                self.engine: Engine = create_engine(self.url, connect_args={"check_same_thread": False})
                event.listen(self.engine, "connect", _sqlite_pragmas)
            else:
                self.engine = create_engine(self.url, pool_pre_ping=True, connect_args={
                    "options": f"-c idle_in_transaction_session_timeout={IDLE_TRANSACTION_MS}"})
        except Exception as e:  # an unknown driver or a malformed URL
            raise StoreError(f"cannot use the database URL {url!r}: {e}") from None
        self.migrate()
        # Each writing thread's own driver connection for append_action (the server writes from
        # a few threads), and all of them, to close.
        self._local = threading.local()
        self._writers: list[Any] = []
        self._writers_lock = threading.Lock()
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if self.file is not None:
            # Commits never wait for the disk (WAL, synchronous=NORMAL); the fsync comes with a
            # checkpoint, which we run here, off the event loop, rather than inside a commit.
            self._checkpointer = threading.Thread(target=self._checkpoint_loop, name="sqlite-checkpoint",
                                                  daemon=True)
            self._checkpointer.start()
        marker = "?" if self.is_sqlite else "%s"
        self._insert_action = f"INSERT INTO actions (game_id, seq, action) VALUES ({marker}, {marker}, {marker})"
        self._update_memories = f"UPDATE games SET bot_memories = {marker} WHERE id = {marker}"
        # The same insert, fenced: it writes only while the lease row still carries the writer's
        # epoch and has not expired. On PostgreSQL FOR SHARE makes a concurrent takeover wait for
        # this insert (or this insert re-check the row after the takeover), so no write slips in
        # between a lease changing hands.
        lock = "" if self.is_sqlite else " FOR SHARE"
        self._insert_fenced = (
            f"INSERT INTO actions (game_id, seq, action) SELECT {marker}, {marker}, {marker} "
            f"WHERE EXISTS (SELECT 1 FROM table_leases WHERE game_id = {marker} AND epoch = {marker} "
            f"AND expires_at > {self._now_sql()}{lock})")

    def _checkpoint_loop(self) -> None:
        while not self._stop.wait(CHECKPOINT_SECONDS):
            try:
                with self.engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception as e:  # a busy database: try again next time
                log.debug("checkpoint skipped: %s", e)

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(5)
            self._checkpointer = None
        with self._writers_lock:
            writers, self._writers = self._writers, []
        for writer in writers:
            with contextlib.suppress(Exception):
                writer.close()
        self.engine.dispose()

    def migrate(self) -> None:
        """Bring the schema up to date (alembic, migrations packaged with the code)."""
        from alembic import command
        from alembic.config import Config
        from alembic.runtime.migration import MigrationContext
        from alembic.script import ScriptDirectory

        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as conn:
            if not self.is_sqlite:
                # Processes started together on a fresh database (a deploy's units) take turns:
                # the others wait for the first's schema, then find nothing to do.
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            # A schema this code does not know was made by a newer version (a downgrade, or two
            # versions on one database): refused before anything is changed.
            current = MigrationContext.configure(conn).get_current_revision()
            scripts = ScriptDirectory.from_config(cfg)
            if current is not None and current not in {r.revision for r in scripts.walk_revisions()}:
                raise StoreError(
                    f"the database's schema is at revision {current!r}, which this version of callbreak "
                    f"does not know (it knows up to {scripts.get_current_head()!r}): a newer version wrote "
                    "it. Run that version, or open a backup made before it; nothing was changed")
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    # --- games -----------------------------------------------------------------------------

    def create_game(self, code: str, config: dict[str, Any], seats: list[dict[str, Any]],
                    status: str = "lobby", made_by: dict[str, str | None] | None = None,
                    admit: Callable[[MakerCounts], None] | None = None) -> int:
        """A new game; ``made_by``: the keys of who made it (``guest``, ``address``), counted by
        :meth:`made_by_counts`.

        With ``admit``, the maker's counts (as :meth:`made_by_counts` gives them) are taken and
        ``admit`` called with them, then the game inserted, all under a lock on the maker's keys
        that every process sharing the database respects: concurrent requests of one client
        are counted one after another, so a limit ``admit`` checks cannot be raced. If ``admit``
        raises, nothing is stored."""
        made_by = made_by or {}
        with self.engine.connect() as conn:
            if admit is not None:
                self.lock_makers(conn, made_by)
                admit(self._made_by_counts(conn, made_by, MADE_BY_PERIOD))
            result = conn.execute(insert(GameRow).values(
                code=code, status=status, config=json.dumps(config), seats=json.dumps(seats),
                created_at=utc_now(), made_by_guest=made_by.get("guest"),
                made_by_address=made_by.get("address")))
            key = result.inserted_primary_key
            assert key is not None
            conn.commit()
            return int(key[0])

    def update_game(self, game_id: int, *, seats: list[dict[str, Any]] | None = None,
                    status: str | None = None, config: dict[str, Any] | None = None,
                    epoch: int | None = None) -> None:
        """Change a game's seats, status or settings. With ``epoch`` (a process running the table
        under a lease), only while that lease is held: otherwise LeaseLost, and nothing changes."""
        values: dict[str, Any] = {}
        if config is not None:
            values["config"] = json.dumps(config)
        if seats is not None:
            values["seats"] = json.dumps(seats)
        if status is not None:
            values["status"] = status
        if not values:
            return
        statement = update(GameRow).where(GameRow.id == game_id).values(**values)
        if epoch is not None:
            statement = statement.where(text_sql(
                f"EXISTS (SELECT 1 FROM table_leases WHERE game_id = :fence_game AND epoch = :fence_epoch "
                f"AND expires_at > {self._now_sql()})").bindparams(fence_game=game_id, fence_epoch=epoch))
        with self.engine.begin() as conn:
            changed = conn.execute(statement).rowcount
        if epoch is not None and changed != 1:
            raise LeaseLost(f"game {game_id} not changed: this process no longer holds the table's "
                            f"lease (epoch {epoch})")

    def append_action(self, game_id: int, seq: int, action: dict[str, Any], epoch: int | None = None,
                      memories: dict[int, dict[str, Any]] | None = None) -> None:
        """Write and commit one accepted action; the unique (game, seq) pair refuses a double write.

        With ``epoch`` (a process running the table under a lease) the write happens only while
        that lease is held; otherwise it raises LeaseLost and nothing is written. ``memories``
        (seat -> what its bot learnt, :attr:`StoredGame.memories`) replace the game's in the
        same commit, so they always go with the latest action.

        This is the hot path (every card played), so it skips the SQL expression layer and uses
        a driver connection kept for it, one for each thread that calls it.
        """
        text = json.dumps(action, separators=(",", ":"))
        sql, params = ((self._insert_action, (game_id, seq, text)) if epoch is None
                       else (self._insert_fenced, (game_id, seq, text, game_id, epoch)))
        for attempt in (1, 2):
            writer = getattr(self._local, "writer", None)
            if writer is None:
                writer = self._local.writer = self.engine.raw_connection()
                with self._writers_lock:
                    self._writers.append(writer)
            try:
                cur = writer.cursor()
                try:
                    cur.execute(sql, params)
                    written = cur.rowcount
                    if written == 1 and memories is not None:
                        cur.execute(self._update_memories, (json.dumps(memories, separators=(",", ":")), game_id))
                finally:
                    cur.close()
                writer.commit()
                if written != 1:
                    raise LeaseLost(f"action {seq} of game {game_id} not stored: this process no longer "
                                    f"holds the table's lease (epoch {epoch})")
                return
            except LeaseLost:
                raise
            except Exception as e:
                log.warning("storing action %d of game %d failed: %s", seq, game_id, e)
                bad, self._local.writer = writer, None
                with self._writers_lock:
                    if bad in self._writers:
                        self._writers.remove(bad)
                # The driver marks a connection the database ended (a restart, a failover, an
                # idle timeout) as closed.
                lost = bool(getattr(getattr(bad, "dbapi_connection", None), "closed", False))
                with contextlib.suppress(Exception):
                    bad.rollback()
                with contextlib.suppress(Exception):
                    bad.close()
                if attempt == 2 and self._stored_action(game_id, seq) == text:
                    return  # the first try's commit landed, its answer lost with the connection
                # Retry once on a fresh connection only if the connection itself was lost; a
                # duplicate (game, seq) or any other refusal is raised as it is.
                if attempt == 2 or not lost:
                    raise StoreError(f"could not store action {seq} of game {game_id}") from None

    def _stored_action(self, game_id: int, seq: int) -> str | None:
        """The text of the action stored at version ``seq`` of a game, if any."""
        with contextlib.suppress(Exception), self.engine.connect() as conn:
            return conn.execute(select(ActionRow.action).where(
                ActionRow.game_id == game_id, ActionRow.seq == seq)).scalar_one_or_none()
        return None

    # --- table leases (several processes sharing one PostgreSQL) -----------------------------

    def _now_sql(self, ahead: str | None = None) -> str:
        """The database's clock (UTC), optionally ``ahead`` seconds (a bound parameter) later:
        every process compares leases by the same clock, whatever its own says."""
        if self.is_sqlite:
            shift = "" if ahead is None else f", '+' || {ahead} || ' seconds'"
            return f"strftime('%Y-%m-%d %H:%M:%f', 'now'{shift})"
        base = "timezone('UTC', clock_timestamp())"
        return base if ahead is None else f"({base} + {ahead} * interval '1 second')"

    def acquire_lease(self, game_id: int, owner: str, ttl: float) -> int | None:
        """Take the lease of a table that nobody holds (or whose lease lapsed) for ``ttl`` seconds.

        Returns the new epoch (one more than the last owner's), or None while another owner's
        lease is current, or while a frozen owner still holds the lease row locked (try again)."""
        ahead = ":ttl"
        sql = (f"INSERT INTO table_leases (game_id, owner, epoch, expires_at) "
               f"VALUES (:game, :owner, 1, {self._now_sql(ahead)}) "
               f"ON CONFLICT (game_id) DO UPDATE SET owner = :owner, epoch = table_leases.epoch + 1, "
               f"expires_at = {self._now_sql(ahead)} "
               f"WHERE table_leases.expires_at <= {self._now_sql()} OR table_leases.owner = :owner "
               f"RETURNING epoch")
        try:
            with self.engine.begin() as conn:
                if not self.is_sqlite:
                    conn.exec_driver_sql(f"SET LOCAL lock_timeout = {CLAIM_LOCK_MS}")
                row = conn.execute(text_sql(sql), {"game": game_id, "owner": owner, "ttl": float(ttl)}).first()
        except OperationalError as e:
            if getattr(e.orig, "sqlstate", None) != LOCK_NOT_AVAILABLE:
                raise
            log.info("lease of game %d is locked by another process; not claimed yet", game_id)
            return None
        return None if row is None else int(row[0])

    def renew_lease(self, game_id: int, owner: str, epoch: int, ttl: float) -> bool:
        """Extend a lease still held (same owner and epoch, not yet expired); False if it is lost."""
        sql = (f"UPDATE table_leases SET expires_at = {self._now_sql(':ttl')} "
               f"WHERE game_id = :game AND owner = :owner AND epoch = :epoch "
               f"AND expires_at > {self._now_sql()}")
        with self.engine.begin() as conn:
            done = conn.execute(text_sql(sql), {"game": game_id, "owner": owner, "epoch": epoch,
                                                "ttl": float(ttl)}).rowcount
        return done == 1

    def release_lease(self, game_id: int, owner: str, epoch: int) -> None:
        """Give a lease up at once (a clean shutdown), so another process need not wait it out."""
        sql = (f"UPDATE table_leases SET expires_at = {self._now_sql()} "
               f"WHERE game_id = :game AND owner = :owner AND epoch = :epoch")
        with self.engine.begin() as conn:
            conn.execute(text_sql(sql), {"game": game_id, "owner": owner, "epoch": epoch})

    def lease_of(self, game_id: int) -> tuple[str, int, bool] | None:
        """The table's lease: (owner, epoch, whether it is current), or None if never leased."""
        sql = (f"SELECT owner, epoch, expires_at > {self._now_sql()} FROM table_leases "
               f"WHERE game_id = :game")
        with self.engine.connect() as conn:
            row = conn.execute(text_sql(sql), {"game": game_id}).first()
        return None if row is None else (str(row[0]), int(row[1]), bool(row[2]))

    def renew_leases(self, owner: str, ttl: float) -> set[int]:
        """Extend every current lease ``owner`` holds, in one statement; the games still held."""
        sql = (f"UPDATE table_leases SET expires_at = {self._now_sql(':ttl')} "
               f"WHERE owner = :owner AND expires_at > {self._now_sql()} RETURNING game_id")
        with self.engine.begin() as conn:
            return {int(r[0]) for r in conn.execute(text_sql(sql), {"owner": owner, "ttl": float(ttl)})}

    def unowned_games(self) -> list[str]:
        """Codes of unfinished games that no process holds a current lease on (their owner died,
        or none took them yet): the ones a live process should take over."""
        sql = (f"SELECT g.code FROM games g LEFT JOIN table_leases l ON l.game_id = g.id "
               f"WHERE g.status IN ('lobby', 'playing') "
               f"AND (l.game_id IS NULL OR l.expires_at <= {self._now_sql()}) ORDER BY g.id")
        with self.engine.connect() as conn:
            return [str(r[0]) for r in conn.execute(text_sql(sql)).all()]

    def delete_unstarted(self, game_id: int) -> bool:
        """Remove a table that never started (an expired lobby); False if it has started since."""
        with self.engine.begin() as conn:
            conn.execute(text_sql("DELETE FROM table_leases WHERE game_id = :game AND EXISTS "
                                  "(SELECT 1 FROM games WHERE id = :game AND status = 'lobby')"),
                         {"game": game_id})
            gone = conn.execute(delete(GameRow).where(GameRow.id == game_id, GameRow.status == "lobby")).rowcount
        return bool(gone)

    def finish_game(self, game_id: int, results: list[dict[str, Any]]) -> None:
        """Mark a game over and record each seat's outcome, in one transaction."""
        with self.engine.begin() as conn:
            conn.execute(update(GameRow).where(GameRow.id == game_id)
                         .values(status="over", finished_at=utc_now()))
            conn.execute(delete(ResultRow).where(ResultRow.game_id == game_id))
            for r in results:
                conn.execute(insert(ResultRow).values(game_id=game_id, **r))

    # --- reviews ---------------------------------------------------------------------------

    def save_review(self, game_id: int, settings: dict[str, Any], review: dict[str, Any]) -> None:
        """Keep a game's review; a second save of the same settings keeps the first (the same
        review: reviews are reproducible)."""
        key = json.dumps(settings, sort_keys=True)
        with self.engine.begin() as conn:
            found = conn.execute(select(ReviewRow.id).where(ReviewRow.game_id == game_id,
                                                            ReviewRow.settings == key)).first()
            if found is None:
                conn.execute(insert(ReviewRow).values(game_id=game_id, settings=key,
                                                      data=json.dumps(review), created_at=utc_now()))

    def load_review(self, game_id: int, settings: dict[str, Any]) -> dict[str, Any] | None:
        key = json.dumps(settings, sort_keys=True)
        with self.engine.connect() as conn:
            row = conn.execute(select(ReviewRow.data).where(ReviewRow.game_id == game_id,
                                                            ReviewRow.settings == key)).first()
        return None if row is None else dict(json.loads(row[0]))

    def load_game(self, code: str, since: int = 0) -> StoredGame | None:
        """A game with its actions from version ``since`` on (all of them by default)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(GameRow).where(GameRow.code == code)).first()
            if row is None:
                return None
            return self._stored(conn, row, since)

    def load_games(self, *statuses: str) -> list[StoredGame]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(GameRow).where(GameRow.status.in_(statuses))
                                .order_by(GameRow.id)).all()
            return [self._stored(conn, r) for r in rows]

    def _stored(self, conn: Any, row: Any, since: int = 0) -> StoredGame:
        acts = conn.execute(select(ActionRow.seq, ActionRow.action)
                            .where(ActionRow.game_id == row.id, ActionRow.seq >= since)
                            .order_by(ActionRow.seq)).all()
        for i, (seq, _) in enumerate(acts, start=since):
            if seq != i:
                raise StoreError(f"game {row.code}: action {i} is missing from the store")
        return StoredGame(id=row.id, code=row.code, status=row.status, config=json.loads(row.config),
                          seats=json.loads(row.seats), actions=[json.loads(a) for _, a in acts],
                          created_at=row.created_at, finished_at=row.finished_at,
                          memories=_memories(row.code, row.bot_memories))

    def finished_games(self, limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
        """Finished games, newest first, with each seat's name, total and whether it won."""
        with self.engine.connect() as conn:
            games = conn.execute(select(GameRow.id, GameRow.code, GameRow.finished_at, GameRow.config)
                                 .where(GameRow.status == "over")
                                 .order_by(GameRow.finished_at.desc(), GameRow.id.desc())
                                 .limit(limit).offset(offset)).all()
            ids = [g.id for g in games]
            results = conn.execute(select(ResultRow).where(ResultRow.game_id.in_(ids))
                                   .order_by(ResultRow.seat)).all() if ids else []
        by_game: dict[int, list[dict[str, Any]]] = {}
        for r in results:
            by_game.setdefault(r.game_id, []).append(
                {"seat": r.seat, "name": r.name, "kind": r.kind, "total": r.total, "winner": r.winner})
        return [{"code": g.code, "finished_at": g.finished_at.isoformat() + "Z" if g.finished_at else None,
                 "preset": json.loads(g.config).get("preset"), "game": json.loads(g.config).get("game", "callbreak"),
                 "practice": bool(json.loads(g.config).get("practice")),
                 "seats": by_game.get(g.id, [])}
                for g in games]

    def player_stats(self) -> list[dict[str, Any]]:
        """Per player: games, wins, deals, points (tenths) and calls made. A player is a guest
        identity where the game knew one (each browser has its own), else a name (bots by level,
        and games stored before identities), shown by a name it played under."""
        who = func.coalesce(ResultRow.player, "name:" + ResultRow.name)
        with self.engine.connect() as conn:
            rows = conn.execute(select(
                who.label("who"), func.max(ResultRow.name).label("name"), ResultRow.kind,
                func.count().label("games"),
                func.sum(func.cast(ResultRow.winner, Integer)).label("wins"),
                func.sum(ResultRow.deals).label("deals"), func.sum(ResultRow.points).label("points"),
                func.sum(ResultRow.calls_made).label("calls_made"),
            ).join(GameRow, GameRow.id == ResultRow.game_id)
              # Practice tables (seeded by a client) count for nothing.
              .where(GameRow.config.not_like('%"practice": true%'))
              .group_by(who, ResultRow.kind)).all()
        return [{"name": r.name, "kind": r.kind, "player": None if r.who.startswith("name:") else r.who[:8],
                 "games": int(r.games), "wins": int(r.wins or 0),
                 "deals": int(r.deals or 0), "points": int(r.points or 0),
                 "calls_made": int(r.calls_made or 0)} for r in rows]

    # --- score sheets ----------------------------------------------------------------------

    def create_sheet(self, code: str, edit_hash: str, data: dict[str, Any]) -> None:
        now = utc_now()
        with self.engine.begin() as conn:
            conn.execute(insert(SheetRow).values(code=code, edit_hash=edit_hash, data=json.dumps(data),
                                                 created_at=now, updated_at=now))

    def update_sheet(self, code: str, data: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(SheetRow).where(SheetRow.code == code)
                         .values(data=json.dumps(data), updated_at=utc_now()))

    def load_sheet(self, code: str) -> tuple[str, dict[str, Any]] | None:
        """The sheet's edit-key hash and data, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(SheetRow.edit_hash, SheetRow.data).where(SheetRow.code == code)).first()
        return None if row is None else (row.edit_hash, json.loads(row.data))


def _memories(code: str, text: str | None) -> dict[int, dict[str, Any]]:
    """A game's stored bot memories, seat -> memory. They make its bots play as they would have,
    not the game itself: unreadable ones are left out (the bots start afresh), with a warning."""
    if text is None:
        return {}
    try:
        memories = json.loads(text)
        return {int(seat): dict(memory) for seat, memory in memories.items()}
    except (ValueError, TypeError, AttributeError) as e:
        log.warning("game %s: its bots' memories are unreadable, and left out: %s", code, e)
        return {}


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL with synchronous=NORMAL: a commit survives the process being killed (the WAL is in
    # the OS cache) without an fsync per action, which keeps action latency low.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA wal_autocheckpoint=0")  # the store's checkpoint thread does it
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
