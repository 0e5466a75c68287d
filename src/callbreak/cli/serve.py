"""``callbreak serve``: the web app on uvicorn, SQLite by default or PostgreSQL by URL."""

from __future__ import annotations

import errno
import logging
import os
import shutil
import socket
import tempfile
from typing import TYPE_CHECKING, Annotated, Any

import typer

from callbreak.cli.base import app

if TYPE_CHECKING:  # (imported when serving: `callbreak --help` stays quick)
    from callbreak.store import Store
    from callbreak.store.owner import OwnerFile

# The largest websocket frame uvicorn reads. The app's own limit on a message is far smaller
# (server/wire.py's MAX_MESSAGE_BYTES) and answers with a ``too_large`` error that keeps the
# socket open; frames above this close it (1009) before the app can see them.
WS_MAX_FRAME = 1024 * 1024


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option(
        help="Database URL: sqlite:///path.db or postgresql://user@host/db "
             "(default: SQLite in the user's data directory).")] = None,
    no_url_bots: Annotated[bool, typer.Option(
        "--no-url-bots", envvar="CALLBREAK_NO_URL_BOTS",
        help="Refuse tables that seat a bot by URL (the server would send HTTP requests wherever "
             "a table's creator points it): use this on a public server.")] = False,
    workers: Annotated[int, typer.Option(
        min=1, help="Server processes on this port (PostgreSQL only: they share the tables through "
                    "it, as do servers on other machines with the same --db).")] = 1,
    practice: Annotated[bool, typer.Option(
        "--practice", envvar="CALLBREAK_PRACTICE",
        help="Let a table's creator choose its seed (for practice and tests): such tables are "
             "labelled 'practice (seeded)' and kept out of the leaderboard and statistics. "
             "Without it every deal comes from the server's own randomness.")] = False,
    log_json: Annotated[bool, typer.Option(
        "--log-json", envvar="CALLBREAK_LOG_JSON",
        help="Log one JSON object a line (time, pid, level, logger, message) instead of text.")] = False,
    no_limits: Annotated[bool, typer.Option(
        "--no-limits", envvar="CALLBREAK_NO_LIMITS", rich_help_panel="Limits (0: none)",
        help="Turn every limit below off but the lobby expiry and the end of abandoned tables (a "
             "trusted network, a load test).")] = False,
    tables_per_minute: Annotated[int | None, typer.Option(
        envvar="CALLBREAK_TABLES_PER_MINUTE", rich_help_panel="Limits (0: none)",
        help="New tables a minute per guest identity (default 10).")] = None,
    tables_per_minute_per_address: Annotated[int | None, typer.Option(
        envvar="CALLBREAK_TABLES_PER_MINUTE_PER_ADDRESS", rich_help_panel="Limits (0: none)",
        help="New tables a minute per client address (default 30).")] = None,
    live_tables: Annotated[int | None, typer.Option(
        envvar="CALLBREAK_LIVE_TABLES", rich_help_panel="Limits (0: none)",
        help="Unfinished tables one guest identity may have made (default 5).")] = None,
    live_tables_per_address: Annotated[int | None, typer.Option(
        envvar="CALLBREAK_LIVE_TABLES_PER_ADDRESS", rich_help_panel="Limits (0: none)",
        help="Unfinished tables made from one address (default 20).")] = None,
    messages_per_second: Annotated[float | None, typer.Option(
        envvar="CALLBREAK_MESSAGES_PER_SECOND", rich_help_panel="Limits (0: none)",
        help="Websocket messages a second per seated guest, bursts of twice that (default 20).")] = None,
    messages_per_second_per_address: Annotated[float | None, typer.Option(
        envvar="CALLBREAK_MESSAGES_PER_SECOND_PER_ADDRESS", rich_help_panel="Limits (0: none)",
        help="Websocket messages a second per address, bursts of twice that (default 60).")] = None,
    hints_per_minute: Annotated[int | None, typer.Option(
        envvar="CALLBREAK_HINTS_PER_MINUTE", rich_help_panel="Limits (0: none)",
        help="Hints worked out a minute for one seat; asking again on the same turn is free "
             "(default 20).")] = None,
    hints_per_minute_per_address: Annotated[int | None, typer.Option(
        envvar="CALLBREAK_HINTS_PER_MINUTE_PER_ADDRESS", rich_help_panel="Limits (0: none)",
        help="Hints worked out a minute for one address (default 60).")] = None,
    live_bot_tables: Annotated[int | None, typer.Option(
        envvar="CALLBREAK_LIVE_BOT_TABLES", rich_help_panel="Limits (0: none)",
        help="Live tables with bots, server-wide (per process); beyond it new tables are refused "
             "and the lobby says the server is full (default 200).")] = None,
    bot_table_share: Annotated[float | None, typer.Option(
        envvar="CALLBREAK_BOT_TABLE_SHARE", rich_help_panel="Limits (0: none)",
        help="The most of the live bot tables one guest identity, or one address, may hold "
             "(default 0.05: 10 of 200).")] = None,
    lobby_expiry: Annotated[float | None, typer.Option(
        envvar="CALLBREAK_LOBBY_EXPIRY", rich_help_panel="Limits (0: none)",
        help="Seconds a table never started lives before it is removed (default 600).")] = None,
    abandon_after: Annotated[float | None, typer.Option(
        envvar="CALLBREAK_ABANDON_AFTER", rich_help_panel="Limits (0: none)",
        help="Seconds a started table whose people have all left waits for one to come back, "
             "then ends (default 600).")] = None,
    play_now_wait: Annotated[float | None, typer.Option(
        envvar="CALLBREAK_PLAY_NOW_WAIT", rich_help_panel="Play now",
        help="Seconds the first person of a Play now group waits for others before bots fill the "
             "seats nobody took (default 8).")] = None,
    play_now_deals: Annotated[int | None, typer.Option(
        envvar="CALLBREAK_PLAY_NOW_DEALS", rich_help_panel="Play now",
        help="Deals a Play now table plays (default: its rules' own, 5 for Call Break).")] = None,
    play_now_bot: Annotated[str | None, typer.Option(
        envvar="CALLBREAK_PLAY_NOW_BOT", rich_help_panel="Play now",
        help="The bot level that fills Play now seats (default: the strongest).")] = None,
    play_now_bot_delay: Annotated[float | None, typer.Option(
        envvar="CALLBREAK_PLAY_NOW_BOT_DELAY", rich_help_panel="Play now",
        help="Seconds a Play now bot waits before it plays (default 0.7, a human pace).")] = None,
) -> None:
    """Start the web app and print its URL."""
    given = dict(locals())  # (the limits among them are read by their Limits field names)

    # The port first: a server that cannot listen must not touch the database (it would resume
    # the tables another server is playing) nor say that it runs.
    listening = _listen(host, port)
    # Every process of the server reads its Play now settings and its limits from the environment.
    _to_environment("CALLBREAK_PLAY_NOW_", {"wait": play_now_wait, "deals": play_now_deals,
                                            "bot": play_now_bot, "bot_delay": play_now_bot_delay})
    _check_play_now()
    url = db or _default_url()
    owner = _claim_database(url, workers, _address(host, port))
    try:
        store = _open_store(url)
        _limits_to_environment(no_limits, given)
        from callbreak.server.app import setup_logging

        setup_logging(log_json, keep=True)  # (left as it is where logging is set up: a test)
        _announce(host, port, store.url, no_url_bots=no_url_bots, practice=practice)
        if owner is not None and owner.previous is not None:
            typer.echo(f"(the last server on this database, {owner.previous.describe()}, did not stop "
                       "cleanly; this one takes its place and resumes its tables)")
        if workers > 1:
            _serve_in_workers(workers, listening, store, no_url_bots=no_url_bots, practice=practice,
                              log_json=log_json)
        else:
            _serve_here(listening, store, owner, no_url_bots=no_url_bots, practice=practice)
    finally:
        if owner is not None:
            owner.release()


