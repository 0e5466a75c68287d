"""The related games (Batak, Snarples, Donut, Horsethief) through the web app's tables.

Whole games are played over websockets by test players, with game bots filling the empty seats;
every message is checked against the stored truth so no seat is ever sent another seat's cards.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from server_helpers import SeatClient, cards_in, client_fixture, create, join, state, store_fixture  # noqa: F401
from starlette.testclient import TestClient

from callbreak.core.cards import cards_of
from callbreak.games import games
from callbreak.server import engines
from callbreak.store import Store

# Short games: a few hands each (max_hands), at several table sizes.
GAMES = [("batak-ihaleli", 4), ("batak-koz-maca", 4), ("snarples", 3), ("snarples", 7),
         ("donut", 5), ("horsethief", 4)]


def truth_by_version(store: Store, code: str) -> tuple[list[list[set[str]]], list[set[str]], list[set[str]]]:
    """For every state version: each seat's hand, the stock, and the cards shown face up."""
    stored = store.load_game(code)
    assert stored is not None
    config = {k: v for k, v in stored.config.items() if k not in ("seed", "host_hash")}
    game = engines.new_game(config)
    hands, stocks, shown = [], [], []
    for data in [None, *stored.actions]:
        if data is not None:
            game.apply(engines.stored_action(data))
        hands.append([{c.text for c in cards_of(h)} for h in game.hands])
        stocks.append({c.text for c in game.stock})  # type: ignore[union-attr]
        up = game.upcard  # type: ignore[union-attr]
        shown.append(set() if up is None else {up.text})
    return hands, stocks, shown


def play_through(client: TestClient, game: str, players: int, humans: int, seed: int,
                 **extra: Any) -> tuple[str, list[SeatClient]]:
    """A table of ``game`` with ``humans`` test players (seat 0 first) and bots elsewhere, played
    to the end; returns the code and every client (the watcher last)."""
    made = create(client, seed=seed, game=game, players=players, bots="heuristic",
                  options={"max_hands": 2}, **extra)
    code = made["code"]
    assert made["table"]["game"] == game and len(made["table"]["seats"]) == players
    tokens = [made["token"]] + [join(client, code, f"P{i}")["token"] for i in range(1, humans)]
    clients = [SeatClient(client, code, t) for t in tokens] + [SeatClient(client, code, None, play=False)]
    for c in clients:
        c.start()
    r = client.post(f"/api/tables/{code}/start", json={"token": tokens[0]})
    assert r.status_code == 200, r.text
    for c in clients:
        c.join()
        assert not c.is_alive() and c.error is None, c.error
    return code, clients


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_whole_related_game_is_played_and_no_seat_sees_another_seats_cards(
        client: TestClient, store: Store, game: str, players: int) -> None:
    humans = 2
    code, clients = play_through(client, game, players, humans, seed=7)
    hands, stocks, shown = truth_by_version(store, code)
    checked = 0
    for seat, c in [*enumerate(clients[:humans]), (None, clients[-1])]:
        last = c.messages[-1]
        assert last["view"]["phase"] == "over" and last["view"]["winners"]
        for m in c.messages:
            if m["type"] != "state" or m["view"] is None:
                assert not cards_in(m), m
                continue
            v = m["version"]
            hidden = set().union(stocks[v], *(hands[v][t] for t in range(players) if t != seat))
            leaked = cards_in(m) & (hidden - shown[v])
            assert not leaked, f"seat {seat} was sent {sorted(leaked)} at version {v}"
            mine = m["view"]["hand"]
            assert mine is None if seat is None else set(mine) == hands[v][seat]
            checked += 1
    assert checked > 20
    # The finished game is in the history with every seat's result and the winners.
    history = client.get("/api/history").json()["games"]
    entry = next(g for g in history if g["code"] == code)
    assert entry["game"] == game and len(entry["seats"]) == players
    final = clients[-1].messages[-1]["view"]
    assert [s["total"] for s in entry["seats"]] == [10 * x for x in final["scores"]]  # tenths, as every game
    assert [s["seat"] for s in entry["seats"] if s["winner"]] == final["winners"]
    replay = client.get(f"/api/history/{code}").json()
    assert replay["game"] == game and replay["winners"] == final["winners"]
    assert replay["frames"] and all(f["action"]["type"] != "deal" for f in replay["frames"])


