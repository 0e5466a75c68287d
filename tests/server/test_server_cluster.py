"""Several server processes on one PostgreSQL act as one server: real processes, real sockets.

The four players of one table sit on different processes; the game's record is the same as the
same seeded game on one process. The owner process is killed (SIGKILL) or paused past its lease
(SIGSTOP): the table carries on at the other process, with no action lost or stored twice, and no
message to a seat ever holds another seat's cards.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import SeatClient, cards_in, choose, pg_url_fixture  # noqa: F401 (a fixture)
from starlette.testclient import TestClient
from test_server_leak import truth_by_version
from test_server_restart import KILL_AT, Server, play, start_table, uninterrupted_actions
from websockets.sync.client import connect

from callbreak.server.app import create_app
from callbreak.store import Store

pytestmark = pytest.mark.postgres
SETTINGS = {"preset": "callbreak", "deals": 2, "bots": "random", "bot_delay": 0}
SEED = 4411


class Player(threading.Thread):
    """One seat on a real websocket to one of the processes; on a lost connection it reconnects
    to the next process in its list (as the page reconnects, through a proxy, to a live one)."""

    def __init__(self, ports: list[int], code: str, token: str, first: int, think: float = 0.0,
                 wait_rematch: bool = False, retry: bool = False) -> None:
        super().__init__(daemon=True)
        self.ports, self.code, self.token, self.at, self.think = ports, code, token, first, think
        self.wait_rematch = wait_rematch  # stay at the finished table until told of a rematch
        self.retry = retry  # told "try again" (the server could not store it), play it again
        self.retries = 0
        self.messages: list[dict[str, Any]] = []
        self.connections = 0
        self.error: BaseException | None = None
        self.over = self.done = False
        self.log: list[str] = []  # when it connected where, and why it left (for a failing test)
        self.go = threading.Event()  # cleared: the player waits before its next action
        self.go.set()

    def run(self) -> None:
        while not self.done:
            port = self.ports[self.at % len(self.ports)]
            try:
                with connect(f"ws://127.0.0.1:{port}/ws/{self.code}", open_timeout=3) as ws:
                    self.connections += 1
                    self.log.append(f"{time.monotonic():.1f} connected to {port}")
                    ws.send(json.dumps({"type": "hello", "token": self.token}))
                    sent: dict[str, Any] | None = None
                    while True:
                        m = json.loads(ws.recv())
                        self.messages.append(m)
                        if (m["type"] == "error" and m.get("code") == "unavailable" and self.retry
                                and sent is not None):
                            time.sleep(0.3)  # as a person would, after the page says so
                            self.retries += 1
                            ws.send(json.dumps(sent))
                            continue
                        if m["type"] == "rematch" and self.over:
                            self.done = True
                            return
                        if m["type"] != "state" or m["view"] is None:
                            continue
                        if m["view"]["phase"] == "over":
                            self.over = True
                            if not self.wait_rematch:
                                self.done = True
                                return
                            continue
                        action = choose(m["view"])
                        if action is not None:
                            time.sleep(self.think)
                            self.go.wait()
                            sent = {"type": "action", "token": self.token, "version": m["version"],
                                    "action": action}
                            ws.send(json.dumps(sent))
            except Exception as e:  # the process died or refused: try the next one
                self.log.append(f"{time.monotonic():.1f} {port}: {e!r}")
                self.at += 1
                time.sleep(0.2)
        if not self.done:
            self.error = AssertionError(f"seat player {self.token[:4]} never saw the game end")


def seat_table(http: list[Any], settings: dict[str, Any] = SETTINGS) -> tuple[str, list[str]]:
    """A seeded table created at the first client; seats 1..3 join through the others in turn."""
    r = http[0].post("/api/tables", json={"name": "P0", "settings": settings, "seed": SEED})
    assert r.status_code == 200, r.text
    code, tokens = r.json()["code"], [r.json()["token"]]
    for seat in (1, 2, 3):
        r = http[seat % len(http)].post(f"/api/tables/{code}/join", json={"name": f"P{seat}", "seat": seat})
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    return code, tokens


def one_process_record(tmp: Path, settings: dict[str, Any] = SETTINGS) -> list[dict[str, Any]]:
    """The same seeded game, the same players, on one process."""
    store = Store(f"sqlite:///{tmp / 'one.db'}")
    with TestClient(create_app(store, practice=True)) as client:
        code, tokens = seat_table([client], settings)
        players = [SeatClient(client, code, t) for t in tokens]
        for p in players:
            p.start()
        time.sleep(0.3)
        assert client.post(f"/api/tables/{code}/start", json={"token": tokens[0]}).status_code == 200
        for p in players:
            p.join()
            assert p.error is None, p.error
    stored = store.load_game(code)
    store.close()
    assert stored is not None and stored.status == "over"
    return stored.actions


def check_no_leak(pg_url: str, code: str, players: list[Player]) -> int:
    """Every state message a seat received holds none of the other seats' cards at its version."""
    store = Store(pg_url)
    hands, _ = truth_by_version(store, code)
    store.close()
    checked = 0
    for seat, p in enumerate(players):
        for m in p.messages:
            if m["type"] != "state" or m["view"] is None:
                continue
            hidden = set().union(*(hands[m["version"]][t] for t in range(4) if t != seat))
            assert not cards_in(m) & hidden, (seat, m["version"])
            checked += 1
    return checked