def _uvicorn_options(listening: socket.socket) -> dict[str, Any]:
    """How uvicorn serves, in one process or in each worker."""
    from callbreak.server.http_protocol import HeadersInTime

    host, port = listening.getsockname()[:2]
    # No per-message compression: state messages are small and deflate costs more CPU than it saves.
    # log_config None: uvicorn's own lines go through our handler too (time and process first).
    return {"host": host, "port": port, "log_level": "warning", "log_config": None,
            "ws_max_size": WS_MAX_FRAME, "ws_per_message_deflate": False,
            "ws_ping_interval": 20, "ws_ping_timeout": 20, "http": HeadersInTime}


def _serve_here(listening: socket.socket, store: Store, owner: OwnerFile | None, *, no_url_bots: bool,
                practice: bool) -> None:
    import uvicorn

    from callbreak.server.app import create_app
    from callbreak.server.limits import Limits
    from callbreak.server.playnow import PlayNowSettings

    app_ = create_app(store, url_bots=not no_url_bots, practice=practice, warm_in_child=True,
                      limits=Limits.from_env(), play_now=PlayNowSettings.from_env())
    _run_owning(uvicorn.Config(app_, **_uvicorn_options(listening)), listening, owner)


def _serve_in_workers(workers: int, listening: socket.socket, store: Store, *, no_url_bots: bool,
                      practice: bool, log_json: bool) -> None:
    """Each worker process builds its own app and store from the environment (server/app.py);
    uvicorn's supervisor listens itself, so ours is let go at the last moment."""
    options = _uvicorn_options(listening)
    listening.close()
    store.close()
    os.environ["CALLBREAK_DB"] = store.url
    os.environ["CALLBREAK_NO_URL_BOTS"] = "1" if no_url_bots else ""
    os.environ["CALLBREAK_PRACTICE"] = "1" if practice else ""
    os.environ["CALLBREAK_LOG_JSON"] = "1" if log_json else ""
    _run_workers(workers, options)


