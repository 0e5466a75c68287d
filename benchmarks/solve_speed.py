"""Cost of the kernel's exact search of a deal's last tricks (``solve_rest``), by tricks left.

Random positions: each seat holds ``k`` random cards, a random seat leads, random calls of 2 to 5
under the ``callbreak`` preset. Prints the median and worst time and the cards tried (search size)
per solve, beside the cost of one heuristic rollout of a whole deal measured in the same run.

    .venv/bin/python benchmarks/solve_speed.py --positions 30
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

from callbreak.bots.kernel import POLICY_HEURISTIC, get_kernel, make_position, options_array
from callbreak.core import make_rules
from callbreak.core.scoring import deal_points


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--most", type=int, default=6, help="largest number of tricks left")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    kernel = get_kernel("numba")
    kernel.warm_up()
    rules = make_rules("callbreak")
    rng = random.Random(args.seed)

    # Baseline: one rollout of a whole deal with the heuristic policy.
    totals = np.zeros(4, dtype=np.int64)
    opts = options_array(rules)
    start = time.process_time()
    kernel.random_deals(20000, args.seed, opts, POLICY_HEURISTIC, False, totals)
    rollout_us = 1e6 * (time.process_time() - start) / 20000
    print(f"heuristic rollout of a whole deal: {rollout_us:.1f} us")
    print("| tricks left | median us | worst us | median cards tried | worst | median / rollout |")
    print("|---|---|---|---|---|---|")
    for left in range(2, args.most + 1):
        opts = options_array(rules, solve=left)
        times: list[float] = []
        sizes: list[int] = []
        for _ in range(args.positions):
            deck = list(range(52))
            rng.shuffle(deck)
            hands = np.zeros(4, dtype=np.int64)
            for s in range(4):
                for c in deck[13 * s:13 * s + left]:
                    hands[s] |= 1 << c
            done = 13 - left
            pos = make_position((), rng.randrange(4), 0, done, (done // 4, done // 4, done // 4,
                                                               done - 3 * (done // 4)))
            calls = [rng.randint(2, 5) for _ in range(4)]
            points = np.array([[deal_points(calls[s], w, rules) for w in range(27)]
                               for s in range(4)], dtype=np.int64)
            won = pos.won.copy()
            t0 = time.perf_counter()
            sizes.append(kernel.solve(hands, pos.trick, pos.state, won, opts, points))
            times.append(1e6 * (time.perf_counter() - t0))
        med = statistics.median(times)
        print(f"| {left} | {med:.0f} | {max(times):.0f} | {statistics.median(sizes):.0f} | "
              f"{max(sizes)} | {med / rollout_us:.1f}x |")


if __name__ == "__main__":
    main()
