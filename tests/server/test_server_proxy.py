"""Two server processes behind a real HAProxy (Debian's package), with deploy/haproxy.cfg as
shipped, started by scripts/proxy.sh (issue 30): routed by the table code, no action is
forwarded between the processes; and a rolling restart of both, under play, loses no action,
doubles none, and no table waits out a lease or an owner that is gone (the ways a table pauses
for seconds). The pauses themselves are printed, not bounded: a busy machine must not fail a
test, and benchmarks/web_load.py measures them."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import choose
from test_server_restart import free_port
from websockets.sync.client import connect

from callbreak.store import Store

pytestmark = [pytest.mark.postgres, pytest.mark.slow]
ROOT = Path(__file__).parent.parent.parent
SETTINGS = {"preset": "callbreak", "deals": 2, "bots": "random", "bot_delay": 0.02, "timer": None}
# Unlimited deals: each game outlasts the restarts however slow the machine, and ends at the end
# of the deal in which its host stops it, once both processes are back.
LONG = {**SETTINGS, "deals": None, "bot_delay": 0.05}


@pytest.fixture(name="pg_url")
def pg_url_fixture() -> Iterator[str]:
    if not os.environ.get("CALLBREAK_TEST_PG_URL"):
        pytest.skip("CALLBREAK_TEST_PG_URL is not set (scripts/services.sh starts a server)")
    if shutil.which("haproxy") is None and os.geteuid() != 0:
        pytest.skip("haproxy is not installed and cannot be (not root)")
    sys.path.insert(0, str(Path(__file__).parent.parent / "store"))
    from store_helpers import fresh_pg_database

    yield from fresh_pg_database()


class Process:
    """``callbreak serve`` on a fixed port (so that a restarted one comes back behind the proxy)."""

    def __init__(self, db: str, port: int) -> None:
        self.db, self.port = db, port
        self.output: list[str] = []
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from callbreak.cli.main import main; main()", "serve", "--port",
             str(self.port), "--db", self.db, "--no-limits"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        out = self.proc.stdout
        assert out is not None
        threading.Thread(target=lambda: self.output.extend(iter(out.readline, "")), daemon=True).start()
        while True:  # in rotation once ready, as the proxy sees it
            try:
                if httpx.get(f"http://127.0.0.1:{self.port}/readyz", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.05)

    def restart(self) -> tuple[float, int, str]:
        """SIGTERM, wait for the exit, start again; returns how long the old one took to exit,
        its exit status and what it printed."""
        began = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        status = self.proc.wait(60)
        took = time.monotonic() - began
        printed = "".join(self.output)
        self.output = []
        self.start()
        return took, status, printed

    def metric(self, name: str) -> float:
        text = httpx.get(f"http://127.0.0.1:{self.port}/metrics", timeout=5).text
        return sum(float(m.group(1)) for m in re.finditer(rf"^{re.escape(name)}(?:{{[^}}]*}})? (\S+)$", text,
                                                          re.MULTILINE))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class Proxy:
    """scripts/proxy.sh: HAProxy with deploy/haproxy.cfg in front of two processes."""

    def __init__(self, backends: list[int]) -> None:
        self.port = free_port()
        self.proc = subprocess.Popen(
            [str(ROOT / "scripts" / "proxy.sh"), f"127.0.0.1:{self.port}",
             *(f"127.0.0.1:{p}" for p in backends)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{self.port}/api/meta", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert self.proc.poll() is None, self.proc.stdout.read()  # type: ignore[union-attr]
            time.sleep(0.1)
        time.sleep(1.0)  # both backends checked healthy (every 300 ms)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


class Person(threading.Thread):
    """Seat 0 through the proxy: answers each turn at once, reconnects (through the proxy) when
    its socket closes, and keeps the time of every state it receives."""

    def __init__(self, url: str, code: str, token: str) -> None:
        super().__init__(daemon=True)
        self.url, self.code, self.token = url, code, token
        self.states: list[tuple[float, int]] = []  # (when, version) of every state received
        self.sent: set[int] = set()  # versions it sent an action at
        self.connections = 0
        self.over = False
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            while not self.over:
                try:
                    self._play()
                except (OSError, TimeoutError, Exception) as e:  # closed: reconnect as the page does
                    if self.over:
                        return
                    if not _closed(e):
                        raise
                    time.sleep(0.05)
        except BaseException as e:
            self.error = e

    def _play(self) -> None:
        with connect(f"{self.url}/ws/{self.code}", open_timeout=5) as ws:
            self.connections += 1
            ws.send(json.dumps({"type": "hello", "token": self.token}))
            while True:
                m = json.loads(ws.recv(timeout=30))
                if m["type"] == "error" and m["code"] not in ("stale", "unavailable"):
                    raise AssertionError(m)
                if m["type"] != "state" or m["view"] is None:
                    continue
                self.states.append((time.monotonic(), m["version"]))
                if m["view"]["phase"] == "over":
                    self.over = True
                    return
                action = choose(m["view"])
                if action is not None and m["version"] not in self.sent:
                    self.sent.add(m["version"])
                    ws.send(json.dumps({"type": "action", "token": self.token, "version": m["version"],
                                        "action": action}))

    def longest_pause(self) -> float:
        """The longest wait between one new state and the next (each new version once)."""
        firsts: dict[int, float] = {}
        for when, version in self.states:
            firsts.setdefault(version, when)
        times = sorted(firsts.values())
        return max((b - a for a, b in zip(times, times[1:], strict=False)), default=0.0)


def _closed(e: BaseException) -> bool:
    from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

    return isinstance(e, ConnectionClosed | InvalidHandshake | InvalidStatus | OSError | TimeoutError)


def make_tables(base: str, count: int, settings: dict[str, Any] = SETTINGS) -> list[tuple[str, str]]:
    made = []
    with httpx.Client(base_url=base, timeout=30) as http:
        for n in range(count):
            r = http.post("/api/tables", json={"name": f"P{n}", "settings": settings})
            assert r.status_code == 200, r.text
            made.append((r.json()["code"], r.json()["token"]))
    return made


def reached_through(base: str, made: list[tuple[str, str]]) -> set[str]:
    """The processes the proxy sends these tables' players to."""
    with httpx.Client(base_url=base, timeout=30) as http:
        return {http.get(f"/api/tables/{code}").headers["x-callbreak-process"] for code, _ in made}


