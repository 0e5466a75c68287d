"""The network as a model of the other players: how likely it finds their moves in a sampled deal.

For the expert's reading (``expert:neural=T``): each earlier call and card of another seat this
deal is rebuilt as that seat saw it then (the public play up to that moment, and the hand the
sampled deal gives it: its cards now and those it has played since), and the network's policy
(:mod:`callbreak.bots.neural`) gives the chance it would have made that move. A deal in which the
others' moves are what a good player holding those cards would make counts for more.

Only the reader's view goes in (public facts and its own hand) and the sampled hands: no hidden
card of the real deal. Each move's inputs are encoded once a decision, with the hand left empty;
per sampled deal only the hand, the legal moves and what is counted from them change, and every
deal's moves go through the network in one batch.

>>> from callbreak.bots.neural import shipped
>>> from callbreak.games import game_info, new_game
>>> from callbreak.core import CHANCE
>>> game = new_game("callbreak", preset="callbreak")
>>> chance = game_info("callbreak").dealer(4)
>>> while game.to_act == CHANCE:
...     game.apply(chance.chance(game))
>>> len(past_moves(game.view(game.to_act), shipped().scale).seats)  # the first caller: none yet
0
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from callbreak.bots.kernel import Kernel
from callbreak.bots.neural import BASE, ENCODER, Network, card_bits, features
from callbreak.core import Phase, SeatView
from callbreak.core.inference import fresh_caps, infer_play
from callbreak.core.rules import Trump
from callbreak.games.encoding import CALL0, PLAY0
from callbreak.games.spaces import CALLBREAK_ACTIONS

_HAND = ENCODER.blocks["hand"].offset
LEAST = -20.0  # the log-chance of a move the network would (almost) never make


@dataclass(frozen=True)
class PastMoves:
    """The other seats' earlier moves this deal, as the network's inputs less the hand."""

    x: np.ndarray  # (moves, BASE): each move's inputs, the hand block empty
    seats: np.ndarray  # (moves,) who moved
    later: np.ndarray  # (moves,) cards (mask) that seat has played from this move on
    trick: np.ndarray  # (moves, 3) the trick's cards before the move (plays)
    ntrick: np.ndarray  # (moves,) how many
    first: np.ndarray  # (moves,) 1 on the deal's first trick
    is_call: np.ndarray  # (moves,) a call (its legal moves: the call range), not a card
    action: np.ndarray  # (moves,) the action id taken
    calls: np.ndarray  # (83,) the legal ids of a call
    trump: int


def readable(view: SeatView) -> bool:
    """Whether the past can be rebuilt from this view: a fixed trump suit (under ``first_led``
    the trump is unknown before the first lead) and no side-off declarations (their voids are
    public from the last call on, which the rebuilt views would miss)."""
    return view.rules.trump is Trump.SPADES and not view.rules.side_off_declaration


def past_moves(view: SeatView, scale: np.ndarray) -> PastMoves:
    """The calls (not blind ones) and cards of every seat but ``view.seat`` this deal so far."""
    me = view.seat
    if me is None or view.dealer is None:
        raise ValueError("past_moves takes a seat's view of a deal under way")
    rows: list[np.ndarray] = []
    seats: list[int] = []
    later_of: list[int] = []
    tricks: list[tuple[int, int, int]] = []
    ntricks: list[int] = []
    firsts: list[int] = []
    is_call: list[bool] = []
    actions: list[int] = []
    moves = [(t.leader, tuple(int(c) for c in t.cards)) for t in view.tricks]
    if view.trick:
        assert view.leader is not None
        moves.append((view.leader, tuple(int(c) for c in view.trick)))
    played = [0, 0, 0, 0]
    for leader, cards in moves:
        for j, c in enumerate(cards):
            played[(leader + j) % 4] |= 1 << c
    order = [(view.dealer + 1 + k) % 4 for k in range(4)]
    for k, s in enumerate(order):
        call = view.calls[s]
        if s == me or call is None or view.blind[s]:
            continue
        before = set(order[:k])
        then = replace(view, seat=s, hand=(), to_act=s, phase=Phase.CALL, leader=None, trick=(),
                       trick_seats=(), tricks=(), won=(0, 0, 0, 0), looked=True, legal=(),
                       calls=tuple(view.calls[x] if x in before else None for x in range(4)),
                       blind=tuple(view.blind[x] and x in before for x in range(4)),
                       caps=tuple(tuple(fresh_caps()) for _ in range(4)))
        rows.append(features(then, scale).copy())
        seats.append(s)
        later_of.append(played[s])
        tricks.append((0, 0, 0))
        ntricks.append(0)
        firsts.append(1)
        is_call.append(True)
        actions.append(CALL0 + call)
    caps = [fresh_caps() for _ in range(4)]
    won = [0, 0, 0, 0]
    trump = int(view.trump) if view.trump is not None else 0
    later = list(played)
    for ti, (leader, cards) in enumerate(moves):
        for j, c in enumerate(cards):
            s = (leader + j) % 4
            if s != me:
                then = replace(view, seat=s, hand=(), to_act=s, phase=Phase.PLAY, leader=leader,
                               trick=view.tricks[ti].cards[:j] if ti < len(view.tricks) else view.trick[:j],
                               trick_seats=tuple((leader + i) % 4 for i in range(j)),
                               tricks=view.tricks[:ti], won=tuple(won), looked=True, legal=(),
                               caps=tuple(tuple(x) for x in caps))
                rows.append(features(then, scale).copy())
                seats.append(s)
                later_of.append(later[s])
                tricks.append(tuple((*cards[:j], 0, 0, 0)[:3]))  # type: ignore[arg-type]
                ntricks.append(j)
                firsts.append(int(ti == 0))
                is_call.append(False)
                actions.append(PLAY0 + c)
            infer_play(caps[s], cards[:j], c, trump, view.rules, ti == 0)
            later[s] &= ~(1 << c)
        if ti < len(view.tricks):
            won[view.tricks[ti].winner] += 1
    legal_calls = np.zeros(CALLBREAK_ACTIONS, dtype=np.float32)
    legal_calls[[CALL0 + c for c in view.rules.call_range]] = 1
    n = len(rows)
    return PastMoves(
        x=np.array(rows, dtype=np.float32).reshape(n, BASE),
        seats=np.array(seats, dtype=np.int64), later=np.array(later_of, dtype=np.int64),
        trick=np.array(tricks, dtype=np.int64).reshape(n, 3), ntrick=np.array(ntricks, dtype=np.int64),
        first=np.array(firsts, dtype=np.int64), is_call=np.array(is_call, dtype=bool),
        action=np.array(actions, dtype=np.int64), calls=legal_calls, trump=trump)


def move_inputs(moves: PastMoves, worlds: np.ndarray, kernel: Kernel, opts: np.ndarray,
                scale: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every earlier move in every sampled deal (``worlds``: (n, 4) hand masks) as the network's
    inputs and legal masks, (n * moves, BASE) and (n * moves, 83), deal by deal."""
    n, r = len(worlds), len(moves.seats)
    hands = worlds[:, moves.seats] | moves.later[None, :]  # (n, r): each mover's hand then
    x = np.repeat(moves.x[None, :, :], n, axis=0)
    x[:, :, _HAND:_HAND + 52] = card_bits(hands) * scale[_HAND:_HAND + 52]
    legal = np.zeros((n, r), dtype=np.int64)
    kernel.past_legal(worlds, moves.seats, moves.later, moves.trick, moves.ntrick, moves.first,
                      moves.trump, opts, legal)
    mask = np.zeros((n, r, CALLBREAK_ACTIONS), dtype=np.float32)
    mask[:, :, PLAY0:PLAY0 + 52] = card_bits(legal)
    mask[:, moves.is_call, :] = moves.calls
    return x.reshape(n * r, BASE), mask.reshape(n * r, CALLBREAK_ACTIONS)


def log_likelihoods(net: Network, moves: PastMoves, worlds: np.ndarray, kernel: Kernel,
                    opts: np.ndarray) -> np.ndarray:
    """(n,): per sampled deal, the log of the network's chance of all the others' earlier moves
    (each move's chance among the moves legal then, the hand as the deal has it)."""
    n, r = len(worlds), len(moves.seats)
    if r == 0:
        return np.zeros(n)
    x, mask = move_inputs(moves, worlds, kernel, opts, net.scale)
    logits, _ = net.forward(x, mask)
    logits = np.where(mask > 0, logits, -np.inf)
    top = logits.max(axis=1, keepdims=True)
    norm = np.log(np.exp(logits - top).sum(axis=1)) + top[:, 0]
    taken = logits[np.arange(n * r), np.tile(moves.action, n)]
    # A move the deal makes illegal cannot happen (the sampler respects every public inference):
    # floored all the same, so one bad rule cannot zero every deal.
    each = np.maximum(taken - norm, LEAST)
    return np.asarray(each.reshape(n, r).sum(axis=1), dtype=np.float64)


__all__ = ["PastMoves", "log_likelihoods", "move_inputs", "past_moves", "readable"]
