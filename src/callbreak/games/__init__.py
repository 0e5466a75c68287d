"""Every game the project plays, behind one game protocol and a registry of names.

Every one is a :class:`~callbreak.core.trick_game.TrickGame`, the one engine: Call Break (Call
Bridge, its pagat.com cousin, among its presets) is the core's :class:`~callbreak.core.match.Match`,
whose contract is the calls; the related games of the catsatcards rules (Batak Ihaleli, Batak Koz
Maca, Snarples, Donut, Horsethief) are :class:`~callbreak.games.base.ContractGame` subclasses,
whose contracts are auctions, trump naming, sitting out and exchanges.
Any of them is found by name and driven the same way:

>>> game = new_game("donut", players=5)
>>> chance = game_info("donut").dealer(1)
>>> while not game.is_over:
...     if game.to_act == CHANCE:
...         game.apply(chance.chance(game))
...     else:
...         game.apply(game.legal_actions()[0])
>>> len(game.winners) >= 1
True
>>> [g.name for g in games()[:6]]  # the built-in games  # doctest: +NORMALIZE_WHITESPACE
['callbreak', 'batak-ihaleli', 'batak-koz-maca', 'donut', 'horsethief', 'snarples']
"""

from __future__ import annotations

# The game modules register themselves on import, Call Break first so that it leads every list.
import callbreak.games.callbreak  # noqa: F401
from callbreak.core.actions import CHANCE
from callbreak.core.scoring import DealResult
from callbreak.core.trick_game import TrickGame
from callbreak.games import batak, donut, horsethief, snarples  # noqa: F401
from callbreak.games.base import ContractGame, ContractView, GameOptions
from callbreak.games.batak import BatakIhaleli, BatakKozMaca
from callbreak.games.donut import Donut
from callbreak.games.horsethief import Horsethief
from callbreak.games.registry import (
    GameInfo,
    PresetInfo,
    View,
    game_info,
    games,
    new_game,
    register_alias,
    register_game,
    trick_game,
)
from callbreak.games.snarples import Snarples
from callbreak.games.texts import has_rules, rules_text

__all__ = [
    "CHANCE", "BatakIhaleli", "BatakKozMaca", "ContractGame", "ContractView", "DealResult", "Donut",
    "GameInfo", "GameOptions", "Horsethief", "PresetInfo", "Snarples",
    "TrickGame", "View", "game_info", "games", "has_rules", "new_game", "register_alias", "register_game", "rules_text",
    "trick_game",
]
