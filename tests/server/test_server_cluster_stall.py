"""A process whose event loop is held up for a few seconds keeps its tables; a hung one does not.

In-process, on a real PostgreSQL database: the app runs in the test client's thread, and the test
holds its event loop with a blocking call, as a burst of work on a loaded machine would.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_server_cluster import pg_url_fixture  # noqa: F401 (the fixture: a fresh PostgreSQL database)

from callbreak.server import cluster as cluster_module
from callbreak.server.app import create_app
from callbreak.store import Store

pytestmark = pytest.mark.postgres


@contextlib.contextmanager
def held_loop(app: Any) -> Iterator[None]:
    """The app's event loop blocked (from this thread) from the time it is held until the block
    ends: the test decides when the hang ends, not a duration that a slow machine could outrun."""
    service = app.state.service
    held, release = threading.Event(), threading.Event()
    service.loop.call_soon_threadsafe(lambda: (held.set(), release.wait()))
    held.wait()
    try:
        yield
    finally:
        release.set()


def test_a_loop_held_up_longer_than_a_lease_keeps_its_tables(pg_url: str) -> None:
    store = Store(pg_url)
    app = create_app(store)
    with TestClient(app) as client:
        r = client.post("/api/tables", json={"name": "Asha", "settings": {"preset": "callbreak"}})
        assert r.status_code == 200, r.text
        game = store.load_game(r.json()["code"])
        assert game is not None
        owner, epoch, live = store.lease_of(game.id)  # type: ignore[misc]
        assert live
        with held_loop(app):
            time.sleep(cluster_module.LEASE_SECONDS * 1.5)  # longer than a lease, short of a hang
            assert store.lease_of(game.id) == (owner, epoch, True)
    store.close()


def test_a_hung_loop_lets_its_leases_lapse(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster_module, "STALL_SECONDS", 2.0)
    store = Store(pg_url)
    app = create_app(store)
    with TestClient(app) as client:
        r = client.post("/api/tables", json={"name": "Asha", "settings": {"preset": "callbreak"}})
        game = store.load_game(r.json()["code"])
        assert game is not None
        owner, epoch, _ = store.lease_of(game.id)  # type: ignore[misc]
        with held_loop(app):  # hung past STALL_SECONDS: the lease lapses a lease later
            while (lease := store.lease_of(game.id)) is not None and lease[2]:
                time.sleep(0.1)
            assert lease == (owner, epoch, False)
    store.close()