def reached(store: Store, code: str, version: int) -> bool:
    """Whether the table's record has reached ``version`` actions."""
    game = store.load_game(code, since=version - 1)
    return game is not None and bool(game.actions)


def stored_actions(pg_url: str, code: str) -> list[dict[str, Any]]:
    store = Store(pg_url)
    stored = store.load_game(code)
    store.close()
    assert stored is not None and stored.status == "over"
    return stored.actions


@pytest.mark.process
def test_four_players_on_two_processes_play_the_same_game_as_on_one(tmp_path: Path, pg_url: str) -> None:
    expected = one_process_record(tmp_path)
    servers = [Server(pg_url), Server(pg_url)]
    try:
        code, tokens = seat_table([s.http for s in servers])
        ports = [s.port for s in servers]
        players = [Player(ports, code, t, first=seat) for seat, t in enumerate(tokens)]
        for p in players:
            p.start()
        time.sleep(0.5)
        # The host starts through the process that does not own the table: the owner runs it.
        r = servers[1].http.post(f"/api/tables/{code}/start", json={"token": tokens[0]})
        assert r.status_code == 200, r.text
        for p in players:
            p.join()
            assert p.error is None, p.error
            assert p.connections == 1  # nobody was dropped
        assert check_no_leak(pg_url, code, players) > 100
        assert stored_actions(pg_url, code) == expected
        # Both processes show the finished game in the history.
        for s in servers:
            assert s.http.get(f"/api/history/{code}").status_code == 200
    finally:
        for s in servers:
            s.stop()


@pytest.mark.process
def test_a_table_goes_to_the_process_most_of_its_players_are_on_and_plays_the_same_game(
        tmp_path: Path, pg_url: str) -> None:
    """Created at one process, three of its four players connected to the other: the table is
    handed to that process (their actions then need no forwarding) mid-game, and the game is
    the one it would have been on one process, with no hidden card in any message."""
    expected = one_process_record(tmp_path)
    servers = [Server(pg_url), Server(pg_url)]
    store = Store(pg_url)
    try:
        code, tokens = seat_table([s.http for s in servers])
        ports = [s.port for s in servers]
        players = [Player(ports, code, t, first=0 if seat == 0 else 1, think=0.05)
                   for seat, t in enumerate(tokens)]
        for p in players:
            p.start()
        time.sleep(0.5)
        game = store.load_game(code)
        assert game is not None
        owners = [store.lease_of(game.id)]
        assert owners[0] is not None and owners[0][0].split(":")[1] == str(servers[0].proc.pid)
        assert servers[0].http.post(f"/api/tables/{code}/start", json={"token": tokens[0]}).status_code == 200
        while not all(p.done or p.error for p in players):
            owners.append(store.lease_of(game.id))
            time.sleep(0.2)
        for p in players:
            p.join()
            assert p.error is None, p.error
            assert p.connections == 1  # nobody was dropped
        handed = [o for o in owners if o is not None and o[0].split(":")[1] == str(servers[1].proc.pid)]
        assert handed, "the table stayed where one player was"
        assert check_no_leak(pg_url, code, players) > 100
        assert stored_actions(pg_url, code) == expected
    finally:
        store.close()
        for s in servers:
            s.stop()


