"""A lease changing hands is a store write, and it never runs on the event loop (issue 30):
a takeover, a handover and a drain each give up or take a lease in a writer thread, so a slow
commit holds up that one table, not every table and socket of the process.

In-process, three apps on one PostgreSQL database. The lease writes of the process under test
are made slow (as a commit on a busy database is): one made on the event loop would be a stall
the process's own loop watch catches with the write in its stack.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from server_helpers import pg_url_fixture  # noqa: F401 (the fixture: a fresh PostgreSQL database)
from starlette.testclient import TestClient

from callbreak.server import cluster as cluster_module
from callbreak.server.app import create_app
from callbreak.store import Store

pytestmark = pytest.mark.postgres
SLOW_WRITE = 0.3  # seconds a lease write takes here: three times what the loop watch calls a stall


def slowed(store: Store, name: str, calls: list[tuple[str, str]]) -> None:
    """Make ``store.<name>`` slow, and record the thread each call runs on."""
    write: Callable[..., Any] = getattr(store, name)

    def slow_lease_write(*args: Any, **kwargs: Any) -> Any:
        calls.append((name, threading.current_thread().name))
        time.sleep(SLOW_WRITE)
        return write(*args, **kwargs)

    setattr(store, name, slow_lease_write)


def owner_of(store: Store, code: str) -> str | None:
    game = store.load_game(code)
    assert game is not None
    lease = store.lease_of(game.id)
    return lease[0] if lease is not None and lease[2] else None


def wait_owner(store: Store, code: str, owner: str, what: str) -> None:
    while owner_of(store, code) != owner:
        time.sleep(0.02)


def test_a_takeover_a_handover_and_a_drain_change_leases_off_the_event_loop(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster_module, "HANDOVER_AFTER", 0.0)  # B hands a table on as soon as it may
    stores = [Store(pg_url) for _ in range(3)]
    a_app, b_app, c_app = (create_app(s) for s in stores)
    b_service = b_app.state.service
    calls: list[tuple[str, str]] = []  # (lease write, the thread it ran on) at B
    for name in ("acquire_lease", "release_lease"):
        slowed(stores[1], name, calls)
    try:
        with TestClient(b_app) as b:
            b_me = b_service.cluster.me
            with TestClient(a_app) as a:
                r = a.post("/api/tables", json={"name": "Ann", "settings": {"preset": "callbreak"}})
                assert r.status_code == 200, r.text
                code, token = r.json()["code"], r.json()["token"]
            # A stopped (its lease given up): B takes the table over.
            wait_owner(stores[0], code, b_me, "takeover")
            # (made while B is alone: no other process can claim it before B does)
            r = b.post("/api/tables", json={"name": "Ben", "settings": {"preset": "callbreak"}})
            assert r.status_code == 200, r.text
            made = r.json()["code"]
            with TestClient(c_app) as c, c.websocket_connect(f"/ws/{code}") as ws:
                ws.send_json({"type": "hello", "token": token})
                # The table's player is at C: B hands the table on to C.
                c_me = c_app.state.service.cluster.me
                wait_owner(stores[0], code, c_me, "handover")
                # B drains (a SIGTERM): its other table goes to C.
                handed = asyncio.run_coroutine_threadsafe(b_service.cluster.drain(), b_service.loop).result()
                assert handed == 1
                wait_owner(stores[0], made, c_me, "drain")
        printed = [(name, thread) for name, thread in calls]
        # The takeover and the new table's claim took leases, the handover and the drain gave
        # them up: each in a writer thread.
        assert [n for n, _ in printed].count("acquire_lease") >= 2, printed
        assert [n for n, _ in printed].count("release_lease") >= 2, printed
        assert all(thread.startswith("store-write") for _, thread in printed), printed
        # And the loop was never held up by one (a stall that caught one in its stack).
        stalls = [s.running for s in b_app.state.watch.recent]
        assert not any("slow_lease_write" in running for running in stalls), stalls
    finally:
        for s in stores:
            s.close()
