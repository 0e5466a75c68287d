"""Reviews of finished web games: started once, judged in worker processes with progress, stored."""

from __future__ import annotations

import time

import pytest
from server_helpers import client_fixture, create, store_fixture  # noqa: F401 (fixtures)
from starlette.testclient import TestClient
from test_server_history import play_out

from callbreak.server.app import create_app
from callbreak.store import Store


def _wait_done(client: TestClient, code: str) -> dict:  # type: ignore[type-arg]
    seen_running = False
    while True:
        r = client.get(f"/api/history/{code}/review")
        assert r.status_code == 200, r.text
        body = r.json()
        if body["status"] == "done":
            body["seen_running"] = seen_running
            return body
        assert body["status"] == "running", body
        assert 0 <= body["done"] <= body["total"]
        seen_running = True
        time.sleep(0.05)


@pytest.mark.process
def test_a_finished_game_is_reviewed_once_in_the_background_and_kept(client: TestClient,
                                                                      store: Store) -> None:
    table = create(client, deals=1, bots="random")
    code, token = table["code"], table["token"]
    assert client.post(f"/api/history/{code}/review").status_code == 404  # not finished yet
    client.post(f"/api/tables/{code}/start", json={"token": token})
    play_out(client, code, token)
    assert client.get(f"/api/history/{code}/review").json() == {"status": "none"}
    started = client.post(f"/api/history/{code}/review")
    assert started.status_code == 200 and started.json()["status"] in ("running", "done")
    # The event loop is free while the workers judge: the lobby answers, and the loop's watch
    # saw no stall in which the loop thread computed (the judging is not on it).
    assert client.get("/api/meta").status_code == 200
    body = _wait_done(client, code)
    loop = client.get("/healthz").json()["loop"]
    # (the test client's own machinery runs on the loop thread too, and on a busy machine it can
    # compute past the threshold: what must never be on the loop is the judging)
    judging = [s for s in loop["recent"] if s["cpu"] > loop["threshold"] and "review" in s["running"]]
    assert not judging, loop
    review = body["review"]
    assert review["format"] == "callbreak-review" and len(review["summary"]) == 4
    assert len(review["decisions"]) == 4 + 52  # every call and every card
    assert {d["label"] for d in review["decisions"]} <= {"best", "good", "inaccuracy", "mistake",
                                                         "blunder", "forced", "not judged"}
    # Asked again, here or by a new server on the same database: the stored review, at once.
    assert client.post(f"/api/history/{code}/review").json()["review"] == review
    with TestClient(create_app(store, practice=True)) as again:
        assert again.get(f"/api/history/{code}/review").json() == {"status": "done",
                                                                    "review": review}


@pytest.mark.process
def test_related_games_are_reviewed_by_their_search_bot(client: TestClient, store: Store) -> None:
    """Donut and Batak Koz Maca tables, finished, are reviewed as Call Break's are (worker
    processes, progress, stored), judged by the search bot."""
    from test_server_related_games import play_through

    for game, players in (("donut", 4), ("batak-koz-maca", 4)):
        code, _ = play_through(client, game, players, 1, seed=7)
        assert client.get(f"/api/history/{code}/review").json() == {"status": "none"}
        started = client.post(f"/api/history/{code}/review")
        assert started.status_code == 200, started.text
        review = _wait_done(client, code)["review"]
        assert review["game"] == game and review["judge"] == "search"
        assert len(review["summary"]) == players
        stored = store.load_game(code)
        assert stored is not None
        moves = [a for a in stored.actions if a["type"] not in ("deal", "choose_dealer", "draw")]
        assert len(review["decisions"]) == len(moves)  # every seat's every decision
        judged = [d for d in review["decisions"] if d["label"] not in ("forced", "not judged")]
        assert judged and {d["kind"] for d in judged} == {"call", "play"}
        assert client.post(f"/api/history/{code}/review").json()["review"] == review
