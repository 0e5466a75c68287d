"""Strength of the bots: duplicate arena comparisons under the ``callbreak`` preset.

Each comparison seats one bot against three copies of another (the arena's two-player scheme),
rotated through the four seats over the same seeded deals, and reports the first bot's margin:
its points per deal minus the mean of the other three seats' at the same table, with a 95% t
interval over duplicate sets. Decision times come from the same run.

Full run (at least 2,000 table deals per comparison; hours with the expert bots):

    .venv/bin/python benchmarks/strength.py --deals 2000 --seed 1

Short run (what fits on a shared machine):

    .venv/bin/python benchmarks/strength.py --deals 200 --seed 1 --workers 1 --only heuristic-vs-random

Comparisons whose bots are not registered are skipped with a note.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from callbreak.arena import ArenaPlan, default_workers, run_arena, sets_for
from callbreak.bots import available
from callbreak.bots.base import parse_spec
from callbreak.core import make_rules
from callbreak.referee import DEFAULT_TOLERANCE

PRESET = "callbreak"
SLACK_MS = 20.0  # the issue: expert's p99 decision time within its budget plus 20 ms


@dataclass(frozen=True)
class Comparison:
    name: str
    bot: str  # measured, one seat
    field: str  # the other three seats
    budget: float  # seconds per move the arena gives
    min_margin: float  # the margin the issue asks for (0: just above zero with the CI)
    check_time_of: tuple[str, ...] = ()  # bots whose p99 must stay within their budget + 20 ms


COMPARISONS = (
    Comparison("control-random-vs-random", "random", "random", 1.0, 0.0),
    Comparison("heuristic-vs-random", "heuristic", "random", 1.0, 0.0),
    Comparison("expert-vs-heuristic", "expert", "heuristic", 1.0, 0.0, ("expert",)),
    Comparison("expert0.1-vs-heuristic", "expert:budget=0.1", "heuristic", 0.1, 0.5, ("expert:budget=0.1",)),
    Comparison("expert1-vs-expert0.1", "expert:budget=1", "expert:budget=0.1", 1.0, 0.0,
               ("expert:budget=1", "expert:budget=0.1")),
)


def budget_of(spec: str, arena_budget: float) -> float:
    """The budget a bot works to: its own ``budget=`` option, else what the arena gives."""
    _, opts = parse_spec(spec)
    return min(float(opts["budget"]), arena_budget) if "budget" in opts else arena_budget


def run(c: Comparison, deals: int, seed: int, workers: int, tolerance: float) -> dict[str, object]:
    rules = make_rules(PRESET)
    sets = sets_for(2, rules.deals or 5, deals=deals)
    plan = ArenaPlan((c.bot, c.field), rules, seed, sets, budget=c.budget, tolerance=tolerance)
    start = time.perf_counter()
    report = run_arena(plan, preset=PRESET, workers=workers)
    seconds = time.perf_counter() - start
    bot, field = report.players
    low, high = bot.margin_ci95
    verdicts = []
    if low is not None:
        verdicts.append(("CI excludes zero", low > 0))
    if c.min_margin > 0:
        verdicts.append((f"margin >= {c.min_margin}", bot.margin_per_deal >= c.min_margin))
    for p in report.players:
        if p.name in c.check_time_of:
            limit = 1000 * budget_of(p.name, c.budget) + SLACK_MS
            verdicts.append((f"{p.name} p99 {p.p99_move_ms:.1f} ms <= {limit:.0f} ms", p.p99_move_ms <= limit))
    return {
        "comparison": c.name, "bot": c.bot, "field": c.field, "deals": report.deals,
        "duplicate_sets": len(report.sets), "seed": seed, "budget": c.budget,
        "margin_per_deal": bot.margin_per_deal, "margin_ci95": [low, high],
        "bot_score_per_deal": bot.mean_score_per_deal, "field_score_per_deal": field.mean_score_per_deal,
        "bot_win_rate": bot.match_win_rate, "bot_p99_ms": bot.p99_move_ms, "field_p99_ms": field.p99_move_ms,
        "bot_mean_ms": bot.mean_move_ms, "field_mean_ms": field.mean_move_ms,
        "bot_median_ms": bot.median_move_ms, "field_median_ms": field.median_move_ms,
        "faults": [bot.faults, field.faults], "tolerance": tolerance, "seconds": seconds,
        "verdicts": [{"check": k, "pass": ok} for k, ok in verdicts],
    }


def markdown_row(r: dict[str, object]) -> str:
    low, high = r["margin_ci95"]  # type: ignore[misc]
    ci = f"[{low:+.2f}, {high:+.2f}]" if low is not None else "n/a"
    checks = "; ".join(f"{v['check']}: {'yes' if v['pass'] else 'NO'}" for v in r["verdicts"])  # type: ignore[attr-defined]
    return (f"| {r['comparison']} | {r['deals']} | {r['margin_per_deal']:+.2f} {ci} | "
            f"{r['bot_score_per_deal']:+.2f} / {r['field_score_per_deal']:+.2f} | {r['bot_win_rate']:.1%} | "
            f"{r['bot_median_ms']:.3f} / {r['bot_p99_ms']:.3f} | {r['faults']} | {r['seconds']:.0f} s | {checks} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=2000, help="table deals per comparison (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--only", action="append", choices=[c.name for c in COMPARISONS],
                        help="run only this comparison (repeatable)")
    parser.add_argument("--tolerance", type=float, default=DEFAULT_TOLERANCE,
                        help="seconds past the budget before a move is a fault (default: the arena's)")
    parser.add_argument("--json", type=Path, help="also write the results as JSON")
    args = parser.parse_args(argv)
    bots = set(available())
    results = []
    print("| comparison | deals | margin/deal (95% CI) | score/deal bot / field | bot wins | "
          "bot ms median / p99 | faults | time | checks |")
    print("|---|---|---|---|---|---|---|---|---|")
    for c in COMPARISONS:
        if args.only and c.name not in args.only:
            continue
        missing = {parse_spec(s)[0] for s in (c.bot, c.field)} - bots
        if missing:
            print(f"| {c.name} | skipped: bot(s) {', '.join(sorted(missing))} not registered |", flush=True)
            continue
        r = run(c, args.deals, args.seed, args.workers, args.tolerance)
        results.append(r)
        print(markdown_row(r), flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
