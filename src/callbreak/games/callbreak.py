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

from callbreak.core.actions import Action
from callbreak.core.dealing import Dealer
from callbreak.core.game import GameOf, Phase
from callbreak.core.match import PLAYERS, Match
from callbreak.core.rules import PRESETS, Rules, make_rules
from callbreak.core.view import SeatView
from callbreak.games.encoding import CALL0, Encoding, Put, Rel, register_encoding
from callbreak.games.registry import GameInfo, PresetInfo, View, register_alias, register_game

BRIDGE_PRESETS = ("call-bridge", "call-bridge-simple")

TITLE = "Call Break"
DESCRIPTION = ("Four players each call the tricks they will take, spades are trumps; every house "
               "rule real tables play (Call Bridge's among them), as presets and options.")


# --- the observation encoding (see :mod:`callbreak.games.spaces` for the whole layout) ----------

BLIND0 = 66  # blind call of 0..13 tricks: 66..79
LOOK = 80  # look at the cards (blind calls on)
CLAIM = 81  # claim a weak-hand redeal
KEEP = 82  # keep the hand
CALLBREAK_ACTIONS = 83


class CallBreakEncoding(Encoding[SeatView]):
    """Call Break's actions (83) and its own blocks: ``blind`` N (blind calls) and ``looked``
    1 (whether the observer has seen its cards)."""

    family = "callbreak"
    num_actions = CALLBREAK_ACTIONS
    phases = (Phase.DRAW, Phase.DEAL, Phase.REDEAL_CLAIM, Phase.CALL, Phase.PLAY, Phase.OVER)

    def calls(self, view: SeatView) -> tuple[int | None, ...]:
        return view.calls

    def deal_steps(self, players: int) -> tuple[int, int]:
        # A round of the deal: deal, hand, shown cards; each seat's claim, look, call and its
        # hand shown to it; then the plays, and stop. Three rounds (two redeals), and two deals
        # more than the match has (a tie played off by an extra deal, twice).
        return 3 * (3 + 4 * players) + 52 + 1, 2

    def extra_blocks(self, players: int) -> list[tuple[str, int]]:
        return [("blind", players), ("looked", 1)]

    def encode_extra(self, view: SeatView, put: Put, rel: Rel) -> None:
        for s in range(view.players):
            if view.blind[s]:
                put("blind", rel(s), 1.0)
        put("looked", 0, float(view.looked))

    def describe_own(self, index: int) -> str:
        if CALL0 <= index < CALL0 + 14:
            return f"call {index - CALL0}"
        if BLIND0 <= index < BLIND0 + 14:
            return f"blind call {index - BLIND0}"
        return {LOOK: "look", CLAIM: "claim a redeal", KEEP: "keep the hand"}.get(index, "?")


ENCODING = register_encoding(CallBreakEncoding())


def _entry(presets: list[str]) -> GameInfo:
    """Call Break's entry with ``presets`` in this order (the first is the default)."""

    def make_options(preset: str | None, overrides: Mapping[str, Any]) -> Rules:
        return make_rules(preset or presets[0], **overrides)

    def create(players: int, rules: Any) -> GameOf[View, Action]:
        match: GameOf[SeatView, Action] = Match(rules)  # checked against the protocol here
        return match

    return GameInfo(
        name="callbreak", title=TITLE, description=DESCRIPTION, seats=(PLAYERS,),
        options_type=Rules,
        presets=tuple(PresetInfo(n, PRESETS[n].title, PRESETS[n].description) for n in presets),
        make_options=make_options, load_options=Rules.from_dict, create=create, dealer=Dealer,
        # Every seat calls: a deal gains a seat points when its call is made.
        encoding=ENCODING, made_word="calls made",
    )


CALLBREAK = register_game(_entry(list(PRESETS)))

CALL_BRIDGE = register_alias("call-bridge", _entry(
    [*BRIDGE_PRESETS, *(n for n in PRESETS if n not in BRIDGE_PRESETS)]))
"""``call-bridge``: Call Break with the ``call-bridge`` preset first (the default)."""
