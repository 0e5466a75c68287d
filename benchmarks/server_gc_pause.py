"""How long one full garbage collection holds a server's interpreter, with the warm-up's heap
frozen (what ``callbreak serve`` does, server/warmup.py) and without.

Each measurement is a fresh process that imports the web app and makes the bots' kernel ready
(loaded from numba's disk cache, which the first run fills), as a server does at start, then
times ``gc.collect()`` several times: the median is the pause any thread of that server would
meet when a full collection falls on it, the event loop's thread included.

Run (about a minute once the kernel's cache is filled)::

    .venv/bin/python benchmarks/server_gc_pause.py --rounds 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

CHILD = """
import gc, json, statistics, sys, time
import callbreak.server.app
from callbreak.server import warmup
settle = warmup.frozen_after if sys.argv[1] == "frozen" else (lambda work: work())
settle(warmup.kernel_cached)
settle(warmup.warm_kernel)
times = []
for _ in range(5):
    began = time.perf_counter()
    gc.collect()
    times.append(time.perf_counter() - began)
print(json.dumps({"tracked": len(gc.get_objects()), "frozen": gc.get_freeze_count(),
                  "median_ms": statistics.median(times) * 1000}))
"""


def measure(how: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", CHILD, how], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    results: dict[str, list[dict[str, float]]] = {"plain": [], "frozen": []}
    for r in range(args.rounds):  # alternating which goes first, so load falls on both alike
        for how in (("plain", "frozen") if r % 2 == 0 else ("frozen", "plain")):
            results[how].append(measure(how))
    print("| heap | tracked objects | frozen objects | one full collection, median of rounds |")
    print("|---|---:|---:|---:|")
    for how, rows in results.items():
        print(f"| {how} | {statistics.median(r['tracked'] for r in rows):,.0f} "
              f"| {statistics.median(r['frozen'] for r in rows):,.0f} "
              f"| {statistics.median(r['median_ms'] for r in rows):.2f} ms |")


if __name__ == "__main__":
    main()
