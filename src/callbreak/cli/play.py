"""``callbreak play`` (any registered game against bots in the terminal), ``callbreak games`` (the
saved ones) and ``callbreak replay FILE --step``.

The Textual interface lives in :mod:`callbreak.cli.tui`; this module turns command-line options
into a :class:`~callbreak.cli.tui.session.Session` and reports bad options before any screen opens.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from callbreak.cli.base import app, fail, start_language
from callbreak.cli.tables import Grid, show
from callbreak.cli.tui.language import _
from callbreak.core import CallbreakError
from callbreak.i18n import LANGUAGES

if TYPE_CHECKING:
    from callbreak.cli.tui.session import Session

console = Console()


LANG_HELP = (f"The language of the game: {', '.join(LANGUAGES)} (remembered for the next games; "
             "default: the last one chosen, else LC_ALL / LC_MESSAGES / LANG, else English). "
             "F2 switches it in the game.")


def parse_overrides(options: list[str]) -> dict[str, str]:
    """``["deals=1", "max_call=8"]`` -> ``{"deals": "1", "max_call": "8"}``; bad items raise."""
    out: dict[str, str] = {}
    for item in options:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise CallbreakError(f"--option expects key=value (e.g. deals=3), got {item!r}")
        out[key.strip()] = value.strip()
    return out


# The settings a saved match keeps, by parameter name: --resume refuses any of them given.
RESUME_KEEPS = {"preset": "--preset", "option": "--option", "opponents": "--opponents", "seat": "--seat",
                "seed": "--seed", "game": "--game", "players": "--players"}


@app.command()
def play(
    ctx: typer.Context,
    game: Annotated[str, typer.Option(
        "--game", "-g", help="The game to play (see `callbreak related-games`).")] = "callbreak",
    players: Annotated[int | None, typer.Option(
        "--players", help="Players at the table (default: the game's usual number).")] = None,
    preset: Annotated[str | None, typer.Option(
        "--preset", "-p", help="The game's rule preset (default: its first; see `callbreak "
                               "presets` and `callbreak related-games NAME`).")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="Override a rule or game option: key=value (repeatable).")] = None,
    opponents: Annotated[str | None, typer.Option(
        "--opponents", help="One bot for every other seat, or one per seat in play order from "
                            "your right, comma-separated: bots that play the game (`callbreak "
                            "bots --game NAME` lists them), or for Call Break tournament-bot "
                            "URLs. Default: the strongest bot for the game.")] = None,
    seat: Annotated[int, typer.Option("--seat", help="Your seat, 0 to players-1.")] = 0,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for the deals and the bots.")] = None,
    fast: Annotated[bool, typer.Option("--fast", help="Bots move instantly.")] = False,
    delay: Annotated[float, typer.Option("--delay", help="Seconds between bot moves.", min=0, max=10)] = 0.8,
    think: Annotated[float | None, typer.Option(
        "--think", help="Seconds a bot may think per move (and for a hint). Default: 1, or 0.1 with --fast.",
        min=0.01, max=30)] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the last unfinished game.")] = False,
    hint: Annotated[str | None, typer.Option(
        "--hint", help="The bot whose advice `h` shows (default: the strongest for the game; "
                       "`neural` answers at once).")] = None,
    lang: Annotated[str | None, typer.Option("--lang", help=LANG_HELP)] = None,
) -> None:
    """Play a whole game of Call Break (or any registered game) against bots in the terminal."""
    from callbreak.cli.tui.app import PlayApp
    from callbreak.cli.tui.session import Session
    from callbreak.games import game_info

    start_language(lang)

    if not resume:
        try:
            game_info(game)  # an unknown game is refused before anything is set up
        except CallbreakError as e:
            fail(str(e))
            return
    problem: str | None = None
    # Bots may take a moment to load; the note goes once the table is up (or refused).
    with console.status(_("Setting up the table…")):
        try:
            if resume:
                problem, session = _resume(ctx)
            else:
                specs = [s.strip() for s in opponents.split(",")] if opponents is not None else None
                session = Session.new(game, players=players, preset=preset,
                                      options=parse_overrides(option or []), opponents=specs,
                                      seat=seat, seed=seed)
        except CallbreakError as e:
            problem = str(e)
        except OSError as e:
            problem = f"cannot save the game: {e}"
    if problem is None and hint is not None:
        from callbreak.bots import BotError, make_bot

        try:
            make_bot(hint, game=session.name)  # a bot that cannot give this game's hints is refused now
            session.hint_bot = hint
        except BotError as e:
            problem = f"--hint: {e}"
    if problem is not None:
        fail(problem)
        return
    if resume and session.save_path is not None:
        console.print(_("Resuming {file}").format(file=session.save_path.name), highlight=False)
    if think is None:
        think = 0.1 if fast else 1.0
    choice = PlayApp(session, delay=0.0 if fast else delay, think=think).run()
    if choice == "review" and session.is_over:
        review_session(session)
    if session.save_path is not None:
        if session.is_over:
            console.print(_("Match saved to {path}").format(path=session.save_path), highlight=False)
        else:
            console.print(_("Match saved to {path}; continue it with `callbreak play --resume`").format(
                path=session.save_path), highlight=False)


def _resume(ctx: typer.Context) -> tuple[str | None, Any]:
    """The last unfinished match, or why there is none to resume: (problem, session)."""
    from callbreak.cli.tui.saves import latest_unfinished
    from callbreak.cli.tui.session import Session

    given = [flag for name, flag in RESUME_KEEPS.items() if _given(ctx, name)]
    if given:
        return (f"--resume continues the saved match with its own settings, so "
                f"{', '.join(given)} cannot be given with it"), None
    path = latest_unfinished()
    if path is None:
        return "there is no unfinished match to resume; start one with `callbreak play`", None
    return None, Session.resume(path)


def _given(ctx: typer.Context, name: str) -> bool:
    """Whether the option ``name`` was given, even with its default's value (``--game callbreak``
    with --resume would else resume a saved Donut game as if it had not been asked for)."""
    source = ctx.get_parameter_source(name)
    # Typer's own copy of click says where a value came from; its ParameterSource is not
    # public, so by member name.
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


@app.command()
def games() -> None:
    """List the saved terminal games, newest first."""
    from callbreak.cli.tui.saves import games_dir, list_saved

    saved = list_saved()
    if not saved:
        console.print(f"No saved games in {games_dir()}", highlight=False)
        return
    from datetime import datetime

    table = Grid(["file", "last move", "deals", "status", "seats", "game"])
    for g in saved:
        when = datetime.fromtimestamp(g.modified).strftime("%Y-%m-%d %H:%M") if g.readable else "?"
        status = "unreadable" if not g.readable else ("finished" if g.finished else "unfinished")
        # (the file name is what `callbreak replay` takes: a column, or each row's heading)
        table.add(g.path.name, when, str(g.deals_played), status, ", ".join(g.seats), g.game)
    show(console, table)


def replay_step(path: Path, seat: int = 0, lang: str | None = None) -> None:
    """Step through any game's record in the terminal interface (``callbreak replay FILE
    --step``). ``path`` may also name a file in the saved-games folder."""
    from callbreak.cli.tui.replay_app import ReplayApp
    from callbreak.cli.tui.saves import resolve_record_path
    from callbreak.record import loads

    start_language(lang)
    real = resolve_record_path(path)
    try:
        text = real.read_bytes()
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
        return
    try:
        record = loads(text)
    except CallbreakError as e:
        fail(f"{real}: {e}")
        return
    if isinstance(seat, bool) or not 0 <= seat < record.players:
        fail(f"--seat must be 0-{record.players - 1}, got {seat}")
    ReplayApp(record, seat=seat).run()


__all__ = ["games", "parse_overrides", "play", "replay_step"]


def review_session(session: Session) -> None:
    """The review of the match just played (offered at its end), printed here."""
    from callbreak.cli.review import print_review
    from callbreak.record import record_of
    from callbreak.review import judge_for, review_record

    judge = judge_for(session.name)
    console.print(_("The expert is reviewing the match…") if judge == "expert"
                  else _("The {bot} bot is reviewing the match…").format(bot=judge), highlight=False)
    record = record_of(session.game, seats=session.names(), name=session.name)
    try:
        print_review(review_record(record, workers=2))
    except CallbreakError as e:
        console.print(_("No review: {why}").format(why=e), highlight=False)
