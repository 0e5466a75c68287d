"""The store: one interface over SQLite (default) and PostgreSQL, schema kept by alembic.

Everything is synchronous and short: the server calls it from its event loop so that an
accepted action is durably written before anyone hears about it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, Integer, create_engine, delete, event, func, insert, select, update
from sqlalchemy.engine import make_url

from callbreak.core import CallbreakError
from callbreak.store.models import ActionRow, GameRow, ResultRow, ReviewRow, SheetRow

MIGRATIONS = Path(__file__).parent / "migrations"
log = logging.getLogger("callbreak.store")
CHECKPOINT_SECONDS = 2.0


class StoreError(CallbreakError):
    """A database URL we cannot use, or a stored row that does not make sense."""


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


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Store:
    """Persistence for games, results and score sheets."""

    def __init__(self, url: str | None = None) -> None:
        self.url = normalize_url(url or default_url())
        try:
            parsed = make_url(self.url)
        except Exception as e:  # SQLAlchemy raises ArgumentError with a vague text
            raise StoreError(f"not a database URL: {url!r} ({e})") from None
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        try:
            if self.is_sqlite:
                if parsed.database and parsed.database != ":memory:":
                    Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
                self.engine: Engine = create_engine(self.url, connect_args={"check_same_thread": False})
                event.listen(self.engine, "connect", _sqlite_pragmas)
            else:
                self.engine = create_engine(self.url, pool_pre_ping=True)
        except Exception as e:  # an unknown driver or a malformed URL
            raise StoreError(f"cannot use the database URL {url!r}: {e}") from None
        self.migrate()
        self._writer: Any = None  # driver connection for append_action
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if self.is_sqlite and parsed.database not in (None, "", ":memory:"):
            # Commits never wait for the disk (WAL, synchronous=NORMAL); the fsync comes with a
            # checkpoint, which we run here, off the event loop, rather than inside a commit.
            self._checkpointer = threading.Thread(target=self._checkpoint_loop, name="sqlite-checkpoint",
                                                  daemon=True)
            self._checkpointer.start()
        marker = "?" if self.is_sqlite else "%s"
        self._insert_action = f"INSERT INTO actions (game_id, seq, action) VALUES ({marker}, {marker}, {marker})"

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
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.close()
            self._writer = None
        self.engine.dispose()

    def migrate(self) -> None:
        """Bring the schema up to date (alembic, migrations packaged with the code)."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    # --- games -----------------------------------------------------------------------------

    def create_game(self, code: str, config: dict[str, Any], seats: list[dict[str, Any]],
                    status: str = "lobby") -> int:
        with self.engine.begin() as conn:
            result = conn.execute(insert(GameRow).values(
                code=code, status=status, config=json.dumps(config), seats=json.dumps(seats),
                created_at=_now()))
            key = result.inserted_primary_key
            assert key is not None
            return int(key[0])

    def update_game(self, game_id: int, *, seats: list[dict[str, Any]] | None = None,
                    status: str | None = None, config: dict[str, Any] | None = None) -> None:
        values: dict[str, Any] = {}
        if config is not None:
            values["config"] = json.dumps(config)
        if seats is not None:
            values["seats"] = json.dumps(seats)
        if status is not None:
            values["status"] = status
        if values:
            with self.engine.begin() as conn:
                conn.execute(update(GameRow).where(GameRow.id == game_id).values(**values))

    def append_action(self, game_id: int, seq: int, action: dict[str, Any]) -> None:
        """Write and commit one accepted action; the unique (game, seq) pair refuses a double write.

        This is the hot path (every card played), so it skips the SQL expression layer and uses
        one dedicated driver connection; call it from one thread (the server's event loop).
        """
        params = (game_id, seq, json.dumps(action, separators=(",", ":")))
        for attempt in (1, 2):
            if self._writer is None:
                self._writer = self.engine.raw_connection()
            try:
                cur = self._writer.cursor()
                try:
                    cur.execute(self._insert_action, params)
                finally:
                    cur.close()
                self._writer.commit()
                return
            except Exception as e:
                log.warning("storing action %d of game %d failed: %s", seq, game_id, e)
                bad, self._writer = self._writer, None
                with contextlib.suppress(Exception):
                    bad.rollback()
                with contextlib.suppress(Exception):
                    bad.close()
                # Retry once on a fresh connection only if the connection itself was lost; a
                # duplicate (game, seq) or any other refusal is raised as it is.
                if attempt == 2 or not self._connection_lost():
                    raise StoreError(f"could not store action {seq} of game {game_id}") from None

    def _connection_lost(self) -> bool:
        try:
            with self.engine.connect() as conn:
                conn.exec_driver_sql("SELECT 1")
            return False
        except Exception:
            return True

    def finish_game(self, game_id: int, results: list[dict[str, Any]]) -> None:
        """Mark a game over and record each seat's outcome, in one transaction."""
        with self.engine.begin() as conn:
            conn.execute(update(GameRow).where(GameRow.id == game_id)
                         .values(status="over", finished_at=_now()))
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
                                                      data=json.dumps(review), created_at=_now()))

    def load_review(self, game_id: int, settings: dict[str, Any]) -> dict[str, Any] | None:
        key = json.dumps(settings, sort_keys=True)
        with self.engine.connect() as conn:
            row = conn.execute(select(ReviewRow.data).where(ReviewRow.game_id == game_id,
                                                            ReviewRow.settings == key)).first()
        return None if row is None else dict(json.loads(row[0]))

    def load_game(self, code: str) -> StoredGame | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(GameRow).where(GameRow.code == code)).first()
            if row is None:
                return None
            return self._stored(conn, row)

    def load_games(self, *statuses: str) -> list[StoredGame]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(GameRow).where(GameRow.status.in_(statuses))
                                .order_by(GameRow.id)).all()
            return [self._stored(conn, r) for r in rows]

    def _stored(self, conn: Any, row: Any) -> StoredGame:
        acts = conn.execute(select(ActionRow.seq, ActionRow.action)
                            .where(ActionRow.game_id == row.id).order_by(ActionRow.seq)).all()
        for i, (seq, _) in enumerate(acts):
            if seq != i:
                raise StoreError(f"game {row.code}: action {i} is missing from the store")
        return StoredGame(id=row.id, code=row.code, status=row.status, config=json.loads(row.config),
                          seats=json.loads(row.seats), actions=[json.loads(a) for _, a in acts],
                          created_at=row.created_at, finished_at=row.finished_at)

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
        now = _now()
        with self.engine.begin() as conn:
            conn.execute(insert(SheetRow).values(code=code, edit_hash=edit_hash, data=json.dumps(data),
                                                 created_at=now, updated_at=now))

    def update_sheet(self, code: str, data: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(SheetRow).where(SheetRow.code == code)
                         .values(data=json.dumps(data), updated_at=_now()))

    def load_sheet(self, code: str) -> tuple[str, dict[str, Any]] | None:
        """The sheet's edit-key hash and data, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(SheetRow.edit_hash, SheetRow.data).where(SheetRow.code == code)).first()
        return None if row is None else (row.edit_hash, json.loads(row.data))


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL with synchronous=NORMAL: a commit survives the process being killed (the WAL is in
    # the OS cache) without an fsync per action, which keeps action latency low.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA wal_autocheckpoint=0")  # the store's checkpoint thread does it
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
