"""The lobby as a public server's visitor sees its limits (issue 30): it says when the server is
full of tables with bots, and a refused table says why; and a fresh install's first expert table,
which waits for the kernel's compile while the server serves everything else."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from browser_helpers import browser_fixture, shot, start_serve, wait_until_answers  # noqa: F401 (fixture)

from callbreak.server.tables import PREPARING

pytestmark = pytest.mark.browser


@pytest.fixture(name="full_server")
def full_server_fixture(tmp_path: Path) -> Iterator[str]:
    """``callbreak serve`` allowing one live table with bots, which one table already takes."""
    proc, url = start_serve(tmp_path / "full.db", "--live-bot-tables", "1")
    try:
        wait_until_answers(url, proc)
        r = httpx.post(f"{url}/api/tables", json={"name": "First", "settings": {"bots": "random"}}, timeout=30)
        assert r.status_code == 200, r.text
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


def test_the_lobby_says_the_server_is_full_and_why_a_table_is_refused(browser: object, full_server: str) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    try:
        page.goto(full_server + "/")
        notice = page.wait_for_selector("#server-full:not([hidden])", timeout=10000)
        assert "This server is full" in notice.text_content()
        page.fill("#name", "Ann")
        page.select_option("#bot-1", "random")
        page.click("#create")
        page.wait_for_function("() => document.querySelector('#create-error')?.textContent.includes('full')",
                               timeout=10000)
        assert "/t/" not in page.url  # no table was made
        shot(page, "lobby-server-full")
    finally:
        page.close()


@pytest.mark.slow
@pytest.mark.process
def test_a_cold_start_serves_the_lobby_and_other_bots_while_the_first_expert_table_waits(
        browser: object, tmp_path: Path) -> None:
    """A fresh install: an empty kernel cache, so one compile (the slowest thing a server does;
    the lobby's test and the server's each paying for their own was a minute of the suite).

    1. While the kernel compiles, a table of bots that do not run on it (random, heuristic,
       neural) is made and plays at once, the server ready all along.
    2. The lobby's first table of expert bots (its default) waits for the compile: the page says
       so and offers no second click, and is taken to the table once the expert is ready.
    3. Meanwhile the lobby is answered, many times (a wall-clock bound of 200 ms would fail on a
       busy machine; this asserts what the bound meant): each counted ``/api/meta`` answer came
       between two ``/readyz`` answers that said the kernel was compiling, before the table was
       made; ``/readyz`` says the expert is being prepared; and the server's own loop watch saw
       no stall of ours: none in which the loop thread computed past its threshold while the
       expert table waited, none caught running the compile or the kernel's load."""
    cache = tmp_path / "numba"
    cache.mkdir()
    proc, url = start_serve(tmp_path / "cold.db", env={**os.environ, "NUMBA_CACHE_DIR": str(cache)}, output=True)
    assert proc.stdout is not None
    printed: list[str] = []  # (read all along: a full pipe would block the server)
    threading.Thread(target=lambda: printed.extend(iter(proc.stdout.readline, "")), daemon=True).start()
    http = httpx.Client(base_url=url, timeout=60)
    page = browser.new_page()  # type: ignore[attr-defined]
    try:
        wait_until_answers(url, proc, "/api/meta")
        r = http.post("/api/tables", json={"name": "Bo", "settings": {
            "preset": "callbreak", "deals": 1, "bots": ["random", "random", "heuristic", "neural"],
            "bot_delay": 0}})
        assert r.status_code == 200, r.text
        code, token = r.json()["code"], r.json()["token"]
        assert http.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200
        while True:  # seat 0 calls when it is asked to, until a bot has called
            s = http.post(f"/api/tables/{code}/state", json={"token": token}).json()
            assert "preparing" not in s
            if any(call is not None for call in s["view"]["calls"][1:]):
                break
            view = s["view"]
            if view["to_act"] == view["seat"] and view["legal"]:  # the first ordinary legal action
                ordinary = [a for a in view["legal"] if a["type"] != "look" and not a.get("blind")]
                http.post(f"/api/tables/{code}/action", json={"token": token, "version": s["version"],
                                                              "action": (ordinary or view["legal"])[0]})
            time.sleep(0.02)
        # Ready all along (it serves these tables), the kernel still compiling.
        ready = http.get("/readyz")
        assert ready.status_code == 200 and ready.json()["kernel"] == "compiling", ready.json()
        # (The stalls counted from here: the random table's play before is not what this asks.)
        cpu_stalls = http.get("/healthz").json()["loop"]["cpu_stalls"]
        preparing = False

        def compiling() -> bool:
            nonlocal preparing
            ready = http.get("/readyz")
            preparing |= ready.status_code == 200 and PREPARING in ready.json().get("preparing", "")
            return ready.json()["kernel"] == "compiling"  # type: ignore[no-any-return]

        page.goto(url + "/")
        page.fill("#name", "Ann")
        before = compiling()
        page.click("#create")  # the lobby's default bots: the expert
        page.wait_for_function("() => document.querySelector('#create-status')?.textContent"
                               ".includes('Preparing the expert, first use')", timeout=10000)
        assert page.is_disabled("#create")  # one table per click
        shot(page, "lobby-preparing-the-expert")
        during = polls = 0
        while page.query_selector("#start") is None:  # what the lobby page asks while it waits
            assert http.get("/api/meta").status_code == 200
            polls += 1
            pending = page.query_selector("#start") is None  # the table not made yet
            after = compiling()
            during += int(before and after and pending)
            before = after
            page.wait_for_timeout(20)
        # The compile happened meanwhile (the cache was empty and is filled now) and the table
        # waited for it; the page had something to say.
        assert http.get("/readyz").json()["kernel"] == "ready"
        assert any(cache.rglob("*.nbi")), "the kernel's cache was not filled"
        assert preparing, "/readyz never said the expert was being prepared"
        assert during >= 20, f"only {during} of {polls} /api/meta answers came while the kernel compiled"
        loop = http.get("/healthz").json()["loop"]
        stalls = [line for line in printed if "event loop stalled" in line]
        ours = [line for line in stalls if any(w in line for w in ("numba", "kernel", "warmup"))]
        assert loop["cpu_stalls"] == cpu_stalls and not ours, (loop, stalls)
    finally:
        page.close()
        http.close()
        proc.terminate()
        proc.wait(10)
