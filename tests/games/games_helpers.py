"""Helpers for the games tests: hand-made deals and driving a game to a chosen point."""

from __future__ import annotations

import random
from collections.abc import Iterable

from callbreak.core.actions import Action, Deal
from callbreak.core.cards import DECK, Card, parse_cards
from callbreak.core.dealing import Dealer
from callbreak.games import CHANCE, ContractGame, new_game

# The related games of seed 000: the registered games built on games.base (Call Break and Call
# Bridge are the core's Match).
RELATED = ("batak-ihaleli", "batak-koz-maca", "donut", "horsethief", "snarples")


def trick_game(name: str, players: int | None = None, **options: object) -> ContractGame:
    """A new related game by registry name (``new_game``, typed as the trick game it is)."""
    game = new_game(name, players, **options)
    assert isinstance(game, ContractGame), f"{name} is not a trick game"
    return game


def fill_deal(game: ContractGame, hands: dict[int, str], upcard: str | None = None,
              stock_top: str = "") -> Deal:
    """A deal giving the named seats these cards; other seats (and the stock) get the lowest
    unused cards in pack order. Donut's upcard must be one of the dealer's given cards."""
    used: set[Card] = set()
    given = {s: parse_cards(h) for s, h in hands.items()}
    for cards in given.values():
        used.update(cards)
    up = Card.parse(upcard) if upcard else None
    if up is not None and game.NAME == "horsethief":
        used.add(up)
    top = list(parse_cards(stock_top)) if stock_top else []
    used.update(top)
    free = [c for c in DECK if c not in used]
    out: list[tuple[Card, ...]] = []
    for s in range(game.players):
        if s in given:
            out.append(tuple(given[s]))
        elif game.in_game[s]:
            out.append(tuple(free[:game.CARDS_EACH]))
            free = free[game.CARDS_EACH:]
        else:
            out.append(())
    stock: tuple[Card, ...] = ()
    if game.NAME == "horsethief":
        stock = tuple(top + free)
    return Deal(hands=tuple(out), upcard=up, stock=stock)


def play_seq(game: ContractGame, actions: Iterable[Action]) -> None:
    for a in actions:
        game.apply(a)


def random_playout(game: ContractGame, seed: int, max_steps: int = 100_000) -> list[tuple[object, ...]]:
    """Play ``game`` out with random legal actions; return the snapshot after every action."""
    rng = random.Random(seed)
    dealer = Dealer(seed)
    snaps = [game.snapshot()]
    for _ in range(max_steps):
        if game.is_over:
            return snaps
        if game.to_act == CHANCE:
            game.apply(dealer.chance(game))
        else:
            game.apply(rng.choice(game.legal_actions()))
        snaps.append(game.snapshot())
    raise AssertionError("the game did not end")
