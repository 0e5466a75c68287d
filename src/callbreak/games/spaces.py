"""The fixed action spaces and the observation encoding of every game, as numpy arrays (used by
the environments of :mod:`callbreak.env` and by the bots that read a seat as they do).

Both are built from what one seat may know (its :class:`~callbreak.core.game.GameView`), never
from the state, so an observation cannot hold a hidden card. Seats in an observation are
**relative to the observer**: block ``r`` of a per-seat block is seat ``(observer + r) % players``
(``r = 0`` is the observer, ``r = 1`` plays next, ...), so one policy serves every seat.

Each game owns its encoding (:class:`~callbreak.games.encoding.Encoding`, named by its registry
entry's ``encoding``): Call Break's (Call Break and Call Bridge, every preset and option) is in
:mod:`callbreak.games.callbreak`, the related trick games' (Batak Ihaleli, Batak Koz Maca, Donut,
Horsethief, Snarples, and any game registered as a :class:`~callbreak.games.base.ContractGame`) in
:mod:`callbreak.games.trick_encoding`. This module lays an encoding out as numpy arrays; the
blocks every game shares come first, then the game's own.

Action spaces (``Discrete``; ids fixed per family, the mask says which are legal now):

=========================  =================================  =================================
ids                        Call Break / Call Bridge (83)      related games (107)
=========================  =================================  =================================
0..51                      play card ``id`` (``suit*13 + rank-2``: 2S=0 .. AS=12, 2H=13 ..,
                           2C=26 .., 2D=39 .. AD=51)
52..65                     call ``id-52`` tricks (0..13)      bid ``id-52`` tricks (0..13)
66..79 / 66                blind call ``id-66`` tricks        66: pass
80 / 67..70                80: look at the cards (blind       67..70: name trump S, H, C, D
                           calls on)
81, 82 / 71, 72            81: claim a weak-hand redeal,      71: play this hand (join),
                           82: keep the hand                  72: sit out / drop / go out
73..104                    --                                 Horsethief exchange: bit ``i`` of
                                                              ``id-73`` discards the ``i``-th
                                                              lowest card of the hand
105, 106                   --                                 Snarples settle: 105 the bidder
                                                              takes -5, 106 the others +5 each
=========================  =================================  =================================

Observation (``float32``, documented block by block by :meth:`Encoder.blocks`; ``N`` players):

- ``hand`` 52: the observer's cards (all zero while a blind-calling seat has not looked);
- ``played`` N x 52: the cards each seat has played this deal (completed tricks and the current);
- ``trick`` 52: the cards in the current trick (who played which is in ``played``);
- ``leader`` N: who led (or will lead) the current trick; ``to_act`` N: the seat to act;
  ``dealer`` N; ``seat`` N: the observer's own seat number, one-hot (not rotated);
- ``calls`` N x 15: each seat's call (Call Break) or bid, one-hot 0..13, index 14 = none yet;
- ``won`` N: tricks won this deal; ``scores`` N: match scores in points (raw);
- ``voids`` N x 4: suits each seat has shown it cannot hold (Call Break: every public inference
  of the play, and side-off declarations);
- ``trump`` 4: the trump suit, one-hot (zero: none yet, or no trump);
- ``phase``: the game's phase, one-hot (Call Break: draw, deal, redeal_claim, call, play, over;
  related games: deal, auction, trump, join, exchange, settle, play, over);
- ``deal`` 2: the deal (hand) number, 1-based, and the number of deals the match has (0: no fixed
  number);
- Call Break only: ``blind`` N (blind calls), ``looked`` 1 (whether the observer has seen its
  cards);
- related games only: ``passed`` N, ``active`` N (playing this hand), ``in_game`` N, ``joined``
  N x 2 (said play / said out), ``declarer`` N, ``contract`` 1, ``low_high`` 1 (Donut's reversed
  ranks), ``trump_broken`` 1, ``may_sit_out`` 1, ``upcard`` 52, ``discards`` 52 (the observer's
  own), ``hand_sizes`` N, ``streak`` N (Snarples sit-out runs), ``exchanged`` N (cards
  exchanged + 1, 0: not yet), ``stock`` 1 (cards left in the stock).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from callbreak.core.actions import (
    Action,
    Bid,
    Call,
    Exchange,
    Join,
    Look,
    NameTrump,
    Pass,
    Play,
    Redeal,
    Settle,
)
from callbreak.core.cards import Card
from callbreak.core.errors import IllegalActionError, RulesError
from callbreak.core.game import Game
from callbreak.games.callbreak import BLIND0, CALLBREAK_ACTIONS, CLAIM, KEEP, LOOK
from callbreak.games.callbreak import ENCODING as CALLBREAK_ENCODING
from callbreak.games.encoding import CALL0, PLAY0, Encoding, encoding_of
from callbreak.games.registry import View, game_info
from callbreak.games.trick_encoding import ENCODING as TRICK_ENCODING
from callbreak.games.trick_encoding import (
    EXCHANGE0,
    JOIN_IN,
    JOIN_OUT,
    PASS,
    SETTLE_OTHERS,
    SETTLE_SELF,
    TRICK_ACTIONS,
    TRUMP0,
)

__all__ = [
    "BLIND0", "CALL0", "CALLBREAK_ACTIONS", "CALLBREAK_FAMILY", "CLAIM", "EXCHANGE0", "JOIN_IN",
    "JOIN_OUT", "KEEP", "LOOK", "PASS", "PLAY0", "SETTLE_OTHERS", "SETTLE_SELF", "TRICK_ACTIONS",
    "TRICK_FAMILY", "TRUMP0", "Block", "Encoder", "MaskedActionError", "action_id", "action_mask",
    "describe_action", "encoding_of", "family_of", "legal_ids", "num_actions",
]

CALLBREAK_FAMILY = CALLBREAK_ENCODING.family
TRICK_FAMILY = TRICK_ENCODING.family


class MaskedActionError(IllegalActionError):
    """An action id outside the current action mask (or not an action id at all)."""


def game_encoding(game: Game) -> Encoding[Any]:
    """The observation encoding ``game`` owns (its registry entry's)."""
    encoding = game_info(game.NAME).encoding
    if encoding is None:  # a game registered without one: honestly absent, so refused
        raise RulesError(f"{game.NAME} has no observation encoding")
    return encoding


def family_of(game: Game) -> str:
    """The layout family of a game (the name of the encoding it owns)."""
    return game_encoding(game).family


def num_actions(family: str) -> int:
    return encoding_of(family).num_actions


def action_id(action: Action, hand: Sequence[Card] = ()) -> int:
    """The id of an action in its family's space (``hand``: the actor's hand, for exchanges)."""
    if isinstance(action, Play):
        return PLAY0 + int(action.card)
    if isinstance(action, Call):
        return (BLIND0 if action.blind else CALL0) + action.tricks
    if isinstance(action, Bid):
        return CALL0 + action.tricks
    if isinstance(action, Look):
        return LOOK
    if isinstance(action, Redeal):
        return CLAIM if action.claim else KEEP
    if isinstance(action, Pass):
        return PASS
    if isinstance(action, NameTrump):
        return TRUMP0 + int(action.suit)
    if isinstance(action, Join):
        return JOIN_IN if action.playing else JOIN_OUT
    if isinstance(action, Exchange):
        order = sorted(hand)
        bits = 0
        for c in action.cards:
            bits |= 1 << order.index(c)
        return EXCHANGE0 + bits
    if isinstance(action, Settle):
        return SETTLE_OTHERS if action.penalize_others else SETTLE_SELF
    raise IllegalActionError(f"no action id for {action!r}")


def describe_action(family: str, index: int) -> str:
    """A short text for an action id (for error messages and rendering)."""
    return encoding_of(family).describe(index)


def legal_ids(view: View) -> dict[int, Action]:
    """The legal actions of a view by id."""
    hand = view.hand or ()
    return {action_id(a, hand): a for a in view.legal}


def action_mask(view: View, size: int) -> np.ndarray:
    mask = np.zeros(size, dtype=np.int8)
    for i in legal_ids(view):
        mask[i] = 1
    return mask


# --- observations ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    name: str
    offset: int
    size: int


class Encoder:
    """The observation layout of a family (an encoding, or its name) for ``players`` seats, and
    the encoding of a view: the blocks every game shares, then the encoding's own."""

    def __init__(self, family: str | Encoding[Any], players: int) -> None:
        self.encoding = encoding_of(family) if isinstance(family, str) else family
        self.family = self.encoding.family
        self.players = n = players
        sizes: list[tuple[str, int]] = [
            ("hand", 52), ("played", n * 52), ("trick", 52), ("leader", n), ("to_act", n),
            ("dealer", n), ("seat", n), ("calls", n * 15), ("won", n), ("scores", n),
            ("voids", n * 4), ("trump", 4), ("phase", len(self.encoding.phases)), ("deal", 2),
            *self.encoding.extra_blocks(n),
        ]
        self.blocks: dict[str, Block] = {}
        offset = 0
        for name, size in sizes:
            self.blocks[name] = Block(name, offset, size)
            offset += size
        self.size = offset

    def offset(self, name: str) -> int:
        return self.blocks[name].offset

    def encode(self, view: View, out: np.ndarray | None = None) -> np.ndarray:
        """The observation of ``view`` (its seat must not be None)."""
        n = self.players
        me = view.seat
        assert me is not None
        obs = np.zeros(self.size, dtype=np.float32) if out is None else out
        if out is not None:
            obs[:] = 0
        b = self.blocks

        def rel(s: int) -> int:
            return int((s - me) % n)

        def one(name: str, index: int, value: float = 1.0) -> None:
            obs[b[name].offset + index] = value

        for c in view.hand or ():
            one("hand", c)
        for t in view.tricks:
            for s, c in zip(t.seats, t.cards, strict=True):
                one("played", rel(s) * 52 + c)
        for s, c in zip(view.trick_seats, view.trick, strict=True):
            one("played", rel(s) * 52 + c)
            one("trick", c)
        if view.leader is not None:
            one("leader", rel(view.leader))
        if view.to_act is not None and view.to_act >= 0:
            one("to_act", rel(view.to_act))
        if view.dealer is not None:
            one("dealer", rel(view.dealer))
        one("seat", me)
        calls = self.encoding.calls(view)
        for s in range(n):
            r = rel(s)
            call = calls[s]
            one("calls", r * 15 + (14 if call is None else call))
            one("won", r, view.won[s])
            one("scores", r, view.scores[s])
            for suit in view.voids(s):
                one("voids", r * 4 + int(suit))
        if view.trump is not None:
            one("trump", int(view.trump))
        one("phase", self.encoding.phases.index(view.phase))
        one("deal", 0, view.deal_number)
        one("deal", 1, view.deal_limit or 0)
        self.encoding.encode_extra(view, one, rel)
        return obs

    def describe(self) -> list[tuple[str, int, int]]:
        """``(name, offset, size)`` of every block, in order."""
        return [(blk.name, blk.offset, blk.size) for blk in self.blocks.values()]
