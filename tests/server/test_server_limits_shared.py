"""The limits on one client across processes (issue 30): two ``callbreak serve`` processes on one
PostgreSQL, as behind a proxy that spreads a client over both. The client's new tables a minute
and its live tables are counted in the store, so it gets its allowance once, not once a process.
"""

from __future__ import annotations

from typing import Any

import pytest
from server_helpers import pg_url_fixture  # noqa: F401 (a fixture)
from test_server_restart import Server

from callbreak.store import Store

pytestmark = pytest.mark.postgres
# Per guest: 2 new tables a minute, no live limit; per address: 3 live tables, no per-minute limit.
LIMITS = {"CALLBREAK_TABLES_PER_MINUTE": "2", "CALLBREAK_LIVE_TABLES": "0",
          "CALLBREAK_TABLES_PER_MINUTE_PER_ADDRESS": "0", "CALLBREAK_LIVE_TABLES_PER_ADDRESS": "3",
          "CALLBREAK_HANDOVER": "0"}
SETTINGS = {"preset": "callbreak", "deals": 1, "bots": ["random"] * 4, "bot_delay": 0}
GUEST = "guest-one-client-1234"


def make(server: Server, guest: str | None = None) -> tuple[int, dict[str, Any], str | None]:
    body: dict[str, Any] = {"name": "Ann", "settings": SETTINGS}
    if guest is not None:
        body["guest"] = guest
    r = server.http.post("/api/tables", json=body, timeout=60)
    return r.status_code, r.json(), r.headers.get("Retry-After")


@pytest.mark.process
def test_one_client_spread_over_two_processes_gets_its_allowance_once(pg_url: str) -> None:
    a, b = Server(pg_url, practice=False, env=LIMITS, limits=True), Server(pg_url, practice=False, env=LIMITS,
                                                                           limits=True)
    store = Store(pg_url)
    try:
        # A guest's new tables a minute: one at each process, then the third is refused at
        # either (each process alone has seen one or two).
        assert make(a, GUEST)[0] == 200
        assert make(b, GUEST)[0] == 200
        status, body, retry = make(a, GUEST)
        assert (status, body["error"]) == (429, "too_many_tables") and retry is not None, body
        assert 1 <= int(retry) <= 60
        # An address's live tables (the two above are live): a third at B, then a fourth is
        # refused at A, which made only one of the three.
        assert make(b)[0] == 200
        status, body, retry = make(a)
        assert (status, body["error"]) == (429, "too_many_live_tables") and retry is not None, body
        # What the store keeps of who made them: keys, not the address itself.
        with store.engine.connect() as conn:
            rows = conn.exec_driver_sql("SELECT made_by_guest, made_by_address FROM games").all()
        assert len(rows) == 3 and len({address for _, address in rows}) == 1
        assert all(address is not None and "127.0.0.1" not in address for _, address in rows)
        assert [guest is not None for guest, _ in rows].count(True) == 2
    finally:
        store.close()
        a.stop()
        b.stop()
