"""Calibrate the review's accuracy: does it tell random play from good play?

Games of the callbreak preset (5 deals) with one seat each of random, beginner, heuristic and
expert, every deal seed played at the four rotations of the seats (as the arena's duplicate sets
do), each game reviewed at the default settings. Reports, per player, the mean over its
seat-games of the accuracy (the share of the points at stake it kept, random ~0%), the same for
calls and for cards, the old figure (the share of decisions classed best or good), and the
points lost per deal.

    PYTHONPATH=src .venv/bin/python benchmarks/review_accuracy.py --seeds 2
"""

from __future__ import annotations

import argparse
import statistics
import time

from callbreak.arena.runner import DealStream, play_game
from callbreak.arena.stats import mean_ci
from callbreak.bots import make_bot
from callbreak.games import new_game
from callbreak.review import ReviewSettings, review_record

PLAYERS = ("random", "beginner", "heuristic", "expert:budget=0.2")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=2, help="deal seeds, each at 4 rotations")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    rows: dict[str, dict[str, list[float]]] = {
        p: {"accuracy": [], "calls": [], "cards": [], "agreement": [], "lost": []} for p in PLAYERS}
    start = time.perf_counter()
    for seed in range(args.seeds):
        for rotation in range(4):
            seats = [PLAYERS[(s - rotation) % 4] for s in range(4)]
            bots = [make_bot(spec, seed=seed * 16 + rotation * 4 + s) for s, spec in enumerate(seats)]
            out = play_game(new_game("callbreak", preset="callbreak"), bots,
                            chance=DealStream(f"review-accuracy/{seed}"), budget=5.0,
                            names=seats)
            began = time.perf_counter()
            review = review_record(out.record, ReviewSettings(), workers=args.workers)
            deals = len(review.deals)
            for s in review.summary():
                row = rows[seats[s.seat]]
                row["accuracy"].append(s.accuracy)
                row["calls"].append(s.call_accuracy)
                row["cards"].append(s.card_accuracy)
                row["agreement"].append(s.agreement)
                row["lost"].append(s.lost / deals)
            print(f"seed {seed} rotation {rotation}: reviewed in {time.perf_counter() - began:.1f} s; "
                  + ", ".join(f"{seats[s.seat]} {s.accuracy:.0f}%" for s in review.summary()),
                  flush=True)
    print(f"\n{args.seeds * 4} games, {time.perf_counter() - start:.0f} s in all\n")
    print("| player | accuracy (95% CI) | calls | cards | best or good (old) | points lost a deal |")
    print("|---|---|---|---|---|---|")
    for p in PLAYERS:
        row = rows[p]
        mean, low, high = mean_ci(row["accuracy"])
        print(f"| {p} | {mean:.0f}% [{low:.0f}, {high:.0f}] | {statistics.mean(row['calls']):.0f}% | "
              f"{statistics.mean(row['cards']):.0f}% | {statistics.mean(row['agreement']):.0f}% | "
              f"{statistics.mean(row['lost']):.2f} |")


if __name__ == "__main__":
    main()
