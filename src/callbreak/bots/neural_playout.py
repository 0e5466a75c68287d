"""The network as the playout policy: the first moves after each candidate card are its choice.

For the expert's search (``expert:network_moves=K``): every sampled deal is played on from each
candidate card in its own lane, all lanes in lockstep. For the next ``K`` moves the seat to act
in each lane plays the card the network (:mod:`callbreak.bots.neural`) likes best, every lane's
position going through the network in one batch a move; then the kernel's classic playout
finishes the deal from each lane's own position (:func:`callbreak.bots.kernel_classic.classic_lanes`).

A seat's input is what that seat would see at the table: its own hand in the lane, and the public
play (the root view's public facts, then the cards played since in the lane, the trick, the
leader, the tricks won and the voids those cards showed). No other seat's cards enter it.

>>> from callbreak.bots.neural import shipped
>>> from callbreak.games import game_info, new_game
>>> from callbreak.core import CHANCE, Phase
>>> game = new_game("callbreak", preset="callbreak")
>>> chance = game_info("callbreak").dealer(4)
>>> while game.to_act == CHANCE or game.view(game.to_act).phase is not Phase.PLAY:
...     game.apply(chance.chance(game) if game.to_act == CHANCE else game.view(game.to_act).legal[0])
>>> seat_bases(game.view(game.to_act), shipped().scale).shape
(4, 450)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from callbreak.bots.kernel import Kernel, Position
from callbreak.bots.kernel_classic import T_ALLOWED
from callbreak.bots.neural import ENCODER, Network, card_bits, features
from callbreak.core import SeatView
from callbreak.games.encoding import PLAY0
from callbreak.games.spaces import CALLBREAK_ACTIONS
from callbreak.kernel.rules import ST_DONE, ST_LEADER, ST_NTRICK, mix_seed

_BITS = np.arange(52, dtype=np.int64)
_SUITS = np.array([0x1FFF << (13 * u) for u in range(4)], dtype=np.int64)
MOVES_MAX = 16  # network moves a playout may take (beyond, its cost dwarfs the search's)


def _offset(name: str) -> int:
    return ENCODER.blocks[name].offset


@dataclass
class Lanes:
    """Sampled deals played on from candidate cards, one lane per (deal, candidate), deal-major."""

    hands: np.ndarray  # (L, 4) card masks
    tricks: np.ndarray  # (L, 4) the kernel's trick cards
    states: np.ndarray  # (L, STATE_SIZE) the kernel's position
    wons: np.ndarray  # (L, 4) tricks won
    allowed: np.ndarray  # (L, 4) the cards the public play allows each seat to hold (an empty
    # suit: a public void)
    dealt: np.ndarray  # (L, 4) the hands at the root

    def movers(self) -> np.ndarray:
        return np.asarray((self.states[:, ST_LEADER] + self.states[:, ST_NTRICK]) % 4)

    def repeated(self, k: int) -> Lanes:
        """Each lane ``k`` times over, one after the other."""
        return Lanes(*(np.repeat(a, k, axis=0) for a in (self.hands, self.tricks, self.states, self.wons,
                                                          self.allowed, self.dealt)))


def seat_bases(view: SeatView, scale: np.ndarray) -> np.ndarray:
    """(4, BASE): each seat's input at the root position from public facts alone (its hand left
    empty, to be filled per lane), as if it were to act."""
    return np.stack([features(replace(view, seat=s, hand=(), to_act=s, legal=(), looked=True), scale)
                     for s in range(4)])


def start(worlds: np.ndarray, pos: Position, allowed: np.ndarray, cands: np.ndarray,
          kernel: Kernel, opts: np.ndarray) -> Lanes:
    """Every candidate card played in every sampled deal (``worlds``: (n, 4) hand masks)."""
    n, c = len(worlds), len(cands)
    lanes = Lanes(hands=np.repeat(worlds, c, axis=0), tricks=np.tile(pos.trick, (n * c, 1)),
                  states=np.tile(pos.state, (n * c, 1)), wons=np.tile(pos.won, (n * c, 1)),
                  allowed=np.tile(allowed, (n * c, 1)), dealt=np.repeat(worlds, c, axis=0))
    play(lanes, np.tile(cands, n), kernel, opts)
    return lanes


def play(lanes: Lanes, cards: np.ndarray, kernel: Kernel, opts: np.ndarray) -> None:
    """Each lane's seat to act plays its card of ``cards``."""
    kernel.lanes_play(lanes.hands, lanes.tricks, lanes.states, lanes.wons, lanes.allowed, cards, opts)


