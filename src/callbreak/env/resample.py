"""Worlds consistent with what one seat knows, for OpenSpiel's information-set search.

:func:`resample` gives a state of the same game whose hidden cards (other seats' hands, the
stock, other seats' discards) are re-dealt at random among their places, keeping every card a
seat's play has shown it cannot hold out of its hand, and replays the same actions; the seat's
information state is unchanged. :func:`from_view` builds a state of the current deal from a
seat's view alone (what the ``openspiel-ismcts`` bot sees at a table).
"""

from __future__ import annotations

import random
from typing import Any

from callbreak.core.actions import Deal, Exchange
from callbreak.core.cards import DECK, cards_of
from callbreak.core.errors import IllegalActionError
from callbreak.games import View

_RNG = random.Random()


def resample(state: Any, player: int, rng: random.Random | None = None) -> Any:
    """A state ``player`` cannot tell from ``state`` (see the module)."""
    rng = rng or _RNG
    engine = state.engine
    history = list(engine.history)
    deals = [i for i, a in enumerate(history) if isinstance(a, Deal)]
    if state.pending or not deals or engine.is_over:
        return state.clone()
    k = deals[-1]
    view = engine.view(player)
    shown = 0
    for c in view.shown_cards():
        shown |= 1 << c
    allowed = engine.possible_cards(view)
    place: dict[int, int] = {}  # hidden card -> its place: a seat, -1 the stock, -2-s seat s's discards
    for s in range(engine.players):
        if s == player and view.hand is not None:
            continue
        for c in cards_of(engine.hands[s] & ~shown):
            place[int(c)] = s
        if s != player:
            for c in cards_of(engine.discards[s]):
                place[int(c)] = -2 - s
    for c in engine.stock:
        if not shown >> c & 1:
            place[int(c)] = -1
    cards = list(place)
    for swaps in (4 * len(cards), len(cards), 3, 1, 0):
        sigma = {c: c for c in cards}
        for _ in range(swaps):
            if len(cards) < 2:
                break
            a, b = rng.sample(cards, 2)
            pa, pb = place[a], place[b]
            if pa == pb:
                continue
            if (pa < 0 or allowed[pa] >> sigma[b] & 1) and (pb < 0 or allowed[pb] >> sigma[a] & 1):
                sigma[a], sigma[b] = sigma[b], sigma[a]
        new = _replay(state, history, k, sigma, player)
        if new is not None:
            return new
    return state.clone()  # pragma: no cover - swaps=0 replays the state itself


def _replay(state: Any, history: list[Any], k: int, sigma: dict[int, int], player: int) -> Any:
    def mv(c: Any) -> Any:
        return DECK[sigma.get(int(c), int(c))]

    deal: Deal = history[k]
    actions = [*history[:k], Deal(hands=tuple(tuple(sorted(mv(c) for c in h)) for h in deal.hands),
                                  upcard=None if deal.upcard is None else mv(deal.upcard),
                                  stock=tuple(mv(c) for c in deal.stock))]
    for a in history[k + 1:]:
        if isinstance(a, Exchange) and a.seat != player:
            a = Exchange(a.seat, tuple(mv(c) for c in a.cards))
        actions.append(a)
    game = state.get_game()
    new = game.new_initial_state()
    new.box.game = game.info.create(game.players, game.options)
    new.horizon = state.horizon
    new.restart_record()
    try:
        for a in actions:
            new.engine.apply(a)
            new._record(a)
    except IllegalActionError:
        return None
    return new


# --- a state from a view (the current deal only) -------------------------------------------------


def from_view(game: Any, view: View, rng: random.Random) -> Any:
    """A state of ``game`` (an OpenSpiel :class:`~callbreak.env.openspiel.CardGame`) at the
    position ``view`` shows, the hidden cards drawn at random consistently with it, ending when
    the current deal is scored (its returns are that deal's points)."""
    engine = type(game.info.create(game.players, game.options)).sample_deal(view, rng)
    state = game.new_initial_state()
    state.box.game = engine
    state.restart_record(root=True)
    state.horizon = len(engine.results) + 1
    return state
