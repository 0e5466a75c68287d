"""``callbreak rules [GAME]``: a game's rules, in the project's own words."""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.markdown import Markdown

from callbreak.cli.base import app, fail
from callbreak.core import CallbreakError
from callbreak.games import game_info, games, rules_text

console = Console()


@app.command()
def rules(
    game: Annotated[str | None, typer.Argument(help="The game (default: callbreak).")] = None,
    plain: Annotated[bool, typer.Option("--plain", help="The text as it is (Markdown), not laid out.")] = False,
) -> None:
    """Print a game's rules: how it is dealt, called, played and scored, and its house rules."""
    name = game or "callbreak"
    try:
        game_info(name)
    except CallbreakError as e:
        fail(str(e))
        return
    text = rules_text(name)
    if plain or not sys.stdout.isatty():
        sys.stdout.write(text)
        return
    console.print(Markdown(text))
    others = ", ".join(info.name for info in games() if info.name != name)
    console.print(f"\nThe other games: {others} (`callbreak rules GAME`).", highlight=False)
