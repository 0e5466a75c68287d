"""``callbreak related-games``: the related games of seed 000, listed, described, or played out.

(Named ``related-games`` because ``callbreak games`` already lists the terminal's saved games.)
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from callbreak.bots.games_bots import game_bot_names, make_game_bot
from callbreak.cli.main import app
from callbreak.core import CallbreakError
from callbreak.games import CHANCE, GAMES, GameDealer, make_trick_game
from callbreak.games.record import dumps_game, game_record_of, narrate_game

console = Console()


def _fail(message: str) -> None:
    Console(stderr=True).print(f"[red]error:[/red] {message}", highlight=False)
    raise typer.Exit(2)


@app.command("related-games")
def related_games(
    name: Annotated[str | None, typer.Argument(help="A game to describe (or play out with --bots).")] = None,
    players: Annotated[int | None, typer.Option(help="Number of players for --bots.")] = None,
    bots: Annotated[str | None, typer.Option(
        help="Play a game out with these bots, one per seat, comma separated, repeated to fill "
             f"the table (bots: {', '.join(game_bot_names())}).")] = None,
    seed: Annotated[int, typer.Option(help="Seed for the deal and the bots.")] = 0,
    option: Annotated[list[str] | None, typer.Option(
        "--option", help="A game option key=value (repeatable).")] = None,
    record: Annotated[bool, typer.Option(help="Print the game record (JSON) instead of an account.")] = False,
) -> None:
    """List the related games of seed 000, describe one, or watch bots play one."""
    if name is None:
        table = Table("game", "players", "description", box=None)
        for info in GAMES.values():
            counts = (str(info.min_players) if info.min_players == info.max_players
                      else f"{info.min_players}-{info.max_players}")
            table.add_row(info.name, counts, info.description)
        console.print(table)
        return
    found = GAMES.get(name)
    if found is None:
        _fail(f"unknown game {name!r}; games are: {', '.join(GAMES)}")
        return
    info = found
    if info.cls is None:
        console.print(f"[bold]{info.title}[/bold]: {info.description}")
        console.print(f"Play it as a Call Break preset: callbreak presets {info.name}")
        return
    opts: dict[str, str] = {}
    for item in option or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            _fail(f"bad --option {item!r}: expected key=value")
        opts[key.strip()] = value.strip()
    try:
        game = make_trick_game(name, players, **opts)
    except CallbreakError as e:
        _fail(str(e))
        return
    if bots is None:
        console.print(f"[bold]{info.title}[/bold] ({info.min_players}-{info.max_players} players): "
                      f"{info.description}")
        table = Table("option", "value", box=None)
        for k, v in game.options.to_dict().items():
            table.add_row(k, str(v))
        console.print(table)
        return
    specs = [s.strip() for s in bots.split(",") if s.strip()]
    try:
        seats = [make_game_bot(specs[i % len(specs)], seed=seed + i) for i in range(game.players)]
    except CallbreakError as e:
        _fail(str(e))
        return
    dealer = GameDealer(seed)
    while not game.is_over:
        if game.to_act == CHANCE:
            game.apply(dealer.chance(game))
        else:
            seat = game.turn
            game.apply(seats[seat].decide(game.view(seat), 1.0).action)
    rec = game_record_of(game, seats=[f"{b.name}{i}" for i, b in enumerate(seats)])
    if record:
        print(dumps_game(rec, indent=1))
        return
    for line in narrate_game(rec):
        console.print(line, highlight=False)

