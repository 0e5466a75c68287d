"""Strength of the simple bots: heuristic against three randoms and against three beginners.

Duplicate format: every seeded match (5 deals under the ``callbreak`` preset) is played four
times, with the bot under test rotated through every seat and the same opponents in the other
seats, so the luck of the cards cancels. The figure is the bot's score per deal minus the mean
score per deal of the three others (points, not tenths), averaged over the four rotations of a
match; we report its mean with a 95% confidence interval over matches, plus the bot's own
score per deal, its call-made rate, match win rate and decision time (median and p99 per
decision, measured around ``decide`` only). The last pair, random against three randoms, is the
control: its margin must come out near zero, and its decision time is the baseline.

Reproduce the recorded result (about 10 minutes on one core):

    .venv/bin/python benchmarks/bots_simple.py --matches 400 --seed 1

(400 matches = 2,000 deals per comparison.) A quick look: ``--matches 20``.

Comparing against an older version of a bot: register it under another name from a file, e.g.

    git show COMMIT:src/callbreak/bots/heuristic.py | sed 's/@register("heuristic")/@register("old")/' > old.py
    .venv/bin/python benchmarks/bots_simple.py --load old.py --pairs heuristic/old --matches 100 --seed 7
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from callbreak.bots.base import Bot, make_bot
from callbreak.core import CHANCE, Dealer, Match, make_rules
from callbreak.core.scoring import made


@dataclass
class Tally:
    margins: list[float] = field(default_factory=list)  # per match, mean over the 4 rotations
    hero_points: list[float] = field(default_factory=list)  # per deal
    other_points: list[float] = field(default_factory=list)  # per deal
    hero_made: int = 0
    hero_calls: int = 0
    hero_wins: float = 0.0  # shared wins count as a fraction
    matches: int = 0
    move_seconds: list[float] = field(default_factory=list)


def play_match(preset: str, seed: int, bots: list[Bot], hero: int, times: list[float]) -> Match:
    """Play one seeded match to the end (an unlimited preset stops after five deals)."""
    match = Match(make_rules(preset))
    dealer = Dealer(seed)
    while not match.is_over:
        seat = match.to_act
        if seat == CHANCE:
            match.apply(dealer.chance(match, stop=len(match.results) >= 5))
            continue
        assert seat is not None
        view = match.view(seat)
        start = time.perf_counter()
        action = bots[seat].decide(view, 1.0).action
        if seat == hero:
            times.append(time.perf_counter() - start)
        match.apply(action)
    return match


def duplicate(preset: str, hero: str, other: str, matches: int, seed: int) -> Tally:
    tally = Tally()
    rules = make_rules(preset)
    for i in range(matches):
        match_seed = seed * 1_000_003 + i
        margin = 0.0
        for seat in range(4):
            bots = [make_bot(other, seed=match_seed * 4 + s) for s in range(4)]
            bots[seat] = make_bot(hero, seed=match_seed)
            match = play_match(preset, match_seed, bots, seat, tally.move_seconds)
            deals = len(match.results)
            others = [s for s in range(4) if s != seat]
            margin += (match.totals[seat] - statistics.fmean(match.totals[s] for s in others)) / 10 / deals
            for r in match.results:
                tally.hero_points.append(r.points[seat] / 10)
                tally.other_points.extend(r.points[s] / 10 for s in others)
                tally.hero_calls += 1
                if rules.partnership:  # the pair's summed call against its summed tricks
                    mate = (seat + 2) % 4
                    tally.hero_made += made(r.calls[seat] + r.calls[mate], r.won[seat] + r.won[mate], rules)
                else:
                    tally.hero_made += made(r.calls[seat], r.won[seat], rules)
            if seat in match.winners:
                tally.hero_wins += 1 / len(match.winners)
            tally.matches += 1
        tally.margins.append(margin / 4)
    return tally


def ci95(xs: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=400, help="5-deal matches per comparison")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="callbreak")
    parser.add_argument("--pairs", default="heuristic/random,heuristic/beginner,beginner/random,"
                        "random/random",
                        help="comma-separated hero/opponent pairs")
    parser.add_argument("--load", action="append", default=[], metavar="FILE.py",
                        help="a Python file that registers more bots (e.g. an older heuristic "
                             "under another name), to compare against")
    args = parser.parse_args()
    for path in args.load:
        spec = importlib.util.spec_from_file_location(Path(path).stem, path)
        if spec is None or spec.loader is None:
            parser.error(f"cannot load {path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up while being built
        spec.loader.exec_module(module)
    print(f"preset {args.preset}, {args.matches} matches x 4 seat rotations, seed {args.seed}")
    print("| bot | vs 3x | deals | margin per deal (95% CI) | bot pts/deal | others pts/deal "
          "| bot call made | bot match wins | median ms | p99 ms |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for pair in args.pairs.split(","):
        hero, other = pair.split("/")
        start = time.perf_counter()
        t = duplicate(args.preset, hero, other, args.matches, args.seed)
        mean, low, high = ci95(t.margins)
        ms = sorted(x * 1000 for x in t.move_seconds)
        p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
        print(f"| {hero} | {other} | {len(t.hero_points) // 4} | {mean:+.2f} ({low:+.2f} .. {high:+.2f}) "
              f"| {statistics.fmean(t.hero_points):+.2f} | {statistics.fmean(t.other_points):+.2f} "
              f"| {t.hero_made / t.hero_calls:.0%} | {t.hero_wins / t.matches:.0%} "
              f"| {statistics.median(ms):.3f} | {p99:.3f} |"
              f"  <!-- {time.perf_counter() - start:.0f} s -->", flush=True)


if __name__ == "__main__":
    main()
