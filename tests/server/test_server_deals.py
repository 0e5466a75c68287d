"""Deals no client can choose: every table's deals come from the server's own randomness; a
client's seed is refused unless the server runs for practice, and practice tables are labelled and
kept out of the leaderboard and statistics."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from server_helpers import store_fixture  # noqa: F401 (fixture)
from starlette.testclient import TestClient
from test_server_history import play_out

from callbreak.server.app import create_app
from callbreak.store import Store

SETTINGS = {"preset": "callbreak", "deals": 1, "bots": "random", "bot_delay": 0, "timer": None}


@pytest.fixture(name="public")
def public_fixture(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store, practice=False)) as c:
        yield c


def _table(client: TestClient, seed: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"name": "Ann", "settings": SETTINGS}
    if seed is not None:
        body["seed"] = seed
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def _first_hand(client: TestClient, made: dict[str, Any]) -> list[str]:
    code, token = made["code"], made["token"]
    assert client.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200
    view = client.post(f"/api/tables/{code}/state", json={"token": token}).json()["view"]
    return sorted(view["hand"])


def test_two_tables_made_with_the_same_request_deal_different_hands(public: TestClient) -> None:
    hands = [_first_hand(public, _table(public)) for _ in range(3)]
    assert len({tuple(h) for h in hands}) == 3


def test_a_client_seed_is_refused_and_nothing_is_created(public: TestClient, store: Store) -> None:
    r = public.post("/api/tables", json={"name": "Ann", "settings": SETTINGS, "seed": 42})
    assert r.status_code == 400
    assert r.json()["error"] == "seed_refused" and "server alone" in r.json()["message"]
    assert store.load_games("lobby", "playing") == []
    assert public.get("/api/meta").json()["practice"] is False


def test_a_practice_server_labels_seeded_tables_and_keeps_them_out_of_the_statistics(store: Store) -> None:
    with TestClient(create_app(store, practice=True)) as client:
        made = _table(client, seed=7)
        assert made["table"]["practice"] is True and "practice (seeded)" in made["table"]["title"]
        again = _table(client, seed=7)
        assert _first_hand(client, made) == _first_hand(client, again)  # the seed decides the deal
        real = _table(client)  # unseeded: a real table, counted
        assert real["table"]["practice"] is False
        _first_hand(client, real)
        for table in (made, again, real):
            play_out(client, table["code"], table["token"])
        history = client.get("/api/history").json()["games"]
        practice = {g["code"]: g["practice"] for g in history}
        assert practice == {made["code"]: True, again["code"]: True, real["code"]: False}
        stats = client.get("/api/stats").json()["players"]
        ann = [p for p in stats if p["name"] == "Ann"]
        assert len(ann) == 1 and ann[0]["games"] == 1  # only the unseeded table counts
