"""Learn to call in Call Break on the batched environment, then measure it in the arena.

What learns: a linear model of the tricks a hand takes (52 card indicators, four suit lengths and
a bias; ridge regression in numpy), and from it the call with the best expected deal score
(the tricks taken are treated as normally spread around the prediction, with the spread of the
residuals). Card play is a fixed rule, the same in training and in the arena: play the highest
legal card (a trump counting above any other suit). Training plays ``--iterations`` rounds on a
:class:`~callbreak.env.vector.VectorEnv` of ``--tables`` tables with every seat using the current
model (calls a random legal call with probability ``--explore``), refits on every deal seen so
far, and after each round measures the model (greedy calls, no exploration) over one deal per
table: its mean deal score is the learning curve, drawn to ``--plot`` (by default a file in the
system's temporary folder, so a run leaves nothing in the clone).

Then the arena (duplicate deals, the interval shown is its 95% interval of the mean score per
deal) seats the learned player against ``random`` and against ``beginner``, and seats the
untrained model (every call the lowest) on the very same deals, so the difference the training
made is measured paired, deal set by deal set, with its own 95% interval.

Run (well under a minute on 2 cores)::

    .venv/bin/python examples/train_call_model.py
    .venv/bin/python examples/train_call_model.py --preset bhoos-tournament --plot curve.png
"""

from __future__ import annotations

import argparse
import math
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from callbreak.arena import ArenaPlan, ArenaReport, run_arena, sets_for
from callbreak.arena.stats import mean_ci
from callbreak.bots import Decision, register
from callbreak.core.actions import Call, Look, Play
from callbreak.core.rules import make_rules
from callbreak.core.scoring import deal_points
from callbreak.env.vector import VectorEnv
from callbreak.games.spaces import CALL0

