"""Positions for training, from self-play on the batched environment, labelled by the expert.

:class:`SelfPlay` steps a :class:`~callbreak.env.vector.VectorEnv` (one preset, many tables) and
keeps a :class:`~callbreak.referee.Referee` beside each table, its match fed the same deals and
the same actions, so that the seats that are not the network (the population: random, greedy,
heuristic and expert bots) can decide from their usual seat views and the expert can appraise a
position. The environment deals (its chance) and every seat's action is chosen in one batch over
the tables, so each action reaches the referee by :meth:`~callbreak.referee.Referee.submit`; a
deal the referee scores gives its positions their value. Each table draws who
sits where at the start of each match (:class:`Population`); the network's seats are decided in
one batch over all tables.

A labelled position holds the network's input (what the seat sees: the environment's observation
and the rules), the legal mask, and a target for each legal action: the expert's search value of
each card (:meth:`~callbreak.bots.expert.ExpertBot.appraise`, points: own less the others' mean),
or, for a call, the expected points of each call under its trick outlook
(:meth:`~callbreak.bots.expert.ExpertBot.call_outlook`); other choices (a weak-hand redeal; to
look or call blind) get the expert's decision. The value target is the seat's own points in that deal, known once the deal
is scored (a deal thrown in for a redeal gives none).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from callbreak.bots import make_bot
from callbreak.bots.base import Bot
from callbreak.bots.expert import ExpertBot
from callbreak.bots.neural import (
    Network,
    calls_by_outlook,
    input_scale,
    partner_calls,
    rules_features,
    seen_calls,
)
from callbreak.core.actions import CHANCE, Action, Deal
from callbreak.core.cards import cards_of
from callbreak.core.game import Phase
from callbreak.core.scoring import expected_deal_points
from callbreak.core.view import SeatView
from callbreak.env.vector import VectorEnv, start_match
from callbreak.games.spaces import CALL0, CALLBREAK_ACTIONS, action_id, legal_ids
from callbreak.referee import PersonSeat, Referee

NOT_LABELLED = np.float32(np.nan)
BOTS = ("random", "greedy", "heuristic")


@dataclass
class Population:
    """Who sits at a table: a share for each kind of player.

    ``net`` is the network being trained, ``past`` one of its earlier versions (drawn evenly),
    ``expert`` the labeller itself playing its best card; the rest are bots by name.
    """

    shares: Mapping[str, float]

    def draw(self, rng: np.random.Generator, nets: int) -> list[str]:
        """Four seats' players; ``nets``: the networks there are (the current one, then past ones)."""
        names = [n for n, s in self.shares.items()
                 if s > 0 and (n != "net" or nets > 0) and (n != "past" or nets > 1)]
        p = np.array([self.shares[n] for n in names], dtype=np.float64)
        return [str(n) for n in rng.choice(names, size=4, p=p / p.sum())]


@dataclass
class Batch:
    """Labelled positions, as arrays over positions."""

    x: list[np.ndarray] = field(default_factory=list)  # (BASE,) float32 inputs
    mask: list[np.ndarray] = field(default_factory=list)  # (83,) int8
    q: list[np.ndarray] = field(default_factory=list)  # (83,) float32 targets, NaN: none
    value: list[float] = field(default_factory=list)  # the seat's deal points (NaN: unknown yet)

    def __len__(self) -> int:
        return len(self.x)

    def arrays(self) -> dict[str, np.ndarray]:
        return {"x": np.asarray(self.x, dtype=np.float16), "mask": np.asarray(self.mask, dtype=np.int8),
                "q": np.asarray(self.q, dtype=np.float32), "value": np.asarray(self.value, dtype=np.float32)}


class _DealtByTheEnvironment:
    """A table's chance, for its referee: the environment deals, and its deals are submitted."""

    def chance(self, game: object) -> Action:
        raise AssertionError("the batched environment deals; its deals are submitted to the referee")


