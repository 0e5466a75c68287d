"""Strength of the simple bots: heuristic against three randoms and against three beginners.

Duplicate format: every seeded deal is played four times, with the bot under test rotated
through every seat and the same opponents in the other seats, so the luck of the cards
cancels. Each deal is a one-deal match of the chosen preset. The figure per deal is the bot's
score minus the mean score of the three others (points, not tenths); we report its mean with a
95% confidence interval, plus the call-made rate and decision time.

Reproduce the recorded result (about 10 minutes on one core):

    .venv/bin/python benchmarks/bots_simple.py --deals 2000 --seed 1

A quick look: ``--deals 100``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from dataclasses import dataclass, field

from callbreak.bots.base import Bot, make_bot
from callbreak.core import CHANCE, Dealer, Match, make_rules
from callbreak.core.scoring import made


@dataclass
class Tally:
    margins: list[float] = field(default_factory=list)  # per deal, mean over the 4 rotations
    hero_points: list[float] = field(default_factory=list)
    other_points: list[float] = field(default_factory=list)
    hero_made: int = 0
    hero_calls: int = 0
    move_seconds: list[float] = field(default_factory=list)


def play_deal(preset: str, seed: int, bots: list[Bot], hero: int,
              times: list[float] | None = None) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Play one seeded one-deal match; return (points in tenths, calls, tricks won)."""
    match = Match(make_rules(preset, deals=1, tie_break="shared"))
    dealer = Dealer(seed)
    while not match.is_over:
        seat = match.to_act
        if seat == CHANCE:
            match.apply(dealer.chance(match))
            continue
        assert seat is not None
        view = match.view(seat)
        start = time.perf_counter()
        action = bots[seat].decide(view, 1.0).action
        if times is not None and seat == hero:
            times.append(time.perf_counter() - start)
        match.apply(action)
    result = match.results[0]
    return result.points, result.calls, result.won


def duplicate(preset: str, hero: str, other: str, deals: int, seed: int) -> Tally:
    tally = Tally()
    rules = make_rules(preset)
    for i in range(deals):
        deal_seed = seed * 1_000_003 + i
        margin = 0.0
        for seat in range(4):
            bots = [make_bot(other, seed=deal_seed * 4 + s) for s in range(4)]
            bots[seat] = make_bot(hero, seed=deal_seed)
            points, calls, won = play_deal(preset, deal_seed, bots, seat, tally.move_seconds)
            others = [points[s] / 10 for s in range(4) if s != seat]
            margin += points[seat] / 10 - statistics.fmean(others)
            tally.hero_points.append(points[seat] / 10)
            tally.other_points.extend(others)
            tally.hero_calls += 1
            tally.hero_made += made(calls[seat], won[seat], rules)
        tally.margins.append(margin / 4)
    return tally


def ci95(xs: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="callbreak")
    parser.add_argument("--pairs", default="heuristic/random,heuristic/beginner,beginner/random",
                        help="comma-separated hero/opponent pairs")
    args = parser.parse_args()
    print(f"preset {args.preset}, {args.deals} deals x 4 seat rotations, seed {args.seed}")
    print("| bot | vs 3x | deals | margin per deal (95% CI) | bot pts/deal | others pts/deal "
          "| bot call made | mean ms | p99 ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    for pair in args.pairs.split(","):
        hero, other = pair.split("/")
        start = time.perf_counter()
        t = duplicate(args.preset, hero, other, args.deals, args.seed)
        mean, low, high = ci95(t.margins)
        ms = sorted(x * 1000 for x in t.move_seconds)
        p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
        print(f"| {hero} | {other} | {args.deals} | {mean:+.2f} ({low:+.2f} .. {high:+.2f}) "
              f"| {statistics.fmean(t.hero_points):+.2f} | {statistics.fmean(t.other_points):+.2f} "
              f"| {t.hero_made / t.hero_calls:.0%} | {statistics.fmean(ms):.3f} | {p99:.3f} |"
              f"  <!-- {time.perf_counter() - start:.0f} s -->", flush=True)


if __name__ == "__main__":
    main()
