"""The web app's processes through a real restart of their PostgreSQL server.

The test runs a PostgreSQL of its own (initdb and pg_ctl, as scripts/services.sh does for the
shared one), so that restarting it disturbs no other test.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_server_cluster import Player, one_process_record, reached, seat_table, stored_actions
from test_server_restart import Server

from callbreak.store import Store

pytestmark = pytest.mark.postgres


def _pg_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: int(p.parent.parent.name))
    return found[-1].parent if found else None


class OwnPostgres:
    """A throwaway PostgreSQL server on a free port, run as the postgres user when we are root."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.dir = Path(tempfile.mkdtemp(prefix="callbreak-pg-restart-", dir="/tmp"))
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_user:
            shutil.chown(self.dir, "postgres")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self._run("initdb", "-D", str(self.dir / "data"), "-U", "postgres", "--auth=trust")
        self._ctl("start")
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.as_user, str(self.bin / tool), *args], check=True, capture_output=True, timeout=60)

    def _ctl(self, command: str, *args: str) -> None:
        self._run("pg_ctl", "-D", str(self.dir / "data"), "-l", str(self.dir / "log"), "-w", *args,
                  "-o", f"-p {self.port} -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off", command)

    def restart(self, down: float = 0.0) -> None:
        """Every session ended (a fast shutdown), the server down for ``down`` seconds more."""
        if down:
            self._ctl("stop", "-m", "fast")
            time.sleep(down)
            self._ctl("start")
        else:
            self._ctl("restart", "-m", "fast")

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._ctl("stop", "-m", "immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(name="own_pg")
def own_pg_fixture() -> Iterator[OwnPostgres]:
    bin_dir = _pg_bin()
    if bin_dir is None or not os.environ.get("CALLBREAK_TEST_PG_URL"):
        pytest.skip("PostgreSQL's server programs are not installed (scripts/services.sh installs them)")
    pg = OwnPostgres(bin_dir)
    try:
        yield pg
    finally:
        pg.stop()


@pytest.mark.process
@pytest.mark.parametrize("down", [0.0, 5.0], ids=["restart", "down-past-the-leases"])
def test_a_game_on_two_processes_outlives_a_restart_of_postgresql(tmp_path: Path, own_pg: OwnPostgres,
                                                                  down: float) -> None:
    """PostgreSQL restarts mid-game (a fast shutdown: every session ended, then up again, at once
    or after longer than a lease lasts): both processes reconnect and carry on, whichever of them
    holds the table afterwards. The players, all at the process that did not run the table, play
    again what the page said could not be saved, and the game ends the same as on one process."""
    expected = one_process_record(tmp_path)
    servers = [Server(own_pg.url, env={"CALLBREAK_HANDOVER": "0"}) for _ in range(2)]
    try:
        code, tokens = seat_table([s.http for s in servers])
        players = [Player([servers[1].port], code, t, first=0, retry=True) for t in tokens]
        for p in players:
            p.start()
        time.sleep(0.5)
        assert servers[1].http.post(f"/api/tables/{code}/start", json={"token": tokens[0]}).status_code == 200
        store = Store(own_pg.url)
        while not reached(store, code, 30):
            time.sleep(0.02)
        store.close()
        own_pg.restart(down)
        for p in players:
            p.join()
            assert p.done and p.error is None, (p.error, p.log[-5:], servers[1].printed()[-1500:])
        assert stored_actions(own_pg.url, code) == expected
        # The process left without players comes back to the notices too (it backs off up to
        # 2 s between tries, so it may still be on its way when the game ends).
        for s in servers:
            while "reconnected" not in s.printed():
                time.sleep(0.1)
    finally:
        for s in servers:
            s.stop()
