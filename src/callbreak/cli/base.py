"""The ``callbreak`` Typer app that every subcommand registers on, and how a command fails."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from callbreak import __version__

app = typer.Typer(help="Call Break: rules engine, bots, arena, terminal and web play.",
                  no_args_is_help=True, add_completion=False)


def _version(value: bool) -> None:
    if value:
        Console().print(f"callbreak {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Call Break: rules engine, bots, arena, terminal and web play."""


def fail(message: str) -> None:
    """Print a clear error and exit with status 2 (bad input).

    The message is plain text: brackets in it (``pip install 'callbreak[openspiel]'``) are
    printed, not read as markup."""
    Console(stderr=True).print(f"[red]error:[/red] {escape(message)}", highlight=False)
    raise typer.Exit(2)
