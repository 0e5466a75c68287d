"""Crash safety: kill the server (SIGKILL) mid-deal, start it again, finish, and compare the record
with the same game played without the interruption.

Seat 0 is a person (this test, over HTTP); the other seats are seeded bots, so the whole game is a
function of the table seed and seat 0's choices; with experts, of what they read of the others
too, which the table stores beside the actions and a resumed table hands back to them.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import choose, pg_url_fixture  # noqa: F401 (a fixture)
from starlette.testclient import TestClient

from callbreak.server.app import create_app
from callbreak.store import Store

SETTINGS = {"preset": "callbreak", "deals": 2, "bots": "random", "bot_delay": 0}
# Experts with a set number of samples (their decisions do not depend on the clock), which read
# the others' styles and carry the reading into the next deal.
EXPERTS = {**SETTINGS, "bots": "expert:samples=16"}
SEED = 20261122
KILL_AT = 70  # a version in the middle of the second deal


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``callbreak serve`` in a child process."""

    def __init__(self, db: str, *, practice: bool = True, workers: int = 1,
                 env: dict[str, str] | None = None, limits: bool = False) -> None:
        self.port = free_port()
        env = {**{k: v for k, v in os.environ.items() if k != "CALLBREAK_PRACTICE"}, **(env or {})}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from callbreak.cli.main import main; main()", "serve",
             "--port", str(self.port), "--db", db, *(["--practice"] if practice else []),
             *([] if limits else ["--no-limits"]),  # limits: as an operator runs it (test players are fast)
             *(["--workers", str(workers)] if workers > 1 else [])],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        # (practice: the crash tests seed their tables, to compare with an uninterrupted game)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert f"Call Break is running at http://127.0.0.1:{self.port}" in line, line
        # Keep reading what it prints (a full pipe would block the server) for a failing test.
        self.output: list[str] = []
        self.reader = threading.Thread(target=lambda: self.output.extend(iter(self.proc.stdout.readline, "")),
                                       daemon=True)
        self.reader.start()
        self.http = httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=10)
        while True:  # (it printed that it runs: a server that never answers is the per-test timeout's)
            try:
                self.http.get("/api/meta")
                break
            except httpx.TransportError:
                assert self.proc.poll() is None, f"the server exited: {self.printed()}"
                time.sleep(0.1)

    def printed(self) -> str:
        """What the server printed so far (all of it, once it has exited)."""
        if self.proc.poll() is not None:
            self.reader.join(5)
        return "".join(self.output)

    def kill(self) -> None:
        self.http.close()
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        self.http.close()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def play(http: Any, code: str, token: str, until: int | None = None, patient: bool = False) -> dict[str, Any]:
    """Play seat 0 (first ordinary legal action) until the game is over or ``until`` is reached
    on seat 0's turn. Returns the last state seen. ``patient``: as a page does while a server
    process is replaced, try again on a lost connection or a "try again" refusal."""
    while True:
        try:
            got = http.post(f"/api/tables/{code}/state", json={"token": token})
            if patient and got.status_code == 503:
                time.sleep(0.2)
                continue
            s = got.json()
            view = s["view"]
            if view["phase"] == "over":
                return s  # type: ignore[no-any-return]
            action = choose(view)
            if action is not None:
                if until is not None and s["version"] >= until:
                    return s  # type: ignore[no-any-return]
                r = http.post(f"/api/tables/{code}/action",
                              json={"token": token, "version": s["version"], "action": action})
                if patient and (r.status_code == 503 or r.json().get("error") == "stale"):
                    time.sleep(0.2)  # moving to another process, or stored just before it died
                    continue
                assert r.status_code == 200, r.text
            else:
                time.sleep(0.005)
        except httpx.TransportError:
            if not patient:
                raise
            time.sleep(0.2)


def start_table(http: Any, settings: dict[str, Any] = SETTINGS) -> tuple[str, str]:
    r = http.post("/api/tables", json={"name": "Ann", "settings": settings, "seed": SEED})
    assert r.status_code == 200, r.text
    code, token = r.json()["code"], r.json()["token"]
    assert http.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200
    return code, token


def uninterrupted_actions(tmp: Path, settings: dict[str, Any] = SETTINGS) -> list[dict[str, Any]]:
    store = Store(f"sqlite:///{tmp / 'reference.db'}")
    with TestClient(create_app(store, practice=True)) as client:
        code, token = start_table(client, settings)
        play(client, code, token)
    stored = store.load_game(code)
    assert stored is not None and stored.status == "over"
    store.close()
    return stored.actions


def stored_game(db: str, code: str) -> Any:
    """The game ``code`` as the database holds it (read by a store of the test's own)."""
    store = Store(db)
    try:
        stored = store.load_game(code)
    finally:
        store.close()
    assert stored is not None, code
    return stored


def carried(memories: dict[int, dict[str, Any]]) -> None:
    """Each expert (seats 1-3) plays deal 2 from a reading of the three others carried from deal 1."""
    assert sorted(memories) == [1, 2, 3], memories
    for memory in memories.values():
        assert memory["deal"] == 2 and len(memory["prior"]) == 3, memory


