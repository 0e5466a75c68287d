"""Call Break and Call Bridge in the registry: the core's :class:`~callbreak.core.match.Match`
under a rule preset.

The engine itself lives in :mod:`callbreak.core` because its rule options (:class:`Rules`) are
also the play rules every trick game is judged by (follow suit, must beat, when to trump) and the
bots' compiled kernel mirrors it. Call Bridge (the pagat.com rules, played in Bangladesh) is the
same engine with its own presets.

>>> from callbreak.games.registry import new_game
>>> new_game("call-bridge").rules.max_call
12
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from callbreak.core.dealing import Dealer
from callbreak.core.game import Game
from callbreak.core.match import PLAYERS, Match
from callbreak.core.rules import PRESETS, Rules, make_rules
from callbreak.games.registry import GameInfo, PresetInfo, register_game

BRIDGE_PRESETS = ("call-bridge", "call-bridge-simple")


def _presets(names: list[str]) -> tuple[PresetInfo, ...]:
    return tuple(PresetInfo(n, PRESETS[n].title, PRESETS[n].description)
                 for n in names)


class CallBridgeMatch(Match):
    """Call Bridge: the same engine; only its name (in records and views) differs."""

    NAME = "call-bridge"
    __slots__ = ()


def _entry(name: str, title: str, description: str, presets: list[str],
           engine: type[Match]) -> GameInfo:
    def make_options(preset: str | None, overrides: Mapping[str, Any]) -> Rules:
        return make_rules(preset or presets[0], **overrides)

    def create(players: int, rules: Any) -> Game:
        return engine(rules)

    return GameInfo(
        name=name, title=title, description=description, seats=(PLAYERS,), options_type=Rules,
        presets=_presets(presets), make_options=make_options, load_options=Rules.from_dict,
        create=create, dealer=Dealer,
    )


CALLBREAK = register_game(_entry(
    "callbreak", "Call Break",
    "Four players each call the tricks they will take, spades are trumps; every house rule "
    "real tables play, as presets and options.",
    list(PRESETS), Match))

CALL_BRIDGE = register_game(_entry(
    "call-bridge", "Call Bridge",
    "Call Break's cousin from Bangladesh (the pagat.com rules): calls 2-12, a call or one over "
    "scores, no fixed end.",
    list(BRIDGE_PRESETS), CallBridgeMatch))