@pytest.mark.process
def test_a_rematch_asked_at_one_process_reaches_the_players_on_every_process(pg_url: str) -> None:
    """The host asks for the rematch at the process that does not own the table: every player,
    whichever process their socket is on, is told the new table and their seat there."""
    servers = [Server(pg_url), Server(pg_url)]
    try:
        code, tokens = seat_table([s.http for s in servers], {**SETTINGS, "deals": 1})
        ports = [s.port for s in servers]
        players = [Player(ports, code, t, first=seat, wait_rematch=True) for seat, t in enumerate(tokens)]
        for p in players:
            p.start()
        time.sleep(0.5)
        assert servers[0].http.post(f"/api/tables/{code}/start", json={"token": tokens[0]}).status_code == 200
        while not all(p.over for p in players):
            time.sleep(0.1)
        time.sleep(1.5)  # the owner hears of the other process's sockets (presence, every second)
        r = servers[1].http.post(f"/api/tables/{code}/rematch", json={"token": tokens[0]})
        assert r.status_code == 200, r.text
        new_code = r.json()["code"]
        for seat, p in enumerate(players):
            p.join()
            assert p.error is None and p.done, f"seat {seat} was not told of the rematch"
            told = [m for m in p.messages if m["type"] == "rematch"][-1]
            assert told == {"type": "rematch", "code": new_code, "seat": seat}
            # Their seat key holds the same seat at the new table, asked at either process.
            s = servers[seat % 2].http.post(f"/api/tables/{new_code}/state", json={"token": tokens[seat]})
            assert s.status_code == 200 and s.json()["you"] == seat, s.text
        # A player who comes back later, at either process, is sent on to their seat there.
        for port in ports:
            with connect(f"ws://127.0.0.1:{port}/ws/{code}", open_timeout=None) as ws:
                ws.send(json.dumps({"type": "hello", "token": tokens[1]}))
                while (m := json.loads(ws.recv()))["type"] != "rematch":
                    pass
                assert m == {"type": "rematch", "code": new_code, "seat": 1}
    finally:
        for s in servers:
            s.stop()


def host_alone(server: Server, **settings: Any) -> tuple[str, str]:
    """A one-deal table hosted by Asha at ``server`` with three random bots: (code, her token)."""
    r = server.http.post("/api/tables", json={"name": "Asha", "settings": {
        "preset": "callbreak", "deals": 1, "bots": "random", "bot_delay": 0, **settings}})
    assert r.status_code == 200, r.text
    return r.json()["code"], r.json()["token"]


@pytest.mark.process
def test_a_player_slow_to_say_hello_at_another_process_still_follows_the_game(pg_url: str) -> None:
    """A socket opened at the process that does not own the table, whose hello comes only after
    that process's lease keeper has let its idle copy of the table go: the player is attached to
    the table that process follows, and sees the game start and move on."""
    servers = [Server(pg_url), Server(pg_url)]
    try:
        code, token = host_alone(servers[0])
        with connect(f"ws://127.0.0.1:{servers[1].port}/ws/{code}", open_timeout=None) as ws:
            time.sleep(2.5)  # two lease-keeper ticks with no socket attached at this process
            ws.send(json.dumps({"type": "hello", "token": token}))
            r = servers[0].http.post(f"/api/tables/{code}/start", json={"token": token})
            assert r.status_code == 200, r.text
            while True:
                m = json.loads(ws.recv())
                if m["type"] == "state" and m["view"] and m["view"]["phase"] == "call":
                    break
        assert m["you"] == 0
    finally:
        for s in servers:
            s.stop()


