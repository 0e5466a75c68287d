"""Strength of the neural bot against fixed fields, paired with other bots in the same seats.

Each duplicate set is one seeded 5-deal match (the ``callbreak`` preset) played four times, the
measured bot ("hero") rotated through the four seats, the field's players keeping their order
around it. Every hero plays the very same tables (deals, seats, the field's seeds), so the
difference between two heroes is paired table by table; the interval is a 95% t interval over
sets. Points are a deal's points (the seat's own), per deal.

Fields: ``heuristic`` (three heuristic bots) and ``ggr`` (greedy, greedy, random).

A hero's tables are kept in a JSON cache (``--cache``, keyed by hero, field, seed, sets and the
neural bot's weights), so a slow hero (the expert) can be run once and the neural bot's weights
measured against it again (clear the cache when the code of a cached hero changes)::

    .venv/bin/python benchmarks/neural_strength.py --sets 100 --workers 2 \
        --heroes neural,heuristic,expert:budget=0.1 --fields heuristic,ggr

100 sets are 2,000 deals for each hero in each field. Two experts (the expert with and without the
network's prior) against the same load, set by set::

    .venv/bin/python benchmarks/neural_strength.py --sets 50 --fields heuristic --interleave \
        --heroes "expert:budget=0.1,prior=0.1;expert:budget=0.1" --cache runs/prior_ab

A run cut off resumes from the sets it kept (``--interleave`` keeps them as it goes). Heroes
that run the network inside a search (``expert:neural=T``) want ``OPENBLAS_NUM_THREADS=1``: on a
busy machine a second BLAS thread makes every small product wait for a core.

Decision times are the hero's own
(in-process): the wall clock around ``decide`` and the CPU time of its thread (what a decision
costs, without the waits of a busy machine), medians and p99.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from callbreak.arena.stats import mean_ci, percentile
from callbreak.learn.evaluate import FIELDS, paired, per_set, play_set


def _job(args: tuple[str, str, int, int]) -> tuple[int, list[dict[str, Any]]]:
    hero, field, seed, index = args
    return index, play_set(hero, FIELDS[field], seed, index)


def _cache_path(hero: str, field: str, seed: int, sets: int, cache: Path) -> Path:
    key = hashlib.sha1(f"{hero}|{field}|{seed}|{sets}|{_weights_id(hero)}".encode()).hexdigest()[:16]
    return cache / f"{key}.json"


def run_interleaved(heroes: list[str], field: str, seed: int, sets: int, cache: Path) -> None:
    """Every hero's set ``i`` before any hero's set ``i + 1``: on a shared machine whose load
    changes, heroes that think against the clock (the expert) meet the same load."""
    todo = [h for h in heroes if not _cache_path(h, field, seed, sets, cache).exists()]
    results: dict[str, list[list[dict[str, Any]]]] = {h: [] for h in todo}
    # The sets played so far are kept after each one, so a run cut off resumes where it stopped.
    cache.mkdir(parents=True, exist_ok=True)
    partial = cache / f"partial-{hashlib.sha1('|'.join(todo).encode()).hexdigest()[:12]}-{field}-{seed}-{sets}.json"
    if todo and partial.exists():
        results = json.loads(partial.read_text())
    done = min((len(r) for r in results.values()), default=sets)
    results = {h: r[:done] for h, r in results.items()}
    start = time.perf_counter()
    for i in range(done, sets):
        for hero in todo:
            results[hero].append(play_set(hero, FIELDS[field], seed, i))
        partial.write_text(json.dumps(results))
        _tick("+".join(todo), field, i + 1, sets, start)
    for hero in todo:
        _cache_path(hero, field, seed, sets, cache).write_text(
            json.dumps({"hero": hero, "field": field, "seed": seed, "sets": results[hero]}))
    partial.unlink(missing_ok=True)


def run_hero(hero: str, field: str, seed: int, sets: int, workers: int, cache: Path) -> list[list[dict[str, Any]]]:
    path = _cache_path(hero, field, seed, sets, cache)
    if path.exists():
        return json.loads(path.read_text())["sets"]
    start = time.perf_counter()
    results: list[list[dict[str, Any]]] = [[] for _ in range(sets)]
    jobs = [(hero, field, seed, i) for i in range(sets)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            for done, (i, tables) in enumerate(pool.map(_job, jobs), 1):
                results[i] = tables
                _tick(hero, field, done, sets, start)
    else:
        for done, job in enumerate(jobs, 1):
            i, tables = _job(job)
            results[i] = tables
            _tick(hero, field, done, sets, start)
    cache.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hero": hero, "field": field, "seed": seed, "sets": results}))
    return results


def _weights_id(hero: str) -> str:
    """Which weights a neural hero plays (a change of weights is a new hero)."""
    if not hero.startswith("neural"):
        return ""
    from callbreak.bots.base import parse_spec
    from callbreak.bots.neural import WEIGHTS

    _, options = parse_spec(hero)
    path = Path(dict(options).get("weights", WEIGHTS))
    return hashlib.sha1(path.read_bytes()).hexdigest()[:12]


def _tick(hero: str, field: str, done: int, total: int, start: float) -> None:
    if done % 10 == 0 or done == total:
        spent = time.perf_counter() - start
        print(f"{hero} vs {field}: {done}/{total} sets, {spent / 60:.1f} min", file=sys.stderr, flush=True)


def _ci(low: float | None, high: float | None) -> str:
    return "n/a" if low is None or high is None else f"[{low:+.3f}, {high:+.3f}]"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sets", type=int, default=100, help="duplicate sets (20 deals for each hero each)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--heroes", default="neural,heuristic,expert:budget=0.1",
                   help="bot specs, comma-separated; each is paired with every other")
    p.add_argument("--fields", default="heuristic,ggr")
    p.add_argument("--cache", type=Path, default=Path("runs/neural_strength"))
    p.add_argument("--interleave", action="store_true",
                   help="play every hero's set before the next set (for heroes that think against the "
                        "clock on a machine whose load changes)")
    args = p.parse_args(argv)
    heroes = [h for h in args.heroes.split(";" if ";" in args.heroes else ",") if h]
    fields = [f for f in args.fields.split(",") if f]
    for field in fields:
        if field not in FIELDS:
            p.error(f"unknown field {field!r}; fields: {', '.join(FIELDS)}")
        print(f"\nField: {' + '.join(FIELDS[field])}, {args.sets} sets ({args.sets * 20} deals a hero), "
              f"seed {args.seed}\n")
        print("| hero | own points/deal (95% CI) | margin over the field/deal | decision ms median / p99 "
              "| CPU ms a decision median / p99 | faults |")
        print("|---|---|---|---|---|---|")
        data, margins = {}, {}
        if args.interleave:
            run_interleaved(heroes, field, args.seed, args.sets, args.cache)
        for hero in heroes:
            sets = run_hero(hero, field, args.seed, args.sets, args.workers, args.cache)
            own, margin = per_set(sets)
            data[hero], margins[hero] = own, margin
            times = [1000 * x for s in sets for t in s for x in t["times"]]
            cpu = [1000 * x for s in sets for t in s for x in t.get("cpu", ())] or [float("nan")]
            faults = sum(t["faults"] for s in sets for t in s)
            m, lo, hi = mean_ci(own)
            mm, _, _ = mean_ci(margin)
            print(f"| {hero} | {m:+.3f} {_ci(lo, hi)} | {mm:+.3f} | {statistics.median(times):.2f} / "
                  f"{percentile(times, 99):.2f} | {statistics.median(cpu):.2f} / {percentile(cpu, 99):.2f} "
                  f"| {faults} |", flush=True)
        print()
        for i, a in enumerate(heroes):
            for b in heroes[i + 1:]:
                m, lo, hi = paired(data[a], data[b])
                mm, mlo, mhi = paired(margins[a], margins[b])
                print(f"paired: {a} - {b}: {m:+.3f} {_ci(lo, hi)} points a deal, margin over the field "
                      f"{mm:+.3f} {_ci(mlo, mhi)} (same seats, same deals)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
