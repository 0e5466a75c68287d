"""Text a client sends that JSON allows but Unicode does not (a lone surrogate, ``"\\ud800"``) is
refused at the edge with a 400 naming the field, and nothing is stored: before, a name like that
was stored, and every later read of its table failed, and its game could never be recorded."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import client_fixture, create, join, state, store_fixture  # noqa: F401 (fixtures)
from starlette.testclient import TestClient

from callbreak.core.wellformed import ill_formed_text
from callbreak.store import Store

BAD = "x\ud800y"  # json.dumps writes it as the escape "x\\ud800y", which json.loads accepts


def post(client: TestClient, path: str, body: dict[str, Any]) -> Any:
    return client.post(path, content=json.dumps(body), headers={"content-type": "application/json"})


def tables(store: Store) -> int:
    return len(store.load_games("lobby", "playing", "over"))


def test_a_table_made_with_an_ill_formed_name_is_refused_and_not_made(client: TestClient, store: Store) -> None:
    before = tables(store)
    for body in ({"name": BAD, "settings": {"bots": "random"}},
                 {"name": "Ann", "settings": {"bots": "random", "preset": BAD}},
                 {"name": "Ann", "settings": {BAD: 1}}):
        r = post(client, "/api/tables", body)
        assert r.status_code == 400 and r.json()["error"] == "malformed", r.text
        assert "well-formed" in r.json()["message"]
    assert "'name'" in post(client, "/api/tables", {"name": BAD}).json()["message"]
    assert tables(store) == before


def test_joining_with_an_ill_formed_name_takes_no_seat_and_the_table_still_answers(client: TestClient) -> None:
    made = create(client, bots="random")
    code = made["code"]
    r = post(client, f"/api/tables/{code}/join", {"name": BAD, "seat": 1})
    assert r.status_code == 400 and r.json()["error"] == "malformed", r.text
    assert client.get(f"/api/tables/{code}").status_code == 200
    seats = state(client, code, made["token"])["table"]["seats"]
    assert [s["kind"] for s in seats].count("human") == 1
    assert join(client, code, "Bo", seat=1)["seat"] == 1
    # The table plays on and can be recorded: start it and read it again.
    assert client.post(f"/api/tables/{code}/start", json={"token": made["token"]}).status_code == 200
    assert client.get(f"/api/tables/{code}").status_code == 200


@pytest.mark.parametrize("action", ["state", "action", "hint", "start", "stop", "seat", "rematch", "handoff"])
def test_an_ill_formed_token_gets_a_clear_400_not_a_crash(client: TestClient, action: str) -> None:
    made = create(client, bots="random")
    r = post(client, f"/api/tables/{made['code']}/{action}", {"token": BAD})
    assert r.status_code == 400 and r.json()["error"] == "malformed", r.text
    assert "'token'" in r.json()["message"]


def test_a_websocket_hello_with_an_ill_formed_token_is_answered_and_the_socket_stays(client: TestClient) -> None:
    made = create(client, bots="random")
    with client.websocket_connect(f"/ws/{made['code']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": BAD}))
        m = ws.receive_json()
        assert m["type"] == "error" and m["code"] == "malformed" and "'token'" in m["message"], m
        ws.send_text(json.dumps({"type": "hello", "token": made["token"]}))
        assert ws.receive_json()["seat"] == 0


def test_the_other_text_posts_refuse_it_too(client: TestClient) -> None:
    for path, body in (("/api/play-now", {"name": BAD}), ("/api/sheets", {"players": ["Ann", BAD]}),
                       ("/api/sheets/check", {"players": [BAD]})):
        r = post(client, path, body)
        assert r.status_code == 400 and r.json()["error"] == "malformed", (path, r.text)


# Any text JSON can carry: Hypothesis's text leaves lone surrogates out unless asked (its
# characters() excludes category Cs by default), and non-characters and controls are kept in.
ANY_TEXT = st.text(st.characters(exclude_categories=()))
JSON = st.recursive(st.none() | st.booleans() | st.integers() | ANY_TEXT,
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                        st.text(st.characters(exclude_categories=()), max_size=4), inner, max_size=4),
                    max_leaves=12)


@given(JSON)
def test_ill_formed_exactly_when_the_text_cannot_be_encoded(data: Any) -> None:
    """Over JSON values whose text includes lone surrogates, the check agrees with UTF-8."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
        encodable = True
    except UnicodeEncodeError:
        encodable = False
    assert (ill_formed_text(data) is None) == encodable


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])  # (each example counts afresh)
@given(name=ANY_TEXT, seat_name=ANY_TEXT)
def test_any_name_makes_a_table_or_a_clear_refusal_and_its_table_stays_readable(
        client: TestClient, store: Store, name: str, seat_name: str) -> None:
    """Whatever text a client gives as a name (surrogates, non-characters, controls): 200 or a
    400 naming what was wrong, never a 500; a refused name stores nothing, and a table made
    stays readable to everyone."""
    before = tables(store)
    r = post(client, "/api/tables", {"name": name, "settings": {"bots": "random"}})
    assert r.status_code in (200, 400), r.text
    if r.status_code == 400:
        assert r.json()["error"] in ("malformed", "bad_name") and r.json()["message"], r.text
        assert tables(store) == before
        return
    code = r.json()["code"]
    joined = post(client, f"/api/tables/{code}/join", {"name": seat_name})
    assert joined.status_code in (200, 400), joined.text
    assert client.get(f"/api/tables/{code}").status_code == 200
    assert state(client, code)["table"]["code"] == code

