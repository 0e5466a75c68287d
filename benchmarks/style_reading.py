"""How quickly the expert's style reader (callbreak.bots.reading) tells the other seats apart.

Reproduce (as recorded in RESULTS.md):

    PYTHONPATH=src .venv/bin/python benchmarks/style_reading.py --matches 10

Seat 0 is a heuristic bot that only watches; seats 1-3 are the styles read. At seat 0's
first turn after every 3rd trick of each of the first two deals of a ``callbreak`` match, seat
0's view is read as the expert reads it by default (:func:`callbreak.bots.expert.read_seats`,
moves and calls, over its own sampled deals), the first deal's reading carried into the second. Printed: per true style, the
mean posterior of each model (random, greedy, classic, search) at those points, and how often the
most likely model is the true one (IS-MCTS players are meant to read as ``search``).
"""

from __future__ import annotations

import argparse
import random
import statistics

import numpy as np

from callbreak.bots import make_bot
from callbreak.bots.expert import read_seats
from callbreak.bots.heuristic import classic_steps
from callbreak.bots.kernel import get_kernel, options_array
from callbreak.bots.kernel_sampling import WorldSampler
from callbreak.bots.reading import STYLES, carry
from callbreak.core import CHANCE, Dealer, Match, Phase, make_rules

TRUTH = {"random": "random", "greedy": "greedy", "heuristic": "classic", "ismcts:iterations=300": "search"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--seed", type=int, default=500)
    args = parser.parse_args()
    kernel = get_kernel()
    kernel.warm_up()
    rules = make_rules("callbreak")
    opts = options_array(rules)
    got: dict[tuple[str, int, int], list[np.ndarray]] = {}
    specs = list(TRUTH)
    for k in range(args.matches):
        seed = args.seed + k
        rng = random.Random(seed)
        table = rng.sample(specs, 3)
        players = [make_bot("heuristic", seed=seed)] + [make_bot(s, seed=seed + i + 1)
                                                        for i, s in enumerate(table)]
        match = Match(rules)
        dealer = Dealer(seed)
        priors: dict[int, np.ndarray] = {}
        last: dict[int, np.ndarray] = {}
        deal = 1
        seen: set[tuple[int, int]] = set()
        while not match.is_over and match.deal_number <= 2:
            seat = match.to_act
            if seat == CHANCE:
                if match.deal_number != deal:
                    priors = {s: carry(p) for s, p in last.items()}
                    deal = match.deal_number
                match.apply(dealer.chance(match))
                continue
            assert seat is not None
            view = match.view(seat)
            point = (deal, len(view.tricks))
            if (seat == 0 and view.phase is Phase.PLAY and view.tricks
                    and len(view.tricks) % 3 == 0 and point not in seen):
                seen.add(point)
                steps = classic_steps(view)
                last = read_seats(kernel, WorldSampler(view, kernel), steps, int(view.trump or 0),
                                  opts, priors, rng, True, len(rules.call_range))
                for s in (1, 2, 3):
                    got.setdefault((table[s - 1], deal, len(view.tricks)), []).append(last[s])
            match.apply(players[seat].decide(view, 1.0).action)
    print(f"{args.matches} matches; posterior means ({', '.join(STYLES)}); right = the most "
          "likely model is the true one\n")
    print(f"| true style | deal | after tricks | seats | {' | '.join(STYLES)} | right |")
    print("|---|---|---|---|" + "---|" * len(STYLES) + "---|")
    for (spec, deal, tricks), posts in sorted(got.items()):
        mean = np.mean(posts, axis=0)
        truth = TRUTH[spec]
        right = statistics.mean(float(STYLES[int(np.argmax(p))] == truth) for p in posts)
        means = " | ".join(f"{m:.2f}" for m in mean)
        print(f"| {spec.split(':')[0]} | {deal} | {tricks} | {len(posts)} | {means} | {right:.0%} |")


if __name__ == "__main__":
    main()
