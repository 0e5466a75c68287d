"""Call Break in the registry: the core's :class:`~callbreak.core.match.Match` under a rule
preset.

The engine itself lives in :mod:`callbreak.core` because its rule options (:class:`Rules`) are
also the play rules every trick game is judged by (follow suit, must beat, when to trump) and the
bots' compiled kernel mirrors it. Call Bridge (the pagat.com rules, played in Bangladesh) is two
of its presets, ``call-bridge`` and ``call-bridge-simple``: the same game, the same engine and
the same name (``callbreak``) in records, tables and lists. ``call-bridge``, a game of its own
until records said otherwise, stays an alias: Call Break under the ``call-bridge`` preset, so
that its records and commands keep working.

>>> from callbreak.games.registry import new_game
>>> bridge = new_game("call-bridge")
>>> bridge.rules == new_game("callbreak", preset="call-bridge").rules, type(bridge).__name__
(True, 'Match')
>>> bridge.rules.max_call
12
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from callbreak.core.dealing import Dealer
from callbreak.core.game import Game
from callbreak.core.match import PLAYERS, Match
from callbreak.core.rules import PRESETS, Rules, make_rules
from callbreak.games.registry import GameInfo, PresetInfo, register_alias, register_game

BRIDGE_PRESETS = ("call-bridge", "call-bridge-simple")

TITLE = "Call Break"
DESCRIPTION = ("Four players each call the tricks they will take, spades are trumps; every house "
               "rule real tables play (Call Bridge's among them), as presets and options.")


def _entry(presets: list[str]) -> GameInfo:
    """Call Break's entry with ``presets`` in this order (the first is the default)."""

    def make_options(preset: str | None, overrides: Mapping[str, Any]) -> Rules:
        return make_rules(preset or presets[0], **overrides)

    def create(players: int, rules: Any) -> Game:
        return Match(rules)

    return GameInfo(
        name="callbreak", title=TITLE, description=DESCRIPTION, seats=(PLAYERS,),
        options_type=Rules,
        presets=tuple(PresetInfo(n, PRESETS[n].title, PRESETS[n].description) for n in presets),
        make_options=make_options, load_options=Rules.from_dict, create=create, dealer=Dealer,
    )


CALLBREAK = register_game(_entry(list(PRESETS)))

CALL_BRIDGE = register_alias("call-bridge", _entry(
    [*BRIDGE_PRESETS, *(n for n in PRESETS if n not in BRIDGE_PRESETS)]))
"""``call-bridge``: Call Break with the ``call-bridge`` preset first (the default)."""
