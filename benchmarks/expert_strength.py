"""Strength of the expert bot: duplicate matches under the ``callbreak`` preset.

Comparisons (the issue's):

* ``expert:budget=0.1`` against three ``heuristic`` bots, the arena giving 0.1 s a move;
* ``expert:budget=1`` against three ``expert:budget=0.1``, the arena giving 1 s a move.

Each duplicate set is one seeded 5-deal match played four times, the measured bot rotated through
the four seats over the same deals (the arena's two-player scheme), so the luck of the cards
cancels. Reported per comparison: the measured bot's mean score per deal and the field's, the
margin (its score minus the mean of the other three seats at the same table, per deal) with a 95%
t interval over duplicate sets, and mean and p99 decision times. Scores are points per deal.

Short run (what fits on a shared machine; about 5 minutes per 200 deals at 0.1 s)::

    .venv/bin/python benchmarks/expert_strength.py --deals 200 --only expert0.1-vs-heuristic

Full run (the issue asks for at least 2,000 deals per comparison; hours, use every core)::

    .venv/bin/python benchmarks/expert_strength.py --deals 2000 --workers 8

If the heuristic bot is not registered the field falls back to ``random`` (and says so).

A/B of versions of the bot against the same field on the same duplicate sets, each paired with
the last one given, the baseline (the interval of a difference is over the per-set differences
of the two margins), with the call
statistics of each (call-made rate, mean points a deal lost to failed calls)::

    .venv/bin/python benchmarks/expert_strength.py --deals 400 --seed 1 --workers 2 \
        --ab expert:samples=300,policy=smart --ab expert:samples=300

What time buys against a field the expert models exactly (three heuristic bots, the arena giving
1 s a move, the 0.1 s expert keeping to its own 0.1 s)::

    .venv/bin/python benchmarks/expert_strength.py --deals 2000 --seed 11 --workers 2 \
        --field heuristic --arena-budget 1 --ab expert:budget=1 --ab expert:budget=0.1
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass, replace

from callbreak.arena import ArenaPlan, run_arena, sets_for
from callbreak.arena.duplicate import SetResult
from callbreak.arena.stats import mean_ci, percentile
from callbreak.arena.tournament import run_sets
from callbreak.bots import available
from callbreak.core import make_rules
from callbreak.referee import DEFAULT_TOLERANCE

PRESET = "callbreak"
SLACK_MS = 20.0


@dataclass(frozen=True)
class Comparison:
    name: str
    bot: str
    field: str
    budget: float  # seconds a move, given by the arena
    bot_budget: float  # what the measured bot works to


COMPARISONS = (
    Comparison("expert0.1-vs-heuristic", "expert:budget=0.1", "heuristic", 0.1, 0.1),
    Comparison("expert1-vs-expert0.1", "expert:budget=1", "expert:budget=0.1", 1.0, 1.0),
)


class Ticker:
    """Tables finished, time spent and an estimate of time left, on stderr once a minute:
    the full runs take hours."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.start = self.last = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if now - self.last < 60 and done < total:
            return
        self.last = now
        spent = now - self.start
        left = spent / max(done, 1) * (total - done)
        print(f"{self.label}: {done}/{total} tables, {spent / 60:.0f} min spent, "
              f"about {left / 60:.0f} min left", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=2000, help="table deals per comparison")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", action="append", choices=[c.name for c in COMPARISONS])
    parser.add_argument("--bot", help="measure this bot spec instead of the comparison's "
                                     "(e.g. expert:budget=0.1,calls=heuristic)")
    parser.add_argument("--ab", action="append", metavar="SPEC",
                        help="give two or more times: compare bot specs against the field of the first "
                             "comparison chosen (default: heuristic) on the same sets, each "
                             "paired with the last (the baseline)")
    parser.add_argument("--field", metavar="SPEC",
                        help="with --ab: the three other seats (default: the comparison's field)")
    parser.add_argument("--arena-budget", type=float, metavar="S",
                        help="with --ab: seconds a move the arena gives (default: the "
                             "comparison's), e.g. 1 to compare expert:budget=1 with "
                             "expert:budget=0.1 against the same field")
    args = parser.parse_args(argv)
    bots = set(available())
    rules = make_rules(PRESET)
    if (args.field or args.arena_budget is not None) and not args.ab:
        parser.error("--field and --arena-budget go with --ab")
    if args.arena_budget is not None and not args.arena_budget > 0:
        parser.error(f"--arena-budget must be a positive number of seconds, got {args.arena_budget}")
    if args.ab:
        if len(args.ab) < 2:
            parser.error("--ab takes two bot specs or more (give it once per spec)")
        chosen = [c for c in COMPARISONS if not args.only or c.name in args.only][0]
        chosen = replace(chosen, field=args.field or chosen.field,
                         budget=chosen.budget if args.arena_budget is None else args.arena_budget)
        return ab(args.ab, chosen, args.deals, args.seed, args.workers)
    print("| comparison | deals | bot score/deal | field score/deal | margin/deal (95% CI) | "
          "bot ms mean / p99 | p99 within budget+20 ms | faults | time |")
    print("|---|---|---|---|---|---|---|---|---|")
    for c in COMPARISONS:
        if args.only and c.name not in args.only:
            continue
        field = c.field if c.field.split(":")[0] in bots else "random"
        sets = sets_for(2, rules.deals or 5, deals=args.deals)
        measured = args.bot or c.bot
        plan = ArenaPlan((measured, field), rules, args.seed, sets, budget=c.budget,
                         tolerance=DEFAULT_TOLERANCE)
        start = time.perf_counter()
        report = run_arena(plan, preset=PRESET, workers=args.workers, progress=Ticker(c.name))
        seconds = time.perf_counter() - start
        bot, rest = report.players
        low, high = bot.margin_ci95
        ci = f"[{low:+.2f}, {high:+.2f}]" if low is not None and high is not None else "n/a"
        within = bot.p99_move_ms <= 1000 * c.bot_budget + SLACK_MS
        print(f"| {c.name}{'' if measured == c.bot else f' ({measured})'}{'' if field == c.field else ' (field: random)'} | {report.deals} | "
              f"{bot.mean_score_per_deal:+.2f} | {rest.mean_score_per_deal:+.2f} | "
              f"{bot.margin_per_deal:+.2f} {ci} | {bot.mean_move_ms:.1f} / {bot.p99_move_ms:.1f} | "
              f"{'yes' if within else 'NO'} | {bot.faults} / {rest.faults} | {seconds:.0f} s |",
              flush=True)
    return 0


