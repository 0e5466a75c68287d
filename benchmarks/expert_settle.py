"""What the expert's early stop (``settle``) costs and saves at 1 s a move.

Positions: every card-play decision with a choice in the first deals of matches of four heuristic
bots under the ``callbreak`` preset. Each is given to three ``expert:budget=1`` bots with
different seeds: one with the early stop (the default, ``settle=3``) and two without
(``settle=0``, which always use the whole budget). Reported: the time each took a move, how often
the early stop fired, and how often each pair chose the same card. The two full-budget bots
disagree on close choices out of sampling noise alone; the early stop costs nothing if it agrees
with them as often as they agree with each other.

    .venv/bin/python benchmarks/expert_settle.py --matches 2 --deals 2
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Iterator

from callbreak.bots import make_bot
from callbreak.core import CHANCE, Dealer, Match, Phase, SeatView, make_rules


def positions(seed: int, deals: int) -> Iterator[SeatView]:
    match = Match(make_rules("callbreak"))
    dealer = Dealer(seed)
    bot = make_bot("heuristic", seed=seed)
    while not match.is_over and match.deal_number <= deals:
        seat = match.to_act
        if seat == CHANCE:
            match.apply(dealer.chance(match))
            continue
        assert seat is not None
        view = match.view(seat)
        if view.phase is Phase.PLAY and len(view.legal) > 1:
            yield view
        match.apply(bot.decide(view, 1.0).action)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--deals", type=int, default=2, help="deals played of each match")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)
    settled = make_bot("expert:budget=1", seed=1)
    full = [make_bot("expert:budget=1,settle=0", seed=s) for s in (2, 3)]
    times: list[list[float]] = [[], [], []]
    same = {"settle-full A": 0, "settle-full B": 0, "full A-full B": 0}
    clear = 0
    for m in range(args.matches):
        for view in positions(args.seed + m, args.deals):
            cards = []
            for i, bot in enumerate((settled, *full)):
                start = time.perf_counter()
                decision = bot.decide(view, 5.0)
                times[i].append(time.perf_counter() - start)
                cards.append(decision.action)
                clear += i == 0 and "a clear choice" in decision.reason
            same["settle-full A"] += cards[0] == cards[1]
            same["settle-full B"] += cards[0] == cards[2]
            same["full A-full B"] += cards[1] == cards[2]
    n = len(times[0])
    print(f"{n} decisions, {args.matches} matches x {args.deals} deals, seed {args.seed}")
    print("| bot | ms a move: mean / median / p99 | stopped early |")
    print("|---|---|---|")
    for name, ts, stopped in (("settle=3 (default)", times[0], f"{clear} ({clear / n:.0%})"),
                              ("settle=0, seed 2", times[1], "-"), ("settle=0, seed 3", times[2], "-")):
        ts = sorted(ts)
        print(f"| {name} | {1000 * statistics.mean(ts):.0f} / {1000 * statistics.median(ts):.0f}"
              f" / {1000 * ts[int(0.99 * (n - 1))]:.0f} | {stopped} |")
    print("same card: " + ", ".join(f"{k} {v}/{n} ({v / n:.0%})" for k, v in same.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
