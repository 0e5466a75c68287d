"""Bots by URL can be turned off (``callbreak serve --no-url-bots``): nobody can then make a public
server send HTTP requests to an address of their choosing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import client_fixture, create, store_fixture  # noqa: F401 (fixtures)
from starlette.testclient import TestClient
from typer.testing import CliRunner

from callbreak.cli.main import app as cli
from callbreak.server.app import create_app
from callbreak.server.tables import TableService
from callbreak.server.wire import MessageError
from callbreak.store import Store

# Nothing listens here, and nothing may be sent to it: the tables below are never started.
URL = "http://127.0.0.1:9/bot"
URL_BOTS = {"preset": "bhoos-tournament", "bots": ["random", "random", "random", URL], "bot_delay": 0}


@pytest.fixture(name="closed_client")
def closed_client_fixture(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store, url_bots=False, practice=True)) as c:
        yield c


def refused_and_nothing_stored(client: TestClient, store: Store, settings: dict[str, Any]) -> dict[str, Any]:
    r = client.post("/api/tables", json={"name": "Ann", "settings": settings, "seed": 1})
    assert r.status_code == 403, r.text
    assert store.load_games("lobby", "playing", "over") == []
    assert client.app.state.service.tables == {}  # type: ignore[attr-defined]
    return r.json()  # type: ignore[no-any-return]


def test_with_url_bots_off_a_table_seating_a_bot_by_url_is_refused_and_nothing_is_stored(
        closed_client: TestClient, store: Store) -> None:
    refused = refused_and_nothing_stored(closed_client, store, URL_BOTS)
    assert refused["error"] == "url_bots_off"
    assert f"seat 4: {URL}" in refused["message"]
    assert "bots by URL are turned off on this server" in refused["message"]
    # Refused for what it is even where the rules would also not suit a bot by URL, and with the
    # URL in any seat or given once for every seat.
    assert refused_and_nothing_stored(closed_client, store, {**URL_BOTS, "preset": "callbreak"})["error"] \
        == "url_bots_off"
    every_seat = refused_and_nothing_stored(closed_client, store, {**URL_BOTS, "bots": f"  {URL} "})
    assert every_seat["error"] == "url_bots_off" and f"seat 1: {URL}" in every_seat["message"]
    # The lobby page is told, so it does not offer a URL field.
    assert closed_client.get("/api/meta").json()["url_bots"] is False
    # Bots by level are still seated as before.
    made = create(closed_client, preset="bhoos-tournament", bots=["random", "random", "random", "random"])
    assert closed_client.get(f"/api/tables/{made['code']}").json()["bots"] == ["random"] * 4


def test_by_default_a_bot_is_still_seated_by_url(client: TestClient, store: Store) -> None:
    assert client.get("/api/meta").json()["url_bots"] is True
    made = create(client, **URL_BOTS)
    assert client.get(f"/api/tables/{made['code']}").json()["bots"] == ["random", "random", "random", URL]
    assert [g.code for g in store.load_games("lobby")] == [made["code"]]


def test_with_url_bots_off_a_rematch_of_an_older_url_bot_table_is_refused(store: Store) -> None:
    # A table made before the server was restarted with bots by URL turned off.
    service = TableService(store, url_bots=True, practice=True)
    table, token, _ = service.create(URL_BOTS, "Ann", seed=1)
    table.status = "over"
    service.url_bots = False
    with pytest.raises(MessageError) as refused:
        service.rematch(table.code, token)
    assert refused.value.code == "url_bots_off" and table.rematch_code is None
    assert list(service.tables) == [table.code]
    assert [g.code for g in store.load_games("lobby", "playing", "over")] == [table.code]


@pytest.mark.process
@pytest.mark.parametrize(("args", "env", "url_bots"), [
    ([], {}, True),
    (["--no-url-bots"], {}, False),
    ([], {"CALLBREAK_NO_URL_BOTS": "1"}, False),
    ([], {"CALLBREAK_NO_URL_BOTS": "0"}, True),
])
def test_serve_turns_url_bots_off_by_flag_or_environment(args: list[str], env: dict[str, str], url_bots: bool,
                                                         tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    served: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: served.append(self.config.app))
    monkeypatch.delenv("CALLBREAK_NO_URL_BOTS", raising=False)
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 'serve.db'}", *args], env=env)
    assert result.exit_code == 0, result.output
    assert ("bots by URL are turned off" in result.output) == (not url_bots)
    with TestClient(served[0]) as client:
        r = client.post("/api/tables", json={"name": "Ann", "settings": URL_BOTS})
        assert r.status_code == (200 if url_bots else 403), r.text
    served[0].state.store.close()


def test_serve_hands_the_limits_given_on_its_command_line_to_the_server(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each limit option reaches the server by its Limits field name; one not given keeps its
    default, and --no-limits turns off every limit but those always on."""
    import uvicorn

    for name in ("TABLES_PER_MINUTE", "LIVE_BOT_TABLES", "NO_LIMITS", "ABANDON_AFTER"):
        monkeypatch.setenv(f"CALLBREAK_{name}", "")  # (empty: unset; and put back after the test)
    served: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: served.append(self.config.app))
    args = ["serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 'limits.db'}",
            "--tables-per-minute", "3", "--abandon-after", "90"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    limits = served[0].state.service.gate.limits
    assert (limits.tables_per_minute, limits.abandon_after, limits.live_bot_tables) == (3, 90.0, 200)
    served[0].state.store.close()
    result = CliRunner().invoke(cli, [*args, "--no-limits"])
    assert result.exit_code == 0, result.output
    limits = served[1].state.service.gate.limits
    assert (limits.tables_per_minute, limits.live_bot_tables, limits.abandon_after) == (3, 0, 90.0)
    served[1].state.store.close()
