"""The ``callbreak`` command. Each subcommand lives near the layer it drives; this file wires them."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from callbreak import __version__
from callbreak.cli.bot_server import bot_server
from callbreak.core import PRESETS, CallbreakError, preset
from callbreak.record import loads, narrate
from callbreak.record import replay as replay_record

app = typer.Typer(help="Call Break: rules engine, bots, arena, terminal and web play.",
                  no_args_is_help=True, add_completion=False)
console = Console()


def _version(value: bool) -> None:
    if value:
        console.print(f"callbreak {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Call Break: rules engine, bots, arena, terminal and web play."""


def fail(message: str) -> None:
    """Print a clear error and exit with status 2 (bad input)."""
    Console(stderr=True).print(f"[red]error:[/red] {message}", highlight=False)
    raise typer.Exit(2)


@app.command()
def presets(name: Annotated[str | None, typer.Argument(help="A preset to show in full.")] = None) -> None:
    """List the rule presets, or print one preset's options."""
    if name is None:
        table = Table("preset", "description", box=None)
        for p in PRESETS.values():
            table.add_row(p.name, p.description)
        console.print(table)
        from callbreak.games import GAMES

        others = ", ".join(name for name, info in GAMES.items() if info.cls is not None)
        console.print(f"\nRelated games of seed 000 (games of their own, not presets): {others}; "
                      "see `callbreak related-games` and `callbreak play --game NAME`.")
        return
    try:
        p = preset(name)
    except CallbreakError as e:
        fail(str(e))
        return
    console.print(f"[bold]{p.name}[/bold]: {p.description}")
    table = Table("option", "value", box=None)
    for k, v in p.rules.describe():
        table.add_row(k, v)
    console.print(table)


@app.command()
def replay(path: Annotated[Path, typer.Argument(help="A record file (JSON).")],
           step: Annotated[bool, typer.Option("--step", help="Step through it in the terminal interface.")] = False,
           seat: Annotated[int, typer.Option("--seat", help="With --step: the seat to watch from.")] = 0) -> None:
    """Print a readable deal-by-deal account of a game record (or step through it with --step).

    Reads Call Break records and the related games' records (by their "game" field)."""
    from callbreak.cli.tui.saves import resolve_record_path

    path = resolve_record_path(path)  # a saved terminal game may be named by its file name
    try:
        text = path.read_bytes()
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
        return
    game = _record_game(text)
    if game is not None:
        # A related game's record: read and narrated by callbreak.games.record.
        from callbreak.games.record import loads_game, narrate_game

        if step:
            fail(f"{path}: --step reads Call Break records only; this is a {game} record")
        try:
            game_record = loads_game(text)
        except CallbreakError as e:
            fail(f"{path}: {e}")
            return
        for line in narrate_game(game_record):
            console.print(line, highlight=False)
        return
    if step:
        from callbreak.cli.play import replay_step
        return replay_step(path, seat)
    try:
        record = loads(text)
        final = replay_record(record)
    except CallbreakError as e:
        fail(f"{path}: {e}")
        return
    from callbreak.cli.tui.saves import unfinished_play_seat

    if unfinished_play_seat(record, final) is not None:
        # The account shows every hand; while the match can still be resumed that would show
        # the person the bots' cards.
        fail(f"{path.name} is a match you have not finished: `callbreak play --resume` continues "
             f"it, and `callbreak replay {path.name} --step` steps through it from your seat")
    for line in narrate(record):
        console.print(line, highlight=False)


def _record_game(text: bytes) -> str | None:
    """The related game a record names in its ``"game"`` field, or None for Call Break (and for
    text that is not a JSON object: the Call Break reader then explains what is wrong)."""
    import json

    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        return None
    game = data.get("game") if isinstance(data, dict) else None
    if not isinstance(game, str) or game == "callbreak":
        return None
    from callbreak.games import GAMES

    info = GAMES.get(game)
    return game if info is not None and info.cls is not None else None


# Subcommands that live in their own modules register here, one line each.
app.command("bot-server")(bot_server)
import callbreak.cli.arena  # noqa: E402,F401  (callbreak arena)
import callbreak.cli.games  # noqa: E402,F401  (callbreak related-games)
import callbreak.cli.play  # noqa: E402,F401  (callbreak play, callbreak games)
import callbreak.cli.serve  # noqa: E402,F401  (callbreak serve)


def main() -> None:
    app()


if __name__ == "__main__":
    # Run as ``python -m callbreak.cli.main``, this file is ``__main__`` while the subcommand
    # modules register on ``callbreak.cli.main``'s app: run that one, which has them all.
    from callbreak.cli.main import main as _main

    _main()
