"""Who a player is: a seat moves to another device by a one-time link (the old device loses it),
and the leaderboard counts a browser's guest identity, not a typed name."""

from __future__ import annotations

import json
from typing import Any

from server_helpers import SeatClient, client_fixture, create, join, state, store_fixture  # noqa: F401 (fixtures)
from starlette.testclient import TestClient

GUEST_A, GUEST_B = "a" * 24, "b" * 24


def test_a_seat_moves_to_another_device_and_the_old_one_loses_it(client: TestClient) -> None:
    made = create(client, bots="random", deals=1, guest=GUEST_A)
    code, old = made["code"], made["token"]
    # Only the seat's own token can make the link.
    r = client.post(f"/api/tables/{code}/handoff", json={"token": "not-a-token"})
    assert r.status_code == 403 and r.json()["error"] == "bad_token"
    link = client.post(f"/api/tables/{code}/handoff", json={"token": old}).json()
    assert link["link"] == f"/t/{code}#handoff={link['handoff']}"
    with client.websocket_connect(f"/ws/{code}") as old_device:
        old_device.send_text(json.dumps({"type": "hello", "token": old}))
        assert old_device.receive_json()["seat"] == 0
        # The other device opens the link: the seat is its now.
        claimed = client.post(f"/api/tables/{code}/claim", json={"handoff": link["handoff"]}).json()
        assert claimed["seat"] == 0 and claimed["token"] != old
        messages = [old_device.receive_json() for _ in range(3)]
        moved = [m for m in messages if m["type"] == "moved"]
        assert moved and "another device" in moved[0]["message"]
        assert [m for m in messages if m["type"] == "state"][-1]["you"] is None  # watching now
    # The old token holds nothing; the new one holds the seat and the host's rights.
    r = client.post(f"/api/tables/{code}/state", json={"token": old})
    assert r.status_code == 403 and r.json()["error"] == "bad_token"
    r = client.post(f"/api/tables/{code}/start", json={"token": old})
    assert r.status_code == 403
    assert state(client, code, claimed["token"])["you"] == 0
    assert client.post(f"/api/tables/{code}/start", json={"token": claimed["token"]}).status_code == 200
    # A link works once.
    r = client.post(f"/api/tables/{code}/claim", json={"handoff": link["handoff"]})
    assert r.status_code == 403 and r.json()["error"] == "bad_handoff"


def test_a_handoff_link_is_good_only_at_its_own_table(client: TestClient) -> None:
    first, second = create(client, bots="random"), create(client, bots="random")
    secret = client.post(f"/api/tables/{first['code']}/handoff", json={"token": first["token"]}).json()["handoff"]
    for body in ({"handoff": secret}, {"handoff": ""}, {"handoff": 7}, {}):
        r = client.post(f"/api/tables/{second['code']}/claim", json=body)
        assert r.status_code == 403 and r.json()["error"] == "bad_handoff", body
    assert state(client, second["code"], second["token"])["you"] == 0  # nothing changed


def _finish(client: TestClient, guest: str | None, name: str = "Ann") -> None:
    made = create(client, name=name, seed=None, bots="random", deals=1, guest=guest)  # counted
    player = SeatClient(client, made["code"], made["token"])
    client.post(f"/api/tables/{made['code']}/start", json={"token": made["token"]})
    player.start()
    player.join()
    assert player.error is None and state(client, made["code"])["view"]["phase"] == "over"


def test_two_people_named_ann_are_two_rows_and_one_person_is_one(client: TestClient) -> None:
    _finish(client, GUEST_A)
    _finish(client, GUEST_B)
    _finish(client, GUEST_A)
    board = client.get("/api/stats").json()["leaderboard"]
    anns = sorted((r["games"], r["player"]) for r in board if r["name"] == "Ann")
    assert [games for games, _ in anns] == [1, 2]  # two people, one of them twice
    assert anns[0][1] != anns[1][1] and all(len(p) == 8 for _, p in anns)
    assert GUEST_A not in json.dumps(board) and GUEST_B not in json.dumps(board)  # secrets stay put


def test_a_malformed_guest_identity_is_refused_and_nothing_is_made(client: TestClient) -> None:
    before = client.get("/api/stats").json()
    for guest in ("short", "x" * 65, "has spaces in it ok", 12345, ["a" * 20]):
        body: dict[str, Any] = {"name": "Ann", "settings": {"bots": "random"}, "guest": guest}
        r = client.post("/api/tables", json=body)
        assert r.status_code == 400 and r.json()["error"] == "bad_guest", (guest, r.text)
    made = create(client, bots="random")
    r = client.post(f"/api/tables/{made['code']}/join", json={"name": "Bo", "guest": "no"})
    assert r.status_code == 400 and r.json()["error"] == "bad_guest"
    assert [s["kind"] for s in state(client, made["code"])["table"]["seats"]].count("human") == 1
    assert client.get("/api/stats").json() == before
    assert join(client, made["code"], "Bo")["seat"] == 1  # without an identity: still welcome
