"""Playing: every action is checked (token, seat, turn, legality, version) and refusals change nothing."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from server_helpers import SeatClient, client_fixture, create, join, state, store_fixture  # noqa: F401 (fixtures)
from sqlalchemy.exc import OperationalError
from starlette.testclient import TestClient

from callbreak.server import engines
from callbreak.server.app import create_app
from callbreak.server.wire import MAX_MESSAGE_BYTES, MessageError
from callbreak.store import Store


def four_humans(client: TestClient, **settings: Any) -> tuple[str, list[str]]:
    """A started table with four people; returns the code and their tokens by seat."""
    made = create(client, **settings)
    tokens = [made["token"]] + [join(client, made["code"], n)["token"] for n in ("Bob", "Cat", "Dan")]
    r = client.post(f"/api/tables/{made['code']}/start", json={"token": made["token"]})
    assert r.status_code == 200
    return made["code"], tokens


def act(client: TestClient, code: str, token: str, version: Any, action: Any) -> Any:
    return client.post(f"/api/tables/{code}/action", json={"token": token, "version": version, "action": action})


def test_every_rejection_names_the_reason_and_changes_nothing(client: TestClient, store: Store) -> None:
    code, tokens = four_humans(client, deals=1)
    s = state(client, code)
    version, to_act = s["version"], s["view"]["to_act"]
    me = tokens[to_act]
    other = tokens[(to_act + 1) % 4]
    call = {"type": "call", "tricks": 3}
    stored_before = len(store.load_game(code).actions)  # type: ignore[union-attr]
    cases = [
        (act(client, code, "not-a-token", version, call), 403, "bad_token"),
        (act(client, code, other, version, {**call, "seat": (to_act + 1) % 4}), 409, "not_your_turn"),
        (act(client, code, me, version, {**call, "seat": (to_act + 1) % 4}), 400, "wrong_seat"),
        (act(client, code, me, version - 1, call), 409, "stale"),
        (act(client, code, me, version + 1, call), 409, "stale"),
        (act(client, code, me, None, call), 400, "malformed"),
        (act(client, code, me, version, {"type": "call", "tricks": 14}), 409, "illegal"),
        (act(client, code, me, version, {"type": "play", "card": "AS"}), 409, "illegal"),
        (act(client, code, me, version, {"type": "call", "tricks": "three"}), 400, "malformed"),
        (act(client, code, me, version, {"type": "deal", "hands": []}), 400, "malformed"),
        (act(client, code, me, version, "AS"), 400, "malformed"),
    ]
    for response, status, error in cases:
        assert (response.status_code, response.json()["error"]) == (status, error), response.json()
        assert response.json()["message"]
    after = state(client, code)
    assert after["version"] == version and after["view"] == s["view"]
    assert len(store.load_game(code).actions) == stored_before  # type: ignore[union-attr]
    # And the right action from the right seat at the right version goes through.
    r = act(client, code, me, version, call)
    assert r.status_code == 200 and r.json()["version"] == version + 1
    assert r.json()["view"]["calls"][to_act] == 3
    assert len(store.load_game(code).actions) == stored_before + 1  # type: ignore[union-attr]


def test_refusals_count_seats_from_1_and_show_no_python_value(client: TestClient) -> None:
    """A player reads the refusal: seats as the page numbers them (its Seat 1 is seat 0), and no
    action copied in as a Python dict."""
    code, tokens = four_humans(client, deals=1)
    s = state(client, code)
    version, to_act = s["version"], s["view"]["to_act"]
    other = (to_act + 1) % 4
    turn = act(client, code, tokens[other], version, {"type": "call", "tricks": 3}).json()
    assert turn["error"] == "not_your_turn"
    assert f"seat {to_act + 1}'s turn, not seat {other + 1}'s" in turn["message"], turn
    wrong = act(client, code, tokens[to_act], version, {"type": "call", "tricks": 3, "seat": other}).json()
    assert wrong["message"] == f"your token is for seat {to_act + 1}, not seat {other + 1}", wrong
    bad = act(client, code, tokens[to_act], version, {"type": "call", "tricks": "three"}).json()
    assert bad["error"] == "malformed" and "{" not in bad["message"] and "'type'" not in bad["message"], bad


def test_an_illegal_card_is_refused_during_play(client: TestClient) -> None:
    code, tokens = four_humans(client, deals=1)
    for _ in range(4):  # everyone calls the minimum
        s = state(client, code)
        seat = s["view"]["to_act"]
        assert act(client, code, tokens[seat], s["version"], {"type": "call", "tricks": 1}).status_code == 200
    s = state(client, code)
    leader = s["view"]["to_act"]
    mine = state(client, code, tokens[leader])["view"]
    assert act(client, code, tokens[leader], s["version"], {"type": "play", "card": mine["hand"][0]}).status_code == 200
    s = state(client, code)
    seat = s["view"]["to_act"]
    view = state(client, code, tokens[seat])["view"]
    legal = {a["card"] for a in view["legal"]}
    illegal = [c for c in view["hand"] if c not in legal]
    not_mine = next(c for c in ("AS", "KS", "QS", "JS", "10S") if c not in view["hand"] and c not in s["view"]["trick"])
    r = act(client, code, tokens[seat], s["version"], {"type": "play", "card": not_mine})
    assert r.status_code == 409 and r.json()["error"] == "illegal" and "does not hold" in r.json()["message"]
    if illegal:
        r = act(client, code, tokens[seat], s["version"], {"type": "play", "card": illegal[0]})
        assert r.status_code == 409 and r.json()["error"] == "illegal"
    assert state(client, code)["version"] == s["version"]


def test_websocket_refuses_bad_messages_and_keeps_the_connection(client: TestClient) -> None:
    made = create(client, bots="random", deals=1, bot_delay=0)
    code, token = made["code"], made["token"]
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_text(json.dumps({"type": "action", "token": token}))
        assert ws.receive_json()["code"] == "hello_first"
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        assert ws.receive_json() == {"type": "welcome", "seat": 0, "code": code}
        assert ws.receive_json()["type"] == "state"
        for raw, code_name in [
            ("{nope", "malformed"),
            ("[1, 2]", "malformed"),
            (json.dumps({"no": "type"}), "malformed"),
            (json.dumps({"type": "dance"}), "unknown_type"),
            ("x" * (MAX_MESSAGE_BYTES + 1), "too_large"),
            ("[" * (MAX_MESSAGE_BYTES - 1), "malformed"),  # nested too deeply for the parser
            (json.dumps({"type": "action", "token": token, "version": 0, "action": {"type": "call", "tricks": 1}}),
             "not_playing"),
            (json.dumps({"type": "start", "token": "wrong"}), "not_host"),
        ]:
            ws.send_text(raw)
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["code"] == code_name, (raw[:40], reply)
        ws.send_bytes(b"\xff\xfe")
        assert ws.receive_json()["code"] == "malformed"
        # Still connected and working: start, then play a stale and a good action.
        ws.send_text(json.dumps({"type": "start", "token": token}))
        m = ws.receive_json()
        while m["view"] is None or m["view"]["to_act"] != 0:
            m = ws.receive_json()
        ws.send_text(json.dumps({"type": "action", "token": token, "version": m["version"] - 1,
                                 "action": {"type": "call", "tricks": 2}}))
        assert ws.receive_json()["code"] == "stale"
        ws.send_text(json.dumps({"type": "action", "token": token, "version": m["version"],
                                 "action": {"type": "call", "tricks": 2}}))
        m = ws.receive_json()
        assert m["type"] == "state" and m["view"]["calls"][0] == 2


def test_a_spectator_sees_no_hand_and_cannot_act(client: TestClient) -> None:
    made = create(client, bots="random", deals=1)
    client.post(f"/api/tables/{made['code']}/start", json={"token": made["token"]})
    with client.websocket_connect(f"/ws/{made['code']}") as ws:
        ws.send_text(json.dumps({"type": "hello"}))
        assert ws.receive_json()["seat"] is None
        m = ws.receive_json()
        assert m["you"] is None and m["view"]["hand"] is None and m["view"]["legal"] == []
        ws.send_text(json.dumps({"type": "action", "version": m["version"], "action": {"type": "call", "tricks": 1}}))
        assert _answer(ws)["code"] == "bad_token"
        ws.send_text(json.dumps({"type": "hello", "token": "forged"}))
        assert _answer(ws)["code"] == "unknown_type"


def _answer(ws: Any) -> dict[str, Any]:
    """The answer to what a socket sent, past the states the bots' moves send meanwhile."""
    while (m := ws.receive_json())["type"] == "state":
        pass
    return m  # type: ignore[no-any-return]


