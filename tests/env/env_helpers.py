"""Helpers of the environment tests: the game configurations and a hidden-card relabelling."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from itertools import islice
from typing import Any

import numpy as np

from callbreak.bots import make_bot
from callbreak.core import CHANCE
from callbreak.core.actions import Deal
from callbreak.core.cards import DECK
from callbreak.core.errors import IllegalActionError
from callbreak.games import game_info, games, new_game

# (game, players, preset): every game at every seat count, every Call Break preset
CONFIGS: list[tuple[str, int, str | None]] = [
    (info.name, n, None) for info in games() for n in info.seats
] + [("callbreak", 4, p.name) for p in games()[0].presets[1:]]


def config_id(c: tuple[str, int, str | None]) -> str:
    return f"{c[0]}-{c[1]}" + (f"-{c[2]}" if c[2] else "")


def relabel_hidden(game: Any, observer: int, info: Any, rng: random.Random, swaps: int) -> Any:
    """A copy of ``game`` whose current deal gives other seats (and the stock) different hidden
    cards, replayed from the history with the same actions; None if the replay is refused."""
    history = list(game.history)
    k = max(i for i, a in enumerate(history) if isinstance(a, Deal))
    deal: Deal = history[k]  # type: ignore[assignment]
    view = game.view(observer)
    shown = 0
    for c in view.shown_cards():
        shown |= 1 << c
    allowed = game.possible_cards(view)  # what the play shows each seat may hold
    where: dict[int, int] = {}  # hidden card's slot -> its place (a seat, or -2 for the stock)
    for s in range(game.players):
        if s == observer and view.hand is not None:
            continue
        m = game.hands[s] & ~shown
        for c in range(52):
            if m >> c & 1:
                where[c] = s
    for c in game.stock:
        if not shown >> c & 1:
            where[int(c)] = -2
    sigma = {c: c for c in where}
    cards = list(where)
    for _ in range(swaps):
        if len(cards) < 2:
            break
        a, b = rng.sample(cards, 2)  # two slots of the deal: swap the cards they will hold
        la, lb = where[a], where[b]
        if la == lb:
            continue
        if (la == -2 or allowed[la] >> sigma[b] & 1) and (lb == -2 or allowed[lb] >> sigma[a] & 1):
            sigma[a], sigma[b] = sigma[b], sigma[a]
    # None when every place ends up holding what it held (swaps can undo each other by a cycle
    # through a seat and back, leaving only a reorder inside a hand): the same state, sorted.
    if all(where[sigma[c]] == where[c] and (where[c] != -2 or sigma[c] == c) for c in sigma):
        return None

    def mv(c: Any) -> Any:
        return DECK[sigma.get(int(c), int(c))]

    new_deal = Deal(hands=tuple(tuple(sorted(mv(c) for c in h)) for h in deal.hands),
                    upcard=None if deal.upcard is None else mv(deal.upcard),
                    stock=tuple(mv(c) for c in deal.stock))
    alt = info.create(game.players, game.options)
    try:
        for a in [*history[:k], new_deal, *history[k + 1:]]:
            alt.apply(a)
    except IllegalActionError:
        return None
    return alt


def with_other_hidden_cards(game: Any, observer: int, info: Any, rng: random.Random, swaps: int,
                            retries: int = 2) -> Any:
    """:func:`relabel_hidden` with ``swaps`` swaps, then (if the swaps undid each other) with one
    swap at a time, ``retries`` times; None if no relabelling was found."""
    for k in (swaps, *[1] * retries):
        alt = relabel_hidden(game, observer, info, rng, k)
        if alt is not None:
            return alt
    return None


def decisions(game: Any, chance: Any, choose: Callable[[Any], Any]) -> Iterator[tuple[Any, Any]]:
    """Plays ``game`` on, its deals from the dealer ``chance`` and each seat's action
    ``choose(view)``; yields every mover's view and the action, once it is applied."""
    while not game.is_over:
        if game.to_act == CHANCE:
            game.apply(chance.chance(game))
            continue
        view = game.view(game.to_act)
        action = choose(view)
        game.apply(action)
        yield view, action


def heuristic_game_to(preset: str, seed: int, moves: int, deals: int = 1) -> tuple[Any, list[tuple[Any, Any]]]:
    """The first deal of a Call Break match of ``preset`` (``deals`` long) played by heuristic bots
    for ``moves`` moves: the game and, for every move made, the mover's view then and the action."""
    game = new_game("callbreak", preset=preset, deals=deals)
    bot = make_bot("heuristic", seed=seed)
    chance = game_info("callbreak").dealer(seed)
    history = list(islice(decisions(game, chance, lambda view: bot.decide(view, 1.0).action), moves))
    assert len(history) == moves and game.to_act != CHANCE, "a deal never ends within the moves asked"
    return game, history


def real_worlds(game: Any) -> np.ndarray:
    """(1, 4): the real deal's hands as the kernel's card masks (a test may know them all)."""
    hands = [sum(1 << int(c) for c in game.view(s).hand) for s in range(4)]
    return np.array([hands], dtype=np.int64)
