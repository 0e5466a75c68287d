"""Writing an arena's results: a table, JSON, CSV, game records and a plot."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table

from callbreak.arena.duplicate import ArenaPlan
from callbreak.arena.tournament import ArenaReport, PlayerSummary
from callbreak.games import game_info

CSV_FIELDS = (
    "name", "deals", "matches", "mean_score_per_deal", "ci95_low", "ci95_high",
    "mean_score_per_match", "match_ci95_low", "match_ci95_high", "margin_per_deal",
    "margin_ci95_low", "margin_ci95_high", "match_win_rate", "call_made_rate", "mean_move_ms",
    "p99_move_ms", "moves", "faults", "rating_mu", "rating_sigma", "rating_ordinal",
)


def _interval(mean: float, ci: tuple[float | None, float | None]) -> str:
    low, high = ci
    if low is None or high is None:
        return f"{mean:+.2f}"
    return f"{mean:+.2f} [{low:+.2f}, {high:+.2f}]"


def _plus_minus(mean: float, ci: tuple[float | None, float | None]) -> str:
    """The narrow form of an interval: the mean ± half its width (the t intervals are symmetric)."""
    low, high = ci
    if low is None or high is None:
        return f"{mean:+.2f}"
    return f"{mean:+.2f} ± {(high - low) / 2:.2f}"


def _words(report: ArenaReport) -> tuple[str, str]:
    """What a deal is called in this game, and what the made-rate column counts (the game's
    registry entry says: Call Break's deals and calls made; a related game's hands and gains,
    the hands that gained the seat points, scores in the race-down games sign-flipped)."""
    info = game_info(report.plan.game)
    return info.deal_word, info.made_word


def _columns(report: ArenaReport, wide: bool) -> list[tuple[str, Callable[[PlayerSummary], str]]]:
    """The table's columns, most wanted first (a narrow terminal keeps a prefix of them)."""
    deal, made = _words(report)
    interval = _interval if wide else _plus_minus
    ci = " (95% CI)" if wide else "\n(95% CI)"  # narrow: the header on two lines
    return [
        ("player", lambda p: p.name),
        (f"score/{deal}{ci}", lambda p: interval(p.mean_score_per_deal, p.ci95)),
        (f"vs table/{deal}{ci}", lambda p: interval(p.margin_per_deal, p.margin_ci95)),
        ("wins", lambda p: f"{p.match_win_rate:.1%}"),
        ("faults", _faults_text),
        (made, lambda p: f"{p.call_made_rate:.1%}"),
        ("rating", lambda p: f"{p.rating_mu:.1f} ± {p.rating_sigma:.1f}"),
        (f"score/match{ci}", lambda p: interval(p.mean_score_per_match, p.match_ci95)),
        (f"{deal}s", lambda p: str(p.seat_deals)),
        ("mean ms", lambda p: f"{p.mean_move_ms:.3f}"),
        ("p99 ms", lambda p: f"{p.p99_move_ms:.3f}"),
    ]


def results_table(report: ArenaReport, width: int | None = None) -> tuple[Table, list[str]]:
    """The per-player results as a rich table that fits ``width`` columns, and the names of the
    columns left out to fit (every column when ``width`` is None; the JSON has them all).

    The most wanted columns stay (player, score and margin per deal with their intervals, wins,
    faults); a narrow table writes an interval as mean ± half-width. A player's name is folded
    onto more lines rather than cut.
    """
    deal = _words(report)[0]
    title = (f"{report.preset}: {report.deals} {deal}s at {len(report.tables)} tables, "
             f"{_count(len(report.sets), 'duplicate set')}, seed {report.plan.seed}")
    if report.interrupted:
        title += f" (stopped by Ctrl+C: {report.planned_sets} sets were planned)"
    full = _table(report, title, _columns(report, wide=True))
    if width is None:
        return full, []
    measure = Console(width=10_000, file=io.StringIO())  # a table's natural width, unsqueezed
    if measure.measure(full).maximum <= width:
        return full, []
    columns = _columns(report, wide=False)
    keep = len(columns)
    while keep > 2 and measure.measure(_table(report, title, columns[:keep])).maximum > width:
        keep -= 1
    return _table(report, title, columns[:keep]), [name.replace("\n", " ") for name, _ in columns[keep:]]