@pytest.mark.process
def test_a_seat_moved_to_a_device_on_one_process_leaves_the_old_device_on_another(pg_url: str) -> None:
    """The old device's socket is on the process that does not own the table; the link is made
    there and opened at the owner: the old device is told its seat moved and only watches, and
    the new token holds the seat and the host's rights at both processes."""
    servers = [Server(pg_url), Server(pg_url)]
    try:
        code, old = host_alone(servers[0])
        with connect(f"ws://127.0.0.1:{servers[1].port}/ws/{code}", open_timeout=None) as old_device:
            old_device.send(json.dumps({"type": "hello", "token": old}))
            assert json.loads(old_device.recv())["seat"] == 0
            link = servers[1].http.post(f"/api/tables/{code}/handoff", json={"token": old})
            assert link.status_code == 200, link.text
            claimed = servers[0].http.post(f"/api/tables/{code}/claim", json={"handoff": link.json()["handoff"]})
            assert claimed.status_code == 200, claimed.text
            new = claimed.json()["token"]
            assert claimed.json()["seat"] == 0 and new != old
            messages: list[dict[str, Any]] = []
            while not any(m["type"] == "moved" for m in messages):
                messages.append(json.loads(old_device.recv()))
            while (m := json.loads(old_device.recv()))["type"] != "state":
                pass
            assert m["you"] is None  # watching now
        for s in servers:
            r = s.http.post(f"/api/tables/{code}/state", json={"token": old})
            assert r.status_code == 403 and r.json()["error"] == "bad_token"
            assert s.http.post(f"/api/tables/{code}/state", json={"token": new}).json()["you"] == 0
        r = servers[1].http.post(f"/api/tables/{code}/start", json={"token": new})
        assert r.status_code == 200, r.text
    finally:
        for s in servers:
            s.stop()


@pytest.mark.process
def test_what_the_owners_clock_did_is_shown_on_every_process(pg_url: str) -> None:
    """The host's socket is on the process that does not run the table: when the owner's turn
    timer calls for her, her page is told so (the clock's notices reach the other process)."""
    servers = [Server(pg_url), Server(pg_url)]
    try:
        code, token = host_alone(servers[0], timer=1)
        with connect(f"ws://127.0.0.1:{servers[1].port}/ws/{code}", open_timeout=None) as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            ws.send(json.dumps({"type": "start", "token": token}))
            while True:  # we do nothing: the owner's timer calls the minimum for us
                m = json.loads(ws.recv())
                if m["type"] == "state" and m["view"] and m["view"]["calls"][0] is not None:
                    break
        assert m["view"]["calls"][0] == 1
        # (the bots after her may have called already: the notice is at her call's version)
        assert [{**n, "version": None} for n in m["notices"]] == [
            {"version": None, "seat": 0, "why": "timer", "action": {"type": "call", "seat": 0, "tricks": 1}}]
        assert 1 <= m["notices"][0]["version"] <= m["version"]
    finally:
        for s in servers:
            s.stop()


