"""How well does the expert know where the hidden cards are? A HINDSIGHT diagnostic, never a
player: at each of the expert's card choices, the share of the other seats' hidden cards that
the deals it plays out put in the right hand (each deal counted by the weight the search gives
it), against the true hands, by stage of the deal.

Reproduce (as recorded in RESULTS.md)::

    PYTHONPATH=src .venv/bin/python benchmarks/card_reading.py --matches 6 --field greedy \\
        --bot expert:samples=1000

A share of 1 is the hindsight of ``hindsight_ceiling.py``; a deal drawn with no information but
the voids puts about a third of the cards right. The deals and their weights are seen here by
wrapping the expert's search in this process only; no bot, server or option of the package
can see another seat's cards.
"""

from __future__ import annotations

import argparse
import statistics
from collections import defaultdict
from typing import Any

import numpy as np

import callbreak.bots.expert as expert_module
from callbreak.arena import play_game
from callbreak.bots import make_bot
from callbreak.bots.base import Bot, Decision
from callbreak.core import Dealer, Match, Phase, SeatView, make_rules
from callbreak.core.cards import mask_of

RULES = make_rules("callbreak")
STAGES = ((0, 3), (3, 6), (6, 9), (9, 12))  # tricks already played


class _Seen:
    """The deals and weights of the decision being made."""

    worlds: list[np.ndarray] = []
    weights: list[np.ndarray] = []


class _SeenTally(expert_module._Tally):
    def add(self, weights: np.ndarray, values: np.ndarray) -> None:
        _Seen.weights.append(np.array(weights))
        super().add(weights, values)


_PLAYOUTS = expert_module.ExpertBot._playouts


def _seen_playouts(self: Any, worlds: np.ndarray, *args: Any) -> np.ndarray:
    _Seen.worlds.append(worlds.copy())
    out: np.ndarray = _PLAYOUTS(self, worlds, *args)
    return out


def _share_right(worlds: np.ndarray, weights: np.ndarray, truth: list[int], me: int) -> float:
    """The weighted mean share of the other seats' hidden cards that ``worlds`` put in the hand
    ``truth`` has them in."""
    hidden = sum(truth[s].bit_count() for s in range(4) if s != me)
    right = np.zeros(len(worlds))
    for s in range(4):
        if s != me:
            right += np.array([(int(h) & truth[s]).bit_count() for h in worlds[:, s]])
    return float((weights * right).sum() / weights.sum() / hidden)


class _Watched:
    """The expert at seat 0, noting the stage of each card choice it searched."""

    def __init__(self, expert: Bot) -> None:
        self.expert, self.name = expert, expert.name
        self.stage: int | None = None

    def decide(self, view: SeatView, budget: float) -> Decision:
        _Seen.worlds, _Seen.weights = [], []
        decision = self.expert.decide(view, budget)
        searched = view.phase is Phase.PLAY and bool(_Seen.worlds)
        self.stage = next(i for i, (a, b) in enumerate(STAGES) if a <= len(view.tricks) < b) \
            if searched else None
        return decision


def _read(spec: str, field: str, seed: int, shares: dict[int, list[float]]) -> None:
    """One match, the expert at seat 0: each card choice's share, by stage, into ``shares``."""
    watched = _Watched(make_bot(spec, seed=seed))
    players: list[Any] = [watched] + [make_bot(field, seed=seed * 10 + s) for s in (1, 2, 3)]

    def after(game: Any, seat: int, action: Any, seconds: float) -> None:
        if seat == 0 and watched.stage is not None:  # its own card played: the others' unmoved
            truth = [mask_of(game.view(s).hand or ()) for s in range(4)]
            shares[watched.stage].append(_share_right(np.concatenate(_Seen.worlds),
                                                      np.concatenate(_Seen.weights), truth, 0))

    outcome = play_game(Match(RULES), players, chance=Dealer(seed), budget=10.0, on_move=after)
    if outcome.faults:  # a move the referee replaced would not be the bots' play
        raise RuntimeError(f"match {seed}: {outcome.faults[0]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--field", default="greedy")
    parser.add_argument("--bot", action="append", help="the expert's spec (repeatable)")
    args = parser.parse_args()
    expert_module._Tally = _SeenTally  # type: ignore[misc]
    expert_module.ExpertBot._playouts = _seen_playouts  # type: ignore[method-assign,assignment]
    print(f"three {args.field}, {args.matches} matches (5 deals each), the expert at seat 0, "
          f"seed {args.seed}: share of the hidden cards placed right")
    print("| bot | " + " | ".join(f"tricks {a}-{b - 1} played" for a, b in STAGES)
          + " | all | decisions |")
    print("|---|" + "---|" * (len(STAGES) + 2))
    for spec in args.bot or ["expert:samples=1000"]:
        shares: dict[int, list[float]] = defaultdict(list)
        for m in range(args.matches):
            _read(spec, args.field, args.seed + m, shares)
        every = [x for v in shares.values() for x in v]
        print(f"| {spec} | " + " | ".join(f"{statistics.fmean(shares[i]):.2f}" if shares[i] else "-"
                                         for i in range(len(STAGES)))
              + f" | {statistics.fmean(every):.2f} | {len(every)} |", flush=True)


if __name__ == "__main__":
    main()
