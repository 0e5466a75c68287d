"""The web table on a phone as issue 32 measured it: every control a thumb uses is at least 44 px
each way at 360 and 390 px wide, the host's Start is in sight without scrolling, the scores
between deals leave the hand and the calls in sight and a tap on a call makes the call, the score
cells' key is on the page, the status says "to call" during the calls, a notice lies over the page
instead of pushing the table down, and the game-over actions stay after the pop-up is closed."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from browser_helpers import base_url_fixture, browser_fixture, shot, tap_script  # noqa: F401 (fixtures)
from websockets.sync.client import connect

pytestmark = pytest.mark.browser

THUMB = 44

SIZES = """sel => [...document.querySelectorAll(sel)].filter(e => e.offsetParent !== null).map(e => {
  const r = e.getBoundingClientRect();
  return [sel + ' ' + (e.id || e.textContent.trim().slice(0, 16)), Math.round(r.width * 10) / 10, Math.round(r.height * 10) / 10];
})"""

# One tap at a time inside the page, so that looking and tapping see the same table: play deal 1
# (a call, then lift and play each card) until deal 2's call comes with the scores up.
TAP = tap_script(
    "if (document.querySelector('#scoreboard') && document.querySelector('button.call')) return 'ready';",
    "if (document.querySelector('#scoreboard .panel h2') && "
    "document.querySelector('#scoreboard')?.textContent.includes('Game over')) return 'over';")


def make_table(url: str, **settings: Any) -> tuple[str, str]:
    body = {"name": "Ann", "settings": {"preset": "callbreak", "deals": 1, "bots": "random", "bot_delay": 0,
                                       **settings}}
    r = httpx.post(f"{url}/api/tables", json=body, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()["code"], r.json()["token"]


def open_as(browser: Any, url: str, code: str, token: str, viewport: dict[str, int], phone: bool = True) -> Any:
    context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
    page = context.new_page()
    page.goto(url + "/")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"callbreak:token:{code}", token])
    page.goto(f"{url}/t/{code}")
    return page


def sizes(page: Any, *selectors: str) -> list[tuple[str, float, float]]:
    found: list[tuple[str, float, float]] = []
    for sel in selectors:
        got = page.evaluate(SIZES, sel)
        assert got, f"nothing shown for {sel}"
        found += [tuple(x) for x in got]
    return found


def cut_off(page: Any, selector: str, width: int) -> list[str]:
    """What of ``selector`` is not wholly on the screen, left to right."""
    return [str(x) for x in page.evaluate("""([sel, width]) => [...document.querySelectorAll(sel)]
        .map(e => [e.id || e.textContent.trim(), e.getBoundingClientRect()])
        .filter(([, r]) => r.left < 0 || r.right > width + 0.5)
        .map(([name, r]) => `${name} ${Math.round(r.left)}-${Math.round(r.right)}`)""", [selector, width])]


@pytest.mark.parametrize("lang", ["en", "bn"])
@pytest.mark.parametrize("width,height", [(360, 740), (390, 844)], ids=["360", "390"])
def test_the_lobby_on_a_phone_has_thumb_sized_controls_and_a_whole_top_bar(
        browser: Any, base_url: str, width: int, height: int, lang: str) -> None:
    """Issue 45: the start page's fields, menus, the checkbox's line, More options and the
    scorekeeper link each at least 44 px tall, and every link of the top bar on the screen (the
    Bengali words are the longest)."""
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True,
                                  has_touch=True, locale=lang)
    page = context.new_page()
    page.goto(base_url + "/")
    page.wait_for_selector("#create")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    measured = sizes(page, "#menu-toggle", "#language", "main input:not([type=checkbox])", "main select",
                     "label.check", "main summary", "main button", "main p > a")
    # The links behind the Menu button, each whole on the screen and a thumb's size.
    page.locator("#menu-toggle").tap()
    page.wait_for_selector(".topbar nav a[href='/scorekeeper']", state="visible")
    assert not cut_off(page, ".topbar a, #menu-toggle, .topbar #language", width)
    measured += sizes(page, ".topbar nav a")
    assert len([m for m in measured if m[0].startswith(".topbar nav a")]) == 4
    small = [m for m in measured if m[2] < THUMB]
    assert not small, small
    shot(page, f"issue45-lobby-phone-{width}-{lang}")
    context.close()


def boxes_overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def until(page: Any, wanted: set[str]) -> str:
    while (done := str(page.evaluate(TAP))) not in wanted:
        if done == "wait":
            page.wait_for_timeout(30)
    return done


@pytest.mark.parametrize("width,height", [(360, 740), (390, 844)], ids=["360", "390"])
def test_every_thumb_control_is_44_px_and_the_scores_leave_the_calls_free(
        browser: Any, base_url: str, width: int, height: int) -> None:
    code, token = make_table(base_url, deals=2)  # no turn timer: the scores came as a pop-up
    page = open_as(browser, base_url, code, token, {"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    measured: list[tuple[str, float, float]] = []
    # The lobby: the host's Start in sight without scrolling, and the top bar's links.
    page.wait_for_selector("#start")
    start = page.locator("#start").bounding_box()
    assert start is not None and start["y"] + start["height"] <= height, start
    assert page.evaluate("() => window.scrollY") == 0
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    measured += sizes(page, ".topbar a", "#start", "#copy-link", "#other-device")
    assert not cut_off(page, ".topbar a, .topbar #language", width)
    shot(page, f"issue32-lobby-phone-{width}")
    page.click("#start")
    page.wait_for_selector("button.call", timeout=20000)
    measured += sizes(page, "button.call", "#hint", "#show-scores")
    shot(page, f"issue32-calls-phone-{width}")
    page.locator("button.call").first.click()
    # A card lifted: Play and Put back.
    page.wait_for_selector("#hand .card.legal", timeout=20000)
    page.locator("#hand .card.legal").first.click(position={"x": 8, "y": 30})
    page.wait_for_selector("#play-lifted")
    measured += sizes(page, "#play-lifted", "#put-back", "#hint")
    shot(page, f"issue32-lifted-phone-{width}")
    page.click("#play-lifted")
    # Deal 2's call with deal 1's scores up: over the board, not over the hand or the calls.
    assert until(page, {"ready"}) == "ready"
    board = page.locator("#scoreboard .panel").bounding_box()
    assert board is not None
    for what in ("#hand", "#controls"):
        box = page.locator(what).bounding_box()
        assert box is not None and box["y"] + box["height"] <= height, (what, box)
        assert not boxes_overlap(board, box), (what, board, box)
    legend = page.locator("#scoreboard #score-legend")
    assert legend.is_visible() and "won/called → points" in legend.inner_text()
    measured += sizes(page, "#close-scores", "button.call")
    shot(page, f"issue32-scores-deal2-phone-{width}")
    # A tap on a call makes the call (it once only closed the pop-up).
    calls_before = httpx.post(f"{base_url}/api/tables/{code}/state", json={}, timeout=10).json()["view"]["calls"][0]
    assert calls_before is None
    page.locator("button.call").first.click()
    page.wait_for_function("() => !document.querySelector('button.call')", timeout=10000)
    assert httpx.post(f"{base_url}/api/tables/{code}/state", json={}, timeout=10).json()["view"]["calls"][0] is not None
    # The end: the final pop-up's Close and Rematch, and the actions that stay on the page.
    assert until(page, {"over"}) == "over"
    measured += sizes(page, "#close-scores", "#rematch")
    page.click("#close-scores")
    page.wait_for_selector("#scoreboard", state="detached")
    assert page.locator("#game-over-actions").is_visible()
    measured += sizes(page, "#end-rematch", "#end-replay", "#end-review", "#show-scores")
    shot(page, f"issue32-game-over-phone-{width}")
    small = [m for m in measured if m[1] < THUMB or m[2] < THUMB]
    assert not small, small
    assert not errors, errors
    page.context.close()


def test_the_status_says_to_call_during_the_calls(browser: Any, base_url: str) -> None:
    """Bob, a person at seat 2, is connected and thinking over his call: the page says so."""
    code, token = make_table(base_url)
    bob = httpx.post(f"{base_url}/api/tables/{code}/join", json={"name": "Bob", "seat": 2}, timeout=10).json()["token"]
    page = open_as(browser, base_url, code, token, {"width": 1200, "height": 860}, phone=False)
    with connect(f"{base_url.replace('http', 'ws')}/ws/{code}") as ws:
        ws.send(json.dumps({"type": "hello", "token": bob}))  # here, so no bot stands in for him
        page.click("#start")
        while True:
            view = httpx.post(f"{base_url}/api/tables/{code}/state", json={}, timeout=10).json()["view"]
            if view is None:  # the start is on its way from the page to the server
                page.wait_for_timeout(50)
                continue
            if view["to_act"] == 2:
                break
            if view["to_act"] == 0 and page.locator("button.call").count():
                page.locator("button.call").first.click()
            page.wait_for_timeout(50)
        page.wait_for_function("() => document.querySelector('#turn')?.textContent === 'Bob to call'")
        shot(page, "issue32-to-call-desktop")


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1280, "height": 800}],
                         ids=["phone", "desktop"])
def test_a_notice_lies_over_the_page_and_does_not_push_the_table_down(browser: Any, base_url: str,
                                                                      viewport: dict[str, int]) -> None:
    code, token = make_table(base_url, timer=4)
    page = open_as(browser, base_url, code, token, viewport, phone=viewport["width"] < 500)
    page.click("#start")
    page.wait_for_selector("button.call", timeout=20000)
    top = page.locator("#table").bounding_box()
    # Ann does nothing: the clock calls for her, and the table says so.
    page.wait_for_selector("#notices:not([hidden])", timeout=20000)
    assert "Time ran out" in page.locator("#notices").inner_text()
    after = page.locator("#table").bounding_box()
    assert top is not None and after is not None and after["y"] == top["y"], (top, after)
    shot(page, f"issue32-notice-{'phone' if viewport['width'] < 500 else 'desktop'}")
    page.context.close()
