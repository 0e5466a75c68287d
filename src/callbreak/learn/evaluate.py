"""How strong a bot is against a fixed field, on duplicate tables every bot plays the same way.

A set is one seeded 5-deal Call Break match played four times, the measured bot ("hero") rotated
through the four seats and the field's players keeping their order around it. Any two heroes
measured with the same ``seed`` play the very same tables (deals, seats, the field's seeds), so
their difference is paired set by set.

>>> sets = play_sets("heuristic", ("random", "random", "random"), seed=1, sets=1)
>>> own, margin = per_set(sets)
>>> len(sets[0]), len(own)
(4, 1)
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from typing import Any

from callbreak.arena.runner import DealStream, play_game
from callbreak.arena.stats import mean_ci
from callbreak.bots import make_bot
from callbreak.core.game import GameView
from callbreak.games import new_game

FIELDS: dict[str, tuple[str, str, str]] = {
    "heuristic": ("heuristic", "heuristic", "heuristic"),
    "ggr": ("greedy", "greedy", "random"),
    "random": ("random", "random", "random"),
}
"""The standard fields, by name."""

PRESET = "callbreak"


def play_set(hero: str, field: Sequence[str], seed: int, index: int) -> list[dict[str, Any]]:
    """The four tables of set ``index``: per table the seat of the hero, every seat's points per
    deal (tenths), the hero's decision times (seconds: wall clock, and its thread's CPU time) and
    its faults."""
    out = []
    for rotation in range(4):
        specs = [""] * 4
        specs[rotation] = hero
        for k, spec in enumerate(field):
            specs[(rotation + 1 + k) % 4] = spec
        bots: list[Any] = [make_bot(spec, seed=seed * 7919 + index * 31 + s) for s, spec in enumerate(specs)]
        cpu: list[float] = []
        bots[rotation] = _CpuTimed(bots[rotation], cpu)
        times: list[float] = []

        def timed(game: Any, seat: int, action: Any, seconds: float, hero_seat: int = rotation,
                  times: list[float] = times) -> None:
            if seat == hero_seat:
                times.append(seconds)

        result = play_game(new_game("callbreak", preset=PRESET), bots, name="callbreak",
                           chance=DealStream(f"{seed}/{index}"), budget=10.0, on_move=timed)
        out.append({"rotation": rotation, "points": [list(d) for d in result.deal_points],
                    "times": times, "cpu": cpu,
                    "faults": sum(1 for f in result.faults if f.seat == rotation)})
    return out


class _CpuTimed:
    """A bot whose decisions' CPU time (its thread's) is recorded: what a decision costs, apart
    from the waits a busy machine adds to the wall clock."""

    def __init__(self, bot: Any, out: list[float]) -> None:
        self.bot, self.out, self.name = bot, out, bot.name

    def decide(self, view: GameView, budget: float) -> Any:
        start = time.thread_time()
        decision = self.bot.decide(view, budget)
        self.out.append(time.thread_time() - start)
        return decision


def play_sets(hero: str, field: Sequence[str], seed: int, sets: int) -> list[list[dict[str, Any]]]:
    return [play_set(hero, field, seed, i) for i in range(sets)]


def per_set(sets: list[list[dict[str, Any]]]) -> tuple[list[float], list[float]]:
    """Per set: the hero's own points a deal, and its margin over the mean of the field's."""
    own, margin = [], []
    for tables in sets:
        o, m = [], []
        for t in tables:
            r = t["rotation"]
            for deal in t["points"]:
                o.append(deal[r] / 10)
                m.append((deal[r] - sum(deal[s] for s in range(4) if s != r) / 3) / 10)
        own.append(statistics.fmean(o))
        margin.append(statistics.fmean(m))
    return own, margin


def paired(a: list[float], b: list[float]) -> tuple[float, float | None, float | None]:
    """The mean difference of two heroes' per-set figures and its 95% interval."""
    return mean_ci([x - y for x, y in zip(a, b, strict=True)])
