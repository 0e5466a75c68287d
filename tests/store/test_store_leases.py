"""Table leases on SQLite and PostgreSQL: one owner at a time, epochs that fence an old owner's
writes, and the unique (game, version) pair that makes a duplicate action impossible."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator

import pytest
from store_helpers import PG_ENV, db_url_fixture, fresh_pg_database  # noqa: F401 (fixture)

from callbreak.store import LeaseLost, Store, StoreError

CALL = {"type": "call", "seat": 0, "tricks": 3}


def test_one_owner_at_a_time_and_a_lapsed_lease_changes_hands(db_url: str) -> None:
    store = Store(db_url)
    gid = store.create_game("LEASED", {"preset": "callbreak"}, [], status="playing")
    assert store.unowned_games() == ["LEASED"]
    first = store.acquire_lease(gid, "proc-a", ttl=0.6)
    assert first == 1
    assert store.acquire_lease(gid, "proc-b", ttl=0.6) is None  # a is still the owner
    assert store.lease_of(gid) == ("proc-a", 1, True) and store.unowned_games() == []
    assert store.renew_lease(gid, "proc-a", 1, ttl=0.6)
    time.sleep(0.8)  # a stops renewing (killed or paused): the lease lapses
    assert store.lease_of(gid) == ("proc-a", 1, False) and store.unowned_games() == ["LEASED"]
    assert store.acquire_lease(gid, "proc-b", ttl=5) == 2
    assert not store.renew_lease(gid, "proc-a", 1, ttl=5)  # a cannot get it back by renewing
    store.release_lease(gid, "proc-b", 2)  # a clean shutdown hands it on at once
    assert store.acquire_lease(gid, "proc-a", ttl=5) == 3
    store.close()


def test_fencing_refuses_writes_under_a_lost_lease(db_url: str) -> None:
    store = Store(db_url)
    gid = store.create_game("FENCED", {"preset": "callbreak"}, [], status="playing")
    old = store.acquire_lease(gid, "proc-a", ttl=0.5)
    assert old is not None
    store.append_action(gid, 0, CALL, epoch=old)
    time.sleep(0.7)
    # Expired, nobody took it yet: the old owner still may not write (it cannot know whether
    # someone else has resumed the table).
    with pytest.raises(LeaseLost, match="no longer holds"):
        store.append_action(gid, 1, CALL, epoch=old)
    new = store.acquire_lease(gid, "proc-b", ttl=5)
    assert new == old + 1
    with pytest.raises(LeaseLost):
        store.append_action(gid, 1, CALL, epoch=old)
    store.append_action(gid, 1, {**CALL, "tricks": 4}, epoch=new)
    with pytest.raises(StoreError):  # the same version twice, even under the current lease
        store.append_action(gid, 1, CALL, epoch=new)
    got = store.load_game("FENCED")
    assert got is not None and [a["tricks"] for a in got.actions] == [3, 4]
    store.close()


def test_fencing_refuses_seat_and_setting_changes_under_a_lost_lease(db_url: str) -> None:
    """A bot's fault count, a seat handed to another device or a stop: the old owner of a table
    can change none of them once its lease is gone, and the new owner can."""
    store = Store(db_url)
    gid = store.create_game("FENCED2", {"preset": "callbreak"}, [{"kind": "human", "name": "A"}],
                            status="playing")
    old = store.acquire_lease(gid, "proc-a", ttl=0.5)
    assert old is not None
    store.update_game(gid, seats=[{"kind": "human", "name": "B"}], epoch=old)
    time.sleep(0.7)
    with pytest.raises(LeaseLost, match="no longer holds"):
        store.update_game(gid, seats=[{"kind": "human", "name": "stale"}], epoch=old)
    new = store.acquire_lease(gid, "proc-b", ttl=5)
    assert new is not None
    with pytest.raises(LeaseLost):
        store.update_game(gid, config={"preset": "callbreak", "stop_requested": True}, epoch=old)
    got = store.load_game("FENCED2")
    assert got is not None and got.seats == [{"kind": "human", "name": "B"}]
    assert "stop_requested" not in got.config
    store.update_game(gid, seats=[{"kind": "human", "name": "C"}], epoch=new)
    got = store.load_game("FENCED2")
    assert got is not None and got.seats == [{"kind": "human", "name": "C"}]
    store.close()


def test_two_stores_race_for_one_version_and_exactly_one_wins(db_url: str) -> None:
    a, b = Store(db_url), Store(db_url)
    gid = a.create_game("RACE", {"preset": "callbreak"}, [], status="playing")
    wins = 0
    for store, tricks in ((a, 1), (b, 2)):
        try:
            store.append_action(gid, 0, {**CALL, "tricks": tricks})
            wins += 1
        except StoreError:
            pass
    got = a.load_game("RACE")
    assert wins == 1 and got is not None and len(got.actions) == 1 and got.actions[0]["tricks"] == 1
    a.close()
    b.close()


@pytest.fixture(name="pg_url")
def pg_url_fixture() -> Iterator[str]:
    if not os.environ.get(PG_ENV):
        pytest.skip(f"{PG_ENV} is not set (scripts/services.sh starts a server and sets it)")
    yield from fresh_pg_database()


@pytest.mark.postgres
def test_an_owner_frozen_inside_a_write_does_not_hold_up_the_takeover(pg_url: str) -> None:
    """A process stopped between a fenced write and its commit (paused, swapped out, cut off)
    keeps the lease row locked. Its lease lapses; the next owner's claim must neither wait for it
    (the claim runs on a server's event loop: waiting would freeze every table there) nor fail
    for good: it gives up at once while the row is locked, and the database ends the frozen
    transaction soon after, so a later claim succeeds and the frozen write is never stored."""
    frozen_store, store = Store(pg_url), Store(pg_url)
    gid = store.create_game("FROZEN", {"preset": "callbreak"}, [], status="playing")
    epoch = frozen_store.acquire_lease(gid, "proc-a", ttl=0.5)
    assert epoch == 1
    frozen = frozen_store.engine.raw_connection()
    cur = frozen.cursor()
    cur.execute("INSERT INTO actions (game_id, seq, action) SELECT %s, 0, %s WHERE EXISTS "
                "(SELECT 1 FROM table_leases WHERE game_id = %s AND epoch = %s FOR SHARE)",
                (gid, '{"type": "call", "seat": 0, "tricks": 3}', gid, epoch))
    time.sleep(0.7)  # the lease lapses while proc-a sits inside its transaction

    result: list[int | None] = []
    claim = threading.Thread(target=lambda: result.append(store.acquire_lease(gid, "proc-b", ttl=5)))
    start = time.monotonic()
    claim.start()
    claim.join(timeout=5)
    blocked = claim.is_alive()
    if blocked:
        frozen.rollback()  # let the stuck claim go before failing
        claim.join()
    assert not blocked, "the claim waited on the frozen owner's lock"
    assert result in ([None], [2]) and time.monotonic() - start < 1.5

    while (got := store.acquire_lease(gid, "proc-b", ttl=5)) is None:
        time.sleep(0.2)
    assert got == 2 and store.lease_of(gid) == ("proc-b", 2, True)
    import psycopg

    with pytest.raises(psycopg.errors.IdleInTransactionSessionTimeout):  # proc-a's session ended
        frozen.commit()
    stored = store.load_game("FROZEN")
    assert stored is not None and stored.actions == []
    for s in (frozen_store, store):
        s.close()


@pytest.mark.postgres
def test_a_write_after_the_database_dropped_the_connection_is_stored(pg_url: str) -> None:
    """The database ends the sessions (a restart, a failover, an idle timeout): the next action is
    written on a fresh connection, not refused."""
    import psycopg

    store = Store(pg_url)
    gid = store.create_game("DROPPED", {"preset": "callbreak"}, [], status="playing")
    epoch = store.acquire_lease(gid, "proc-a", ttl=30)
    store.append_action(gid, 0, CALL, epoch=epoch)
    with psycopg.connect(pg_url, autocommit=True) as admin:
        ended = admin.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                              "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchone()
    assert ended is not None and ended[0] >= 1
    store.append_action(gid, 1, {**CALL, "tricks": 4}, epoch=epoch)
    with pytest.raises(StoreError):  # a refusal is still a refusal: the same version twice
        store.append_action(gid, 1, CALL, epoch=epoch)
    got = store.load_game("DROPPED")
    assert got is not None and [a["tricks"] for a in got.actions] == [3, 4]
    store.close()


@pytest.mark.postgres
def test_a_retried_write_that_had_landed_counts_as_stored(pg_url: str) -> None:
    """The database ends the session as a write commits, and its answer is lost on the way: the
    retry finds that very action stored at that version and reports it stored, rather than
    refusing an action that is in the record. A different action there is still refused."""
    import json

    import psycopg

    store = Store(pg_url)
    gid = store.create_game("LANDED", {"preset": "callbreak"}, [], status="playing")
    epoch = store.acquire_lease(gid, "proc-a", ttl=30)
    store.append_action(gid, 0, CALL, epoch=epoch)
    second = {**CALL, "seat": 1, "tricks": 4}
    with psycopg.connect(pg_url, autocommit=True) as admin:  # the commit that landed unanswered
        admin.execute("INSERT INTO actions (game_id, seq, action) VALUES (%s, 1, %s)",
                      (gid, json.dumps(second, separators=(",", ":"))))
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                      "WHERE datname = current_database() AND pid <> pg_backend_pid()")
    store.append_action(gid, 1, second, epoch=epoch)
    with pytest.raises(StoreError):
        store.append_action(gid, 1, {**second, "tricks": 5}, epoch=epoch)
    got = store.load_game("LANDED")
    assert got is not None and [a["tricks"] for a in got.actions] == [3, 4]
    store.close()


def test_processes_opening_a_fresh_postgresql_database_together_all_start() -> None:
    """A deploy starts its server processes together: on a fresh database each made the schema,
    and all but one failed ("duplicate key value violates unique constraint")."""
    if not os.environ.get(PG_ENV):
        pytest.skip(f"{PG_ENV} is not set (scripts/services.sh starts a server)")
    database = fresh_pg_database()
    url = next(database)
    go = threading.Barrier(4)
    failed: list[BaseException] = []

    def open_store() -> None:
        go.wait()
        try:
            Store(url).close()
        except BaseException as e:  # noqa: BLE001 (the failure is the finding)
            failed.append(e)

    try:
        threads = [threading.Thread(target=open_store) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not failed, failed
        store = Store(url)
        assert store.unowned_games() == []  # the schema is whole
        store.close()
    finally:
        database.close()  # (dropped)