def inputs(bases: np.ndarray, lanes: Lanes, scale: np.ndarray) -> np.ndarray:
    """(L, BASE): the network's input of each lane's seat to act, from its own hand and the
    public play only (``bases``: :func:`seat_bases`)."""
    n = len(lanes.hands)
    rows = np.arange(n)
    mover = lanes.movers()
    x: np.ndarray = bases[mover]  # a copy
    rel = (np.arange(4)[None, :] - mover[:, None]) % 4  # (L, 4): each seat as the mover sees it
    hand = _offset("hand")
    x[:, hand:hand + 52] = card_bits(lanes.hands[rows, mover]) * scale[hand:hand + 52]
    played = _offset("played")
    cols = played + rel[:, :, None] * 52 + _BITS  # (L, 4, 52)
    x[rows[:, None, None], cols] += card_bits(lanes.dealt & ~lanes.hands) * scale[cols]  # played since the root
    trick = _offset("trick")
    ntrick = lanes.states[:, ST_NTRICK]
    in_trick = np.zeros(n, dtype=np.int64)
    for j in range(3):
        in_trick |= np.where(ntrick > j, np.left_shift(1, lanes.tricks[:, j]), 0)
    x[:, trick:trick + 52] = card_bits(in_trick) * scale[trick:trick + 52]
    leader = _offset("leader")
    x[:, leader:leader + 4] = 0
    at = leader + (lanes.states[:, ST_LEADER] - mover) % 4
    x[rows, at] = scale[at]
    won = _offset("won")
    at4 = won + rel
    x[rows[:, None], at4] = lanes.wons * scale[at4]
    voids = _offset("voids")
    void = (lanes.allowed[:, :, None] & _SUITS) == 0  # (L, 4 seats, 4 suits)
    at16 = voids + rel[:, :, None] * 4 + np.arange(4)
    x[rows[:, None, None], at16] = void * scale[at16]
    return x


def network_outputs(net: Network, bases: np.ndarray, lanes: Lanes, kernel: Kernel, opts: np.ndarray
        ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The network's (logits, value) for each lane's seat to act, and its legal cards' mask."""
    legal = np.zeros(len(lanes.hands), dtype=np.int64)
    kernel.lanes_legal(lanes.hands, lanes.tricks, lanes.states, opts, legal)
    mask = np.zeros((len(lanes.hands), CALLBREAK_ACTIONS), dtype=np.float32)
    mask[:, PLAY0:PLAY0 + 52] = card_bits(legal)
    logits, value = net.forward(inputs(bases, lanes, net.scale), mask)
    return logits, value, mask


def network_moves(net: Network, bases: np.ndarray, lanes: Lanes, moves: int, kernel: Kernel,
                  opts: np.ndarray) -> None:
    """Play the next ``moves`` moves of every lane by the network's best card (fewer if the
    deal ends first), one batch a move."""
    n = len(lanes.hands)
    left = 52 - int(lanes.states[0, ST_DONE]) * 4 - int(lanes.states[0, ST_NTRICK]) if n else 0
    for _ in range(min(moves, left)):
        logits, _, mask = network_outputs(net, bases, lanes, kernel, opts)
        cards = np.argmax(np.where(mask[:, PLAY0:PLAY0 + 52] > 0, logits[:, PLAY0:PLAY0 + 52], -np.inf),
                          axis=1).astype(np.int64)
        play(lanes, cards, kernel, opts)


def playouts(net: Network, bases: np.ndarray, worlds: np.ndarray, pos: Position, opts: np.ndarray,
             cands: np.ndarray, reps: int, policy: int, seed: int, seat: int, table: np.ndarray,
             moves: int, kernel: Kernel) -> np.ndarray:
    """Tricks per seat at the end of ``reps`` playouts of every candidate in every sampled deal,
    (worlds, candidates, reps, 4), as the expert's classic playouts but with the first ``moves``
    moves after the candidate the network's (``table``: the classic players' table)."""
    lanes = start(worlds, pos, table[:, T_ALLOWED], cands, kernel, opts)
    network_moves(net, bases, lanes, moves, kernel, opts)
    out = np.zeros((len(lanes.hands), reps, 4), dtype=np.int64)
    kernel.classic_lanes(lanes.hands, lanes.tricks, lanes.states, lanes.wons, lanes.allowed, opts,
                         len(cands), reps, policy, seed, seat, table, out)
    return out.reshape(len(worlds), len(cands), reps, 4)


def cut_values(net: Network, bases: np.ndarray, worlds: np.ndarray, pos: Position, opts: np.ndarray,
               cands: np.ndarray, reps: int, policy: int, seed: int, seat: int, table: np.ndarray,
               moves: int, until: int, kernel: Kernel) -> np.ndarray:
    """Each seat's points this deal, in tenths, in ``reps`` playouts of every candidate in every
    sampled deal, (worlds, candidates, reps, 4): played as :func:`playouts` until ``until`` cards
    of the deal are played (a multiple of 4, at most 48), then valued by the network's value head
    from each seat's own view at its turn in the next trick (played on classically), which is
    where the network was trained to judge a position."""
    lanes = start(worlds, pos, table[:, T_ALLOWED], cands, kernel, opts)
    network_moves(net, bases, lanes, moves, kernel, opts)
    lanes = lanes.repeated(reps)
    streams = np.array([mix_seed(seed + i, r) for i in range(len(worlds)) for _ in range(len(cands))
                        for r in range(reps)], dtype=np.int64)  # the classic playouts' streams
    values = np.zeros((len(lanes.hands), 4))
    rows = np.arange(len(lanes.hands))
    for card in range(until, until + 4):  # one trick: each seat once
        kernel.classic_lanes_until(lanes.hands, lanes.tricks, lanes.states, lanes.wons, lanes.allowed,
                                   streams, opts, card, policy, seat, table)
        _, value, _ = network_outputs(net, bases, lanes, kernel, opts)
        values[rows, lanes.movers()] = value * 10
    return values.reshape(len(worlds), len(cands), reps, 4)


__all__ = ["Lanes", "MOVES_MAX", "cut_values", "inputs", "network_moves", "network_outputs", "play", "playouts",
           "seat_bases", "start"]
