"""What storing the bots' memories with a move costs the store (issue 53, stage c).

A web table writes each seat's bot memory (the expert's reading of the others) in the commit of
the move the bot decided (``Store.append_action(..., memories=)``). This times that write on
SQLite against a plain move's, in alternating batches on two games of one database, with the
memories of three experts (the size of a real table's), and prints the medians and the median of
the per-batch ratios.

    .venv/bin/python benchmarks/store_memory_write.py --batches 10 --size 300
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from callbreak.store import Store

READING = [0.1234567891234, 0.2345678912345, 0.3456789123456, 0.2962964073065]  # four styles
MEMORY = {"deal": 2, "prior": {str(s): READING for s in (0, 2, 3)}, "reading": {str(s): READING for s in (0, 2, 3)}}
MEMORIES = {1: MEMORY, 2: MEMORY, 3: MEMORY}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batches", type=int, default=10)
    parser.add_argument("--size", type=int, default=300, help="moves a batch")
    args = parser.parse_args()
    times: dict[str, list[float]] = {"plain": [], "memories": []}
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'writes.db'}")
        games = {kind: store.create_game(kind.upper(), {"preset": "callbreak", "seed": 1}, [{"kind": "bot"}] * 4,
                                         status="playing") for kind in times}
        move = {"type": "play", "seat": 1, "card": "AS"}
        seq = 0
        for batch in range(args.batches):
            for kind in (("plain", "memories") if batch % 2 == 0 else ("memories", "plain")):
                began = time.perf_counter()
                for i in range(args.size):
                    store.append_action(games[kind], seq + i, move, memories=MEMORIES if kind == "memories" else None)
                times[kind].append((time.perf_counter() - began) / args.size * 1e6)
            seq += args.size
        store.close()
    size = len(json.dumps({str(k): v for k, v in MEMORIES.items()}, separators=(",", ":")))
    for kind, us in times.items():
        print(f"{kind:>9}: {statistics.median(us):.1f} us a move (median of {args.batches} batches)")
    ratios = [m / p for m, p in zip(times["memories"], times["plain"], strict=True)]
    print(f"memories / plain: {statistics.median(ratios):.2f} (memories of three experts: {size} bytes of JSON)")


if __name__ == "__main__":
    main()
