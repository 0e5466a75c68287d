"""The random bot (and the place simple bots live)."""

from __future__ import annotations

import random

from callbreak.bots.base import Decision, register
from callbreak.core import SeatView


class RandomBot:
    """A random legal action."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def decide(self, view: SeatView, budget: float) -> Decision:
        if not view.legal:
            raise ValueError("the bot was asked to act with no legal action")
        # Blind calls and looks are rare choices for a random player: prefer ordinary actions.
        ordinary = [a for a in view.legal if a.kind != "look" and not getattr(a, "blind", False)]
        return Decision(self.rng.choice(ordinary or list(view.legal)), "a random legal move")


@register("random")
def _random(seed: str | None = None) -> RandomBot:
    return RandomBot(int(seed) if seed is not None else None)
