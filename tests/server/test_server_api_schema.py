"""The API's OpenAPI schema (/openapi.json, shown at /api/docs) says how each operation may be
refused: every status the API answers a refusal with, the error codes behind it, and the body."""

from __future__ import annotations

import time
from typing import Any

import pytest
from jsonschema import Draft202012Validator
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


def body_schema(spec: dict[str, Any], path: str, method: str = "post") -> dict[str, Any]:
    """The component schema an operation's JSON body refers to."""
    body = spec["paths"][path][method]["requestBody"]
    ref = body["content"]["application/json"]["schema"]["$ref"]
    found: dict[str, Any] = spec["components"]["schemas"][ref.rsplit("/", 1)[1]]
    return found


def test_every_operation_that_reads_a_body_says_what_it_holds(client: TestClient) -> None:
    """A client author reading /api/docs sees each body's fields (not a free dictionary), which
    are required, and an example."""
    spec = client.get("/openapi.json").json()
    reading = [(path, method) for path, ops in spec["paths"].items() for method in ops
               if method in ("post", "put") and path != "/api/history/{code}/review"]  # (that one has none)
    assert len(reading) == 17
    for path, method in reading:
        schema = body_schema(spec, path, method)
        assert schema["type"] == "object" and schema["properties"], path
        for field in schema.get("required", []):
            assert schema["properties"][field].get("description") or "$ref" in schema["properties"][field], (path, field)
    assert body_schema(spec, "/api/tables/{code}/action")["required"] == ["token", "version", "action"]
    assert set(body_schema(spec, "/api/tables")["required"]) == {"name"}
    assert spec["paths"]["/api/tables/{code}/state"]["post"]["requestBody"]["required"] is False
    settings = spec["components"]["schemas"]["TableSettings"]["properties"]
    assert {"game", "preset", "deals", "timer", "bot_delay", "bots", "options"} <= set(settings)


def test_the_documented_examples_are_accepted(client: TestClient) -> None:
    """Each example fits its own schema (JSON Schema 2020-12, as OpenAPI 3.1 reads it), and the
    server accepts it."""
    spec = client.get("/openapi.json").json()
    for name, schema in spec["components"]["schemas"].items():
        for shown in schema.get("examples", []):
            Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": spec["components"]}
                                 ).validate(shown)

    def example(path: str, method: str = "post") -> dict[str, Any]:
        return dict(body_schema(spec, path, method)["examples"][0])

    made = client.post("/api/tables", json=example("/api/tables"))
    assert made.status_code == 200, made.text
    code, token = made.json()["code"], made.json()["token"]
    joined = client.post(f"/api/tables/{code}/join", json=example("/api/tables/{code}/join"))
    assert joined.status_code == 200, joined.text
    tokens = [token, joined.json()["token"]]
    assert client.post(f"/api/tables/{code}/seat", json={**example("/api/tables/{code}/seat"),
                                                          "token": tokens[1]}).status_code == 200
    assert client.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200
    # The action examples have the form of the legal actions a view lists.
    acts = body_schema(spec, "/api/tables/{code}/action")["examples"]
    shapes = {(a["action"]["type"], frozenset(a["action"])) for a in acts}
    assert shapes == {("call", frozenset({"type", "seat", "tricks"})), ("play", frozenset({"type", "seat", "card"}))}
    seen: set[tuple[str, frozenset[str]]] = set()
    for turn in range(400):  # the two people play (the bots at their pace) until both kinds were legal
        mine = tokens[turn % 2]
        state = client.post(f"/api/tables/{code}/state", json={"token": mine}).json()
        view = state["view"]
        if view["phase"] == "over" or shapes <= seen:
            break
        if view["to_act"] == view["seat"] and view["legal"]:
            seen |= {(a["type"], frozenset(a)) for a in view["legal"] if a["type"] in ("call", "play")}
            assert client.post(f"/api/tables/{code}/action", json={
                "token": mine, "version": state["version"], "action": view["legal"][0]}).status_code == 200
        else:
            time.sleep(0.01)
    assert shapes <= seen
    asked = client.post("/api/play-now", json=example("/api/play-now"))
    assert asked.status_code == 200, asked.text
    ticket = asked.json()["ticket"]
    for path in ("/api/play-now/{ticket}", "/api/play-now/{ticket}/leave"):
        assert client.post(path.format(ticket=ticket), json=example(path)).status_code == 200
    assert client.post("/api/sheets/check", json=example("/api/sheets/check")).status_code == 200


@pytest.mark.parametrize(("path", "body", "missing"), [
    ("/api/tables", {"settings": {}}, "name"),
    ("/api/play-now", {"name": "Ann"}, "guest"),
    ("/api/tables/{code}/join", {}, "name"),
    ("/api/tables/{code}/start", {}, "token"),
    ("/api/tables/{code}/seat", {"seat": 2}, "token"),
    ("/api/tables/{code}/action", {"version": 0, "action": {"type": "call", "seat": 0, "tricks": 3}}, "token"),
    ("/api/tables/{code}/claim", {}, "handoff"),
])
def test_a_body_without_a_required_field_is_refused_and_changes_nothing(
        client: TestClient, path: str, body: dict[str, Any], missing: str) -> None:
    spec = client.get("/openapi.json").json()
    assert missing in body_schema(spec, path)["required"]
    made = client.post("/api/tables", json={"name": "Ann", "settings": {"bots": "random"}})
    code = made.json()["code"]
    before = client.get(f"/api/tables/{code}").json()
    r = client.post(path.format(code=code), json=body)
    assert 400 <= r.status_code < 500, (r.status_code, r.text)
    assert r.json()["error"] and r.json()["message"]
    assert client.get(f"/api/tables/{code}").json() == before