@pytest.mark.slow
def test_the_experts_at_a_web_table_carry_their_reading_into_the_next_deal(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'experts.db'}")
    try:
        with TestClient(create_app(store, practice=True)) as client:
            code, token = start_table(client, EXPERTS)
            mid = play(client, code, token, until=KILL_AT)
            assert mid["view"]["deal_number"] == 2
            stored = store.load_game(code)
            assert stored is not None
            carried(stored.memories)
            # No seat's view shows what its bots have read (it is theirs, not the table's).
            assert "memor" not in json.dumps(mid) and "prior" not in json.dumps(mid)
    finally:
        store.close()


@pytest.fixture(name="restart_db", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def restart_db_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'served.db'}"
        return
    if not os.environ.get("CALLBREAK_TEST_PG_URL"):
        pytest.skip("CALLBREAK_TEST_PG_URL is not set")
    sys.path.insert(0, str(Path(__file__).parent.parent / "store"))
    from store_helpers import fresh_pg_database

    yield from fresh_pg_database()


@pytest.mark.process
@pytest.mark.slow
def test_sigkill_mid_deal_then_resume_gives_the_same_record(tmp_path: Path, restart_db: str) -> None:
    expected = uninterrupted_actions(tmp_path)
    server = Server(restart_db)
    try:
        code, token = start_table(server.http)
        mid = play(server.http, code, token, until=KILL_AT)
        assert mid["view"]["phase"] == "play" and mid["view"]["deal_number"] == 2
        assert 0 < len(mid["view"]["tricks"]) < 13
    finally:
        server.kill()
    server = Server(restart_db)
    try:
        again = server.http.post(f"/api/tables/{code}/state", json={"token": token}).json()
        assert again["version"] == mid["version"] and again["view"] == mid["view"]
        end = play(server.http, code, token)
        assert end["view"]["phase"] == "over"
        replay = server.http.get(f"/api/history/{code}").json()
        assert replay["totals"] == end["view"]["totals"]
    finally:
        server.stop()
    stored = stored_game(restart_db, code)
    assert stored.status == "over"
    assert stored.actions == expected


@pytest.mark.process
@pytest.mark.slow
def test_sigkill_mid_deal_changes_none_of_the_experts_decisions(tmp_path: Path) -> None:
    """The experts' reading of deal 1 survives the kill in deal 2: the resumed process hands it
    back to them, so every decision after it is the one they would have made."""
    expected = uninterrupted_actions(tmp_path, EXPERTS)
    db = f"sqlite:///{tmp_path / 'served.db'}"
    server = Server(db)
    try:
        code, token = start_table(server.http, EXPERTS)
        mid = play(server.http, code, token, until=KILL_AT)
        assert mid["view"]["phase"] == "play" and mid["view"]["deal_number"] == 2
    finally:
        server.kill()
    carried(stored_game(db, code).memories)  # what the new process finds
    server = Server(db)
    try:
        end = play(server.http, code, token)
        assert end["view"]["phase"] == "over"
    finally:
        server.stop()
    stored = stored_game(db, code)
    assert stored.status == "over"
    assert stored.actions == expected


@pytest.mark.postgres
@pytest.mark.slow
def test_a_table_handed_to_another_process_hands_its_experts_their_reading_too(
        tmp_path: Path, pg_url: str) -> None:
    """Two processes on one PostgreSQL (in-process apps): the other process follows the table
    from deal 1 (someone watches it there), the table's own process stops in deal 2 and hands
    the table on; the other takes it over, brought up to the store with the experts' reading of
    deal 1, and plays on: the record of one uninterrupted game."""
    expected = uninterrupted_actions(tmp_path, EXPERTS)
    store = Store(pg_url)
    try:
        with TestClient(create_app(Store(pg_url), practice=True)) as other, contextlib.ExitStack() as running:
            service = other.app.state.service  # type: ignore[attr-defined]
            first = running.enter_context(TestClient(create_app(Store(pg_url), practice=True)))
            code, token = start_table(first, EXPERTS)
            early = play(first, code, token, until=0)
            assert early["view"]["deal_number"] == 1
            with other.websocket_connect(f"/ws/{code}") as watcher:
                watcher.send_text(json.dumps({"type": "hello"}))
                assert watcher.receive_json()["type"] == "welcome"
                followed = service.tables[code]
                assert followed.replica
                mid = play(first, code, token, until=KILL_AT)
                assert mid["view"]["deal_number"] == 2
                # What the experts read since is not in what the follower loaded.
                assert {memory["deal"] for memory in followed.memories.values()} <= {1}
                running.close()  # the first process stops, and hands the table on
                end = play(other, code, token, patient=True)
            assert end["view"]["phase"] == "over"
            assert service.tables[code] is followed and not followed.replica  # taken over, not loaded again
        stored = store.load_game(code)
        assert stored is not None and stored.status == "over"
        assert stored.actions == expected
    finally:
        store.close()
