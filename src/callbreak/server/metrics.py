"""What the server exports at ``/metrics`` for Prometheus (``prometheus_client``).

One :class:`Metrics` per app, on a registry of its own (several apps in one process, as in the
tests, do not share counts). With several processes on one port (``callbreak serve --workers
N``), ``PROMETHEUS_MULTIPROC_DIR`` is set by ``callbreak serve`` and ``/metrics`` adds up every
process of the server (live gauges summed over the live processes).

>>> m = Metrics()
>>> m.actions.inc()
>>> b"callbreak_actions_total 1.0" in m.render()[0]
True
"""

from __future__ import annotations

import os
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
BOT_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)
LAG_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)


class Metrics:
    """The server's counters, gauges and histograms (names start with ``callbreak_``)."""

    def __init__(self) -> None:
        self.multiprocess = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))
        # In multiprocess mode the values live in files and the registry is built at each scrape.
        self.registry: CollectorRegistry | None = None if self.multiprocess else CollectorRegistry()
        reg: Any = self.registry
        live: dict[str, Any] = {"multiprocess_mode": "livesum"} if self.multiprocess else {}
        self.tables = Gauge("callbreak_tables_live", "Live tables run by this server (not finished; "
                            "with several processes each counts those it owns)", ["status"],
                            registry=reg, **live)
        self.bot_tables = Gauge("callbreak_bot_tables_live", "Live tables with a bot seat (counted "
                                "against the server's ceiling)", registry=reg, **live)
        self.sockets = Gauge("callbreak_sockets", "Open table websockets", registry=reg, **live)
        self.actions = Counter("callbreak_actions", "Actions stored (players', bots' and the "
                               "server's own: deals)", registry=reg)
        self.latency = Histogram("callbreak_action_latency_seconds", "From an action stored to its "
                                 "new state written to a socket of this process",
                                 buckets=LATENCY_BUCKETS, registry=reg)
        self.takeovers = Counter("callbreak_takeovers", "Tables this server took over (a dead or "
                                 "stopping process's, or one handed to it)", registry=reg)
        self.handovers = Counter("callbreak_handovers", "Tables handed on to the process where "
                                 "their players are", registry=reg)
        self.leases_lost = Counter("callbreak_leases_lost", "Tables whose lease this server lost",
                                   registry=reg)
        self.forwarded = Counter("callbreak_forwarded_calls", "Calls forwarded to the process that "
                                 "runs the table, by what they do (act, join, start...)", ["method"],
                                 registry=reg)
        self.bot_seconds = Histogram("callbreak_bot_decision_seconds", "Time of one bot decision "
                                     "(or hint), by bot", ["bot"], buckets=BOT_BUCKETS, registry=reg)
        self.loop_lag = Histogram("callbreak_loop_lag_seconds", "How late the event loop ran a "
                                  "beat due every 50 ms", buckets=LAG_BUCKETS, registry=reg)
        self.stalls = Counter("callbreak_loop_stalls", "Event loop stalls over the threshold "
                              "(100 ms), each logged with what was running", registry=reg)
        lowest: dict[str, Any] = {"multiprocess_mode": "livemin"} if self.multiprocess else {}
        self.kernel_ready = Gauge("callbreak_kernel_ready", "1 once the bots' compiled kernel is "
                                  "ready (in every process)", registry=reg, **lowest)
        self.refusals = Counter("callbreak_refusals", "Requests refused by a limit, by its code",
                                ["code"], registry=reg)
        self.unrecorded = Counter("callbreak_unrecorded_games", "Games over whose end the store "
                                  "refused for good (not for being away): they never reach the "
                                  "history", registry=reg)

    def render(self) -> tuple[bytes, str]:
        """The exposition text and its content type."""
        if self.registry is not None:
            return generate_latest(self.registry), CONTENT_TYPE_LATEST
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST


def mark_dead(pid: int) -> None:
    """A worker process has ended: its live gauges stop counting (multiprocess mode)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]
