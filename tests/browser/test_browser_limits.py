"""The lobby as a public server's visitor sees its limits (issue 30): it says when the server is
full of tables with bots, and a refused table says why."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from browser_helpers import browser_fixture, shot, start_serve, wait_until_answers  # noqa: F401 (fixture)

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
def test_the_first_expert_table_says_it_is_preparing_the_expert(browser: object, tmp_path: Path) -> None:
    """A fresh install (an empty numba cache): the first table of expert bots waits for the
    compile, and the lobby says so meanwhile."""
    cache = tmp_path / "numba"
    cache.mkdir()
    proc, url = start_serve(tmp_path / "cold.db", env={**os.environ, "NUMBA_CACHE_DIR": str(cache)})
    page = browser.new_page()  # type: ignore[attr-defined]
    try:
        wait_until_answers(url, proc, "/api/meta")  # the lobby, while the kernel compiles
        page.goto(url + "/")
        page.fill("#name", "Ann")
        page.click("#create")  # the lobby's default bots: the expert
        page.wait_for_function("() => document.querySelector('#create-status')?.textContent"
                               ".includes('Preparing the expert, first use')", timeout=10000)
        assert page.is_disabled("#create")  # one table per click
        shot(page, "lobby-preparing-the-expert")
        page.wait_for_selector("#start", timeout=300000)  # made, once the expert is ready
    finally:
        page.close()
        proc.terminate()
        proc.wait(10)
