"""What reading the hidden cards could ever be worth to the expert, field by field: a HINDSIGHT
diagnostic, never a player.

Each set is a ``callbreak`` match (5 deals, dealt by ``Dealer(seed)``) played four times, the
expert rotating through the four seats against three bots of the field (the same seeds in every
rotation), once as it plays and once given the true hands of the other seats for its card play:
every deal it would sample is replaced by the deal as it is (its calls are made as usual). The
paired difference, the second minus the first in the expert's own points a deal, is what a
perfect reading of the cards would add to its play; nothing that only reads cards better (how
the others call and play, whatever model) can add more, so it bounds what inference can give.
What the expert could gain by playing better, or by modelling how the others will play, is not
bounded by it. 95% intervals over the sets (normal approximation).

Reproduce (as recorded in RESULTS.md)::

    PYTHONPATH=src .venv/bin/python benchmarks/hindsight_ceiling.py --sets 20 --workers 2 \
        --fields greedy,heuristic,random --samples 200

``--from-trick K`` gives the hindsight only once K tricks of each deal are played: when in the
deal knowing the cards pays.

The hindsight is done here by replacing the expert's deal sampler in this process only; no bot,
server or option of the package can see another seat's cards.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

import callbreak.bots.expert as expert_module
from callbreak.arena import play_game
from callbreak.bots import make_bot
from callbreak.bots.kernel_sampling import WorldSampler
from callbreak.core import Dealer, Match, Phase, SeatView, make_rules
from callbreak.core.cards import mask_of

RULES = make_rules("callbreak")


class _Truth:
    """The match being played, for the hindsight sampler (one match at a time per process), and
    from which trick of each deal the hindsight starts."""

    match: Match | None = None
    from_trick = 0


class HindsightSampler(WorldSampler):
    """In the play phase (from trick ``_Truth.from_trick``), every sampled deal is the true one
    (weight 1); otherwise as usual."""

    def __init__(self, view: SeatView, *args: Any, **kwargs: Any) -> None:
        super().__init__(view, *args, **kwargs)
        self.playing = view.phase is Phase.PLAY and len(view.tricks) >= _Truth.from_trick

    def draw(self, n: int, rng: Any, weigh: bool = True) -> tuple[np.ndarray, np.ndarray]:
        match = _Truth.match
        if not self.playing or match is None:
            return super().draw(n, rng, weigh)
        hands = np.array([mask_of(match.view(s).hand or ()) for s in range(4)], dtype=np.int64)
        return np.tile(hands, (n, 1)), np.ones(n)


def _play(seed: int, hero: int, spec: str, field: str, samples: int, hindsight: bool,
          iterations: int) -> list[float]:
    """The hero's points in each deal of one match."""
    vars(expert_module)["WorldSampler"] = HindsightSampler if hindsight else WorldSampler
    if field == "ismcts":
        field = f"ismcts:iterations={iterations}"
    players = [make_bot(field, seed=seed * 10 + s) for s in range(4)]
    players[hero] = make_bot(f"{spec}:samples={samples}", seed=seed)
    match = Match(RULES)
    _Truth.match = match
    outcome = play_game(match, players, chance=Dealer(seed), budget=10.0)
    if outcome.faults:  # a move the referee replaced would not be the bots' play
        raise RuntimeError(f"match {seed}: {outcome.faults[0]}")
    _Truth.match = None
    return [r.points[hero] / 10 for r in match.results if not r.tiebreak]


def _set(args: tuple[int, str, str, int, int, int]) -> tuple[float, float]:
    """One set: the expert's mean points a deal over the four rotations, as it plays and with
    hindsight."""
    seed, spec, field, samples, iterations, from_trick = args
    _Truth.from_trick = from_trick
    out = []
    for hindsight in (False, True):
        points = [p for hero in range(4)
                  for p in _play(seed, hero, spec, field, samples, hindsight, iterations)]
        out.append(statistics.fmean(points))
    return out[0], out[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--fields", default="greedy,heuristic,random")
    parser.add_argument("--bot", default="expert", help="the expert's spec (samples added)")
    parser.add_argument("--samples", type=int, default=200, help="sampled deals a decision")
    parser.add_argument("--ismcts-iterations", type=int, default=300)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--from-trick", type=int, default=0,
                        help="hindsight only once this many tricks of the deal are played")
    args = parser.parse_args()
    print(f"{args.bot}, {args.samples} sampled deals a decision, {args.sets} sets of 4 rotated "
          f"5-deal matches a field, seed {args.seed}, hindsight from trick {args.from_trick}")
    print("| field (3 seats) | deals | as it plays | with hindsight | hindsight - plays (95%) | time |")
    print("|---|---|---|---|---|---|")
    with ProcessPoolExecutor(args.workers) as pool:
        for field in args.fields.split(","):
            start = time.perf_counter()
            jobs = [(args.seed + i, args.bot, field, args.samples, args.ismcts_iterations,
                     args.from_trick) for i in range(args.sets)]
            results = list(pool.map(_set, jobs))
            plays = [a for a, _ in results]
            sees = [b for _, b in results]
            diff = [b - a for a, b in results]
            half = 1.96 * statistics.stdev(diff) / math.sqrt(len(diff)) if len(diff) > 1 else math.nan
            print(f"| {field} | {args.sets * 20} | {statistics.fmean(plays):+.2f} | "
                  f"{statistics.fmean(sees):+.2f} | {statistics.fmean(diff):+.2f} ± {half:.2f} | "
                  f"{time.perf_counter() - start:.0f} s |", flush=True)


if __name__ == "__main__":
    main()
