"""`callbreak serve` as an operator starts it: a real uvicorn process, its flags, its limits."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_server_restart import Server
from websockets.sync.client import connect

pytestmark = pytest.mark.process

SETTINGS = {"preset": "callbreak", "deals": 1, "bots": "random", "bot_delay": 0}


@pytest.fixture
def server(tmp_path: Path) -> Server:
    s = Server(f"sqlite:///{tmp_path / 'serve.db'}", practice=False)
    yield s  # type: ignore[misc]
    s.stop()


def test_a_65_kb_message_gets_too_large_and_the_socket_stays_usable(server: Server) -> None:
    r = server.http.post("/api/tables", json={"name": "Ann", "settings": SETTINGS})
    assert r.status_code == 200, r.text
    code, token = r.json()["code"], r.json()["token"]
    with connect(f"ws://127.0.0.1:{server.port}/ws/{code}", max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        assert json.loads(ws.recv())["type"] == "welcome"
        ws.send(json.dumps({"type": "hint", "token": token, "pad": "x" * 65 * 1024}))
        replies = []
        while not replies or replies[-1].get("type") != "error":
            replies.append(json.loads(ws.recv()))
        assert replies[-1]["code"] == "too_large", replies[-1]
        assert "too large" in replies[-1]["message"]
        # Not closed: the same socket still answers.
        ws.send("{broken")
        while (reply := json.loads(ws.recv()))["type"] != "error":
            pass
        assert reply["code"] != "too_large"


def test_a_seed_is_refused_without_practice_and_accepted_with_it(tmp_path: Path, server: Server) -> None:
    body = {"name": "Ann", "settings": SETTINGS, "seed": 7}
    r = server.http.post("/api/tables", json=body)
    assert r.status_code == 400 and r.json()["error"] == "seed_refused", r.text
    practice = Server(f"sqlite:///{tmp_path / 'practice.db'}", practice=True)
    try:
        r = practice.http.post("/api/tables", json=body)
        assert r.status_code == 200, r.text
        assert practice.http.get("/api/meta").json()["practice"] is True
    finally:
        practice.stop()


def test_a_busy_port_is_named_at_once_and_the_database_is_not_touched(tmp_path: Path, server: Server) -> None:
    """Bind first, then resume: a second `serve` on the first one's port exits 2 naming the
    port, before it opens the database (so it resumes none of the tables the first one plays)
    and without saying that it runs."""
    db = tmp_path / "second.db"
    second = subprocess.run(
        [sys.executable, "-c", "from callbreak.cli.main import main; main()", "serve",
         "--port", str(server.port), "--db", f"sqlite:///{db}"],
        capture_output=True, text=True, timeout=120)
    assert second.returncode == 2, second
    assert f"port {server.port} is in use" in second.stderr and "--port" in second.stderr
    assert "is running" not in second.stdout
    assert not db.exists()  # not even created
    assert server.http.get("/api/meta").status_code == 200  # the first one serves on


def serve_again(db: str) -> subprocess.CompletedProcess[str]:
    """A second `callbreak serve` on a free port, run to its end (or its refusal)."""
    from test_server_restart import free_port

    return subprocess.run(
        [sys.executable, "-c", "from callbreak.cli.main import main; main()", "serve",
         "--port", str(free_port()), "--db", db], capture_output=True, text=True, timeout=120)


def test_a_second_server_on_the_same_sqlite_database_names_the_first_and_does_not_start(
        tmp_path: Path, server: Server) -> None:
    """The mistake of issue 46: a second server took the first one's live table into its own
    memory and showed it frozen. Now it exits 2 before it opens the database, naming the one
    that runs (its address, process and start time) and the ways to run several processes."""
    r = server.http.post("/api/tables", json={"name": "Ann", "settings": SETTINGS})
    code, token = r.json()["code"], r.json()["token"]
    assert server.http.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200
    before = server.http.post(f"/api/tables/{code}/state", json={"token": token}).json()["version"]
    second = serve_again(str(tmp_path / "serve.db"))  # (the same file, spelled as a bare path)
    assert second.returncode == 2, second
    assert "is running" not in second.stdout
    said = second.stderr
    assert f"the server at http://127.0.0.1:{server.port}" in said
    assert f"process {server.proc.pid} on this machine" in said and "started 20" in said
    assert "--workers" in said and "PostgreSQL" in said
    # The first one still owns its table, which moves on.
    state = server.http.post(f"/api/tables/{code}/state", json={"token": token}).json()
    assert state["version"] >= before


def test_a_killed_server_is_followed_at_once_by_the_next_which_resumes_its_tables(tmp_path: Path) -> None:
    """No lease to wait out: the owner's lock goes with its process. The next server says that
    the last one did not stop cleanly, and plays the killed one's table on."""
    db = f"sqlite:///{tmp_path / 'crash.db'}"
    first = Server(db)
    r = first.http.post("/api/tables", json={"name": "Ann", "settings": SETTINGS})
    code, token = r.json()["code"], r.json()["token"]
    assert first.http.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200
    pid = first.proc.pid
    first.kill()
    second = Server(db)
    try:
        said = second.printed()
        assert f"the last server on this database, the server at http://127.0.0.1:{first.port} " in said
        assert f"(process {pid} on this machine" in said and "did not stop cleanly" in said
        state = second.http.post(f"/api/tables/{code}/state", json={"token": token})
        assert state.status_code == 200 and state.json()["view"]["phase"] != "over", state.text
    finally:
        second.stop()
    # Stopped cleanly (SIGTERM): the next one starts without a word about it.
    third = Server(db)
    try:
        assert "did not stop cleanly" not in third.printed()
    finally:
        third.stop()
