"""The bots' compiled kernel, made ready off the event loop when the server starts.

The expert's kernel (:mod:`callbreak.bots.kernel`) is compiled by numba the first time it runs
after an install, which takes many seconds of CPU, then loaded from numba's disk cache in a
fraction of a second. Compiled on the server's event loop it froze every table; compiled in a
thread of the server it still held the loop up (the compiler keeps the interpreter busy).
So :class:`KernelWarmup` fills the cache in a child process (at a lower priority, so that the
server keeps its share of the CPU; only when the cache lacks the kernel) and then loads it in a
thread, and bots wait for it
(:meth:`KernelWarmup.wait`) instead of compiling it themselves. ``scripts/serve.sh`` fills the
cache at install time with ``python -m callbreak.server.warmup``, so a server only compiles
when the cache is gone.

Loading numba and the kernel makes a few hundred thousand objects that live as long as the
server, which Python's garbage collector would walk in every full collection: a tenth of a second
or more with the interpreter held, on whichever thread happens to allocate, the event loop's as
often as not. The server's warm-up therefore loads with automatic collection paused and then
freezes what it made (:func:`frozen_after`), so later collections walk only what the tables make.

>>> w = KernelWarmup(child=False)
>>> w.state, w.ready
('waiting', False)
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import subprocess
import sys
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

log = logging.getLogger("callbreak.server")

CHILD_NICENESS = 10  # the compile is background work: the tables come first


def warm_kernel() -> None:
    """Compile (or load from the cache) the kernel in this process."""
    from callbreak.bots.kernel import get_kernel

    get_kernel().warm_up()


def frozen_after(work: Callable[[], T]) -> T:
    """``work()`` with automatic garbage collection paused, and every object alive after it
    frozen: moved where no collection looks again (a server's startup heap lives as long as it)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return work()
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


def kernel_cached() -> bool:
    """Whether the kernel would load from numba's disk cache without compiling."""
    from callbreak.bots.kernel import get_kernel

    return get_kernel().cached()


class KernelWarmup:
    """Makes the kernel ready once, off the loop; ``state`` is waiting, compiling, ready or failed.

    ``child=True`` fills the disk cache in a child process first (the real server);
    ``child=False`` compiles or loads in a thread of this process (in-process apps, tests).
    A failed warm-up counts as ready (a bot that needs the kernel then fails and its table plays
    the default action, as for any failing bot): the server goes on serving the other bots.
    """

    def __init__(self, *, child: bool = True) -> None:
        self.child = child
        self.state = "waiting"
        self.error = ""
        self.seconds: float | None = None
        self._done: asyncio.Event | None = None
        self._child: asyncio.subprocess.Process | None = None

    @property
    def ready(self) -> bool:
        return self.state in ("ready", "failed")

    async def run(self) -> None:
        """Make the kernel ready; logs how long it took and how."""
        done = self._event()
        self.state = "compiling"
        started = time.monotonic()
        try:
            # Only a server's own process freezes its heap: an app in a test runner's process
            # (child=False) shares it with everything else the runner makes.
            settle = frozen_after if self.child else _plainly
            # The child pays for an interpreter and numba's import (two seconds of CPU): only
            # worth it when there is something to compile.
            if self.child and not await asyncio.to_thread(settle, kernel_cached):
                await self._fill_cache()
            await asyncio.to_thread(settle, warm_kernel)
        except Exception as e:  # the bots that need it fail on their own; the rest play on
            self.state, self.error = "failed", f"{type(e).__name__}: {e}"
            log.error("the bots' compiled kernel could not be made ready: %s", self.error)
        else:
            self.state = "ready"
            self.seconds = round(time.monotonic() - started, 2)
            log.info("the bots' compiled kernel is ready (%.1f s)", self.seconds)
        finally:
            done.set()

    async def wait(self) -> None:
        """Until the kernel is ready (at once when it is)."""
        if not self.ready:
            await self._event().wait()

    async def close(self) -> None:
        """End a child still compiling (the server is stopping)."""
        child = self._child
        if child is not None and child.returncode is None:
            child.kill()
            await child.wait()

    def _event(self) -> asyncio.Event:
        if self._done is None:
            self._done = asyncio.Event()
        return self._done

    async def _fill_cache(self) -> None:
        proc = self._child = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "callbreak.server.warmup", "--nice", str(CHILD_NICENESS),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, err = await proc.communicate()
        if proc.returncode != 0:  # the thread below compiles in this process instead
            log.warning("filling the kernel's cache in a child process failed (%s); compiling here",
                        err.decode(errors="replace").strip().splitlines()[-1:] or proc.returncode)


def _plainly(work: Callable[[], T]) -> T:
    return work()


if __name__ == "__main__":  # python -m callbreak.server.warmup: fill the cache (scripts/serve.sh)
    if sys.argv[1:2] == ["--nice"]:
        os.nice(int(sys.argv[2]))
    started = time.monotonic()
    warm_kernel()
    print(f"the bots' compiled kernel is ready ({time.monotonic() - started:.1f} s)")
