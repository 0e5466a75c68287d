"""Running a whole arena: duplicate sets on local processes or on Ray, then the summary.

Each task is one duplicate set (:func:`callbreak.arena.duplicate.run_set`). Results are put back
in set order before anything is summed, so the report is the same with one worker, many workers
or a Ray cluster.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import socket
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from callbreak.arena.duplicate import ArenaPlan, SetResult, TableResult, run_set, tables_per_set
from callbreak.arena.runner import PLAYERS, ArenaError
from callbreak.arena.stats import mean_ci, percentile, plackett_luce_ratings
from callbreak.referee import Fault

Progress = Callable[[int, int], None]  # (tables done, tables in all)


class RayUnavailableError(ArenaError):
    """Ray is not installed, or the cluster cannot be started or reached (nothing was played)."""


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def sets_for(players: int, deals_per_match: int, *, matches: int | None = None,
             deals: int | None = None, partnership: bool = False, seats: int = PLAYERS) -> int:
    """How many duplicate sets give ``matches`` seeded matches or ``deals`` table deals.

    ``deals`` counts every deal played at every table (each seating of a set plays the set's
    deals), rounded up to whole sets; ``matches`` counts seeded matches, each one a set.
    """
    per_set = tables_per_set(players, partnership, seats)  # also refuses a number of players it cannot seat
    if (matches is None) == (deals is None):
        raise ArenaError("give either a number of matches or a number of deals")
    if matches is not None:
        if matches < 1:
            raise ArenaError(f"--matches must be at least 1, got {matches}")
        return matches
    assert deals is not None
    if deals < 1:
        raise ArenaError(f"--deals must be at least 1, got {deals}")
    return math.ceil(deals / (deals_per_match * per_set))


class ArenaInterrupted(KeyboardInterrupt):
    """Ctrl+C (SIGINT) stopped the run. The workers are stopped; ``sets`` are the duplicate sets
    that had finished, in set order (a set is the unit of the duplicate comparison, so an
    unfinished one is left out), ``planned`` the sets asked for, and ``report`` their summary
    once :func:`run_arena` has made it (None when no set had finished).

    It is a ``KeyboardInterrupt``, so code that does not look for it stops as before.
    """

    def __init__(self, sets: Sequence[SetResult], planned: int) -> None:
        super().__init__(f"interrupted after {len(sets)} of {planned} duplicate sets")
        self.sets = list(sets)
        self.planned = planned
        self.report: ArenaReport | None = None


def run_sets(plan: ArenaPlan, *, workers: int = 1, ray_address: str | None = None,
             progress: Progress | None = None,
             on_faults: Callable[[Sequence[Fault]], None] | None = None) -> list[SetResult]:
    """Play every set of ``plan``; results in set order whatever order they finished in.

    ``progress`` is called with (tables finished, tables in all) as tables finish (on Ray, as
    whole sets finish); ``on_faults`` with a finished table's faults, when it had any (on Ray,
    a finished set's). A ``KeyboardInterrupt`` stops the workers at once and raises
    :class:`ArenaInterrupted` with the sets that had finished.
    """
    if workers < 1:
        raise ArenaError(f"workers must be at least 1, got {workers}")
    done: dict[int, SetResult] = {}
    total = plan.sets * plan.tables_in_set
    tables_done = 0

    def tables_finished(count: int, faults: Sequence[Fault]) -> None:
        nonlocal tables_done
        tables_done += count
        if faults and on_faults is not None:
            on_faults(faults)
        if progress is not None:
            progress(tables_done, total)

    try:
        if ray_address is not None:
            for result in _run_on_ray(plan, ray_address, workers):
                done[result.set_index] = result
                tables_finished(len(result.tables), [f for t in result.tables for f in t.faults])
        elif workers == 1 or plan.sets == 1:
            for i in range(plan.sets):
                done[i] = run_set(plan, i, lambda table: tables_finished(1, table.faults))
        else:
            _run_in_pool(plan, workers, tables_finished, done)
    except KeyboardInterrupt:
        raise ArenaInterrupted([done[i] for i in sorted(done)], plan.sets) from None
    return [done[i] for i in range(plan.sets)]


_table_queue: Any = None  # in a pool worker: where finished tables are announced


def _start_worker(queue: Any) -> None:
    global _table_queue
    _table_queue = queue
    # Ctrl+C at a terminal reaches the whole process group; the parent stops the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_set_in_worker(plan: ArenaPlan, set_index: int) -> SetResult:
    return run_set(plan, set_index, lambda table: _table_queue.put(table.faults))


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore SIGINT while worker processes are forked, so none inherits Python's handler
    before its initializer runs (only the main thread may set handlers; elsewhere a no-op)."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _run_in_pool(plan: ArenaPlan, workers: int,
                 tables_finished: Callable[[int, Sequence[Fault]], None],
                 done: dict[int, SetResult]) -> None:
    """Sets on local processes, into ``done`` by set index; each finished table's faults come
    back through a queue.

    On any exception, Ctrl+C included, the sets already back are kept and the workers are
    terminated at once: a worker may be waiting on a remote bot or deep in a search, and nothing
    it would still do is wanted.
    """
    queue: Any = multiprocessing.SimpleQueue()
    with _sigint_ignored():
        before = set(multiprocessing.active_children())
        pool = multiprocessing.Pool(min(workers, plan.sets), initializer=_start_worker,
                                    initargs=(queue,))
        processes = [p for p in multiprocessing.active_children() if p not in before]

    def drain() -> None:
        count, faults = 0, []
        while not queue.empty():
            faults.extend(queue.get())
            count += 1
        if count:
            tables_finished(count, faults)

    results = pool.imap_unordered(partial(_run_set_in_worker, plan), range(plan.sets))
    try:
        while len(done) < plan.sets:
            try:
                result = results.next(timeout=0.25)
            except multiprocessing.TimeoutError:
                drain()
                continue
            done[result.set_index] = result
            drain()
        drain()
    except BaseException:
        try:
            while True:  # sets that finished but were not yet taken
                result = results.next(timeout=0)
                done[result.set_index] = result
        except BaseException:  # the first exception is the one that counts
            pass
        stop_workers(pool, processes)
        raise
    pool.close()
    pool.join()


POOL_END_WAIT = 5.0  # seconds for a pool's own threads to end once its workers are stopped


def stop_workers(pool: Any, processes: Sequence[Any], wait: float = POOL_END_WAIT) -> bool:
    """Stop a pool and its worker ``processes`` at once; whether the pool's own threads ended
    within ``wait`` seconds.

    ``Pool.terminate`` stops the workers (SIGTERM), then joins the pool's threads, one of which
    ends by writing to the results queue under a lock the workers share: a worker stopped while
    it wrote a result holds that lock for ever, and the join never returns (an arena's Ctrl+C
    hung so, in the test suite). So the pool gets ``wait`` seconds; its threads left waiting are
    daemons, and any worker still running is killed."""
    ender = threading.Thread(target=pool.terminate, name="arena-pool-end", daemon=True)
    ender.start()
    ender.join(wait)
    for process in processes:
        if process.exitcode is None:
            process.kill()
            process.join(wait)
    return not ender.is_alive()


def check_ray(address: str, timeout: float = 3.0) -> None:
    """Refuse ``--ray ADDRESS`` early: Ray missing, or nothing listening at a cluster address.

    (``ray.init`` itself retries an unreachable cluster for minutes before giving up.)
    """
    try:
        import ray  # noqa: F401
    except ImportError:
        raise RayUnavailableError("--ray needs the optional extra: pip install 'callbreak[ray]'") from None
    if address in ("local", "auto"):
        return
    hostport = address.split("://", 1)[-1].rstrip("/")
    host, sep, port = hostport.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise RayUnavailableError(f"--ray expects 'local' or HOST:PORT (or ray://HOST:PORT), got {address!r}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise RayUnavailableError(f"cannot reach a Ray cluster at {address}: {e.strerror or e}") from None


def _run_on_ray(plan: ArenaPlan, address: str, workers: int) -> Iterator[SetResult]:
    check_ray(address)
    import ray

    local = address == "local"
    started = False
    if not ray.is_initialized():
        try:
            if local:
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, log_to_driver=False)
        except Exception as e:  # Ray raises several kinds (ConnectionError, RuntimeError, ...)
            raise RayUnavailableError(f"cannot start or reach Ray at {address!r}: {e}") from None
        started = True
    try:
        remote_set = ray.remote(run_set)
        pending = [remote_set.remote(plan, i) for i in range(plan.sets)]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One player's results over the whole run (points in whole points, times in ms)."""

    index: int
    name: str
    seat_deals: int  # deals played, one per seat the player filled
    seat_matches: int
    mean_score_per_deal: float
    ci95: tuple[float | None, float | None]
    mean_score_per_match: float
    match_ci95: tuple[float | None, float | None]
    margin_per_deal: float  # own score minus the mean of the other side's seats, per deal
    margin_ci95: tuple[float | None, float | None]
    match_win_rate: float
    call_made_rate: float
    mean_move_ms: float
    p99_move_ms: float
    median_move_ms: float
    moves: int
    faults: int
    fault_kinds: dict[str, int]
    rating_mu: float
    rating_sigma: float

    @property
    def rating_ordinal(self) -> float:
        """A conservative skill estimate (mu - 3 sigma), the usual openskill leaderboard value."""
        return self.rating_mu - 3 * self.rating_sigma

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "mean_score_per_deal": self.mean_score_per_deal,
            "ci95": list(self.ci95),
            "match_win_rate": self.match_win_rate,
            "call_made_rate": self.call_made_rate,
            "mean_move_ms": self.mean_move_ms,
            "p99_move_ms": self.p99_move_ms,
            "faults": self.faults,
            "median_move_ms": self.median_move_ms,
            "mean_score_per_match": self.mean_score_per_match,
            "match_ci95": list(self.match_ci95),
            "margin_per_deal": self.margin_per_deal,
            "margin_ci95": list(self.margin_ci95),
            "deals": self.seat_deals,
            "matches": self.seat_matches,
            "moves": self.moves,
            "fault_kinds": dict(self.fault_kinds),
            "rating": {"mu": self.rating_mu, "sigma": self.rating_sigma, "ordinal": self.rating_ordinal},
        }