RANK_SCORE = np.array([c % 13 + (13 if c // 13 == 0 else 0) for c in range(52)], dtype=np.float64)


def features(hands: np.ndarray) -> np.ndarray:
    """(n, 52) card indicators -> (n, 57) features: the cards, the suit lengths, a bias."""
    lengths = hands.reshape(-1, 4, 13).sum(axis=2)
    return np.hstack([hands, lengths, np.ones((len(hands), 1))])


class CallModel:
    """Predicted tricks from a hand, and the call with the best expected score."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.w = np.zeros(57)
        self.sigma = 2.0
        calls = np.arange(14)
        won = np.arange(14)
        # points[c, w]: deal score (points) of calling c and taking w tricks
        self.points = np.array([[deal_points(int(c), int(w), rules) / 10 if c else 0.0 for w in won]
                                for c in calls])
        self.allowed = (calls >= rules.min_call) & (calls <= rules.max_call)

    def fit(self, x: np.ndarray, y: np.ndarray, ridge: float = 1.0) -> None:
        a = x.T @ x + ridge * np.eye(x.shape[1])
        self.w = np.linalg.solve(a, x.T @ y)
        self.sigma = max(0.5, float(np.sqrt(np.mean((x @ self.w - y) ** 2))))

    def best_calls(self, hands: np.ndarray) -> np.ndarray:
        pred = features(hands) @ self.w
        won = np.arange(14)
        z = (won[None, :] - pred[:, None]) / self.sigma
        p = np.exp(-0.5 * z * z)
        p /= p.sum(axis=1, keepdims=True)
        expected = p @ self.points.T  # (n, calls)
        expected[:, ~self.allowed] = -np.inf
        return np.argmax(expected, axis=1)


def play_ids(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The highest legal card at every table (the fixed card rule)."""
    score = np.where(mask[:, :52] == 1, RANK_SCORE[None, :] + 1.0, 0.0)
    return np.argmax(score, axis=1)


def run_round(env: VectorEnv, model: CallModel, rng: np.random.Generator, explore: float,
              deals: int) -> tuple[list[np.ndarray], list[np.ndarray], float]:
    """Play until ``deals`` deals are scored at every table on average; returns the hands at
    call time, the tricks they took, and the mean deal score per seat."""
    t = env.num_tables
    hand_at_call = np.zeros((t, 4, 52))
    won = np.zeros((t, 4))
    xs, ys, scores = [], [], []
    obs, mask = env.obs, env.mask
    scored = 0
    while scored < deals * t:
        seat = env.to_act.copy()
        calling = mask[:, CALL0:CALL0 + 14].any(axis=1)
        actions = play_ids(obs, mask)
        if calling.any():
            rows = np.flatnonzero(calling)
            hands = obs[rows, :52]
            hand_at_call[rows, seat[rows]] = hands
            calls = model.best_calls(hands)
            legal = mask[rows, CALL0:CALL0 + 14] == 1
            randomize = rng.random(len(rows)) < explore
            noise = np.argmax(np.where(legal, rng.random(legal.shape) + 1, 0), axis=1)
            calls = np.where(randomize, noise, calls)
            calls = np.where(legal[np.arange(len(rows)), calls], calls, np.argmax(legal, axis=1))
            actions[rows] = CALL0 + calls
        step = env.step(actions)
        winners = env.trick_winner
        took = winners >= 0
        won[np.flatnonzero(took), winners[took]] += 1
        ended = np.flatnonzero(np.abs(step.rewards).sum(axis=1) > 0)
        if len(ended):
            xs.append(features(hand_at_call[ended].reshape(-1, 52)))
            ys.append(won[ended].reshape(-1))
            scores.append(step.rewards[ended].reshape(-1))
            won[ended] = 0
            scored += len(ended)
        obs, mask = step.obs, step.mask
    return xs, ys, float(np.concatenate(scores).mean())


# --- the learned player, seated in the arena ------------------------------------------------------

_MODELS: dict[str, CallModel] = {}


class LearnedCaller:
    """Calls with the learned model, plays the highest legal card."""

    def __init__(self, model: str, seed: str | None = None) -> None:
        self.name = "learned-caller"
        self.model = _MODELS[model]

    def decide(self, view: Any, budget: float) -> Decision:
        legal = view.legal
        looks = [a for a in legal if isinstance(a, Look)]
        if looks:
            return Decision(looks[0], "look first")
        calls = [a for a in legal if isinstance(a, Call) and not a.blind]
        if calls:
            hand = np.zeros((1, 52))
            for c in view.hand or ():
                hand[0, c] = 1
            want = int(self.model.best_calls(hand)[0])
            best = min(calls, key=lambda a: abs(a.tricks - want))
            return Decision(best, f"the model calls {want}")
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            return Decision(max(plays, key=lambda a: RANK_SCORE[a.card]), "the highest card")
        return Decision(legal[0], "the only kind of action")


@register("learned-caller")
def _learned(model: str = "default", seed: str | None = None) -> LearnedCaller:
    return LearnedCaller(model, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="callbreak")
    parser.add_argument("--tables", type=int, default=64, help="training tables")
    parser.add_argument("--eval-tables", type=int, default=2048, help="tables measuring each round")
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--explore", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deals", type=int, default=2000, help="arena deals per opponent")
    parser.add_argument("--plot", type=Path,
                        default=Path(tempfile.gettempdir()) / "callbreak-learning-curve.png",
                        help="where to draw the learning curve (default: the temporary folder)")
    args = parser.parse_args()
    start = time.perf_counter()
    rules = make_rules(args.preset)
    env = VectorEnv(num_tables=args.tables, preset=args.preset, seed=args.seed)
    test = VectorEnv(num_tables=args.eval_tables, preset=args.preset, seed=args.seed + 1)
    env.reset()
    model = CallModel(rules)
    rng = np.random.default_rng(args.seed)
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    curve: list[tuple[int, float]] = []
    test.reset()
    _, _, base = run_round(test, model, rng, 0.0, 1)
    curve.append((0, base))
    print(f"before training: {base:+.3f} points a deal (every seat calls {rules.min_call})")
    for i in range(args.iterations):
        x, y, _ = run_round(env, model, rng, args.explore, 1)
        xs += x
        ys += y
        model.fit(np.concatenate(xs), np.concatenate(ys))
        _, _, score = run_round(test, model, rng, 0.0, 1)
        seen = sum(len(v) for v in ys)
        curve.append((seen, score))
        print(f"round {i + 1:3d}: {seen:8,d} seat-deals seen, fit rms {model.sigma:.2f} tricks, "
              f"greedy calls score {score:+.3f} points a deal")
    print(f"training took {time.perf_counter() - start:.1f} s")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot([c[0] for c in curve], [c[1] for c in curve], marker="o")
    ax.set_xlabel("seat-deals of training data")
    ax.set_ylabel("mean points a deal (self-play)")
    ax.set_title(f"Learning to call ({args.preset}, VectorEnv, {args.tables} tables)")
    ax.set_xscale("symlog", linthresh=256)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.plot, dpi=120)
    print(f"learning curve: {args.plot}")

    _MODELS["default"] = model
    _MODELS["untrained"] = CallModel(rules)  # never fitted: every call the lowest
    for opponent in ("random", "beginner"):
        trained = _arena("learned-caller", opponent, rules, args)
        untrained = _arena("learned-caller:model=untrained", opponent, rules, args)
        for p in trained.players:
            lo, hi = p.ci95
            ci = "" if lo is None or hi is None or math.isnan(lo) else f" [{lo:+.2f}, {hi:+.2f}]"
            print(f"arena vs {opponent:8s}: {p.name:15s} {p.mean_score_per_deal:+.2f}{ci} points a "
                  f"deal, wins {p.match_win_rate:.0%} of matches ({p.seat_deals} seat-deals)")
        before = untrained.players[0].mean_score_per_deal
        diffs = [a - b for a, b in zip(_set_means(trained), _set_means(untrained), strict=True)]
        gain, lo, hi = mean_ci(diffs)
        print(f"arena vs {opponent:8s}: untrained (calls {rules.min_call}) {before:+.2f} points a deal "
              f"on the same deals; training gained {gain:+.2f} [{lo:+.2f}, {hi:+.2f}] "
              f"(paired over {len(diffs)} duplicate sets)")
    print(f"total {time.perf_counter() - start:.1f} s")


def _arena(player: str, opponent: str, rules: Any, args: argparse.Namespace) -> ArenaReport:
    """``player`` against three ``opponent`` seats, in duplicate, on the deals of ``args.seed``."""
    plan = ArenaPlan((player, opponent), rules, args.seed, 1)
    sets = sets_for(2, plan.deals_per_match, deals=args.deals)
    plan = ArenaPlan((player, opponent), rules, args.seed, sets, names=("learned-caller", opponent))
    return run_arena(plan, preset=args.preset, workers=1)


def _set_means(report: ArenaReport) -> list[float]:
    """The first player's mean points a deal in each duplicate set (the unit of pairing)."""
    out = []
    for s in report.sets:
        points = deals = 0
        for t in s.tables:
            for seat, p in enumerate(t.seat_players):
                if p == 0:
                    points += sum(d[seat] for d in t.points)
                    deals += len(t.points)
        out.append(points / 10 / deals)
    return out


if __name__ == "__main__":
    main()