def wait_run_where_reached(base: str, pg_url: str, made: list[tuple[str, str]]) -> None:
    """Until each table is run (its lease held) by the process the proxy sends its players to
    (the one that answers a request about it through the proxy)."""
    store = Store(pg_url)
    try:
        with httpx.Client(base_url=base, timeout=30) as http:
            def runs_where_reached(code: str) -> bool:
                reached = http.get(f"/api/tables/{code}").headers["x-callbreak-process"]
                game = store.load_game(code)
                lease = store.lease_of(game.id) if game is not None else None
                return lease is not None and lease[0] == reached and bool(lease[2])
            while not all(runs_where_reached(code) for code, _ in made):
                time.sleep(0.2)
    finally:
        store.close()


def start_all(base: str, made: list[tuple[str, str]]) -> None:
    with httpx.Client(base_url=base, timeout=30) as http:
        for code, token in made:
            r = http.post(f"/api/tables/{code}/start", json={"token": token})
            assert r.status_code == 200, r.text


@pytest.fixture
def cluster(pg_url: str) -> Iterator[tuple[list[Process], Proxy]]:
    processes = [Process(pg_url, free_port()) for _ in range(2)]
    proxy = Proxy([p.port for p in processes])
    try:
        yield processes, proxy
    finally:
        proxy.stop()
        for p in processes:
            p.stop()
            print(f"--- process on port {p.port} printed:\n{''.join(p.output)[-6000:]}")  # shown if it failed


