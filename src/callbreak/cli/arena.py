"""``callbreak arena``: duplicate matches between bots, with error bars and ratings.

Everything the user typed is checked before the first card is dealt (exit status 2 with a clear
message); a player that fails during the run is a fault in the report, not a crash.
"""

from __future__ import annotations

import datetime
import random
import signal
from collections.abc import Sequence
from pathlib import Path
from types import FrameType
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from callbreak.arena import (
    ArenaError,
    ArenaInterrupted,
    ArenaPlan,
    ArenaReport,
    Fault,
    check_player,
    default_workers,
    run_arena,
    sets_for,
)
from callbreak.arena.report import (
    results_table,
    write_csv,
    write_json,
    write_json_nothing,
    write_plot,
    write_records,
)
from callbreak.arena.tournament import RayUnavailableError, check_ray
from callbreak.cli.base import app, fail
from callbreak.core import CallbreakError
from callbreak.games import game_info, games

DEFAULT_MATCHES = 10
PLOT_FORMATS = (".png", ".svg", ".pdf", ".jpg", ".jpeg")


def parse_options(options: list[str]) -> dict[str, str]:
    """``key=value`` texts as a dict; a :class:`CallbreakError` names a malformed one."""
    overrides: dict[str, str] = {}
    for text in options:
        key, eq, value = text.partition("=")
        if not eq or not key.strip():
            raise CallbreakError(f"bad --option {text!r}: expected key=value")
        overrides[key.strip()] = value.strip()
    return overrides


def display_names(specs: list[str]) -> list[str]:
    """Player names for the report; a spec given twice gets #1, #2 so the rows stay apart."""
    out = []
    for i, spec in enumerate(specs):
        if specs.count(spec) > 1:
            out.append(f"{spec}#{specs[:i].count(spec) + 1}")
        else:
            out.append(spec)
    return out


def _check_output(path: Path | None, what: str) -> None:
    if path is None:
        return
    if path.is_dir():
        fail(f"{what} {path} is a directory, not a file")
    if not path.parent.is_dir():
        fail(f"{what} {path}: the directory {path.parent} does not exist")