class SelfPlay:
    """The batched tables, their mirrored matches, the seats' players and the labeller."""

    def __init__(self, env: VectorEnv, population: Population, labeller: ExpertBot,
                 nets: list[Network], seed: int, label_share: float = 1.0,
                 temperature: float = 1.0, call_labeller: ExpertBot | None = None,
                 label_calls: bool = True) -> None:
        self.env = env
        self.population = population
        self.labeller = labeller
        # Calls are few (one a seat a deal) and each decides a whole deal's score: they may be
        # labelled from more simulated deals than the cards.
        self.call_labeller = call_labeller or labeller
        self.label_calls = label_calls  # off: calls are the outlook head's (learn.outlook), not labelled
        self.nets = nets  # [current, past...]
        self.rng = np.random.default_rng(seed)
        self.label_share = label_share
        self.temperature = temperature
        self.rules_x = rules_features(env.rules)
        self.scale = nets[0].scale if nets else input_scale()
        self.bots: dict[str, Bot] = {n: make_bot(n, seed=int(self.rng.integers(2**31))) for n in BOTS}
        env.reset(seed=int(self.rng.integers(2**31)))
        t = env.num_tables
        self.tables: list[Referee | None] = [None] * t
        self.seats: list[list[str]] = [[] for _ in range(t)]
        self.past_of: list[int] = [0] * t
        self.pending: list[list[tuple[int, int]]] = [[] for _ in range(t)]  # (position, seat)
        for i in range(t):
            self._feed(i)

    # --- keeping each match beside its table --------------------------------------------------

    def _feed(self, t: int) -> None:
        for kind, value in self.env.chance_events(t):
            if kind == "dealer":
                self.seats[t] = self.population.draw(self.rng, len(self.nets))
                self.tables[t] = Referee(start_match(self.env.rules, value), _DealtByTheEnvironment(),
                                         [PersonSeat(who) for who in self.seats[t]])
                self.past_of[t] = 1 + int(self.rng.integers(max(1, len(self.nets) - 1)))
                self.pending[t] = []
            else:
                self._table(t).submit(CHANCE, Deal(hands=tuple(cards_of(h) for h in value)))

    def _table(self, t: int) -> Referee:
        table = self.tables[t]
        assert table is not None, "a table is fed its first deal as the environment resets"
        return table

    # --- one step of every table ----------------------------------------------------------------

    def step(self, out: Batch) -> None:
        env = self.env
        t_count = env.num_tables
        actions = np.zeros(t_count, dtype=np.int64)
        legal: list[dict[int, Action]] = []
        net_tables: dict[int, list[int]] = {}
        for t in range(t_count):
            m = self._table(t).game
            seat = int(env.to_act[t])
            who = self.seats[t][seat]
            view = m.view(seat)
            ids = legal_ids(view)
            legal.append(ids)
            chosen: int | None = None
            if len(ids) == 1:
                chosen = next(iter(ids))
            elif who == "expert" or (self.rng.random() < self.label_share
                                     and (self.label_calls or view.phase is not Phase.CALL)):
                q = self._label(view, ids)
                self._keep(out, t, seat, q)
                if who == "expert":
                    chosen = int(np.nanargmax(q))
            if chosen is None:
                if who in self.bots:
                    chosen = action_id(self.bots[who].decide(view, 1.0).action, view.hand or ())
                elif who == "expert":
                    chosen = action_id(self.labeller.decide(view, 1.0).action, view.hand or ())
                else:
                    net = 0 if who == "net" or len(self.nets) < 2 else self.past_of[t]
                    net_tables.setdefault(net, []).append(t)
                    continue
            actions[t] = chosen
        for net, tables in net_tables.items():
            actions[tables] = self._net_actions(self.nets[net], tables)
        step = env.step(actions)
        for t in range(t_count):
            table, action = self._table(t), legal[t][int(actions[t])]
            scored = len(table.deal_points)
            table.submit(action.actor, action)
            if len(table.deal_points) > scored:  # a deal was scored: its positions get their value
                for pos, seat in self.pending[t]:  # (the seat's own points, as the reward gives them)
                    out.value[pos] = float(step.rewards[t, seat])
                self.pending[t] = []
            self._feed(t)

    def _inputs(self, tables: list[int]) -> np.ndarray:
        """The network's stored input at ``tables`` (what :func:`~callbreak.bots.neural.features`
        makes of a view, from the environment's observations)."""
        x = np.empty((len(tables), len(self.scale) + len(self.rules_x)), dtype=np.float32)
        x[:, :len(self.scale)] = self.env.obs[tables] * self.scale
        x[:, len(self.scale):] = self.rules_x
        return x

    def _keep(self, out: Batch, t: int, seat: int, q: np.ndarray) -> None:
        self.pending[t].append((len(out), seat))
        out.x.append(self._inputs([t])[0])
        out.mask.append(self.env.mask[t].copy())
        out.q.append(q)
        out.value.append(math.nan)

    def _label(self, view: SeatView, ids: dict[int, Action]) -> np.ndarray:
        """The expert's value of each legal action (points), NaN elsewhere."""
        q = np.full(CALLBREAK_ACTIONS, NOT_LABELLED, dtype=np.float32)
        if view.phase is Phase.PLAY:
            a = self.labeller.appraise(view)
            for play, v in zip(a.plays, a.values, strict=True):
                q[int(play.card)] = v
        elif view.phase is Phase.CALL and view.hand is not None:
            hist, _ = self.call_labeller.call_outlook(view)
            seat = view.seat
            assert seat is not None
            partner = view.calls[(seat + 2) % 4] if view.rules.partnership else None
            for i in ids:
                if CALL0 <= i < CALL0 + 14:
                    call = i - CALL0 + (partner or 0)
                    q[i] = expected_deal_points(call, hist, view.rules) / 10 if hist else 0.0
        else:
            best = action_id(self.labeller.decide(view, 1.0).action, view.hand or ())
            for i in ids:
                q[i] = 1.0 if i == best else 0.0
        return q

    def _net_actions(self, net: Network, tables: list[int]) -> np.ndarray:
        x, mask = self._inputs(tables), self.env.mask[tables]
        logits, _, outlook = net.forward_all(x, mask)
        logits = np.where(mask == 1, logits / max(self.temperature, 1e-6), -np.inf)
        if self.temperature <= 0:
            actions = np.argmax(logits, axis=1)
        else:
            actions = np.argmax(logits + self.rng.gumbel(size=logits.shape), axis=1)
        calling = seen_calls(mask)
        if outlook is not None and calling.any():  # a network with an outlook calls by it, as the bot
            rows = np.flatnonzero(calling)
            actions[rows] = calls_by_outlook(outlook[rows], mask[rows], partner_calls(x[rows], self.env.rules),
                                             self.env.rules)
        return np.asarray(actions)
