"""The bot server fuzzed (issue 44, part 1): real tournament requests (the recorded fixtures)
with one part replaced by any JSON value, removed, or a stranger key added, and bytes that are
not JSON at all. Every answer is a legal action (200) or a 400 that says what is wrong, never a
server error, and the server answers the next real request as before."""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from protocol_helpers import LiveServer

from callbreak.protocol import create_app

FIXTURES = sorted(Path(__file__).parent.joinpath("fixtures").glob("*.json"))
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=10)


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value (a key of an object, an index of a list), outermost first."""
    places = [path] if path else []
    if isinstance(value, dict):
        for k, v in value.items():
            places += _places(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            places += _places(v, (*path, i))
    return places


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, bytes]:
    """A recorded request's endpoint and a body with one thing changed."""
    recorded = json.loads(draw(st.sampled_from(FIXTURES)).read_text())
    body = copy.deepcopy(recorded["body"])
    how = draw(st.sampled_from(["replace", "remove", "add", "raw"]))
    if how == "raw":
        return recorded["endpoint"], draw(st.binary(max_size=60) | st.text(max_size=60).map(str.encode))
    place = draw(st.sampled_from(_places(body)))
    *outer, last = place
    parent = body
    for step in outer:
        parent = parent[step]
    if how == "replace":
        parent[last] = draw(JSON)
    elif how == "remove":
        del parent[last]
    elif isinstance(parent, dict):
        parent[draw(st.text(max_size=6))] = draw(JSON)
    else:
        parent.append(draw(JSON))
    return recorded["endpoint"], json.dumps(body).encode()


def test_any_mangled_request_gets_an_answer_or_a_400_and_the_server_goes_on(
        serve: Callable[[Any], LiveServer]) -> None:
    live = serve(create_app("heuristic"))
    http = httpx.Client(base_url=live.url, timeout=10, headers={"content-type": "application/json"})
    good = json.loads(FIXTURES[0].read_text())
    answered: set[int] = set()

    @settings(max_examples=int(os.environ.get("FUZZ_N", "300")), deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(request=mutated())
    def each(request: tuple[str, bytes]) -> None:
        endpoint, body = request
        r = http.post(endpoint, content=body)
        answered.add(r.status_code)
        assert r.status_code in (200, 400), (r.status_code, r.text, body[:300])
        if r.status_code == 400:
            assert isinstance(r.json()["error"], str) and r.json()["error"], r.text
        else:
            assert "value" in r.json(), r.text

    try:
        each()
        r = http.post(good["endpoint"], content=json.dumps(good["body"]).encode())
        assert r.status_code == 200 and r.json()["value"] in good["legal"], r.text
    finally:
        http.close()
    assert answered == {200, 400}  # (both kinds reached: a change the bot can play with, and refusals)
