"""Our bot server against our client over real HTTP on loopback."""

from __future__ import annotations

import asyncio
import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from protocol_helpers import NOBODY_HOLDS_THEM, LiveServer, play_to

from callbreak.bots import available, make_bot
from callbreak.core import CHANCE, Dealer, Match, Phase, make_rules
from callbreak.core.cards import from_protocol, to_protocol
from callbreak.protocol import RemoteBot, create_app
from callbreak.protocol.server import request_seed
from callbreak.protocol.wire import kind_for, parse_request, request_from_view

FIXTURES = Path(__file__).parent / "fixtures"


def _fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / f"{name}.json").read_text())


def _answer(url: str, endpoint: str, body: Any, http: httpx.Client | None = None) -> httpx.Response:
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    return (http or httpx).post(url + endpoint, content=content, timeout=10,
                                headers={"content-type": "application/json"})


def test_hi_answers_hello_and_other_paths_say_what_is_served(
        serve: Callable[[Any], LiveServer]) -> None:
    live = serve(create_app("random"))
    r = httpx.get(live.url + "/hi")
    assert r.status_code == 200 and r.json() == {"value": "hello"}
    r = httpx.get(live.url + "/bid")
    assert r.status_code == 405 and "POST /bid" in r.json()["error"]
    r = httpx.post(live.url + "/move", json={})
    assert r.status_code == 404 and "POST /play" in r.json()["error"]


@pytest.mark.parametrize("name", sorted(p.stem for p in FIXTURES.glob("*.json")))
def test_fixture_requests_get_a_legal_answer(serve: Callable[[Any], LiveServer], name: str) -> None:
    live = serve(create_app("heuristic" if "heuristic" in available() else "random"))
    fixture = _fixture(name)
    r = _answer(live.url, fixture["endpoint"], fixture["body"])
    assert r.status_code == 200, r.text
    assert r.json()["value"] in fixture["legal"]


