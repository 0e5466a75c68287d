"""What the network costs inside the expert's search, against the kernel work it would replace.

For each of a few mid-deal positions (heuristic bots playing the ``callbreak`` preset, the
position at the first seat's turn after ``--tricks`` tricks), in one process on one core (run it
with ``OPENBLAS_NUM_THREADS=1``: on a busy machine a second BLAS thread makes a small matrix
product wait for a core, 0.2 ms becoming 20 ms):

* the kernel: the expert's playouts of every legal card in one sampled deal (``reps`` 2, the
  others classic players), per sampled deal, per playout and per card played in them;
* the network: one forward pass (policy and value heads) per position encoded, in batches of 1,
  32 and 1,024;
* the reading by the network (``expert:neural``): the others' earlier moves rebuilt in each
  sampled deal and passed through the network, per sampled deal;
* how peaked the reading's weights are: the effective number of sampled deals (``(sum w)^2 /
  sum w^2``) out of ``--worlds``, with the calls' weights alone (the sampler's) and times the network's likelihood
  raised to T, and where the real deal's likelihood falls among the sampled deals' (its
  percentile: above 50 means the network finds the real cards likelier than most samples).

From these: a value at a cut-off (the network valuing each card's position after the current
trick, in each sampled deal) costs at least one pass per card and deal (four to value every
seat, as the search's margin over the rivals needs), and a network playout policy one pass per
card played::

    OPENBLAS_NUM_THREADS=1 PYTHONPATH=src .venv/bin/python benchmarks/expert_network_cost.py
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

from callbreak.bots import make_bot
from callbreak.bots.heuristic import classic_table
from callbreak.bots.kernel import POLICY_HEURISTIC, get_kernel, options_array, position_of
from callbreak.bots.kernel_sampling import WorldSampler
from callbreak.bots.neural import BASE, shipped
from callbreak.bots.neural_reading import log_likelihoods, past_moves
from callbreak.core import CHANCE, Match, Phase, Play, SeatView
from callbreak.games import game_info, new_game
from callbreak.games.spaces import CALLBREAK_ACTIONS

TEMPERS = (1.0, 0.5, 0.2, 0.1)


def positions(count: int, tricks: int) -> list[tuple[SeatView, np.ndarray]]:
    """Seat 0's view after ``tricks`` tricks, in ``count`` deals, and the real hands then (1, 4)."""
    out = []
    bot = make_bot("heuristic", seed=1)
    for d in range(count):
        game = new_game("callbreak", preset="callbreak", deals=1)
        chance = game_info("callbreak").dealer(d)
        while not game.is_over:
            if game.to_act == CHANCE:
                game.apply(chance.chance(game))
                continue
            view = game.view(game.to_act)
            if view.phase is Phase.PLAY and game.to_act == 0 and len(view.tricks) >= tricks:
                out.append((view, real_hands(game)))
                break
            game.apply(bot.decide(view, 1.0).action)
    return out


def real_hands(game: Match) -> np.ndarray:
    return np.array([[sum(1 << int(c) for c in game.view(s).hand or ()) for s in range(4)]], dtype=np.int64)


def effective(weights: np.ndarray) -> float:
    return float(weights.sum() ** 2 / (weights * weights).sum())


def timed(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    """The median CPU seconds (this thread's) of ``repeat`` calls: a busy machine's waits left out."""
    times = []
    for _ in range(repeat):
        t = time.thread_time()
        fn()
        times.append(time.thread_time() - t)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--deals", type=int, default=6)
    p.add_argument("--worlds", type=int, default=256)
    args = p.parse_args(argv)
    kernel = get_kernel()
    kernel.warm_up()
    net = shipped()
    rng = random.Random(1)
    peaks = []
    for tricks in (1, 4, 8):
        rows = []
        for view, real in positions(args.deals, tricks):
            sampler = WorldSampler(view, kernel)
            worlds, today = sampler.draw(args.worlds, rng)
            pos = position_of(view)
            opts = options_array(view.rules)
            cands = np.array([int(a.card) for a in view.legal if isinstance(a, Play)], dtype=np.int64)
            out = np.zeros((len(worlds), len(cands), 2, 4), dtype=np.int64)
            table = classic_table(view)

            def playouts() -> None:
                kernel.classic_evaluate(worlds, pos.trick, pos.state, pos.won, opts, cands, 2,  # noqa: B023
                                        POLICY_HEURISTIC, 1, 0, table, out)  # noqa: B023

            kernel_s = timed(playouts, 5) / len(worlds)
            cards_left = 52 - 4 * len(view.tricks) - len(view.trick)
            past = past_moves(view, net.scale)
            reading_s = timed(lambda: log_likelihoods(net, past, worlds, kernel, opts), 5) / len(worlds)  # noqa: B023
            like = log_likelihoods(net, past, worlds, kernel, opts)
            mine = log_likelihoods(net, past, real, kernel, opts)[0]
            peaks.append((tricks, effective(today), *(effective(today * np.exp(t * (like - like.max())))
                                                     for t in TEMPERS), 100 * float((like < mine).mean())))
            rows.append((len(cands), kernel_s, kernel_s / (2 * len(cands)),
                         kernel_s / (2 * len(cands) * cards_left), len(past.seats), reading_s))
        mean = [statistics.fmean(r[i] for r in rows) for i in range(6)]
        if tricks == 1:
            print("| after tricks | legal cards | kernel us a deal | us a playout | us a card played "
                  "| others' moves read | network reading us a deal |")
            print("|---|---|---|---|---|---|---|")
        print(f"| {tricks} | {mean[0]:.1f} | {1e6 * mean[1]:.1f} | {1e6 * mean[2]:.2f} | {1e6 * mean[3]:.3f} "
              f"| {mean[4]:.0f} | {1e6 * mean[5]:.0f} |")
    print(f"\n| after tricks | effective deals of {args.worlds}: the calls' weights | "
          + " | ".join(f"with the network, T={t:g}" for t in TEMPERS) + " | the real deal's percentile |")
    print("|---" * (3 + len(TEMPERS)) + "|")
    for tricks in (1, 4, 8):
        mine = [p for p in peaks if p[0] == tricks]
        cols = [statistics.fmean(p[i] for p in mine) for i in range(1, 3 + len(TEMPERS))]
        print(f"| {tricks} | " + " | ".join(f"{c:.0f}" for c in cols) + " |")
    print("\n| batch | network us a position (forward pass) |")
    print("|---|---|")
    for batch in (1, 32, 1024):
        x = np.random.default_rng(1).random((batch, BASE), dtype=np.float32)
        mask = np.zeros((batch, CALLBREAK_ACTIONS), dtype=np.float32)
        mask[:, :13] = 1
        per = timed(lambda: net.forward(x, mask), 20) / batch  # noqa: B023
        print(f"| {batch} | {1e6 * per:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
