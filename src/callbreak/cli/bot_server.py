"""``callbreak bot-server``: serve one of our bots over the public bot-tournament protocol."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console


def bot_server(
    bot: Annotated[str, typer.Option("--bot", help="The bot to serve, with options: "
                                     "NAME[:key=value,...], e.g. heuristic or expert:samples=20 "
                                     "(`callbreak bots` lists them).")],
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on (the tournament used 7000).")] = 7000,
    seed: Annotated[int, typer.Option(help="Mixed into every request's seed, so answers are "
                                      "reproducible.")] = 0,
    max_think: Annotated[float, typer.Option(help="Most seconds the bot may think per decision, "
                                             "whatever the time budget.")] = 5.0,
) -> None:
    """Serve a bot at GET /hi, POST /bid and POST /play, for any number of games at once.

    Each request carries the whole game so far, so nothing is needed between requests; the
    bot only keeps, in memory, its readings of the other players from deal to deal of a match
    (at most 1,000 matches, each forgotten after 30 minutes without a request).
    """
    # Imported here so that other commands do not pay for the web stack.
    import uvicorn

    from callbreak.core import CallbreakError
    from callbreak.protocol import create_app

    err = Console(stderr=True)
    if not 0 < port < 65536:
        err.print(f"[red]error:[/red] --port must be 1..65535, got {port}", highlight=False)
        raise typer.Exit(2)
    if not max_think > 0:
        err.print(f"[red]error:[/red] --max-think must be positive, got {max_think}", highlight=False)
        raise typer.Exit(2)
    try:
        app = create_app(bot, seed=seed, max_think=max_think, warm_up=True)
    except CallbreakError as e:
        err.print(f"[red]error:[/red] {e}", highlight=False)
        raise typer.Exit(2) from None
    err.print(f"serving bot {bot!r} on http://{host}:{port} (GET /hi, POST /bid, POST /play)",
              highlight=False)
    uvicorn.run(app, host=host, port=port, log_level="warning")
