"""A table being made is left to the process making it.

A new game is stored first and its lease taken just after. A process's scan for unowned tables
that found the game in between took it: from another process, the table ran away from its
maker's players (every action forwarded); from the maker itself, the second claim moved the
lease to a newer epoch, and the table the maker went on with wrote under the older one, was
fenced out, and followed a table that nobody ran (every call to it answered "moved": "the
table's server process did not answer"). A game never leased is taken only once it is older
than a lease.

In-process, on a real PostgreSQL database; the game is stored by the test, as a maker would,
with no lease yet.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from server_helpers import pg_url_fixture  # noqa: F401 (the fixture: a fresh PostgreSQL database)
from sqlalchemy import text
from starlette.testclient import TestClient

from callbreak.server.app import create_app
from callbreak.server.tables import new_code
from callbreak.store import Store

pytestmark = pytest.mark.postgres


def test_a_game_being_made_is_left_to_its_maker_and_taken_once_it_is_older_than_a_lease(pg_url: str) -> None:
    store = Store(pg_url)
    app = create_app(Store(pg_url))
    try:
        with TestClient(app) as client:
            r = client.post("/api/tables", json={"name": "Ann", "settings": {"preset": "callbreak"}})
            assert r.status_code == 200, r.text
            made = store.load_game(r.json()["code"])
            assert made is not None
            me = app.state.service.cluster.me
            # Being made elsewhere (its lease not taken yet): stored "now" as far as any clock
            # here goes, for as long as the test needs.
            code = new_code()
            game_id = store.create_game(code, made.config, made.seats)
            with store.engine.begin() as conn:
                conn.execute(text("UPDATE games SET created_at = created_at + interval '1 hour' WHERE id = :g"),
                             {"g": game_id})
            service = app.state.service
            taken = asyncio.run_coroutine_threadsafe(service.cluster.take_over(), service.loop).result()
            assert taken == 0 and store.lease_of(game_id) is None, "the process took a table being made"
            # Its maker never claimed it (it died): once older than a lease, a process takes it.
            with store.engine.begin() as conn:
                conn.execute(text("UPDATE games SET created_at = created_at - interval '2 hours' WHERE id = :g"),
                             {"g": game_id})
            while (lease := store.lease_of(game_id)) is None:
                time.sleep(0.05)
            assert lease[0] == me and lease[2]
            assert client.get(f"/api/tables/{code}").status_code == 200
    finally:
        store.close()
        app.state.store.close()


def test_a_table_made_while_its_process_renews_its_leases_is_not_taken_for_lost(pg_url: str) -> None:
    """The lease upkeep renews every lease the process holds, in a writer thread, and follows
    each table whose lease was not among them. A table made meanwhile (its lease taken after the
    renewal was asked for) is not among them and is still the process's: followed, it was run
    by nobody ("that table moved to another server process" for every action, in one process)."""
    app = create_app(Store(pg_url))
    try:
        with TestClient(app) as client:
            r = client.post("/api/tables", json={"name": "Ann", "settings": {"preset": "callbreak"}})
            assert r.status_code == 200, r.text
            code = r.json()["code"]
            service = app.state.service
            cluster = service.cluster
            made = cluster.owned_since[code]

            async def upkeep(asked: float) -> bool:
                cluster._tick(set(), asked)  # the renewal held none of the process's leases
                return bool(service.tables[code].replica)

            def followed_after(asked: float) -> bool:
                return asyncio.run_coroutine_threadsafe(upkeep(asked), service.loop).result()

            assert not followed_after(made - 0.001)  # asked for before the table was made: kept
            assert client.post(f"/api/tables/{code}/join", json={"name": "Bea", "seat": 1}).status_code == 200
            assert followed_after(made + 0.001)  # asked for after: not renewed, so lost
    finally:
        app.state.store.close()
