"""The server's per-action cost for the related games against Call Break, measured in one run.

Every seat is a person (a test connection that only collects messages) who plays a seeded
random legal action, so no bot thinking is timed: each action is checked, stored (SQLite file),
applied and broadcast to every seat plus one spectator. Reported: the median time of a whole
accepted action, and of the broadcast alone, per game.

Run:  .venv/bin/python benchmarks/web_related.py
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from callbreak.server.tables import Connection, TableService
from callbreak.store import Store

CASES: list[tuple[str, dict[str, Any]]] = [
    ("callbreak (baseline), 4 seats", {"preset": "callbreak", "deals": 2}),
    ("batak-ihaleli, 4 seats", {"game": "batak-ihaleli", "players": 4, "options": {"max_hands": 2}}),
    ("donut, 6 seats", {"game": "donut", "players": 6, "options": {"max_hands": 6}}),
    ("snarples, 8 seats", {"game": "snarples", "players": 8, "options": {"max_hands": 6}}),
    ("horsethief, 5 seats", {"game": "horsethief", "players": 5, "options": {"max_hands": 6}}),
]


def measure(service: TableService, settings: dict[str, Any]) -> tuple[list[float], list[float]]:
    table, host, _ = service.create({**settings, "timer": None, "bot_delay": 0}, "P0", seed=5)
    tokens = [host] + [service.join(table.code, f"P{i}")[1] for i in range(1, len(table.seats))]
    sink: list[Any] = []
    for seat in [*range(len(table.seats)), None]:
        table.connections.append(Connection(seat=seat, send=sink.append))
    service.start(table.code, host)
    acts, casts = [], []
    rng = random.Random(1)  # a seeded random legal action: always reaching a first legal pass can loop
    while table.status == "playing":
        match = table.match
        assert match is not None
        seat = match.to_act
        assert seat is not None and seat >= 0
        action = rng.choice(match.legal_actions(seat)).to_json()
        t0 = time.perf_counter()
        service.act(table.code, tokens[seat], table.version, action)
        acts.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        service.broadcast(table)
        casts.append(time.perf_counter() - t0)
        sink.clear()
    return acts, casts


async def run() -> list[tuple[str, int, float, float]]:
    """Measured on a running event loop, as the server runs (finished tables set a timer)."""
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'bench.db'}")
        # A practice service: the benchmark seeds its deals, so every run plays the same games.
        service = TableService(store, practice=True)
        service.loop = asyncio.get_running_loop()
        rows = []
        for name, settings in CASES:
            acts, casts = measure(service, settings)
            rows.append((name, len(acts), statistics.median(acts), statistics.median(casts)))
        for table in service.tables.values():
            service._cancel_clock(table)
        service.close()
        store.close()
    return rows


def main() -> None:
    rows = asyncio.run(run())
    base_act, base_cast = rows[0][2], rows[0][3]
    print("| game, seats | actions | median action (ms) | ratio | median broadcast (ms) | ratio |")
    print("|---|---|---|---|---|---|")
    for name, n, act, cast in rows:
        print(f"| {name} | {n} | {act * 1000:.2f} | {act / base_act:.2f} | {cast * 1000:.3f} | "
              f"{cast / base_cast:.2f} |")


if __name__ == "__main__":
    main()
