"""Serve one of our bots over the bot-tournament protocol: ``GET /hi``, ``POST /bid``, ``POST /play``.

The server is stateless: each request is checked and turned into the requesting seat's view on its
own (see :mod:`callbreak.protocol.wire`), and a fresh bot, seeded from the request, decides. So one
server can serve many games and seats at once, and the same request always gets the same answer
from a deterministic bot.

Time: ``timeBudget`` is what the seat has left for the deal. The server plans it over the
decisions left (:func:`think_budget`: a share by weight, stretched for a choice that stays
close, never more than the deal has left after a reserve for each later decision); if the bot
has not answered by a deadline just past that, or fails, or answers something illegal, the server
answers the rules' default (the biggest legal card, the lowest call), so a legal answer always
goes back in time.

>>> app = create_app("random")
>>> think_budget(1500, decisions_left=14, bid=True)
0.1312
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import math
import threading
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request as HttpRequest
from starlette.responses import JSONResponse
from starlette.routing import Route

from callbreak.bots import Bot, make_bot
from callbreak.bots.reading import StyleBook
from callbreak.core import Action, Call, Dealer, Match, Play, SeatView, wellformed
from callbreak.core.tricks import biggest_card
from callbreak.protocol.wire import (
    RULES,
    SPADES,
    Kind,
    ProtocolError,
    Request,
    answer_json,
    parse_request,
)
from callbreak.referee import Fault, referee

log = logging.getLogger("callbreak.protocol")

HTTP_MARGIN = 0.03
"""Seconds kept back from every deadline for the request and answer to cross the network."""
SPARE = 0.2
"""Seconds of every deal left unplanned: a loaded machine stalls a process now and then (by up to
most of a second on two shared cores at a load of 8), and a stall must not cost the seat its deal."""
RESERVE = 0.025
"""Seconds kept back for each later decision of the deal: the least one needs (a round trip and a
quick answer), so an early decision never eats a later one's time."""
STRETCH = 2.0
"""How far past its planned share a decision may think. The expert stops early once its choice
is clear (``settle``, after its first 0.1 s), so a clear choice leaves its time to the later ones
and a close choice may take up to this many shares; the plan is remade from what is left at every
request, so no decision ever gets more than the deal has left."""
CALL_WEIGHT = 1.0
"""A call's weight in the plan, against a play's (see :func:`_play_weight`)."""
MAX_BODY = 64 * 1024
"""Bytes; a real request (a hand, 12 tricks, four players) is about 2 KB."""
ANSWER_TIME = 0.02
"""Seconds of a decision's allotment kept for the server's own work around the bot: reading the
request, building the bot, answering (measured through HTTP on a shared machine)."""
MIN_THINK = 0.001
"""Seconds: the least a bot is given. A bot given 0 would read it as "no budget given" (the
expert then thinks for its default second), so a seat nearly out of time gets this token
budget, and the quick answer it leads to, instead."""


def _play_weight(cards: int) -> float:
    """A play's weight in the plan by the cards in hand: the last card is forced, the last but
    one is a choice of two, every earlier play a real choice."""
    return 0.0 if cards <= 1 else 0.5 if cards == 2 else 1.0


def _usable(time_budget_ms: float, decisions_left: int) -> float:
    """Seconds this decision may use at most: what the deal has left, less the network margin,
    the spare for stalls and the reserve of every later decision."""
    later = max(decisions_left, 1) - 1
    return time_budget_ms / 1000 - HTTP_MARGIN - SPARE - RESERVE * later


def allotment(time_budget_ms: float, decisions_left: int, max_think: float = 5.0, *,
              bid: bool = False, forced: bool = False) -> float:
    """Seconds of the deal's clock planned for this decision, answer included.

    What is usable (:func:`_usable`) is shared among this decision and the later ones by weight
    (a call 1, a play 1, the last but one play 0.5, the forced last 0); this decision may take up
    to :data:`STRETCH` times its share, never more than is usable nor ``max_think``. A forced
    decision (one legal action) is planned no time beyond its answer.

    >>> allotment(1500, decisions_left=14, bid=True)  # the call of a fresh deal
    0.1512
    >>> allotment(1500, decisions_left=13)  # its first play, had the call cost nothing
    0.1687
    >>> allotment(300, decisions_left=2)  # the last choice takes what is left
    0.045
    """
    usable = _usable(time_budget_ms, decisions_left)
    if forced or usable <= ANSWER_TIME:
        return ANSWER_TIME
    hand = max(decisions_left, 1) - 1 if bid else max(decisions_left, 1)
    now = CALL_WEIGHT if bid else _play_weight(hand)
    later = range(1, hand + 1) if bid else range(1, hand)
    total = now + sum(_play_weight(h) for h in later)
    share = usable * now / total if total > 0 else usable
    return round(min(max_think + ANSWER_TIME, usable, share * STRETCH), 4)


