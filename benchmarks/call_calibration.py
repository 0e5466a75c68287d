"""Are the expert's calls tuned to the table it sits at? Field by field: how many tricks its
simulation of the deal expects for its hand, how many it then takes, and what other shifts of the
simulated distribution (the expert's ``call_bias``, 0.4 of a trick) would have scored.

Reproduce (as recorded in RESULTS.md)::

    PYTHONPATH=src .venv/bin/python benchmarks/call_calibration.py --matches 80 --workers 2 \\
        --fields greedy,heuristic,random,ismcts

Each match is a ``callbreak`` match (5 deals, ``Dealer(seed)``), the expert at one seat (rotating
with the match) against three bots of the field. At each of its calls, a second expert with no
bias simulates the same view (the seat's own view only) for the distribution of tricks the hand
takes, the distribution the expert calls from before its bias. After the deal: the tricks taken.

The other shifts are scored as if the deal had been played the same way whatever the call, which
is not quite so (a seat plays to make its call), so read the table as where the calls leak, not
as what a change would gain; an A/B of the bot itself says that. 95% intervals are over deals
(normal approximation), paired with the bias the expert uses.
"""

from __future__ import annotations

import argparse
import math
import statistics
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from callbreak.arena import play_game
from callbreak.bots import make_bot
from callbreak.bots.base import Bot, Decision
from callbreak.bots.expert import CALL_BIAS, ExpertBot, shifted_up
from callbreak.core import Call, Dealer, Match, Phase, SeatView, make_rules
from callbreak.core.scoring import deal_points, expected_deal_points, made

RULES = make_rules("callbreak")
BIASES = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.2)


class _Watched:
    """The expert at its seat; at each of its calls, the unbiased outlook of the same view."""

    def __init__(self, expert: Bot, observer: ExpertBot) -> None:
        self.expert, self.observer, self.name = expert, observer, expert.name
        self.calls: dict[int, tuple[tuple[float, ...], int]] = {}  # deal: (outlook, call)

    def decide(self, view: SeatView, budget: float) -> Decision:
        decision = self.expert.decide(view, budget)
        if view.phase is Phase.CALL and isinstance(decision.action, Call):
            outlook = self.observer.call_outlook(view, budget)[0]
            self.calls[view.deal_number] = (outlook, decision.action.tricks)
        return decision


def _match(job: tuple[int, str, int]) -> list[tuple[tuple[float, ...], int, int, int]]:
    """(unbiased trick distribution, call, tricks taken, points) for each of the expert's calls
    in one match."""
    seed, field, samples = job
    hero = seed % 4
    spec = "ismcts:iterations=300" if field == "ismcts" else field
    players: list[Any] = [make_bot(spec, seed=seed * 10 + s) for s in range(4)]
    watched = _Watched(make_bot(f"expert:samples={samples}", seed=seed),
                       ExpertBot(samples=samples, call_bias=0.0, seed=seed + 1))
    players[hero] = watched
    outcome = play_game(Match(RULES), players, chance=Dealer(seed), budget=10.0)
    if outcome.faults:  # a move the referee replaced would not be the bots' play
        raise RuntimeError(f"match {seed}: {outcome.faults[0]}")
    return [(*watched.calls[r.number], r.won[hero], r.points[hero])
            for r in outcome.match.results if r.number in watched.calls]


def _best_call(histogram: np.ndarray) -> int:
    """The call the expert makes from ``histogram`` (its ``_call``, alone at the table)."""
    return max(RULES.call_range, key=lambda c: expected_deal_points(c, histogram, RULES))


def _interval(values: list[float]) -> str:
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{statistics.fmean(values):+.3f} ± {half:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=40, help="matches a field (5 deals each)")
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--fields", default="greedy,heuristic,random,ismcts")
    parser.add_argument("--samples", type=int, default=200, help="the expert's sampled deals")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    print(f"expert:samples={args.samples}, {args.matches} matches a field, seed {args.seed}; "
          f"points a deal against the calls the expert's own bias ({CALL_BIAS}) would make")
    header = " | ".join(f"bias {b:.1f}" for b in BIASES if b != CALL_BIAS)
    print(f"| field | calls | simulated tricks | taken | made | points | {header} |")
    print("|---|---|---|---|---|---|" + "---|" * (len(BIASES) - 1))
    with ProcessPoolExecutor(args.workers) as pool:
        for field in args.fields.split(","):
            jobs = [(args.seed + i, field, args.samples) for i in range(args.matches)]
            rows = [row for rows in pool.map(_match, jobs) for row in rows]
            simulated = statistics.fmean(sum(w * p for w, p in enumerate(h)) for h, *_ in rows)
            taken = statistics.fmean(won for _, _, won, _ in rows)
            made_share = statistics.fmean(made(call, won, RULES) for _, call, won, _ in rows)
            points = statistics.fmean(p / 10 for *_, p in rows)
            base = [deal_points(_best_call(shifted_up(np.array(h), CALL_BIAS)), won, RULES) / 10
                    for h, _, won, _ in rows]
            cells = []
            for bias in BIASES:
                if bias == CALL_BIAS:
                    continue
                other = [deal_points(_best_call(shifted_up(np.array(h), bias)), won, RULES) / 10
                         for h, _, won, _ in rows]
                cells.append(_interval([a - b for a, b in zip(other, base, strict=True)]))
            print(f"| {field} | {len(rows)} | {simulated:.2f} | {taken:.2f} | {made_share:.0%} | "
                  f"{points:+.2f} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
