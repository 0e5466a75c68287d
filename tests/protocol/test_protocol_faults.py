"""When things go wrong: a failing bot behind our server, a misbehaving server behind RemoteBot,
naming players, and the ``callbreak bot-server`` command itself."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from protocol_helpers import LiveServer, play_to
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from callbreak.bots import BotError, Decision
from callbreak.core import Call, Match, Phase, Play, SeatView
from callbreak.core.cards import from_protocol, to_protocol
from callbreak.core.tricks import biggest_card
from callbreak.protocol import (
    RemoteBadAnswerError,
    RemoteBot,
    RemoteTimeoutError,
    RemoteUnreachableError,
    create_app,
    make_player,
    wait_until_ready,
)
from callbreak.protocol import server as server_module

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "play_trumped_follow_any.json").read_text())


class _Misbehaving:
    """Bots that break their contract in one particular way ("slow": it thinks until the test
    lets it go)."""

    let_go = threading.Event()

    def __init__(self, how: str) -> None:
        self.name = how
        self.how = how

    def decide(self, view: SeatView, budget: float) -> Decision:
        if self.how == "slow":
            _Misbehaving.let_go.wait()
        if self.how == "raises":
            raise RuntimeError("the bot fell over")
        if self.how == "illegal":
            held = [c for c in view.hand or () if c not in view.legal_cards]
            return Decision(Play(view.seat or 0, held[0]))
        return Decision(view.legal[0])


@pytest.mark.parametrize("how", ["slow", "raises", "illegal"])
def test_a_failing_bot_still_gets_a_legal_answer_back_in_time(
        serve: Callable[[Any], LiveServer], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        how: str) -> None:
    monkeypatch.setattr(server_module, "make_bot", lambda spec, seed=None: _Misbehaving(how))
    monkeypatch.setattr(_Misbehaving, "let_go", threading.Event())
    live = serve(create_app("anything"))
    body = dict(FIXTURE["body"], timeBudget=1500)  # 10 decisions left: a 0.15 s share each
    try:
        r = httpx.post(live.url + "/play", json=body, timeout=None)
        # In time: the slow bot is still thinking, so the answer came at the server's deadline,
        # not from the bot. (How long that took is the machine's: a loaded one answered after
        # 0.75 s where the deadline is 0.17 s; the deadline itself is test_time_plan's.)
        assert r.status_code == 200
        # The rules' default: the biggest legal card.
        expected = biggest_card(sum(1 << from_protocol(c) for c in FIXTURE["legal"]), 0)
        assert r.json() == {"value": to_protocol(expected)}
        assert server_module_service(live).defaulted == 1
        # The log says what the bot did wrong, in the referee's words for a fault.
        said = {"slow": "did not answer within", "raises": "(error: RuntimeError: the bot fell over)",
                "illegal": "(illegal: answered Play("}[how]
        assert said in caplog.text, caplog.text
    finally:
        _Misbehaving.let_go.set()


def server_module_service(live: LiveServer) -> server_module.BotService:
    return live.server.config.app.state.service  # type: ignore[no-any-return]


def test_the_default_call_is_the_lowest(serve: Callable[[Any], LiveServer],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_module, "make_bot", lambda spec, seed=None: _Misbehaving("raises"))
    live = serve(create_app("anything"))
    body = json.loads((Path(__file__).parent / "fixtures" / "bid_first_caller.json").read_text())
    assert httpx.post(live.url + "/bid", json=body["body"]).json() == {"value": 1}


def _bad_remote(mode: dict[str, str]) -> Starlette:
    """A protocol server that answers in the way ``mode["how"]`` says."""

    async def answer(request: Request) -> Response:
        body = await request.json()
        how = mode["how"]
        if how == "slow":
            await asyncio.sleep(1.0)
        if how == "http500":
            return PlainTextResponse("boom", status_code=500)
        if how == "not json":
            return PlainTextResponse("QS")
        if how == "not a card":
            return JSONResponse({"value": "ZZ"})
        if how == "illegal":
            return JSONResponse({"value": mode["card"]})
        return JSONResponse({"value": body["cards"][0]})

    async def hi(_: Request) -> Response:
        return JSONResponse({"value": "hello"})

    return Starlette(routes=[Route("/hi", hi), Route("/play", answer, methods=["POST"]),
                             Route("/bid", answer, methods=["POST"])])


def _view_with_an_illegal_card() -> tuple[SeatView, str]:
    match = play_to(4, lambda m: m.phase is Phase.PLAY
                    and len(m.legal_cards()) < len(m.view(m.to_act).hand or ()))
    view = match.view(match.to_act)
    illegal = next(c for c in view.hand or () if c not in view.legal_cards)
    return view, to_protocol(illegal)


@pytest.mark.parametrize("how, error, words", [
    ("slow", RemoteTimeoutError, "did not answer /play within 0.30 s"),
    ("http500", RemoteUnreachableError, "HTTP 500"),
    ("not json", RemoteBadAnswerError, "not JSON"),
    ("not a card", RemoteBadAnswerError, "not a card"),
    ("illegal", RemoteBadAnswerError, "not a legal card"),
])
def test_a_remote_bot_that_misbehaves_raises_a_clear_error(
        serve: Callable[[Any], LiveServer], how: str, error: type[Exception], words: str) -> None:
    view, illegal = _view_with_an_illegal_card()
    live = serve(_bad_remote({"how": how, "card": illegal}))
    bot = RemoteBot(live.url, timeout=0.3)
    with pytest.raises(error, match=words):
        bot.decide(view, 0.1)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_nobody_listening_is_reported() -> None:
    view, _ = _view_with_an_illegal_card()
    url = f"http://127.0.0.1:{_free_port()}"
    with pytest.raises(RemoteUnreachableError, match="cannot reach"):
        RemoteBot(url).decide(view, 0.1)
    assert not RemoteBot(url).hello()
    with pytest.raises(RemoteUnreachableError, match="within 0.3 s"):
        wait_until_ready(url, timeout=0.3)


def test_make_player_names_our_bots_and_remote_ones() -> None:
    remote = make_player(" http://127.0.0.1:7000/ ", timeout=2.0)
    assert isinstance(remote, RemoteBot)
    assert remote.url == "http://127.0.0.1:7000" and remote.timeout == 2.0
    assert isinstance(make_player("https://bots.example:8443"), RemoteBot)
    ours = make_player("random", seed=3)
    assert ours.name == "random" and not isinstance(ours, RemoteBot)
    with pytest.raises(BotError, match="unknown bot"):
        make_player("no-such-bot")
    with pytest.raises(ValueError, match="timeout"):
        make_player("http://127.0.0.1:7000", timeout=0)


def test_remote_calls_go_to_bid(serve: Callable[[Any], LiveServer]) -> None:
    live = serve(create_app("random"))
    match = play_to(9, lambda m: m.phase is Phase.CALL)
    decision = RemoteBot(live.url).decide(match.view(match.to_act), 0.05)
    assert isinstance(decision.action, Call) and decision.action in match.legal_actions()


@pytest.mark.process
def test_the_bot_server_command_serves_and_refuses_unknown_bots() -> None:
    bad = subprocess.run([sys.executable, "-m", "callbreak.cli.main", "bot-server", "--bot", "nosuch"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "unknown bot 'nosuch'" in bad.stderr
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "callbreak.cli.main", "bot-server", "--bot", "random",
                             "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_until_ready(url, timeout=30)
        r = httpx.post(url + "/play", json=FIXTURE["body"])
        assert r.status_code == 200 and r.json()["value"] in FIXTURE["legal"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


class _Timed:
    """Sleeps through whatever budget it is given, and notes it, then plays the first legal card."""

    given: list[float] = []

    def __init__(self, *_: object, **__: object) -> None:
        self.name = "timed"

    def decide(self, view: SeatView, budget: float) -> Decision:
        _Timed.given.append(budget)
        time.sleep(budget)
        return Decision(view.legal[0])


def test_a_seat_out_of_time_gets_a_token_budget_not_none(
        serve: Callable[[Any], LiveServer], monkeypatch: pytest.MonkeyPatch) -> None:
    """A budget of 0 reads as "no budget given" to a bot (the expert would think its default
    second, tying up a worker after the server had answered); the server never passes 0."""
    assert server_module.think_budget(0, 13) == server_module.MIN_THINK > 0
    assert server_module.think_budget(2800, 14, bid=True) == 0.3392
    monkeypatch.setattr(server_module, "make_bot", lambda spec, seed=None: _Timed())
    monkeypatch.setattr(_Timed, "given", [])
    live = serve(create_app("anything"))
    r = httpx.post(live.url + "/play", json=dict(FIXTURE["body"], timeBudget=0), timeout=5)
    assert r.status_code == 200 and r.json()["value"] in FIXTURE["legal"]
    while not _Timed.given:  # the answer may be the default, sent before the bot started
        time.sleep(0.01)
    assert len(_Timed.given) == 1 and 0 < _Timed.given[0] <= server_module.MIN_THINK


def test_time_spent_waiting_for_a_worker_comes_out_of_the_bots_budget(
        serve: Callable[[Any], LiveServer], monkeypatch: pytest.MonkeyPatch) -> None:
    """One worker, two requests at once: the second waits for the first's whole think time, so it
    gets only what is left and still answers (its own card) before its deadline."""
    monkeypatch.setattr(server_module, "make_bot", lambda spec, seed=None: _Timed())
    monkeypatch.setattr(_Timed, "given", [])
    app = create_app("anything", workers=1)
    live = serve(app)
    # 10 plays left of 10 s: the first may think 2.23 s (twice its share), the server waits 2.61 s.
    body = dict(FIXTURE["body"], timeBudget=10_000)

    async def both() -> list[httpx.Response]:
        async with httpx.AsyncClient(timeout=5) as http:
            return list(await asyncio.gather(*(http.post(live.url + "/play", json=body)
                                               for _ in range(2))))

    replies = asyncio.run(both())
    assert all(r.status_code == 200 and r.json()["value"] in FIXTURE["legal"] for r in replies)
    first, second = sorted(_Timed.given, reverse=True)
    assert server_module.think_budget(10_000, 10) - 0.05 < first <= server_module.think_budget(10_000, 10)
    assert second < first / 2
    service = app.state.service
    assert service.answered == 2 and service.defaulted == 0


def _match_with_an_illegal_card() -> tuple[Match, str]:
    match = play_to(4, lambda m: m.phase is Phase.PLAY
                    and len(m.legal_cards()) < len(m.view(m.to_act).hand or ()))
    view = match.view(match.to_act)
    return match, to_protocol(next(c for c in view.hand or () if c not in view.legal_cards))


@pytest.mark.parametrize("how, kind", [
    ("slow", "timeout"), ("http500", "error"), ("not json", "illegal"), ("not a card", "illegal"),
    ("illegal", "illegal"),
])
def test_the_arena_files_a_remote_bots_fault_by_kind_and_plays_the_default(
        serve: Callable[[Any], LiveServer], how: str, kind: str) -> None:
    from callbreak.arena.runner import refereed_action

    match, illegal = _match_with_an_illegal_card()
    live = serve(_bad_remote({"how": how, "card": illegal}))
    seat = match.to_act
    assert seat is not None
    action, _, fault = refereed_action(match, seat, RemoteBot(live.url, timeout=0.3), budget=0.25)
    assert fault is not None and fault.kind == kind and fault.player == live.url
    assert action == match.default_action()
