"""Random full deals per second through the public API, against OpenSpiel's Spades from Python.

One "deal" is what a game engine has to do for one hand of the game: the deal (a chance step),
four calls and 52 cards, every decision chosen at random among the legal actions the engine
lists, every action verified by ``apply`` before it changes anything. Single process.

Ours: a one-deal ``Match`` per deal (``callbreak`` preset, first dealer seat 0), the deal from
``Dealer``, then ``random.choice(match.legal_actions())`` applied until the deal is scored.

Reference: OpenSpiel's ``spades`` (one hand per game: 52 chance steps, 4 bids, 52 cards),
``random.choice(state.legal_actions())`` applied until terminal, from Python via ``pyspiel``.

Run (takes about 30 s)::

    .venv/bin/python benchmarks/engine_speed.py            # 5 rounds of ~2 s each, medians
    .venv/bin/python benchmarks/engine_speed.py --rounds 3 --seconds 1
    .venv/bin/python benchmarks/engine_speed.py --profile  # cProfile of our loop instead

Rates are deals per second of this process's CPU time (``time.process_time``), so that other
work on a shared machine slows neither engine's figure; rounds alternate between the engines.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from callbreak.core import Match, make_rules
from callbreak.core.dealing import Dealer
from callbreak.core.game import Phase


def ours(seconds: float, seed: int = 1) -> float:
    """Deals per second of our engine."""
    rules = make_rules("callbreak", deals=1, first_dealer="seat_0")
    dealer = Dealer(seed)
    rng = random.Random(seed)
    choice = rng.choice
    deals = 0
    start = time.process_time()
    end = start + seconds
    while True:
        m = Match(rules)
        m.apply(dealer.deal())
        while m.phase is not Phase.OVER:
            m.apply(choice(m.legal_actions()))
        deals += 1
        if deals % 16 == 0 and time.process_time() >= end:
            break
    return deals / (time.process_time() - start)


def openspiel(seconds: float, seed: int = 1) -> float | None:
    """Deals per second of OpenSpiel's Spades driven from Python (None if not installed)."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    rng = random.Random(seed)
    choice = rng.choice
    deals = 0
    start = time.process_time()
    end = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
        deals += 1
        if deals % 16 == 0 and time.process_time() >= end:
            break
    return deals / (time.process_time() - start)


def profile(seconds: float) -> None:
    import cProfile
    import pstats

    cProfile.runctx("ours(seconds)", globals(), {"ours": ours, "seconds": seconds}, "/tmp/engine_speed.prof")
    pstats.Stats("/tmp/engine_speed.prof").sort_stats("tottime").print_stats(18)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per engine per round")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if args.profile:
        profile(args.seconds)
        return
    runs: dict[str, list[float]] = {"ours": [], "openspiel": []}
    engines: dict[str, Callable[[float, int], float | None]] = {"ours": ours, "openspiel": openspiel}
    ours(0.3)  # warm up (and fill caches)
    for r in range(args.rounds):
        for name, run in engines.items():
            rate = run(args.seconds, r + 1)
            if rate is not None:
                runs[name].append(rate)
                print(f"round {r + 1}: {name:9} {rate:8.0f} deals/s", flush=True)
    med_ours = statistics.median(runs["ours"])
    print(f"\nours (pure Python, public API, verified): median {med_ours:.0f} deals/s")
    if runs["openspiel"]:
        med_os = statistics.median(runs["openspiel"])
        print(f"OpenSpiel spades from Python:            median {med_os:.0f} deals/s")
        print(f"ratio ours / OpenSpiel:                  {med_ours / med_os:.2f}")
    else:
        print("OpenSpiel is not installed (pip install open_spiel): no reference measured")


if __name__ == "__main__":
    main()
