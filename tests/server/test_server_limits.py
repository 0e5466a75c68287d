"""The limits a public server needs (issue 30): per guest identity and per address, new tables a
minute, unfinished tables at once and websocket messages a second; a server-wide ceiling on live
tables with bots; tables never started expire. Every refusal is coded and says when to retry.
The live-table limits hold when a client sends its requests all at once (issue 55): each waits
for the store and for its bots to be built, and they are still counted one after another."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import pg_url_fixture, store_fixture  # noqa: F401 (fixtures)
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_server_history import play_out
from test_server_restart import Server

from callbreak.server import engines
from callbreak.server.app import create_app
from callbreak.server.limits import Gate, Limits
from callbreak.server.reviews import ReviewJobs
from callbreak.store import Store

OFF = {"tables_per_minute": 0, "tables_per_minute_per_address": 0, "live_tables": 0,
       "live_tables_per_address": 0, "messages_per_second": 0, "messages_per_second_per_address": 0,
       "hints_per_minute": 0, "hints_per_minute_per_address": 0, "reviews_per_hour_per_address": 0,
       "reviews_at_once": 0, "live_bot_tables": 0, "bot_table_share": 0, "lobby_expiry": 0, "abandon_after": 0}
SETTINGS = {"preset": "callbreak", "deals": 1, "bots": "random", "bot_delay": 0}


def guest(n: int) -> str:
    return f"guest-{n:012d}"


@pytest.fixture
def served(store: Store) -> Iterator[Any]:
    """An app factory: ``served(live_tables=2)`` is a client of an app with only that limit on."""
    clients: list[TestClient] = []

    def make(**on: float) -> TestClient:
        client = TestClient(create_app(store, limits=Limits(**{**OFF, **on})))  # type: ignore[arg-type]
        clients.append(client)
        return client.__enter__()

    yield make
    for c in clients:
        c.__exit__(None, None, None)


def new_table(client: TestClient, who: str | None = None, **settings: Any) -> httpx.Response:
    body: dict[str, Any] = {"name": "Ann", "settings": {**SETTINGS, **settings}}
    if who is not None:
        body["guest"] = who
    return client.post("/api/tables", json=body)


def at_one_instant(client: TestClient) -> None:
    """The app counts every websocket message as sent at one instant, so that what a limit lets
    through is its burst alone: by the clock, a slow machine refills the bucket between messages."""
    gate = client.app.state.service.gate  # type: ignore[attr-defined]
    count = gate.message
    gate.message = lambda who, *, now: count(who, now=0.0)


def refused(r: httpx.Response, code: str, status: int = 429) -> int:
    """Check a refusal's status, code and Retry-After; returns the seconds to wait."""
    assert r.status_code == status and r.json()["error"] == code, r.text
    wait = int(r.headers["Retry-After"])
    assert wait >= 1 and r.json()["retry_after"] == wait
    return wait


def test_new_tables_a_minute_per_guest(served: Any) -> None:
    client = served(tables_per_minute=3)
    for _ in range(3):
        assert new_table(client, guest(1)).status_code == 200
    wait = refused(new_table(client, guest(1)), "too_many_tables")
    assert 55 <= wait <= 60
    assert new_table(client, guest(2)).status_code == 200  # someone else is not held up


def test_new_tables_a_minute_per_address(served: Any) -> None:
    client = served(tables_per_minute_per_address=3)
    for n in range(3):
        assert new_table(client, guest(n)).status_code == 200
    refused(new_table(client, guest(9)), "too_many_tables")  # a fresh identity, the same address
    refused(new_table(client), "too_many_tables")  # no identity at all


def test_live_tables_per_guest_until_one_ends(served: Any) -> None:
    client = served(live_tables=2, lobby_expiry=3600)
    made = [new_table(client, guest(1)).json() for _ in range(2)]
    assert refused(new_table(client, guest(1)), "too_many_live_tables") >= 1
    assert new_table(client, guest(2)).status_code == 200
    # A table that ends (here: never started, expired) frees its place.
    service = client.app.state.service  # type: ignore[attr-defined]
    service.tables[made[0]["code"]].created_at -= 7200
    assert service.expire_lobbies() == 1
    assert new_table(client, guest(1)).status_code == 200


