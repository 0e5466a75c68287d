"""The server speaks the reader's language: chosen by the ``lang`` cookie, else the browser's
``Accept-Language``, else English; the page's catalog is served by language; a refusal (the
server's own, and an engine's illegal move) reaches a player in their language."""

from __future__ import annotations

import json
import re
from typing import Any

from server_helpers import client_fixture, create, join, state, store_fixture  # noqa: F401 (fixtures)
from starlette.testclient import TestClient

from callbreak import i18n

MISSING = "/api/tables/ZZZZZZZZZZZZ"  # no table has this code: a refusal in words


def refusal(client: TestClient, headers: dict[str, str] | None = None, lang: str | None = None) -> str:
    client.cookies.clear()
    if lang is not None:
        client.cookies.set("lang", lang)
    r = client.get(MISSING, headers=headers or {})
    assert r.status_code == 404 and r.json()["error"] == "no_table"
    return str(r.json()["message"])


def said(lang: str, message: str) -> str:
    return i18n.gettext_for(lang, "server")(message)


def test_the_language_comes_from_the_browser_and_a_chosen_one_wins(client: TestClient) -> None:
    english = refusal(client)
    assert english == "no open table has that code (finished games are in the history)"
    nepali = refusal(client, {"Accept-Language": "ne-NP,ne;q=0.9,en;q=0.5"})
    assert nepali == said("ne", english) != english
    assert refusal(client, {"Accept-Language": "fr-FR,bn;q=0.8"}) == said("bn", english)
    # the page's menu sets the cookie: it overrides what the browser asks for
    assert refusal(client, {"Accept-Language": "ne-NP"}, lang="hi") == said("hi", english)
    # a language we do not speak, asked or chosen, is English
    assert refusal(client, {"Accept-Language": "fr-FR,de;q=0.9"}) == english
    assert refusal(client, {"Accept-Language": "fr"}, lang="xx") == english


def test_the_page_catalog_is_served_by_language_and_an_unknown_one_is_a_clear_404(client: TestClient) -> None:
    r = client.get("/api/i18n/bn")
    assert r.status_code == 200 and "max-age" in r.headers["cache-control"]
    assert r.json()["Your turn"] == i18n.translations("bn", "web").gettext("Your turn") != "Your turn"
    assert r.json()["{n} card"].split("\x00")[0].startswith("{n}")  # a plural's forms, joined by NUL
    # A card is named whole, as the terminal names it: Hindi's queen takes की, its king का.
    hindi = client.get("/api/i18n/hi").json()
    assert hindi["queen of hearts"] == "पान की बेगम" and hindi["king of hearts"] == "पान का बादशाह"
    assert client.get("/api/i18n/en").json() == {}  # English is the message ids themselves
    client.cookies.clear()
    r = client.get("/api/i18n/xx")
    assert r.status_code == 404 and r.json()["error"] == "no_language"
    assert "'xx'" in r.json()["message"] and "ne" in r.json()["message"]


def test_the_lobby_words_of_rules_and_bots_come_translated(client: TestClient) -> None:
    client.cookies.clear()
    client.cookies.set("lang", "ne")
    meta = client.get("/api/meta").json()
    preset = next(p for p in meta["presets"] if p["name"] == "callbreak")
    assert preset["title"] == "कलब्रेक" and not re.search(r"[0-9]", preset["description"])
    assert re.search(r"[०-९]", preset["description"])  # its calls 1-13 in Devanagari digits
    assert next(g for g in meta["games"] if g["name"] == "callbreak")["bot_descriptions"]["random"] == said("ne", "Plays any legal move at random.") != "Plays any legal move at random."


