"""Reviews of finished web games: judged in a process pool, away from the event loop, and kept.

A review is asked for once (``POST /api/history/{code}/review``); its decisions are judged by
worker processes while tables go on playing, the progress is polled
(``GET /api/history/{code}/review``), and the finished review is stored, so it is computed once.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from callbreak.core import CallbreakError
from callbreak.core.words import N_
from callbreak.games.registry import View
from callbreak.record import Record
from callbreak.review import (
    ReviewSettings,
    ReviewUnavailable,
    assemble,
    check_reviewable,
    decisions_to_judge,
    judge_decision,
)
from callbreak.server.wire import MessageError
from callbreak.store import Store

log = logging.getLogger("callbreak.server")


def _end_with(server: int) -> None:
    """In a review worker: exit as soon as the server process that started it is gone."""
    def watch() -> None:
        while os.getppid() == server:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="end-with-server", daemon=True).start()


@dataclass
class _Job:
    total: int
    done: int = 0
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class ReviewJobs:
    """Running and finished reviews of the store's games."""

    def __init__(self, store: Store, record_of: Callable[[Any], Record],
                 settings: ReviewSettings | None = None, workers: int = 2) -> None:
        self.store = store
        self.record_of = record_of
        self.settings = settings or ReviewSettings()
        self.workers = workers
        self.jobs: dict[str, _Job] = {}
        self._pool: ProcessPoolExecutor | None = None

    def running(self) -> int:
        """How many reviews are being worked out (a failed one is not)."""
        return sum(1 for job in self.jobs.values() if job.error is None)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def _key(self) -> dict[str, Any]:
        return asdict(self.settings)

    def status(self, stored: Any) -> dict[str, Any]:
        """``none``, ``running`` (with done/total), ``failed`` (with a message) or ``done`` (with
        the review)."""
        review = self.store.load_review(stored.id, self._key())
        if review is not None:
            return {"status": "done", "review": review}
        job = self.jobs.get(stored.code)
        if job is None:
            return {"status": "none"}
        if job.error is not None:
            return {"status": "failed", "message": job.error}
        return {"status": "running", "done": job.done, "total": job.total}

    def start(self, stored: Any) -> dict[str, Any]:
        """Start reviewing a finished game (nothing to do if it is done or running)."""
        current = self.status(stored)
        if current["status"] in ("done", "running"):
            return current
        record = self.record_of(stored)
        try:
            check_reviewable(record)
            todo = list(decisions_to_judge(record))
        except ReviewUnavailable as e:
            raise MessageError("no_review", N_("this game cannot be reviewed: {problem}"), problem=str(e), english=str(e)) from None
        except CallbreakError as e:
            raise MessageError("no_review", N_("this game cannot be reviewed: {problem}"), problem=str(e)) from None
        job = self.jobs[stored.code] = _Job(total=len(todo))
        job.task = asyncio.get_running_loop().create_task(self._run(stored.id, record, todo, job))
        return self.status(stored)

    async def _run(self, game_id: int, record: Record, todo: list[Any], job: _Job) -> None:
        if self._pool is None:
            # Spawned, not forked (a forked worker holds the server's listening socket), and
            # ended with the server: a worker holds both ends of the pool's queue, so it would
            # never see a server that died, or was stopped mid-review, go away.
            self._pool = ProcessPoolExecutor(self.workers,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_end_with, initargs=(os.getpid(),))
        loop = asyncio.get_running_loop()

        async def one(index: int, view: View, action: Any) -> Any:
            result = await loop.run_in_executor(self._pool, judge_decision, index, view, action,
                                                self.settings)
            job.done += 1
            return result

        try:
            decisions = await asyncio.gather(*(one(i, v, a) for i, v, a in todo))
            review = assemble(record, self.settings, decisions)
            self.store.save_review(game_id, self._key(), review.to_json())
            self.jobs.pop(record.meta.get("code", ""), None)
        except Exception as e:  # a worker lost: say so, and let the next request try again
            log.exception("review of game %s failed", game_id)
            job.error = f"the review failed ({type(e).__name__}); ask again to retry"