def test_live_tables_per_address(served: Any) -> None:
    client = served(live_tables_per_address=2)
    assert new_table(client, guest(1)).status_code == 200
    assert new_table(client, guest(2)).status_code == 200
    refused(new_table(client, guest(3)), "too_many_live_tables")


def test_the_ceiling_on_live_bot_tables_and_the_lobby_says_when_full(served: Any) -> None:
    client = served(live_bot_tables=2)
    assert client.get("/api/capacity").json() == {"bot_tables": 0, "ceiling": 2, "full": False}
    assert new_table(client, guest(1)).status_code == 200
    assert new_table(client, guest(2)).status_code == 200
    assert client.get("/api/capacity").json() == {"bot_tables": 2, "ceiling": 2, "full": True}
    assert client.get("/api/meta").json()["capacity"]["full"] is True
    wait = refused(new_table(client, guest(3)), "server_full", status=503)
    assert wait == 60
    assert "full" in new_table(client, guest(3)).json()["message"]
    metrics = client.get("/metrics").text
    assert 'callbreak_refusals_total{code="server_full"} 2.0' in metrics


def test_websocket_messages_a_second(served: Any) -> None:
    client = served(messages_per_second=5)
    at_one_instant(client)
    made = new_table(client, guest(1)).json()
    with client.websocket_connect(f"/ws/{made['code']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": made["token"]}))
        for _ in range(30):
            ws.send_text(json.dumps({"type": "ping"}))
        replies = []
        while len([m for m in replies if m["type"] in ("pong", "error")]) < 30:
            replies.append(json.loads(ws.receive_text()))
    pongs = [m for m in replies if m["type"] == "pong"]
    limited = [m for m in replies if m["type"] == "error" and m["code"] == "rate_limited"]
    # A burst of twice the rate gets through (the hello came before the seat's bucket counted),
    # the rest is dropped, each with when to send again; the socket stays open.
    assert len(pongs) == 10 and len(limited) == 20, replies
    assert all(m["retry_after"] >= 1 for m in limited)


def test_websocket_messages_a_second_per_address(served: Any) -> None:
    client = served(messages_per_second_per_address=3)
    at_one_instant(client)
    made = new_table(client, guest(1)).json()
    errors = 0
    with client.websocket_connect(f"/ws/{made['code']}") as a, client.websocket_connect(f"/ws/{made['code']}") as b:
        for ws in (a, b):
            ws.send_text(json.dumps({"type": "hello", "token": None}))
        for _ in range(5):
            for ws in (a, b):
                ws.send_text(json.dumps({"type": "ping"}))
        for ws in (a, b):
            answered = 0
            while answered < 5:
                m = json.loads(ws.receive_text())
                if m["type"] in ("pong", "error"):
                    answered += 1
                    errors += m["type"] == "error" and m["code"] == "rate_limited"
    assert errors == 6  # 12 messages from one address (the hellos too), 6 at once allowed


def test_a_table_never_started_expires_and_is_removed(served: Any, store: Store) -> None:
    client = served(lobby_expiry=0.5)
    lobby = new_table(client, guest(1)).json()
    started = new_table(client, guest(2)).json()
    assert client.post(f"/api/tables/{started['code']}/start", json={"token": started["token"]}).status_code == 200
    with client.websocket_connect(f"/ws/{lobby['code']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": lobby["token"]}))
        while (m := json.loads(ws.receive_text()))["type"] != "closed":
            pass  # (until then; a hang is the per-test timeout's)
    assert "never started" in m["message"]
    assert client.get(f"/api/tables/{lobby['code']}").json()["error"] == "no_table"
    assert store.load_game(lobby["code"]) is None  # gone from the database too
    assert client.get(f"/api/tables/{started['code']}").status_code == 200


