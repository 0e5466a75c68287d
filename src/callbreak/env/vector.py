"""Many Call Break tables stepped in one call, on compiled code: :class:`VectorEnv`.

>>> env = VectorEnv(num_tables=8, preset="bhoos-tournament", seed=1)
>>> obs, mask = env.reset()
>>> obs.shape, mask.shape
((8, 429), (8, 83))
>>> rng = np.random.default_rng(0)
>>> step = env.step(env.sample_actions(rng))
>>> step.rewards.shape, step.done.shape
((8, 4), (8,))

Each table is a whole Call Break match under a preset and options (four seats). At every step
each table has one seat to act (``to_act``); :meth:`VectorEnv.step` takes one action id per
table, applies it, makes every chance step that follows (deals, redeals, the first dealer of a
new match), and returns the observation and action mask of the seat now to act at every table,
the rewards each seat earned in that step, and which tables finished a match (those are reset at
once: the returned observation is the new match's first).

The observation encoding and the action ids are exactly those of the PettingZoo environment
(:mod:`callbreak.games.spaces`, the Call Break family: 83 actions, 429 floats), so a policy trained
here plays there and in the arena unchanged; the tests check both equal, step for step, to what
:class:`~callbreak.core.match.Match` gives on the same deals.

Choices:

- **Calls are actions** (ids 52..65, call 0..13; the mask allows the rules' range), made by the
  seat to act like card plays; weak-hand redeal claims too (81 claim, 82 keep) under rules that
  have them.
- **Blind calls** under rules that have them (the ``567`` preset): a seat to call that has not
  seen its cards (its observation's hand is empty) may look first (80: the same seat then calls),
  call blind (66..79: the call scores double, made or missed) or call without looking (52..65).
  A seat looks only when it is its turn to call (the engine lets a seat look at any time; what the
  seat to act sees is the same).
- With an unlimited number of deals (Call Bridge) a match ends after ``max_deals`` deals (the
  table stops, as the PettingZoo environment does); chips (``stakes``) and the turn timer are not
  modelled.
- Rewards: ``reward="deal"`` gives each seat its points (partners: their pair's) when a deal is
  scored; ``reward="match"`` gives ``1/k`` to each of the ``k`` winners when a match ends.
- Seeded: ``seed`` fixes every deal at every table (each table has its own random stream).
- The arrays returned are the environment's own buffers, overwritten by the next step: copy what
  you keep.
- An action id outside a table's mask raises :class:`~callbreak.games.spaces.MaskedActionError`
  naming the tables, before any table changes.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from callbreak.core.actions import ChooseDealer, Draw
from callbreak.core.cards import DECK
from callbreak.core.errors import RulesError
from callbreak.core.match import Match
from callbreak.core.rules import (
    FirstDealer,
    Rotation,
    Rules,
    Scoring,
    SpadeLead,
    TieBreak,
    Trump,
    VoidRule,
    WeakHand,
)
from callbreak.core.rules import make_rules as _make_rules
from callbreak.env import vector_impl as impl
from callbreak.games.spaces import CALLBREAK_ACTIONS, CALLBREAK_FAMILY, Encoder, MaskedActionError
from callbreak.kernel.rules import mix_seed

REWARDS = ("deal", "match")

_VOID = {VoidRule.TRUMP_IF_WINNING: 0, VoidRule.MUST_TRUMP: 1, VoidRule.FREE: 2}
_SCORING = {Scoring.TENTHS: impl.SC_TENTHS, Scoring.EXACT_OR_ONE_OVER: impl.SC_EXACT_OR_ONE_OVER,
            Scoring.AT_LEAST: impl.SC_AT_LEAST}
_WEAK = {WeakHand.OFF: impl.WEAK_OFF, WeakHand.NO_SPADE_OR_NO_FACE: impl.WEAK_CLAIM,
         WeakHand.NO_SPADE: impl.WEAK_NO_SPADE}


class Step(NamedTuple):
    """What :meth:`VectorEnv.step` returns (arrays over the tables)."""

    obs: np.ndarray  # (T, 429) float32: the seat now to act
    mask: np.ndarray  # (T, 83) int8
    to_act: np.ndarray  # (T,) the seat now to act
    rewards: np.ndarray  # (T, 4) float32, by seat
    done: np.ndarray  # (T,) 1 where a match ended in this step (the table starts a new one)


def options_of(rules: Rules, reward: str, max_deals: int) -> np.ndarray:
    """The option array of the compiled tables."""
    o = np.zeros(impl.NOPTS, dtype=np.int64)
    o[impl.O_MIN_CALL] = rules.min_call
    o[impl.O_MAX_CALL] = rules.max_call
    o[impl.O_MUST_BEAT] = int(rules.follow_must_beat)
    o[impl.O_VOID_RULE] = _VOID[rules.void_rule]
    o[impl.O_NO_WASTING] = int(rules.no_wasting_trumps)
    o[impl.O_NO_SPADE_LEAD] = int(rules.spade_lead_first_trick is SpadeLead.FORBIDDEN)
    o[impl.O_SCORING] = _SCORING[rules.scoring]
    if rules.bonus_call is not None:
        o[impl.O_BONUS_THRESHOLD] = rules.bonus_call.threshold
        o[impl.O_BONUS_POINTS] = rules.bonus_call.points
    o[impl.O_WEAK] = _WEAK[rules.redeal_weak_hand]
    o[impl.O_ONE_SUIT] = int(rules.redeal_one_suit_hand)
    o[impl.O_MIN_TOTAL] = rules.min_call_total or 0
    o[impl.O_SIDE_OFF] = int(rules.side_off_declaration)
    o[impl.O_DEALS] = rules.deals if rules.deals is not None else max_deals
    o[impl.O_DEALS_SHOWN] = rules.deals or 0
    o[impl.O_TIE_EXTRA] = int(rules.tie_break is TieBreak.EXTRA_DEAL)
    o[impl.O_SEAT0_DEALS] = int(rules.first_dealer is FirstDealer.SEAT_0)
    o[impl.O_ROTATION] = 1 if rules.dealer_rotation is Rotation.RIGHT else -1
    o[impl.O_PARTNERSHIP] = int(rules.partnership)
    o[impl.O_FIRST_LED] = int(rules.trump is Trump.FIRST_LED)
    o[impl.O_REWARD_MATCH] = int(reward == "match")
    o[impl.O_BLIND] = int(rules.blind_call)
    return o


class VectorEnv:
    """``num_tables`` Call Break tables under ``preset`` and ``options`` (see the module)."""

    num_actions = CALLBREAK_ACTIONS

    def __init__(self, num_tables: int = 1024, preset: str = "callbreak", *, seed: int | None = None,
                 reward: str = "deal", max_deals: int = 5, **options: Any) -> None:
        if isinstance(num_tables, bool) or not isinstance(num_tables, int) or num_tables < 1:
            raise RulesError(f"num_tables must be a positive whole number, got {num_tables!r}")
        if reward not in REWARDS:
            raise RulesError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
        if max_deals < 1:
            raise RulesError(f"max_deals must be at least 1, got {max_deals}")
        self.rules = _make_rules(preset, **options)
        self.num_tables = num_tables
        self.reward = reward
        self.max_deals = max_deals
        self.seed = seed
        self.encoder = Encoder(CALLBREAK_FAMILY, 4)
        self.observation_size = self.encoder.size
        self._opts = options_of(self.rules, reward, max_deals)
        f = np.zeros(impl.NF, dtype=np.int64)
        for index, name in ((impl.F_HAND, "hand"), (impl.F_PLAYED, "played"), (impl.F_TRICK, "trick"),
                            (impl.F_LEADER, "leader"), (impl.F_TO_ACT, "to_act"),
                            (impl.F_DEALER, "dealer"), (impl.F_SEAT, "seat"), (impl.F_CALLS, "calls"),
                            (impl.F_WON, "won"), (impl.F_SCORES, "scores"), (impl.F_VOIDS, "voids"),
                            (impl.F_TRUMP, "trump"), (impl.F_PHASE, "phase"), (impl.F_DEAL, "deal"),
                            (impl.F_LOOKED, "looked"), (impl.F_BLIND, "blind")):
            f[index] = self.encoder.offset(name)
        self._offsets = f
        t = num_tables
        self.state = np.zeros((t, impl.NCOLS), dtype=np.int64)
        self.obs = np.zeros((t, self.observation_size), dtype=np.float32)
        self.mask = np.zeros((t, self.num_actions), dtype=np.int8)
        self.rewards = np.zeros((t, 4), dtype=np.float32)
        self.done = np.zeros(t, dtype=np.int8)
        self.final_totals = np.zeros((t, 4), dtype=np.int64)  # tenths, of the last finished match
        self.winners = np.zeros(t, dtype=np.int64)  # bit mask of the last finished match's winners
        self.trick_winner = np.full(t, -1, dtype=np.int64)  # the seat that won a trick this step
        self.chance_log = np.zeros((t, impl.LOG_SIZE, 5), dtype=np.int64)
        self.chance_count = np.zeros(t, dtype=np.int64)

    @property
    def to_act(self) -> np.ndarray:
        """The seat to act at each table."""
        return self.state[:, impl.C_TURN]

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Start a new match at every table; returns the observations and masks."""
        if seed is not None:
            self.seed = seed
        if self.seed is None:
            self.seed = int(np.random.SeedSequence().generate_state(1)[0])
        impl.reset_tables(self.state, self._opts, self._offsets, int(self.seed) & 0x7FFFFFFF,
                          self.obs, self.mask, self.chance_log, self.chance_count)
        return self.obs, self.mask

    def step(self, actions: np.ndarray) -> Step:
        """Apply one action id per table; see the module for what comes back."""
        a = np.asarray(actions)
        if a.shape != (self.num_tables,) or not np.issubdtype(a.dtype, np.integer):
            raise MaskedActionError(f"actions must be {self.num_tables} integer action ids, got an "
                                    f"array of shape {a.shape} and type {a.dtype}")
        a = a.astype(np.int64, copy=False)
        inside = (a >= 0) & (a < self.num_actions)
        ok = inside.copy()
        ok[inside] = self.mask[np.flatnonzero(inside), a[inside]] == 1
        if not ok.all():
            bad = np.flatnonzero(~ok)
            raise MaskedActionError(
                f"{len(bad)} action(s) outside the mask, at tables {bad[:10].tolist()} (actions "
                f"{a[bad[:10]].tolist()}); nothing was applied")
        impl.step_tables(self.state, self._opts, self._offsets, a, self.obs, self.mask, self.rewards,
                         self.done, self.final_totals, self.winners, self.trick_winner,
                         self.chance_log, self.chance_count)
        return Step(self.obs, self.mask, self.to_act, self.rewards, self.done)

    def sample_actions(self, rng: np.random.Generator | int) -> np.ndarray:
        """A uniformly random legal action id at every table (compiled; ``rng`` seeds it)."""
        seed = int(rng.integers(1, 2**31)) if isinstance(rng, np.random.Generator) else int(rng)
        state = np.array([mix_seed(seed, 0)], dtype=np.int64)
        out = np.zeros(self.num_tables, dtype=np.int64)
        impl.random_actions(self.mask, state, out)
        return out

    def chance_events(self, table: int) -> list[tuple[str, Any]]:
        """What chance did at ``table`` in the last step (or reset): ``("dealer", seat)`` for the
        first dealer of a match, ``("deal", (mask, mask, mask, mask))`` for each deal."""
        out: list[tuple[str, Any]] = []
        n = int(self.chance_count[table])
        if n > impl.LOG_SIZE:
            raise RuntimeError(f"table {table} made {n} chance steps in one step; only "
                               f"{impl.LOG_SIZE} are logged")
        for k in range(n):
            kind, *vals = (int(x) for x in self.chance_log[table, k])
            if kind == impl.LOG_DEALER:
                out.append(("dealer", vals[0]))
            else:
                out.append(("deal", tuple(vals)))
        return out

    @property
    def hands(self) -> np.ndarray:
        """(T, 4) the cards each seat holds now, as masks."""
        return self.state[:, impl.C_HANDS:impl.C_HANDS + 4]

    @property
    def won(self) -> np.ndarray:
        """(T, 4) tricks won this deal."""
        return self.state[:, impl.C_WON:impl.C_WON + 4]

    @property
    def totals(self) -> np.ndarray:
        """(T, 4) match totals in tenths of a point."""
        return self.state[:, impl.C_TOTALS:impl.C_TOTALS + 4]


def start_match(rules: Rules, dealer: int) -> Match:
    """A :class:`~callbreak.core.match.Match` started as a table's ``("dealer", seat)`` chance
    event says (however the rules choose the first dealer): feed it the table's deals and actions
    and it stays in step with the table."""
    m = Match(rules)
    fd = rules.first_dealer
    if fd is FirstDealer.RANDOM:
        m.apply(ChooseDealer(dealer))
    elif fd is FirstDealer.DRAW_LOWEST:
        others = iter((1, 2, 3))
        m.apply(Draw(cards=tuple(DECK[0 if s == dealer else next(others)] for s in range(4))))
    elif fd is FirstDealer.DRAW_HIGHEST:
        others = iter((0, 1, 2))
        m.apply(Draw(cards=tuple(DECK[12 if s == dealer else next(others)] for s in range(4))))
    return m
