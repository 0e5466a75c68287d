"""The API's OpenAPI schema (/openapi.json, shown at /api/docs) says how each operation may be
refused: every status the API answers a refusal with, the error codes behind it, and the body."""

from __future__ import annotations

from typing import Any

from server_helpers import client_fixture, store_fixture  # noqa: F401 (fixtures)
from starlette.testclient import TestClient

from callbreak.server.app import STATUS


def test_every_operation_documents_its_refusals_and_no_status_it_never_answers(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    operations = [(path, op) for path, ops in spec["paths"].items() for op in ops.values()]
    assert len(operations) >= 20
    body = "#/components/schemas/RefusalBody"
    for path, op in operations:
        responses = op["responses"]
        assert "422" not in responses, path  # a bad parameter is a 400 refusal here
        for status in {400, *STATUS.values()}:
            documented = responses[str(status)]
            assert documented["content"]["application/json"]["schema"]["$ref"] == body, (path, status)
    action = spec["paths"]["/api/tables/{code}/action"]["post"]["responses"]
    assert "illegal" in action["409"]["description"] and "rate_limited" in action["429"]["description"]
    fields = spec["components"]["schemas"]["RefusalBody"]["properties"]
    assert {"error", "message", "retry_after"} <= set(fields)


def test_a_refusal_has_the_documented_shape(client: TestClient) -> None:
    r = client.post("/api/tables/NOSUCHTABLE/action", json={"token": "x", "version": 0, "action": {}})
    assert r.status_code == 404
    refused: dict[str, Any] = r.json()
    assert refused["error"] == "no_table" and refused["message"]
    assert "no_table" in client.get("/openapi.json").json()["paths"]["/api/tables/{code}/action"][
        "post"]["responses"]["404"]["description"]
    r = client.get("/api/history?limit=abc")
    assert r.status_code == 400 and r.json()["error"] == "malformed"
