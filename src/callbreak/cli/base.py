"""The ``callbreak`` Typer app that every subcommand registers on, and how a command fails."""

from __future__ import annotations

import contextlib
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

# `callbreak --help` in the order people need the commands: playing first, then the rules and
# the bots, then the tools of bot writers and researchers. A command missing here is listed last,
# under "Commands".
HELP_PANELS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Play", ("play", "serve", "review", "games", "replay")),
    ("Rules and bots", ("rules", "presets", "related-games", "bots")),
    ("Bot writers and researchers", ("arena", "bot-server", "train", "train-outlook", "train-refine")),
)


class _CommandsInPanels(typer.core.TyperGroup):
    """The subcommands listed and grouped by :data:`HELP_PANELS`, wherever they are registered."""

    def list_commands(self, ctx: Any) -> list[str]:
        ordered = [name for _, names in HELP_PANELS for name in names if name in self.commands]
        return ordered + [name for name in self.commands if name not in ordered]

    def format_help(self, ctx: Any, formatter: Any) -> None:
        for panel, names in HELP_PANELS:
            for name in names:
                command = self.commands.get(name)
                # (A panel given at registration wins; typer marks "none given" with a placeholder.)
                if command is not None and not isinstance(getattr(command, "rich_help_panel", None), str):
                    command.rich_help_panel = panel  # type: ignore[attr-defined]
        super().format_help(ctx, formatter)


app = typer.Typer(help="Call Break: rules engine, bots, arena, terminal and web play.",
                  no_args_is_help=True, add_completion=False, cls=_CommandsInPanels)


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


def start_language(option: str | None, *, remember: bool = True) -> None:
    """Speak the language ``--lang`` names, else the remembered or the environment's; an unknown
    one fails, naming those offered. An explicit choice is remembered (``remember``)."""
    from callbreak.cli.tui import language
    from callbreak.core import CallbreakError

    try:
        lang = language.choose(option)
    except CallbreakError as e:
        fail(f"--lang: {e}")
        return
    language.use(lang)
    if option is not None and remember:
        with contextlib.suppress(OSError):  # a read-only data folder: the choice holds for this game
            language.remember(lang)