@dataclass(frozen=True, slots=True)
class ArenaReport:
    plan: ArenaPlan
    preset: str
    sets: tuple[SetResult, ...]
    players: tuple[PlayerSummary, ...]
    faults: tuple[Fault, ...] = field(default=())
    planned_sets: int | None = None  # the sets asked for (None: those played)

    @property
    def interrupted(self) -> bool:
        """The run was stopped (Ctrl+C) before every planned set had been played."""
        return self.planned_sets is not None and self.planned_sets > len(self.sets)

    @property
    def tables(self) -> list[TableResult]:
        return [t for s in self.sets for t in s.tables]

    @property
    def deals(self) -> int:
        """Deals played at all tables together."""
        return sum(len(t.points) for t in self.tables)

    def to_json(self) -> dict[str, Any]:
        plan = self.plan
        options: dict[str, Any] = {"game": plan.game, "players": plan.seats,
                                   **plan.options.to_dict()}
        if plan.partnership:
            seating = ("partnership: a pair against a pair (2 players), or 1st+3rd against 2nd+4th "
                       "(4 players), rotated")
        else:
            seating = (f"{plan.seats} seats; as many players as seats rotated; 2 players: the first "
                       "against copies of the second; otherwise the players fill the seats in "
                       "turn, rotated")
        return {
            "preset": self.preset,
            "seed": self.plan.seed,
            "deals": self.deals,
            "players": [p.to_json() for p in self.players],
            "options": options,
            "duplicate_sets": len(self.sets),
            "matches": len(self.tables),
            "budget": self.plan.budget,
            "seating": seating,
            "interrupted": self.interrupted,
            "planned_sets": len(self.sets) if self.planned_sets is None else self.planned_sets,
        }


