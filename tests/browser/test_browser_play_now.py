"""Play now in real browsers (issue 33): two people (two browser contexts, two guests) press
Play now, see each other coming, sit at one table with two bots, play it to its end, and the
leaderboard counts them both. The waiting screen goes to test-artifacts/play-now-waiting.png."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_helpers import browser_fixture, shot, start_serve, wait_until_answers  # noqa: F401 (fixtures)
from test_browser_table import WAITING

pytestmark = pytest.mark.browser

# A short game: one deal, random bots that play at once. The wait is one no test runs into: the
# test ends it when both people have looked at the waiting screen (a slow machine could outrun
# any wait by the clock, and Ann would be seated with three bots before Bob came).
QUICK = ("--play-now-wait", "600", "--play-now-deals", "1", "--play-now-bot", "random", "--play-now-bot-delay", "0")


@pytest.fixture(name="db")
def db_fixture(tmp_path: Path) -> Path:
    return tmp_path / "quick.db"


@pytest.fixture(name="url")
def url_fixture(db: Path) -> Iterator[str]:
    proc, url = start_serve(db, "--no-limits", *QUICK, output=True)
    try:
        wait_until_answers(url, proc)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


def run_out(db: Path) -> None:
    """The wait of every waiting place has run out, as the database's clock sees it: the server's
    matchmaker seats them at its next round."""
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE play_now SET due_at = '2000-01-01 00:00:00' WHERE status = 'waiting'")
    conn.close()


def lobby_of(browser: Any, url: str, name: str) -> Any:
    """A person's own browser (its own guest identity) at the lobby, their name typed."""
    page = browser.new_context(viewport={"width": 1100, "height": 860}).new_page()
    page.goto(url + "/")
    page.fill("#name", name)
    return page


def move(page: Any) -> str:
    """Make this page's move if it has one (the lowest call, the first playable card, or close a
    deal's scores); what the page showed."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    what = page.evaluate(WAITING)
    try:  # (the table re-renders on every state: a click may miss, and is tried again)
        if what == "call":
            page.locator("button.call").first.click(timeout=2000)
        elif what == "play":
            page.locator("#hand .card.legal").first.click(timeout=2000)  # (a desktop: one click plays)
        elif what == "scores":
            page.click("#close-scores", timeout=2000)
    except PlaywrightTimeout:
        pass
    return str(what)


def test_two_people_press_play_now_meet_at_one_table_and_play_it_out(browser: Any, url: str, db: Path) -> None:
    ann, bob = lobby_of(browser, url, "Ann"), lobby_of(browser, url, "Bob")
    errors: list[str] = []
    for page in (ann, bob):
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.click("#play-now")
    # Each sees the other coming, and the seconds left before bots take the empty seats.
    for page, me in ((ann, "Ann (you)"), (bob, "Bob (you)")):
        page.wait_for_function("() => ['Ann', 'Bob'].every((n) => "
                               "document.querySelector('#play-now-players')?.textContent.includes(n))")
        assert me in page.locator("#play-now-players").inner_text()
        assert "a bot, unless someone comes" in page.locator("#play-now-players").inner_text()
    assert " s." in bob.locator("#play-now-status").inner_text()
    shot(bob, "play-now-waiting")
    # The wait ends: both land at the same table, which has started, with two bots.
    run_out(db)
    for page in (ann, bob):
        page.wait_for_function("() => location.pathname.startsWith('/t/')", timeout=0)
    assert ann.url == bob.url
    code = ann.url.rsplit("/", 1)[1]
    table = httpx.get(f"{url}/api/tables/{code}", timeout=10).json()
    assert [(s["kind"], s["name"]) for s in table["seats"][:2]] == [("human", "Ann"), ("human", "Bob")]
    assert [s["kind"] for s in table["seats"][2:]] == ["bot", "bot"]
    # Both play the game to its end by clicking.
    while (shown := [move(ann), move(bob)]) != ["over", "over"]:
        if "" in shown:
            time.sleep(0.1)  # (a bot's turn, or the other person's)
    for page in (ann, bob):
        assert "Game over" in page.locator("#scoreboard").inner_text()
    # The leaderboard counts both people, each by their own guest identity.
    ann.goto(url + "/stats")
    ann.wait_for_selector("#leaderboard")
    stats = httpx.get(f"{url}/api/stats", timeout=10).json()["players"]
    people = {r["name"]: r for r in stats if r["kind"] == "human"}
    assert {n: r["games"] for n, r in people.items()} == {"Ann": 1, "Bob": 1}
    assert people["Ann"]["player"] != people["Bob"]["player"]
    board = ann.locator("#leaderboard").inner_text()
    assert "Ann" in board and "Bob" in board
    assert not errors, errors
    for page in (ann, bob):
        page.context.close()
