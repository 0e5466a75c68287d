"""Play now (issue 33): people who press it within the wait sit at one table, bots fill the rest
and the game starts; one guest holds one place and one seat; the results count by guest. On
SQLite and on PostgreSQL, and across two real server processes sharing PostgreSQL."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from server_helpers import SeatClient, pg_url_fixture  # noqa: F401 (a fixture)
from sqlalchemy import text
from starlette.testclient import TestClient

from callbreak.server.app import create_app
from callbreak.server.limits import Limits
from callbreak.server.playnow import PlayNowSettings
from callbreak.store import Store

# A wait no test runs into: a test ends a wait when it means to (run_out), not by the clock.
WAIT = 600.0
QUICK = PlayNowSettings(wait=WAIT, deals=1, bot="random", bot_delay=0)
LONG_AGO = datetime(2000, 1, 1)
ANN, BOB, CAT = "guest-ann-0123456789", "guest-bob-0123456789", "guest-cat-0123456789"


@pytest.fixture(name="db", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'quick.db'}"
        return
    yield request.getfixturevalue("pg_url")  # (a fresh database, dropped afterwards)


@pytest.fixture(name="served")
def served_fixture(db: str) -> Iterator[tuple[TestClient, Store]]:
    store = Store(db)
    with TestClient(create_app(store, play_now=QUICK)) as client:
        yield client, store
    store.close()


def ask(client: TestClient, guest: str | None, name: str = "Ann", **more: Any) -> dict[str, Any]:
    r = client.post("/api/play-now", json={"guest": guest, "name": name, **more})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def poll(client: TestClient, ticket: str, guest: str) -> dict[str, Any]:
    r = client.post(f"/api/play-now/{ticket}", json={"guest": guest})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def run_out(store: Store, *tickets: str) -> None:
    """The wait of these places has run out (as the database's clock sees it): bots may fill
    their table's empty seats at the matchmaker's next look."""
    with store.engine.begin() as conn:
        for ticket in tickets:
            conn.execute(text("UPDATE play_now SET due_at = :t WHERE ticket = :k"), {"t": LONG_AGO, "k": ticket})


def seated(client: TestClient, ticket: str, guest: str) -> dict[str, Any]:
    """Poll as the page does until the ticket has its table (the per-test timeout guards it)."""
    while (answer := poll(client, ticket, guest))["status"] == "waiting":
        time.sleep(0.2)
    assert answer["status"] == "seated", answer
    return answer


def refused(r: Any, status: int, code: str) -> str:
    assert (r.status_code, r.json()["error"]) == (status, code), r.text
    return str(r.json()["message"])


def test_two_guests_within_the_wait_share_a_table_with_two_bots_and_count_by_guest(
        served: tuple[TestClient, Store]) -> None:
    client, store = served
    ann = ask(client, ANN, "Ann")
    assert ann["status"] == "waiting" and ann["players"] == ["Ann"] and 0 < ann["seconds_left"] <= WAIT
    assert ann["rules"] == "callbreak"  # the default: Call Break standard
    bob = ask(client, BOB, "Bob")
    # Bob sees who is coming, and Ann does at her next poll: the same group, the same deadline.
    assert bob["players"] == ["Ann", "Bob"]
    assert (bob["you"], bob["seats"]) == (1, 4)
    assert poll(client, ann["ticket"], ANN)["players"] == ["Ann", "Bob"]
    run_out(store, ann["ticket"])  # the group's wait is its first person's
    ann, bob = seated(client, ann["ticket"], ANN), seated(client, bob["ticket"], BOB)
    assert ann["code"] == bob["code"] and (ann["seat"], bob["seat"]) == (0, 1)
    table = client.get(f"/api/tables/{ann['code']}").json()
    assert table["status"] == "playing"
    assert [s["kind"] for s in table["seats"]] == ["human", "human", "bot", "bot"]
    assert [s["name"] for s in table["seats"][:2]] == ["Ann", "Bob"]
    # Each seat token holds its own seat (and only that seat sees that hand).
    for who in (ann, bob):
        r = client.post(f"/api/tables/{who['code']}/state", json={"token": who["token"]})
        assert r.json()["you"] == who["seat"] and len(r.json()["view"]["hand"]) == 13
    players = [SeatClient(client, ann["code"], who["token"]) for who in (ann, bob)]
    for p in players:
        p.start()
    for p in players:
        p.join()
        assert p.error is None and not p.is_alive(), p.error
    stats = client.get("/api/stats").json()["players"]
    people = {r["name"]: r for r in stats if r["kind"] == "human"}
    assert set(people) == {"Ann", "Bob"} and all(r["games"] == 1 for r in people.values())
    assert people["Ann"]["player"] != people["Bob"]["player"] and people["Ann"]["player"] is not None
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM games").scalar_one() == 1
    # The game over, Play now gives a new place.
    again = ask(client, ANN, "Ann")
    assert again["ticket"] != ann["ticket"] and again["status"] == "waiting"


def test_a_lone_guest_gets_three_bots_after_the_wait(served: tuple[TestClient, Store]) -> None:
    client, store = served
    ann = ask(client, ANN, "Ann", rules="nepal-traditional")
    assert ann["players"] == ["Ann"] and ann["title"] == "Nepali house rules"
    run_out(store, ann["ticket"])
    ann = seated(client, ann["ticket"], ANN)
    table = client.get(f"/api/tables/{ann['code']}").json()
    assert table["preset"] == "nepal-traditional" and table["deals"] == 1
    assert [s["kind"] for s in table["seats"]] == ["human", "bot", "bot", "bot"]
    assert table["host_seat"] == 0


def test_one_guest_holds_one_place_and_one_seat(served: tuple[TestClient, Store]) -> None:
    client, store = served
    first = ask(client, ANN, "Ann")
    # A second click, another tab (other rules, another name): the same place.
    second = ask(client, ANN, "Annie", rules="catsatcards")
    assert second["ticket"] == first["ticket"] and second["players"] == ["Ann"]
    assert second["rules"] == "callbreak"
    run_out(store, first["ticket"])
    at = seated(client, first["ticket"], ANN)
    again = ask(client, ANN, "Ann")  # seated at a table not yet over: that table, that seat
    assert (again["ticket"], again["code"], again["seat"], again["token"]) == (
        at["ticket"], at["code"], at["seat"], at["token"])
    table = client.get(f"/api/tables/{at['code']}").json()
    assert [s["kind"] for s in table["seats"]].count("human") == 1
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM games").scalar_one() == 1
        assert conn.exec_driver_sql("SELECT count(*) FROM play_now").scalar_one() == 1


def test_a_guest_who_leaves_is_not_seated(served: tuple[TestClient, Store]) -> None:
    client, store = served
    ann = ask(client, ANN, "Ann")
    r = client.post(f"/api/play-now/{ann['ticket']}/leave", json={"guest": ANN})
    assert r.status_code == 200 and r.json()["status"] == "left", r.text
    ticket = ask(client, BOB, "Bob")["ticket"]
    run_out(store, ticket)
    bob = seated(client, ticket, BOB)  # Bob, after his own wait
    assert client.get(f"/api/tables/{bob['code']}").json()["seats"][1]["kind"] == "bot"
    assert poll(client, ann["ticket"], ANN)["status"] == "left"
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM games").scalar_one() == 1


def test_a_place_whose_page_stopped_asking_is_given_up(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'stale.db'}")
    with TestClient(create_app(store, play_now=QUICK)) as client:
        ann = ask(client, ANN, "Ann")  # and then her tab is closed: she never asks again
        bob = ask(client, BOB, "Bob")
        assert bob["players"] == ["Ann", "Bob"]
        with store.engine.begin() as conn:  # her page last asked long ago (past STALE_SECONDS)
            conn.execute(text("UPDATE play_now SET seen_at = :t WHERE ticket = :k"),
                         {"t": LONG_AGO, "k": ann["ticket"]})
        run_out(store, ann["ticket"], bob["ticket"])
        bob = seated(client, bob["ticket"], BOB)  # Bob's page keeps asking
        table = client.get(f"/api/tables/{bob['code']}").json()
        assert [s["kind"] for s in table["seats"]] == ["human", "bot", "bot", "bot"], "Ann took a seat"
        assert table["seats"][0]["name"] == "Bob"
        assert poll(client, ann["ticket"], ANN)["status"] == "left"
    store.close()


def test_bad_requests_are_refused_with_what_was_wrong(served: tuple[TestClient, Store]) -> None:
    client, store = served
    post = client.post
    message = refused(post("/api/play-now", json={"guest": ANN, "name": "Ann", "rules": "poker"}), 400, "bad_rules")
    assert "'poker'" in message and "callbreak" in message
    # Rules Play now does not offer: no fixed end, so no table of strangers would ever finish.
    assert "'call-bridge'" in refused(post("/api/play-now", json={"guest": ANN, "name": "Ann",
                                                                   "rules": "call-bridge"}), 400, "bad_rules")
    assert "guest" in refused(post("/api/play-now", json={"name": "Ann"}), 400, "bad_guest")
    refused(post("/api/play-now", json={"guest": "short", "name": "Ann"}), 400, "bad_guest")
    refused(post("/api/play-now", json={"guest": ANN, "name": "  "}), 400, "bad_name")
    assert store.waiting_rules() == []  # nothing refused took a place
    ann = ask(client, ANN, "Ann")
    assert "'not-a-ticket'" in refused(post("/api/play-now/not-a-ticket", json={"guest": ANN}), 400, "bad_ticket")
    refused(post("/api/play-now/" + "x" * 22, json={"guest": ANN}), 404, "no_ticket")
    refused(post(f"/api/play-now/{ann['ticket']}", json={"guest": BOB}), 403, "not_your_ticket")
    refused(post(f"/api/play-now/{ann['ticket']}/leave", json={"guest": BOB}), 403, "not_your_ticket")
    refused(post(f"/api/play-now/{ann['ticket']}", json={}), 400, "bad_guest")
    assert poll(client, ann["ticket"], ANN)["status"] in ("waiting", "seated")  # Bob's leave changed nothing


def test_a_new_place_counts_against_the_guests_limit_on_new_tables(tmp_path: Path) -> None:
    off = {f: 0 for f in ("tables_per_minute_per_address", "live_tables", "live_tables_per_address",
                          "messages_per_second", "messages_per_second_per_address", "live_bot_tables")}
    store = Store(f"sqlite:///{tmp_path / 'limits.db'}")
    limits = Limits(tables_per_minute=1, lobby_expiry=0, **off)  # type: ignore[arg-type]
    slow = PlayNowSettings(wait=600, deals=1, bot="random", bot_delay=0)
    with TestClient(create_app(store, limits=limits, play_now=slow)) as client:
        ann = ask(client, ANN, "Ann")
        assert ask(client, ANN, "Ann")["ticket"] == ann["ticket"]  # a place held is no new table
        client.post(f"/api/play-now/{ann['ticket']}/leave", json={"guest": ANN})
        r = client.post("/api/play-now", json={"guest": ANN, "name": "Ann"})
        refused(r, 429, "too_many_tables")
        assert r.headers["Retry-After"]
        assert ask(client, CAT, "Cat")["status"] == "waiting"  # another guest's allowance is their own
    store.close()


@pytest.mark.process
@pytest.mark.postgres
def test_two_processes_seat_people_who_reached_each_at_one_table_made_once(pg_url: str) -> None:
    from test_server_cluster import Player
    from test_server_restart import Server

    env = {"CALLBREAK_PLAY_NOW_WAIT": "600", "CALLBREAK_PLAY_NOW_DEALS": "1", "CALLBREAK_PLAY_NOW_BOT": "random",
           "CALLBREAK_PLAY_NOW_BOT_DELAY": "0", "CALLBREAK_HANDOVER": "0"}
    servers = [Server(pg_url, practice=False, env=env), Server(pg_url, practice=False, env=env)]
    store = Store(pg_url)
    try:
        one, two = (s.http for s in servers)
        ann = one.post("/api/play-now", json={"guest": ANN, "name": "Ann"}).json()
        bob = two.post("/api/play-now", json={"guest": BOB, "name": "Bob"}).json()
        assert bob["players"] == ["Ann", "Bob"], bob  # the other process's person is in the group
        run_out(store, ann["ticket"])
        # Both processes' matchmakers race for the group; each page polls its own process.
        answers = {}
        while len(answers) < 2:
            for http, guest, ticket in ((one, ANN, ann["ticket"]), (two, BOB, bob["ticket"])):
                answer = http.post(f"/api/play-now/{ticket}", json={"guest": guest}).json()
                if answer["status"] == "seated":
                    answers[guest] = answer
            time.sleep(0.2)
        code = answers[ANN]["code"]
        assert answers[BOB]["code"] == code and {answers[ANN]["seat"], answers[BOB]["seat"]} == {0, 1}
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT count(*) FROM games").scalar_one() == 1
            assert conn.exec_driver_sql("SELECT count(*) FROM table_leases").scalar_one() == 1
        # The table runs: both people play it to its end, each on their own process.
        players = [Player([s.port], code, answers[g]["token"], 0) for s, g in zip(servers, (ANN, BOB), strict=True)]
        for p in players:
            p.start()
        for p in players:
            p.join()
            assert p.error is None and p.over, (p.error, p.log)
        stored = store.load_game(code)
        assert stored is not None and [s["kind"] for s in stored.seats] == ["human", "human", "bot", "bot"]
    finally:
        store.close()
        for s in servers:
            s.stop()