def _mutated(name: str, change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    body = copy.deepcopy(_fixture(name)["body"])
    change(body)
    return body


def _players(b: dict[str, Any]) -> dict[str, Any]:
    return b["context"]["players"]


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(b: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = b
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if value is _DELETE:
            del node[last]
        elif isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
    return change


_DELETE = object()
PLAY = "play_trumped_follow_any"  # P3 to play; hearts in hand; P0 shown void in hearts
BID = "bid_dealer_all_others_in"  # P2 deals round 3 and calls last


def _own_illegal_play(b: dict[str, Any]) -> None:
    # Trick 2: P1 led 3H, P2 QH, P3 (the requester) KH. Claim it played 2H while holding KH.
    b["history"][1][1][2] = "2H"
    b["cards"][b["cards"].index("2H")] = "KH"


BAD: list[tuple[str, str, Any, str]] = [
    ("not JSON", PLAY, b"{not json", "not valid JSON"),
    ("empty body", PLAY, b"", "not valid JSON"),
    ("not an object", PLAY, b"[1, 2]", "must be a JSON object"),
    ("nested too deeply", PLAY, b"[" * 20000 + b"]" * 20000, "nested too deeply"),
    ("far too big", PLAY, b" " * 100_000 + b"{}", "far smaller"),
    ("not UTF-8", PLAY, b"\xff\xfe{}", "not valid JSON"),
    ("a lone surrogate in a playerId", PLAY, _set("playerId", "P\ud800"), "'playerId' is not well-formed"),
    ("NaN time", PLAY, _set("timeBudget", float("nan")), "timeBudget must be a number"),
    ("infinite points", PLAY, _set("context.players.P1.totalPoints", float("inf")),
     "totalPoints must be a number"),
    ("no playerIds", PLAY, _set("playerIds", _DELETE), "missing field 'playerIds'"),
    ("three playerIds", PLAY, _set("playerIds", ["P0", "P1", "P3"]), "list of 4"),
    ("repeated playerIds", PLAY, _set("playerIds", ["P0", "P1", "P1", "P3"]), "4 different ids"),
    ("unknown playerId", PLAY, _set("playerId", "P9"), "playerId 'P9'"),
    ("unknown card", PLAY, _set("cards.0", "ZS"), "cards[0]"),
    ("ten written 10", PLAY, _set("cards.0", "10S"), "malformed protocol card"),
    ("card not text", PLAY, _set("cards.0", 7), "malformed protocol card"),
    ("card twice in hand", PLAY, lambda b: b["cards"].__setitem__(1, b["cards"][0]), "more than once"),
    ("card in hand and history", PLAY, _set("cards.0", "QH"), "both cards and history"),
    ("card in hand and trick", PLAY, _set("cards.0", "5S"), "both cards and played"),
    ("card not in hand", PLAY, lambda b: b["cards"].pop(), "must hold 10"),
    ("wrong trick winner", PLAY, _set("history.0.2", 2), "winnerIdx"),
    ("wrong trick leader", PLAY, _set("history.1.0", 2), "startIdx"),
    ("three-card trick", PLAY, lambda b: b["history"][1][1].pop(), "finished trick has 4"),
    ("malformed trick", PLAY, _set("history.0", {"start": 1}), "history[0] must be"),
    ("index out of range", PLAY, _set("history.0.0", 4), "startIdx must be an index 0..3"),
    ("history not a list", PLAY, _set("history", "none"), "history must be a list"),
    ("won does not add up", PLAY, _set("context.players.P0.won", 1), "P0.won is 1"),
    ("call of 9", PLAY, _set("context.players.P1.bid", 9), "P1.bid must be 1..8"),
    ("call missing in play", PLAY, _set("context.players.P1.bid", 0), "P1.bid must be 1..8"),
    ("round 0", PLAY, _set("context.round", 0), "context.round must be 1..5"),
    ("round 6", PLAY, _set("context.round", 6), "context.round must be 1..5"),
    ("round as text", PLAY, _set("context.round", "1"), "context.round must be a whole number"),
    ("points not a number", PLAY, _set("context.players.P2.totalPoints", "3"),
     "totalPoints must be a number"),
    ("points in hundredths", PLAY, _set("context.players.P2.totalPoints", 1.25), "tenths"),
    ("points before any deal", PLAY, _set("context.players.P2.totalPoints", 0.1),
     "after 0 deal(s) a total lies between 0 and 0"),
    ("points no deals could score", BID, _set("context.players.P1.totalPoints", 17.1),
     "between -16 and 17"),
    ("negative time", PLAY, _set("timeBudget", -5), "timeBudget"),
    ("no time", PLAY, _set("timeBudget", _DELETE), "missing field 'timeBudget'"),
    ("context not an object", PLAY, _set("context", []), "context must be an object"),
    ("a player missing", PLAY, lambda b: _players(b).pop("P1"), "one entry per id"),
    ("played not a list", PLAY, _set("played", "4C"), "played must be a list"),
    ("four cards in the trick", PLAY, lambda b: b["played"].append("QD"), "at most 3"),
    ("not this player's turn", PLAY, lambda b: b["played"].pop(), "not P3's turn"),
    ("own play broke the rules", PLAY, _own_illegal_play, "own 2H breaks the rules"),
    ("a shown void contradicted", PLAY, _set("played.0", "9H"), "holds no heart"),
    ("bid after a later seat", BID, _set("context.players.P3.bid", 0), "P3.bid must be 1..8"),
    ("a later seat has called", "bid_first_caller", _set("context.players.P3.bid", 2),
     "P3.bid must be 0"),
    ("bid with a trick played", BID, _set("played", ["2S"]), "must not carry cards"),
    ("bid with twelve cards", BID, lambda b: b["cards"].pop(), "a hand to call on has 13"),
    ("round 1.5", PLAY, _set("context.round", 1.5), "context.round must be a whole number"),
    ("a call request sent to /play", PLAY, json.dumps(_fixture("bid_first_caller")["body"]).encode(),
     "a call goes to POST /bid"),
    ("unseen cards that fit no hand", PLAY, json.dumps(NOBODY_HOLDS_THEM).encode(),
     "does not add up: no player may hold"),
]


def test_bad_requests_get_400_saying_what_is_wrong_and_the_server_keeps_serving(
        serve: Callable[[Any], LiveServer]) -> None:
    live = serve(create_app("random"))
    http = httpx.Client()
    for label, base, change, message in BAD:
        body = change if isinstance(change, bytes) else _mutated(base, change)
        endpoint = _fixture(base)["endpoint"]
        r = _answer(live.url, endpoint, body, http)
        assert r.status_code == 400, f"{label}: {r.status_code} {r.text}"
        assert message in r.json()["error"], f"{label}: {r.json()['error']}"
        assert http.get(live.url + "/hi").json() == {"value": "hello"}
    good = _fixture(PLAY)
    r = _answer(live.url, good["endpoint"], good["body"], http)
    http.close()
    assert r.status_code == 200 and r.json()["value"] in good["legal"]


def _match_over_http(players: list[Any], seed: int, budget: float) -> Match:
    match = Match(make_rules("bhoos-tournament"))
    dealer = Dealer(seed)
    while not match.is_over:
        seat = match.to_act
        if seat == CHANCE:
            match.apply(dealer.chance(match))
            continue
        match.apply(players[seat].decide(match.view(seat), budget).action)
    return match


# The shipped levels only: other test modules register misbehaving bots in the same process.
SHIPPED_LEVELS = [b for b in ("random", "beginner", "heuristic", "expert") if b in available()]


@pytest.mark.slow
@pytest.mark.parametrize("level", SHIPPED_LEVELS)
def test_full_matches_over_http_with_every_bot_level(serve: Callable[[Any], LiveServer],
                                                       level: str) -> None:
    """Four seats of remote players served by one stateless server; every answer is legal
    (a RemoteBot raises otherwise), the match runs to its end, and the bot itself (not the
    server's fallback) made most of the decisions."""
    # Each decision: 200 ms share, the bot thinks at most 20 ms, the server waits up to 130 ms.
    app = create_app(level, max_think=0.02, warm_up=True)
    live = serve(app)
    players = [RemoteBot(live.url) for _ in range(4)]
    match = _match_over_http(players, seed=7, budget=0.2)
    assert match.is_over and len(match.results) == 5
    assert sum(sum(r.won) for r in match.results) == 5 * 13
    service = app.state.service
    assert service.answered + service.defaulted == 5 * (4 + 52)
    assert service.answered >= service.defaulted, (service.answered, service.defaulted)


def test_server_answers_are_the_bots_own_choice_on_the_real_view(
        serve: Callable[[Any], LiveServer]) -> None:
    """The server's rebuilt view is good enough that the bot decides exactly as it would on the
    match's own view: the seeded random bot is compared over a whole deal."""
    live = serve(create_app("random", seed=5))
    match = Match(make_rules("bhoos-tournament"))
    dealer = Dealer(21)
    with httpx.Client() as http:
        while len(match.results) < 1:
            seat = match.to_act
            if seat == CHANCE:
                match.apply(dealer.chance(match))
                continue
            view = match.view(seat)
            body = request_from_view(view, time_budget_ms=2000)
            got = http.post(f"{live.url}/{kind_for(view)}", json=body).json()["value"]
            local = make_bot("random", seed=request_seed(body, 5)).decide(view, 0.1).action
            expected = local.tricks if view.phase is Phase.CALL else to_protocol(local.card)  # type: ignore[union-attr]
            assert got == expected
            match.apply(local)


def test_concurrent_requests_from_several_games_are_each_answered_correctly(
        serve: Callable[[Any], LiveServer]) -> None:
    app = create_app("random", seed=1)
    live = serve(app)
    # A generous budget (a second or more per decision), so that on a loaded machine no answer
    # is the server's fallback instead of the bot's own (checked at the end).
    bodies: list[tuple[str, dict[str, Any]]] = []
    for game in range(8):
        rng = random.Random(game)
        for tricks, in_trick in ((0, 0), (rng.randrange(1, 12), rng.randrange(4))):
            match = play_to(game, lambda m, t=tricks, k=in_trick: m.phase is Phase.PLAY
                            and len(m.view(m.to_act).tricks) == t and len(m.view(m.to_act).trick) == k)
            view = match.view(match.to_act)
            bodies.append(("/play", request_from_view(view, time_budget_ms=30_000)))
        match = play_to(game + 100, lambda m: m.phase is Phase.CALL)
        bodies.append(("/bid", request_from_view(match.view(match.to_act), time_budget_ms=30_000)))

    # The same request always gets the same answer, so answers given one at a time are the
    # reference for answers given all at once.
    with httpx.Client() as http:
        one_by_one = [http.post(live.url + e, json=b).json()["value"] for e, b in bodies]

    async def all_at_once() -> list[Any]:
        async with httpx.AsyncClient(timeout=20) as http:
            replies = await asyncio.gather(*(http.post(live.url + e, json=b) for e, b in bodies * 3))
        return [r.json()["value"] for r in replies]

    together = asyncio.run(all_at_once())
    assert together == one_by_one * 3
    for (endpoint, body), value in zip(bodies, one_by_one, strict=True):
        view = parse_request(endpoint.strip("/"), body).view  # type: ignore[arg-type]
        if endpoint == "/bid":
            assert value in range(1, 9)
        else:
            assert from_protocol(value) in view.legal_cards
    assert app.state.service.defaulted == 0
