"""The web app: lobby and table HTTP API, the table websocket, history, stats and scorekeeper.

``create_app(store)`` builds the ASGI app (``url_bots=False``: no table may seat a bot by URL). Every error a client can cause comes back as JSON
``{"error": code, "message": text}`` (HTTP) or ``{"type": "error", ...}`` (websocket), and
changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import os
import secrets
import signal
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from starlette.requests import HTTPConnection

from callbreak import i18n
from callbreak.core import CallbreakError, format_points
from callbreak.core.actions import action_from_json
from callbreak.core.rules import PRESETS
from callbreak.core.words import N_
from callbreak.games import game_info, games
from callbreak.games.registry import option_names
from callbreak.protocol.players import plays_url_bots
from callbreak.record import Record, redact
from callbreak.server import bodies, engines, pwa, scorekeeper
from callbreak.server.limits import Limits, Refusal
from callbreak.server.loopwatch import LoopWatch
from callbreak.server.metrics import Metrics
from callbreak.server.playnow import PlayNow, PlayNowSettings
from callbreak.server.reviews import ReviewJobs
from callbreak.server.tables import (
    HANDOFF_TTL,
    PREPARING,
    Connection,
    Table,
    TableService,
    new_code,
    rematch_message,
    token_hash,
    whole,
)
from callbreak.server.warmup import KernelWarmup
from callbreak.server.wire import (
    MAX_MESSAGE_BYTES,
    MessageError,
    dumps,
    error_json,
    json_object,
    parse_message,
    public_action_json,
    say,
    view_json,
)
from callbreak.store import Store

log = logging.getLogger("callbreak.server")
STATIC = Path(__file__).parent / "static"
OUTBOX_LIMIT = 512  # messages queued for a client that does not read; beyond this it is dropped
MAX_BODY_BYTES = 64 * 1024  # the largest HTTP request body (a full score sheet is a few kB)

STATUS = {"too_large": 413, "too_slow": 408, "unavailable": 503, "no_table": 404, "no_sheet": 404, "bad_token": 403, "bad_handoff": 403, "not_host": 403, "bad_key": 403,
          "stale": 409, "not_your_turn": 409, "illegal": 409, "started": 409, "seat_taken": 409,
          "full": 409, "not_playing": 409, "not_over": 409, "not_unlimited": 409, "url_bots_off": 403,
          "no_review": 409, "too_many_tables": 429, "too_many_live_tables": 429, "fair_share": 429, "too_many_reviews": 429, "reviews_busy": 503, "server_full": 503,
          "rate_limited": 429, "no_language": 404, "no_ticket": 404, "not_your_ticket": 403}


class RefusalBody(BaseModel):
    """Every refusal: what was wrong as a stable code (``error``), said in the caller's language
    (``message``), and for a limit the seconds to wait before trying again (``retry_after``,
    also the ``Retry-After`` header)."""

    error: str
    message: str
    retry_after: float | None = None


def refusal_responses() -> dict[int | str, dict[str, Any]]:
    """The refusals the API answers with, by HTTP status, for its OpenAPI schema (each status
    naming the ``error`` codes that answer with it; any other refusal is a 400)."""
    by_status: dict[int, list[str]] = {400: ["malformed, and any code not listed under another status"]}
    for code, status in STATUS.items():
        by_status.setdefault(status, []).append(code)
    return {status: {"model": RefusalBody, "description": "Refused: " + ", ".join(codes)}
            for status, codes in sorted(by_status.items())}


def _schema_as_answered(app: FastAPI) -> None:
    """The schema says what the API does: FastAPI lists a 422 for every operation with
    parameters, and this API answers a bad parameter with a 400 refusal like any other
    (``_bad_parameter``), so no 422; and the handlers read their bodies themselves, so the
    bodies' schemas (server/bodies.py, referred to by each operation) are added to it."""
    made = app.openapi

    def openapi() -> dict[str, Any]:
        fresh = app.openapi_schema is None
        schema = made()
        if fresh:  # (made once, then kept)
            for operations in schema.get("paths", {}).values():
                for operation in operations.values():
                    operation.get("responses", {}).pop("422", None)
            schema.setdefault("components", {}).setdefault("schemas", {}).update(bodies.component_schemas())
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


# What `callbreak serve` prints, in every process: the time and the process id come first.
LOG_FORMAT = "%(asctime)s.%(msecs)03d pid %(process)d %(levelname)s %(name)s: %(message)s"
LOG_DATEFMT = "%Y-%m-%dT%H:%M:%S"


