"""Graceful drain (issue 30): a process sent SIGTERM hands every table it runs to another live
process at once (no lease to wait out), tells its sockets to reconnect (close code 1012), stops
taking new ones, and exits; the game carries on with nothing lost or doubled."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import choose
from test_server_restart import Server
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from callbreak.store import Store

pytestmark = pytest.mark.postgres
SETTINGS = {"preset": "callbreak", "deals": 1, "bots": "random", "bot_delay": 0, "timer": None}


@pytest.fixture(name="pg_url")
def pg_url_fixture() -> Iterator[str]:
    if not os.environ.get("CALLBREAK_TEST_PG_URL"):
        pytest.skip("CALLBREAK_TEST_PG_URL is not set (scripts/services.sh starts a server)")
    sys.path.insert(0, str(Path(__file__).parent.parent / "store"))
    from store_helpers import fresh_pg_database

    yield from fresh_pg_database()


def owner_pid(store: Store, game_id: int) -> int | None:
    lease = store.lease_of(game_id)
    return int(lease[0].split(":")[1]) if lease is not None and lease[2] else None


def next_turn(ws: Any, token: str, after: int = -1) -> dict[str, Any]:
    """Read states until it is seat 0's turn after version ``after`` (or the game is over)."""
    while True:
        m = json.loads(ws.recv(timeout=30))
        if m["type"] == "error":
            raise AssertionError(m)
        if m["type"] == "state" and m["view"] is not None and m["version"] > after and (
                m["view"]["phase"] == "over" or choose(m["view"]) is not None):
            return m  # type: ignore[no-any-return]


def test_sigterm_hands_the_table_on_at_once_and_the_game_carries_on(pg_url: str) -> None:
    env = {"CALLBREAK_HANDOVER": "0"}  # the table stays with its maker until it stops
    a, b = Server(pg_url, env=env), Server(pg_url, env=env)
    store = Store(pg_url)
    try:
        for server in (a, b):  # both ready: their bots can play (a proxy waits for it too)
            deadline = time.monotonic() + 60
            while server.http.get("/readyz").status_code != 200:
                assert time.monotonic() < deadline, "a server never got ready"
                time.sleep(0.05)
        r = a.http.post("/api/tables", json={"name": "Ann", "settings": SETTINGS, "seed": 7})
        assert r.status_code == 200, r.text
        code, token = r.json()["code"], r.json()["token"]
        game = store.load_game(code)
        assert game is not None and owner_pid(store, game.id) == a.proc.pid
        with connect(f"ws://127.0.0.1:{b.port}/ws/{code}") as ws, \
                connect(f"ws://127.0.0.1:{a.port}/ws/{code}") as watcher:
            ws.send(json.dumps({"type": "hello", "token": token}))
            watcher.send(json.dumps({"type": "hello", "token": None}))
            ws.send(json.dumps({"type": "start", "token": token}))
            m = next_turn(ws, token)
            for _ in range(5):  # a few turns through B, run by A
                ws.send(json.dumps({"type": "action", "token": token, "version": m["version"],
                                    "action": choose(m["view"])}))
                m = next_turn(ws, token, m["version"])
            stopped = time.monotonic()
            a.proc.send_signal(signal.SIGTERM)
            while owner_pid(store, game.id) != b.proc.pid:
                assert time.monotonic() - stopped < 5, "the table was not handed on"
                time.sleep(0.01)
            moved = time.monotonic() - stopped
            with pytest.raises(ConnectionClosed) as closed:  # told to reconnect, elsewhere
                while True:
                    watcher.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
            assert a.proc.wait(15) is not None
            # The table moves on at once: the action and the bots' answers, all through B.
            sent = time.monotonic()
            ws.send(json.dumps({"type": "action", "token": token, "version": m["version"],
                                "action": choose(m["view"])}))
            m = next_turn(ws, token, m["version"])
            answered = time.monotonic() - sent
            while m["view"]["phase"] != "over":
                ws.send(json.dumps({"type": "action", "token": token, "version": m["version"],
                                    "action": choose(m["view"])}))
                m = next_turn(ws, token, m["version"])
        assert moved < 1.0, f"the table waited {moved:.2f} s for a new owner"
        assert answered < 1.0, f"the first turn after the handover took {answered:.2f} s"
        final = store.load_game(code)
        assert final is not None and final.status == "over"
        assert len(final.actions) == m["version"]  # every action once: none lost, none doubled
        printed = a.printed()
        assert f"is stopping: hands table {code} to" in printed, printed
        assert "stopping: handed 1 tables on and closed 1 sockets" in printed, printed
    finally:
        store.close()
        a.stop()
        b.stop()
