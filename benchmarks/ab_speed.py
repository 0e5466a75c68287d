"""Engine and kernel speed of this tree against an earlier commit, in one run (an A/B).

Each round runs the same measurements in a fresh process for each tree, alternating which goes
first, so load on the shared machine falls on both alike:

- ``engine``: random one-deal Call Break matches through the public API (``benchmarks/
  engine_speed.py``'s loop: deal, four calls, 52 cards, every action verified), deals per second
  of process CPU time;
- ``kernel random`` / ``kernel heuristic``: the numba simulation kernel's random deals with the
  random and the heuristic rollout policy (``benchmarks/kernel_speed.py``'s loop), deals/s;
- ``donut`` / ``batak-koz-maca (related engine)``: random deals of two related games through
  the public API (new game, chance deals, random legal actions), deals/s;
- ``arena, random bots`` / ``arena, heuristic bots``: whole Call Break matches refereed by the
  arena (``play_match``: each seat asked, timed and judged), deals/s.

The earlier tree is a detached ``git worktree`` of ``--base`` in a temporary folder (removed at
the end); the later one is this working tree, or with ``--this`` a worktree of that commit too
(so edits made in the checkout while the run goes on do not enter it). Both trees' kernels are
compiled (or loaded from numba's cache) before round 1. The report gives each tree's median, the
median of the per-round ratios (this tree / base) and a 95% interval of that ratio from the
paired rounds (the arena's t interval on the log ratios).

Run (about 2 minutes)::

    .venv/bin/python benchmarks/ab_speed.py --base 4278c60 --rounds 9
    .venv/bin/python benchmarks/ab_speed.py --base 43fc602 --this HEAD --rounds 15
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from callbreak.arena.stats import mean_ci

ROOT = Path(__file__).resolve().parent.parent

# Run inside each tree: the benchmark modules' own loops, so both trees are timed by the same code
# as it stood in that tree.
_PROBE = r"""
import json, sys
sys.path[:0] = [{src!r}, {bench!r}]
import engine_speed, kernel_speed
from callbreak.bots.kernel import POLICY_HEURISTIC, POLICY_RANDOM, get_kernel
get_kernel("numba").warm_up()
engine_speed.ours(0.2)
seconds = {seconds!r}


def related(name, seconds, seed):
    # A related game's random deals through the public API, as its search bot's playouts use
    # it: deals per second of CPU time, a new game whenever one ends.
    import random, time
    from callbreak.games import CHANCE, game_info, new_game
    dealer, rng = game_info(name).dealer(seed), random.Random(seed)
    deals, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        game = new_game(name)
        while not game.is_over:
            game.apply(dealer.chance(game) if game.to_act == CHANCE else rng.choice(game.legal_actions()))
        deals += len(game.results)
    return deals / (time.process_time() - start)


def arena(bot, seconds, seed):
    # Whole matches refereed by the arena (play_match: the seats asked, timed and judged, every
    # action verified and applied), deals per second of CPU time.
    import time
    from callbreak.arena import play_match
    from callbreak.bots import make_bot
    from callbreak.core import make_rules
    rules, deals, start, n = make_rules("callbreak"), 0, time.process_time(), 0
    while time.process_time() - start < seconds:
        out = play_match(rules, [make_bot(bot, seed=s) for s in range(4)], seed=seed * 1000 + n)
        deals, n = deals + len(out.match.results), n + 1
    return deals / (time.process_time() - start)


out = {{
    "engine": engine_speed.ours(seconds, {seed}),
    "donut (related engine)": related("donut", seconds, {seed}),
    "batak-koz-maca (related engine)": related("batak-koz-maca", seconds, {seed}),
    "kernel random": kernel_speed.kernel_rate("numba", POLICY_RANDOM, 20000)(seconds, {seed}),
    "kernel heuristic": kernel_speed.kernel_rate("numba", POLICY_HEURISTIC, 10000)(seconds, {seed}),
    "arena, random bots": arena("random", seconds, {seed}),
    "arena, heuristic bots": arena("heuristic", seconds, {seed}),
}}
print(json.dumps(out))
"""


def measure(tree: Path, seconds: float, seed: int) -> dict[str, float]:
    code = _PROBE.format(src=str(tree / "src"), bench=str(tree / "benchmarks"), seconds=seconds, seed=seed)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=tree)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the earlier commit (any git revision)")
    parser.add_argument("--this", default=None,
                        help="the later commit (default: this working tree, uncommitted changes included)")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=1.0, help="per measurement per round")
    args = parser.parse_args()
    if args.rounds < 2 or args.seconds <= 0:
        parser.error("--rounds must be at least 2 and --seconds positive")
    rev = subprocess.run(["git", "rev-parse", "--short", args.base], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.strip()
    head = subprocess.run(["git", "rev-parse", "--short", args.this or "HEAD"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="ab-speed-") as tmp:
        worktrees = {"base": (Path(tmp) / "base", rev)}
        if args.this is not None:
            worktrees["this"] = (Path(tmp) / "this", head)
        for tree, commit in worktrees.values():
            subprocess.run(["git", "worktree", "add", "--detach", str(tree), commit], cwd=ROOT,
                           check=True, capture_output=True)
        try:
            trees = {"base": worktrees["base"][0], "this": worktrees.get("this", (ROOT, ""))[0]}
            for tree in trees.values():  # compile or load both kernels before timing anything
                measure(tree, 0.05, 0)
            rates: dict[str, dict[str, list[float]]] = {"base": {}, "this": {}}
            for r in range(args.rounds):
                order = ("base", "this") if r % 2 == 0 else ("this", "base")
                for name in order:
                    for key, value in measure(trees[name], args.seconds, r + 1).items():
                        rates[name].setdefault(key, []).append(value)
                print(f"round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
        finally:
            for tree, _ in worktrees.values():
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                               capture_output=True)
    what = head if args.this is not None else f"{head}, with uncommitted changes if any"
    print(f"A/B: this tree ({what}) against {rev}; "
          f"{args.rounds} paired rounds of {args.seconds:g} s each")
    print("| measurement | base deals/s (median) | this deals/s (median) | ratio this/base (median) | 95% interval |")
    print("|---|---|---|---|---|")
    for key in rates["base"]:
        b, t = rates["base"][key], rates["this"][key]
        _, low, high = mean_ci([math.log(x / y) for x, y in zip(t, b, strict=True)])
        assert low is not None and high is not None  # two or more rounds
        ratio = statistics.median(x / y for x, y in zip(t, b, strict=True))
        print(f"| {key} | {statistics.median(b):,.0f} | {statistics.median(t):,.0f} | {ratio:.3f} | "
              f"[{math.exp(low):.3f}, {math.exp(high):.3f}] |")


if __name__ == "__main__":
    main()