class JsonLogFormatter(logging.Formatter):
    """One JSON object a line (``callbreak serve --log-json``): time (UTC, ISO 8601), process
    id, level, logger and message, and the exception if any."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {"time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
                 "pid": record.process, "level": record.levelname, "logger": record.name,
                 "message": record.getMessage()}
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry)


def setup_logging(json_lines: bool | None = None, *, keep: bool = False) -> None:
    """Log as `callbreak serve` does (``json_lines`` None: ``CALLBREAK_LOG_JSON=1``); ``keep``:
    not if logging is set up already (an app made in a process that logs its own way)."""
    if keep and logging.getLogger().handlers:
        return
    if json_lines is None:
        json_lines = os.environ.get("CALLBREAK_LOG_JSON", "") in ("1", "true")
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLogFormatter() if json_lines else logging.Formatter(LOG_FORMAT, LOG_DATEFMT))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)


def app_from_env() -> FastAPI:
    """The app for ``callbreak serve --workers N``: each worker process builds its own."""
    store = Store(os.environ["CALLBREAK_DB"])
    setup_logging(keep=True)  # a worker starts afresh
    return create_app(store,
                      url_bots=os.environ.get("CALLBREAK_NO_URL_BOTS", "") not in ("1", "true"),
                      warm_in_child=True, limits=Limits.from_env(), play_now=PlayNowSettings.from_env())


async def read_body(request: Request) -> dict[str, Any]:
    """A request's JSON object, read within MAX_BODY_BYTES; a clear refusal for anything else
    (too large, not JSON, not an object, text that is not well-formed)."""
    # Read no more than the limit: an oversized body is refused without being buffered whole.
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise MessageError("too_large", f"request body too large: {declared} bytes, the limit is "
                                        f"{MAX_BODY_BYTES}")
    chunks: list[bytes] = []
    size = 0
    within = request.app.state.service.gate.limits.read_body or None  # (a client too slow holds a connection)
    try:
        async with asyncio.timeout(within):
            async for chunk in request.stream():
                size += len(chunk)
                if size > MAX_BODY_BYTES:
                    raise MessageError("too_large", f"request body too large: over {MAX_BODY_BYTES} bytes")
                chunks.append(chunk)
    except TimeoutError:
        raise MessageError("too_slow", f"request body not received within {within:g} s") from None
    return json_object(b"".join(chunks) or b"{}", "request body")


def address_of(client: HTTPConnection) -> str | None:
    """The address a request or a socket comes from (behind a proxy, the one it forwards)."""
    return client.client.host if client.client is not None else None


def create_app(store: Store, *, url_bots: bool = True, practice: bool | None = None,
               warm_in_child: bool = False, limits: Limits | None = None,
               play_now: PlayNowSettings | None = None) -> FastAPI:
    """The ASGI app over ``store``; unfinished tables resume when it starts.

    ``url_bots=False`` refuses any table that seats a bot by URL, so that nobody can make a public
    server send HTTP requests to an address of their choosing. ``practice=True`` (default: the
    environment variable ``CALLBREAK_PRACTICE=1``) lets a client seed a table's deals, for
    practice and tests only: such tables say "practice (seeded)" and stay out of the
    leaderboard and statistics. Otherwise every deal comes from the server's own randomness.

    The bots' compiled kernel is made ready in the background as the app starts (in a child
    process first with ``warm_in_child``, as ``callbreak serve`` does; see server/warmup.py),
    and a :class:`~callbreak.server.loopwatch.LoopWatch` logs any stall of the event loop.
    ``limits``: what one client may make and send (server/limits.py); none by default here,
    ``callbreak serve`` gives its settings (``Limits.from_env()``). ``play_now``: how Play now
    tables are made (server/playnow.py; defaults if None).
    """
    if practice is None:
        practice = os.environ.get("CALLBREAK_PRACTICE", "") == "1"
    metrics = Metrics()
    limits = limits if limits is not None else Limits.none()
    service = TableService(store, url_bots=url_bots, practice=practice, metrics=metrics, limits=limits)
    reviews = ReviewJobs(store, stored_record)
    quick = PlayNow(service, play_now if play_now is not None else PlayNowSettings())

    def lag_seen(lag: float) -> None:
        metrics.loop_lag.observe(lag)
        if lag > watch.threshold:
            metrics.stalls.inc()

    watch = LoopWatch(observe=lag_seen)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        watch.start()
        _drain_on_sigterm(drain)
        service.warmup = KernelWarmup(child=warm_in_child)
        warming = asyncio.create_task(service.warmup.run(), name="kernel-warm-up")
        counting = asyncio.create_task(keep_counting(), name="metrics")
        sweeping = asyncio.create_task(expire_lobbies(), name="lobby-expiry")
        if store.is_sqlite:
            resumed = await service.resume_all()
        else:  # PostgreSQL: processes share the tables (server/cluster.py)
            from callbreak.server.cluster import Cluster

            resumed = await Cluster.start(service)
        if resumed:
            log.info("resumed %d unfinished tables", resumed)
        matching = asyncio.create_task(quick.run(), name="play-now")  # (after the cluster: it leases)
        yield
        matching.cancel()
        for table in service.tables.values():
            service._cancel_clock(table)
        reviews.close()
        if service.cluster is not None:
            await service.cluster.stop()
        warming.cancel()
        counting.cancel()
        sweeping.cancel()
        await service.warmup.close()
        await asyncio.to_thread(service.close)  # the writes under way finish
        await watch.stop()

    draining = asyncio.Event()  # set on SIGTERM: the process is handing its tables on

    async def drain() -> None:
        """Stop taking sockets, hand every table run here to another process at once, and tell
        every socket to reconnect (close code 1012: to another process, through the proxy)."""
        draining.set()
        started = time.monotonic()
        handed = 0
        if service.cluster is not None:
            handed = await service.cluster.drain()
            await service.cluster.flush()
        sockets = 0
        for table in list(service.tables.values()):
            for conn in list(table.connections):
                if conn.close is not None:
                    conn.close(1012)
                    sockets += 1
        log.info("process %d stopping: handed %d tables on and closed %d sockets in %.2f s", os.getpid(),
                 handed, sockets, time.monotonic() - started)

    app = FastAPI(title="Call Break", lifespan=lifespan, docs_url="/api/docs", redoc_url=None,
                  responses=refusal_responses())  # (every operation may be refused: its schema says how)
    _schema_as_answered(app)
    app.state.service = service
    app.state.store = store
    app.state.watch = watch

    @app.exception_handler(MessageError)
    async def _refused(request: Request, e: MessageError) -> JSONResponse:
        message = e.text(language_of(request))
        if isinstance(e, Refusal):  # a limit (counted here, at the edge, as the socket's are): when to try again
            metrics.refusals.labels(e.code).inc()
            return JSONResponse({"error": e.code, "message": message, "retry_after": e.retry_after},
                                status_code=STATUS.get(e.code, 429), headers={"Retry-After": str(e.retry_after)})
        return JSONResponse({"error": e.code, "message": message}, status_code=STATUS.get(e.code, 400))

    @app.exception_handler(RequestValidationError)
    async def _bad_parameter(_request: Request, e: RequestValidationError) -> JSONResponse:
        # e.g. /api/history?limit=abc: the same error shape as every other refusal
        problems = "; ".join(f"{'.'.join(str(x) for x in err.get('loc', ()))}: {err.get('msg', '')}"
                             for err in e.errors())
        return JSONResponse({"error": "malformed", "message": f"bad request parameter ({problems})"},
                            status_code=400)

    # --- pages -----------------------------------------------------------------------------

    index = STATIC / "index.html"
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    @app.get("/t/{code}", include_in_schema=False)
    @app.get("/s/{code}", include_in_schema=False)
    @app.get("/history", include_in_schema=False)
    @app.get("/history/{code}", include_in_schema=False)
    @app.get("/review/{code}", include_in_schema=False)
    @app.get("/stats", include_in_schema=False)
    @app.get("/scorekeeper", include_in_schema=False)
    async def page(code: str | None = None) -> Response:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    # The installable app (server/pwa.py): at the root, so the worker may control every page.
    worker = pwa.service_worker(STATIC)

    @app.get(f"/{pwa.WORKER}", include_in_schema=False)
    async def service_worker() -> Response:
        return Response(worker, media_type="text/javascript; charset=utf-8", headers={"Cache-Control": "no-cache"})

    @app.get(f"/{pwa.MANIFEST}", include_in_schema=False)
    async def manifest() -> Response:
        return FileResponse(STATIC / pwa.MANIFEST, media_type="application/manifest+json",
                            headers={"Cache-Control": "no-cache"})

    @app.get("/rules", include_in_schema=False)
    async def rules_page(game: str | None = None) -> Response:
        """Every game's rules as text (``?game=NAME``: one game's, an alias's too: ``call-bridge``
        is Call Break's): the top bar's Rules link, a table's game's at a table."""
        from callbreak.games import rules_text

        names = [info.name for info in games()]
        if game is not None:
            try:
                game_info(game)
            except CallbreakError:
                return Response(f"no game {game!r}; games are: {', '.join(names)}\n", status_code=404,
                                media_type="text/plain; charset=utf-8")
        text = "\n\n".join(rules_text(name) for name in ([game] if game else names))
        return Response(text, media_type="text/plain; charset=utf-8")

    # --- lobby -----------------------------------------------------------------------------

    @app.get("/api/i18n/{lang}")
    async def page_catalog(lang: str) -> Response:
        """The page's words in ``lang`` (message id to text; a plural's forms joined by NUL), with
        what the rules say at the table (the "games" catalog, shared with the terminal): the page
        loads it before it first draws. Changes only with a release: cacheable."""
        if lang not in i18n.LANGUAGES:
            raise MessageError("no_language", N_("no language {lang}; languages are: {languages}"),
                               lang=repr(lang), languages=", ".join(i18n.LANGUAGES))
        words = {**i18n.catalog(lang, "cards"), **i18n.catalog(lang, "games"), **i18n.catalog(lang, "web")}
        return JSONResponse(words, headers={"Cache-Control": "public, max-age=3600"})

    @app.get("/api/meta")
    async def meta(request: Request) -> dict[str, Any]:
        lang = language_of(request)
        tr = i18n.gettext_for(lang, "server")  # the lobby's words that the rules and bots define
        return {"presets": [{"name": p.name, "title": tr(p.title),
                             "description": tr(p.description), "rules": p.rules.to_dict()}
                            for p in PRESETS.values()],  # Call Break's, with its rules: the scorekeeper's
                "url_bots": service.url_bots,
                # Each game as the lobby's one form offers it: its presets (with the options each
                # sets), seats, bots, whether the table sets a deal count, whether a bot by URL
                # can sit at it.
                "games": [{"name": g.name, "title": tr(g.title), "description": tr(g.description),
                           "min_players": g.seats[0], "max_players": g.seats[-1],
                           "presets": [{"name": p.name, "title": tr(p.title), "description": tr(p.description),
                                        "options": g.make_options(p.name, {}).to_dict()}
                                       for p in g.presets],
                           "deals": "deals" in option_names(g),
                           "url_bots": service.url_bots and plays_url_bots(g.name),
                           "bots": engines.bot_levels({"game": g.name}),
                           "bot_descriptions": {k: tr(v) for k, v in engines.bot_descriptions({"game": g.name}).items()},
                           "strongest_bot": engines.strongest_bot({"game": g.name})}
                          for g in games()],
                "practice": service.practice, "max_message_bytes": MAX_MESSAGE_BYTES,
                "play_now": quick.meta(tr),
                "capacity": capacity()}

    @app.get("/api/capacity")
    async def capacity_now() -> dict[str, Any]:
        """Whether the server takes new tables with bots (the lobby asks as it opens)."""
        return capacity()

    def capacity() -> dict[str, Any]:
        ceiling = limits.live_bot_tables
        live = len(service.bot_tables())
        return {"bot_tables": live, "ceiling": ceiling or None, "full": 0 < ceiling <= live}

    # --- what to watch -------------------------------------------------------------------------

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        """The process answers (its event loop runs); with the loop's worst lag and stalls, and
        the stalls in which the loop thread itself computed past the threshold (our code's)."""
        return {"ok": True, "pid": os.getpid(), "loop": {"worst_lag": round(watch.worst, 4),
                                                         "stalls": watch.stalls,
                                                         "worst_cpu": round(watch.worst_cpu, 4),
                                                         "cpu_stalls": watch.cpu_stalls,
                                                         "threshold": watch.threshold,
                                                         "recent": [dataclasses.asdict(s) for s in watch.recent]}}

    def count_live() -> None:
        """Set the live gauges from the tables this process runs and its sockets."""
        counts = {"lobby": 0, "playing": 0}
        bot_tables = sockets = 0
        for table in list(service.tables.values()):
            sockets += sum(1 for c in table.connections if c.alive)
            over = table.match is not None and table.match.is_over  # its end may still be being stored
            if table.replica or table.status not in counts or over:
                continue
            counts[table.status] += 1
            bot_tables += table.has_bots()
        for status, n in counts.items():
            metrics.tables.labels(status).set(n)
        metrics.bot_tables.set(bot_tables)
        metrics.sockets.set(sockets)
        metrics.kernel_ready.set(1 if service.warmup is not None and service.warmup.ready else 0)

    async def keep_counting() -> None:  # several processes: each keeps its own gauges current
        while True:
            count_live()
            await asyncio.sleep(1.0)

    async def expire_lobbies() -> None:
        """Remove the lobbies never started, and end the tables everyone left, in time."""
        every = min([60.0] + [max(0.2, ttl / 4) for ttl in (limits.lobby_expiry, limits.abandon_after) if ttl > 0])
        while True:
            await asyncio.sleep(every)
            await service.expire_lobbies_async()
            await service.end_abandoned_async()

    @app.get("/metrics", include_in_schema=False)
    async def prometheus() -> Response:
        count_live()
        text, kind = metrics.render()
        return Response(text, media_type=kind)

    @app.get("/readyz")
    async def readyz() -> JSONResponse:
        """Ready (200) while the database answers and the process is not stopping, else 503.

        The bots' compiled kernel is not waited for: while it compiles (a minute at most, on a
        fresh install) the process serves every page and every table whose bots do not run on
        it; a table with the expert waits for it, and says so. ``kernel`` is where the compile
        is (waiting, compiling, ready, failed) and ``preparing`` what the page shows meanwhile.
        """
        warmup = service.warmup
        kernel = warmup.state if warmup is not None else "waiting"
        try:
            await asyncio.wait_for(asyncio.to_thread(_ping, store), 2.0)
            database = "ok"
        except Exception as e:  # down, or too slow to count as answering
            database = f"{type(e).__name__}: {e}"[:200] or "no answer"
        ready = warmup is not None and database == "ok" and not draining.is_set()
        body = {"ready": ready, "kernel": kernel, "database": database, "pid": os.getpid()}
        if draining.is_set():
            body["draining"] = True
        if warmup is not None and warmup.state != "ready" and warmup.ready:
            body["kernel_error"] = warmup.error
        if kernel == "compiling":
            body["preparing"] = PREPARING
        return JSONResponse(body, status_code=200 if ready else 503)

    @app.post("/api/tables", openapi_extra=bodies.request_body(bodies.CreateTable))
    async def create(request: Request) -> dict[str, Any]:
        data = await read_body(request)
        async with service.admitting(data.get("guest"), address_of(request)) as who:
            settings = data.get("settings", {})
            config = await service.check_settings(settings)  # builds the bots: off the loop
            table, token, seat = await whole(service.create_async(  # (stored and listed, or neither)
                settings, data.get("name"), data.get("seed"), data.get("guest"), config=config, made_by=who))
        return {"code": table.code, "token": token, "seat": seat, "link": f"/t/{table.code}",
                "table": table.lobby_json()}

    # --- Play now ----------------------------------------------------------------------------

    @app.post("/api/play-now", openapi_extra=bodies.request_body(bodies.PlayNowAsk))
    async def play_now_ask(request: Request) -> dict[str, Any]:
        """A place at the next table of these rules (``{"guest", "name", "rules"}``), or the
        place this guest holds already: a ticket to poll."""
        data = await read_body(request)
        return await quick.ask(data.get("guest"), data.get("name"), data.get("rules"),
                               address_of(request))

    @app.post("/api/play-now/{ticket}", openapi_extra=bodies.request_body(bodies.Guest))
    async def play_now_status(ticket: str, request: Request) -> dict[str, Any]:
        """Where a ticket stands (``{"guest"}``: its own guest only): the people coming and the
        seconds left, then the table, seat and seat token."""
        data = await read_body(request)
        return await quick.status(ticket, data.get("guest"))

    @app.post("/api/play-now/{ticket}/leave", openapi_extra=bodies.request_body(bodies.Guest))
    async def play_now_leave(ticket: str, request: Request) -> dict[str, Any]:
        data = await read_body(request)
        return await quick.leave(ticket, data.get("guest"))

    @app.get("/api/tables/{code}")
    async def lobby(code: str, response: Response) -> dict[str, Any]:
        table = service.get(code)
        # Which process answered (behind a proxy: the one this table's players reach), as the
        # leases name it: an operator, or a test, sees whether the table runs where they are.
        response.headers["X-Callbreak-Process"] = (service.cluster.me if service.cluster is not None
                                                   else str(os.getpid()))
        return table.lobby_json()

    @app.post("/api/tables/{code}/join", openapi_extra=bodies.request_body(bodies.Join))
    async def join(code: str, request: Request) -> dict[str, Any]:
        data = await read_body(request)
        table, token, seat = await service.run("join", code, data.get("name"), data.get("seat"), data.get("guest"))
        return {"code": table.code, "token": token, "seat": seat, "table": table.lobby_json()}

    @app.post("/api/tables/{code}/handoff", openapi_extra=bodies.request_body(bodies.Seated))
    async def handoff(code: str, request: Request) -> dict[str, Any]:
        """A link that moves the caller's seat to another device (shown to that player only)."""
        data = await read_body(request)
        secret = await service.run("handoff", code, data.get("token"))
        return {"handoff": secret, "link": f"/t/{code}#handoff={secret}", "expires_in": HANDOFF_TTL}

    @app.post("/api/tables/{code}/claim", openapi_extra=bodies.request_body(bodies.Claim))
    async def claim(code: str, request: Request) -> dict[str, Any]:
        data = await read_body(request)
        table, token, seat = await service.run("claim", code, data.get("handoff"))
        return {"code": table.code, "token": token, "seat": seat}

    @app.post("/api/tables/{code}/seat", openapi_extra=bodies.request_body(bodies.MoveSeat))
    async def move(code: str, request: Request) -> dict[str, Any]:
        data = await read_body(request)
        table: Table = await service.run("move", code, data.get("token"), data.get("seat"))
        return table.lobby_json()

    @app.post("/api/tables/{code}/start", openapi_extra=bodies.request_body(bodies.Seated))
    async def start(code: str, request: Request) -> dict[str, Any]:
        data = await read_body(request)
        table: Table = await service.run("start", code, data.get("token"))
        return table.lobby_json()

    @app.post("/api/tables/{code}/action", openapi_extra=bodies.request_body(bodies.Act))
    async def act(code: str, request: Request) -> dict[str, Any]:
        data = await read_body(request)
        table = await service.run("act", code, data.get("token"), data.get("version"), data.get("action"))
        return service.state_message(table, table.seat_of(data.get("token")))

    @app.post("/api/tables/{code}/state", openapi_extra=bodies.request_body(bodies.MaybeSeated, required=False))
    async def state(code: str, request: Request) -> dict[str, Any]:
        """The caller's own view (by token), or public information without a token."""
        data = await read_body(request)
        table = service.get(code)
        token = data.get("token")
        seat = table.seat_of(token)
        if token is not None and seat is None:
            raise MessageError("bad_token", N_("that token does not hold a seat at this table"))
        return service.state_message(table, seat)

    @app.post("/api/tables/{code}/hint", openapi_extra=bodies.request_body(bodies.Seated))
    async def hint(code: str, request: Request) -> dict[str, Any]:
        data = await read_body(request)
        return await service.hint(code, data.get("token"), address_of(request))

    @app.post("/api/tables/{code}/stop", openapi_extra=bodies.request_body(bodies.Seated))
    async def stop(code: str, request: Request) -> dict[str, Any]:
        data = await read_body(request)
        table: Table = await service.run("stop", code, data.get("token"))
        return table.lobby_json()

    @app.post("/api/tables/{code}/rematch", openapi_extra=bodies.request_body(bodies.Seated))
    async def rematch(code: str, request: Request) -> dict[str, Any]:
        data = await read_body(request)
        table: Table = await service.run("rematch", code, data.get("token"))
        return table.lobby_json()

    # --- the table websocket ---------------------------------------------------------------

    @app.websocket("/ws/{code}")
    async def table_socket(ws: WebSocket, code: str) -> None:
        await ws.accept()
        lang = language_of(ws)  # the socket's refusals are told in the language of the page that opened it
        if draining.is_set():  # stopping: the page reconnects, to another process
            await ws.close(code=1012)
            return
        finished: Table | None = None  # a closed table whose players are sent on to its rematch
        try:
            table = service.get(code)
        except MessageError as e:
            finished = service.closed_with_rematch(code) if e.code == "no_table" else None
            if finished is None:
                await ws.send_json(error_json(e.code, e.text(lang)))
                await ws.close(code=4404)
                return
            refusal = e
        # A message, or (a state, when its action was stored) to time its latency; None: close.
        address = address_of(ws)
        outbox: asyncio.Queue[dict[str, Any] | str | tuple[str, float] | None] = asyncio.Queue()
        conn = Connection(seat=None, send=lambda m: None, address=address)

        def send(message: dict[str, Any] | str | tuple[str, float]) -> None:
            if not conn.alive:
                return
            if outbox.qsize() >= OUTBOX_LIMIT:  # a client that stopped reading
                conn.alive = False
                outbox.put_nowait(None)
                return
            outbox.put_nowait(message)

        conn.send = send
        conn.timed_send = lambda text, stored_at: send((text, stored_at))
        closing = {"code": 1008}  # a client that stopped reading; 1012: the server restarts

        def close(code: int) -> None:
            closing["code"] = code
            conn.alive = False
            outbox.put_nowait(None)

        conn.close = close

        async def writer() -> None:
            while (message := await outbox.get()) is not None:
                if isinstance(message, tuple):
                    await ws.send_text(message[0])
                    metrics.latency.observe(time.perf_counter() - message[1])
                else:
                    await ws.send_text(message if isinstance(message, str) else dumps(message))
            with contextlib.suppress(Exception):
                await ws.close(code=closing["code"])

        writing = asyncio.create_task(writer())
        attached = False
        # Whatever else it sends meanwhile (pings, messages refused before a hello), a client
        # has this long from connecting to say hello.
        hello_due = asyncio.get_running_loop().time() + limits.hello if limits.hello else None
        try:
            while conn.alive:
                if attached:
                    received = await ws.receive()
                else:  # a client that never says hello does not get to hold a connection
                    try:
                        async with asyncio.timeout_at(hello_due):
                            received = await ws.receive()
                    except TimeoutError:
                        send(error_json("hello_first", f"no hello within {limits.hello:g} s; closing"))
                        break
                if received["type"] == "websocket.disconnect":
                    break
                text = received.get("text")
                if text is None:
                    text = received.get("bytes") or b""
                try:
                    seated = table.seats[conn.seat] if attached and conn.seat is not None else None
                    service.gate.message({"guest": seated.player if seated is not None else None,
                                          "address": address}, now=time.monotonic())
                    message = parse_message(text)
                    kind = message["type"]
                    if not attached:
                        if kind != "hello":
                            raise MessageError("hello_first", "say hello first: {\"type\": \"hello\", "
                                                              "\"token\": ...} (no token to watch)")
                        token = message.get("token")
                        if finished is not None:  # only its seated players may learn where they went
                            seat = finished.seat_of(token)
                            assert finished.rematch_code is not None
                            send(error_json(refusal.code, refusal.text(lang)) if seat is None
                                 else rematch_message(finished.rematch_code, seat))
                            break
                        # The table as it is now: while we waited for the hello, another
                        # process's table may have been let go here and loaded again.
                        table = service.get(code)
                        conn.seat = table.seat_of(token)
                        conn.token_hash = token_hash(token) if conn.seat is not None and isinstance(token, str) else None
                        if token is not None and conn.seat is None:
                            send(error_json("bad_token", say(lang, N_("that token does not hold a seat at "
                                                                      "this table; you are watching"))))
                        send({"type": "welcome", "seat": conn.seat, "code": table.code})
                        service.attach(table, conn)
                        attached = True
                        continue
                    await handle(table, conn, message)
                except Refusal as e:
                    metrics.refusals.labels(e.code).inc()
                    send({**error_json(e.code, e.text(lang)), "retry_after": e.retry_after})
                except MessageError as e:
                    send(error_json(e.code, e.text(lang)))
        except WebSocketDisconnect:
            pass
        finally:
            if attached:
                service.detach(table, conn)
            conn.alive = False
            outbox.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writing, 1.0)
            writing.cancel()

    async def handle(table: Any, conn: Connection, message: dict[str, Any]) -> None:
        kind = message["type"]
        token = message.get("token")
        if kind == "action":
            await service.run("act", table.code, token, message.get("version"), message.get("action"))
        elif kind == "hint":
            conn.send(await service.hint(table.code, token, conn.address))
        elif kind == "start":
            await service.run("start", table.code, token)
        elif kind == "rematch":
            await service.run("rematch", table.code, token)
        elif kind == "stop":
            await service.run("stop", table.code, token)
        elif kind == "ping":
            conn.send({"type": "pong"})
        else:
            raise MessageError("unknown_type", f"unknown message type {kind!r}; expected action, "
                                               "hint, start, rematch, stop or ping")

    # --- history and statistics --------------------------------------------------------------

    @app.get("/api/history")
    async def history(limit: int = 50, offset: int = 0) -> dict[str, Any]:
        limit = max(1, min(limit, 200))
        # (a 64-bit database integer: past it lie no games, and a bigger one was a server error)
        offset = max(0, min(offset, 2**62))
        await service.finishing()
        return {"games": store.finished_games(limit=limit, offset=offset)}

    @app.get("/api/history/{code}")
    async def replay_of(code: str) -> dict[str, Any]:
        await service.finishing(code.upper().replace("-", ""))
        stored = store.load_game(code.upper().replace("-", ""))
        if stored is None or stored.status != "over":
            raise MessageError("no_table", N_("no finished game has that code"))
        return replay_json(stored)

    @app.post("/api/history/{code}/review")
    async def start_review(code: str, request: Request) -> dict[str, Any]:
        stored = await finished(code)
        if reviews.status(stored)["status"] not in ("done", "running"):  # (asking for those is free)
            service.gate.review(address_of(request), reviews.running(), now=time.monotonic())
        return reviews.start(stored)

    @app.get("/api/history/{code}/review")
    async def review_of(code: str) -> dict[str, Any]:
        return reviews.status(await finished(code))

    async def finished(code: str) -> Any:
        await service.finishing(code.upper().replace("-", ""))  # a game whose end is being stored
        stored = store.load_game(code.upper().replace("-", ""))
        if stored is None or stored.status != "over":
            raise MessageError("no_table", N_("no finished game has that code"))
        return stored

    @app.get("/api/stats")
    async def stats() -> dict[str, Any]:
        rows = []
        for r in store.player_stats():
            deal_seats = r["deals"]
            rows.append({**r,
                         "win_rate": round(r["wins"] / r["games"], 3) if r["games"] else 0.0,
                         "avg_per_deal": format_points(round(r["points"] / deal_seats)) if deal_seats else "0",
                         "avg_per_deal_tenths": round(r["points"] / deal_seats, 2) if deal_seats else 0.0,
                         "call_accuracy": round(r["calls_made"] / deal_seats, 3) if deal_seats else 0.0})
        leaderboard = sorted(rows, key=lambda r: (-r["wins"], -r["avg_per_deal_tenths"], r["name"]))
        return {"players": sorted(rows, key=lambda r: r["name"].lower()), "leaderboard": leaderboard}

    # --- scorekeeper -------------------------------------------------------------------------

    @app.post("/api/sheets", openapi_extra=bodies.request_body(bodies.Sheet))
    async def new_sheet(request: Request) -> dict[str, Any]:
        sheet = scorekeeper.check_sheet(await read_body(request))
        code, key = new_code(), secrets.token_urlsafe(18)
        await service.write(store.create_sheet, code, token_hash(key), sheet)
        return {"code": code, "key": key, "link": f"/s/{code}", "sheet": scorekeeper.score_sheet(sheet)}

    @app.post("/api/sheets/check", openapi_extra=bodies.request_body(bodies.Sheet))
    async def check_sheet(request: Request) -> dict[str, Any]:
        return scorekeeper.score_sheet(scorekeeper.check_sheet(await read_body(request)))

    @app.get("/api/sheets/{code}")
    async def get_sheet(code: str) -> dict[str, Any]:
        found = store.load_sheet(code.upper().replace("-", ""))
        if found is None:
            raise MessageError("no_sheet", N_("no score sheet has that code"))
        return {"code": code.upper(), "sheet": scorekeeper.score_sheet(found[1])}

    @app.put("/api/sheets/{code}", openapi_extra=bodies.request_body(bodies.SaveSheet))
    async def save_sheet(code: str, request: Request) -> dict[str, Any]:
        data = await read_body(request)
        code = code.upper().replace("-", "")
        found = store.load_sheet(code)
        if found is None:
            raise MessageError("no_sheet", N_("no score sheet has that code"))
        key = data.get("key")
        if not isinstance(key, str) or not secrets.compare_digest(token_hash(key), found[0]):
            raise MessageError("bad_key", N_("that edit key does not match this sheet (the link alone "
                                             "only shows it)"))
        sheet = scorekeeper.check_sheet(data.get("sheet"))
        await service.write(store.update_sheet, code, sheet)
        return {"code": code, "sheet": scorekeeper.score_sheet(sheet)}

    return app


