"""A watch on the event loop: every stall over a threshold is logged with what was running.

Everything a table does runs on one event loop, so anything slow there (a bot built, a kernel
compiled, a long store call) holds up every table and socket of the process. :class:`LoopWatch`
beats on the loop every ``tick`` seconds; a watchdog thread that sees no beat for ``threshold``
seconds takes the loop thread's stack at that moment, and when the loop beats again the stall is
logged with its length, how much of it the loop thread itself spent on the CPU (little of it: the
thread waited, for the machine or another thread), and that stack.

A stall is not always our code's doing: on a busy machine the loop thread can wait for a core
for a quarter of a second with nothing of ours running long. What our code does to the loop is
told by the loop thread's CPU time: ``cpu_stalls`` counts the stalls in which the loop thread
itself computed for more than the threshold (our code blocking the loop, however idle the
machine), ``worst_cpu`` is the most CPU time of any stall. Python's garbage collector runs on
whichever thread happens to allocate, holding the interpreter throughout, so a full collection of
a large heap is CPU time of the loop thread that no stack shows; each stall says how much of it
went on collecting.

>>> watch = LoopWatch(threshold=0.1)
>>> watch.worst, watch.stalls, watch.worst_cpu, watch.cpu_stalls
(0.0, 0, 0.0, 0)
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType

log = logging.getLogger("callbreak.server")

STALL_THRESHOLD = 0.1  # seconds: the loop held up longer than this is a stall, and logged
TICK = 0.05  # seconds between the loop's beats (a stall is caught however long the tick)


@dataclass(frozen=True, slots=True)
class Stall:
    """One stall of the loop: its length in seconds, the loop thread's CPU seconds meanwhile, the
    seconds the loop thread spent collecting garbage, and where the loop thread was when the stall
    passed the threshold."""

    seconds: float
    cpu: float
    running: str
    collecting: float = 0.0


class LoopWatch:
    """Beats on the running loop and records every stall over ``threshold`` seconds.

    ``worst`` is the longest delay of any beat seen (the loop's worst lag), ``stalls`` how many
    were over the threshold, ``recent`` the latest of them; ``cpu_stalls`` how many of them the
    loop thread spent more than the threshold on the CPU (it computed: our code held the loop,
    not the machine), ``worst_cpu`` the most CPU seconds of the loop thread in any stall;
    ``observe`` (if given) is called with every beat's lag, for metrics.
    """

    def __init__(self, *, threshold: float = STALL_THRESHOLD, tick: float = TICK,
                 observe: Callable[[float], None] | None = None) -> None:
        self.threshold = threshold
        self.tick = tick
        self.observe = observe
        self.worst = 0.0
        self.stalls = 0
        self.worst_cpu = 0.0
        self.cpu_stalls = 0
        self.recent: deque[Stall] = deque(maxlen=20)
        self._beat = time.monotonic()
        self._loop_thread: int | None = None
        self._seen: tuple[float, str] | None = None  # (the beat it is late after, the stack)
        self._collecting = 0.0  # seconds the loop thread has spent in the garbage collector
        self._collection_began: float | None = None
        self._task: asyncio.Task[None] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start watching the running loop (call from a coroutine on it)."""
        self._loop_thread = threading.get_ident()
        self._beat = time.monotonic()
        self._stop.clear()
        self._task = asyncio.get_running_loop().create_task(self._beats(), name="loop-watch")
        gc.callbacks.append(self._collection)
        self._thread = threading.Thread(target=self._watchdog, name="loop-watchdog", daemon=True)
        self._thread.start()

    async def stop(self) -> None:
        self._stop.set()
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._collection)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._thread is not None:
            self._thread.join(1.0)

    def _collection(self, phase: str, info: dict[str, int]) -> None:
        if threading.get_ident() != self._loop_thread:
            return
        if phase == "start":
            self._collection_began = time.thread_time()
        elif self._collection_began is not None:
            self._collecting += time.thread_time() - self._collection_began
            self._collection_began = None

    async def _beats(self) -> None:
        last, last_cpu, last_collecting = time.monotonic(), time.thread_time(), self._collecting
        while True:
            self._beat = last
            await asyncio.sleep(self.tick)
            now, cpu, collecting = time.monotonic(), time.thread_time(), self._collecting
            lag = max(0.0, now - last - self.tick)
            spent, collected = cpu - last_cpu, collecting - last_collecting
            last, last_cpu, last_collecting = now, cpu, collecting
            self.worst = max(self.worst, lag)
            if self.observe is not None:
                self.observe(lag)
            if lag > self.threshold:
                seen = self._seen
                running = seen[1] if seen is not None else "(not caught: the stall ended first)"
                self.stalls += 1
                self.worst_cpu = max(self.worst_cpu, spent)
                if spent > self.threshold:
                    self.cpu_stalls += 1
                self.recent.append(Stall(round(lag, 3), round(spent, 3), running, round(collected, 3)))
                log.warning("event loop stalled %.3f s (%.3f s of it on the CPU, %.3f s collecting garbage),"
                            " running: %s", lag, spent, collected, running)
            self._seen = None

    def _watchdog(self) -> None:
        # A look four times a threshold: the stack is caught soon after a stall passes it, and
        # a process pays for a few dozen wake-ups a second, not hundreds.
        while not self._stop.wait(self.threshold / 4):
            beat = self._beat
            late = time.monotonic() - beat - self.tick
            if late > self.threshold and (self._seen is None or self._seen[0] != beat):
                frame = sys._current_frames().get(self._loop_thread or -1)
                self._seen = (beat, describe(frame))


def describe(frame: FrameType | None, depth: int = 6) -> str:
    """The innermost ``depth`` frames of a stack, innermost first, as ``file:line function``;
    the callbreak ones are named by their path inside the package."""
    if frame is None:
        return "(no stack)"
    frames = traceback.extract_stack(frame)[::-1]
    shown = []
    for f in frames[:depth]:
        name = f.filename
        if "/callbreak/" in name:
            name = "callbreak/" + name.rsplit("/callbreak/", 1)[1]
        else:
            name = name.rsplit("/", 1)[-1]
        shown.append(f"{name}:{f.lineno} {f.name}")
    return " < ".join(shown)
