"""Bot-tournament protocol: request latency per bot level, and a strength match through it.

Reproduce (short run, as recorded in RESULTS.md):

    .venv/bin/python benchmarks/protocol_latency.py --deals 2 --matches 2

Longer run (2026-11-23, about 12 minutes on 2 shared cores):

    .venv/bin/python benchmarks/protocol_latency.py --deals 5 --matches 40

Part 1, latency: for each bot level a real ``callbreak bot-server`` process is started, and
``--deals`` deals are played with all four seats as :class:`RemoteBot` players, each decision
given ``--decision-ms`` (so ``timeBudget`` is that times the decisions the seat has left, as in
the tournament). Each request's wall time is measured at the client. The baseline, measured in
the same run on the same views, is the same bot deciding in-process with the budget the server
gives it: the ratio is what speaking HTTP costs.

Part 2, strength: ``--hero`` (default ``expert``) is served by a bot server and sits at one seat
through the protocol; the other three seats are local ``heuristic`` bots. Each match's deals are
played four times, the hero rotating through the seats (duplicate), so the cards cancel out.
The margin's 95% interval is over the sets' mean margins (a set's four matches share their cards),
and the hero's own request times in those matches are reported beside it.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

from callbreak.bots import Bot, available, make_bot
from callbreak.core import CHANCE, Dealer, Match, SeatView, make_rules
from callbreak.protocol import RemoteBot, wait_until_ready
from callbreak.protocol.client import deal_budget_ms
from callbreak.protocol.server import think_budget
from callbreak.protocol.wire import kind_for

RULES = make_rules("bhoos-tournament")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def bot_server(spec: str) -> Iterator[str]:
    """A ``callbreak bot-server`` subprocess serving ``spec``; yields its URL."""
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "callbreak.cli.main", "bot-server", "--bot", spec,
                             "--port", str(port)], stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(url, timeout=60)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _left(view: SeatView) -> int:
    return len(view.hand or ()) + (1 if kind_for(view) == "bid" else 0)


def latency(level: str, deals: int, decision_s: float) -> dict[str, float]:
    """Per-request wall time through the protocol, and the in-process baseline, in ms."""
    http_ms: list[float] = []
    local_ms: list[float] = []
    hi_ms: list[float] = []
    with bot_server(level) as url:
        remote = RemoteBot(url)
        local = make_bot(level, seed=1)
        for _ in range(100):
            start = time.perf_counter()
            remote.hello()
            hi_ms.append((time.perf_counter() - start) * 1000)
        for deal in range(deals):
            match = Match(RULES)
            dealer = Dealer(1000 + deal)
            while len(match.results) < 1:
                seat = match.to_act
                if seat == CHANCE:
                    match.apply(dealer.chance(match))
                    continue
                view = match.view(seat)
                start = time.perf_counter()
                action = remote.decide(view, decision_s).action
                http_ms.append((time.perf_counter() - start) * 1000)
                plan = {"bid": kind_for(view) == "bid", "forced": len(view.legal) == 1}
                budget = think_budget(deal_budget_ms(decision_s, _left(view), **plan), _left(view),
                                      **plan)
                start = time.perf_counter()
                local.decide(view, budget)
                local_ms.append((time.perf_counter() - start) * 1000)
                match.apply(action)
    return {
        "requests": len(http_ms),
        "median": statistics.median(http_ms), "p99": _percentile(http_ms, 0.99),
        "max": max(http_ms),
        "local_median": statistics.median(local_ms), "local_p99": _percentile(local_ms, 0.99),
        "hi_median": statistics.median(hi_ms),
    }


def _t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom."""
    try:
        from scipy.stats import t  # dev extra; the normal quantile is close from ~30 sets on
    except ImportError:
        return statistics.NormalDist().inv_cdf(0.975)
    return float(t.ppf(0.975, df))