@pytest.mark.process
@pytest.mark.slow
def test_a_client_making_expert_tables_in_a_loop_is_refused_at_once_and_the_database_stays_small(
        tmp_path: Path) -> None:
    """The issue's careless client (it made 6,538 tables of four experts in 10 s), against
    ``callbreak serve`` with its default limits. "Refused within its first seconds" is counted in
    requests, not seconds (a busy machine must not fail a test): refused once it has its
    allowance of live tables with bots, at its 11th, and at every one after."""
    db = tmp_path / "loop.db"
    server = Server(f"sqlite:///{db}", practice=False, limits=True)
    allowance = min(Limits().live_tables_per_address, Limits().tables_per_minute_per_address,
                    Gate(Limits()).share())  # (its tables have bots: its share of the ceiling counts)
    try:
        answers = []
        for _ in range(allowance + 20):
            r = server.http.post("/api/tables", json={"name": "Flood", "settings": {
                "preset": "callbreak", "bots": ["expert"] * 4}}, timeout=120)
            answers.append((r.status_code, r.json().get("error"), r.headers.get("Retry-After")))
        assert [status for status, _, _ in answers[:allowance]] == [200] * allowance, answers
        refused = answers[allowance:]
        assert all(status == 429 and retry is not None for status, _, retry in refused), refused
        assert {code for _, code, _ in refused} <= {"too_many_tables", "too_many_live_tables", "fair_share"}, refused
    finally:
        server.stop()
    size = sum(p.stat().st_size for p in tmp_path.glob("loop.db*"))
    assert size < 2_000_000, size


def test_operator_settings_come_from_the_environment_then_the_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Limits.from_env() == Limits()  # the defaults
    monkeypatch.setenv("CALLBREAK_TABLES_PER_MINUTE", "4")
    monkeypatch.setenv("CALLBREAK_MESSAGES_PER_SECOND", "2.5")
    limits = Limits.from_env(live_bot_tables=7)
    assert (limits.tables_per_minute, limits.messages_per_second, limits.live_bot_tables) == (4, 2.5, 7)
    assert isinstance(limits.tables_per_minute, int)
    monkeypatch.setenv("CALLBREAK_NO_LIMITS", "1")
    monkeypatch.delenv("CALLBREAK_TABLES_PER_MINUTE")
    off = Limits.from_env()  # every limit off, then what is set one by one
    assert off == Limits(**{**OFF, "lobby_expiry": Limits().lobby_expiry,  # type: ignore[arg-type]
                            "abandon_after": Limits().abandon_after, "messages_per_second": 2.5})


def test_one_client_may_hold_only_its_share_of_the_ceiling(served: Any) -> None:
    """A few clients cannot fill the server (issue 55): a tenth of a ceiling of 20 is 2 bot tables
    per guest and per address, counted as tables end too."""
    client = served(live_bot_tables=20, bot_table_share=0.1, lobby_expiry=3600)
    made = [new_table(client, guest(1)).json() for _ in range(2)]
    refused(new_table(client, guest(1)), "fair_share")
    r = new_table(client, guest(2))  # another guest, from the same address (this test client's)
    refused(r, "fair_share")
    assert "your address has 2 of this server's 20 tables" in r.json()["message"]
    service = client.app.state.service  # type: ignore[attr-defined]
    service.tables[made[0]["code"]].created_at -= 7200
    assert service.expire_lobbies() == 1
    assert new_table(client, guest(2)).status_code == 200


def test_a_started_table_everyone_left_ends_and_no_longer_counts(served: Any, store: Store) -> None:
    """Without a turn timer, a table whose people have all gone waits for them; after
    ``abandon_after`` it ends (issue 55): stored as abandoned, no longer live, its maker free to
    make another. A table with someone at it never ends so."""
    client = served(live_tables=2, abandon_after=0.5)
    left = new_table(client, guest(1)).json()
    assert client.post(f"/api/tables/{left['code']}/start", json={"token": left["token"]}).status_code == 200
    stayed = new_table(client, guest(1)).json()
    refused(new_table(client, guest(1)), "too_many_live_tables")
    with client.websocket_connect(f"/ws/{stayed['code']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": stayed["token"]}))
        ws.send_text(json.dumps({"type": "start", "token": stayed["token"]}))
        while not ((m := ws.receive_json())["type"] == "state" and m["view"] and m["view"]["to_act"] == 0):
            pass  # (until it is this seat's turn: the table waits for it, with its person there)
        while (found := store.load_game(left["code"])) is not None and found.status == "playing":
            time.sleep(0.05)  # (a hang is the per-test timeout's)
        assert found is not None and found.status == "abandoned"
        assert found.actions  # the moves made so far are kept
        assert client.get(f"/api/tables/{left['code']}").json()["error"] == "no_table"
        assert client.get(f"/api/tables/{stayed['code']}").json()["status"] == "playing"
        assert new_table(client, guest(1)).status_code == 200  # the ended one no longer counts


