"""A call forwarded to the table's owner is answered even if the call or its answer is lost on the
way (the database ended the connection it went on: a restart, a failover, every session
terminated), and it is run once however often it is sent.

The owner listens again only once it has reconnected: a call sent meanwhile never reached it,
and the caller, whose own connections were fine, waited CALL_SECONDS and told the player "the
table's server process did not answer". Now a call not yet answered is sent again every tick,
and the owner, which keeps what it answered lately, runs it once and answers it each time.

In-process, two apps on one PostgreSQL database; a join (which no version check guards: one run
twice would seat the player twice) is forwarded from B to A, the table's owner.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from server_helpers import pg_url_fixture  # noqa: F401 (the fixture: a fresh PostgreSQL database)
from starlette.testclient import TestClient

from callbreak.server.app import create_app
from callbreak.store import Store

pytestmark = pytest.mark.postgres


def test_a_forwarded_call_whose_call_or_answer_is_lost_is_answered_and_run_once(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CALLBREAK_HANDOVER", "0")  # the table stays with A, which made it
    stores = [Store(pg_url) for _ in range(2)]
    a_app, b_app = (create_app(s) for s in stores)
    try:
        with TestClient(a_app) as a, TestClient(b_app) as b:
            a_cluster = a_app.state.service.cluster
            r = a.post("/api/tables", json={"name": "Ann", "settings": {"preset": "callbreak"}})
            assert r.status_code == 200, r.text
            code = r.json()["code"]

            heard: list[str] = []  # the calls A heard, by method
            take_call = a_cluster._take_call

            def deaf_to_the_first_call(message: dict[str, Any]) -> None:
                heard.append(message["method"])
                if len(heard) > 1:  # the first: sent while A did not listen (it never reached A)
                    take_call(message)

            monkeypatch.setattr(a_cluster, "_take_call", deaf_to_the_first_call)
            r = b.post(f"/api/tables/{code}/join", json={"name": "Bea", "seat": 1})
            assert r.status_code == 200, r.text
            assert r.json()["seat"] == 1
            assert heard[:2] == ["join", "join"], heard  # sent again, and run then

            runs: list[str] = []  # the joins A ran
            join = a_app.state.service._join

            async def counted_join(*args: Any) -> Any:
                runs.append(args[1])
                return await join(*args)

            monkeypatch.setattr(a_app.state.service, "_join", counted_join)
            replies = 0
            put = a_cluster.outbox.put_nowait

            def first_answer_lost(text: str) -> None:
                nonlocal replies
                if json.loads(text)["k"] == "reply":
                    replies += 1
                    if replies == 1:  # lost with the connection it went on
                        return
                put(text)

            monkeypatch.setattr(a_cluster.outbox, "put_nowait", first_answer_lost)
            r = b.post(f"/api/tables/{code}/join", json={"name": "Cal", "seat": 2})
            assert r.status_code == 200, r.text
            assert r.json()["seat"] == 2
            assert replies >= 2 and runs == ["Cal"], (replies, runs)  # answered again, run once

            stored = stores[0].load_game(code)
            assert stored is not None
            names = [seat.get("name") for seat in stored.seats]
            assert names[:3] == ["Ann", "Bea", "Cal"] and names.count("Cal") == 1, names
    finally:
        for s in stores:
            s.close()
