"""Crash safety for a related game: SIGKILL a server mid-hand of Horsethief, start it again,
finish, and compare the stored actions with the same game played without the interruption."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_server_restart import Server, play

from callbreak.server.app import create_app
from callbreak.store import Store

SETTINGS = {"game": "horsethief", "players": 4, "bots": "random", "bot_delay": 0,
            "options": {"max_hands": 3}}
SEED = 424242
KILL_AT = 25  # a version in the middle of the second hand


def start_table(http: Any) -> tuple[str, str]:
    r = http.post("/api/tables", json={"name": "Ann", "settings": SETTINGS, "seed": SEED})
    assert r.status_code == 200, r.text
    code, token = r.json()["code"], r.json()["token"]
    assert http.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200
    return code, token


def uninterrupted_actions(tmp: Path) -> list[dict[str, Any]]:
    store = Store(f"sqlite:///{tmp / 'reference.db'}")
    with TestClient(create_app(store, practice=True)) as client:
        code, token = start_table(client)
        play(client, code, token)
    stored = store.load_game(code)
    assert stored is not None and stored.status == "over"
    store.close()
    return stored.actions


@pytest.mark.process
@pytest.mark.slow
def test_a_related_game_resumes_after_sigkill_with_the_same_record(tmp_path: Path) -> None:
    expected = uninterrupted_actions(tmp_path)
    db = f"sqlite:///{tmp_path / 'served.db'}"
    server = Server(db)
    try:
        code, token = start_table(server.http)
        mid = play(server.http, code, token, until=KILL_AT)
        assert mid["view"]["phase"] != "over" and mid["view"]["deal_number"] >= 2
    finally:
        server.kill()
    server = Server(db)
    try:
        again = server.http.post(f"/api/tables/{code}/state", json={"token": token}).json()
        assert again["version"] == mid["version"] and again["view"] == mid["view"]
        assert again["table"]["game"] == "horsethief"
        end = play(server.http, code, token)
        assert end["view"]["phase"] == "over"
        replay = server.http.get(f"/api/history/{code}").json()
        assert replay["totals"] == end["view"]["totals"] and replay["winners"] == end["view"]["winners"]
    finally:
        server.stop()
    store = Store(db)
    stored = store.load_game(code)
    store.close()
    assert stored is not None and stored.status == "over"
    assert stored.actions == expected
