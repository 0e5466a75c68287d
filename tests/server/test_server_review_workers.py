"""A server stopped or killed while a review runs leaves no review worker behind holding its port."""

from __future__ import annotations

import signal
import socket
import time
from pathlib import Path

import pytest
from test_server_restart import Server, play

pytestmark = pytest.mark.process

SETTINGS = {"preset": "callbreak", "deals": 1, "bots": "random", "bot_delay": 0}


def _children(pid: int) -> set[int]:
    """The live processes whose parent is ``pid``."""
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.add(int(stat.parent.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["stopped", "killed"])
def test_review_workers_end_with_their_server_and_free_its_port(tmp_path: Path,
                                                                how: signal.Signals) -> None:
    server = Server(f"sqlite:///{tmp_path / 'web.db'}")
    try:
        r = server.http.post("/api/tables", json={"name": "Ann", "settings": SETTINGS})
        code, token = r.json()["code"], r.json()["token"]
        assert server.http.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200
        play(server.http, code, token)
        assert server.http.post(f"/api/history/{code}/review").status_code == 200
        while not (workers := _children(server.proc.pid)):
            time.sleep(0.05)
        assert server.http.get(f"/api/history/{code}/review").json()["status"] == "running"
        server.http.close()
        server.proc.send_signal(how)
        server.proc.wait(20)
        while any(_alive(w) for w in workers) or not _port_free(server.port):
            time.sleep(0.1)
    finally:
        if server.proc.poll() is None:
            server.proc.kill()
