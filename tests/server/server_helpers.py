"""Shared helpers for the web app tests: an app on a temporary SQLite store, table helpers."""

from __future__ import annotations

import json
import os
import re
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from callbreak.server.app import create_app
from callbreak.store import Store

CARD = re.compile(r"^(10|[2-9JQKA])[SHCD]$")


@pytest.fixture(name="pg_url")
def pg_url_fixture() -> Iterator[str]:
    """A fresh database on the test PostgreSQL server (skips without one)."""
    if not os.environ.get("CALLBREAK_TEST_PG_URL"):
        pytest.skip("CALLBREAK_TEST_PG_URL is not set (scripts/services.sh starts a server)")
    sys.path.insert(0, str(Path(__file__).parent.parent / "store"))
    from store_helpers import fresh_pg_database

    yield from fresh_pg_database()


@pytest.fixture(name="store")
def store_fixture(tmp_path: Path) -> Iterator[Store]:
    s = Store(f"sqlite:///{tmp_path / 'test.db'}")
    yield s
    s.close()


@pytest.fixture(name="client")
def client_fixture(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store, practice=True)) as c:
        yield c


def create(client: TestClient, name: str = "Ann", seed: int | None = 1, guest: str | None = None,
           **settings: Any) -> dict[str, Any]:
    """A table; ``seed`` fixes its deals (a practice table: the test app allows it), None: the
    server's own randomness, as at a real table; ``guest``: the creator's browser identity."""
    settings.setdefault("bot_delay", 0)
    body: dict[str, Any] = {"name": name, "settings": settings}
    if guest is not None:
        body["guest"] = guest
    if seed is not None:
        body["seed"] = seed
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def join(client: TestClient, code: str, name: str, seat: int | None = None) -> dict[str, Any]:
    r = client.post(f"/api/tables/{code}/join", json={"name": name, "seat": seat})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def state(client: TestClient, code: str, token: str | None = None) -> dict[str, Any]:
    r = client.post(f"/api/tables/{code}/state", json={"token": token} if token else {})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def cards_in(message: Any) -> set[str]:
    """Every string in a message that spells a card."""
    found: set[str] = set()
    if isinstance(message, dict):
        for v in message.values():
            found |= cards_in(v)
    elif isinstance(message, list):
        for v in message:
            found |= cards_in(v)
    elif isinstance(message, str) and CARD.match(message):
        found.add(message)
    return found


def choose(view: dict[str, Any]) -> dict[str, Any] | None:
    """A simple deterministic player for test clients: the first ordinary legal action."""
    legal = view["legal"]
    if not legal or view["to_act"] != view["seat"]:
        return None
    ordinary = [a for a in legal if a["type"] != "look" and not a.get("blind")]
    return (ordinary or legal)[0]  # type: ignore[no-any-return]


class SeatClient(threading.Thread):
    """One player on a real websocket: plays whenever its view has a legal move, keeps every message.

    Its socket closes when its TestClient does, whether or not the game ended: a TestClient does
    not close while a socket of its own is open, so a test that failed with a seat still waiting
    for a message would hang in its teardown instead of reporting the failure."""

    def __init__(self, client: TestClient, code: str, token: str | None, play: bool = True) -> None:
        super().__init__(daemon=True)
        self.client, self.code, self.token, self.play = client, code, token, play
        self.messages: list[dict[str, Any]] = []
        self.error: BaseException | None = None
        self._ws: WebSocketTestSession | None = None
        self._ws_taken = threading.Lock()  # the seat's thread and the TestClient's closing both close it

    def start(self) -> None:
        self._ws = self.client.websocket_connect(f"/ws/{self.code}").__enter__()
        self.client.exit_stack.callback(self.stop)  # run before the TestClient closes
        super().start()

    def stop(self) -> None:
        """Closes the socket if the game has not closed it yet; its waiting receive then ends."""
        self._close()
        self.join()

    def _close(self) -> None:
        with self._ws_taken:
            ws, self._ws = self._ws, None
        if ws is not None:
            ws.__exit__(None, None, None)

    def run(self) -> None:
        ws = self._ws
        assert ws is not None, "start() opens the socket"
        try:
            ws.send_text(json.dumps({"type": "hello", "token": self.token}))
            while True:
                m = ws.receive_json()
                self.messages.append(m)
                if m["type"] != "state" or m["view"] is None:
                    continue
                view = m["view"]
                if view["phase"] == "over":
                    return
                action = choose(view) if self.play else None
                if action is not None:
                    ws.send_text(json.dumps({"type": "action", "token": self.token,
                                             "version": m["version"], "action": action}))
        except BaseException as e:  # reported by the test
            self.error = e
        finally:
            self._close()
