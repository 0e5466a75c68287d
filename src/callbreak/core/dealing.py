"""Randomness for the chance steps, kept outside the rules.

:class:`Dealer` turns a seed into a reproducible stream of chance actions. Records store the
dealt cards themselves, never the seed, because a generator's shuffle may change between Python
versions.

>>> d = Dealer(seed=1)
>>> deal = d.deal()
>>> sorted(len(h) for h in deal.hands)
[13, 13, 13, 13]
>>> Dealer(seed=1).deal() == deal
True
"""

from __future__ import annotations

import random

from callbreak.core.actions import Action, ChooseDealer, Deal, Draw, Stop
from callbreak.core.cards import DECK, Card
from callbreak.core.errors import WrongPhaseError
from callbreak.core.match import Match
from callbreak.core.rules import FirstDealer
from callbreak.core.view import Phase


def shuffled_hands(rng: random.Random, players: int = 4, size: int = 13) -> tuple[tuple[Card, ...], ...]:
    """Shuffle a pack and deal ``size`` cards to each of ``players`` hands."""
    deck = list(DECK)
    rng.shuffle(deck)
    return tuple(tuple(sorted(deck[i * size:(i + 1) * size])) for i in range(players))


class Dealer:
    """A seeded source of chance actions: first-dealer choice or draw, then deals."""

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def deal(self) -> Deal:
        return Deal(hands=shuffled_hands(self.rng))

    def chance(self, match: Match, *, stop: bool = False) -> Action:
        """The chance action ``match`` is waiting for.

        With unlimited deals, pass ``stop=True`` to end the match between deals instead.
        """
        if match.phase is Phase.DRAW:
            if match.rules.first_dealer is FirstDealer.RANDOM:
                return ChooseDealer(self.rng.randrange(4))
            return Draw(cards=tuple(self.rng.sample(DECK, 4)))
        if match.phase is Phase.DEAL:
            if stop and match.can_stop:
                return Stop()
            return self.deal()
        raise WrongPhaseError(f"no chance step is due in the {match.phase.value} phase")
