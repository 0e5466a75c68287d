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
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

from callbreak.arena import ArenaPlan, run_arena, sets_for
from callbreak.arena.runner import DEFAULT_TOLERANCE
from callbreak.bots import available
from callbreak.core import make_rules

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=2000, help="table deals per comparison")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", action="append", choices=[c.name for c in COMPARISONS])
    parser.add_argument("--bot", help="measure this bot spec instead of the comparison's "
                                     "(e.g. expert:budget=0.1,calls=heuristic)")
    args = parser.parse_args(argv)
    bots = set(available())
    rules = make_rules(PRESET)
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
        report = run_arena(plan, preset=PRESET, workers=args.workers)
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


if __name__ == "__main__":
    sys.exit(main())