def strength(hero: str, matches: int, decision_s: float) -> dict[str, float]:
    """Hero (through the protocol) against three local heuristic bots, duplicate seating.

    The four seatings of a set share their cards, so they are not independent: the interval is
    over the sets' mean margins (one number per set), not over single matches. The hero's
    request times are kept too: each is one decision under the tournament budget.
    """
    hero_scores: list[float] = []
    field_scores: list[float] = []
    set_margins: list[float] = []
    request_ms: list[float] = []
    wins = 0.0
    with bot_server(hero) as url:
        remote = RemoteBot(url)
        for m in range(matches):
            margins = []
            for hero_seat in range(4):
                players: list[Bot] = [make_bot("heuristic", seed=m * 4 + s) for s in range(4)]
                players[hero_seat] = remote
                match = Match(RULES)
                dealer = Dealer(5000 + m)  # the same cards for all four seatings
                while not match.is_over:
                    seat = match.to_act
                    if seat == CHANCE:
                        match.apply(dealer.chance(match))
                        continue
                    start = time.perf_counter()
                    action = players[seat].decide(match.view(seat), decision_s).action
                    if seat == hero_seat:
                        request_ms.append((time.perf_counter() - start) * 1000)
                    match.apply(action)
                hero_scores.append(match.totals[hero_seat] / 10)
                field_scores.append(sum(match.totals[s] for s in range(4) if s != hero_seat) / 30)
                margins.append(hero_scores[-1] - field_scores[-1])
                if hero_seat in match.winners:
                    wins += 1 / len(match.winners)
            set_margins.append(statistics.mean(margins))
    n = len(set_margins)
    half = _t95(n - 1) * statistics.stdev(set_margins) / n ** 0.5 if n > 1 else float("nan")
    return {"matches": len(hero_scores), "sets": n, "hero": statistics.mean(hero_scores),
            "field": statistics.mean(field_scores), "diff": statistics.mean(set_margins),
            "ci95": half, "win_rate": wins / len(hero_scores),
            "requests": len(request_ms), "req_median": statistics.median(request_ms),
            "req_p99": _percentile(request_ms, 0.99), "req_max": max(request_ms),
            "over_share": sum(ms > decision_s * 1000 for ms in request_ms)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2, help="deals per bot level for latency")
    parser.add_argument("--matches", type=int, default=2, help="duplicate match sets for strength (0: latency only)")
    parser.add_argument("--decision-ms", type=float, default=200.0,
                        help="budget per decision; timeBudget = this x decisions left in the deal")
    parser.add_argument("--hero", default="expert", help="the bot measured against heuristic")
    parser.add_argument("--levels", default=",".join(available()), help="bot levels to time")
    args = parser.parse_args()
    decision_s = args.decision_ms / 1000
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, decision budget "
          f"{args.decision_ms:g} ms (timeBudget {args.decision_ms * 14:g} ms at the start of a deal)")
    print("load average at start: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print()
    print("| bot | requests | median ms | p99 ms | max ms | in-process median ms | in-process p99 ms "
          "| GET /hi median ms | median / GET /hi |")
    print("|---|---|---|---|---|---|---|---|---|")
    for level in args.levels.split(","):
        r = latency(level, args.deals, decision_s)
        ratio = r["median"] / r["hi_median"]
        print(f"| {level} | {r['requests']:.0f} | {r['median']:.2f} | {r['p99']:.2f} | {r['max']:.2f} "
              f"| {r['local_median']:.2f} | {r['local_p99']:.2f} | {r['hi_median']:.2f} "
              f"| {ratio:.1f}x |", flush=True)
    print()
    if args.matches < 1:
        return
    if args.hero not in available():
        print(f"strength: bot {args.hero!r} is not available (bots: {', '.join(available())})")
        return
    started = time.perf_counter()
    s = strength(args.hero, args.matches, decision_s)
    print(f"strength: {args.hero} through the protocol vs 3 local heuristic, {s['matches']:.0f} "
          f"matches ({args.matches} duplicate sets of 4 seatings), {time.perf_counter() - started:.0f} s")
    print(f"  {args.hero} (via protocol) mean total {s['hero']:.2f}, local heuristic mean total "
          f"{s['field']:.2f}, margin {s['diff']:+.2f} points per match, 95% interval "
          f"[{s['diff'] - s['ci95']:+.2f}, {s['diff'] + s['ci95']:+.2f}] (over the {s['sets']:.0f} "
          f"sets' mean margins), match win share {s['win_rate']:.3f} (0.25 = even)")
    print(f"  {args.hero}'s requests in these matches: {s['requests']:.0f}, median "
          f"{s['req_median']:.2f} ms, p99 {s['req_p99']:.2f} ms, max {s['req_max']:.2f} ms, "
          f"{s['over_share']:.0f} over the {args.decision_ms:g} ms share")
    print("load average at end: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
