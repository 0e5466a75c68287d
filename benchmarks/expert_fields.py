"""The expert through the bot-tournament protocol against fields of styles that are not ours,
paired against the expert before this work on the same deals.

Reproduce (as recorded in RESULTS.md):

    git worktree add /tmp/base-e14aa58 e14aa58
    PYTHONPATH=src .venv/bin/python benchmarks/expert_fields.py --sets 8 \
        --base-src /tmp/base-e14aa58/src

or pair two options of this checkout's expert (reading the others' styles on and off):

    PYTHONPATH=src .venv/bin/python benchmarks/expert_fields.py --sets 8 --h2h 0 \
        --new-bot expert:read=on --old-bot expert:read=off

Two real ``callbreak bot-server`` processes serve ``expert``: this checkout's and the baseline's
(``--base-src``, the commit before this work). This script is the referee, with the public
tournament's clock: the served seat has ``--deal-ms`` (1,500) for each deal, and each request's
``timeBudget`` is what it has left (wall time at the referee, so the network counts). The other
seats are local bots. Each set is a ``bhoos-tournament`` match (``--deals`` deals, dealt by
``Dealer(seed)``) played four times, the served seat rotating through the four seats (duplicate:
each rotation the hero holds other hands, the same cards for both experts), once with each expert
on the same cards and with the same opponents' seeds. Every request carries the match's
``matchId`` (one per match played), so a bot-server that reads the others' styles carries its
readings from deal to deal of that match and no further. The paired difference is new minus old
points a deal on the same deals and seat; its 95% interval is over the sets' means (normal
approximation). ``--deals 1`` plays first deals only (the runs before 2026-11-25's third session).

Fields: three ``greedy``; three ``ismcts``; three ``heuristic``; a mixed table (``random``,
``greedy``, ``heuristic``). Calls: the served expert's call-made rate, the points its missed
calls cost (the negative scores) and its overtricks, per deal. Head to head (``--h2h N``): the
new expert, the old expert, ``ismcts`` and ``greedy`` at one table, the four seatings rotated on
each of N matches (``--deals`` deals each); mean points a deal.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

import httpx
from deal_time import bot_server  # the same bot-server subprocess (benchmarks/ is on the path)

from callbreak.bots import make_bot
from callbreak.core import CHANCE, Dealer, Match, make_rules
from callbreak.protocol.wire import action_from_answer, kind_for, request_from_view

RULES = make_rules("bhoos-tournament")
FIELDS = {
    "greedy": ("greedy", "greedy", "greedy"),
    "ismcts": ("ismcts", "ismcts", "ismcts"),
    "heuristic": ("heuristic", "heuristic", "heuristic"),
    "mixed": ("random", "greedy", "heuristic"),
}


@dataclass
class Served:
    """A bot-server seat with the tournament's per-deal clock."""

    url: str
    http: httpx.Client
    deal_ms: float
    spent: float = 0.0
    overruns: int = 0
    requests_ms: list[float] = field(default_factory=list)
    match_id: str = ""

    def new_deal(self) -> None:
        if self.spent * 1000 > self.deal_ms:
            self.overruns += 1
        self.spent = 0.0

    def decide(self, view: Any) -> Any:
        kind = kind_for(view)
        body = request_from_view(view, time_budget_ms=max(0.0, self.deal_ms - self.spent * 1000))
        body["matchId"] = self.match_id
        start = time.perf_counter()
        r = self.http.post(f"{self.url}/{kind}", json=body)
        seconds = time.perf_counter() - start
        r.raise_for_status()
        self.spent += seconds
        self.requests_ms.append(seconds * 1000)
        return action_from_answer(view, r.json())


def play_match(seed: int, players: list[Any], deals: int, match_id: str
               ) -> list[tuple[list[float], list[int], list[int]]]:
    """The first ``deals`` deals of a match dealt by ``Dealer(seed)``: per deal, each seat's
    points, calls and tricks."""
    match = Match(RULES)
    dealer = Dealer(seed)
    served = [p for p in players if isinstance(p, Served)]
    for p in served:
        p.match_id = match_id
    while len(match.results) < deals and not match.is_over:
        seat = match.to_act
        if seat == CHANCE:
            for p in served:
                p.new_deal()
            match.apply(dealer.chance(match))
            continue
        assert seat is not None
        view = match.view(seat)
        p = players[seat]
        match.apply(p.decide(view) if isinstance(p, Served) else p.decide(view, 1.0).action)
    for p in served:
        p.new_deal()  # count the last deal's overrun
    return [([x / 10 for x in r.points], list(r.calls), list(r.won)) for r in match.results]


def _interval(values: list[float]) -> tuple[float, float]:
    mean = statistics.mean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.nan
    return mean, half