def _table(report: ArenaReport, title: str,
           columns: list[tuple[str, Callable[[PlayerSummary], str]]]) -> Table:
    table = Table(title=title, title_justify="left")
    for name, _ in columns:
        if name == "player":
            longest = max((len(p.name) for p in report.players), default=6)
            table.add_column(name, justify="left", overflow="fold", min_width=min(longest, 24))
        else:
            table.add_column(name, justify="right", no_wrap=True)
    for p in report.players:
        table.add_row(*(cell(p) for _, cell in columns))
    return table


def _count(n: int, noun: str) -> str:
    """``1 duplicate set``, ``3 duplicate sets``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _faults_text(p: PlayerSummary) -> str:
    if not p.faults:
        return "0"
    return f"{p.faults} (" + ", ".join(f"{k} {v}" for k, v in sorted(p.fault_kinds.items())) + ")"


def write_json(report: ArenaReport, path: Path) -> None:
    path.write_text(json.dumps(report.to_json(), indent=2) + "\n", encoding="utf-8")


def write_json_nothing(plan: ArenaPlan, preset: str, planned: int, path: Path) -> None:
    """The JSON of a run stopped before any duplicate set had finished: no players' results."""
    data = {"preset": preset, "seed": plan.seed, "deals": 0, "players": [], "duplicate_sets": 0,
            "matches": 0, "budget": plan.budget, "interrupted": True, "planned_sets": planned}
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def write_csv(report: ArenaReport, path: Path) -> None:
    """One row per player, the JSON's numbers with intervals split into low and high columns."""
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for p in report.players:
            writer.writerow({
                "name": p.name, "deals": p.seat_deals, "matches": p.seat_matches,
                "mean_score_per_deal": p.mean_score_per_deal, "ci95_low": p.ci95[0],
                "ci95_high": p.ci95[1], "mean_score_per_match": p.mean_score_per_match,
                "match_ci95_low": p.match_ci95[0], "match_ci95_high": p.match_ci95[1],
                "margin_per_deal": p.margin_per_deal, "margin_ci95_low": p.margin_ci95[0],
                "margin_ci95_high": p.margin_ci95[1], "match_win_rate": p.match_win_rate,
                "call_made_rate": p.call_made_rate, "mean_move_ms": p.mean_move_ms,
                "p99_move_ms": p.p99_move_ms, "moves": p.moves, "faults": p.faults,
                "rating_mu": p.rating_mu, "rating_sigma": p.rating_sigma,
                "rating_ordinal": p.rating_ordinal,
            })


def write_records(report: ArenaReport, directory: Path) -> list[Path]:
    """Every table's game record, named by set, lineup and rotation; returns the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for t in report.tables:
        if t.record is None:
            continue
        path = directory / f"set{t.set_index:05d}-lineup{t.lineup}-rotation{t.rotation}.json"
        path.write_text(t.record, encoding="utf-8")
        written.append(path)
    return written


def write_plot(report: ArenaReport, path: Path) -> None:
    """Score distributions per player: points per deal, and match totals."""
    import matplotlib

    matplotlib.use("Agg")  # files only; never a window
    import matplotlib.pyplot as plt

    names = [p.name for p in report.players]
    per_deal: list[list[float]] = [[] for _ in names]
    per_match: list[list[float]] = [[] for _ in names]
    for t in report.tables:
        for seat, p in enumerate(t.seat_players):
            per_deal[p].extend(d[seat] / 10 for d in t.points)
            per_match[p].append(t.totals[seat] / 10)
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5))
    low = min((min(v) for v in per_deal if v), default=-1)
    high = max((max(v) for v in per_deal if v), default=1)
    # One-point bins centred on whole points: deal scores are a call's points plus tenths.
    bins = [k - 0.5 for k in range(math.floor(low), math.ceil(high) + 2)]
    for name, values in zip(names, per_deal, strict=True):
        left.hist(values, bins=bins, histtype="step", density=True, linewidth=1.5, label=name)
    deal = _words(report)[0]
    left.set_title(f"points per {deal}")
    left.set_xlabel("points")
    left.set_ylabel("density")
    left.legend()
    right.boxplot(per_match)
    right.set_xticks(range(1, len(names) + 1), names, rotation=15)
    right.set_title("points per match")
    fig.suptitle(f"{report.preset}: {report.deals} {deal}s, seed {report.plan.seed}")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
