"""A change notice between server processes always fits PostgreSQL's NOTIFY (8,000 bytes)."""

from __future__ import annotations

import json
import time
from types import SimpleNamespace

from callbreak.core import CHANCE, Dealer, Match, make_rules
from callbreak.server.cluster import NOTIFY_BYTES, TAIL_ACTIONS, Cluster
from callbreak.server.tables import Seat, Table


def owner_table(notices: int, why: str) -> Table:
    match = Match(make_rules("callbreak"))
    dealer = Dealer(1)
    while len(match.history) < 20:
        if match.to_act == CHANCE:
            match.apply(dealer.chance(match))
        else:
            match.apply(match.default_action())
    table = Table(id=1, code="NOTICE", config={"preset": "callbreak"}, seed=1, host_hash="h",
                  seats=[Seat() for _ in range(4)], status="playing", match=match)
    table.notices = [{"version": v, "seat": 0, "why": why, "action": {"type": "play", "card": "AS"}}
                     for v in range(notices)]
    return table


def sent(table: Table) -> dict:
    cluster = Cluster(SimpleNamespace(store=None))  # type: ignore[arg-type]
    cluster.changed(table)
    text = cluster.outbox.get_nowait()
    assert len(text.encode()) < NOTIFY_BYTES
    return json.loads(text)  # type: ignore[no-any-return]


def test_a_notice_carries_the_latest_actions_when_they_fit() -> None:
    message = sent(owner_table(notices=3, why="timer"))
    assert len(message["tail"]) == TAIL_ACTIONS and message["first"] == 20 - TAIL_ACTIONS
    assert len(message["notices"]) == 3


def test_a_notice_too_long_with_its_actions_goes_without_them() -> None:
    message = sent(owner_table(notices=20, why="timer " * 52))  # with the actions: over 8,000
    assert "tail" not in message and "first" not in message  # the replicas read the store instead
    assert len(message["notices"]) == 20 and message["v"] == 20


def test_a_process_forgets_the_tables_it_no_longer_has() -> None:
    """What the cluster keeps per table (owners seen, remote seats, when it took a table, tables
    it handed on) lasts only while the table is here, or the handover's window: a long-running
    process does not grow with every table it ever saw."""
    here = owner_table(notices=0, why="timer")
    cluster = Cluster(SimpleNamespace(store=None, tables={here.code: here}))  # type: ignore[arg-type]
    for code in (here.code, "GONE"):
        cluster.owner_seen[code] = "other"
        cluster.remote[code] = {"other": ({1}, 0.0)}
        cluster.owned_since[code] = 0.0
    cluster.handed["LATELY"] = time.monotonic()
    cluster.handed["LONG_AGO"] = time.monotonic() - 60
    cluster._forget_gone()
    assert set(cluster.owner_seen) == set(cluster.remote) == set(cluster.owned_since) == {here.code}
    assert set(cluster.handed) == {"LATELY"}
