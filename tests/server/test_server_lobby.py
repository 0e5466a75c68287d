"""Lobby API: create, join by code, pick seats, start with bots, and every refusal."""

from __future__ import annotations

from collections.abc import Iterator

from server_helpers import client_fixture, create, join, state, store_fixture  # noqa: F401 (fixtures)
from starlette.testclient import TestClient

from callbreak.bots import describe
from callbreak.server.app import MAX_BODY_BYTES
from callbreak.server.tables import CODE_ALPHABET, CODE_LENGTH


def test_create_gives_an_unguessable_code_a_link_and_a_host_token(client: TestClient) -> None:
    made = create(client)
    code = made["code"]
    assert len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
    assert made["link"] == f"/t/{code}" and made["seat"] == 0 and len(made["token"]) >= 24
    other = create(client)
    assert other["code"] != code
    lobby = client.get(f"/api/tables/{code}").json()
    assert lobby["status"] == "lobby" and lobby["host_seat"] == 0
    assert [s["kind"] for s in lobby["seats"]] == ["human", "open", "open", "open"]
    assert made["token"] not in client.get(f"/api/tables/{code}").text
    assert "token" not in str(lobby["seats"])


def test_join_by_code_in_any_case_with_hyphens_and_pick_a_seat(client: TestClient) -> None:
    code = create(client)["code"]
    typed = f"{code[:4].lower()}-{code[4:8]}-{code[8:]}"
    bob = join(client, typed, "Bob", seat=2)
    assert bob["seat"] == 2
    cat = join(client, code, "  Cat  ")
    assert cat["seat"] == 1
    seats = client.get(f"/api/tables/{code}").json()["seats"]
    assert [(s["name"], s["kind"]) for s in seats] == [("Ann", "human"), ("Cat", "human"),
                                                      ("Bob", "human"), ("", "open")]
    # Moving to another open seat before the start.
    r = client.post(f"/api/tables/{code}/seat", json={"token": cat["token"], "seat": 3})
    assert r.status_code == 200 and r.json()["seats"][3]["name"] == "Cat"


def test_join_refusals_change_nothing(client: TestClient) -> None:
    code = create(client)["code"]
    join(client, code, "Bob", seat=1)
    before = client.get(f"/api/tables/{code}").json()
    cases = [
        ({"name": "Dan", "seat": 1}, 409, "seat_taken"),
        ({"name": "Dan", "seat": 7}, 400, "bad_seat"),
        ({"name": "", "seat": 2}, 400, "bad_name"),
        ({"name": "x" * 40}, 400, "bad_name"),
        ({"seat": 2}, 400, "bad_name"),
    ]
    for payload, status, error in cases:
        r = client.post(f"/api/tables/{code}/join", json=payload)
        assert (r.status_code, r.json()["error"]) == (status, error), payload
        assert r.json()["message"]
    assert client.get(f"/api/tables/{code}").json() == before
    r = client.post("/api/tables/NOSUCHCODE22/join", json={"name": "Dan"})
    assert r.status_code == 404 and r.json()["error"] == "no_table"
    r = client.post(f"/api/tables/{code}/join", content=b"{not json")
    assert r.status_code == 400 and r.json()["error"] == "malformed"
    r = client.post(f"/api/tables/{code}/join", content=b"[" * 5000)  # too deep for the JSON parser
    assert r.status_code == 400 and r.json()["error"] == "malformed" and "nested" in r.json()["message"]
    assert client.get(f"/api/tables/{code}").json() == before


def test_an_oversized_request_body_is_refused_and_changes_nothing(client: TestClient) -> None:
    code = create(client)["code"]
    before = client.get(f"/api/tables/{code}").json()
    padded = {"name": "Bob", "seat": 1, "padding": "x" * (MAX_BODY_BYTES + 1)}
    r = client.post(f"/api/tables/{code}/join", json=padded)
    assert r.status_code == 413 and r.json()["error"] == "too_large" and str(MAX_BODY_BYTES) in r.json()["message"]

    def chunked() -> Iterator[bytes]:  # no Content-Length: the limit holds while reading
        yield b'{"name": "Bob", "seat": 1, "padding": "'
        for _ in range(20):
            yield b"x" * 4096
        yield b'"}'

    r = client.post(f"/api/tables/{code}/join", content=chunked())
    assert r.status_code == 413 and r.json()["error"] == "too_large"
    assert client.get(f"/api/tables/{code}").json() == before
    # Just under the limit is an ordinary request.
    r = client.post(f"/api/tables/{code}/join", json={**padded, "padding": "x" * (MAX_BODY_BYTES - 100)})
    assert r.status_code == 200 and r.json()["seat"] == 1