def _drain_on_sigterm(drain: Callable[[], Awaitable[None]]) -> None:
    """On SIGTERM, ``drain`` first, then whatever stopped the process before (uvicorn's exit:
    it stops listening, waits for the requests under way, and the app shuts down). Only where
    signals can be caught (the main thread: a real server, not a test's app in a thread)."""
    if threading.current_thread() is not threading.main_thread():
        return
    loop = asyncio.get_running_loop()
    previous = signal.getsignal(signal.SIGTERM)

    def stop(sig: int, frame: Any) -> None:
        async def drain_then_stop() -> None:
            try:
                await asyncio.wait_for(drain(), 5.0)
            except Exception:
                log.exception("draining before the stop failed; stopping anyway")
            if callable(previous):
                previous(sig, frame)
            else:
                raise SystemExit(0)

        signal.signal(signal.SIGTERM, previous)  # a second SIGTERM stops at once
        loop.call_soon_threadsafe(lambda: loop.create_task(drain_then_stop()))

    signal.signal(signal.SIGTERM, stop)


def language_of(connection: Request | WebSocket) -> str:
    """The language to answer in: the page's choice (its ``lang`` cookie), else the browser's
    ``Accept-Language``, else English."""
    return i18n.negotiate(connection.headers.get("accept-language"), connection.cookies.get("lang"))


