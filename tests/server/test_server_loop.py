"""Nothing slow on the event loop (issue 30): the expert's kernel is compiled off it, bots are
built off it, and the loop's own watch (server/loopwatch.py) records every stall over 100 ms,
and how much of it the loop thread computed.

The real-process tests run ``callbreak serve`` as an operator does. No test bounds the wall
clock (a busy machine must not fail one); each asserts what the issue's bounds meant: the loop
watch saw no stall of ours, in which the loop thread itself computed over 100 ms (a stall on a
busy machine, where the loop thread waited for a core, is the machine's, not our code's). The
cold start (the lobby answered while the first expert table waits for a compile from an empty
cache) is tested with the lobby's page, in tests/browser/test_browser_limits.py.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from server_helpers import SeatClient, choose, create, store_fixture  # noqa: F401 (a fixture)
from starlette.testclient import TestClient
from test_server_restart import Server
from websockets.sync.client import connect

from callbreak.server.app import create_app
from callbreak.server.loopwatch import LoopWatch
from callbreak.server.tables import TableService
from callbreak.store import Store

STALL_BOUND = 0.1  # seconds: the bound on any block of the loop in a game


def watched(block: Callable[[], object], threshold: float = 0.1) -> LoopWatch:
    """A loop watch over ``block()`` run on the event loop, between two quiet moments."""
    async def main() -> LoopWatch:
        watch = LoopWatch(threshold=threshold)
        watch.start()
        await asyncio.sleep(0.1)
        block()
        await asyncio.sleep(0.1)
        await watch.stop()
        return watch

    return asyncio.run(main())


def test_the_watch_logs_a_stall_with_what_was_running(caplog: pytest.LogCaptureFixture) -> None:
    def hold_the_loop() -> None:
        time.sleep(0.3)  # what a slow call on the loop does to every other table

    with caplog.at_level(logging.WARNING, logger="callbreak.server"):
        watch = watched(hold_the_loop)
    # (A busy machine may add stalls of its own, and lengthen this one: no upper bound.)
    assert watch.stalls >= 1 and watch.worst > 0.25
    stall = next(s for s in watch.recent if "hold_the_loop" in s.running)
    assert "test_server_loop.py" in stall.running and stall.seconds > 0.25
    assert stall.cpu < 0.1  # it slept: the loop thread was held up, not computing
    assert watch.cpu_stalls == 0 and watch.worst_cpu < 0.1  # ... so not counted as computing
    assert any("event loop stalled" in r.message and "hold_the_loop" in r.message for r in caplog.records)


def test_a_stall_the_loop_thread_spends_computing_is_counted_apart() -> None:
    """Our code computing on the loop for 300 ms of CPU is a stall of ours however busy the
    machine (the time is the loop thread's own CPU time, not the clock's)."""
    def compute_on_the_loop() -> None:
        began = time.thread_time()
        while time.thread_time() - began < 0.3:
            pass

    watch = watched(compute_on_the_loop)
    assert watch.cpu_stalls == 1 and watch.worst_cpu >= 0.3, watch.recent
    assert any("compute_on_the_loop" in s.running and s.cpu >= 0.3 for s in watch.recent), watch.recent


def test_a_stall_spent_collecting_garbage_says_so() -> None:
    """A full collection of a large heap, run by the loop thread, holds the interpreter so that
    no stack of it can be taken: the stall says how much of its CPU time went on collecting."""
    heap = [[i] for i in range(1_500_000)]  # tracked objects for the collector to walk

    def collect_on_the_loop() -> None:
        import gc

        gc.collect()

    watch = watched(collect_on_the_loop, threshold=0.01)
    assert len(heap) == 1_500_000  # (alive through the collection)
    collecting = [s for s in watch.recent if s.collecting > 0.01]
    assert collecting and all(s.collecting <= s.cpu + 0.001 for s in collecting), watch.recent


def test_short_waits_are_not_stalls() -> None:
    """A lag under the threshold is seen but not counted; exactly the lags over it are stalls
    (the waits are 80 ms, but a busy machine can stretch one past 100 ms: that one counts)."""
    lags: list[float] = []

    async def main() -> LoopWatch:
        watch = LoopWatch(threshold=0.1, observe=lags.append)
        watch.start()
        for _ in range(5):
            time.sleep(0.08)  # held up, but less than the threshold
            await asyncio.sleep(0.06)
        await watch.stop()
        return watch

    watch = asyncio.run(main())
    assert watch.worst == max(lags) > 0.01  # the waits were seen
    assert watch.stalls == sum(lag > 0.1 for lag in lags) < len(lags), lags


@pytest.mark.process
@pytest.mark.slow
def test_a_whole_game_with_bots_never_blocks_the_loop_over_100_ms(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'game.db'}", practice=False)
    try:
        while server.http.get("/readyz").json()["kernel"] != "ready":  # the kernel, from its cache
            time.sleep(0.1)
        r = server.http.post("/api/tables", json={"name": "Ann", "settings": {
            "preset": "callbreak", "deals": 2, "bots": ["expert:budget=0.2"] * 4, "bot_delay": 0}})
        assert r.status_code == 200, r.text
        code, token = r.json()["code"], r.json()["token"]
        over = _play_over_a_socket(server.port, code, token)
        assert over["view"]["phase"] == "over"
        health = server.http.get("/healthz").json()
        printed = server.printed()
        # Our code never held the loop: no stall in which the loop thread itself computed over
        # the bound. (A stall the loop thread spent waiting for a core of a busy machine is not
        # ours: one of 0.241 s with 0.001 s on the loop thread's CPU failed the full suite.)
        assert health["loop"]["threshold"] == STALL_BOUND
        assert health["loop"]["cpu_stalls"] == 0 and health["loop"]["worst_cpu"] <= STALL_BOUND, (
            health, [line for line in printed.splitlines() if "stalled" in line])
    finally:
        server.stop()


def test_a_bot_move_that_computes_on_the_loop_is_caught_in_a_game(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the whole-game test asserts can fail: one bot move of a game that computes 250 ms on
    the event loop (our code's stall, not the machine's) shows in /healthz's cpu_stalls."""
    play_for = TableService._play_for
    computed: list[float] = []

    async def slow_play_for(self: TableService, table: Any, action: Any, why: str, memory: Any = None) -> None:
        if why == "bot" and not computed:
            began = time.thread_time()
            while time.thread_time() - began < 0.25:
                pass
            computed.append(time.thread_time() - began)
        await play_for(self, table, action, why, memory)

    monkeypatch.setattr(TableService, "_play_for", slow_play_for)
    with TestClient(create_app(store, practice=True)) as client:
        made = create(client, deals=1, bots=["random"] * 4)
        seat = SeatClient(client, made["code"], made["token"])
        seat.start()
        r = client.post(f"/api/tables/{made['code']}/start", json={"token": made["token"]})
        assert r.status_code == 200, r.text
        seat.join()
        assert seat.error is None and seat.messages[-1]["view"]["phase"] == "over", seat.error
        loop = client.get("/healthz").json()["loop"]
    assert computed
    assert loop["cpu_stalls"] >= 1 and loop["worst_cpu"] > STALL_BOUND, loop


def _play_over_a_socket(port: int, code: str, token: str) -> dict[str, Any]:
    """Seat 0 as a page plays it (start, then the first ordinary legal action each turn)."""
    with connect(f"ws://127.0.0.1:{port}/ws/{code}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        ws.send(json.dumps({"type": "start", "token": token}))
        while True:
            m = json.loads(ws.recv())
            if m["type"] == "error":
                raise AssertionError(m)
            if m["type"] != "state" or m["view"] is None:
                continue
            if m["view"]["phase"] == "over":
                return m  # type: ignore[no-any-return]
            action = choose(m["view"])
            if action is not None:
                ws.send(json.dumps({"type": "action", "token": token, "version": m["version"], "action": action}))
        raise AssertionError("the game did not finish in 300 s")