def test_a_bad_query_parameter_gets_the_usual_error_shape(client: TestClient) -> None:
    r = client.get("/api/history?limit=abc")
    assert r.status_code == 400 and r.json()["error"] == "malformed" and "limit" in r.json()["message"]


def test_full_table_and_started_table_refuse_joins(client: TestClient) -> None:
    made = create(client, bots="random")
    code = made["code"]
    for name in ("B", "C", "D"):
        join(client, code, name)
    r = client.post(f"/api/tables/{code}/join", json={"name": "E"})
    assert r.status_code == 409 and r.json()["error"] == "full"
    made2 = create(client, bots="random")
    client.post(f"/api/tables/{made2['code']}/start", json={"token": made2["token"]})
    r = client.post(f"/api/tables/{made2['code']}/join", json={"name": "E"})
    assert r.status_code == 409 and r.json()["error"] == "started"


def test_bad_settings_are_refused_with_the_reason(client: TestClient) -> None:
    cases = [
        ({"preset": "nope"}, "has no preset 'nope'"),
        ({"options": {"min_call": 20}}, "min_call"),
        ({"options": {"colour": "red"}}, "colour"),
        ({"deals": 0}, "deals"),
        ({"timer": 0.1}, "timer"),
        ({"bots": ["random", "random"]}, "bots"),
        ({"bots": "grandmaster"}, "grandmaster"),
        # The table's own settings would silently win over these, so they are refused.
        ({"deals": 1, "options": {"deals": 3}}, "'deals'"),
        ({"options": {"turn_timer": 30}}, "'timer'"),
    ]
    for settings, words in cases:
        r = client.post("/api/tables", json={"name": "Ann", "settings": settings})
        assert r.status_code == 400, settings
        assert r.json()["error"] == "bad_config" and words in r.json()["message"], r.json()
    assert client.app.state.service.tables == {}  # type: ignore[attr-defined]  # nothing was created


def test_only_the_host_starts_and_bots_take_the_open_seats(client: TestClient) -> None:
    made = create(client, bots=["random", "random", "heuristic", "random"], deals=1)
    code = made["code"]
    bob = join(client, code, "Bob", seat=1)
    r = client.post(f"/api/tables/{code}/start", json={"token": bob["token"]})
    assert r.status_code == 403 and r.json()["error"] == "not_host"
    assert client.get(f"/api/tables/{code}").json()["status"] == "lobby"
    r = client.post(f"/api/tables/{code}/start", json={"token": made["token"]})
    assert r.status_code == 200
    seats = r.json()["seats"]
    assert [s["kind"] for s in seats] == ["human", "human", "bot", "bot"]
    assert [s["bot"] for s in seats[2:]] == ["heuristic", "random"]
    view = state(client, code, made["token"])["view"]
    assert view["phase"] == "call" and len(view["hand"]) == 13


def test_presets_and_bot_levels_are_listed(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert "callbreak" in [p["name"] for p in meta["presets"]]
    callbreak, donut = (next(g for g in meta["games"] if g["name"] == n) for n in ("callbreak", "donut"))
    assert "random" in callbreak["bots"] and callbreak["strongest_bot"] in callbreak["bots"]
    # every bot offered says what it is, as it plays that game
    assert set(callbreak["bot_descriptions"]) == set(callbreak["bots"])
    assert callbreak["bot_descriptions"]["random"] == describe("random")
    assert set(donut["bot_descriptions"]) == set(donut["bots"])
    assert donut["bot_descriptions"]["heuristic"] == describe("heuristic", "donut") != callbreak["bot_descriptions"]["heuristic"]


def test_pages_are_served(client: TestClient) -> None:
    for path in ("/", "/t/ABCDEFGHJKMN", "/s/ABCDEFGHJKMN", "/history", "/stats", "/scorekeeper"):
        r = client.get(path)
        assert r.status_code == 200 and "<html" in r.text.lower(), path
