"""The cold start (issue 30): the first table of four expert bots on a fresh install, and how long
``/api/meta`` takes to answer meanwhile.

Starts ``callbreak serve`` with an empty numba cache folder (``NUMBA_CACHE_DIR``: a fresh
temporary directory, so the expert's kernel must be compiled), makes a table of four expert bots
as soon as the server answers, and polls ``/api/meta`` every 20 ms until the table is made. Then
the same with the cache the first run filled. Prints the table's wait and the longest, p99 and
median ``/api/meta`` answer of each.

Reproduce (benchmarks/RESULTS.md):

    .venv/bin/python benchmarks/cold_start.py
    .venv/bin/python benchmarks/cold_start.py --src /path/to/an/older/checkout/src   # before
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

TABLE = {"name": "Ann", "settings": {"preset": "callbreak", "deals": 1, "bots": ["expert"] * 4,
                                     "bot_delay": 0}}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(cache: Path, workdir: Path, src: str | None) -> dict[str, Any]:
    port = free_port()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    if src:
        env["PYTHONPATH"] = src
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-c", "from callbreak.cli.main import main; main()", "serve",
                             "--port", str(port), "--db", f"sqlite:///{workdir / f'{port}.db'}"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=600) as http:
            while True:
                try:
                    http.get("/api/meta")
                    break
                except httpx.TransportError:
                    time.sleep(0.05)
            up = time.monotonic() - started
            made: dict[str, float] = {}

            def make() -> None:
                t = time.monotonic()
                http.post("/api/tables", json=TABLE).raise_for_status()
                made["seconds"] = time.monotonic() - t

            maker = threading.Thread(target=make)
            maker.start()
            answers = []
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=600) as poll:
                while maker.is_alive():
                    t = time.monotonic()
                    poll.get("/api/meta").raise_for_status()
                    answers.append(time.monotonic() - t)
                    time.sleep(0.02)
            maker.join()
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    stalls = [line for line in err.splitlines() if "stalled" in line]
    answers.sort()
    return {"up": up, "table": made["seconds"], "polls": len(answers), "longest": answers[-1],
            "p99": answers[int(0.99 * (len(answers) - 1))], "median": statistics.median(answers),
            "stalls": stalls}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", help="run the server from this source folder instead (PYTHONPATH)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cache, work = Path(tmp) / "numba", Path(tmp)
        cache.mkdir()
        print(f"{'cache':6} {'up s':>5} {'table s':>8} {'polls':>6} {'meta longest':>13} {'p99':>7} {'median':>7}")
        for label in ("empty", "filled"):
            r = run(cache, work, args.src)
            print(f"{label:6} {r['up']:5.1f} {r['table']:8.2f} {r['polls']:6d} {r['longest'] * 1000:10.0f} ms"
                  f" {r['p99'] * 1000:4.0f} ms {r['median'] * 1000:4.1f} ms", flush=True)
            for line in r["stalls"]:  # what the server's loop watch logged
                print(f"    {line}")


if __name__ == "__main__":
    main()