@app.command()
def arena(
    players: Annotated[list[str], typer.Argument(
        help="2 to 4 players: bot specs such as 'heuristic' or 'expert:budget=0.1' (bots that play "
             "the game: `callbreak bots` lists them), or Call Break bot URLs (http://host:port). "
             "With 2 players one copy of the first sits against copies of the second in the other "
             "seats (three, at a table of four; under partnership rules: a pair against a "
             "pair); otherwise the players fill the seats in turn. Every lineup is "
             "rotated through every seat.",
        show_default=False)],
    preset_name: Annotated[str | None, typer.Option(
        "--preset", help="Rule preset of the game (default: the game's first).")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="Game option key=value on top of the preset (repeatable).")] = None,
    matches: Annotated[int | None, typer.Option(
        help="Seeded matches (duplicate sets), each played at every seating. "
             f"Default {DEFAULT_MATCHES} when --deals is not given.")] = None,
    deals: Annotated[int | None, typer.Option(
        help="Deals (a related game's hands) to play at all tables together, rounded up to whole "
             "duplicate sets.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the deals (default: a random one, printed).")] = None,
    budget: Annotated[float, typer.Option(help="Seconds each player may take a move.")] = 1.0,
    tolerance: Annotated[float, typer.Option(
        help="Seconds past the budget still accepted before a move counts as a fault.")] = 0.05,
    workers: Annotated[int | None, typer.Option(help="Processes (default: all cores).")] = None,
    ray: Annotated[str | None, typer.Option(
        "--ray", help="Run on Ray: a cluster address, or 'local' for a local instance.")] = None,
    json_path: Annotated[Path | None, typer.Option("--json", help="Write the results as JSON.")] = None,
    csv_path: Annotated[Path | None, typer.Option("--csv", help="Write the results as CSV.")] = None,
    records: Annotated[Path | None, typer.Option(
        help="Directory to keep every table's game record in (the one record format of every "
             "game: callbreak.record.loads reads them, replay rebuilds the game).")] = None,
    plot: Annotated[Path | None, typer.Option(help="Write score distributions to this image (PNG).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    wide: Annotated[bool, typer.Option(
        "--wide", help="Every column of the results, however wide the terminal (a narrow "
                       "terminal gets the main ones; --json has them all).")] = False,
    game_name: Annotated[str, typer.Option(
        "--game", help=f"The game: {', '.join(g.name for g in games())}; its players must be "
                       "bots that play it.")] = "callbreak",
    table_size: Annotated[int | None, typer.Option(
        "--players", help="Seats at each table (default: the game's usual number).")] = None,
) -> None:
    """Play duplicate matches between players and report who is better, with 95% intervals."""
    # --- everything is checked before anything runs ---------------------------------------
    if not 2 <= len(players) <= 4:
        fail(f"the arena takes 2 to 4 players, got {len(players)}")
    names = display_names(players)
    try:
        info = game_info(game_name)
        seats = info.check_seats(table_size)
        label = preset_name or info.default_preset
        options = info.make_options(preset_name, parse_options(option or []))
        if preset_name is not None:
            info.preset(preset_name)  # a preset of this game, not only of the engine it runs on
    except CallbreakError as e:
        fail(str(e))
        return
    if len(players) > min(4, seats):
        fail(f"{info.title} with {seats} players seats at most {min(4, seats)} different players, "
             f"got {len(players)}")
    for spec in players:
        try:
            check_player(spec, options, game=info.name)
        except CallbreakError as e:
            fail(f"player {spec!r}: {e}")
    if matches is None and deals is None:
        matches = DEFAULT_MATCHES
    if budget <= 0:
        fail(f"--budget must be positive, got {budget}")
    if tolerance < 0:
        fail(f"--tolerance must not be negative, got {tolerance}")
    workers = default_workers() if workers is None else workers
    if workers < 1:
        fail(f"--workers must be at least 1, got {workers}")
    if ray is not None:
        try:
            check_ray(ray)
        except CallbreakError as e:
            fail(str(e))
    plan = ArenaPlan(tuple(players), options, 0, 1, game=info.name, table_size=seats)
    try:
        sets = sets_for(len(players), plan.deals_per_match, matches=matches, deals=deals,
                        partnership=plan.partnership, seats=seats)
    except ArenaError as e:
        fail(str(e))
        return
    for path, what in ((json_path, "--json"), (csv_path, "--csv"), (plot, "--plot")):
        _check_output(path, what)
    if plot is not None and plot.suffix.lower() not in PLOT_FORMATS:
        fail(f"--plot {plot}: the image must end in one of {', '.join(PLOT_FORMATS)}")
    if records is not None:
        if records.exists() and not records.is_dir():
            fail(f"--records {records} exists and is not a directory")
        try:
            records.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            fail(f"--records {records}: {e.strerror}")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    plan = ArenaPlan(tuple(players), options, seed, sets, budget=budget, tolerance=tolerance,
                     keep_records=records is not None, names=tuple(names), game=info.name,
                     table_size=seats)

    # --- the run ----------------------------------------------------------------------------
    err = Console(stderr=True)
    out = Console()
    wide_table = wide or not out.is_terminal
    if not out.is_terminal:
        out = Console(width=200)  # a file gets whole rows
    what = f"{info.title} ({seats} seats), preset {label}"
    where = f"ray {ray}" if ray else _count(workers, "worker")
    err.print(f"arena: {', '.join(names)}; {what}; {_count(sets, 'duplicate set')}; seed {seed}; "
              f"{where}; Ctrl+C stops it and reports the finished sets", highlight=False)
    progress = Progress(TextColumn("tables"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), TextColumn("left"), TimeLeftColumn(),
                        console=err, transient=True, disable=quiet)
    said = 0

    def say_faults(faults: Sequence[Fault]) -> None:
        nonlocal said
        for f in faults:
            said += 1
            if said <= LIVE_FAULTS:
                progress.console.print(_fault_line(f), highlight=False, markup=False)
            elif said == LIVE_FAULTS + 1:
                progress.console.print("(more faults: listed at the end)", highlight=False)

    stopped: ArenaInterrupted | None = None
    previous = _stop_on_first_interrupt()
    try:
        with progress:
            task = progress.add_task("tables", total=sets * plan.tables_in_set)
            report = run_arena(plan, preset=label, workers=workers, ray_address=ray,
                               progress=lambda done, total: progress.update(task, completed=done, total=total),
                               on_faults=None if quiet else say_faults)
    except ArenaInterrupted as e:
        stopped = e
    except RayUnavailableError as e:
        _restore_interrupt(previous)
        fail(str(e))
        return
    except CallbreakError as e:
        _restore_interrupt(previous)
        err.print(f"[red]error:[/red] the run stopped: {escape(str(e))}", highlight=False)
        raise typer.Exit(1) from None
    try:
        if stopped is not None:
            finished = len(stopped.sets)
            err.print(f"stopped (Ctrl+C) with {finished} of {_count(stopped.planned, 'duplicate set')} "
                      "finished; nothing is still running"
                      + ("; the results are those sets'" if finished else
                         "; no set had finished, so there are no results"), highlight=False)
            if stopped.report is None:
                if json_path is not None:
                    write_json_nothing(plan, label, stopped.planned, json_path)
                raise typer.Exit(130)
            report = stopped.report
        _print_report(report, out, None if wide_table else out.width)
        if json_path is not None:
            write_json(report, json_path)
        if csv_path is not None:
            write_csv(report, csv_path)
        if records is not None:
            written = write_records(report, records)
            out.print(f"{len(written)} records written to {records}", highlight=False)
        if plot is not None:
            write_plot(report, plot)
        if stopped is not None:
            raise typer.Exit(130)
    finally:
        _restore_interrupt(previous)


