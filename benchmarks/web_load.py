"""Web app load: many tables at once, four websocket players each, on loopback.

Starts ``callbreak serve`` on a temporary SQLite file (or ``--db URL``), then for each table
count creates that many tables with four people, connects four websocket clients per table and
lets them play as fast as the server allows (each client answers its turn at once with a random
legal action; ``--think`` adds a pause). It reports the action-to-broadcast latency (from sending
an action to receiving the state that includes it) as median and p99, and the throughput in
accepted actions per second.

Reproduce (the numbers in benchmarks/RESULTS.md):

    .venv/bin/python benchmarks/web_load.py --tables 25 50 100 200 --seconds 20

Several processes on PostgreSQL (issue 19): ``--workers 1 2 --db postgresql://...`` runs the same
load against ``callbreak serve --workers 1`` and ``--workers 2`` in one run (each on a fresh
database; the load clients are this process) and prints, per process count, the most actions a
second served with p99 under 50 ms, and the ratio. ``--people 1 --bot expert`` seats one person and
three bots of that level at each table and times the person's actions only:

    .venv/bin/python benchmarks/web_load.py --db $CALLBREAK_TEST_PG_URL --workers 1 2 --tables 25 50 100

The cost of a second process (issue 30): ``--proxy`` runs each process count as that many
separate ``callbreak serve`` processes behind HAProxy with deploy/haproxy.cfg (scripts/proxy.sh;
routed by the table code, so no action is forwarded), and reports the CPU seconds the server
processes used per 1,000 stored actions over the measured window (from /proc, the actions from
each process's /metrics), the proxy's apart, and how many games ended before the window did (a
window the games do not fill measures less than it says). ``--think`` sets the action rate:

    .venv/bin/python benchmarks/web_load.py --db $CALLBREAK_TEST_PG_URL --proxy --workers 1 2 --tables 50 --warmup 8
    .venv/bin/python benchmarks/web_load.py --db $CALLBREAK_TEST_PG_URL --proxy --workers 1 2 --tables 50 --warmup 8 --think 0.1
    .venv/bin/python benchmarks/web_load.py --people 1 --bot heuristic --tables 50 --seconds 20
    .venv/bin/python benchmarks/web_load.py --people 1 --bot expert --tables 50 --seconds 20

Beside an earlier commit, in one run (issue 53): ``--base REV`` serves each round from a detached
``git worktree`` of REV and from this tree, in alternating order, and reports each tree's medians
over ``--rounds`` (the person's p99 and median, and the server's CPU seconds per 1,000 stored
actions, from /proc and its /metrics), and the median of the per-round ratios (this / base):

    .venv/bin/python benchmarks/web_load.py --people 1 --bot expert --tables 50 --seconds 60 --base 55fa2c4 --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Player:
    """One seat: answers its turns with a random legal action and times each answer's broadcast."""

    def __init__(self, url: str, code: str, token: str, think: float, rng: random.Random,
                 latencies: list[float], clock: dict[str, float]) -> None:
        self.url, self.code, self.token, self.think = url, code, token, think
        self.rng, self.latencies, self.clock = rng, latencies, clock
        self.sent: tuple[int, float] | None = None
        self.actions = 0
        self.ready = asyncio.Event()
        self.errors: list[str] = []
        self.ended: float | None = None  # when its game ended (perf_counter), if it did

    async def run(self) -> None:
        async with connect(f"{self.url}/ws/{self.code}", max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            async for raw in ws:
                now = time.perf_counter()
                m = json.loads(raw)
                if m["type"] == "state":
                    self.ready.set()
                elif m["type"] == "error":
                    self.errors.append(f"{m['code']}: {m.get('message', '')}")
                if m["type"] != "state" or m["view"] is None:
                    continue
                if self.sent is not None and m["version"] > self.sent[0]:
                    if self.sent[1] >= self.clock["measure_from"]:
                        self.latencies.append(now - self.sent[1])
                    self.sent = None
                view = m["view"]
                if view["phase"] == "over":
                    self.ended = now
                    return
                if now > self.clock["stop"]:
                    return
                if view["to_act"] != view["seat"] or not view["legal"] or self.sent is not None:
                    continue
                ordinary = [a for a in view["legal"] if a["type"] != "look" and not a.get("blind")]
                action = self.rng.choice(ordinary or view["legal"])
                if self.think:  # people and bots do not all answer in step: spread 0.5x..1.5x
                    await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
                self.sent = (m["version"], time.perf_counter())
                self.actions += 1
                await ws.send(json.dumps({"type": "action", "token": self.token, "version": m["version"],
                                          "action": action}))


async def make_table(http: httpx.AsyncClient, deals: int, people: int = 4,
                     bot: str = "random") -> tuple[str, list[str]]:
    r = await http.post("/api/tables", json={"name": "P0", "settings": {"deals": deals, "bots": bot,
                                                                          "bot_delay": 0}})
    r.raise_for_status()
    code, tokens = r.json()["code"], [r.json()["token"]]
    for n in range(1, people):
        j = await http.post(f"/api/tables/{code}/join", json={"name": f"P{n}"})
        j.raise_for_status()
        tokens.append(j.json()["token"])
    return code, tokens


async def run_load(base: str, tables: int, seconds: float, think: float, deals: int, seed: int,
                   people: int = 4, bot: str = "random", warmup: float = 1.0,
                   probe: Any = None) -> dict[str, Any]:
    """``probe()``, if given, returns (server CPU seconds, proxy CPU seconds, actions stored,
    calls forwarded) so far; it is read at the start and the end of the measured window."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        made = [await make_table(http, deals, people, bot) for _ in range(tables)]
        latencies: list[float] = []
        rng = random.Random(seed)
        clock = {"stop": float("inf"), "measure_from": float("inf")}
        players = [Player(base.replace("http", "ws"), code, t, think, random.Random(rng.random()), latencies, clock)
                   for code, tokens in made for t in tokens]
        tasks = [asyncio.create_task(p.run()) for p in players]
        await asyncio.wait_for(asyncio.gather(*(p.ready.wait() for p in players)), 120)
    # A fresh HTTP client: the first one's idle keep-alive connection may have been closed.
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for code, tokens in made:
            for attempt in range(5):  # as a person would: "try again" (503) while a table moves
                r = await http.post(f"/api/tables/{code}/start", json={"token": tokens[0]})
                if r.status_code != 503 or attempt == 4:
                    started = attempt > 0 and r.status_code == 409  # the first try did start it
                    if r.status_code != 200 and not started:
                        raise RuntimeError(f"start {code}: {r.status_code} {r.text} (after {attempt} retries)")
                    break
                # (the proxy's own 503 is a page, not JSON: no process in its rotation just then)
                said = r.json().get("message") if "json" in r.headers.get("content-type", "") else r.text[:60]
                print(f"  (start {code}: 503 {said}; trying again)")
                await asyncio.sleep(0.2)
    # Measure only once every table is playing (and the warm-up has passed: with several
    # processes, long enough for each table to have moved to where most of its players are).
    await asyncio.sleep(warmup)
    before = probe() if probe is not None else None
    started = time.perf_counter()
    clock["measure_from"] = started
    clock["stop"] = started + seconds
    await asyncio.sleep(seconds)
    after = probe() if probe is not None else None
    await asyncio.wait(tasks, timeout=30)
    elapsed = min(time.perf_counter(), clock["stop"]) - started
    for t in tasks:
        t.cancel()
    actions = sum(p.actions for p in players)
    errors = [e for p in players for e in p.errors]
    if errors:
        print(f"  ({len(errors)} refused actions: {sorted(set(errors))})")
    lat = sorted(latencies)
    cost: dict[str, Any] = {}
    if before is not None and after is not None:
        stored = after[2] - before[2]
        cost = {"stored": stored, "stored_per_s": round(stored / seconds, 1), "forwarded": after[3] - before[3],
                "cpu_per_1000": round(1000 * (after[0] - before[0]) / stored, 3) if stored else None,
                "proxy_cpu_per_1000": round(1000 * (after[1] - before[1]) / stored, 3) if stored else None}
    ended = sum(1 for p in players if p.ended is not None and p.ended < clock["stop"]) // max(1, people)
    return {"tables": tables, "actions": actions, "seconds": round(elapsed, 2), "ended_early": ended, **cost,
            "throughput": round(len(lat) / elapsed, 1) if elapsed > 0 else 0.0,
            "median_ms": round(statistics.median(lat) * 1000, 2) if lat else None,
            "p99_ms": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000, 2) if lat else None,
            "samples": len(lat)}


async def ping_baseline(base: str, count: int = 300) -> tuple[float, float]:
    """Median and p99 (ms) of a websocket ping/pong with the server idle: the floor for any message."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        code, _ = await make_table(http, 1)
    times = []
    async with connect(f"{base.replace('http', 'ws')}/ws/{code}") as ws:
        await ws.send(json.dumps({"type": "hello"}))
        await ws.recv()
        await ws.recv()
        for _ in range(count):
            t = time.perf_counter()
            await ws.send('{"type":"ping"}')
            await ws.recv()
            times.append(time.perf_counter() - t)
    times.sort()
    return statistics.median(times) * 1000, times[int(len(times) * 0.99)] * 1000


def report(base: str, args: argparse.Namespace, probe: Any = None, runs: list[dict[str, Any]] | None = None) -> float:
    """Print the table; return the most actions/s served with p99 under 50 ms (0 if none).
    Each run's figures are added to ``runs``, if given."""
    ping_median, ping_p99 = asyncio.run(ping_baseline(base))
    print(f"baseline: idle websocket ping/pong median {ping_median:.2f} ms, p99 {ping_p99:.2f} ms")
    who = "4 people" if args.people == 4 else f"{args.people} person(s) + {args.bot} bots"
    print(f"think {args.think} s per action; {who} a table")
    print(f"{'tables':>6} {'actions/s':>10} {'median ms':>10} {'p99 ms':>8} {'samples':>8} {'median/ping':>12}")
    best = 0.0
    for n in args.tables:
        r = asyncio.run(run_load(base, n, args.seconds, args.think, args.deals, args.seed, args.people, args.bot,
                                 args.warmup, probe))
        if runs is not None:
            runs.append(r)
        ratio = f"{r['median_ms'] / ping_median:.1f}x" if r["median_ms"] else "-"
        print(f"{r['tables']:>6} {r['throughput']:>10} {r['median_ms']:>10} {r['p99_ms']:>8} {r['samples']:>8} "
              f"{ratio:>12}", flush=True)
        if probe is not None:
            print(f"       stored {r['stored']} actions ({r['stored_per_s']}/s): server CPU {r['cpu_per_1000']} s "
                  f"per 1,000 actions, proxy {r['proxy_cpu_per_1000']} s; {r['forwarded']:.0f} calls forwarded",
                  flush=True)
        if r["ended_early"]:
            print(f"       WARNING: {r['ended_early']} of {n} games ended inside the window (raise --deals)")
        if r["p99_ms"] is not None and r["p99_ms"] < 50:
            best = max(best, float(r["throughput"]))
    return best


def fresh_pg(url: str) -> tuple[str, Any]:
    """A new empty database beside ``url``'s, and a function that drops it."""
    import secrets

    import psycopg

    name = f"callbreak_bench_{secrets.token_hex(4)}"
    plain = url.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        with psycopg.connect(plain, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return plain.rsplit("/", 1)[0] + "/" + name, drop


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU seconds of these processes and all their descendants (from /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[int]] = {}
    used: dict[int, float] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        pid = int(stat.parent.name)
        children.setdefault(int(fields[1]), []).append(pid)
        used[pid] = (int(fields[11]) + int(fields[12])) / tick
    total, todo = 0.0, list(pids)
    while todo:
        pid = todo.pop()
        total += used.get(pid, 0.0)
        todo.extend(children.get(pid, []))
    return total


def counted(ports: list[int], name: str) -> float:
    """A counter (every label) summed over the processes' own /metrics."""
    total = 0.0
    for port in ports:
        text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
        total += sum(float(line.split()[-1]) for line in text.splitlines()
                     if line.startswith((f"{name} ", f"{name}{{")))
    return total


def serve_behind_proxy(args: argparse.Namespace, db: str, workers: int) -> float:
    """``workers`` separate processes behind HAProxy (deploy/haproxy.cfg, scripts/proxy.sh)."""
    ports: list[int] = []
    while len(ports) < workers + 1:  # distinct: the last one is the proxy's
        if (port := free_port()) not in ports:
            ports.append(port)
    proxy_port = ports.pop()
    log = open(args.server_log, "a") if args.server_log else subprocess.DEVNULL  # noqa: SIM115
    servers = [subprocess.Popen([sys.executable, "-c", "from callbreak.cli.main import main; main()", "serve",
                                 "--port", str(port), "--db", db, "--no-limits"], stdout=log,
                                stderr=subprocess.STDOUT) for port in ports]
    backends = [f"127.0.0.1:{p}" for p in ports] + [f"127.0.0.1:{ports[0]}"] * (2 - len(ports))
    proxy = subprocess.Popen([str(Path(__file__).parent.parent / "scripts" / "proxy.sh"),
                              f"127.0.0.1:{proxy_port}", *backends], stdout=log, stderr=subprocess.STDOUT)
    try:
        for port in ports:
            for _ in range(600):
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                time.sleep(0.1)
        time.sleep(1.0)  # in the proxy's rotation
        if any(s.poll() is not None for s in servers) or proxy.poll() is not None:
            raise RuntimeError("a server process or the proxy did not start (see --server-log)")

        def probe() -> tuple[float, float, float, float]:
            return (cpu_seconds([s.pid for s in servers]), cpu_seconds([proxy.pid]),
                    counted(ports, "callbreak_actions_total"), counted(ports, "callbreak_forwarded_calls_total"))

        return report(f"http://127.0.0.1:{proxy_port}", args, probe)
    finally:
        proxy.terminate()
        proxy.wait(10)
        for s in servers:
            s.terminate()
        for s in servers:
            s.wait(20)


def serve_and_report(args: argparse.Namespace, db: str, workers: int, src: Path | None = None,
                     runs: list[dict[str, Any]] | None = None) -> float:
    """``src``: serve that tree's package (a worktree's ``src``) instead of the installed one."""
    if args.proxy:
        return serve_behind_proxy(args, db, workers)
    port = free_port()
    # --no-limits: one load client makes every table, from one address, as fast as it can.
    command = [sys.executable, "-c", "from callbreak.cli.main import main; main()", "serve",
               "--port", str(port), "--db", db, "--no-limits"]
    if workers > 1:
        command += ["--workers", str(workers)]
    log = open(args.server_log, "a") if args.server_log else subprocess.DEVNULL  # noqa: SIM115
    env = {**os.environ, "PYTHONPATH": str(src)} if src is not None else None
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                httpx.get(f"{base}/api/meta", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        time.sleep(1.0 if workers > 1 else 0)  # every worker up, not only the first

        def probe() -> tuple[float, float, float, float]:
            return cpu_seconds([server.pid]), 0.0, counted([port], "callbreak_actions_total"), 0.0

        return report(base, args, probe if workers == 1 else None, runs)
    finally:
        server.terminate()
        server.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, nargs="+", default=[25, 50, 100, 200])
    parser.add_argument("--seconds", type=float, default=20.0, help="measured play time per table count")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds each player waits before acting (spread uniformly over 0.5x..1.5x)")
    parser.add_argument("--deals", type=int, default=100, help="deals per table (long enough to outlast the run)")
    parser.add_argument("--proxy", action="store_true",
                        help="separate processes behind HAProxy (deploy/haproxy.cfg), with their CPU per action")
    parser.add_argument("--db", default=None, help="database URL for the server (default: temporary SQLite)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warmup", type=float, default=1.0,
                        help="seconds of play before measuring (8: past the tables' handover to their players' process)")
    parser.add_argument("--server-log", default=None, help="append the server's own log to this file")
    parser.add_argument("--url", default=None, help="load an already running server instead of starting one")
    parser.add_argument("--workers", type=int, nargs="+", default=[1],
                        help="server process counts to compare in one run (above 1 needs --db PostgreSQL)")
    parser.add_argument("--people", type=int, default=4, choices=[1, 2, 3, 4],
                        help="people a table (the other seats get --bot bots); only people are timed")
    parser.add_argument("--bot", default="random", help="level of the seated bots")
    parser.add_argument("--base", default=None, help="an earlier commit to serve beside this tree, in alternating rounds")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of --base and this tree")
    args = parser.parse_args()
    if args.base:
        beside(args)
        return
    if args.url:
        report(args.url.rstrip("/"), args)
        return
    best: dict[int, float] = {}
    for workers in args.workers:
        print(f"--- {workers} server process{'es' if workers > 1 else ''}", flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            if args.db and args.db.startswith(("postgres", "postgresql")):
                db, drop = fresh_pg(args.db)
            else:
                db, drop = args.db or f"sqlite:///{Path(tmp) / 'load.db'}", None
            try:
                best[workers] = serve_and_report(args, db, workers)
            finally:
                if drop is not None:
                    drop()
    if len(best) > 1:
        one = best.get(1) or min(best.values())
        for workers, value in best.items():
            share = f"{value / one:.2f}x" if one else "-"
            print(f"{workers} process(es): {value} actions/s with p99 under 50 ms ({share} of 1)")


def beside(args: argparse.Namespace) -> None:
    """This tree against ``args.base``, one server process on SQLite, ``args.rounds`` rounds."""
    root = Path(__file__).resolve().parent.parent
    runs: dict[str, list[dict[str, Any]]] = {"base": [], "this": []}
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "base"
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), args.base], cwd=root, check=True,
                       capture_output=True)
        try:
            # The base tree's kernel compiled into its own numba cache first (a cold server would
            # hold its first expert tables for the compile).
            subprocess.run([sys.executable, "-m", "callbreak.server.warmup"], check=True,
                           env={**os.environ, "PYTHONPATH": str(tree / "src")})
            for n in range(args.rounds):
                for name in (("base", "this") if n % 2 == 0 else ("this", "base")):
                    print(f"--- round {n + 1}: {name}", flush=True)
                    db = f"sqlite:///{Path(tmp) / f'load-{name}-{n}.db'}"
                    serve_and_report(args, db, 1, tree / "src" if name == "base" else None, runs[name])
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=root, capture_output=True)
    print(f"\n{args.tables} tables, {args.rounds} rounds: median of each tree, and of the per-round ratios")
    for key in ("p99_ms", "median_ms", "throughput", "cpu_per_1000"):
        base = [r[key] for r in runs["base"]]
        this = [r[key] for r in runs["this"]]
        ratios = [t / b for t, b in zip(this, base, strict=True) if t is not None and b]
        print(f"{key:>14}: base {statistics.median(base)}  this {statistics.median(this)}  "
              f"this/base {statistics.median(ratios):.3f} (rounds: {', '.join(f'{x:.2f}' for x in ratios)})")


if __name__ == "__main__":
    main()
