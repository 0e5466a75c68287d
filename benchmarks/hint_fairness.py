"""A plain game's time at one table while another table asks for hints as fast as it may (issue 55).

Starts ``callbreak serve`` on a temporary SQLite file with its default limits on hints (the
limits on making tables are off: the benchmark makes many). The plain game is one person and
three random bots, one deal, bot delay 0; its person answers each turn at once. It is timed from
the start to the game's end, ``--games`` times alone, then as many times while another table
(the same kind, from another guest) asks for hints flat out: at each of its turns it sends
``--burst`` hint requests at once, plays the first hint it gets back, and starts a new table when
its game ends. The flood is a process of its own, as
another client would be, stopped while the games alone are played. Alone and loaded games
alternate in pairs, so a drift of the machine's speed falls on both. It prints the medians, the ratio (goal: at most 1.5) and what the hint table got:
hints answered, refused by a limit, and computed by the server (from its metrics).

Reproduce (the figures in benchmarks/RESULTS.md):

    .venv/bin/python benchmarks/hint_fairness.py --games 15
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).parent))
from web_load import free_port  # noqa: E402

PLAIN = {"preset": "callbreak", "deals": 1, "bots": "random", "bot_delay": 0}
SETTLE = 1.5  # seconds for the server to finish the hint it was working out when the flood stops
OPEN = ["--tables-per-minute", "0", "--tables-per-minute-per-address", "0", "--live-tables", "0",
        "--live-tables-per-address", "0", "--bot-table-share", "0"]


async def new_table(http: httpx.AsyncClient, guest: str) -> tuple[str, str]:
    r = await http.post("/api/tables", json={"name": "Bench", "guest": guest, "settings": PLAIN})
    r.raise_for_status()
    code, token = r.json()["code"], r.json()["token"]
    (await http.post(f"/api/tables/{code}/start", json={"token": token})).raise_for_status()
    return code, token


class Flood:
    """The other table's person: at each turn, ``burst`` hints asked at once over HTTP (as a
    script would), the hinted card played (or, all refused, the first legal one); a new table
    when a game ends. What its hints got is written to ``counts`` after each turn."""

    def __init__(self, burst: int, counts: Path) -> None:
        self.burst = burst
        self.counts: Counter[str] = Counter()
        self.file = counts

    async def ask(self, http: httpx.AsyncClient, code: str, token: str) -> dict[str, Any] | None:
        answers = await asyncio.gather(*(http.post(f"/api/tables/{code}/hint", json={"token": token})
                                         for _ in range(self.burst)))
        for r in answers:
            self.counts["answered" if r.status_code == 200 else r.json().get("error", str(r.status_code))] += 1
        self.file.write_text(json.dumps(self.counts))
        return next((r.json() for r in answers if r.status_code == 200), None)

    async def run(self, base: str) -> None:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            while True:
                await play(base, http, "guest-hint-flood-0001", self)
                self.counts["games"] += 1


async def play(base: str, http: httpx.AsyncClient, guest: str, flood: Flood | None = None) -> float:
    """One game at a new table, its person answering at once (or, as ``flood``, after asking
    for hints); returns the seconds from its start to its end."""
    started = time.perf_counter()
    code, token = await new_table(http, guest)
    async with connect(f"{base.replace('http', 'ws')}/ws/{code}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        async for raw in ws:
            m = json.loads(raw)
            if m["type"] != "state" or m["view"] is None:
                continue
            view = m["view"]
            if view["phase"] == "over":
                return time.perf_counter() - started
            if view["to_act"] != view["seat"] or not view["legal"]:
                continue
            action = view["legal"][0]
            if flood is not None:
                hint = await flood.ask(http, code, token)
                if hint is not None and hint["version"] == m["version"]:
                    action = hint["action"]
            await ws.send(json.dumps({"type": "action", "token": token, "version": m["version"],
                                      "action": action}))
    raise RuntimeError(f"table {code}: the socket closed before the game ended")


def counted(path: Path) -> Counter[str]:
    with contextlib.suppress(OSError, ValueError):
        return Counter(json.loads(path.read_text()))
    return Counter()


async def measure(base: str, games: int, burst: int, tmp: str) -> dict[str, Any]:
    """Plain games alone and beside the flood, in pairs. The flood is a process of its own (a
    client elsewhere: its requests cost this process nothing), stopped (SIGSTOP) for the games
    alone once the hint it asked last has been worked out, and let go on (SIGCONT) for the others."""
    alone: list[float] = []
    loaded: list[float] = []
    counts = Path(tmp) / "flood.json"
    flood = subprocess.Popen([sys.executable, __file__, "--flood", base, "--burst", str(burst),
                              "--counts", str(counts)])
    try:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            await play(base, http, "guest-plain-0001")  # (a first game: imports, caches)
            while not counted(counts):
                await asyncio.sleep(0.05)  # (the flood under way)
            for _ in range(games):
                flood.send_signal(signal.SIGSTOP)
                await asyncio.sleep(SETTLE)
                alone.append(await play(base, http, "guest-plain-0001"))
                seen = counted(counts).total()
                flood.send_signal(signal.SIGCONT)
                while counted(counts).total() == seen:
                    await asyncio.sleep(0.05)  # (the flood under way again)
                loaded.append(await play(base, http, "guest-plain-0001"))
                print(f"  alone {alone[-1]:.3f} s, beside the flood {loaded[-1]:.3f} s", file=sys.stderr, flush=True)
            metrics = (await http.get("/metrics")).text
    finally:
        flood.send_signal(signal.SIGCONT)
        flood.terminate()
        flood.wait(10)
    computed = re.search(r'callbreak_bot_decision_seconds_count\{bot="expert"\} ([0-9.e+]+)', metrics)
    ratio = statistics.median(loaded) / statistics.median(alone)
    return {"alone_ms": round(statistics.median(alone) * 1000, 1),
            "loaded_ms": round(statistics.median(loaded) * 1000, 1), "ratio": round(ratio, 2),
            "paired_ratios": sorted(round(b / a, 2) for a, b in zip(alone, loaded, strict=True)),
            "hint_table": dict(counted(counts)), "expert_decisions": int(float(computed[1])) if computed else 0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=15, help="plain games timed alone, and as many loaded")
    parser.add_argument("--burst", type=int, default=20, help="hints the other table asks at each of its turns")
    parser.add_argument("--flood", metavar="URL", help=argparse.SUPPRESS)  # (the flood's own process)
    parser.add_argument("--counts", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.flood:
        asyncio.run(Flood(args.burst, args.counts).run(args.flood))
        return
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "CALLBREAK_LOG_LEVEL": "WARNING"}
        server = subprocess.Popen(
            [sys.executable, "-m", "callbreak", "serve", "--port", str(port), "--db", f"sqlite:///{tmp}/b.db",
             *OPEN], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(600):
                with contextlib.suppress(httpx.TransportError):
                    if httpx.get(f"{base}/readyz").status_code == 200:
                        break
                time.sleep(0.1)
            print(json.dumps(asyncio.run(measure(base, args.games, args.burst, tmp)), indent=1))
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