LIVE_FAULTS = 10  # faults announced as they happen; the rest are counted and listed at the end


def _fault_line(f: Fault) -> str:
    return (f"fault: {f.player} (Seat {f.seat + 1}, deal {f.deal}): {f.kind}: {f.detail}; "
            "the default action was played for it")


def _print_report(report: ArenaReport, out: Console, width: int | None) -> None:
    table, dropped = results_table(report, width)
    out.print(table)
    if dropped:
        out.print(f"Left out to fit {width} columns: {', '.join(dropped)} (--wide shows every "
                  "column; --json writes them all).", highlight=False)
    for f in report.faults[:10]:
        out.print(_fault_line(f), highlight=False, markup=False)
    if len(report.faults) > 10:
        out.print(f"... and {len(report.faults) - 10} more faults", highlight=False)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


class TimeLeftColumn(ProgressColumn):
    """Time left from the mean pace since the start.

    Rich's own estimate measures the pace between updates, so the first table to finish (after
    all the time the first tables took together, several at once on several workers) looked
    nearly free and the first estimate came out several times too short.
    """

    def render(self, task: Task) -> Text:
        elapsed, done, total = task.elapsed, task.completed, task.total
        if not elapsed or not done or total is None:
            return Text("-:--:--", style="progress.remaining")
        left = int(elapsed * (total - done) / done)
        return Text(str(datetime.timedelta(seconds=left)), style="progress.remaining")


def _stop_on_first_interrupt() -> Any:
    """Make the first Ctrl+C stop the run (a ``KeyboardInterrupt``, which the arena turns into
    stopping its workers and reporting the finished sets) and ignore any more while that happens,
    so no second Ctrl+C cuts the report short or prints tracebacks. Returns the handler to
    restore (None where handlers cannot be set: not the main thread)."""

    def first(signum: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        raise KeyboardInterrupt

    try:
        return signal.signal(signal.SIGINT, first)
    except ValueError:
        return None


def _restore_interrupt(previous: Any) -> None:
    if previous is not None:
        signal.signal(signal.SIGINT, previous)