def _illegal_play(client: TestClient, lang: str | None) -> dict[str, Any]:
    """A seat plays a card it does not hold; the refusal as that player's page would read it."""
    made = create(client, deals=1)
    code, host = made["code"], made["token"]
    tokens = [host] + [join(client, code, n)["token"] for n in ("Bob", "Cat", "Dan")]
    assert client.post(f"/api/tables/{code}/start", json={"token": host}).status_code == 200
    s = state(client, code)
    seat = s["view"]["to_act"]
    client.cookies.clear()
    if lang is not None:
        client.cookies.set("lang", lang)
    r = client.post(f"/api/tables/{code}/action", json={
        "token": tokens[seat], "version": s["version"], "action": {"type": "call", "tricks": 99}})
    assert r.status_code == 409 and r.json()["error"] == "illegal"
    call_refusal = str(r.json()["message"])
    for _ in range(4):
        s = state(client, code)
        who = s["view"]["to_act"]
        assert client.post(f"/api/tables/{code}/action", json={
            "token": tokens[who], "version": s["version"], "action": {"type": "call", "tricks": 2}}).status_code == 200
    s = state(client, code)
    seat = s["view"]["to_act"]
    hand = state(client, code, tokens[seat])["view"]["hand"]
    not_mine = next(c for c in ("AS", "KS", "QS", "JS", "10S", "9S", "8S") if c not in hand)
    r = client.post(f"/api/tables/{code}/action", json={
        "token": tokens[seat], "version": s["version"], "action": {"type": "play", "card": not_mine}})
    assert r.status_code == 409 and r.json()["error"] == "illegal"
    return {"call": call_refusal, "play": str(r.json()["message"]), "card": not_mine}


def test_an_engine_refusal_reaches_the_player_in_their_language(client: TestClient) -> None:
    english = _illegal_play(client, None)
    assert "does not hold" in english["play"]  # English keeps the engine's own words
    bengali = _illegal_play(client, "bn")
    card = bengali["card"]
    sign = card[:-1] + "♠"
    assert bengali["play"] == said("bn", "you cannot play {card} now").format(card=sign)
    assert bengali["call"] == said("bn", "that call is outside what these rules allow")
    assert not re.search(r"[A-Za-z]{3,}", bengali["play"] + bengali["call"])


def test_a_refusal_on_the_table_socket_is_told_in_the_pages_language(client: TestClient) -> None:
    made = create(client, bots="random", deals=1)
    code, token = made["code"], made["token"]
    client.cookies.clear()
    client.cookies.set("lang", "ne")  # the page's choice, sent with the socket's handshake
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        assert ws.receive_json()["type"] == "welcome"
        assert ws.receive_json()["type"] == "state"
        ws.send_text(json.dumps({"type": "action", "token": token, "version": 0,
                                 "action": {"type": "call", "tricks": 1}}))
        reply = ws.receive_json()
    assert reply["code"] == "not_playing"
    assert reply["message"] == said("ne", "the game has not started yet") != "the game has not started yet"


def test_a_related_games_notice_reaches_the_page_as_words_its_language_can_say(client: TestClient) -> None:
    """Everyone passes at Batak: the view carries the English notice (seats from 1, as before)
    and its message id with the values, and the page's catalog can say that id."""
    made = create(client, game="batak-ihaleli", players=4, timer=None)
    code = made["code"]
    tokens = [made["token"]] + [join(client, code, n)["token"] for n in ("Bob", "Cat", "Dan")]
    assert client.post(f"/api/tables/{code}/start", json={"token": tokens[0]}).status_code == 200
    for _ in range(4):
        s = state(client, code)
        r = client.post(f"/api/tables/{code}/action", json={
            "token": tokens[s["view"]["to_act"]], "version": s["version"], "action": {"type": "pass"}})
        assert r.status_code == 200, r.text
    view = state(client, code)["view"]
    template = "everyone passed: the dealer (seat {seat}) takes it at {bid}"
    dealer = view["dealer"] + 1
    assert view["notice"] == f"everyone passed: the dealer (seat {dealer}) takes it at 4"
    assert view["notice_words"] == {"template": template, "params": {"seat": dealer, "bid": 4}}
    nepali = client.get("/api/i18n/ne").json()
    assert nepali[template] == i18n.gettext_for("ne", "games")(template) != template
    assert "Your turn" in nepali  # the page's own words are still there
