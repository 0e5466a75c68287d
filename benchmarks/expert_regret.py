"""What more time can buy the expert under its own model: the regret of its choices.

Positions: every card-play decision with a choice in the first deals of matches of four heuristic
bots under the ``callbreak`` preset (not the last deal, so values are plain deal margins).
For each, a reference search with many sampled deals (``--reference``, fixed, its own seed)
values every legal card (:meth:`callbreak.bots.expert.ExpertBot.appraise`). The expert at 0.1 s
and at 1 s a move then choose, and each choice's regret is the reference's value of its best card
less its value of the card chosen. A second reference with another seed gives the floor: the
regret of a choice as good as the reference itself, which is the reference's own noise.

The difference of the two regrets, times the choices a seat makes in a deal, is what going from
0.1 s to 1 s buys a deal if the model (the sampled deals and the playouts) were right: a few
hundredths of a point, too little for a 2,000-deal head-to-head to show (its interval is about
+/-0.1), though a paired comparison against one field can.

    .venv/bin/python benchmarks/expert_regret.py --matches 3 --deals 2 --seed 21
"""

from __future__ import annotations

import argparse
import statistics
import sys

from expert_settle import positions

from callbreak.arena.stats import mean_ci
from callbreak.bots import make_bot
from callbreak.bots.expert import ExpertBot

REFERENCE_BUDGET = 600.0  # seconds


def regret(values: tuple[float, ...], plays: tuple[object, ...], chosen: object) -> float:
    return max(values) - values[plays.index(chosen)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=4)
    parser.add_argument("--deals", type=int, default=2, help="deals played of each match (< 5)")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--reference", type=int, default=20000,
                        help="sampled deals of each reference search")
    args = parser.parse_args(argv)
    if not 1 <= args.deals < 5:
        parser.error("--deals must be 1 to 4: the last deal's values count the match")
    bots = {"0.1 s": (make_bot("expert:budget=0.1", seed=1), 0.1),
            "1 s": (make_bot("expert:budget=1", seed=2), 1.0)}
    regrets: dict[str, list[float]] = {name: [] for name in (*bots, "second reference")}
    agree = dict.fromkeys(regrets, 0)
    drawn: list[int] = []
    n = 0
    for m in range(args.matches):
        for view in positions(args.seed + m, args.deals):
            # A budget long enough that the references always draw all their sampled deals.
            ref = ExpertBot(samples=args.reference, seed=1000 + n).appraise(view, REFERENCE_BUDGET)
            second = ExpertBot(samples=args.reference, seed=5000 + n).appraise(view, REFERENCE_BUDGET)
            drawn.extend((ref.deals, second.deals))
            chosen = {"second reference": second.best}
            for name, (bot, budget) in bots.items():
                chosen[name] = bot.decide(view, budget).action
            for name, card in chosen.items():
                regrets[name].append(regret(ref.values, ref.plays, card))
                agree[name] += card == ref.best
            n += 1
    seats_deals = 4 * args.matches * args.deals
    per_deal = n / seats_deals
    print(f"{n} decisions with a choice ({per_deal:.1f} a seat a deal), {args.matches} matches x "
          f"{args.deals} deals, seed {args.seed}, references of {min(drawn)} to {max(drawn)} sampled "
          "deals")
    print("| chooser | regret a decision, points (95% CI) | a deal | same card as the reference |")
    print("|---|---|---|---|")
    for name, values in regrets.items():
        mean, low, high = mean_ci(values)
        print(f"| {name} | {mean:.4f} [{low:.4f}, {high:.4f}] | {mean * per_deal:.3f} | "
              f"{agree[name]}/{n} ({agree[name] / n:.0%}) |")
    gain = [a - b for a, b in zip(regrets["0.1 s"], regrets["1 s"], strict=True)]
    mean, low, high = mean_ci(gain)
    print(f"1 s over 0.1 s, paired: {mean:+.4f} [{low:+.4f}, {high:+.4f}] points a decision, "
          f"{mean * per_deal:+.3f} [{low * per_deal:+.3f}, {high * per_deal:+.3f}] a deal "
          f"(median regret 0.1 s {statistics.median(regrets['0.1 s']):.4f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