def think_budget(time_budget_ms: float, decisions_left: int, max_think: float = 5.0, *,
                 bid: bool = False, forced: bool = False) -> float:
    """Seconds the bot may think: the decision's :func:`allotment` less the server's own time
    to read the request, build the bot and answer (:data:`ANSWER_TIME`); at least
    :data:`MIN_THINK`.

    >>> think_budget(1500, decisions_left=14, bid=True)
    0.1312
    """
    allot = allotment(time_budget_ms, decisions_left, max_think, bid=bid, forced=forced)
    return round(max(MIN_THINK, allot - ANSWER_TIME), 4)


def deadline(time_budget_ms: float, decisions_left: int, max_think: float = 5.0, *,
             bid: bool = False, forced: bool = False) -> float:
    """Seconds after which the server answers the default instead of the bot's choice: a little
    past the decision's allotment, but never past what this decision may use of the deal (so the
    seat does not run out of time even when the bot overruns)."""
    allot = allotment(time_budget_ms, decisions_left, max_think, bid=bid, forced=forced)
    limit = _usable(time_budget_ms, decisions_left) + HTTP_MARGIN / 2
    return max(0.005, min(2 * max_think + 0.5, allot * 1.15 + 0.03, limit))


def default_action(view: SeatView) -> Action:
    """The rules' default for a seat out of time: the biggest legal card, or the lowest call."""
    assert view.seat is not None
    if view.legal_cards:
        mask = sum(1 << c for c in view.legal_cards)
        return Play(view.seat, biggest_card(mask, SPADES))
    return Call(view.seat, RULES.min_call)


def request_seed(body: Any, seed: int) -> int:
    """A seed drawn from the request itself, so answers do not depend on earlier requests."""
    text = json.dumps(body, sort_keys=True, separators=(",", ":")) + f"#{seed}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:6], "big")


def match_key(request: Request, body: Any) -> tuple[str, ...]:
    """Whose readings of the others a request continues: the match (its ``matchId`` when the
    referee sends one, else its set of player ids: their order turns with the dealer) and the
    requesting player."""
    match = body.get("matchId") if isinstance(body, dict) else None
    me = request.player_ids[request.view.seat or 0]
    if isinstance(match, str) and match:
        return ("match", match, me)
    return ("players", *sorted(request.player_ids), me)


class BotService:
    """Answers checked requests with a bot's decision, always legal and always in time."""

    def __init__(self, spec: str, *, seed: int = 0, max_think: float = 5.0, workers: int = 8) -> None:
        make_bot(spec, seed=seed)  # refuse an unknown bot or bad options now, not per request
        self.spec = spec
        self.seed = seed
        self.max_think = max_think
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bot")
        # A bot that reads the others' styles (expert:read=on) keeps its readings from deal to
        # deal of a match here: the server is otherwise stateless per request.
        self.styles = StyleBook()
        self._styles_lock = threading.Lock()
        self.answered = 0  # decisions the bot made
        self.defaulted = 0  # decisions the server made for it (late, failed or illegal)

    def warm_up(self, decisions: int = 6, budget: float = 0.05) -> None:
        """Let the bot decide a call and a few plays of a practice deal before serving, so that
        one-time costs (compiling, loading tables) do not land on a real request's clock."""
        match = Match(RULES)
        match.apply(Dealer(seed=self.seed).chance(match))
        bot = make_bot(self.spec, seed=self.seed)
        for _ in range(decisions):
            seat = match.to_act
            assert seat is not None and seat >= 0
            try:
                action = bot.decide(match.view(seat), budget).action
            except Exception:  # a failing bot is dealt with per request; warming must not stop us
                log.exception("bot %s failed while warming up", self.spec)
                return
            match.apply(action if match.is_legal(action) else match.default_action())

    def _decide(self, request: Request, body: Any, budget: float, arrived: float) -> tuple[Action, Fault | None]:
        """The bot's answer, judged as the referee judges every bot (:func:`callbreak.referee.referee`):
        one that raises or is not legal gives way to the default, with the fault. (The deadline
        is the caller's: it answers in time even while the bot still thinks.)"""
        # Time spent queueing for a worker (many games at once) comes out of the bot's budget,
        # so it still answers before the deadline rather than being cut off by it.
        budget = max(MIN_THINK, budget - (time.monotonic() - arrived))
        view = request.view
        bot: Bot = make_bot(self.spec, seed=request_seed(body, self.seed))
        reads = getattr(bot, "read", False) is True and hasattr(bot, "style_prior")
        if reads:
            key, deal, ids = match_key(request, body), view.deal_number, request.player_ids
            with self._styles_lock:
                known = self.styles.priors(key, deal)
            bot.style_prior = {s: known[pid] for s, pid in enumerate(ids)  # type: ignore[attr-defined]
                               if pid in known}
        action: Action
        action, _, fault = referee(view, view.seat or 0, bot, default=lambda: default_action(view),
                                   deal=view.deal_number, budget=budget, tolerance=math.inf, name=self.spec)
        if reads and fault is None:
            reading = getattr(bot, "reading", {})
            with self._styles_lock:
                self.styles.record(key, deal, {ids[s]: p for s, p in reading.items()})
        return action, fault

    async def answer(self, request: Request, body: Any) -> Action:
        """The bot's action, or the default when it fails or runs past the deadline."""
        left = request.decisions_left
        plan = {"bid": request.kind == "bid", "forced": len(request.view.legal) == 1}
        budget = think_budget(request.time_budget_ms, left, self.max_think, **plan)
        limit = deadline(request.time_budget_ms, left, self.max_think, **plan)
        loop = asyncio.get_running_loop()
        work = loop.run_in_executor(self.pool, self._decide, request, body, budget, time.monotonic())
        try:
            action, fault = await asyncio.wait_for(work, timeout=limit)
            if fault is None:
                self.answered += 1
            else:  # (the action is the default the referee's rule played for it)
                log.error("bot %s failed (%s: %s); answering the default", self.spec, fault.kind, fault.detail)
                self.defaulted += 1
            return action
        except TimeoutError:
            log.warning("bot %s did not answer within %.3f s; answering the default", self.spec, limit)
        except Exception:  # the bot's seeding or reading failed: still the seat's turn is answered
            log.exception("bot %s failed; answering the default", self.spec)
        self.defaulted += 1
        return default_action(request.view)


