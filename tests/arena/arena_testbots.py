"""Misbehaving bots for the arena tests, registered under names starting with ``test-``.

Importing this module registers them (child processes forked by the arena inherit them).
"""

from __future__ import annotations

import random
import time

from callbreak.bots import Decision, register
from callbreak.core import Play, SeatView


class CrashingBot:
    """Plays randomly, but raises on every move of deal ``crash_deal`` and later."""

    def __init__(self, seed: int | None = None, crash_deal: int = 2) -> None:
        self.name = "test-crash"
        self.rng = random.Random(seed)
        self.crash_deal = crash_deal

    def decide(self, view: SeatView, budget: float) -> Decision:
        if view.deal_number >= self.crash_deal:
            raise RuntimeError("boom")
        return Decision(self.rng.choice(list(view.legal)))


class SlowBot:
    """Sleeps ``delay`` seconds on its first card play of each deal, then plays randomly."""

    def __init__(self, seed: int | None = None, delay: float = 0.2) -> None:
        self.name = "test-slow"
        self.rng = random.Random(seed)
        self.delay = delay

    def decide(self, view: SeatView, budget: float) -> Decision:
        if view.phase.value == "play" and view.hand is not None and len(view.hand) == 13:
            time.sleep(self.delay)
        return Decision(self.rng.choice(list(view.legal)))


class IllegalBot:
    """Always tries to play a card it may not play (or, when calling, an impossible call)."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "test-illegal"

    def decide(self, view: SeatView, budget: float) -> Decision:
        assert view.seat is not None
        # A card already played, or else one somebody else holds: never legal.
        not_mine = (view.played or view.unseen)[0]
        return Decision(Play(view.seat, not_mine))


class SpyBot:
    """Random, and remembers every view it was given (to check what a seat is shown)."""

    seen: list[tuple[int | None, SeatView]] = []

    def __init__(self, seed: int | None = None) -> None:
        self.name = "test-spy"
        self.rng = random.Random(seed)

    def decide(self, view: SeatView, budget: float) -> Decision:
        SpyBot.seen.append((view.seat, view))
        return Decision(self.rng.choice(list(view.legal)))


@register("test-crash")
def _crash(seed: str | None = None, crash_deal: str = "2") -> CrashingBot:
    return CrashingBot(int(seed) if seed else None, int(crash_deal))


@register("test-slow")
def _slow(seed: str | None = None, delay: str = "0.2") -> SlowBot:
    return SlowBot(int(seed) if seed else None, float(delay))


@register("test-illegal")
def _illegal(seed: str | None = None) -> IllegalBot:
    return IllegalBot()


@register("test-spy")
def _spy(seed: str | None = None) -> SpyBot:
    return SpyBot(int(seed) if seed else None)