def at_my_turn(client: TestClient, who: str) -> tuple[str, str, dict[str, Any]]:
    """A started table of one person and three random bots, at the person's turn: its code, the
    person's token and their view."""
    made = new_table(client, who).json()
    code, token = made["code"], made["token"]
    assert client.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200
    return code, token, my_turn(client, code, token)


def my_turn(client: TestClient, code: str, token: str) -> dict[str, Any]:
    while not ((view := client.post(f"/api/tables/{code}/state", json={"token": token}).json()["view"])
               and view["to_act"] == 0 and view["legal"]):
        time.sleep(0.02)  # (a hang is the per-test timeout's)
    return view  # type: ignore[no-any-return]


def hints_worked_out(client: TestClient) -> float:
    metrics = client.get("/metrics").text
    return sum(float(line.split()[-1]) for line in metrics.splitlines()
               if line.startswith('callbreak_bot_decision_seconds_count{bot="expert"}'))


def test_asking_for_a_hint_again_on_the_same_turn_is_free_and_a_new_one_counts(served: Any) -> None:
    """Hints are the strongest bot's work, a client's to ask for (issue 55): a seat asking ten
    times at once on one turn gets one answer, worked out once; its hints a minute count the
    turns it asked on."""
    client = served(hints_per_minute=1)
    code, token, view = at_my_turn(client, guest(1))
    with ThreadPoolExecutor(10) as pool:
        answers = list(pool.map(lambda _: client.post(f"/api/tables/{code}/hint", json={"token": token}),
                                range(10)))
    assert {r.status_code for r in answers} == {200}
    assert len({r.text for r in answers}) == 1 and answers[0].json()["action"] in view["legal"]
    assert hints_worked_out(client) == 1
    played = client.post(f"/api/tables/{code}/action", json={"token": token, "version": answers[0].json()["version"],
                                                            "action": answers[0].json()["action"]})
    assert played.status_code == 200, played.text
    my_turn(client, code, token)
    r = client.post(f"/api/tables/{code}/hint", json={"token": token})
    assert refused(r, "too_many_hints") > 1 and "a minute for one seat" in r.json()["message"]
    with client.websocket_connect(f"/ws/{code}") as ws:  # the same, asked on the table's socket
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        ws.send_text(json.dumps({"type": "hint", "token": token}))
        while (m := ws.receive_json())["type"] != "error":
            pass
        assert m["code"] == "too_many_hints" and m["retry_after"] > 1
    assert hints_worked_out(client) == 1
    # Each refusal counted once, where it is answered (HTTP or the socket).
    assert 'callbreak_refusals_total{code="too_many_hints"} 2.0' in client.get("/metrics").text


def test_hints_a_minute_per_address(served: Any) -> None:
    client = served(hints_per_minute_per_address=1)
    first = at_my_turn(client, guest(1))
    second = at_my_turn(client, guest(2))  # another seat, at another table, from the same address
    assert client.post(f"/api/tables/{first[0]}/hint", json={"token": first[1]}).status_code == 200
    r = client.post(f"/api/tables/{second[0]}/hint", json={"token": second[1]})
    assert refused(r, "too_many_hints") >= 1 and "from one address" in r.json()["message"]