def test_the_lobby_offers_the_related_games_and_their_bots(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    names = {g["name"]: g for g in meta["games"]}
    assert {"batak-ihaleli", "batak-koz-maca", "snarples", "donut", "horsethief"} <= set(names)
    assert (names["snarples"]["min_players"], names["snarples"]["max_players"]) == (3, 8)
    assert "max_hands" in names["horsethief"]["presets"][0]["options"]  # each preset says what it sets
    donut = next(g for g in meta["games"] if g["name"] == "donut")
    assert {"search", "heuristic", "random"} <= set(donut["bots"]) and "expert" not in donut["bots"]


@pytest.mark.parametrize(("settings", "fragment"), [
    ({"game": "mahjong"}, "unknown game"),
    ({"game": "donut", "players": 9}, "4 to 6 players"),
    ({"game": "horsethief", "players": 3, "options": {"target": "lots"}}, "target"),
    ({"game": "horsethief", "players": 3, "options": {"colour": 1}}, "unknown option"),
    ({"game": "snarples", "players": 4, "bots": ["random", "random"]}, "a list of 4"),
    ({"game": "snarples", "players": 3, "bots": "expert"}, "does not play"),
])
def test_bad_related_game_settings_are_refused_and_nothing_is_created(
        client: TestClient, store: Store, settings: dict[str, Any], fragment: str) -> None:
    before = client.get("/api/history").json()
    r = client.post("/api/tables", json={"name": "Ann", "settings": settings})
    assert r.status_code == 400 and r.json()["error"] == "bad_config"
    assert fragment in r.json()["message"]
    assert store.load_games("lobby", "playing") == [] and client.get("/api/history").json() == before


def test_bad_related_game_actions_are_refused_and_change_nothing(client: TestClient) -> None:
    made = create(client, seed=3, game="snarples", players=3, bots="random", timer=None)
    code, token = made["code"], made["token"]
    other = join(client, code, "Bob")["token"]
    assert client.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200
    # Batak/Snarples auctions start left of the dealer: wait for seat 0 or 1 to be asked.
    while (s := state(client, code, token))["view"]["to_act"] not in (0, 1):
        time.sleep(0.01)  # (the bot's seat: its move comes from a worker thread)
    seat = s["view"]["to_act"]
    mover, waiter = (token, other) if seat == 0 else (other, token)
    view = state(client, code, mover)["view"]
    version = state(client, code, mover)["version"]
    not_mine = next(c for c in ["AS", "KS", "QS", "JS", "10S", "9S"] if c not in view["hand"])

    def refused(tok: Any, action: Any, ver: Any, code_name: str) -> None:
        r = client.post(f"/api/tables/{code}/action", json={"token": tok, "version": ver, "action": action})
        assert r.status_code in (400, 403, 409), r.text
        assert r.json()["error"] == code_name, r.json()
        assert state(client, code, mover)["version"] == version
        assert state(client, code, mover)["view"]["hand"] == view["hand"]

    refused(mover, {"type": "deal", "hands": []}, version, "malformed")  # the server deals
    refused(mover, {"type": "bid", "tricks": "six"}, version, "malformed")
    refused(mover, {"type": "call", "tricks": 3}, version, "illegal")  # a Call Break action: not in this game
    refused(mover, {"type": "pass", "seat": 1 - seat}, version, "wrong_seat")
    refused(mover, {"type": "pass"}, version - 1, "stale")
    refused(waiter, {"type": "pass"}, version, "not_your_turn")
    refused(mover, {"type": "play", "card": not_mine}, version, "illegal")
    refused("nobody", {"type": "pass"}, version, "bad_token")
    legal = view["legal"][0]
    r = client.post(f"/api/tables/{code}/action", json={"token": mover, "version": version, "action": legal})
    assert r.status_code == 200 and r.json()["version"] > version


def test_an_unlimited_call_break_table_plays_on_until_the_host_stops_it(client: TestClient) -> None:
    made = create(client, seed=5, preset="call-bridge", deals=None, bots="random", timer=None)
    code, token = made["code"], made["token"]
    guest = join(client, code, "Bob")["token"]
    assert made["table"]["deals"] is None
    r = client.post(f"/api/tables/{code}/stop", json={"token": token})
    assert r.status_code == 409 and r.json()["error"] == "not_playing"
    assert client.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200
    r = client.post(f"/api/tables/{code}/stop", json={"token": guest})
    assert r.status_code == 403 and r.json()["error"] == "not_host"
    tokens = {0: token, 1: guest}

    def play_until(done: Any) -> dict[str, Any]:
        while True:  # (the bots' moves come from worker threads; a hang is the per-test timeout's)
            s = state(client, code)
            if done(s):
                return s
            for seat, tok in tokens.items():
                mine = state(client, code, tok)
                view = mine["view"]
                if view["to_act"] == seat and view["legal"]:
                    ordinary = [a for a in view["legal"] if a["type"] != "look" and not a.get("blind")]
                    client.post(f"/api/tables/{code}/action",
                                json={"token": tok, "version": mine["version"], "action": (ordinary or view["legal"])[0]})

    # Past the fixed-table default of one deal: a second deal is dealt without anyone asking.
    s = play_until(lambda s: len(s["view"]["results"]) >= 1 and s["view"]["phase"] != "deal")
    assert s["table"]["status"] == "playing"
    # The host asks to stop mid-deal: the deal is played out, then the table ends.
    r = client.post(f"/api/tables/{code}/stop", json={"token": token})
    assert r.status_code == 200 and r.json()["stop_requested"] is True
    s = play_until(lambda s: s["table"]["status"] == "over")
    assert s["view"]["phase"] == "over" and len(s["view"]["results"]) == 2


def test_a_fixed_length_table_cannot_be_stopped(client: TestClient) -> None:
    made = create(client, seed=5, preset="callbreak", deals=1, bots="random")
    code, token = made["code"], made["token"]
    client.post(f"/api/tables/{code}/start", json={"token": token})
    r = client.post(f"/api/tables/{code}/stop", json={"token": token})
    assert r.status_code == 409 and r.json()["error"] in ("not_unlimited", "not_playing")


def test_a_hint_in_a_related_game_names_a_legal_action_and_a_rematch_keeps_the_game(
        client: TestClient) -> None:
    made = create(client, seed=9, game="donut", players=4, bots="random", options={"max_hands": 1})
    code, token = made["code"], made["token"]
    assert client.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200
    hinted = False
    while True:  # (until the end: the bots' moves come from worker threads, however slowly)
        s = state(client, code, token)
        view = s["view"]
        if view["phase"] == "over":
            break
        if view["to_act"] == 0 and view["legal"]:
            if not hinted:
                r = client.post(f"/api/tables/{code}/hint", json={"token": token})
                assert r.status_code == 200, r.text
                assert r.json()["action"] in view["legal"] and r.json()["bot"] == "search"
                hinted = True
            client.post(f"/api/tables/{code}/action",
                        json={"token": token, "version": s["version"], "action": view["legal"][0]})
    assert hinted and state(client, code)["table"]["status"] == "over"
    r = client.post(f"/api/tables/{code}/rematch", json={"token": token})
    assert r.status_code == 200, r.text
    again = r.json()
    assert again["game"] == "donut" and again["players"] == 4 and again["status"] == "lobby"
    assert again["options"] == {"max_hands": 1} and again["code"] != code


def test_a_stop_asked_for_survives_a_server_restart(store: Store) -> None:
    from callbreak.server.app import create_app

    with TestClient(create_app(store, practice=True)) as first:
        made = create(first, seed=6, preset="call-bridge", deals=None, bots="random", timer=None)
        code, token = made["code"], made["token"]
        join(first, code, "Bob")  # a second person, so the table waits for seat 1 mid-deal
        assert first.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200
        assert first.post(f"/api/tables/{code}/stop", json={"token": token}).json()["stop_requested"]
    with TestClient(create_app(store, practice=True)) as second:
        s = state(second, code)
        assert s["table"]["status"] == "playing" and s["table"]["stop_requested"] is True
        assert s["table"]["deals"] is None and "stop_requested" not in s["table"]["options"]


def test_a_table_of_call_bridge_by_its_old_game_name_is_a_call_break_table(client: TestClient) -> None:
    """``game: call-bridge`` (a game of its own once) makes the same table as Call Break under the
    call-bridge preset: the Call Break table the page draws (calls, rules, the preset named), not
    the related games' one."""
    for settings in ({"game": "call-bridge"}, {"game": "callbreak", "preset": "call-bridge"}):
        made = create(client, seed=5, bots="random", timer=None, **settings)
        table = made["table"]
        assert (table["game"], table["preset"]) == ("callbreak", "call-bridge")
        code, token = made["code"], made["token"]
        assert client.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200
        view = state(client, code, token)["view"]
        while not (view["phase"] == "call" and view["to_act"] == 0):  # (the bots call first)
            view = state(client, code, token)["view"]
        assert view["phase"] == "call" and view["call_range"] == [2, 12] and "calls" in view
        assert {a["type"] for a in view["legal"]} == {"call"}
        assert [a["tricks"] for a in view["legal"]] == list(range(2, 13))


@pytest.mark.parametrize("game", [info.name for info in games()])
def test_every_game_gives_a_hint_from_its_strongest_bot(client: TestClient, game: str) -> None:
    """The table's hint in every registered game: a legal action, by the strongest bot that
    plays it (the expert in Call Break, the search bot in the related games)."""
    settings: dict[str, Any] = ({"deals": 1} if game == "callbreak" else {"options": {"max_hands": 1}})
    made = create(client, seed=4, game=game, bots="random", timer=None, **settings)
    code, token = made["code"], made["token"]
    assert client.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200
    while not ((view := state(client, code, token)["view"])["to_act"] == 0 and view["legal"]):
        time.sleep(0.01)  # (the bots' moves come from worker threads)
    r = client.post(f"/api/tables/{code}/hint", json={"token": token})
    assert r.status_code == 200, r.text
    assert r.json()["action"] in view["legal"]
    assert r.json()["bot"] == ("expert" if game == "callbreak" else "search") and r.json()["reason"]
