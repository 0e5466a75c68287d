"""A table's websocket fuzzed (issue 44, part 1): whatever a client sends (broken JSON, bytes,
unknown kinds, fields of the wrong type, huge numbers, actions for other seats, old versions
replayed, the host's commands with a stranger's token), the server answers with a coded
refusal or does what a right message asks, and the socket and the table go on: every message
is followed by a ping, which must be answered on the same socket."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import create
from starlette.testclient import TestClient

from callbreak.server.app import create_app
from callbreak.server.limits import Limits
from callbreak.store import Store
from fuzzing import JSON

KINDS = st.sampled_from(["action", "hint", "start", "rematch", "stop", "ping", "hello", "dance"]) | JSON
ACTIONS = JSON | st.fixed_dictionaries(
    {"type": st.sampled_from(["call", "play", "look", "stop", "deal", "redeal"]) | JSON},
    optional={"tricks": st.integers(-3, 20) | JSON, "card": st.sampled_from(["AS", "10H", "2C", "XX", ""]) | JSON,
              "seat": st.integers(-2, 5) | JSON, "blind": JSON})


def messages(token: str) -> st.SearchStrategy[str | bytes]:
    """What a client may send: mostly messages of the right shape with wrong parts, and noise."""
    shaped = st.fixed_dictionaries({"type": KINDS}, optional={
        "token": st.just(token) | st.just(token[:-1] + "x") | JSON,
        "version": st.integers(-2, 400) | st.integers() | JSON,
        "action": ACTIONS})
    return st.one_of(shaped.map(json.dumps), st.text(max_size=80), st.binary(max_size=40), JSON.map(json.dumps))


PATCHES = [None, {"seat": 2}, {"card": "AS"}, {"tricks": 13}, {"blind": True}]


def _near_the_game(data: st.DataObject, token: str, state: dict[str, Any]) -> str:
    """A message made from the table as the client last saw it: one of the legal actions, its
    own or with another seat or card, at the current version or an old one: so that the fuzz
    plays the game on and meets the game's own refusals. (What is drawn does not depend on the
    table, only what is made of it: Hypothesis draws the same way each time.)"""
    which, patch = data.draw(st.integers(0, 63)), data.draw(st.sampled_from(PATCHES))
    off, other = data.draw(st.sampled_from([0, 0, -1, 1, None])), data.draw(ACTIONS)
    view, version = state["view"], state["version"]
    legal = view["legal"] if view is not None else []
    action = legal[which % len(legal)] if legal else other
    if patch is not None and isinstance(action, dict):
        action = {**action, **patch}
    return json.dumps({"type": "action", "token": token, "version": 0 if off is None else version + off,
                       "action": action})


def test_whatever_a_client_sends_is_answered_and_the_socket_and_table_go_on(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'fuzz.db'}")
    with TestClient(create_app(store, practice=True, limits=Limits.none())) as client:
        made = create(client, bots="random", deals=2, bot_delay=0)
        code, token = made["code"], made["token"]
        kinds: set[str] = set()
        with client.websocket_connect(f"/ws/{code}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            assert ws.receive_json() == {"type": "welcome", "seat": 0, "code": code}
            seen = {"state": ws.receive_json()}  # the table as the client last saw it
            # The game under way (a stray start is refused, the rest of the fuzz plays it).
            assert client.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200

            @settings(max_examples=int(os.environ.get("FUZZ_N", "300")), deadline=None, database=None,
                      suppress_health_check=[HealthCheck.too_slow])
            @given(data=st.data())
            def each(data: st.DataObject) -> None:
                near, made, noise = data.draw(st.booleans()), _near_the_game(data, token, seen["state"]), data.draw(messages(token))
                sent = made if near else noise
                if isinstance(sent, bytes):
                    ws.send_bytes(sent)
                else:
                    ws.send_text(sent)
                ws.send_text(json.dumps({"type": "ping"}))
                while (reply := ws.receive_json())["type"] != "pong":  # (closed: an exception here)
                    kinds.add(reply["type"] if reply["type"] != "error" else reply["code"])
                    if reply["type"] == "error":
                        assert isinstance(reply["code"], str) and reply["code"], reply
                        assert isinstance(reply["message"], str) and reply["message"], reply
                    else:
                        assert reply["type"] in ("state", "hint", "rematch", "notice", "welcome"), reply
                    if reply["type"] == "state":
                        seen["state"] = reply

            each()
        # The table is whole: it answers, and its game (if the fuzz started it) plays on.
        r = client.post(f"/api/tables/{code}/state", json={"token": token})
        assert r.status_code == 200, r.text
    store.close()
    # (the fuzz reached the game's own refusals and played it, not only the malformed)
    assert {"malformed", "stale", "illegal", "state"} <= kinds, kinds


def test_an_action_whose_type_is_not_a_name_is_refused_and_the_socket_goes_on(tmp_path: Path) -> None:
    """Found by the fuzzing above: an action whose type was a list or an object was looked up
    among the action kinds as it was, and the error closed the socket."""
    store = Store(f"sqlite:///{tmp_path / 'fuzz.db'}")
    with TestClient(create_app(store, practice=True, limits=Limits.none())) as client:
        made = create(client, bots="random", deals=1, bot_delay=0)
        code, token = made["code"], made["token"]
        assert client.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200
        with client.websocket_connect(f"/ws/{code}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            assert ws.receive_json()["type"] == "welcome"
            for kind in ([], {}, ["call"]):
                ws.send_text(json.dumps({"type": "action", "token": token, "version": 0, "action": {"type": kind}}))
                while (reply := ws.receive_json())["type"] != "error":
                    pass
                assert reply["code"] == "malformed", reply
            ws.send_text(json.dumps({"type": "ping"}))
            while ws.receive_json()["type"] != "pong":
                pass
        r = client.post(f"/api/tables/{code}/action", json={"token": token, "version": 0, "action": {"type": {}}})
        assert r.status_code == 400 and r.json()["error"] == "malformed", r.text
    store.close()
