"""What /readyz means while the bots' kernel compiles (issue 30): the process is ready, since it
serves every page and every table whose bots do not run on the kernel; a table with the expert
waits for it and says so. Ready means the database answers and the process is not stopping."""

from __future__ import annotations

import asyncio
import gc
import threading
from typing import Any

import pytest
from server_helpers import SeatClient, create, store_fixture  # noqa: F401 (a fixture)
from starlette.testclient import TestClient

from callbreak.server import warmup
from callbreak.server.app import create_app
from callbreak.server.cluster import Cluster
from callbreak.server.tables import PREPARING, TableService
from callbreak.server.warmup import KernelWarmup
from callbreak.store import Store

HANG = 60  # seconds: only a hang runs into it


def test_ready_while_the_kernel_compiles_and_a_random_table_plays(store: Store,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = threading.Event()
    monkeypatch.setattr(warmup, "warm_kernel", lambda: compiled.wait(HANG))  # a compile held open
    try:
        with TestClient(create_app(store, practice=True)) as client:
            ready = client.get("/readyz")
            assert ready.status_code == 200, ready.text
            assert ready.json()["kernel"] == "compiling" and ready.json()["preparing"] == PREPARING
            made = create(client, deals=1, bots=["random"] * 4)
            seat = SeatClient(client, made["code"], made["token"])
            seat.start()
            assert client.post(f"/api/tables/{made['code']}/start", json={"token": made["token"]}).status_code == 200
            seat.join()
            assert seat.error is None and seat.messages[-1]["view"]["phase"] == "over", seat.error
            assert client.get("/readyz").json()["kernel"] == "compiling"  # the whole game meanwhile
            compiled.set()
            while (body := client.get("/readyz").json())["kernel"] != "ready":
                compiled.wait(0.05)
            assert body == {"ready": True, "kernel": "ready", "database": "ok", "pid": body["pid"]}
    finally:
        compiled.set()


@pytest.mark.parametrize(("bots", "runs"), [(["random", "heuristic", "neural", "greedy"], True),
                                             (["random", "random", "random", "expert"], False),
                                             (["expert:budget=0.1"] * 4, False)])
def test_a_process_still_compiling_takes_over_only_tables_its_bots_can_play(
        store: Store, bots: list[str], runs: bool) -> None:
    """Which unowned tables a process takes over (or takes when offered to any process) while
    its kernel compiles: those whose bots do not run on it; an expert table waits for a process
    whose kernel is ready. Once ready, it takes every table."""
    service = TableService(store)
    service.warmup = KernelWarmup(child=False)
    service.warmup.state = "compiling"
    cluster = Cluster(service)
    config: dict[str, Any] = {"game": "callbreak", "preset": "callbreak", "bots": bots}
    assert cluster._can_run(config) is runs
    service.warmup.state = "ready"
    assert cluster._can_run(config) is True


@pytest.mark.parametrize("cached", [True, False])
def test_the_warm_up_starts_a_compiling_child_only_when_the_cache_lacks_the_kernel(
        monkeypatch: pytest.MonkeyPatch, cached: bool) -> None:
    """A child process costs an interpreter and numba's import: a server whose disk cache holds
    the kernel (every start after the first) loads it in a thread and starts none."""
    children: list[str] = []

    async def fill_cache(self: KernelWarmup) -> None:
        children.append("child")

    monkeypatch.setattr(warmup, "kernel_cached", lambda: cached)
    monkeypatch.setattr(KernelWarmup, "_fill_cache", fill_cache)
    monkeypatch.setattr(warmup, "warm_kernel", lambda: None)
    w = KernelWarmup(child=True)
    try:
        asyncio.run(w.run())
    finally:
        gc.unfreeze()  # (a server's warm-up freezes its heap: this is the test runner's)
    assert w.state == "ready"
    assert children == ([] if cached else ["child"])


def test_a_servers_warm_up_leaves_what_it_loaded_out_of_every_later_collection() -> None:
    """numba and the kernel are a few hundred thousand objects for the life of the server: a
    full collection walking them held the event loop a tenth of a second or more. Made under
    :func:`warmup.frozen_after`, no collection meets them (none during the load either, on the
    loop's thread or another), and the collector is on again afterwards."""
    collections: list[str] = []

    def load() -> list[list[int]]:
        made = [[i] for i in range(100_000)]  # as long-lived as numba's objects
        assert not gc.isenabled()
        return made

    def seen(phase: str, info: dict[str, int]) -> None:
        collections.append(phase)

    gc.callbacks.append(seen)
    try:
        loaded = warmup.frozen_after(load)
        assert not collections  # none ran while loading
        assert gc.isenabled() and gc.get_freeze_count() >= len(loaded)
        assert not any(o is loaded for o in gc.get_objects())  # what a collection walks
    finally:
        gc.callbacks.remove(seen)
        gc.unfreeze()
