"""The deal's time through the bot-tournament protocol: how much of ``timeBudget`` a bot-server
uses, how often a seat runs out, and how long each decision takes against what it was given.

Reproduce (as recorded in RESULTS.md):

    PYTHONPATH=src .venv/bin/python benchmarks/deal_time.py --deals 40 --load 1
    # the expert before the time plan (commit e14aa58), same deals:
    git worktree add /tmp/base-e14aa58 e14aa58
    PYTHONPATH=src .venv/bin/python benchmarks/deal_time.py --deals 40 --load 1 \
        --server-src /tmp/base-e14aa58/src

A real ``callbreak bot-server`` process serves ``--bot`` at all four seats. This script is the
referee with the public tournament's clock: every seat has ``--deal-ms`` (1,500) for each deal,
each request's ``timeBudget`` is what that seat has left, and the clock runs on the wall time the
referee waits for each answer (so the network and queueing count). A seat whose answers took
longer than the deal's budget in total ran over. ``--load N`` starts N busy processes beside the
server (ours, stopped by their ids at the end) so the machine is loaded beyond what else runs.

Reported: the share of the deal's budget used (mean, lowest), overruns, and per request the wall
time, and its excess over the time the server plans for it, answer included (this worktree's
:func:`~callbreak.protocol.server.allotment`; meaningful for a server running this plan).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from callbreak.core import CHANCE, Dealer, Match, make_rules
from callbreak.protocol import wait_until_ready
from callbreak.protocol.server import allotment
from callbreak.protocol.wire import action_from_answer, kind_for, request_from_view

RULES = make_rules("bhoos-tournament")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def bot_server(spec: str, src: str | None) -> Iterator[str]:
    """A ``callbreak bot-server`` subprocess serving ``spec`` (from ``src`` if given); its URL."""
    port = _free_port()
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src
    proc = subprocess.Popen([sys.executable, "-m", "callbreak.cli.main", "bot-server", "--bot", spec,
                             "--port", str(port)], stderr=subprocess.DEVNULL, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(url, timeout=180)  # a cold numba cache compiles first
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _busy() -> None:
    while True:
        pass


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(url: str, deals: int, deal_ms: float, seed: int) -> dict[str, float]:
    used: list[float] = []  # per seat and deal, the share of the budget used
    wall_ms: list[float] = []
    excess_ms: list[float] = []  # wall time minus the time planned for the decision
    overruns = 0
    with httpx.Client(timeout=30) as http:
        match, played, number = Match(RULES), 0, 0
        dealer = Dealer(seed)
        spent = [0.0] * 4
        while played < deals:
            if match.is_over:
                match, number = Match(RULES), 0
            seat = match.to_act
            if seat == CHANCE:
                match.apply(dealer.chance(match))
                continue
            assert seat is not None
            if match.deal_number != number:  # a new deal: every seat's clock starts again
                number, spent = match.deal_number, [0.0] * 4
            view = match.view(seat)
            kind = kind_for(view)
            left_ms = max(0.0, deal_ms - spent[seat] * 1000)
            body = request_from_view(view, time_budget_ms=left_ms)
            hand = len(view.hand or ())
            decisions = hand + 1 if kind == "bid" else hand
            planned = allotment(left_ms, decisions, bid=kind == "bid",
                                   forced=len(view.legal) == 1)
            start = time.perf_counter()
            r = http.post(f"{url}/{kind}", json=body)
            seconds = time.perf_counter() - start
            r.raise_for_status()
            match.apply(action_from_answer(view, r.json()))
            spent[seat] += seconds
            wall_ms.append(seconds * 1000)
            excess_ms.append((seconds - planned) * 1000)
            if kind == "play" and hand == 1 and seat == (view.leader + 3) % 4:  # the deal's last card
                for s in range(4):
                    used.append(spent[s] * 1000 / deal_ms)
                    overruns += spent[s] * 1000 > deal_ms
                played += 1
    return {"seat_deals": len(used), "used_mean": statistics.mean(used), "used_min": min(used),
            "used_max": max(used), "overruns": overruns, "requests": len(wall_ms),
            "wall_median": statistics.median(wall_ms), "wall_p99": _percentile(wall_ms, 0.99),
            "excess_p99": _percentile(excess_ms, 0.99), "excess_max": max(excess_ms)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--deal-ms", type=float, default=1500.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--load", type=int, default=0, help="busy processes started beside it")
    parser.add_argument("--server-src", default=None,
                        help="PYTHONPATH for the bot-server (another checkout's src)")
    args = parser.parse_args()
    busy = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(args.load)]
    for p in busy:
        p.start()
    try:
        with bot_server(args.bot, args.server_src) as url:
            out = run(url, args.deals, args.deal_ms, args.seed)
    finally:
        for p in busy:
            p.terminate()
            p.join()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, load {args.load}, "
          f"server src {args.server_src or 'this checkout'}, bot {args.bot}, "
          f"{args.deal_ms:g} ms a deal")
    print("| seat-deals | used mean | used min | used max | overruns | requests | median ms "
          "| p99 ms | p99 over plan ms | max over plan ms |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    print(f"| {out['seat_deals']} | {out['used_mean']:.0%} | {out['used_min']:.0%} | "
          f"{out['used_max']:.0%} | {out['overruns']} | {out['requests']} | "
          f"{out['wall_median']:.0f} | {out['wall_p99']:.0f} | {out['excess_p99']:+.0f} | "
          f"{out['excess_max']:+.0f} |")


if __name__ == "__main__":
    main()
