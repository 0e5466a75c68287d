"""The ``expert`` bot: determinized search over sampled deals, anytime.

For a card: draw hidden hands consistent with the seat's view (:mod:`callbreak.core.sampling`,
drawn in bulk by :mod:`callbreak.bots.kernel_sampling`), each deal weighted by how well it fits the
calls made (calls are evidence of strength) and the others' play so far (would a classic player
holding those cards have played them? :mod:`callbreak.bots.kernel_classic`). Play every legal
card in every sampled deal and finish the deal in the kernel (:mod:`callbreak.bots.kernel`), the
other seats playing as classic players from their own hands and this seat by the fast rollout
policy, and choose the card with the best mean score for the deal under the table's scoring (partners scored together). On
the last deal of a match the score also counts whether the seat ends the match on top, so the
bot takes the risks that can still win and avoids the ones that can lose.

For a call: simulate the deal from the start with this hand many times, which gives the
distribution of tricks the hand takes, and call the number with the best expected score. Blind
calls (the 567 platform's rules) are made only when the match situation asks for a gamble; weak-hand redeal claims
are made when the hand is worth less than an average hand.

Anytime: work is done in batches sized from the measured cost of the previous ones, and no batch
starts unless it can end before the deadline, so the bot uses the budget it is given and no more.
With a long budget it may use less: past ``SETTLE_AFTER`` it stops once the choice is clear.

>>> from callbreak.bots import make_bot
>>> bot = make_bot("expert:budget=0.05", seed=1)
>>> bot.name
'expert'
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from callbreak.bots.base import Decision, register
from callbreak.bots.heuristic import HeuristicBot, classic_steps, classic_table
from callbreak.bots.kernel import (
    NOISE_DEFAULT,
    POLICY_HEURISTIC,
    POLICY_HONEST,
    POLICY_SMART,
    Kernel,
    Position,
    get_kernel,
    make_position,
    options_array,
)
from callbreak.bots.kernel_classic import STEP_COLS, STYLE_GREEDY, STYLE_RANDOM, T_STYLE
from callbreak.bots.kernel_sampling import EVIDENCE, WorldSampler
from callbreak.bots.neural import NeuralBot, shipped
from callbreak.bots.neural_playout import MOVES_MAX, cut_values, seat_bases
from callbreak.bots.neural_playout import playouts as network_playouts
from callbreak.bots.neural_reading import log_likelihoods, past_moves, readable
from callbreak.bots.reading import (
    GREEDY,
    RANDOM,
    SEARCH,
    Posterior,
    call_likelihoods,
    calls_as_read,
    carry,
    classic_mismatch_weights,
    mismatch_factors,
    read_styles,
    readings_from_json,
    readings_json,
)
from callbreak.core import Action, Call, Card, Look, Phase, Play, Redeal, SeatView
from callbreak.core.cards import Rank
from callbreak.core.rules import Rules, Trump
from callbreak.core.sampling import CALL_SPREAD, SamplingError
from callbreak.core.scoring import deal_points, expected_deal_points, made

TRICKS = 13
DEFAULT_BUDGET = 1.0  # seconds, when decide() is given no usable budget
MATCH_WIN_WEIGHT = 1000  # tenths: on the last deal, finishing on top outweighs any deal score
REDEAL_BELOW = 25  # tenths: a weak hand worth less than this is thrown in (an average hand
# under the callbreak preset is worth about 2.5 to 3 points with a good call)
# Measured: the rollouts' mean tricks for the bot's hand fell 0.4 tricks short of what the bot
# then took in play (0.43 over 20 deals, 0.40 over 40, against heuristic bots): its play searches.
CALL_BIAS = 0.4
# Against searching players (IS-MCTS) the bot's play takes barely more tricks than its simulation
# expects (+0.05, against +0.27 for greedy players: benchmarks/call_calibration.py); a bias of 0.1
# instead of 0.4 on every deal gained +0.16 and +0.05 a deal against three IS-MCTS players on two
# sets of deals, and lost 0.08 against greedy and random ones (RESULTS.md). So the bias is lowered
# by as much as the table is read as searching players (measured so: −0.01 ± 0.06 against IS-MCTS,
# where the reading lowers it by about two thirds and only from the second deal; ±0.01 elsewhere).
SEARCH_CALL_BIAS = 0.1
RIVAL_WEIGHT = 1.0
CALL_MODELS = ("sim", "classic", "heuristic")
CALLS_DEFAULT = "sim"
POLICIES = {"heuristic": POLICY_HEURISTIC, "smart": POLICY_SMART, "honest": POLICY_HONEST}
POLICY_DEFAULT = "heuristic"
# What the inference from play checks the others' moves against: a rollout policy, or
# ``classic``, the heuristic bot's own play (a player who sees only their own hand).
INFER_MODELS = (*POLICIES, "classic")
# Who the other seats are in the playouts: the rollout policy, or classic players.
OPPONENT_MODELS = ("policy", "classic")
# Measured (benchmarks/RESULTS.md, 2026-11-23): classic opponents in the playouts, and sampled
# deals weighed by how well classic play explains the others' moves (a factor of 0.2 for each
# move it does not explain), gained +0.16 [+0.04, +0.28] a deal over rollout-policy opponents.
OPPONENTS_DEFAULT = "classic"
INFER_DEFAULT = 0.2
INFER_MODEL_DEFAULT = "classic"
BLIND_DEFICIT = 30  # tenths behind the leader on the last deal before a blind call pays
SOLVE_DEFAULT = 0
# Reading the others' styles: off; on (the inference from play weighs each seat by how classic it
# looks); play (also, in the playouts, a seat read as greedy plays as one); calls (also, each
# seat's calls are read with its play, and judged as the seat is read).
READ_MODES = ("off", "on", "play", "calls")
READ_DEFAULT = "calls"
PLAY_AS = 0.6  # how sure a reading must be before the playouts play a seat by it
READ_WORLDS = 128  # sampled deals a reading of the others' styles averages over
# An exact search of 5 tricks takes ~2.4 ms a playout, of 7 ~0.8 s (benchmarks/solve_speed.py):
# past 8 not even one playout fits a move's budget.
SOLVE_MAX = 8
# Stopping early: once this much of a move's time is spent, the search stops as soon as the
# leading card is ahead of every other by SETTLE standard errors (less SETTLE_MARGIN), so
# a long budget goes to close choices. Below SETTLE_AFTER nothing changes: a 0.1 s bot plays
# exactly as before.
SETTLE_DEFAULT = 3.0
SETTLE_AFTER = 0.1  # seconds
SETTLE_MARGIN = 0.2  # tenths of a point: two cards this close are as good as each other
# The exact search's score table, for playouts that never reach it (calls: solve is off).
_UNSOLVED = np.zeros((4, 2 * TRICKS + 1), dtype=np.int64)


def card_name(card: Card) -> str:
    """``the 9 of hearts``, ``the ace of spades``."""
    rank = card.rank
    word = rank.name.lower() if rank >= Rank.JACK else str(int(rank))
    return f"the {word} of {card.suit.name.lower()}"


class _Clock:
    """A deadline and the measured cost of one unit of work (a sampled deal)."""

    def __init__(self, budget: float) -> None:
        self.start = time.perf_counter()
        # Keep a margin for the work after the last batch (choosing, building the reason).
        self.deadline = self.start + max(0.0, budget * 0.9 - 0.002)
        self.unit = 0.0

    def remaining(self) -> float:
        return self.deadline - time.perf_counter()

    def batch(self, cap: int, fixed: bool = False) -> int:
        """How many units the next batch may hold (0: stop).

        With ``fixed`` (a set number of samples) the batch size never depends on timing, so
        the random streams, and so the decision, are the same on a busy machine as on an idle
        one whenever the budget allows all the samples.
        """
        left = self.remaining()
        if left <= 0:
            return 0
        if fixed:
            return min(cap, 16)
        if self.unit <= 0:
            return min(cap, 2)  # first batch: small, to measure the cost
        # Short batches (a third of what is left, at most ~6 ms): on a busy machine a batch can
        # take several times its measured cost, and the last one must still end in time.
        n = int(min(left * 0.33, 0.006) / self.unit)
        if n == 0 and self.unit <= left * 0.33:
            # A unit measured at over 6 ms (batches stretched by waits for a core): one at a time
            # while one fits, rather than stopping with most of the budget left.
            n = 1
        return max(0, min(cap, n, 256))

    def record(self, units: int, seconds: float) -> None:
        per = seconds / max(units, 1)
        self.unit = per if self.unit <= 0 else max(per, 0.5 * (self.unit + per))

    def elapsed(self) -> float:
        return time.perf_counter() - self.start


class _Tally:
    """Weighted sums of each candidate's value over the sampled deals, with what it takes to
    judge whether the leader's lead is more than noise.

    Candidates are valued on the same deals, so the leader is compared with each other card on
    the difference deal by deal (a paired comparison, far sharper than two separate means).
    """

    def __init__(self, size: int) -> None:
        self.total = np.zeros(size)  # sum of w * v per candidate
        self.total_w2 = np.zeros(size)  # sum of w^2 * v per candidate
        self.cross = np.zeros((size, size))  # sum of w^2 * v_a * v_b
        self.mass = 0.0  # sum of w
        self.mass2 = 0.0  # sum of w^2

    def add(self, weights: np.ndarray, values: np.ndarray) -> None:
        """Sampled deals' weights (n,) and each candidate's value in them (n, candidates)."""
        w2 = weights * weights
        self.total += weights @ values
        self.total_w2 += w2 @ values
        # A matrix product, not a three-operand einsum: this runs after every batch of every
        # move, and the einsum took ~90 us a batch where this takes ~12.
        self.cross += (values * w2[:, None]).T @ values
        self.mass += float(weights.sum())
        self.mass2 += float(w2.sum())

    def best(self) -> int:
        return int(np.argmax(self.total))

    def settled(self, z: float, margin: float) -> bool:
        """Whether the leader is ahead of every other candidate by ``z`` standard errors of the
        paired difference, less ``margin`` (a lead too small to matter needs no proof)."""
        if self.mass <= 0 or len(self.total) < 2:
            return False
        b = self.best()
        others = np.arange(len(self.total)) != b
        lead = (self.total[b] - self.total[others]) / self.mass  # weighted mean difference
        # sum of w^2 (d - mean)^2, expanded into the running sums; d = v_b - v_j.
        d2 = self.cross[b, b] - 2 * self.cross[b, others] + np.diag(self.cross)[others]
        d1 = self.total_w2[b] - self.total_w2[others]
        spread = np.maximum(d2 - 2 * lead * d1 + lead * lead * self.mass2, 0.0)
        error = np.sqrt(spread) / self.mass
        return bool(np.all(lead + margin > z * error))


@dataclass(frozen=True)
class Appraisal:
    """Legal cards and the value a search gave each, over ``deals`` sampled deals."""

    plays: tuple[Play, ...]
    values: tuple[float, ...]  # points (see ExpertBot.appraise)
    deals: int
    settled: bool = False  # the search stopped early: one card was clearly best (``settle``)

    @property
    def best(self) -> Play:
        """The card valued highest: the one the search would play."""
        return self.plays[self.values.index(max(self.values))]


@dataclass
class _Search:
    """What one card-play search found."""

    plays: list[Play]
    tally: _Tally
    safe: np.ndarray  # weighted share of sampled deals in which each card makes the call
    count: int  # sampled deals
    settled: bool  # stopped early: a clear choice
    sampler: WorldSampler
    pos: Position


class ExpertBot:
    """Determinized search (see the module docstring).

    Args:
        budget: seconds per decision; the budget passed to :meth:`decide` stays a hard limit.
        samples: the most sampled deals per decision (None: as many as the time allows).
        seed: for the sampling and the rollouts.
        backend: ``numba`` or ``python`` kernel (default: :func:`~callbreak.bots.kernel.default_backend`).
        reps: rollouts per sampled deal and candidate.
        call_bias: tricks (0..1) added to the simulated distribution when calling.
        search_call_bias: the same against a table read as searching players (``read=calls``:
            the three others' mean reading as ``search`` moves the bias from ``call_bias``
            towards this; a seat not read yet counts as not searching).
        rival_weight: how much the opponents' mean deal score counts against the seat's own
            when choosing a card (0: own score only; 1: the margin over them).
        calls: how to choose a call: ``sim`` (the simulated trick distribution, the others
            playing the rollout policy), ``classic`` (the same with the others as classic
            players) or ``heuristic`` (the heuristic bot's trick-count model, no search).
        call_spread: tricks; how far an opponent's call may stray from the quick estimate of
            the hand a sampled deal gives them (smaller: calls count as stronger evidence).
        policy: the rollout policy, ``heuristic``, ``smart`` (see
            :func:`callbreak.bots.kernel_impl.smart_card`) or ``honest`` (``heuristic`` judging
            sure winners from the cards the seat has not seen, not from the other hands).
        noise: one rollout move in ``noise`` is random (0: none).
        match_weight: tenths of a point that finishing the match on top is worth, on its last
            deal, beside the deal's score.
        infer: inference from the play (1: off; default 0.2): each sampled deal's weight is
            multiplied by ``infer`` for every earlier move of another seat that the model
            ``infer_policy`` would not have made in that deal.
        infer_policy: what ``infer`` checks the others' moves against: ``classic`` (default),
            the heuristic bot's own play from the cards the seat held (see
            :func:`callbreak.bots.kernel_classic.classic_weights`), or a rollout policy
            (see :func:`callbreak.bots.kernel_impl.play_weights`).
        evidence: what the others' calls say of their hands: ``count`` (a quick count of sure
            and likely tricks) or ``fitted`` (the heuristic bot's fitted trick model).
        opponents: who the other seats are in the playouts: ``classic`` (default: the heuristic
            bot's play from their own hand; see
            :func:`callbreak.bots.kernel_classic.classic_evaluate`) or ``policy`` (the rollout
            policy, with every hand open, the only one the exact search ``solve`` works with).
        solve: the last this many tricks of every playout are solved exactly, every seat
            playing for its own deal score with all hands known (see
            :func:`callbreak.bots.kernel_impl.solve_rest`), instead of rolled out (0: none).
        read: read each other seat's style from its play this deal
            (:mod:`callbreak.bots.reading`; needs ``infer_policy=classic``), starting from
            ``style_prior``: the inference from play then counts a move a classic player would
            not have made only as much as that seat looks classic (off: every seat is classic);
            ``play``: also, in the playouts, a seat read as greedy or random (at least
            ``PLAY_AS`` sure) plays as one (:func:`play_as_read`).
            ``calls`` (the default): also, each seat's calls are read with its play (a classic
            caller calls near its hand's quick count, a greedy one its sure winners, a random
            one anything), and the sampled deals are weighed by each call as the seat is read
            (a random caller's call says nothing of its hand). A seat that plays as no model
            explains but calls by its hand reads as ``search``. Readings carry from deal to deal:
            a bot kept for a match carries its own; the bot-server's match cache sets
            ``style_prior``. Its own calls are still simulated with classic players (played
            against the read styles, calls went up and were missed more often against search
            players: RESULTS.md); only their bias follows the reading (``search_call_bias``).
        settle: after ``SETTLE_AFTER`` seconds of a move, stop searching once the leading card
            is ahead of every other by this many standard errors (0: always use the budget).
        prior: points that the ``neural`` bot's liking for a card or call adds to the search's
            value of it, per unit of log-probability (0: off; see benchmarks/RESULTS.md).
        neural: the network as a model of the others when reading (0: off): each sampled
            deal's weight is also multiplied by the ``neural`` bot's chance of every earlier call
            and card of the others in it (:mod:`callbreak.bots.neural_reading`), raised to
            this power (0..1: a tempered likelihood). Measured at 0.1 s (RESULTS.md, issue 29,
            third session): it loses 0.1-0.4 a deal at every power tried (its forward passes cost
            2-36 times the search's own work a sampled deal), so it is off.
        network_moves: the network as the playout policy (0: off): in every playout of a card,
            the next this many moves after it, whoever's they are, are the ``neural`` bot's
            choice from that seat's own view (:mod:`callbreak.bots.neural_playout`), one batch
            over all sampled deals a move; classic play finishes the deal. Card play only, with
            classic opponents and a fixed trump suit (``neural_reading.readable``). Measured at
            0.1 s (RESULTS.md, "Issue 29: the network as playout policy and as cut-off value"):
            K=1 level, K=3 0.25 a deal of margin behind against heuristic players (a network
            move costs about 90 kernel moves), so it is off.
        cutoff: the network's value at a cut-off (0: off): the playouts stop once this many
            tricks, the one being played included, are complete, and each seat's points this deal
            come from the ``neural`` bot's value head, read from that seat's own view at its turn
            in the next trick (:func:`callbreak.bots.neural_playout.cut_values`). As
            ``network_moves``, and not on a match's last deal (the match weight needs the end),
            in partnership, or where fewer than two tricks would be left. Measured (RESULTS.md,
            same section): ``cutoff=3`` is level at equal deals and behind at 0.1 s (four
            forward passes per playout: it searches a few deals where today's searches
            hundreds), so it is off.
    """

    def __init__(self, budget: float | None = None, samples: int | None = None,
                 seed: int | None = None, backend: str | None = None, reps: int = 2,
                 call_bias: float = CALL_BIAS, rival_weight: float = RIVAL_WEIGHT,
                 calls: str = CALLS_DEFAULT, call_spread: float = CALL_SPREAD,
                 policy: str = POLICY_DEFAULT, noise: int = NOISE_DEFAULT,
                 match_weight: float = MATCH_WIN_WEIGHT, infer: float = INFER_DEFAULT,
                 solve: int = SOLVE_DEFAULT, infer_policy: str | None = INFER_MODEL_DEFAULT,
                 evidence: str = "count", opponents: str = OPPONENTS_DEFAULT,
                 settle: float = SETTLE_DEFAULT, read: str = READ_DEFAULT,
                 search_call_bias: float = SEARCH_CALL_BIAS, prior: float = 0.0,
                 neural: float = 0.0, network_moves: int = 0, cutoff: int = 0) -> None:
        if budget is not None and not (budget > 0 and math.isfinite(budget)):
            raise ValueError(f"budget must be a positive number of seconds, got {budget!r}")
        if samples is not None and samples < 1:
            raise ValueError(f"samples must be at least 1, got {samples!r}")
        if reps < 1:
            raise ValueError(f"reps must be at least 1, got {reps!r}")
        if not 0 <= call_bias <= 1:
            raise ValueError(f"call_bias must be between 0 and 1, got {call_bias!r}")
        if not 0 <= search_call_bias <= 1:
            raise ValueError(f"search_call_bias must be between 0 and 1, got {search_call_bias!r}")
        if not 0 <= rival_weight <= 1:
            raise ValueError(f"rival_weight must be between 0 and 1, got {rival_weight!r}")
        if calls not in CALL_MODELS:
            raise ValueError(f"calls must be one of {', '.join(CALL_MODELS)}, got {calls!r}")
        if not 0.3 <= call_spread <= 10:
            raise ValueError(f"call_spread must be between 0.3 and 10 tricks, got {call_spread!r}")
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}, got {policy!r}")
        if not 0 <= noise <= 1000:
            raise ValueError(f"noise must be between 0 (no random moves) and 1000, got {noise!r}")
        if not 0 <= match_weight <= 10000:
            raise ValueError(f"match_weight must be between 0 and 10000 tenths, got {match_weight!r}")
        if not 0 < infer <= 1:
            raise ValueError(f"infer must be above 0 and at most 1 (1: off), got {infer!r}")
        if not 0 <= solve <= SOLVE_MAX:
            raise ValueError(f"solve must be between 0 and {SOLVE_MAX} tricks, got {solve!r}")
        if opponents not in OPPONENT_MODELS:
            raise ValueError(f"opponents must be one of {', '.join(OPPONENT_MODELS)}, "
                             f"got {opponents!r}")
        if opponents == "classic" and solve:
            raise ValueError("the exact search needs opponents=policy (classic opponents' "
                             "playouts have none)")
        if not 0 <= settle <= 100:
            raise ValueError(f"settle must be between 0 (off) and 100 standard errors, "
                             f"got {settle!r}")
        self.settle = settle
        if not 0 <= prior <= 10:
            raise ValueError(f"prior must be between 0 (off) and 10 points, got {prior!r}")
        self.prior = prior
        if not 0 <= neural <= 1:
            raise ValueError(f"neural must be between 0 (off) and 1 (the network's likelihood "
                             f"untempered), got {neural!r}")
        self.neural = neural
        if not 0 <= network_moves <= MOVES_MAX:
            raise ValueError(f"network_moves must be between 0 (off) and {MOVES_MAX} moves, "
                             f"got {network_moves!r}")
        self.network_moves = network_moves
        if not 0 <= cutoff <= TRICKS - 1:
            raise ValueError(f"cutoff must be between 0 (off) and {TRICKS - 1} tricks, got {cutoff!r}")
        self.cutoff = cutoff
        self._policy: NeuralBot | None = None
        if read not in READ_MODES:
            raise ValueError(f"read must be one of {', '.join(READ_MODES)}, got {read!r}")
        self.read = read != "off"
        self.read_play = read in ("play", "calls")
        self.read_calls = read == "calls"
        # Reading the others' styles (``read``): what is known of them before this deal (set by
        # whoever keeps a match's readings, e.g. the bot-server), and the last search's reading.
        self.style_prior: dict[int, Posterior] = {}
        self.reading: dict[int, Posterior] = {}
        self._deal: int | None = None  # the deal of this bot's last decision (its carry)
        self.opponents_classic = opponents == "classic"
        self.solve = solve
        self.infer = infer
        if evidence not in EVIDENCE:
            raise ValueError(f"evidence must be one of {', '.join(EVIDENCE)}, got {evidence!r}")
        self.evidence = evidence
        if infer_policy is not None and infer_policy not in INFER_MODELS:
            raise ValueError(f"infer_policy must be one of {', '.join(INFER_MODELS)}, "
                             f"got {infer_policy!r}")
        self.infer_classic = infer_policy == "classic"
        self.infer_policy = POLICIES[policy if infer_policy in (None, "classic") else infer_policy]
        self.match_weight = match_weight
        self.policy = POLICIES[policy]
        self.noise = noise
        self.calls = calls
        self.call_spread = call_spread
        self.call_bias = call_bias
        self.search_call_bias = search_call_bias
        self.rival_weight = rival_weight
        self.name = "expert"
        self.budget = budget
        self.samples = samples
        self.reps = reps
        self.rng = random.Random(seed)
        self.kernel: Kernel = get_kernel(backend)
        self.kernel.warm_up()  # compile or load the cache now, never inside a move's budget
        self._opts: dict[tuple[Rules, bool], np.ndarray] = {}

    # --- entry point -------------------------------------------------------------------

    def decide(self, view: SeatView, budget: float) -> Decision:
        """Choose one of ``view.legal`` within the budget."""
        if not view.legal:
            raise ValueError("the bot was asked to act with no legal action")
        if view.seat is None:
            raise ValueError("the bot needs a seat's view, not a spectator's")
        clock = _Clock(self._effective_budget(budget))
        if self.read:
            self._carry_reading(view.deal_number)
        legal = view.legal
        if len(legal) == 1:
            return Decision(legal[0], "the only legal move")
        try:
            if view.phase is Phase.PLAY:
                return self._play(view, clock)
            if view.phase is Phase.CALL:
                if self.calls == "heuristic":
                    return HeuristicBot().decide(view, budget)
                if view.hand is None:
                    return self._blind_or_look(view, clock)
                return self._call(view, clock)
            if view.phase is Phase.REDEAL_CLAIM:
                return self._redeal(view, clock)
        except SamplingError as e:  # pragma: no cover - would mean the engine's caps are wrong
            return Decision(legal[0], f"no consistent deal to search ({e})")
        return Decision(legal[0], "the first legal move")

    def _carry_reading(self, deal: int) -> None:
        """A bot kept for a whole match (the arena, a web table) starts each deal from the last
        deal's reading; a deal number that does not follow on means a new match. (The bot-server
        makes a bot per request and sets ``style_prior`` from its match cache instead.)"""
        last, self._deal = self._deal, deal
        if last is None or deal == last:
            return
        if deal == last + 1:
            self.style_prior = {s: carry(p) for s, p in self.reading.items()}
        else:
            self.style_prior, self.reading = {}, {}

    def memory(self) -> dict[str, Any]:
        """What this bot has read of the others in the game (:class:`~callbreak.bots.Remembers`):
        the deal of its last decision, the reading it started that deal from, and its latest."""
        return {"deal": self._deal, "prior": readings_json(self.style_prior), "reading": readings_json(self.reading)}

    def recall(self, memory: Mapping[str, Any]) -> None:
        """Take back a :meth:`memory` (a ValueError, and its own kept, for anything else)."""
        try:
            deal = memory["deal"]
            if deal is not None and (type(deal) is not int or deal < 1):
                raise ValueError(f"a deal number, got {deal!r}")
            prior, reading = readings_from_json(memory["prior"]), readings_from_json(memory["reading"])
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"not an expert's memory ({type(e).__name__}: {e})") from None
        self._deal, self.style_prior, self.reading = deal, prior, reading

    def _effective_budget(self, given: float | None) -> float:
        usable = given if given is not None and given > 0 and math.isfinite(given) else None
        if self.budget is None:
            return usable if usable is not None else DEFAULT_BUDGET
        return min(self.budget, usable) if usable is not None else self.budget

    def _options(self, rules: Rules, solve: bool = True) -> np.ndarray:
        key = (rules, solve)
        opts = self._opts.get(key)
        if opts is None:
            opts = self._opts[key] = options_array(rules, self.noise, self.solve if solve else 0)
        return opts

    # --- playing a card ----------------------------------------------------------------

    def appraise(self, view: SeatView, budget: float | None = None) -> Appraisal:
        """Each legal card's value as the search sees it: what :meth:`decide` chooses from.

        For analysis (how far a short search's choice falls short of a long one's): the
        values are the seat's deal points less its opponents' mean, in points, on the last
        deal with the match weight added (see ``match_weight``).
        """
        if view.phase is not Phase.PLAY or view.seat is None:
            raise ValueError("appraise takes a seat's view with a card to play")
        if len(view.legal) < 2:
            raise ValueError("appraise needs a choice of cards: only one is legal")
        search = self._search(view, _Clock(self._effective_budget(budget)))
        mass = search.tally.mass
        values = search.tally.total / mass / 10 if mass > 0 else np.zeros(len(search.plays))
        return Appraisal(tuple(search.plays), tuple(float(v) for v in values), search.count,
                         search.settled)

    def _play(self, view: SeatView, clock: _Clock) -> Decision:
        search = self._search(view, clock)
        plays, tally = search.plays, search.tally
        if search.count == 0:
            return self._quick_play(search.sampler, search.pos, self._options(view.rules), plays)
        best = tally.best()
        if self.prior:
            values = tally.total / tally.mass / 10 + self.prior * self._log_policy(view, plays)
            best = int(np.argmax(values))
        card = plays[best].card
        share = search.safe[best] / tally.mass
        goal = "the pair's call" if view.rules.partnership else "the call"
        clear = ", a clear choice" if search.settled else ""
        return Decision(plays[best], f"{card_name(card)} makes {goal} in {share:.0%} of "
                                     f"{search.count} sampled deals{clear}")

    def _log_policy(self, view: SeatView, actions: Sequence[Action]) -> np.ndarray:
        """The neural bot's log-probability of each of ``actions`` (``prior``: its weight, in
        points, beside the search's values)."""
        if self._policy is None:
            self._policy = NeuralBot()
        ids, p, _ = self._policy.evaluate(view)
        by_action = {a: q for a, q in zip(ids.values(), p, strict=True)}
        return np.asarray(np.log(np.array([max(by_action.get(a, 0.0), 1e-6) for a in actions])))

    def _search(self, view: SeatView, clock: _Clock) -> _Search:
        """Every legal card played in as many sampled deals as the clock allows."""
        seat = view.seat
        assert seat is not None and view.leader is not None
        plays = [a for a in view.legal if isinstance(a, Play)]
        cands = np.array([int(a.card) for a in plays], dtype=np.int64)
        sampler = WorldSampler(view, self.kernel, spread=self.call_spread, evidence=self.evidence)
        trump = -1 if view.trump is None else int(view.trump)
        pos = make_position(view.trick, view.leader, trump,
                            len(view.tricks), view.won)
        opts = self._options(view.rules)
        value = _Valuer(view, self.rival_weight, self.match_weight)
        history = np.array([int(c) for t in view.tricks for c in t.cards] + [int(c) for c in view.trick],
                           dtype=np.int64)
        infer = self.infer < 1 and len(history) > 0
        reading = self.read and infer and self.infer_classic
        steps = classic_steps(view) if infer and self.infer_classic else None
        if reading:
            assert steps is not None
            if len(steps) == 0:
                reading = False
        factors = np.full(4, self.infer)
        self.reading = dict(self.style_prior)
        # Calls read by style: the sampled deals are drawn unweighted and each call is judged as
        # the seat's reading says it was made (a random caller's call says nothing).
        calls_read = self.read_calls and self.infer_classic and sampler.weighted
        choices = len(view.rules.call_range)
        if calls_read or reading:  # read once, from deals of its own
            moves = steps if reading and steps is not None else np.zeros((0, STEP_COLS),
                                                                          dtype=np.int64)
            self.reading = read_seats(self.kernel, sampler, moves, trump, opts, self.style_prior,
                                      self.rng, calls_read, choices)
            factors = mismatch_factors(self.reading, self.infer)
        table = classic_table(view) if self.opponents_classic else None
        if table is not None and self.read_play:
            play_as_read(table, self.reading)
        # Once the exact search reaches back to this move, repeated playouts are all the same.
        reps = 1 if self.solve and len(view.tricks) >= TRICKS - self.solve else self.reps
        first = view.tricks[0].leader if view.tricks else view.leader
        trump0 = -1 if view.rules.trump is Trump.FIRST_LED else 0
        # The network's reading: the others' earlier moves, encoded once for every batch.
        past = past_moves(view, shipped().scale) if self.neural and readable(view) else None
        if past is not None and len(past.seats) == 0:
            past = None
        # The network's playouts: each seat's public inputs at the root, encoded once.
        bases, cut = None, 0
        if (self.network_moves or self.cutoff) and table is not None and readable(view):
            cut = (len(view.tricks) + self.cutoff) * 4 if self.cutoff else 0
            if value.last or view.rules.partnership or cut > 4 * (TRICKS - 1):
                cut = 0
            if self.network_moves or cut:
                bases = seat_bases(view, shipped().scale)
        offset: float | None = None  # one scale for every batch's weights
        tally = _Tally(len(plays))
        safe = np.zeros(len(plays))
        count = 0
        settled = False
        while self.samples is None or count < self.samples:
            cap = 1024 if self.samples is None else self.samples - count
            n = clock.batch(cap, fixed=self.samples is not None)
            if n == 0:
                break
            t0 = time.perf_counter()
            worlds, weights = sampler.draw(n, self.rng, weigh=not calls_read)
            if calls_read:
                weights = calls_as_read(
                    call_likelihoods(sampler.call_fits(worlds), sampler.called, choices), self.reading)
            if reading:
                assert steps is not None
                classic, _, nlegal = style_moves(self.kernel, worlds, steps, trump, opts)
                weights *= classic_mismatch_weights(steps, classic, nlegal, factors)
            elif steps is not None:
                self.kernel.classic_weights(worlds, steps, trump, opts, self.infer,
                                            weights)
            elif infer:
                self.kernel.play_weights(worlds, history, first, trump0, opts, self.infer_policy,
                                         seat, self.infer, weights)
            if past is not None:
                like = self.neural * log_likelihoods(shipped(), past, worlds, self.kernel, opts)
                offset = float(like.max()) if offset is None else offset
                weights = weights * np.exp(np.minimum(like - offset, 30.0))
            if cut:
                assert table is not None and bases is not None
                points = cut_values(shipped(), bases, worlds, pos, opts, cands, reps, self.policy,
                                    self.rng.getrandbits(30), seat, table, self.network_moves, cut,
                                    self.kernel)
                utility, success = value.of_points(points)
            else:
                if bases is not None:
                    assert table is not None
                    out = network_playouts(shipped(), bases, worlds, pos, opts, cands, reps, self.policy,
                                           self.rng.getrandbits(30), seat, table, self.network_moves,
                                           self.kernel)
                else:
                    out = self._playouts(worlds, pos, opts, cands, reps, seat, table, value.points)
                utility, success = value.of(out)
            # Each sampled deal counts by how well it fits the calls made (importance weights).
            tally.add(weights, utility.mean(axis=2))
            safe += np.einsum("i,icr->c", weights, success.astype(float)) / reps
            count += n
            clock.record(n, time.perf_counter() - t0)
            # Settled only while time is left: a last batch that ran past the deadline (a wait
            # for a core) ended the search on time, not early, however clear the choice.
            if (self.settle and self.samples is None and clock.elapsed() >= SETTLE_AFTER
                    and clock.remaining() > 0 and tally.settled(self.settle, SETTLE_MARGIN)):
                settled = True
                break
        return _Search(plays, tally, safe, count, settled, sampler, pos)

    def _playouts(self, worlds: np.ndarray, pos: Position, opts: np.ndarray, cands: np.ndarray,
                  reps: int, seat: int, table: np.ndarray | None, points: np.ndarray) -> np.ndarray:
        """Tricks per seat at the end of ``reps`` playouts of every candidate in every world,
        (worlds, candidates, reps, 4): the others as classic players when ``table`` is given
        (:func:`callbreak.bots.heuristic.classic_table`), else all seats by the rollout policy
        (with the exact search's score table ``points``)."""
        out = np.zeros((len(worlds), len(cands), reps, 4), dtype=np.int64)
        seed = self.rng.getrandbits(30)
        if table is not None:
            self.kernel.classic_evaluate(worlds, pos.trick, pos.state, pos.won, opts, cands, reps,
                                         self.policy, seed, seat, table, out)
        else:
            self.kernel.evaluate(worlds, pos.trick, pos.state, pos.won, opts, cands, reps,
                                 self.policy, seed, points, out)
        return out

    def _quick_play(self, sampler: WorldSampler, pos: Position, opts: np.ndarray,
                    plays: Sequence[Play]) -> Decision:
        """No time to search: the rollout policy's own card in one sampled deal."""
        hands = sampler.draw(1, self.rng)[0][0]
        log = np.zeros(52, dtype=np.int64)
        rng = np.array([self.rng.getrandbits(30) | 1], dtype=np.int64)
        self.kernel.playout(hands, pos.trick.copy(), pos.state.copy(), pos.won.copy(), opts,
                            self.policy, rng, log)
        for a in plays:
            if int(a.card) == int(log[0]):
                return Decision(a, f"{card_name(a.card)}: no time to search, a quick judgement")
        return Decision(plays[0], "no time to search")

    # --- calling -----------------------------------------------------------------------

    def _trick_samples(self, view: SeatView, clock: _Clock,
                       pair: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Tricks this seat (``pair``: with its partner) takes in deals played out from the first
        lead, and the weight of each (how well the deal fits the calls made so far)."""
        seat = view.seat
        assert seat is not None and view.dealer is not None
        sampler = WorldSampler(view, self.kernel, spread=self.call_spread, evidence=self.evidence)
        trump = -1 if view.rules.trump is Trump.FIRST_LED else 0
        pos = make_position((), (view.dealer + 1) % 4, trump, 0, (0, 0, 0, 0))
        # Calls are chosen from rolled-out deals only: the call model's bias was measured on
        # them, and the exact search needs every seat's call, which is not known yet.
        opts = self._options(view.rules, solve=False)
        cands = np.array([-1], dtype=np.int64)
        table = classic_table(view) if self.calls == "classic" else None
        chunks: list[np.ndarray] = []
        masses: list[np.ndarray] = []
        count = 0
        while self.samples is None or count < self.samples:
            n = clock.batch(2048 if self.samples is None else self.samples - count,
                            fixed=self.samples is not None)
            if n == 0:
                break
            t0 = time.perf_counter()
            worlds, weights = sampler.draw(n, self.rng)
            out = self._playouts(worlds, pos, opts, cands, self.reps, seat, table, _UNSOLVED)
            won = out[:, 0, :, :].reshape(-1, 4)
            mine = won[:, seat] + (won[:, (seat + 2) % 4] if pair else 0)
            chunks.append(mine)
            masses.append(np.repeat(weights, self.reps))
            count += n
            clock.record(n, time.perf_counter() - t0)
        if not chunks:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        return np.concatenate(chunks), np.concatenate(masses)

    def _histogram(self, tricks: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """The distribution of tricks taken, shifted up by the table's call bias (a share of
        the mass moves one trick up): the bot plays its cards by search, which takes more tricks
        than the rollout policy the simulation uses."""
        size = 2 * TRICKS + 2
        histogram = np.bincount(tricks, weights=weights, minlength=size)[:size] / weights.sum()
        return shifted_up(histogram, self.table_call_bias())

    def table_call_bias(self) -> float:
        """``call_bias``, moved towards ``search_call_bias`` by the share of the other three
        seats read as searching players before this deal (``style_prior``, which holds only the
        other seats: the reader's own calls and moves are never read)."""
        if not self.read_calls:
            return self.call_bias
        searching = sum(float(p[SEARCH]) for p in self.style_prior.values()) / 3
        return self.call_bias + (self.search_call_bias - self.call_bias) * searching

    def call_outlook(self, view: SeatView, budget: float | None = None) -> tuple[tuple[float, ...], int]:
        """The distribution of tricks this hand takes (index: tricks; with the partner's once the
        partner has called, in partnership) and the number of simulated deals behind it: what
        :meth:`decide` chooses a call from (for analysis: a review shows it beside each call)."""
        if view.phase is not Phase.CALL or view.seat is None or view.hand is None:
            raise ValueError("call_outlook takes a seat's view with a call to make, hand seen")
        partner_call = view.calls[(view.seat + 2) % 4] if view.rules.partnership else None
        tricks, weights = self._trick_samples(view, _Clock(self._effective_budget(budget)),
                                              pair=partner_call is not None)
        if len(tricks) == 0:
            return (), 0
        return tuple(float(p) for p in self._histogram(tricks, weights)), len(tricks)

    def _call(self, view: SeatView, clock: _Clock) -> Decision:
        seat = view.seat
        assert seat is not None
        calls = [a for a in view.legal if isinstance(a, Call) and not a.blind]
        # In partnership, once the partner has called the pair's tricks decide; before that,
        # each partner calls for their own hand (the pair's call is the sum of the two).
        partner_call = view.calls[(seat + 2) % 4] if view.rules.partnership else None
        tricks, weights = self._trick_samples(view, clock, pair=partner_call is not None)
        if len(tricks) == 0:
            return Decision(calls[0], "no time to simulate: the smallest call")
        histogram = self._histogram(tricks, weights)
        best, best_value = calls[0], -math.inf
        prior = self._log_policy(view, calls) * 10 * self.prior if self.prior else np.zeros(len(calls))
        for a, lp in zip(calls, prior, strict=True):
            total_call = a.tricks + (partner_call or 0)
            value = expected_deal_points(total_call, histogram, view.rules) + lp
            if value > best_value:
                best, best_value = a, value
        total_call = best.tricks + (partner_call or 0)
        share = sum(p for w, p in enumerate(histogram) if p > 0 and made(total_call, w, view.rules))
        who = "the pair takes" if view.rules.partnership and partner_call is not None else \
            "this hand takes"
        enough = f"{total_call} or more" if view.rules.scoring.value != "exact_or_one_over" else \
            f"{total_call} or {total_call + 1}"
        return Decision(best, f"a call of {best.tricks}: {who} {enough} tricks in {share:.0%} of "
                              f"{len(tricks):,} simulated deals")

    def _blind_or_look(self, view: SeatView, clock: _Clock) -> Decision:
        """Before looking (blind calls on): look, unless behind on the last deal."""
        look = next((a for a in view.legal if isinstance(a, Look)), None)
        blind = [a for a in view.legal if isinstance(a, Call) and a.blind]
        seat = view.seat
        assert seat is not None
        deficit = max(view.totals) - view.totals[seat]
        last = view.rules.deals is not None and view.deal_number >= view.rules.deals
        if blind and (look is None or (last and deficit >= BLIND_DEFICIT)):
            tricks, weights = self._trick_samples(view, clock)
            if len(tricks) == 0:
                return Decision(blind[0], "a blind call to catch up")
            histogram = self._histogram(tricks, weights)
            best, best_key = blind[0], (-1.0, -math.inf)
            for a in blind:
                pts = [deal_points(a.tricks, w, view.rules, blind=True) for w in range(len(histogram))]
                catch_up = sum(p for p, x in zip(histogram, pts, strict=True) if x > deficit)
                key = (float(catch_up), float(np.dot(histogram, pts)))
                if key > best_key:
                    best, best_key = a, key
            return Decision(best, f"a blind call of {best.tricks}: behind by "
                                  f"{deficit / 10:g} on the last deal, it catches up in "
                                  f"{best_key[0]:.0%} of simulated deals")
        if look is not None:
            return Decision(look, "look at the cards before calling")
        return Decision(view.legal[0], "the first legal move")  # pragma: no cover

    def _redeal(self, view: SeatView, clock: _Clock) -> Decision:
        claim = next((a for a in view.legal if isinstance(a, Redeal) and a.claim), None)
        keep = next((a for a in view.legal if isinstance(a, Redeal) and not a.claim), None)
        assert keep is not None
        if claim is None:
            return Decision(keep, "keep the hand")
        tricks, weights = self._trick_samples(view, clock)
        if len(tricks) == 0:
            return Decision(claim, "a weak hand: ask for a new deal")
        histogram = self._histogram(tricks, weights)
        worth = max(expected_deal_points(c, histogram, view.rules) for c in view.rules.call_range)
        if worth < REDEAL_BELOW:
            return Decision(claim, f"this hand is worth about {worth / 10:.1f} points: "
                                   "ask for a new deal")
        return Decision(keep, f"a weak-looking hand still worth about {worth / 10:.1f} points: keep it")


def shifted_up(histogram: np.ndarray, bias: float) -> np.ndarray:
    """A distribution of tricks moved up by ``bias`` tricks: by the whole tricks, then that share
    of the mass one trick more (what would pass the last index is dropped)."""
    whole = int(math.floor(bias))
    part = bias - whole
    result = np.zeros(len(histogram))
    size = len(histogram) - whole
    if size > 0:
        result[whole:] += (1 - part) * histogram[:size]
    if size > 1:
        result[whole + 1:] += part * histogram[:size - 1]
    return result


def style_moves(kernel: Kernel, worlds: np.ndarray, steps: np.ndarray, trump: int,
                opts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`callbreak.bots.kernel_classic.style_moves`' (classic, greedy, legal count)."""
    classic, greedy, nlegal = (np.zeros((len(worlds), len(steps)), dtype=np.int64) for _ in range(3))
    kernel.style_moves(worlds, steps, trump, opts, classic, greedy, nlegal)
    return classic, greedy, nlegal


def read_seats(kernel: Kernel, sampler: WorldSampler, moves: np.ndarray, trump: int, opts: np.ndarray,
               prior: Mapping[int, Posterior], rng: random.Random, calls: bool,
               choices: int) -> dict[int, Posterior]:
    """The other seats' styles, read from ``prior`` over ``READ_WORLDS`` deals of their own:
    by their ``moves`` (classic steps), and with ``calls`` by their calls too, out of ``choices``
    possible calls (the deals then drawn unweighted and each call judged as the seat's style
    would make it; without, the deals are weighed by the calls as a classic caller's)."""
    worlds, weights = sampler.draw(READ_WORLDS, rng, weigh=not calls)
    classic, greedy, nlegal = style_moves(kernel, worlds, moves, trump, opts)
    like = call_likelihoods(sampler.call_fits(worlds), sampler.called, choices) if calls else None
    return read_styles(moves, classic, greedy, nlegal, weights, prior, like)


def play_as_read(table: np.ndarray, readings: Mapping[int, Posterior]) -> None:
    """Set each seat read as greedy or as random (at least ``PLAY_AS`` sure) to play so in
    ``table``'s playouts. A seat read as searching plays as classic: its cards follow no model
    the playouts have, and classic play cost fewer points against IS-MCTS than random play.
    (Random seats are played at random only since searching players read as ``search``: while
    they read as random, playing random seats at random cost points against them.)"""
    for s, post in readings.items():
        if post[GREEDY] >= PLAY_AS:
            table[s, T_STYLE] = STYLE_GREEDY
        elif post[RANDOM] >= PLAY_AS:
            table[s, T_STYLE] = STYLE_RANDOM


class _Valuer:
    """Turns rollout results (tricks won per seat) into the seat's utility and call success."""

    def __init__(self, view: SeatView, rival_weight: float,
                 match_weight: float = MATCH_WIN_WEIGHT) -> None:
        seat = view.seat
        assert seat is not None
        rules = view.rules
        self.seat = seat
        self.partnership = rules.partnership
        self.rival_weight = rival_weight
        self.match_weight = match_weight
        self.rivals = [s for s in range(4) if s != seat and not (self.partnership and s % 2 == seat % 2)]
        calls = [c if c is not None else 0 for c in view.calls]
        # points[s][w]: seat s's deal points (its pair's, in partnership) with w tricks (pair's w).
        size = 2 * TRICKS + 1
        self.points = np.zeros((4, size), dtype=np.int64)
        self.success = np.zeros((4, size), dtype=bool)
        for s in range(4):
            call = calls[s] + (calls[(s + 2) % 4] if self.partnership else 0)
            for w in range(size):
                self.points[s, w] = deal_points(call, w, rules,
                                                blind=view.blind[s] and not self.partnership)
                self.success[s, w] = made(call, w, rules)
        deals = rules.deals
        self.tiebreak = view.tiebreak_seats
        self.last = bool(self.tiebreak) or (deals is not None and view.deal_number >= deals)
        self.totals = np.array(view.totals, dtype=np.int64)

    def of_points(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Utility and (as the value sees it) call success for the seat, from each seat's deal
        points in tenths, shaped (..., 4), as a value at a cut-off gives them (not on the last
        deal: the match's end needs the tricks)."""
        mine = points[..., self.seat]
        return mine - self.rival_weight * points[..., self.rivals].mean(axis=-1), mine > 0

    def of(self, won: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Utility and call success for the seat, for won arrays shaped (..., 4)."""
        if self.partnership:
            pair0 = won[..., 0] + won[..., 2]
            pair1 = won[..., 1] + won[..., 3]
            counted = np.stack([pair0, pair1, pair0, pair1], axis=-1)
        else:
            counted = won
        seats = np.arange(4)
        pts = self.points[seats, counted]  # (..., 4)
        mine = pts[..., self.seat]
        success = self.success[self.seat, counted[..., self.seat]]
        # Every player for themself, ranked by totals: a point an opponent loses is worth as
        # much as one the seat gains, so the deal is valued as the seat's points minus the
        # mean of its opponents' (in partnership: the pair's minus the other pair's).
        relative = mine - self.rival_weight * pts[..., self.rivals].mean(axis=-1)
        if not self.last:
            return relative, success
        if self.tiebreak:
            among = list(self.tiebreak)
            final = pts
        else:
            among = [0, 1, 2, 3]
            final = pts + self.totals
        others = [s for s in among if s != self.seat and not (self.partnership and s % 2 == self.seat % 2)]
        if self.seat not in among or not others:
            return mine.astype(float), success
        mine_final = final[..., self.seat]
        best_other = final[..., others].max(axis=-1)
        win = np.where(mine_final > best_other, 1.0, np.where(mine_final == best_other, 0.5, 0.0))
        return relative + self.match_weight * win, success


def _int(value: str | None, name: str) -> int | None:
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, got {value!r}") from None


def _float(value: str, name: str) -> float:
    try:
        return float(value)
    except ValueError:
        raise ValueError(f"{name} must be a number, got {value!r}") from None


@register("expert", kernel=True)  # a server makes the compiled kernel ready before it plays
def _expert(budget: str | None = None, samples: str | None = None, seed: str | None = None,
            backend: str | None = None, reps: str | None = None,
            call_bias: str | None = None, rival_weight: str | None = None,
            calls: str | None = None, call_spread: str | None = None,
            policy: str | None = None, noise: str | None = None,
            match_weight: str | None = None, infer: str | None = None,
            solve: str | None = None, infer_policy: str | None = None,
            evidence: str | None = None, opponents: str | None = None,
            settle: str | None = None, read: str | None = None,
            search_call_bias: str | None = None, prior: str | None = None,
            neural: str | None = None, network_moves: str | None = None,
            cutoff: str | None = None) -> ExpertBot:
    """Our strongest: plays each card out over many deals the others could hold."""
    seconds = None if budget is None else _float(budget, "budget")
    return ExpertBot(budget=seconds, samples=_int(samples, "samples"), seed=_int(seed, "seed"),
                     backend=backend, reps=_int(reps, "reps") or 2,
                     call_bias=CALL_BIAS if call_bias is None else _float(call_bias, "call_bias"),
                     rival_weight=RIVAL_WEIGHT if rival_weight is None else
                     _float(rival_weight, "rival_weight"),
                     calls=CALLS_DEFAULT if calls is None else calls,
                     call_spread=CALL_SPREAD if call_spread is None else
                     _float(call_spread, "call_spread"),
                     policy=POLICY_DEFAULT if policy is None else policy,
                     noise=NOISE_DEFAULT if noise is None else _int(noise, "noise") or 0,
                     match_weight=MATCH_WIN_WEIGHT if match_weight is None else
                     _float(match_weight, "match_weight"),
                     infer=INFER_DEFAULT if infer is None else _float(infer, "infer"),
                     solve=SOLVE_DEFAULT if solve is None else _int(solve, "solve") or 0,
                     infer_policy=INFER_MODEL_DEFAULT if infer_policy is None else infer_policy,
                     evidence=evidence or "count", opponents=opponents or OPPONENTS_DEFAULT,
                     settle=SETTLE_DEFAULT if settle is None else _float(settle, "settle"),
                     read=READ_DEFAULT if read is None else read,
                     search_call_bias=SEARCH_CALL_BIAS if search_call_bias is None else
                     _float(search_call_bias, "search_call_bias"),
                     prior=0.0 if prior is None else _float(prior, "prior"),
                     neural=0.0 if neural is None else _float(neural, "neural"),
                     network_moves=_int(network_moves, "network_moves") or 0,
                     cutoff=_int(cutoff, "cutoff") or 0)
