"""The simple bots: ``random`` (any legal action) and ``beginner`` (a new player's habits)."""

from __future__ import annotations

import random

from callbreak.bots.base import Decision, register
from callbreak.core import Call, Look, Play, Redeal, SeatView
from callbreak.core.cards import Card
from callbreak.core.game import GameView

_SUIT_WORDS = ("spades", "hearts", "clubs", "diamonds")


class RandomBot:
    """A random legal action."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def decide(self, view: GameView, budget: float) -> Decision:
        if not view.legal:
            raise ValueError("the bot was asked to act with no legal action")
        # Blind calls and looks are rare choices for a random player: prefer ordinary actions.
        ordinary = [a for a in view.legal if a.kind != "look" and not (isinstance(a, Call) and a.blind)]
        return Decision(self.rng.choice(ordinary or list(view.legal)), "a random legal move")


class BeginnerBot:
    """Plays like someone who learned the rules today: legal, eager, and easy to read.

    Its habits are the usual first mistakes: it calls every ace, king and queen as a trick (and
    long spades on top), leads its biggest card, plays its highest card of the suit led whether
    or not it can win, trumps whenever it is void, ignores its partner, and now and then plays
    something at random. It always looks before calling and always claims a redeal when it may.
    """

    def __init__(self, seed: int | None = None, slip: float = 0.1) -> None:
        if not 0.0 <= slip <= 1.0:
            raise ValueError(f"slip must be between 0 and 1, got {slip}")
        self.name = "beginner"
        self.slip = slip
        self.rng = random.Random(seed)

    def decide(self, view: SeatView, budget: float) -> Decision:
        legal = view.legal
        if not legal:
            raise ValueError("the bot was asked to act with no legal action")
        for action in legal:
            if isinstance(action, Redeal) and action.claim:
                return Decision(action, "a weak hand: ask for a redeal")
            if isinstance(action, Look):
                return Decision(action, "look at the cards first")
        calls = [a for a in legal if isinstance(a, Call) and not a.blind]
        if calls:
            return self._call(view, calls)
        if isinstance(legal[0], Redeal):
            return Decision(legal[0], "keep the hand")
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            return self._play(view, plays)
        return Decision(legal[0], "the only move")

    def _call(self, view: SeatView, calls: list[Call]) -> Decision:
        hand = view.hand or ()
        trump = int(view.trump) if view.trump is not None else 0
        high = sum(1 for c in hand if c % 13 >= 10)  # every queen, king and ace "is a trick"
        long_trumps = max(0, sum(1 for c in hand if c // 13 == trump) - 3)
        want = high + long_trumps
        best = min(calls, key=lambda a: abs(a.tricks - want))
        return Decision(best, f"call {best.tricks}: {high} high cards"
                              + (" and long spades" if long_trumps else ""))

    def _play(self, view: SeatView, plays: list[Play]) -> Decision:
        if len(plays) > 1 and self.rng.random() < self.slip:
            return Decision(self.rng.choice(plays), "this one looks fine")
        cards = [a.card for a in plays]
        trump = int(view.trump) if view.trump is not None else -1
        by_card = {a.card: a for a in plays}
        if not view.trick:
            side = [c for c in cards if c // 13 != trump] or cards
            card = max(side, key=lambda c: c % 13)
            return Decision(by_card[card], f"lead my biggest card, {_name(card)}")
        lead = view.trick[0] // 13
        follow = [c for c in cards if c // 13 == lead]
        if follow:
            card = max(follow)
            return Decision(by_card[card], f"play my highest {_SUIT_WORDS[lead]}")
        trumps = [c for c in cards if c // 13 == trump]
        if trumps:
            card = max(trumps)
            return Decision(by_card[card], f"no {_SUIT_WORDS[lead]}: trump it with {_name(card)}")
        card = min(cards, key=lambda c: c % 13)
        return Decision(by_card[card], f"no {_SUIT_WORDS[lead]}: throw away {_name(card)}")


def _name(card: Card) -> str:
    return card.pretty


@register("random", games=None)  # any legal action is a move in every game
def _random(seed: str | None = None) -> RandomBot:
    """Plays any legal move at random."""
    return RandomBot(int(seed) if seed is not None else None)


@register("beginner")
def _beginner(seed: str | None = None, slip: str = "0.1") -> BeginnerBot:
    """A new player: calls every high card, leads its biggest, slips now and then."""
    return BeginnerBot(int(seed) if seed is not None else None, slip=float(slip))


__all__ = ["BeginnerBot", "RandomBot"]