def test_hint_gives_a_legal_action_with_a_reason(client: TestClient) -> None:
    made = create(client, bots="random", deals=1)
    code, token = made["code"], made["token"]
    client.post(f"/api/tables/{code}/start", json={"token": token})
    while (view := state(client, code, token)["view"])["to_act"] != 0:
        time.sleep(0.02)
    r = client.post(f"/api/tables/{code}/hint", json={"token": token})
    assert r.status_code == 200
    hint = r.json()
    assert hint["action"] in view["legal"] and hint["reason"]
    r = client.post(f"/api/tables/{code}/hint", json={"token": "nope"})
    assert r.status_code == 403


def test_a_hint_that_fails_is_an_error_and_the_connection_stays(client: TestClient,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    made = create(client, bots="random", deals=1)
    code, token = made["code"], made["token"]

    def broken(*_args: Any) -> Any:
        raise RuntimeError("the bot fell over")

    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        ws.send_text(json.dumps({"type": "start", "token": token}))
        while (m := ws.receive_json())["type"] != "state" or m["view"] is None or m["view"]["to_act"] != 0:
            pass
        monkeypatch.setattr(engines, "decide", broken)
        ws.send_text(json.dumps({"type": "hint", "token": token}))
        while (reply := ws.receive_json())["type"] == "state":
            pass
        assert reply["type"] == "error" and reply["code"] == "unavailable" and "hint" in reply["message"]
        ws.send_text(json.dumps({"type": "ping"}))  # still connected
        while (reply := ws.receive_json())["type"] == "state":
            pass
        assert reply == {"type": "pong"}
    r = client.post(f"/api/tables/{code}/hint", json={"token": token})
    assert r.status_code == 503 and r.json()["error"] == "unavailable"


def wait_for(check: Any) -> Any:
    """``check()``'s first true answer (a hang is the per-test timeout's)."""
    while not (result := check()):
        time.sleep(0.05)
    return result


def test_turn_timer_plays_the_default_action_for_a_player_who_waits(client: TestClient) -> None:
    made = create(client, bots="random", deals=1, timer=1)
    code, token = made["code"], made["token"]
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        ws.send_text(json.dumps({"type": "start", "token": token}))
        started = None
        while True:
            m = ws.receive_json()
            if m["type"] == "state" and m["view"] and m["view"]["to_act"] == 0 and m["view"]["phase"] == "call":
                started = time.monotonic()
                assert m["clock"]["kind"] == "timer" and 0 < m["clock"]["left"] <= 1
                break
        while True:  # we do nothing: the timer calls the minimum for us
            m = ws.receive_json()
            if m["type"] == "state" and m["view"]["calls"][0] is not None:
                break
        assert m["view"]["calls"][0] == 1
        assert time.monotonic() - started > 0.8  # not before the timer (a busy machine only delays it)
        # The table is told what the clock did, and for whom.
        assert m["notices"] == [{"version": m["version"], "seat": 0, "why": "timer",
                                 "action": {"type": "call", "seat": 0, "tricks": 1}}]


@pytest.mark.slow
def test_an_absent_player_keeps_the_seat_a_bot_plays_and_they_come_back(client: TestClient) -> None:
    made = create(client, bots="random", deals=1, timer=1)
    code, token = made["code"], made["token"]
    bob = SeatClient(client, code, join(client, code, "Bob", seat=2)["token"])
    bob.start()  # Bob stays at the table and plays his turns
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        ws.send_text(json.dumps({"type": "start", "token": token}))
        while (m := ws.receive_json())["type"] != "state" or m["view"] is None:  # she leaves once it started
            assert m["type"] != "error", m
    # Ann is gone: a stand-in bot calls and plays for seat 0 when its timer runs out.
    wait_for(lambda: len(state(client, code)["view"]["tricks"]) >= 1)
    assert state(client, code)["table"]["seats"][0]["connected"] is False
    # What was played in her name is on the table's notices, for her to see when she is back:
    # her call and the card of the first trick, played by a stand-in bot.
    mine = [n for n in state(client, code)["notices"] if n["seat"] == 0]
    assert [n["action"]["type"] for n in mine][:2] == ["call", "play"] and {n["why"] for n in mine} == {"away"}
    assert not [n for n in state(client, code)["notices"] if n["seat"] != 0]  # Bob and the bots played
    # Back with the same token: the seat, the hand and the turn are hers again.
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        assert ws.receive_json()["seat"] == 0
        m = ws.receive_json()
        assert m["you"] == 0 and m["view"]["hand"] is not None
        assert m["table"]["seats"][0]["connected"] is True
        while m["type"] != "state" or m["view"]["to_act"] != 0 or not m["view"]["legal"]:
            m = ws.receive_json()
        card = m["view"]["legal"][0]
        ws.send_text(json.dumps({"type": "action", "token": token, "version": m["version"], "action": card}))
        while (m := ws.receive_json())["type"] != "state":
            pass
        assert m["version"] > 0
    bob.join()
    assert bob.error is None


@pytest.mark.slow
def test_a_table_everyone_left_waits_and_resumes_when_someone_returns(client: TestClient) -> None:
    made = create(client, bots="random", deals=1, timer=2)
    code, token = made["code"], made["token"]
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        ws.send_text(json.dumps({"type": "start", "token": token}))
        while (m := ws.receive_json()).get("view") is None or m["view"]["to_act"] != 0:
            pass
    paused = state(client, code)["version"]
    time.sleep(3)  # more than the turn timer: nobody is there, so nothing moves
    assert state(client, code)["version"] == paused
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        ws.receive_json()
        back = time.monotonic()
        # Back at the table, the turn starts afresh: the whole timer, not the time already gone.
        m = ws.receive_json()
        assert m["type"] == "state" and m["version"] == paused and m["view"]["to_act"] == 0
        assert m["clock"]["kind"] == "timer" and m["clock"]["left"] > 1.5
        # Then the timer runs out and plays the default call.
        while (m := ws.receive_json())["type"] != "state" or m["version"] == paused:
            pass
        assert m["view"]["calls"][0] == 1
        assert time.monotonic() - back > 1.5


def test_rematch_seats_the_same_people_at_a_new_table(client: TestClient) -> None:
    made = create(client, bots="random", deals=1)
    code, token = made["code"], made["token"]
    bob = join(client, code, "Bob", seat=1)["token"]  # never connects: plays over HTTP
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        ws.send_text(json.dumps({"type": "start", "token": token}))
        while True:
            m = ws.receive_json()
            if m["type"] != "state" or m["view"] is None:
                continue
            if m["view"]["phase"] == "over":
                break
            if m["view"]["to_act"] == 0 and m["view"]["legal"]:
                ws.send_text(json.dumps({"type": "action", "token": token, "version": m["version"],
                                         "action": m["view"]["legal"][0]}))
            elif m["view"]["to_act"] == 1:
                mine = state(client, code, bob)
                if mine["view"]["to_act"] == 1:
                    act(client, code, bob, mine["version"], mine["view"]["legal"][0])
        assert len(m["view"]["results"]) == 1 and m["view"]["winners"]
        ws.send_text(json.dumps({"type": "rematch", "token": token}))
        while (m := ws.receive_json())["type"] != "rematch":
            pass
    assert m["seat"] == 0
    # Bob was not there when the host asked for the rematch: coming back, he is sent on.
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": bob}))
        while (late := ws.receive_json())["type"] != "rematch":
            pass
    assert late == {"type": "rematch", "code": m["code"], "seat": 1}
    new = client.get(f"/api/tables/{m['code']}").json()
    assert new["status"] == "lobby" and new["seats"][0]["name"] == "Ann" and new["host_seat"] == 0
    assert new["seats"][1]["name"] == "Bob"
    # Each keeps their seat key: Bob's holds seat 1 there, Ann's is the host's.
    assert state(client, m["code"], bob)["you"] == 1
    assert client.post(f"/api/tables/{m['code']}/start", json={"token": token}).status_code == 200


def test_a_player_back_after_a_restart_is_sent_to_the_rematch_and_no_one_else_is(store: Store) -> None:
    """The finished table is gone from memory (the server restarted): a seated player's hello at
    its code still finds the rematch, from the store; a watcher or a wrong token does not."""
    with TestClient(create_app(store, practice=True)) as client:
        code, tokens = four_humans(client, deals=1)
        while (s := state(client, code))["view"]["phase"] != "over":
            seat = s["view"]["to_act"]
            mine = state(client, code, tokens[seat])
            act(client, code, tokens[seat], mine["version"], mine["view"]["legal"][0])
        r = client.post(f"/api/tables/{code}/rematch", json={"token": tokens[0]})
        assert r.status_code == 200
        new_code = r.json()["code"]
    with TestClient(create_app(store, practice=True)) as client:
        for seat in (2, 0):
            with client.websocket_connect(f"/ws/{code}") as ws:
                ws.send_text(json.dumps({"type": "hello", "token": tokens[seat]}))
                assert ws.receive_json() == {"type": "rematch", "code": new_code, "seat": seat}
        for token in (None, "not-a-seat-key"):
            with client.websocket_connect(f"/ws/{code}") as ws:
                ws.send_text(json.dumps({"type": "hello", "token": token}))
                refused = ws.receive_json()
            assert refused["type"] == "error" and refused["code"] == "no_table"
        assert state(client, new_code, tokens[2])["you"] == 2
        assert client.post(f"/api/tables/{new_code}/start", json={"token": tokens[0]}).status_code == 200


def test_the_same_action_sent_again_is_played_once_and_answered_as_played(client: TestClient,
                                                                           store: Store) -> None:
    """A retry of an action already played (its answer was lost) is not refused as stale: it is
    answered with the table as it is, and stored once; another action at that version is stale."""
    code, tokens = four_humans(client, deals=1)
    s = state(client, code)
    version, seat = s["version"], s["view"]["to_act"]
    call = {"type": "call", "tricks": 3}
    assert act(client, code, tokens[seat], version, call).status_code == 200
    again = act(client, code, tokens[seat], version, call)
    assert again.status_code == 200 and again.json()["version"] == version + 1
    other = act(client, code, tokens[seat], version, {"type": "call", "tricks": 4})
    assert other.status_code == 409 and other.json()["error"] == "stale"
    stored = store.load_game(code).actions  # type: ignore[union-attr]
    assert len(stored) == version + 1 and stored[version]["tricks"] == 3


def test_a_process_that_no_longer_runs_a_table_stores_nothing_for_it(client: TestClient,
                                                                     store: Store) -> None:
    """Once a table is another process's (a replica here), an action that still reaches this
    process's table directly (a bot's answer that comes late) is refused, and nothing is stored."""
    code, tokens = four_humans(client, deals=1)
    s = state(client, code)
    seat = s["view"]["to_act"]
    service = client.app.state.service  # type: ignore[attr-defined]
    table = service.tables[code]
    stored = len(store.load_game(code).actions)  # type: ignore[union-attr]
    table.replica = True
    with pytest.raises(MessageError) as refused:
        service.act(code, tokens[seat], s["version"], {"type": "call", "tricks": 2})
    assert refused.value.code == "unavailable"
    assert len(store.load_game(code).actions) == stored  # type: ignore[union-attr]
    assert table.version == s["version"]


def test_an_action_the_store_cannot_save_is_refused_and_not_played(client: TestClient, store: Store,
                                                                     monkeypatch: Any) -> None:
    from callbreak.store import StoreError

    code, tokens = four_humans(client, deals=1)
    s = state(client, code)
    seat = s["view"]["to_act"]

    def broken(*_args: Any, **_kwargs: Any) -> None:
        raise StoreError("disk full")

    monkeypatch.setattr(store, "append_action", broken)
    r = act(client, code, tokens[seat], s["version"], {"type": "call", "tricks": 2})
    assert r.status_code == 503 and r.json()["error"] == "unavailable"
    assert state(client, code) == s
    monkeypatch.undo()
    r = act(client, code, tokens[seat], s["version"], {"type": "call", "tricks": 2})
    assert r.status_code == 200 and r.json()["view"]["calls"][seat] == 2


def test_a_deal_the_store_cannot_save_is_dealt_once_it_can(client: TestClient, store: Store,
                                                           monkeypatch: Any) -> None:
    """The store goes away just as the cards are to be dealt (here: at the start; the same at
    the end of every deal). What the player did stands and the table says so; the deal follows by
    itself once the store takes it, once, instead of the table waiting for ever."""
    import time

    from callbreak.store import StoreError

    made = create(client, deals=1)
    code = made["code"]
    for name in ("Bob", "Cat", "Dan"):
        join(client, code, name)
    real = store.append_action
    refused: list[str] = []

    def flaky(game_id: int, seq: int, action: dict[str, Any], epoch: int | None = None, memories: Any = None) -> None:
        if action["type"] in ("choose_dealer", "deal") and len(refused) < 3:
            refused.append(action["type"])
            raise StoreError("the connection to the database was lost")
        real(game_id, seq, action, epoch, memories)

    monkeypatch.setattr(store, "append_action", flaky)
    r = client.post(f"/api/tables/{code}/start", json={"token": made["token"]})
    assert r.status_code == 200, r.text  # the start was stored; the deal is the server's to do
    while (s := state(client, code, made["token"]))["view"]["phase"] != "call":
        time.sleep(0.1)
    assert len(refused) == 3 and len(s["view"]["hand"]) == 13
    kinds = [a["type"] for a in store.load_game(code).actions]  # type: ignore[union-attr]
    assert kinds.count("deal") == 1 and kinds.count("choose_dealer") <= 1


def test_a_game_end_the_store_cannot_record_is_recorded_once_it_can(client: TestClient, store: Store,
                                                                    monkeypatch: Any) -> None:
    """The store goes away as the last card is played: the card stands, the game is over for
    the players, and the result is recorded by itself once the store takes it."""
    import time

    made = create(client, deals=1, bots="random")
    code, token = made["code"], made["token"]
    assert client.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200
    real = store.finish_game
    refused: list[int] = []

    def flaky(game_id: int, results: list[dict[str, Any]]) -> None:
        if len(refused) < 2:
            refused.append(game_id)
            # (what SQLAlchemy raises when the database goes away mid-write)
            raise OperationalError("UPDATE games ...", {}, ConnectionError("the connection to the database was lost"))
        real(game_id, results)

    monkeypatch.setattr(store, "finish_game", flaky)
    while (s := state(client, code, token))["view"]["phase"] != "over":
        view = s["view"]
        if view["to_act"] == 0 and view["legal"]:
            ordinary = [a for a in view["legal"] if a["type"] != "look" and not a.get("blind")]
            r = client.post(f"/api/tables/{code}/action",
                            json={"token": token, "version": s["version"], "action": ordinary[0]})
            assert r.status_code == 200, r.text  # the last card too
        time.sleep(0.002)
    while (stored := store.load_game(code)) is None or stored.status != "over":
        time.sleep(0.1)
    assert len(refused) == 2


def test_a_players_action_is_verified_once_on_its_way_in(client: TestClient, monkeypatch: Any) -> None:
    """Checked before it is stored, applied after without a second check (issue 53: it was
    verified, stored, then verified again by the engine's apply)."""
    from callbreak.core.match import Match

    code, tokens = four_humans(client, deals=1)
    s = state(client, code)
    seat = s["view"]["to_act"]
    checks: list[object] = []
    real = Match._verify_contract  # (where a call is checked, whichever way it comes in)

    def counted(self: Match, action: Any) -> None:
        checks.append(action)
        real(self, action)

    monkeypatch.setattr(Match, "_verify_contract", counted)
    r = act(client, code, tokens[seat], s["version"], {"type": "call", "tricks": 2})
    assert r.status_code == 200 and r.json()["view"]["calls"][seat] == 2
    assert len(checks) == 1, checks
    # An illegal one is still refused, by that one check, and changes nothing.
    s = state(client, code)
    r = act(client, code, tokens[s["view"]["to_act"]], s["version"], {"type": "call", "tricks": 99})
    assert r.status_code == 409 and r.json()["error"] == "illegal" and state(client, code) == s


def play_out(client: TestClient, code: str, token: str) -> None:
    """Play the seat of ``token`` (its first ordinary legal action) until the game is over."""
    from server_helpers import choose

    while (s := state(client, code, token))["view"]["phase"] != "over":
        action = choose(s["view"])
        if action is not None:
            act(client, code, token, s["version"], action)
        else:
            time.sleep(0.01)


def test_every_call_of_a_game_with_bots_is_checked_once(client: TestClient, monkeypatch: Any) -> None:
    """A bot's answer is judged against the view it decided from and checked by the engine once,
    on its way to the store, as a person's action is (it was checked twice)."""

    from callbreak.core.actions import Call
    from callbreak.core.match import Match

    checks: list[object] = []
    real = Match._verify_contract

    def counted(self: Match, action: Any) -> None:
        checks.append((self, action))
        real(self, action)

    monkeypatch.setattr(Match, "_verify_contract", counted)
    made = create(client, deals=1, bots="random")
    code, token = made["code"], made["token"]
    assert client.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200
    play_out(client, code, token)
    table = client.app.state.service.get(code).match  # type: ignore[attr-defined]
    # (the end of the game replays it in a new match of its own to score each deal: not counted)
    calls = [a for m, a in checks if m is table and isinstance(a, Call)]
    assert len(calls) == 4 and len(set(calls)) == 4  # four calls, each checked once


def test_every_step_of_a_table_goes_through_its_one_referee(client: TestClient) -> None:
    """A person's actions, the bots' and the deals are all applied by the table's referee
    (callbreak/referee.py; a step taken past it would go unheard): the one referee of the game
    hears each action once and scores each deal, as the arena's and the terminal's do."""
    from callbreak.referee import DealScored, Event, Moved

    made = create(client, deals=2, bots="random")
    code, token = made["code"], made["token"]
    assert client.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200
    table = client.app.state.service.get(code)  # type: ignore[attr-defined]
    referee, begun = table.referee, table.version
    heard: list[Event] = []
    referee.listeners.append(heard.append)
    play_out(client, code, token)
    assert table.referee is referee
    moved = [e.action for e in heard if isinstance(e, Moved)]
    assert moved == table.match.history[begun:]  # each action once, in order
    assert sum(isinstance(e, DealScored) for e in heard) == len(referee.deal_points) == 2
    assert [sum(p) for p in zip(*referee.deal_points, strict=True)] == [round(10 * x) for x in table.match.scores]