def _local(spec: str, seed: int, iterations: int) -> Any:
    if spec == "ismcts":
        spec = f"ismcts:iterations={iterations}"
    return make_bot(spec, seed=seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", type=int, default=8, help="matches per field (each played 4x2)")
    parser.add_argument("--deals", type=int, default=5, help="deals of each match played (1-5)")
    parser.add_argument("--h2h", type=int, default=4, help="matches of the head-to-head table")
    parser.add_argument("--fields", default=",".join(FIELDS))
    parser.add_argument("--deal-ms", type=float, default=1500.0)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--ismcts-iterations", type=int, default=1000)
    parser.add_argument("--base-src", default=None,
                        help="the baseline checkout's src (default: this checkout's)")
    parser.add_argument("--new-bot", default="expert", help="the bot spec the new server serves")
    parser.add_argument("--old-bot", default="expert", help="the bot spec the baseline serves")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus; {args.deal_ms:g} ms a deal; "
          f"ismcts {args.ismcts_iterations} iterations; baseline {args.base_src or 'this checkout'}; new {args.new_bot}, old {args.old_bot}", flush=True)
    with ExitStack() as stack, httpx.Client(timeout=30) as http:
        new_url = stack.enter_context(bot_server(args.new_bot, None))
        old_url = stack.enter_context(bot_server(args.old_bot, args.base_src))
        new = Served(new_url, http, args.deal_ms)
        old = Served(old_url, http, args.deal_ms)
        all_diffs: list[float] = []
        field_means: list[float] = []
        fields = [f for f in args.fields.split(",") if f]  # --fields "": head to head only
        if fields:
            print("| field | sets | deals | new | old | new - old (95%) | new calls made | old "
                  "calls made | new missed pts/deal | old missed pts/deal | new overtricks/deal "
                  "| old overtricks/deal |", flush=True)
            print("|---|---|---|---|---|---|---|---|---|---|---|---|", flush=True)
        for name in fields:
            others = FIELDS[name]
            set_diffs = []
            tally: dict[str, list[float]] = {k: [] for k in (
                "new", "old", "new_made", "old_made", "new_missed", "old_missed", "new_over",
                "old_over")}
            for k in range(args.sets):
                seed = args.seed + k
                diffs = []
                for hero in range(4):
                    for label, served in (("new", new), ("old", old)):
                        seats: list[Any] = []
                        it = iter(others)
                        for s in range(4):
                            seats.append(served if s == hero else
                                         _local(next(it), seed * 10 + s, args.ismcts_iterations))
                        played = play_match(seed, seats, args.deals, f"{name}-{seed}-{hero}-{label}")
                        for points, calls, won in played:
                            tally[label].append(points[hero])
                            made = won[hero] >= calls[hero]
                            tally[f"{label}_made"].append(float(made))
                            tally[f"{label}_missed"].append(0.0 if made else points[hero])
                            tally[f"{label}_over"].append(max(0, won[hero] - calls[hero]))
                    diffs.extend(n - o for n, o in zip(tally["new"][-args.deals:],
                                                        tally["old"][-args.deals:], strict=True))
                set_diffs.append(statistics.mean(diffs))
            mean, half = _interval(set_diffs)
            all_diffs.extend(set_diffs)
            field_means.append(mean)
            m = {k: statistics.mean(v) for k, v in tally.items()}
            print(f"| {name} | {args.sets} | {len(tally['new'])} | {m['new']:+.2f} | {m['old']:+.2f} "
                  f"| {mean:+.2f} ± {half:.2f} | {m['new_made']:.0%} | {m['old_made']:.0%} "
                  f"| {m['new_missed']:+.2f} | {m['old_missed']:+.2f} | {m['new_over']:.2f} "
                  f"| {m['old_over']:.2f} |", flush=True)
        if all_diffs:
            mean, half = _interval(all_diffs)
            print(f"\naveraged over the fields (every set weighted alike): {mean:+.2f} ± {half:.2f} "
                  f"a deal ({len(all_diffs)} sets); field means "
                  f"{', '.join(f'{x:+.2f}' for x in field_means)}")
            _report_served("served requests", new, old)
        if args.h2h:
            names = ["new expert", "old expert", "ismcts", "greedy"]
            got: dict[str, list[float]] = {n: [] for n in names}
            for k in range(args.h2h):
                seed = args.seed + 5000 + k
                for rot in range(4):
                    order = names[rot:] + names[:rot]
                    seats = [new if n == "new expert" else old if n == "old expert"
                             else _local(n, seed * 10 + i, args.ismcts_iterations)
                             for i, n in enumerate(order)]
                    for points, _, _ in play_match(seed, seats, args.deals, f"h2h-{seed}-{rot}"):
                        for i, n in enumerate(order):
                            got[n].append(points[i])
            print("\n| head to head | deals | points a deal (95%) |\n|---|---|---|")
            for n in sorted(names, key=lambda n: -statistics.mean(got[n])):
                mean, half = _interval(got[n])
                print(f"| {n} | {len(got[n])} | {mean:+.2f} ± {half:.2f} |", flush=True)
            _report_served("served requests in all the games above", new, old)


def _report_served(what: str, new: Served, old: Served) -> None:
    """Each server's p99 request time and overruns so far (the clock's bar: 0 overruns)."""
    def p99(ms: list[float]) -> float:
        return sorted(ms)[int(0.99 * len(ms))]
    print(f"{what}: new p99 {p99(new.requests_ms):.0f} ms, overruns {new.overruns}; old p99 "
          f"{p99(old.requests_ms):.0f} ms, overruns {old.overruns}", flush=True)


if __name__ == "__main__":
    main()
