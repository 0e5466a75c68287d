"""The bot server fuzzed (issue 44, part 1): real tournament requests (the recorded fixtures)
with one part replaced by any JSON value, removed, or a stranger key added, and bytes that are
not JSON at all. Every answer is a legal action (200) or a 400 that says what is wrong, never a
server error, and the server answers the next real request as before."""

from __future__ import annotations

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
from fuzzing import one_part_changed

FIXTURES = sorted(Path(__file__).parent.joinpath("fixtures").glob("*.json"))


@st.composite
def mangled(draw: st.DrawFn) -> tuple[str, bytes]:
    """A recorded request's endpoint, and its body with one part changed, or bytes instead."""
    recorded = json.loads(draw(st.sampled_from(FIXTURES)).read_text())
    if draw(st.integers(0, 3)) == 0:  # (a quarter of them not JSON at all, or not the request's)
        return recorded["endpoint"], draw(st.binary(max_size=60) | st.text(max_size=60).map(str.encode))
    return recorded["endpoint"], json.dumps(draw(one_part_changed(recorded["body"]))).encode()


def test_any_mangled_request_gets_an_answer_or_a_400_and_the_server_goes_on(
        serve: Callable[[Any], LiveServer]) -> None:
    live = serve(create_app("heuristic"))
    http = httpx.Client(base_url=live.url, timeout=10, headers={"content-type": "application/json"})
    good = json.loads(FIXTURES[0].read_text())
    answered: set[int] = set()

    @settings(max_examples=int(os.environ.get("FUZZ_N", "300")), deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(request=mangled())
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
