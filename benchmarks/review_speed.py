"""How long the game review takes, and how its judgement moves with four times the search.

Each game: a whole 5-deal Call Break match (the callbreak preset) of heuristic players with one
beginner seat (so there are mistakes to find), reviewed at the default settings with two worker
processes, then again with four times the sampled deals (4x the time). Reports the wall time of
each review and the agreement of the classes between the two, decision by decision.

    PYTHONPATH=src .venv/bin/python benchmarks/review_speed.py --games 3
"""

from __future__ import annotations

import argparse
import statistics
import time

from callbreak.bots import make_bot
from callbreak.core.actions import CHANCE
from callbreak.games import game_info, new_game
from callbreak.record import record_of
from callbreak.review import CLASSES, ReviewSettings, review_record


def play(seed: int):
    g = new_game("callbreak", preset="callbreak")
    chance = game_info("callbreak").dealer(seed)
    bots = [make_bot("beginner" if i == 0 else "heuristic", seed=seed * 4 + i) for i in range(4)]
    while not g.is_over:
        g.apply(chance.chance(g) if g.to_act == CHANCE
                else bots[g.to_act].decide(g.view(g.to_act), 1.0).action)
    return record_of(g)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    base = ReviewSettings()
    more = base.scaled(4)
    review_record(play(999), ReviewSettings(samples=4, call_samples=8))  # compile/load the kernel
    times: list[float] = []
    times4: list[float] = []
    same = flagged = flagged_same = total = 0
    for game in range(args.games):
        record = play(100 + game)
        t0 = time.perf_counter()
        a = review_record(record, base, workers=args.workers)
        times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        b = review_record(record, more, workers=args.workers)
        times4.append(time.perf_counter() - t0)
        for x, y in zip(a.decisions, b.decisions, strict=True):
            if x.label not in CLASSES:
                continue
            total += 1
            same += x.label == y.label
            bad_x, bad_y = x.label in ("mistake", "blunder"), y.label in ("mistake", "blunder")
            flagged += bad_y
            flagged_same += bad_x and bad_y
        print(f"game {game}: {len(a.decisions)} decisions, default {times[-1]:.1f} s, "
              f"4x {times4[-1]:.1f} s", flush=True)
    print(f"default settings ({base.samples} deals a card, {base.call_samples} a call): median "
          f"{statistics.median(times):.1f} s, max {max(times):.1f} s a game; 4x: median "
          f"{statistics.median(times4):.1f} s")
    print(f"classes equal at default and 4x: {same}/{total} = {same / total:.1%}; mistakes and "
          f"blunders at 4x also flagged at default: {flagged_same}/{flagged}")


if __name__ == "__main__":
    main()