def _ping(store: Store) -> None:
    """One round trip to the database (raises if it does not answer)."""
    with store.engine.connect() as conn:
        conn.exec_driver_sql("SELECT 1")


def stored_record(stored: Any) -> Record:
    """The full record of a stored game (for the server's own use: it holds every card)."""
    config = {k: v for k, v in stored.config.items() if k not in ("seed", "host_hash")}
    actions = tuple(action_from_json(a) for a in stored.actions)
    info = engines.info_of(config)
    return Record(info.name, engines.seat_count(config), engines.game_options(config),
                  tuple(s["name"] for s in stored.seats), actions, {"code": stored.code})


_CHANCE_KINDS = ("deal", "draw", "choose_dealer", "stop")


def replay_json(stored: Any) -> dict[str, Any]:
    """A finished game of any kind for the replay viewer: the public view after every move, and
    each hand as far as it was seen.

    Hands come from the record redacted for nobody: a card shows only once it was played or
    shown, so a thrown-in deal's unseen cards stay hidden, and the frames are spectator views.
    """
    record = stored_record(stored)
    public = redact(record, -1)
    game = record.new_game()
    frames: list[dict[str, Any]] = []
    hands: list[list[str]] = [[] for _ in range(record.players)]
    for action, shown in zip(record.actions, public["actions"], strict=True):
        game.apply(action)
        if shown["type"] == "deal":
            hands = [list(h) for h in shown["hands"]]
        if shown["type"] in _CHANCE_KINDS:
            continue
        if shown["type"] == "play":
            hand = hands[shown["seat"]]
            if shown["card"] in hand:
                hand.remove(shown["card"])
        if shown["type"] == "exchange":  # which cards went back to the stock stays private
            shown = public_action_json(action)
        frames.append({"action": shown, "hands": [list(h) for h in hands],
                       "view": view_json(game.view(None))})
    return {"code": stored.code, "seats": [s["name"] for s in stored.seats], "game": record.game,
            "preset": stored.config.get("preset", record.game), "frames": frames,
            "totals": list(game.totals),  # tenths of a point, as every game keeps them
            "winners": list(game.winners),
            "finished_at": stored.finished_at.isoformat() + "Z" if stored.finished_at else None}