@pytest.mark.process
@pytest.mark.slow
def test_killing_the_owner_mid_trick_again_and_again_loses_nothing(tmp_path: Path, pg_url: str) -> None:
    """SIGKILL the table's owner mid-trick (KILLS times over the game); a new process takes its
    place each time, so two are always up. The game finishes with the one-process record."""
    kills = int(os.environ.get("CALLBREAK_CLUSTER_KILLS", "20"))
    # A long enough game for the kills, at a pace people might play (20 ms a move).
    settings = {**SETTINGS, "deals": 2 if kills <= 8 else 5}
    expected = one_process_record(tmp_path, settings)
    servers = [Server(pg_url), Server(pg_url)]
    every = list(servers)  # for their logs if the test fails
    try:
        code, tokens = seat_table([s.http for s in servers], settings)
        ports = [s.port for s in servers]
        players = [Player(ports, code, t, first=seat, think=0.02) for seat, t in enumerate(tokens)]
        for p in players:
            p.start()
        time.sleep(0.5)
        assert servers[0].http.post(f"/api/tables/{code}/start", json={"token": tokens[0]}).status_code == 200
        store = Store(pg_url)
        game = store.load_game(code)
        assert game is not None
        done = 0
        # A few actions between kills, however fast the machine: the game must outlast them.
        step = max(2, len(expected) // (3 * kills))
        while done < kills and not all(p.done for p in players):
            # The replacement is up before the kill, so two processes live through each one; the
            # players wait meanwhile, so that a slow start does not let the game run out of kills.
            for p in players:
                p.go.clear()
            fresh = Server(pg_url)
            for p in players:
                p.go.set()
            servers.append(fresh)
            every.append(fresh)
            ports[:] = [s.port for s in servers]
            for p in players:
                p.ports = list(ports)
            target = len((store.load_game(code) or game).actions) + step
            while not reached(store, code, target) and not any(p.done for p in players):
                time.sleep(0.02)
            lease = store.lease_of(game.id)
            assert lease is not None
            owner_pid = int(lease[0].split(":")[1])
            victim = next(s for s in servers if s.proc.pid == owner_pid)
            victim.kill()
            servers.remove(victim)
            done += 1
            ports[:] = [s.port for s in servers]
            for p in players:
                p.ports = list(ports)
        store.close()
        for p in players:
            p.join()
            assert p.error is None, p.error
        assert done == kills
        assert sum(p.connections for p in players) > 4  # clients did reconnect
        assert check_no_leak(pg_url, code, players) > 100
        logs = "".join(f"--- process {s.proc.pid} port {s.port}\n" + s.printed() for s in every)
        logs += "".join(f"--- seat {i}\n" + "\n".join(p.log) + "\n" for i, p in enumerate(players))
        assert stored_actions(pg_url, code) == expected, logs  # nothing lost, nothing twice
    finally:
        for s in servers:
            s.stop()


def worker_processes(pid: int) -> set[int]:
    """The live worker processes ``pid`` (uvicorn's supervisor) has started, from /proc."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            command = (stat.parent / "cmdline").read_bytes()
            if int(fields[1]) == pid and fields[0] != "Z" and b"spawn_main" in command:
                found.add(int(stat.parent.name))
    return found


@pytest.mark.process
@pytest.mark.slow
def test_serve_workers_replaces_a_killed_worker_and_its_tables_carry_on(tmp_path: Path, pg_url: str) -> None:
    """``callbreak serve --workers 2``: SIGKILL the worker that owns a table mid-deal. The other
    worker takes the table over, the supervisor starts a replacement worker, and the game ends
    with the record of the same seeded game played without the kill."""
    expected = uninterrupted_actions(tmp_path)
    server = Server(pg_url, workers=2)
    try:
        while len(workers := worker_processes(server.proc.pid)) < 2:
            time.sleep(0.2)
        code, token = start_table(server.http)
        mid = play(server.http, code, token, until=KILL_AT, patient=True)
        assert mid["view"]["phase"] == "play"
        store = Store(pg_url)
        game = store.load_game(code)
        assert game is not None
        lease = store.lease_of(game.id)
        store.close()
        assert lease is not None
        owner = int(lease[0].split(":")[1])
        assert owner in workers
        os.kill(owner, signal.SIGKILL)
        end = play(server.http, code, token, patient=True)
        assert end["view"]["phase"] == "over"
        assert stored_actions(pg_url, code) == expected  # nothing lost, nothing twice
        while len(now := worker_processes(server.proc.pid)) < 2 or owner in now:
            time.sleep(0.2)
        # The log says who died, what replaced it, and which process took the table from it.
        printed = server.printed()
        replacement = (set(now) - set(workers)).pop()
        assert (f"worker process {owner} died; the supervisor (process {server.proc.pid}) started "
                f"process {replacement} in its place") in printed, printed
        took = re.search(rf"pid (\d+) INFO callbreak.cluster: process \S+:(\d+):\w+ took over table {code} "
                         rf"\(epoch \d+, from \S+:{owner}:\w+, found free\)", printed)
        assert took is not None and took.group(1) == took.group(2) != str(owner), printed
        assert took.group(1) in (str(p) for p in now)
        # /metrics adds up every worker (whichever answers): the takeover is counted, and the dead
        # worker's live gauges are not (each live worker recounts its own every second: the
        # finished table leaves the count at the next recount).
        while True:
            text = server.http.get("/metrics").text
            takeovers = re.search(r"^callbreak_takeovers_total (\S+)$", text, re.MULTILINE)
            assert takeovers is not None and float(takeovers.group(1)) >= 1, text
            if re.search(r'^callbreak_tables_live\{status="playing"\} 0\.0$', text, re.MULTILINE):
                break
            time.sleep(0.2)
    finally:
        server.stop()


@pytest.mark.process
def test_a_paused_owner_cannot_write_after_its_lease_lapses(tmp_path: Path, pg_url: str) -> None:
    """SIGSTOP the owner past its lease; the other process takes the table and plays on; SIGCONT:
    the old owner's stale clock and bots cannot write (fencing), and the record stays the one."""
    # A turn timer, so the paused owner holds an armed clock that is long overdue when it wakes
    # (players act at once, so it never runs out otherwise).
    settings = {**SETTINGS, "timer": 3}
    expected = one_process_record(tmp_path, settings)
    # The table stays with its owner, though its players are all at the other process.
    servers = [Server(pg_url, env={"CALLBREAK_HANDOVER": "0"}) for _ in range(2)]
    try:
        code, tokens = seat_table([s.http for s in servers], settings)
        ports = [s.port for s in servers]
        players = [Player([ports[1]], code, t, first=0) for t in tokens]  # all at the non-owner
        for p in players:
            p.start()
        time.sleep(0.5)
        assert servers[1].http.post(f"/api/tables/{code}/start", json={"token": tokens[0]}).status_code == 200
        store = Store(pg_url)
        game = store.load_game(code)
        assert game is not None
        while not reached(store, code, 40):
            time.sleep(0.02)
        lease = store.lease_of(game.id)
        assert lease is not None and int(lease[0].split(":")[1]) == servers[0].proc.pid
        servers[0].proc.send_signal(signal.SIGSTOP)
        # Past the lease (3 s), the other process takes over at its next tick; on a loaded
        # machine that tick can come late, so wait for it rather than a fixed time.
        while (taken := store.lease_of(game.id)) is None or not taken[2] or taken[1] == lease[1]:
            time.sleep(0.2)
        assert int(taken[0].split(":")[1]) == servers[1].proc.pid
        assert taken[1] > lease[1]
        servers[0].proc.send_signal(signal.SIGCONT)
        for p in players:
            p.join()
            assert p.error is None, p.error
        # The woken process noticed: it is a replica now and answers from the store.
        with httpx.Client(base_url=f"http://127.0.0.1:{servers[0].port}", timeout=10) as http:
            again = http.post(f"/api/tables/{code}/state", json={"token": tokens[0]})
            assert again.status_code in (200, 404)
        store.close()
        assert check_no_leak(pg_url, code, players) > 100
        assert stored_actions(pg_url, code) == expected
    finally:
        for s in servers:
            s.stop()
    woken = servers[0].printed()
    assert "lost the lease of table" in woken, woken


@pytest.mark.process
def test_the_processes_carry_on_after_the_database_drops_every_connection(tmp_path: Path, pg_url: str) -> None:
    """PostgreSQL restarts or fails over mid-game (here: it ends every session of the database):
    each process reconnects what it listens and notifies on, and the players, all at the process
    that does not run the table, play the game to its end, the same game as on one process."""
    import psycopg

    expected = one_process_record(tmp_path)
    servers = [Server(pg_url, env={"CALLBREAK_HANDOVER": "0"}) for _ in range(2)]
    try:
        code, tokens = seat_table([s.http for s in servers])
        players = [Player([servers[1].port], code, t, first=0) for t in tokens]  # every action forwarded
        for p in players:
            p.start()
        time.sleep(0.5)
        assert servers[1].http.post(f"/api/tables/{code}/start", json={"token": tokens[0]}).status_code == 200
        store = Store(pg_url)
        while not reached(store, code, 30):
            time.sleep(0.02)
        with psycopg.connect(pg_url, autocommit=True) as admin:
            ended = admin.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                  "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchone()
        assert ended is not None and ended[0] >= 4  # each process listens and notifies on its own
        for p in players:
            p.join()
            assert p.done and p.error is None, (p.error, p.log[-5:], servers[1].printed()[-1500:])
        store.close()
        assert stored_actions(pg_url, code) == expected
    finally:
        for s in servers:
            s.stop()
    assert "reconnected" in servers[1].printed(), servers[1].printed()[-2000:]