def _limits_to_environment(no_limits: bool, given: dict[str, Any]) -> None:
    """The limits given on the command line (the options named as :class:`Limits`' fields) as
    ``CALLBREAK_`` variables, for every process of the server to read."""
    from dataclasses import fields

    from callbreak.server.limits import Limits

    os.environ["CALLBREAK_NO_LIMITS"] = "1" if no_limits else ""
    _to_environment("CALLBREAK_", {f.name: given[f.name] for f in fields(Limits) if f.name in given})


def _run_owning(config: Any, listening: socket.socket, owner: OwnerFile | None) -> None:
    """uvicorn's server on ``listening``, which lets the database go once it has shut down (its
    tables stored): on a signal, uvicorn raises the signal again after its shutdown, which ends
    the process before the code after ``run`` could."""
    import uvicorn

    class OwningServer(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            try:
                await super().shutdown(sockets)
            finally:
                if owner is not None:
                    owner.release()

    OwningServer(config).run(sockets=[listening])


def _to_environment(prefix: str, settings: dict[str, Any]) -> None:
    """The settings given (not None) as ``PREFIX_NAME`` variables, for every process to read."""
    for name, value in settings.items():
        if value is not None:
            os.environ[f"{prefix}{name.upper()}"] = str(value)


def _check_play_now() -> None:
    from callbreak.core import CallbreakError
    from callbreak.server.playnow import PlayNowSettings

    try:
        PlayNowSettings.from_env().check()
    except (CallbreakError, ValueError) as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from None


def _default_url() -> str:
    from callbreak.store import default_url

    return default_url()


def _claim_database(url: str, workers: int, address: str) -> OwnerFile | None:
    """The owner file of a SQLite database, held (store/owner.py), or exit 2 saying why this
    server cannot have it: another server has it, or ``workers`` > 1 (SQLite is one process's).
    None on PostgreSQL, where servers share the database as a cluster."""
    from callbreak.store import sqlite_file
    from callbreak.store.owner import DatabaseInUse, claim

    database = sqlite_file(url)
    if database is None:
        return None
    if workers > 1:
        typer.echo(f"error: --workers {workers} needs PostgreSQL: SQLite is one process's database (the "
                   "processes could not share the tables, their leases or their messages); run one "
                   "process on SQLite, or give --db postgresql://user@host/dbname", err=True)
        raise typer.Exit(2)
    try:
        return claim(database, address)
    except DatabaseInUse as e:
        typer.echo(f"error: {e}", err=True)
    except OSError as e:
        typer.echo(f"error: cannot use the database {database}: {e.strerror or e} ({e.filename})", err=True)
    raise typer.Exit(2)


def _open_store(url: str) -> Store:
    """The store at ``url``, or exit 2 saying why it cannot serve."""
    from callbreak.core import CallbreakError
    from callbreak.store import Store

    try:
        return Store(url)
    except CallbreakError as e:
        typer.echo(f"error: {e}", err=True)
    except Exception as e:  # the database refused the connection, or the file is unusable
        typer.echo(f"error: cannot open the database {_safe(url)}: {e}", err=True)
    raise typer.Exit(2)


def _address(host: str, port: int) -> str:
    shown = "localhost" if host in ("0.0.0.0", "::") else host
    return f"http://{shown}:{port}"


def _announce(host: str, port: int, db_url: str, *, no_url_bots: bool, practice: bool) -> None:
    typer.echo(f"Call Break is running at {_address(host, port)}", nl=True)
    typer.echo(f"(database: {_safe(db_url)}; press Ctrl+C to stop)")
    if no_url_bots:
        typer.echo("(bots by URL are turned off)")
    if practice:
        typer.echo("(practice: clients may seed the deals; such tables are labelled and not counted)")


def _run_workers(workers: int, options: dict[str, Any]) -> None:
    """uvicorn's supervisor with ``workers`` processes, each building its app from the environment."""
    import uvicorn

    # /metrics adds up every process of the server (prometheus_client's multiprocess mode).
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="callbreak-metrics-")
    _log_worker_restarts()
    typer.echo(f"({workers} processes)")
    try:
        uvicorn.run("callbreak.server.app:app_from_env", factory=True, workers=workers, **options)
    finally:
        shutil.rmtree(os.environ["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port``, or exit 2 saying why (a busy port, an address
    this machine does not have)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # (as uvicorn does: restarts at once)
    try:
        sock.bind((host, port))
        sock.listen(2048)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            typer.echo(f"error: port {port} is in use (another server, or another program); "
                       "choose another with --port", err=True)
        else:
            typer.echo(f"error: cannot listen on {host}:{port}: {e.strerror or e}", err=True)
        raise typer.Exit(2) from None
    sock.set_inheritable(True)
    return sock


def _log_worker_restarts() -> None:
    """uvicorn's supervisor restarts a worker that died, saying so only at a level we do not
    show: say which process died and which one took its place (its tables go to the live
    processes, which log each table they take over, naming the process it came from)."""
    from uvicorn.supervisors.multiprocess import Multiprocess

    from callbreak.server.metrics import mark_dead

    log = logging.getLogger("callbreak.serve")
    keep = Multiprocess.keep_subprocess_alive

    def keep_and_tell(self: Any) -> None:
        before = [p.pid for p in self.processes]
        keep(self)
        for old, new in zip(before, [p.pid for p in self.processes], strict=True):
            if old != new:
                mark_dead(old)
                log.warning("worker process %s died; the supervisor (process %d) started process %s in "
                            "its place", old, os.getpid(), new)

    Multiprocess.keep_subprocess_alive = keep_and_tell  # type: ignore[method-assign]


def _safe(url: str) -> str:
    """The URL without a password."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        return f"{scheme}://{creds.split(':')[0]}@{host}"
    return url
