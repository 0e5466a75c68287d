"""The web API fuzzed from its own schema (issue 44, part 1).

schemathesis reads ``/openapi.json`` of a real ``callbreak serve`` and, for every route and
method, makes requests the schema allows and requests it rules out (wrong types, missing fields,
huge numbers, odd strings); every answer is checked: no server error (5xx), a status code the
schema documents, a body of the declared content type that its schema describes, and data the
schema rules out refused. A request the schema allows may still be refused by the rules of the
game (an unknown game, a seat already taken): that is a documented 4xx with its coded reason,
not a failure, so schemathesis's "valid data accepted" check is left out.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import checks
from schemathesis.core.result import Err
from test_server_restart import Server

CHECKS = [checks.not_a_server_error, checks.status_code_conformance, checks.content_type_conformance,
          checks.response_schema_conformance, checks.negative_data_rejection]


@pytest.fixture(name="server", scope="module")
def server_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real server (SQLite; practice tables, so that a client may seed its deals)."""
    db: Path = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    server = Server(f"sqlite:///{db}")
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.process
def test_every_route_answers_as_its_schema_says(server: Server) -> None:
    """Every operation, 40 requests each (the first of them the schema's own examples)."""
    schema = schemathesis.openapi.from_url(f"http://127.0.0.1:{server.port}/openapi.json")
    failures: list[str] = []
    operations = 0
    for loaded in schema.get_all_operations():
        if isinstance(loaded, Err):  # an operation the schema describes so badly it cannot be read
            failures.append(f"the schema: {loaded.err()}")
            continue
        operation = loaded.ok()
        operations += 1

        @settings(max_examples=int(os.environ.get("FUZZ_N", "40")), deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy())
        def fuzz(case: Any) -> None:
            case.call_and_validate(checks=CHECKS)

        try:
            fuzz()
        except Exception as e:  # (what schemathesis found: the failure, with a curl to repeat it)
            failures.append(f"{operation.method.upper()} {operation.path}: {e}")
    assert operations >= 25  # every route the server has, read from its schema
    assert not failures, "\n\n".join(failures) + "\n--- the server's log\n" + server.printed()


@pytest.mark.process
def test_a_history_page_far_past_the_last_game_is_empty_not_a_server_error(server: Server) -> None:
    """Found by the fuzzing above: an offset past a 64-bit integer reached the database and
    failed there (500)."""
    for offset in (2**63, 10**24, -10**24):
        r = server.http.get("/api/history", params={"offset": offset, "limit": -61746})
        assert r.status_code == 200 and r.json() == {"games": []}, r.text


@pytest.mark.process
@pytest.mark.parametrize("preset", [[], {}, ["callbreak"]])
def test_a_score_sheet_whose_preset_is_not_a_name_is_refused_not_a_server_error(server: Server, preset: Any) -> None:
    """Found by fuzzing: a list or an object as the preset was looked up among the presets as it
    was, and failed there (500)."""
    for path in ("/api/sheets", "/api/sheets/check"):
        r = server.http.post(path, json={"preset": preset, "players": ["A", "B", "C", "D"]})
        assert r.status_code == 400 and r.json()["error"] == "bad_sheet", r.text
