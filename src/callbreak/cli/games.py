"""``callbreak related-games``: every registered game, listed, described, or played out by bots.

(Named ``related-games`` because ``callbreak games`` already lists the terminal's saved games.)
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from callbreak.arena.runner import DealStream
from callbreak.bots import bots_for, make_bot
from callbreak.cli.base import app, fail
from callbreak.cli.play import parse_overrides
from callbreak.cli.tables import Grid, show
from callbreak.core import CallbreakError
from callbreak.games import GameInfo, game_info, games
from callbreak.record import dumps, narrate, record_of
from callbreak.referee import BotSeat, Referee

console = Console()

UNLIMITED_DEALS = 5
"""Deals the bots play of a game that has no deal limit before the table stops."""


def _seats(info: GameInfo) -> str:
    return str(info.seats[0]) if len(info.seats) == 1 else f"{info.seats[0]}-{info.seats[-1]}"


@app.command("related-games")
def related_games(
    name: Annotated[str | None, typer.Argument(help="A game to describe (or play out with --bots).")] = None,
    players: Annotated[int | None, typer.Option(help="Number of players (default: the game's usual).")] = None,
    preset: Annotated[str | None, typer.Option(help="The game's preset (default: its first).")] = None,
    bots: Annotated[str | None, typer.Option(
        help="Play a game out with these bots, one per seat, comma separated, repeated to fill "
             "the table (`callbreak related-games NAME` lists the bots that play it).")] = None,
    seed: Annotated[int, typer.Option(help="Seed for the deal and the bots.")] = 0,
    option: Annotated[list[str] | None, typer.Option(
        "--option", help="A game option key=value (repeatable).")] = None,
    record: Annotated[bool, typer.Option(help="Print the game record (JSON) instead of an account.")] = False,
) -> None:
    """List every registered game, describe one, or watch bots play one."""
    if name is None:
        table = Grid(["game", "title", "players", "presets", "description"], wrap=["presets", "description"])
        for info in games():
            shown = [p.name for p in info.presets]
            table.add(info.name, info.title, _seats(info),
                      ", ".join(shown[:3]) + (f" (+{len(shown) - 3})" if len(shown) > 3 else ""),
                      info.description)
        show(console, table)
        console.print("\nPlay one with `callbreak play --game NAME`.")
        return
    try:
        info = game_info(name)
        game = info.new(players, preset, **parse_overrides(option or []))
        seats = [make_bot(spec.strip(), seed=seed + i, game=name)
                 for i, spec in enumerate(s for s in (bots or "").split(",") if s.strip())]
    except CallbreakError as e:
        fail(str(e))
        return
    if not seats:
        console.print(f"[bold]{info.title}[/bold] ({_seats(info)} players): {info.description}")
        console.print(f"Bots that play it: {', '.join(bots_for(name))} "
                      f"(`callbreak bots --game {name}` says what each is)")
        presets = Grid(["preset", "title", "description"], wrap=["description"])
        for p in info.presets:
            presets.add(p.name, p.title, p.description)
        show(console, presets)
        options = Grid(["option", "value"])
        for k, v in game.options.describe():
            options.add(k, v)
        show(console, options)
        return
    seats = [seats[i % len(seats)] for i in range(game.players)]
    # The one referee; a game without a deal limit stops after a few deals.
    Referee(game, DealStream(seed, stop_after=UNLIMITED_DEALS, game=info.name),
            [BotSeat(bot) for bot in seats], name=name).play()
    rec = record_of(game, seats=[f"{b.name}{i}" for i, b in enumerate(seats)], name=name)
    if record:
        print(dumps(rec, indent=1))
        return
    for line in narrate(rec):
        console.print(line, highlight=False)
