"""The observation encoding of the related trick games (every
:class:`~callbreak.games.base.ContractGame`): their actions (107) and their own blocks, beside the
blocks every game shares (:mod:`callbreak.games.spaces` documents the whole layout).

Own blocks, ``N`` players: ``passed`` N, ``active`` N (playing this hand), ``in_game`` N,
``joined`` N x 2 (said play / said out), ``declarer`` N, ``contract`` 1, ``low_high`` 1 (Donut's
reversed ranks), ``trump_broken`` 1, ``may_sit_out`` 1, ``upcard`` 52, ``discards`` 52 (the
observer's own), ``hand_sizes`` N, ``streak`` N (Snarples sit-out runs), ``exchanged`` N (cards
exchanged + 1, 0: not yet), ``stock`` 1 (cards left in the stock).
"""

from __future__ import annotations

from callbreak.core.cards import Suit
from callbreak.core.game import Phase
from callbreak.games.base import ContractView
from callbreak.games.encoding import CALL0, Encoding, Put, Rel, register_encoding

PASS = 66
TRUMP0 = 67  # name trump S, H, C, D: 67..70
JOIN_IN = 71  # play this hand
JOIN_OUT = 72  # sit out / drop / go out
EXCHANGE0 = 73  # Horsethief: bit i of id-73 discards the i-th lowest card of the hand (73..104)
SETTLE_SELF = 105  # Snarples settle: the bidder takes -5
SETTLE_OTHERS = 106  # ... or the others +5 each
TRICK_ACTIONS = 107


class TrickEncoding(Encoding[ContractView]):
    family = "trick"
    num_actions = TRICK_ACTIONS
    phases = (Phase.DEAL, Phase.AUCTION, Phase.TRUMP, Phase.JOIN, Phase.EXCHANGE, Phase.SETTLE,
              Phase.PLAY, Phase.OVER)

    def calls(self, view: ContractView) -> tuple[int | None, ...]:
        return view.bids

    def deal_steps(self, players: int) -> tuple[int, int]:
        # Deal, hand, upcard, discards; an auction (a bid of each height or a pass from each
        # seat), trump, join, exchanges (each with the hand and discards it changes), settle,
        # the plays (the pack at most) and stop. No deal beyond the limit.
        return 4 + 15 * players + 1 + players + 3 * players + 1 + 52 + 1, 0

    def extra_blocks(self, players: int) -> list[tuple[str, int]]:
        n = players
        return [("passed", n), ("active", n), ("in_game", n), ("joined", n * 2),
                ("declarer", n), ("contract", 1), ("low_high", 1), ("trump_broken", 1),
                ("may_sit_out", 1), ("upcard", 52), ("discards", 52), ("hand_sizes", n),
                ("streak", n), ("exchanged", n), ("stock", 1)]

    def encode_extra(self, view: ContractView, put: Put, rel: Rel) -> None:
        for s in range(view.players):
            r = rel(s)
            put("passed", r, float(view.passed[s]))
            put("active", r, float(view.active[s]))
            put("in_game", r, float(view.in_game[s]))
            if view.joined[s] is not None:
                put("joined", r * 2 + (0 if view.joined[s] else 1), 1.0)
            put("hand_sizes", r, view.hand_sizes[s])
            put("streak", r, view.streak[s])
            ex = view.exchanged[s]
            put("exchanged", r, 0 if ex is None else ex + 1)
        if view.declarer is not None:
            put("declarer", rel(view.declarer), 1.0)
        put("contract", 0, view.contract or 0)
        put("low_high", 0, float(view.low_high))
        put("trump_broken", 0, float(view.trump_broken))
        put("may_sit_out", 0, float(view.may_sit_out))
        if view.upcard is not None:
            put("upcard", view.upcard, 1.0)
        for c in view.discards:
            put("discards", c, 1.0)
        put("stock", 0, view.stock_size)

    def describe_own(self, index: int) -> str:
        if CALL0 <= index < CALL0 + 14:
            return f"bid {index - CALL0}"
        if index == PASS:
            return "pass"
        if TRUMP0 <= index < TRUMP0 + 4:
            return f"trump {Suit(index - TRUMP0).name.lower()}"
        if index in (JOIN_IN, JOIN_OUT):
            return "play the hand" if index == JOIN_IN else "sit out"
        if EXCHANGE0 <= index < EXCHANGE0 + 32:
            return f"exchange {bin(index - EXCHANGE0)[2:].zfill(5)[::-1]}"
        return {SETTLE_SELF: "settle: -5 for the bidder",
                SETTLE_OTHERS: "settle: +5 to the others"}.get(index, "?")


ENCODING = register_encoding(TrickEncoding())