def _bot_stats(sets: list[SetResult]) -> tuple[list[float], list[float], float, float, float]:
    """Per-set margins of player 0 (points a deal over the mean of the other seats) and its
    per-set points a deal, its call-made rate, its mean points a deal and the mean points a deal
    it lost to failed calls."""
    margins: list[float] = []
    own: list[float] = []
    made = failed_loss = points = deals = 0.0
    for s in sets:
        total = mine = 0.0
        n = 0
        for t in s.tables:
            seat = t.seat_players.index(0)
            for pts, flags in zip(t.points, t.made, strict=True):
                others = [pts[o] for o in range(4) if o != seat]
                total += (pts[seat] - sum(others) / 3) / 10
                mine += pts[seat] / 10
                n += 1
                made += flags[seat]
                points += pts[seat] / 10
                if not flags[seat]:
                    failed_loss -= pts[seat] / 10
        margins.append(total / n)
        own.append(mine / n)
        deals += n
    return margins, own, made / deals, points / deals, failed_loss / deals


def _ci(low: float | None, high: float | None, digits: int) -> str:
    """``[low, high]``, or ``(one set: no interval)``."""
    if low is None or high is None:
        return "(one set: no interval)"
    return f"[{low:+.{digits}f}, {high:+.{digits}f}]"


def ab(specs: list[str], c: Comparison, deals: int, seed: int, workers: int) -> int:
    rules = make_rules(PRESET)
    sets = sets_for(2, rules.deals or 5, deals=deals)
    print(f"A/B against 3x {c.field}, arena {c.budget} s a move, {sets} sets, seed {seed}")
    print("| bot | margin/deal (95% CI) | call made | points/deal | lost to failed calls/deal "
          "| ms a move mean / p99 | faults | time |")
    print("|---|---|---|---|---|---|---|---|")
    per: list[list[float]] = []
    per_points: list[list[float]] = []
    for spec in specs:
        plan = ArenaPlan((spec, c.field), rules, seed, sets, budget=c.budget,
                         tolerance=DEFAULT_TOLERANCE)
        start = time.perf_counter()
        results = run_sets(plan, workers=workers, progress=Ticker(spec))
        seconds = time.perf_counter() - start
        margins, own, made_rate, points, lost = _bot_stats(results)
        mean, low, high = mean_ci(margins)
        per.append(margins)
        per_points.append(own)
        times = [1000 * x for s in results for t in s.tables
                 for x in t.times[t.seat_players.index(0)]]
        faults = sum(f.seat == t.seat_players.index(0) for s in results for t in s.tables
                     for f in t.faults)
        print(f"| {spec} | {mean:+.2f} {_ci(low, high, 2)} | {made_rate:.1%} | {points:+.2f} "
              f"| {lost:.2f} | {statistics.fmean(times):.1f} / {percentile(times, 99):.1f} "
              f"| {faults} | {seconds:.0f} s |", flush=True)
    print()
    for spec, margins, own in zip(specs[:-1], per[:-1], per_points[:-1], strict=True):
        diff = [a - b for a, b in zip(margins, per[-1], strict=True)]
        mean, low, high = mean_ci(diff)
        own_diff = [a - b for a, b in zip(own, per_points[-1], strict=True)]
        pmean, plow, phigh = mean_ci(own_diff)
        print(f"paired difference {spec} - {specs[-1]}: margin {mean:+.3f} {_ci(low, high, 3)}, "
              f"own points {pmean:+.3f} {_ci(plow, phigh, 3)} per deal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