def test_a_table_works_out_one_hint_at_a_time(served: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint still being worked out when its seat has played and asks again, on its next turn:
    the new one is refused for a moment, not queued behind it (a bounded queue per table)."""
    client = served()
    code, token, view = at_my_turn(client, guest(1))
    release = threading.Event()
    decide = engines.decide

    def slow_hint(*args: Any) -> Any:
        if threading.current_thread().name.startswith("hint"):
            release.wait()  # (until the test lets it go)
        return decide(*args)

    monkeypatch.setattr(engines, "decide", slow_hint)
    with ThreadPoolExecutor(1) as pool:
        first = pool.submit(client.post, f"/api/tables/{code}/hint", json={"token": token})
        while client.app.state.service.tables[code].hinting is None:  # type: ignore[attr-defined]
            time.sleep(0.02)
        played = client.post(f"/api/tables/{code}/action", json={
            "token": token, "version": client.post(f"/api/tables/{code}/state", json={"token": token}).json()["version"],
            "action": view["legal"][0]})
        assert played.status_code == 200, played.text
        my_turn(client, code, token)
        r = client.post(f"/api/tables/{code}/hint", json={"token": token})
        assert refused(r, "hint_busy") == 1
        release.set()
        assert first.result().status_code == 200  # (the first asker still gets its answer)
    assert client.post(f"/api/tables/{code}/hint", json={"token": token}).status_code == 200


# --- requests at once (issue 55): each counted after the one before it, however they interleave

def at_once(count: int, post: Callable[[int], httpx.Response]) -> Counter[tuple[int, str | None]]:
    """``count`` requests sent together from as many threads: how many got each (status, error)."""
    with ThreadPoolExecutor(count) as pool:
        answers = list(pool.map(post, range(count)))
    return Counter((r.status_code, r.json().get("error")) for r in answers)


def body(who: str | None) -> dict[str, Any]:
    made: dict[str, Any] = {"name": "Ann", "settings": SETTINGS}
    if who is not None:
        made["guest"] = who
    return made


def live_tables(store: Store) -> int:
    with store.engine.connect() as conn:
        return int(conn.exec_driver_sql("SELECT count(*) FROM games WHERE status IN ('lobby', 'playing')")
                   .scalar_one())


def test_one_guest_at_once_gets_its_live_tables_and_no_more(served: Any, store: Store) -> None:
    client = served(live_tables=3)
    answers = at_once(24, lambda _: client.post("/api/tables", json=body(guest(1))))
    assert answers == {(200, None): 3, (429, "too_many_live_tables"): 21}, answers
    assert live_tables(store) == 3  # a refused table is not stored


def test_one_address_at_once_gets_its_live_tables_and_no_more(served: Any, store: Store) -> None:
    client = served(live_tables_per_address=4)
    answers = at_once(24, lambda n: client.post("/api/tables", json=body(guest(n) if n % 2 else None)))
    assert answers == {(200, None): 4, (429, "too_many_live_tables"): 20}, answers
    assert live_tables(store) == 4


def test_the_ceiling_holds_when_many_clients_make_tables_at_once(served: Any, store: Store) -> None:
    client = served(live_bot_tables=3)
    answers = at_once(24, lambda n: client.post("/api/tables", json=body(guest(n))))
    assert answers == {(200, None): 3, (503, "server_full"): 21}, answers
    assert live_tables(store) == 3
    assert client.get("/api/capacity").json() == {"bot_tables": 3, "ceiling": 3, "full": True}


# A real server's limits, with the per-minute ones off: the live ones alone are raced here.
LIVE_ONLY = {"CALLBREAK_TABLES_PER_MINUTE": "0", "CALLBREAK_TABLES_PER_MINUTE_PER_ADDRESS": "0",
             "CALLBREAK_LIVE_TABLES": "5", "CALLBREAK_LIVE_TABLES_PER_ADDRESS": "20", "CALLBREAK_BOT_TABLE_SHARE": "0",
             "CALLBREAK_HANDOVER": "0"}


def race(servers: list[Server], count: int, who: Callable[[int], str | None]) -> Counter[tuple[int, str | None]]:
    """``count`` new tables asked for at once, spread over ``servers`` in turn."""
    return at_once(count, lambda n: servers[n % len(servers)].http.post("/api/tables", json=body(who(n)),
                                                                         timeout=60))


@pytest.mark.process
def test_a_real_server_counts_64_requests_at_once_one_by_one(tmp_path: Any) -> None:
    """The issue's case: 64 new tables at once from one guest made 10 (limit 5); then 40 from the
    same address without a guest made 30 (limit 20)."""
    db = f"sqlite:///{tmp_path / 'raced.db'}"
    server = Server(db, practice=False, env=LIVE_ONLY, limits=True)
    store = Store(db)
    try:
        assert race([server], 64, lambda _: guest(1)) == {(200, None): 5, (429, "too_many_live_tables"): 59}
        assert race([server], 40, lambda _: None) == {(200, None): 15, (429, "too_many_live_tables"): 25}
        assert live_tables(store) == 20
    finally:
        store.close()
        server.stop()


@pytest.mark.process
@pytest.mark.postgres
def test_two_processes_on_postgresql_count_one_clients_requests_at_once_together(pg_url: str) -> None:
    servers = [Server(pg_url, practice=False, env=LIVE_ONLY, limits=True) for _ in range(2)]
    store = Store(pg_url)
    try:
        assert race(servers, 64, lambda _: guest(1)) == {(200, None): 5, (429, "too_many_live_tables"): 59}
        assert race(servers, 40, lambda _: None) == {(200, None): 15, (429, "too_many_live_tables"): 25}
        assert live_tables(store) == 20
    finally:
        store.close()
        for s in servers:
            s.stop()


# --- slow clients (issue 55): headers, body and hello each within a time ----------------------


def test_a_websocket_that_never_says_hello_is_closed_in_time(served: Any) -> None:
    """Whatever it sends meanwhile: the hello is due within ``hello`` seconds of connecting."""
    client = served(hello=0.5)
    made = new_table(client, guest(1)).json()
    with client.websocket_connect(f"/ws/{made['code']}") as ws:
        ws.send_text(json.dumps({"type": "ping"}))
        assert ws.receive_json()["code"] == "hello_first"  # refused, and the clock runs on
        last = ws.receive_json()
        assert last["code"] == "hello_first" and "no hello within 0.5 s" in last["message"]
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


@pytest.mark.process
def test_a_real_server_cuts_off_requests_whose_headers_or_body_are_too_slow(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'slow.db'}", env={"CALLBREAK_READ_HEADERS": "1",
                                                              "CALLBREAK_READ_BODY": "1"})
    try:
        with socket.create_connection(("127.0.0.1", server.port)) as headers, \
                socket.create_connection(("127.0.0.1", server.port)) as body:
            headers.sendall(b"GET /api/meta HTTP/1.1\r\nHost: slow\r\n")  # ...and the rest never
            body.sendall(b"POST /api/tables HTTP/1.1\r\nHost: slow\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 100\r\n\r\n{\"name\": ")  # 10 of its 100 bytes
            assert server.http.get("/api/meta").status_code == 200  # others are served meanwhile
            assert headers.recv(1024) == b""  # closed, with nothing said: no request was made
            answer = b""
            while chunk := body.recv(4096):
                answer += chunk
                if b"}" in answer:
                    break
        head, _, text = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408"), answer
        assert json.loads(text)["error"] == "too_slow" and "within 1 s" in json.loads(text)["message"]
        store = Store(f"sqlite:///{tmp_path / 'slow.db'}")
        assert store.load_games("lobby") == []  # the slow request made nothing
        store.close()
    finally:
        server.stop()


# --- reviews (issue 55): bot work a client can ask for, counted -----------------------------


def finished_games(client: TestClient, count: int) -> list[str]:
    codes = []
    for n in range(count):
        code, token, _ = at_my_turn(client, guest(100 + n))
        play_out(client, code, token)
        codes.append(code)
    return codes


@pytest.fixture
def reviews_never_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reviews started stay under way (no worker process judges them): what is counted is the
    asking."""
    async def judged_forever(self: ReviewJobs, *_args: Any) -> None:
        await asyncio.Event().wait()

    monkeypatch.setattr(ReviewJobs, "_run", judged_forever)


@pytest.mark.usefixtures("reviews_never_end")
def test_reviews_an_hour_per_address_count_only_new_ones(served: Any) -> None:
    client = served(reviews_per_hour_per_address=2)
    first, second, third = finished_games(client, 3)
    for code in (first, first, second, second):  # asking for one under way again is free
        r = client.post(f"/api/history/{code}/review")
        assert r.status_code == 200 and r.json()["status"] == "running", r.text
    r = client.post(f"/api/history/{third}/review")
    assert refused(r, "too_many_reviews") > 60 and "2 reviews an hour" in r.json()["message"]


@pytest.mark.usefixtures("reviews_never_end")
def test_reviews_under_way_at_once_have_a_ceiling(served: Any) -> None:
    client = served(reviews_at_once=1)
    first, second = finished_games(client, 2)
    assert client.post(f"/api/history/{first}/review").status_code == 200
    assert refused(client.post(f"/api/history/{second}/review"), "reviews_busy", status=503) == 60
