"""``callbreak review FILE``: the review of a finished game by the strongest bot that plays it
(the expert in Call Break, the search bot in the related games), mistakes first."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from callbreak.cli.base import app, fail
from callbreak.core import CallbreakError
from callbreak.review import THRESHOLDS, Review, ReviewSettings, position_text, pretty_card, review_record

console = Console()
_ORDER = {"blunder": 0, "mistake": 1, "inaccuracy": 2, "good": 3, "best": 4}
_COLOUR = {"blunder": "red", "mistake": "dark_orange", "inaccuracy": "yellow", "good": "green",
           "best": "bright_green"}


@app.command()
def review(
    path: Annotated[Path, typer.Argument(help="A finished game's record file (JSON).")],
    plot: Annotated[Path | None, typer.Option("--plot", help="Draw each seat's running expected "
                                              "score (points lost so far) to this PNG.")] = None,
    out: Annotated[Path | None, typer.Option("--json", help="Also write the review as JSON.")] = None,
    seed: Annotated[int, typer.Option(help="The search's seed (same record, seed and settings: "
                                      "same review).")] = 0,
    samples: Annotated[int, typer.Option(help="Sampled deals per card decision.")] = ReviewSettings().samples,
    workers: Annotated[int, typer.Option(help="Processes judging decisions (the same review).")] = 2,
    all_: Annotated[bool, typer.Option("--all", help="List every judged decision, not only the "
                                       "inaccuracies and worse.")] = False,
) -> None:
    """Review a finished game of any game: every decision judged from the seat's own view (by the
    expert in Call Break, by the search bot in the related games)."""
    from callbreak.cli.tui.saves import resolve_record_path

    path = resolve_record_path(path)  # a saved terminal game may be named by its file name
    settings = ReviewSettings(samples=samples, call_samples=samples * 4, seed=seed)
    try:
        text = path.read_bytes()
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
        return
    try:
        with Progress(console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("reviewing", total=None)
            result = review_record(text, settings,
                                   progress=lambda done, total: bar.update(task, completed=done,
                                                                           total=total),
                                   workers=workers)
    except CallbreakError as e:
        fail(f"{path}: {e}")
        return
    print_review(result, every=all_)
    if out is not None:
        out.write_text(json.dumps(result.to_json(), indent=1))
    if plot is not None:
        draw_chart(result, plot)
        console.print(f"chart written to {plot}")


def print_review(result: Review, every: bool = False) -> None:
    labels = result.labels
    if result.judge == "expert":
        title = "Accuracy: the share of the points at stake kept (random play ~15%, expert ~98%)"
    else:  # calibrated on Call Break's arena games only
        title = (f"Judged by the {result.judge} bot. Accuracy: the share of the points at stake "
                 "kept (calls: bids, trumps, in or out, exchanges)")
    summary = Table("seat", "accuracy", "calls", "cards", "points lost", *(c for c in _ORDER),
                    title=title, box=None)
    for s in result.summary():
        summary.add_row(escape(s.label), f"{s.accuracy:.0f}%", f"{s.call_accuracy:.0f}%",
                        f"{s.card_accuracy:.0f}%", f"{s.lost:.2f} of {s.at_stake:.2f}",
                        *(str(s.counts[c]) for c in _ORDER))
    console.print(summary)
    shown = [d for d in result.decisions if d.label in _ORDER
             and (every or _ORDER[d.label] <= _ORDER["inaccuracy"])]
    shown.sort(key=lambda d: (_ORDER[d.label], -d.lost, d.index))
    table = Table("class", "deal", "when", "seat", "chose", "better", "lost", "why", "position",
                  title="Decisions, mistakes first", box=None)
    for d in shown:
        when = f"trick {d.trick}" if d.trick else "call"
        why = ""
        if d.kind == "call" and d.tricks:
            likely = max(range(len(d.tricks)), key=lambda k: d.tricks[k])
            best = ", ".join(f"{k.replace('call ', '')}: {v:+.2f}" for k, v in d.top_values())
            why = f"most likely {likely} tricks; expected score by call {best}"
        elif d.kind == "play" or d.values:
            why = f"{d.value:+.2f} against {d.best_value:+.2f}"
        colour = _COLOUR[d.label]
        lost = f"{d.lost:.2f}" if d.label != "best" else ""
        table.add_row(f"[{colour}]{d.label}[/{colour}]", str(d.deal), when, escape(labels[d.seat]),
                      pretty_card(d.chosen), pretty_card(d.better or ""), lost, why, position_text(d))
    console.print(table)
    limits = ", ".join(f"{name} up to {most:g}" for name, most in THRESHOLDS)
    console.print(f"Points lost: {limits}, blunder above. Judged from each seat's own view only.",
                  highlight=False)


def draw_chart(result: Review, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4))
    for deal, at in result.deal_starts():
        ax.axvline(at, color="#bbb", linewidth=0.8, zorder=0)
        ax.annotate(f"deal {deal}", (at, 1), xycoords=("data", "axes fraction"),
                    xytext=(3, -12), textcoords="offset points", fontsize=8, color="#666")
    for seat, series in enumerate(result.running_loss()):
        ax.plot(series, label=result.labels[seat])
    ax.set_xlabel("decision")
    ax.set_ylabel("expected points given away so far")
    judge = "expert" if result.judge == "expert" else f"{result.judge} bot"
    ax.set_title(f"Running expected score against the {judge}'s choices")
    ax.legend(loc="lower left")  # the lines fall: the lower left is the emptiest corner
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
