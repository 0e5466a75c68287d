"""The ``callbreak`` Typer app that every subcommand registers on, and how a command fails."""

from __future__ import annotations

from typing import Annotated, Any

import typer
import typer.core
from rich.console import Console
from rich.markup import escape

from callbreak import __version__


def _flags_read_as_flags() -> None:
    """Typer 0.2x prints a flag's type in help (``--step <bool>``, ``--help <bool>``), which
    reads as if the flag took a value; show flags bare, as click and every other tool do."""
    option = getattr(typer.core, "TyperOption", None)
    shown = getattr(option, "display_type_rich", None)
    if option is None or shown is None or getattr(shown, "_flags_bare", False):
        return

    def display_type_rich(self: Any, ctx: Any) -> str | None:
        return None if getattr(self, "is_flag", False) else shown(self, ctx)

    display_type_rich._flags_bare = True  # type: ignore[attr-defined]
    option.display_type_rich = display_type_rich


_flags_read_as_flags()

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