@pytest.mark.process
def test_through_the_proxy_no_action_is_forwarded(cluster: tuple[list[Process], Proxy], pg_url: str) -> None:
    processes, proxy = cluster
    base = f"http://127.0.0.1:{proxy.port}"
    made = make_tables(base, 6)
    while len(reached_through(base, made)) < 2:  # the hash sent every table to one process
        made += make_tables(base, 1)  # (now and then, by luck): one more, until both have some
    people = [Person(base.replace("http", "ws"), code, token) for code, token in made]
    for p in people:
        p.start()
    wait_run_where_reached(base, pg_url, made)  # a new table moves there (5 s after it was made)
    start_all(base, made)
    for p in people:
        p.join()
        assert p.error is None and p.over, p.error
    assert sum(p.metric('callbreak_forwarded_calls_total{method="act"}') for p in processes) == 0
    # Both processes ran tables (the hash spread them), and every action was stored.
    assert all(p.metric("callbreak_actions_total") > 0 for p in processes)
    store = Store(pg_url)
    try:
        for (code, _), person in zip(made, people, strict=True):
            stored = store.load_game(code)
            assert stored is not None and stored.status == "over"
            assert len(stored.actions) == person.states[-1][1]
    finally:
        store.close()


@pytest.mark.process
def test_a_rolling_restart_under_play_loses_nothing_and_waits_out_no_lease(
        cluster: tuple[list[Process], Proxy], pg_url: str) -> None:
    processes, proxy = cluster
    base = f"http://127.0.0.1:{proxy.port}"
    made = make_tables(base, 6, LONG)
    people = [Person(base.replace("http", "ws"), code, token) for code, token in made]
    for p in people:
        p.start()
    wait_run_where_reached(base, pg_url, made)
    start_all(base, made)
    time.sleep(2)
    exits = []
    for proc in processes:  # one by one, each back in the proxy's rotation before the next
        exits.append(proc.restart())
        time.sleep(0.5)  # its next health check (every 300 ms) puts it back
    assert all(not p.over for p in people), "a game ended before the restarts did"
    restarted = time.monotonic()
    with httpx.Client(base_url=base, timeout=30) as http:
        for code, token in made:  # the hosts stop their games: each ends with its deal
            while (r := http.post(f"/api/tables/{code}/stop", json={"token": token})).status_code == 503:
                time.sleep(0.1)  # moving between processes: try again, as the page does
            assert r.status_code == 200, r.text
    for p in people:
        p.join()
        assert p.error is None and p.over, p.error
    assert all(p.connections >= 1 for p in people)
    # Each stopping process handed every table it ran on at once and exited by itself; none let
    # a lease lapse (a table waits 3 s for it), and no call waited on an owner that was gone.
    printed = "".join(text for _, _, text in exits) + "".join("".join(p.output) for p in processes)
    for _, status, text in exits:
        assert status in (0, -signal.SIGTERM), text  # (uvicorn ends by raising the signal it caught)
        handed = re.search(r"stopping: handed (\d+) tables on", text)
        assert handed is not None and int(handed.group(1)) == text.count("is stopping: hands table"), text
        assert "could not give up" not in text, text
    for trouble in ("lost the lease", "went unanswered", "had no answer"):
        assert trouble not in printed, printed
    store = Store(pg_url)
    try:
        for (code, _), person in zip(made, people, strict=True):
            stored = store.load_game(code)
            assert stored is not None and stored.status == "over"
            # Every action once: the record has each version once and reaches the end; the
            # person's own actions stored are exactly the ones it played (sent at a version it
            # saw, and stored at that version).
            assert len(stored.actions) == person.states[-1][1]
            mine = {v for v, a in enumerate(stored.actions)
                    if a.get("seat") == 0 and a["type"] not in ("deal", "choose_dealer", "stop")}
            assert mine <= person.sent, sorted(mine - person.sent)
    finally:
        store.close()
    # Play went on through both restarts, at every table.
    assert all(p.states[-1][0] > restarted for p in people), "a game ended before the restarts did"
    pauses = sorted(round(p.longest_pause(), 3) for p in people)
    print(f"rolling restart: exits {[round(t, 2) for t, _, _ in exits]} s, reconnections "
          f"{sum(p.connections for p in people) - len(people)}, longest pauses {pauses} s")
