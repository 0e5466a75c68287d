"""The Play now queue in the store (issue 33): processes racing to seat the same waiting people
make one table, and each person is seated once."""

from __future__ import annotations

import threading
from typing import Any

from store_helpers import db_url_fixture  # noqa: F401 (fixture)

from callbreak.store import NewGame, Place, Store


def seat(store: Store, code: str, go: threading.Barrier, results: list[object], k: int) -> None:
    """One process's seating, started with the other's at the same moment."""
    def build(people: list[Place]) -> NewGame:
        return NewGame(code=code, config={"preset": "callbreak"}, seats=[{"name": p.name} for p in people],
                       made_by={"guest": people[0].guest})

    go.wait()
    results[k] = store.seat_waiting("callbreak", 4, 60.0, build, (f"process-{k}", 3.0))


def test_two_processes_racing_to_seat_a_group_make_one_table(db_url: str) -> None:
    stores = [Store(db_url), Store(db_url)]  # two engines: two processes' connections
    try:
        rounds = 12
        for n in range(rounds):
            for who in ("ann", "bob", "cat"):
                stores[0].join_queue(ticket=f"{who}{n:02d}".ljust(22, "x"), guest=f"{who}-{n}", name=who,
                                     rules="callbreak", seat_hash=f"hash-{who}", address=None, wait=0.0)
            go = threading.Barrier(2)
            results: list[Any] = [None, None]
            threads = [threading.Thread(target=seat, args=(stores[k], f"T{n}P{k}", go, results, k)) for k in (0, 1)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            made = [r for r in results if r is not None]
            assert len(made) == 1, results
            _, code, people, epoch = made[0]
            assert [p.name for p in people] == ["ann", "bob", "cat"] and epoch == 1
            held = stores[1].queue_place(f"bob-{n}")  # seated at a table not over: the place he holds
            assert held is not None and (held.status, held.table_code) == ("seated", code)
        with stores[0].engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT count(*) FROM games").scalar_one() == rounds
            assert conn.exec_driver_sql("SELECT count(*) FROM table_leases").scalar_one() == rounds
            seated = conn.exec_driver_sql("SELECT count(*), count(DISTINCT table_code) FROM play_now "
                                          "WHERE status = 'seated'").one()
            assert tuple(seated) == (3 * rounds, rounds)
        assert stores[0].waiting_rules() == []
    finally:
        for s in stores:
            s.close()
