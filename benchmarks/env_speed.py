"""Agent steps per second of the research environments, all in one run (issue 17).

Contenders (single thread, one process; an "agent step" is one action by a seat, chance steps not
counted; each step produces the next seat's observation and legal-action mask):

- ``VectorEnv`` (numba): 1,024 Call Break tables stepped per call, random legal actions drawn
  by the compiled sampler; also timed without the sampler (the environment alone);
- the PettingZoo AEC environment (``callbreak.env.make("callbreak")``): ``env.last()`` (the
  observation dict with its mask) and ``env.step`` with a random legal action;
- the OpenSpiel Python game ``python_callbreak`` through pyspiel, observation tensor and mask;
- the reference: OpenSpiel's C++ Spades (``pyspiel.load_game("spades")``) stepped from Python,
  bare (``legal_actions`` + ``apply_action``) and with ``observation_tensor`` and
  ``legal_actions_mask`` each step.

Run (about a minute)::

    .venv/bin/python benchmarks/env_speed.py               # 3 rounds, medians
    .venv/bin/python benchmarks/env_speed.py --rounds 5 --seconds 2
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np


def vector_rate(sample: bool, tables: int = 1024) -> Callable[[float, int], float]:
    from callbreak.env.vector import VectorEnv

    def run(seconds: float, seed: int) -> float:
        env = VectorEnv(num_tables=tables, seed=seed)
        env.reset()
        actions = env.sample_actions(seed)
        env.step(actions)
        steps = 0
        spent = 0.0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            if sample:
                env.step(env.sample_actions(seed + steps))
            else:
                actions = env.sample_actions(seed + steps)
                t0 = time.perf_counter()
                env.step(actions)
                spent += time.perf_counter() - t0
            steps += tables
        elapsed = time.perf_counter() - start
        return steps / (elapsed if sample else spent)

    return run


def pettingzoo_rate(seconds: float, seed: int) -> float:
    import callbreak.env as cenv

    env = cenv.make("callbreak")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.reset(seed=seed + steps)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps / (time.perf_counter() - start)


def pyspiel_rate(name: str, params: dict[str, object], observe: bool) -> Callable[[float, int], float]:
    def run(seconds: float, seed: int) -> float:
        import pyspiel

        if name.startswith("python_"):
            import callbreak.env.openspiel  # noqa: F401  (registers the games)
        game = pyspiel.load_game(name, params)
        rng = random.Random(seed)
        steps = 0
        state = game.new_initial_state()
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            if state.is_terminal():
                state = game.new_initial_state()
            elif state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choice(outcomes)[0])
            else:
                if observe:
                    state.observation_tensor()
                    state.legal_actions_mask()
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps / (time.perf_counter() - start)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0, help="per contender per round")
    args = parser.parse_args()
    start = time.perf_counter()
    vector_rate(True, 8)(0.01, 1)  # compile (or load the numba cache) before timing
    warm = time.perf_counter() - start
    contenders: dict[str, Callable[[float, int], float]] = {
        "VectorEnv, 1,024 tables, obs + mask, random policy (compiled)": vector_rate(True),
        "VectorEnv, 1,024 tables, obs + mask, step() alone": vector_rate(False),
        "PettingZoo AEC env (callbreak), obs + mask": pettingzoo_rate,
        "OpenSpiel python_callbreak via pyspiel, obs + mask": pyspiel_rate(
            "python_callbreak", {}, True),
        "OpenSpiel C++ spades via pyspiel, bare": pyspiel_rate("spades", {}, False),
        "OpenSpiel C++ spades via pyspiel, obs + mask": pyspiel_rate("spades", {}, True),
    }
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    for r in range(args.rounds):
        for name, fn in contenders.items():
            rates[name].append(fn(args.seconds, 1000 * r + 1))
    ref = statistics.median(rates["OpenSpiel C++ spades via pyspiel, obs + mask"])
    print(f"numba warm-up (compile or cache load): {warm:.2f} s")
    print(f"{args.rounds} rounds x {args.seconds:g} s each; medians; agent steps per second, one core")
    print("| contender | agent steps/s (median) | min | max | x spades obs+mask |")
    print("|---|---|---|---|---|")
    for name, values in rates.items():
        med = statistics.median(values)
        print(f"| {name} | {med:,.0f} | {min(values):,.0f} | {max(values):,.0f} | {med / ref:,.2f}x |")


if __name__ == "__main__":
    main()
