"""What an operator watches (issue 30): /metrics for Prometheus, /healthz, /readyz, and log lines
that carry their time and process (as text, or one JSON object a line)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from server_helpers import SeatClient, client_fixture, create, store_fixture  # noqa: F401 (fixtures)
from starlette.testclient import TestClient
from test_server_restart import Server


def metric(text: str, name: str) -> float:
    """The value of one sample line of the exposition text (0 if absent)."""
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


def wait_ready(client: TestClient) -> dict[str, object]:
    """Until the process is ready and its bots' kernel too (every bot can play)."""
    while (r := client.get("/readyz")).status_code != 200 or r.json()["kernel"] != "ready":
        assert r.json()["database"] == "ok", r.text
        time.sleep(0.05)
    return r.json()  # type: ignore[no-any-return]


def test_metrics_count_a_game_its_sockets_its_bots_and_the_loop(client: TestClient) -> None:
    assert wait_ready(client)["kernel"] == "ready"
    made = create(client, deals=1, bots="random")
    seat = SeatClient(client, made["code"], made["token"])
    seat.start()
    while not any(m.get("type") == "state" for m in seat.messages):
        time.sleep(0.01)
    during = client.get("/metrics")
    assert during.status_code == 200 and during.headers["content-type"].startswith("text/plain")
    assert metric(during.text, "callbreak_sockets") == 1
    assert metric(during.text, 'callbreak_tables_live{status="lobby"}') == 1
    assert metric(during.text, "callbreak_bot_tables_live") == 1
    client.post(f"/api/tables/{made['code']}/start", json={"token": made["token"]})
    seat.join()
    assert seat.error is None and seat.messages[-1]["view"]["phase"] == "over"
    text = client.get("/metrics").text
    version = seat.messages[-1]["version"]
    assert metric(text, "callbreak_actions_total") == version  # every stored action, deals too
    # Every action of seat 0's own and the bots' reached its socket, timed from being stored.
    assert 0 < metric(text, "callbreak_action_latency_seconds_count") <= version
    assert metric(text, 'callbreak_bot_decision_seconds_count{bot="random"}') >= 3 * 13
    assert metric(text, "callbreak_loop_lag_seconds_count") > 0
    assert metric(text, "callbreak_kernel_ready") == 1
    for name in ("callbreak_takeovers_total", "callbreak_handovers_total", "callbreak_forwarded_calls_total",
                 "callbreak_loop_stalls_total"):
        assert re.search(rf"^# TYPE {name} counter$", text, re.MULTILINE), name


def test_healthz_and_readyz(client: TestClient) -> None:
    health = client.get("/healthz").json()
    assert health["ok"] is True and health["loop"]["threshold"] == 0.1 and isinstance(health["pid"], int)
    ready = wait_ready(client)
    assert ready == {"ready": True, "kernel": "ready", "database": "ok", "pid": health["pid"]}


def test_readyz_is_503_while_the_database_does_not_answer(client: TestClient) -> None:
    wait_ready(client)
    store = client.app.state.store  # type: ignore[attr-defined]
    store.engine.dispose()
    real = store.engine.connect
    store.engine.connect = lambda: (_ for _ in ()).throw(OSError("database away"))
    try:
        r = client.get("/readyz")
        assert r.status_code == 503 and "database away" in r.json()["database"], r.text
    finally:
        store.engine.connect = real
    assert client.get("/readyz").status_code == 200


@pytest.mark.process
def test_every_log_line_carries_its_time_and_process(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'log.db'}", practice=False)
    try:
        wait_ready(server.http)  # type: ignore[arg-type]
    finally:
        server.stop()
    lines = [line for line in server.printed().splitlines()[1:] if line and not line.startswith("(")]
    assert any("kernel is ready" in line for line in lines), lines
    stamp = re.compile(rf"^\d{{4}}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{{3}} pid {server.proc.pid} [A-Z]+ ")
    assert all(stamp.match(line) for line in lines), lines


@pytest.mark.process
def test_json_logs(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'json.db'}", practice=False, env={"CALLBREAK_LOG_JSON": "1"})
    try:
        wait_ready(server.http)  # type: ignore[arg-type]
    finally:
        server.stop()
    lines = [line for line in server.printed().splitlines()[1:] if line and not line.startswith("(")]
    entries = [json.loads(line) for line in lines]
    assert any("kernel is ready" in e["message"] for e in entries), entries
    assert all(e["pid"] == server.proc.pid and re.match(r"\d{4}-\d\d-\d\dT", e["time"]) for e in entries)