def _error(message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=400)


def create_app(spec: str, *, seed: int = 0, max_think: float = 5.0, workers: int = 8,
               warm_up: bool = False) -> Starlette:
    """The HTTP app serving bot ``spec`` (e.g. ``"heuristic"``, ``"expert:samples=20"``).

    With ``warm_up`` the bot first plays a few practice decisions (see
    :meth:`BotService.warm_up`). Raises :class:`~callbreak.bots.BotError` for an unknown bot or
    bad options.
    """
    service = BotService(spec, seed=seed, max_think=max_think, workers=workers)
    if warm_up:
        service.warm_up()

    async def hi(_: HttpRequest) -> JSONResponse:
        return JSONResponse({"value": "hello"})

    async def decide(http: HttpRequest, kind: Kind) -> JSONResponse:
        raw = await http.body()
        if len(raw) > MAX_BODY:
            return _error(f"the request body is {len(raw)} bytes; a protocol request is far "
                          f"smaller (at most {MAX_BODY})")
        try:
            body = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as e:
            return _error(f"the request body is not valid JSON: {e}")
        except RecursionError:
            return _error("the request body is not valid JSON: nested too deeply")
        why = wellformed.refusal(body, "the request's")
        if why is not None:  # it would fail later, wherever the text is encoded again
            return _error(why)
        try:
            request = parse_request(kind, body)
        except ProtocolError as e:
            return _error(str(e))
        except Exception as e:  # an unforeseen malformation must still get a 400, not a crash
            log.exception("unexpected error reading a /%s request", kind)
            return _error(f"malformed request: {e!r}")
        action = await service.answer(request, body)
        return JSONResponse(answer_json(action))

    async def bid(http: HttpRequest) -> JSONResponse:
        return await decide(http, "bid")

    async def play(http: HttpRequest) -> JSONResponse:
        return await decide(http, "play")

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        yield
        service.pool.shutdown(wait=False, cancel_futures=True)

    async def http_error(_: HttpRequest, exc: Exception) -> JSONResponse:
        # Unknown paths and wrong methods answer in the protocol's error shape too.
        assert isinstance(exc, HTTPException)
        return JSONResponse({"error": f"{exc.detail}: this bot serves GET /hi, POST /bid and "
                                      "POST /play"}, status_code=exc.status_code)

    app = Starlette(exception_handlers={HTTPException: http_error}, routes=[
        Route("/hi", hi, methods=["GET"]),
        Route("/bid", bid, methods=["POST"]),
        Route("/play", play, methods=["POST"]),
    ], lifespan=lifespan)
    app.state.service = service
    return app
