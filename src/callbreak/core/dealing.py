"""Randomness for the chance steps, kept outside the rules.

:class:`Dealer` turns a seed into a reproducible stream of chance actions for any game of the
protocol: what the chance step now due decides (``game.chance_kind``) is drawn here, and the
game says how a shuffled pack becomes its deal (``game.deal_from_pack``). Records store the dealt
cards themselves, never the seed, because a generator's shuffle may change between Python
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

from callbreak.core.actions import CHANCE, Action, ChooseDealer, Deal, Draw, Stop
from callbreak.core.cards import DECK, Card
from callbreak.core.errors import WrongPhaseError
from callbreak.core.game import ChanceKind, Game


def shuffled_hands(rng: random.Random, players: int = 4, size: int = 13) -> tuple[tuple[Card, ...], ...]:
    """Shuffle a pack and deal ``size`` cards to each of ``players`` hands."""
    deck = shuffled_pack(rng)
    return tuple(tuple(sorted(deck[i * size:(i + 1) * size])) for i in range(players))


def shuffled_pack(rng: random.Random) -> list[Card]:
    """A shuffled pack (randomness lives with the dealer, never in the rules)."""
    pack = list(DECK)
    rng.shuffle(pack)
    return pack


class Dealer:
    """A seeded source of chance actions for every game: first-dealer choice or draw, deals."""

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def deal(self) -> Deal:
        """Four hands of thirteen from a shuffled pack (a Call Break deal, without a game)."""
        return Deal(hands=shuffled_hands(self.rng))

    def chance(self, game: Game, *, stop: bool = False) -> Action:
        """The chance action ``game`` is waiting for.

        With unlimited deals, pass ``stop=True`` to end the match between deals instead.
        """
        if game.to_act != CHANCE:
            raise WrongPhaseError(f"no chance step is due in the {game.phase.value} phase")
        kind = game.chance_kind
        if kind is ChanceKind.FIRST_DEALER:
            return ChooseDealer(self.rng.randrange(game.players))
        if kind is ChanceKind.DRAW:
            return Draw(cards=tuple(self.rng.sample(DECK, game.players)))
        if stop and game.can_stop:
            return Stop()
        return game.deal_from_pack(shuffled_pack(self.rng))
