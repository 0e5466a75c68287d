"""``callbreak serve`` as operators run it, in a child process: without ``--practice`` a seed is
refused and deals come from the server's secret, which survives a kill (the stored game resumes
with the same cards, and the deals still to come are the same whichever process deals them)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import choose
from test_server_restart import Server, play

SETTINGS = {"preset": "callbreak", "deals": 2, "bots": "random", "bot_delay": 0, "timer": None}
MID_FIRST_DEAL = 12  # a version in the play of the first deal


def _start(http: Any) -> tuple[str, str]:
    r = http.post("/api/tables", json={"name": "Ann", "settings": SETTINGS})
    assert r.status_code == 200, r.text
    code, token = r.json()["code"], r.json()["token"]
    assert r.json()["table"]["practice"] is False
    assert http.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200
    return code, token


@pytest.mark.process
@pytest.mark.slow
def test_a_real_server_refuses_seeds_and_resumes_its_own_deals_after_a_kill(tmp_path: Path) -> None:
    db_file = tmp_path / "served.db"
    server = Server(f"sqlite:///{db_file}", practice=False)
    try:
        r = server.http.post("/api/tables", json={"name": "Ann", "settings": SETTINGS, "seed": 7})
        assert r.status_code == 400 and r.json()["error"] == "seed_refused"
        assert server.http.get("/api/meta").json()["practice"] is False
        code, token = _start(server.http)
        mid = play(server.http, code, token, until=MID_FIRST_DEAL)
        assert mid["view"]["phase"] in ("call", "play") and mid["view"]["deal_number"] == 1
    finally:
        server.kill()
    # Two copies of the killed server's database, each resumed by a fresh process: the cards in
    # hand are the ones dealt before the kill, and the second deal (dealt after the restart, from
    # the table's secret) is the same in both.
    copies = [tmp_path / f"copy{i}.db" for i in range(2)]
    for copy in copies:
        for suffix in ("", "-wal", "-shm"):  # SQLite's write-ahead log holds the latest actions
            if Path(f"{db_file}{suffix}").exists():
                shutil.copy(f"{db_file}{suffix}", f"{copy}{suffix}")
    server = Server(f"sqlite:///{copies[0]}", practice=False)
    try:
        again = server.http.post(f"/api/tables/{code}/state", json={"token": token}).json()
        assert "version" in again, again
        assert again["version"] == mid["version"] and again["view"] == mid["view"]
        first = _play_to_second_deal(server.http, code, token)
    finally:
        server.stop()
    server = Server(f"sqlite:///{copies[1]}", practice=False)
    try:
        second = _play_to_second_deal(server.http, code, token)
    finally:
        server.stop()
    assert len(first) == 13 and first == second


def _play_to_second_deal(http: Any, code: str, token: str) -> list[str]:
    """Play seat 0 (first legal action) until the second deal is dealt; seat 0's hand then."""
    while True:
        s = http.post(f"/api/tables/{code}/state", json={"token": token}).json()
        view = s["view"]
        if view["deal_number"] == 2 and len(view["hand"]) == 13:
            return sorted(view["hand"])
        action = choose(view)
        if action is not None:
            r = http.post(f"/api/tables/{code}/action",
                          json={"token": token, "version": s["version"], "action": action})
            assert r.status_code == 200, r.text
        else:
            time.sleep(0.005)
