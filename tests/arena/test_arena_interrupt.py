"""One Ctrl+C stops ``callbreak arena`` within seconds: its workers end, a remote bot is asked
nothing more, and the finished duplicate sets are printed (and written with ``--json``).

Run against real processes: the arena as a subprocess in its own process group (a terminal's
Ctrl+C reaches the whole group, workers included) and a real ``callbreak bot-server``.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from callbreak.arena import ArenaInterrupted, ArenaPlan, run_arena, run_sets
from callbreak.arena.tournament import stop_workers
from callbreak.core import make_rules

CALLBREAK = str(Path(sys.executable).parent / "callbreak")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        out += [int(c) for c in (task / "children").read_text().split()]
    return out


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


@pytest.fixture
def bot_server() -> Iterator[tuple[str, int]]:
    """``callbreak bot-server`` serving the heuristic bot: its URL and process id."""
    from callbreak.protocol import wait_until_ready

    port = _free_port()
    server = subprocess.Popen([CALLBREAK, "bot-server", "--bot", "heuristic", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(url, timeout=60)
        yield url, server.pid
    finally:
        server.terminate()
        server.wait(timeout=10)


def _interrupt(arena: subprocess.Popen[str], *, group: bool) -> tuple[str, str]:
    """SIGINT to the arena (its whole process group, as a terminal does, or the process alone);
    its output once it exits (a hang past a minute fails the test)."""
    if group:
        os.killpg(arena.pid, signal.SIGINT)
    else:
        arena.send_signal(signal.SIGINT)
    return arena.communicate(timeout=60)


@pytest.mark.process
def test_one_ctrl_c_stops_an_arena_with_a_bot_server_and_its_workers(
        bot_server: tuple[str, int], tmp_path: Path) -> None:
    url, server_pid = bot_server
    out_json = tmp_path / "r.json"
    arena = subprocess.Popen(
        [CALLBREAK, "arena", url, "random", "--preset", "bhoos-tournament", "--matches", "500",
         "--workers", "2", "--budget", "1", "--seed", "1", "--json", str(out_json)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        time.sleep(12)  # long enough for some sets to finish
        workers = _children(arena.pid)
        assert len(workers) >= 2
        out, err = _interrupt(arena, group=True)
    finally:
        if arena.poll() is None:
            os.killpg(arena.pid, signal.SIGKILL)
    # Stopped, not finished: what the run had left was never played (the wall clock of a busy
    # machine says nothing of that; the sets do).
    assert arena.returncode == 130, err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert "stopped (Ctrl+C)" in err
    time.sleep(0.5)
    assert not any(_alive(w) for w in workers)
    data = json.loads(out_json.read_text())
    assert data["interrupted"] is True and data["planned_sets"] == 500
    assert 1 <= data["duplicate_sets"] < 500
    assert data["deals"] == data["duplicate_sets"] * 4 * 5
    assert url in out and "stopped by Ctrl+C" in out
    # Nobody asks the bot anything more: its server goes idle.
    before = _cpu_ticks(server_pid)
    time.sleep(2)
    assert _cpu_ticks(server_pid) - before < 30  # clock ticks (1/100 s): well under 0.3 s of work


@pytest.mark.process
def test_ctrl_c_to_the_arena_process_alone_stops_an_in_process_run(tmp_path: Path) -> None:
    out_json = tmp_path / "r.json"
    arena = subprocess.Popen(
        [CALLBREAK, "arena", "heuristic", "random", "--matches", "5000", "--workers", "1",
         "--seed", "2", "--json", str(out_json)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        time.sleep(8)
        out, err = _interrupt(arena, group=False)
    finally:
        if arena.poll() is None:
            os.killpg(arena.pid, signal.SIGKILL)
    assert arena.returncode == 130, err
    assert "Traceback" not in err
    data = json.loads(out_json.read_text())
    assert data["interrupted"] and 1 <= data["duplicate_sets"] < data["planned_sets"] == 5000
    assert "heuristic" in out


@pytest.mark.parametrize("workers", [1, pytest.param(2, marks=pytest.mark.process)])
def test_an_interrupt_keeps_the_finished_sets(workers: int) -> None:
    plan = ArenaPlan(("random", "random"), make_rules("callbreak").replace(deals=1), seed=3, sets=40)

    def stop_after_some(done: int, total: int) -> None:
        if done >= 17:  # a worker has finished two sets: the first is surely back
            raise KeyboardInterrupt

    with pytest.raises(ArenaInterrupted) as stopped:
        run_sets(plan, workers=workers, progress=stop_after_some)
    finished = stopped.value.sets
    assert stopped.value.planned == 40 and 1 <= len(finished) < 40
    assert [s.set_index for s in finished] == sorted(s.set_index for s in finished)
    assert all(len(s.tables) == 4 for s in finished)  # only whole sets
    with pytest.raises(ArenaInterrupted) as again:
        run_arena(plan, preset="callbreak", workers=workers, progress=stop_after_some)
    report = again.value.report
    assert report is not None and report.interrupted
    assert report.to_json()["planned_sets"] == 40


@pytest.mark.process
def test_stopping_the_workers_ends_even_when_the_pools_own_end_never_would() -> None:
    """A worker stopped while it wrote a result leaves the pool's results lock held, and
    ``Pool.terminate`` then waits for ever (it hung an arena's Ctrl+C): the arena's stop
    returns all the same, its workers ended."""
    before = set(multiprocessing.active_children())
    pool = multiprocessing.Pool(2)
    processes = [p for p in multiprocessing.active_children() if p not in before]
    assert pool.map(abs, [-1, -2]) == [1, 2] and len(processes) == 2
    lock = pool._outqueue._wlock  # type: ignore[attr-defined]  # what such a worker leaves held
    lock.acquire()
    try:
        assert stop_workers(pool, processes, wait=0.5) is False  # the pool's end is still stuck
        assert all(p.exitcode is not None for p in processes)  # ... but no worker runs on
    finally:
        lock.release()  # (the pool's threads end now)