def summarise(plan: ArenaPlan, preset: str, sets: Sequence[SetResult],
              names: Sequence[str] | None = None, *, planned: int | None = None) -> ArenaReport:
    """Per-player results. Intervals are over duplicate sets: one value per set and player.

    ``planned`` is the number of sets the run was to play when it stopped early (default: all
    of ``sets``)."""
    n = len(plan.players)
    names = list(names) if names is not None else list(plan.display_names)
    # A seat is measured against the seats not on its side: the others, or two opponents.
    opponents = [[o for o in range(plan.seats) if o != seat and not (plan.partnership and o % 2 == seat % 2)]
                 for seat in range(plan.seats)]
    per_set_deal: list[list[float]] = [[] for _ in range(n)]
    per_set_match: list[list[float]] = [[] for _ in range(n)]
    per_set_margin: list[list[float]] = [[] for _ in range(n)]
    seat_deals, seat_matches, wins, made_count = [0] * n, [0] * n, [0.0] * n, [0] * n
    times: list[list[float]] = [[] for _ in range(n)]
    faults: list[list[Fault]] = [[] for _ in range(n)]
    for s in sets:
        points, margins, deals, totals, matches = [0.0] * n, [0.0] * n, [0] * n, [0.0] * n, [0] * n
        for t in s.tables:
            for seat, p in enumerate(t.seat_players):
                for deal_points, deal_made in zip(t.points, t.made, strict=True):
                    points[p] += deal_points[seat] / 10
                    others = [deal_points[o] for o in opponents[seat]]
                    margins[p] += (deal_points[seat] - sum(others) / len(others)) / 10
                    made_count[p] += deal_made[seat]
                deals[p] += len(t.points)
                totals[p] += t.totals[seat] / 10
                matches[p] += 1
                if seat in t.winners:
                    wins[p] += 1 / len(t.winners)  # a shared win is shared
                times[p].extend(t.times[seat])
            for f in t.faults:
                faults[t.seat_players[f.seat]].append(f)
        for p in range(n):
            if deals[p]:
                per_set_deal[p].append(points[p] / deals[p])
                per_set_margin[p].append(margins[p] / deals[p])
            per_set_match[p].append(totals[p] / matches[p])
            seat_deals[p] += deals[p]
            seat_matches[p] += matches[p]
    tables = [(t.seat_players, t.totals) for s in sets for t in s.tables]
    ratings = plackett_luce_ratings(tables, n)
    out = []
    for p in range(n):
        deal_mean, deal_lo, deal_hi = mean_ci(per_set_deal[p]) if per_set_deal[p] else (0.0, None, None)
        match_mean, match_lo, match_hi = mean_ci(per_set_match[p])
        margin_mean, margin_lo, margin_hi = (mean_ci(per_set_margin[p]) if per_set_margin[p]
                                             else (0.0, None, None))
        kinds: dict[str, int] = {}
        for f in faults[p]:
            kinds[f.kind] = kinds.get(f.kind, 0) + 1
        out.append(PlayerSummary(
            index=p, name=names[p], seat_deals=seat_deals[p], seat_matches=seat_matches[p],
            mean_score_per_deal=deal_mean, ci95=(deal_lo, deal_hi),
            mean_score_per_match=match_mean, match_ci95=(match_lo, match_hi),
            margin_per_deal=margin_mean, margin_ci95=(margin_lo, margin_hi),
            match_win_rate=wins[p] / seat_matches[p] if seat_matches[p] else 0.0,
            call_made_rate=made_count[p] / seat_deals[p] if seat_deals[p] else 0.0,
            mean_move_ms=1000 * sum(times[p]) / len(times[p]) if times[p] else 0.0,
            p99_move_ms=1000 * percentile(times[p], 99) if times[p] else 0.0,
            median_move_ms=1000 * percentile(times[p], 50) if times[p] else 0.0,
            moves=len(times[p]), faults=len(faults[p]), fault_kinds=kinds,
            rating_mu=ratings[p][0], rating_sigma=ratings[p][1],
        ))
    all_faults = tuple(f for s in sets for t in s.tables for f in t.faults)
    return ArenaReport(plan, preset, tuple(sets), tuple(out), all_faults,
                       planned_sets=len(sets) if planned is None else planned)


def run_arena(plan: ArenaPlan, *, preset: str = "custom", workers: int = 1, ray_address: str | None = None,
              progress: Progress | None = None, names: Sequence[str] | None = None,
              on_faults: Callable[[Sequence[Fault]], None] | None = None) -> ArenaReport:
    """Play ``plan`` and summarise it.

    Ctrl+C raises :class:`ArenaInterrupted` carrying the summary of the sets that had finished.
    """
    try:
        sets = run_sets(plan, workers=workers, ray_address=ray_address, progress=progress,
                        on_faults=on_faults)
    except ArenaInterrupted as stop:
        if stop.sets:
            stop.report = summarise(plan, preset, stop.sets, names, planned=stop.planned)
        raise
    return summarise(plan, preset, sets, names)
