"""The ``callbreak`` command: the core's own commands (presets, bots, replay), and the wiring of
the subcommands that live in their own modules (each registers on :data:`callbreak.cli.base.app`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from callbreak.cli.base import app, fail
from callbreak.cli.bot_server import bot_server
from callbreak.cli.tables import Grid, show
from callbreak.core import PRESETS, CallbreakError, preset
from callbreak.record import loads, narrate
from callbreak.record import replay as replay_record

console = Console()


def related_games() -> list[str]:
    """The games of their own beside the one these presets are of (Call Break; Call Bridge is
    one of its presets, not a game), asked of the registry, so a game registered later is one."""
    from callbreak.games import games

    return [info.name for info in games() if not any(p.name in PRESETS for p in info.presets)]


@app.command()
def presets(name: Annotated[str | None, typer.Argument(help="A preset to show in full.")] = None) -> None:
    """List the rule presets, or print one preset's options."""
    if name is None:
        table = Grid(["preset", "title", "description"], wrap=["description"])
        for p in PRESETS.values():
            table.add(p.name, p.title, p.description)
        show(console, table)
        others = ", ".join(related_games())
        console.print(f"\nRelated games (games of their own, not presets): {others}; see "
                      "`callbreak related-games` and `callbreak play --game NAME`.")
        return
    try:
        p = preset(name)
    except CallbreakError as e:
        fail(str(e))
        return
    console.print(f"[bold]{p.title}[/bold] ({p.name}): {p.description}")
    table = Grid(["option", "value"])
    for k, v in p.rules.describe():
        table.add(k, v)
    show(console, table)


@app.command()
def bots(game: Annotated[str | None, typer.Option(help="Only the bots that play this game.")] = None) -> None:
    """List the bots: what each plays and how, for the arena, the web tables and `play`."""
    from callbreak.bots.base import catalog
    from callbreak.games import game_info, games

    if game is not None:
        try:
            game_info(game)
        except CallbreakError as e:
            fail(str(e))
            return
    every = {info.name for info in games()}
    related = set(related_games())
    table = Grid(["bot", "games", "description"], wrap=["games", "description"])
    for entry in catalog(game):
        shown = set(entry.played)
        plays = ("every game" if shown == every else "the related games" if shown == related
                 else ", ".join(entry.played))
        note = "" if entry.installed else f" (needs {entry.install})"
        table.add(entry.name, plays, entry.description + note)
    show(console, table)
    console.print("\nOptions follow the name, e.g. `expert:budget=0.1` or `ismcts:iterations=300`; "
                  "a tournament-protocol bot is named by its URL.")


@app.command()
def replay(path: Annotated[Path, typer.Argument(help="A record file (JSON).")],
           step: Annotated[bool, typer.Option("--step", help="Step through it in the terminal interface.")] = False,
           seat: Annotated[int, typer.Option("--seat", help="With --step: the seat to watch from.")] = 0,
           lang: Annotated[str | None, typer.Option(
               "--lang", help="With --step: the language of the screen (as for `callbreak play`).")] = None,
           ) -> None:
    """Print a readable deal-by-deal account of any game's record (or step through it with --step)."""
    from callbreak.cli.tui.saves import resolve_record_path, unfinished_play_seat

    path = resolve_record_path(path)  # a saved terminal game may be named by its file name
    if step:
        from callbreak.cli.play import replay_step
        return replay_step(path, seat, lang)
    try:
        record = loads(path.read_bytes())
        final = replay_record(record)
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
        return
    except CallbreakError as e:
        fail(f"{path}: {e}")
        return
    if unfinished_play_seat(record, final) is not None:
        # The account shows every hand; while the game can still be resumed that would show
        # the person the bots' cards.
        fail(f"{path.name} is a match you have not finished: `callbreak play --resume` continues "
             f"it, and `callbreak replay {path.name} --step` steps through it from your seat")
    for line in narrate(record):
        console.print(line, highlight=False, markup=False, soft_wrap=True)  # whole lines, even in a file


# Subcommands that live in their own modules, one line each (in the order `--help` lists them).
app.command("bot-server")(bot_server)
import callbreak.cli.arena  # noqa: E402,F401  (callbreak arena)
import callbreak.cli.games  # noqa: E402,F401  (callbreak related-games)
import callbreak.cli.play  # noqa: E402,F401  (callbreak play, callbreak games)
import callbreak.cli.review  # noqa: E402,F401  (callbreak review)
import callbreak.cli.rules  # noqa: E402,F401  (callbreak rules)
import callbreak.cli.serve  # noqa: E402,F401  (callbreak serve)
import callbreak.cli.train  # noqa: E402,F401  (callbreak train)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
