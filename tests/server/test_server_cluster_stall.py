"""A process whose event loop is held up for a few seconds keeps its tables; a hung one does not.

In-process, on a real PostgreSQL database: the app runs in the test client's thread, and the test
holds its event loop with a blocking call, as a burst of work on a loaded machine would.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_server_cluster import pg_url_fixture  # noqa: F401 (the fixture: a fresh PostgreSQL database)

from callbreak.server import cluster as cluster_module
from callbreak.server.app import create_app
from callbreak.store import Store

pytestmark = pytest.mark.postgres


def hold_loop(app: Any, seconds: float) -> None:
    """Block the app's event loop for ``seconds`` (from this thread), and wait until it is held."""
    service = app.state.service
    held = []
    service.loop.call_soon_threadsafe(lambda: (held.append(1), time.sleep(seconds)))
    while not held:
        time.sleep(0.01)


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
        hold_loop(app, cluster_module.LEASE_SECONDS * 2)
        time.sleep(cluster_module.LEASE_SECONDS * 1.5)  # the loop is still held here
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
        hold_loop(app, 2.0 + cluster_module.LEASE_SECONDS + 3.0)
        time.sleep(2.0 + cluster_module.LEASE_SECONDS + 1.5)  # hung past STALL_SECONDS + a lease
        assert store.lease_of(game.id) == (owner, epoch, False)
    store.close()
