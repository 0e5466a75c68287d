"""``callbreak review FILE``: the review of a finished game by the strongest bot that plays it
(the expert in Call Break, the search bot in the related games), mistakes first."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import Progress
from rich.text import Text

from callbreak.cli.base import app, fail, start_language
from callbreak.cli.tables import Grid, show
from callbreak.cli.tui import language
from callbreak.cli.tui.language import _, number
from callbreak.core import CallbreakError
from callbreak.i18n import native_digits
from callbreak.i18n.seats import seat_names
from callbreak.review import (
    THRESHOLDS,
    Review,
    ReviewSettings,
    choice_words,
    class_name,
    position_text,
    pretty_card,
    review_record,
)

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
    lang: Annotated[str | None, typer.Option(
        "--lang", help="The language of the review (as for `callbreak play`).")] = None,
) -> None:
    """Review a finished game of any game: each decision judged from the seat's own view.

    The judge is the strongest bot of the game: the expert in Call Break, else the search bot."""
    from callbreak.cli.tui.saves import resolve_record_path

    start_language(lang, remember=False)

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
    lang = language.current()
    labels = seat_names(result.seats, lang)

    def amount(value: float, places: int = 2) -> str:
        return native_digits(f"{value:.{places}f}", lang)

    if result.judge == "expert":
        title = _("Accuracy: the share of the points at stake kept (random play ~15%, expert ~98%)")
    else:  # calibrated on Call Break's arena games only
        title = _("Judged by the {bot} bot. Accuracy: the share of the points at stake kept "
                  "(calls: bids, trumps, in or out, exchanges)").format(bot=result.judge)
    summary = Grid([_("seat"), _("accuracy"), _("calls"), _("cards"), _("points lost"),
                    *(class_name(c, lang) for c in _ORDER)], title=native_digits(title, lang))
    for s in result.summary():
        summary.add(labels[s.seat], f"{amount(s.accuracy, 0)}%", f"{amount(s.call_accuracy, 0)}%",
                    f"{amount(s.card_accuracy, 0)}%",
                    _("{lost} of {stake}").format(lost=amount(s.lost), stake=amount(s.at_stake)),
                    *(number(s.counts[c]) for c in _ORDER))
    show(console, summary)
    shown = [d for d in result.decisions if d.label in _ORDER
             and (every or _ORDER[d.label] <= _ORDER["inaccuracy"])]
    shown.sort(key=lambda d: (_ORDER[d.label], -d.lost, d.index))
    table = Grid([_("class"), _("deal"), _("when"), _("seat"), _("chose"), _("better"), _("lost"),
                  _("why"), _("position")], title=_("Decisions, mistakes first"), wrap=(_("why"), _("position")))
    for d in shown:
        when = _("trick {number}").format(number=number(d.trick)) if d.trick else _("call")
        why = ""
        if d.kind == "call" and d.tricks:
            likely = max(range(len(d.tricks)), key=lambda k: d.tricks[k])
            best = ", ".join(f"{native_digits(k.replace('call ', ''), lang)}: {native_digits(f'{v:+.2f}', lang)}"
                             for k, v in d.top_values())
            why = _("most likely {count} tricks; expected score by call {calls}").format(
                count=number(likely), calls=best)
        elif d.kind == "play" or d.values:
            why = _("{value} against {best}").format(value=native_digits(f"{d.value:+.2f}", lang),
                                                     best=native_digits(f"{d.best_value:+.2f}", lang))
        lost = amount(d.lost) if d.label != "best" else ""
        table.add(Text(class_name(d.label, lang), style=_COLOUR[d.label]), number(d.deal), when,
                  labels[d.seat], _choice(d.chosen, lang), _choice(d.better or "", lang), lost,
                  why, position_text(d, labels, lang))
    show(console, table)
    limits = ", ".join(_("{name} up to {most}").format(name=class_name(name, lang),
                                                       most=native_digits(f"{most:g}", lang))
                       for name, most in THRESHOLDS)
    console.print(_("Points lost: {limits}, blunder above. Judged from each seat's own view only.").format(
        limits=limits), highlight=False)


def _choice(text: str, lang: str) -> str:
    """A choice in the table: a card as printed on it (``Q♥``), anything else in words."""
    card = pretty_card(text)
    return card if card != text or not text else choice_words(text, lang)


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
    ax.set_xlabel("decision")  # the chart stays in English: its fonts may lack the scripts
    ax.set_ylabel("expected points given away so far")
    judge = "expert" if result.judge == "expert" else f"{result.judge} bot"
    ax.set_title(f"Running expected score against the {judge}'s choices")
    ax.legend(loc="lower left")  # the lines fall: the lower left is the emptiest corner
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
