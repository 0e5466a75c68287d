"""One server for a SQLite database: the owner file beside it, as PostgreSQL keeps postmaster.pid.

A server on SQLite holds an exclusive lock on ``<database>.server`` for as long as it runs, and
writes in it who it is (address, process, host, start time) so that a second server can say
which one is in its way. The lock is the operating system's (``flock``): it goes with the
process, however that ends, so a crashed owner never blocks a restart and nothing waits out a
lease. (PostgreSQL needs none of this: servers that share one are a cluster, server/cluster.py.)
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from callbreak.core import CallbreakError

try:
    import fcntl
except ImportError:  # (Windows: no flock; the owner file is written but not locked)
    fcntl = None  # type: ignore[assignment]


@dataclass(frozen=True, slots=True)
class Owner:
    """What a server wrote about itself in the owner file (any of it may be missing)."""

    pid: int | None = None
    address: str | None = None
    host: str | None = None
    started: str | None = None  # ISO 8601, UTC

    @classmethod
    def me(cls, address: str) -> Owner:
        return cls(os.getpid(), address, socket.gethostname(),
                   datetime.now(UTC).isoformat(timespec="seconds"))

    @classmethod
    def read(cls, text: str) -> Owner:
        """The owner a file says, or an unknown one (a file cut short, or another program's)."""
        try:
            data = json.loads(text)
        except ValueError:
            return cls()
        if not isinstance(data, dict):
            return cls()
        pid, address, host, started = (data.get(k) for k in ("pid", "address", "host", "started"))
        return cls(pid if isinstance(pid, int) else None, address if isinstance(address, str) else None,
                   host if isinstance(host, str) else None, started if isinstance(started, str) else None)

    def describe(self) -> str:
        """E.g. "the server at http://127.0.0.1:8000 (process 4242 on this machine, started
        2026-12-07 17:10:03 UTC)"."""
        where = f"the server at {self.address}" if self.address else "a server"
        facts = []
        if self.pid is not None:
            here = self.host is None or self.host == socket.gethostname()
            facts.append(f"process {self.pid} " + ("on this machine" if here else f"on {self.host}"))
        if self.started:
            facts.append("started " + self.started.replace("T", " ").replace("+00:00", " UTC"))
        return where + (f" ({', '.join(facts)})" if facts else "")


class DatabaseInUse(CallbreakError):
    """Another server holds the owner file of this database."""

    def __init__(self, database: Path, owner: Owner) -> None:
        self.database = database
        self.owner = owner
        super().__init__(
            f"the database {database} is in use by {owner.describe()}. One server serves a SQLite "
            "database: stop that one first, or give this one another --db. For several processes, "
            "use PostgreSQL: --db postgresql://user@host/dbname, with --workers N or servers on "
            "other machines (they share the tables).")


class OwnerFile:
    """The held owner file of one SQLite database (:func:`claim`); :meth:`release` on a clean stop."""

    def __init__(self, path: Path, fd: int, previous: Owner | None) -> None:
        self.path = path
        self._fd: int | None = fd
        self.previous = previous  # the owner of a server that ended without releasing it (a crash)

    def release(self) -> None:
        """Empty the file (nobody owns the database) and let the lock go. The file stays: a
        server that opened it to wait must lock the same file, not a new one made meanwhile."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        os.close(fd)  # (closing drops the lock)


def owner_path(database: Path) -> Path:
    return database.with_name(database.name + ".server")


def claim(database: Path, address: str) -> OwnerFile:
    """Become the one server of ``database`` (a SQLite file), or raise :class:`DatabaseInUse`
    naming the server that is. OSError if the file cannot be made (a read-only folder)."""
    path = owner_path(database.resolve())
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)  # (not inherited by child processes)
    try:
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise DatabaseInUse(database, Owner.read(_read(fd))) from None
        left = _read(fd)
        previous = Owner.read(left) if left.strip() else None
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(asdict(Owner.me(address))).encode() + b"\n", 0)
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        raise
    return OwnerFile(path, fd, previous)


def _read(fd: int) -> str:
    return os.pread(fd, 4096, 0).decode("utf-8", "replace")
