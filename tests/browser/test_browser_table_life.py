"""The web table as people play it, in a real browser: a phone-sized hand every finger can hit,
a mis-tap put back before it is sent, the connection lost and found again (the server killed and
restarted), the clock's countdown and what it did for a player, and a scoreboard that never
covers a timed choice. Screenshots of each go to test-artifacts/."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_helpers import ServeProcess, base_url_fixture, browser_fixture, shot, tap_script  # noqa: F401 (fixtures)
from websockets.sync.client import connect

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}


@pytest.fixture(name="server")
def server_fixture(tmp_path: Path) -> Iterator[ServeProcess]:
    s = ServeProcess(tmp_path / "life.db")
    s.start()
    yield s
    s.stop()


def make_table(url: str, **settings: Any) -> tuple[str, str]:
    """A table for Ann with random bots at the other seats, made by the API, not yet started."""
    body = {"name": "Ann", "settings": {"preset": "callbreak", "deals": 1, "bots": "random",
                                       "bot_delay": 0, **settings}}
    r = httpx.post(f"{url}/api/tables", json=body, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()["code"], r.json()["token"]


def open_as(browser: Any, url: str, code: str, token: str, viewport: dict[str, int]) -> Any:
    """Ann's browser: her seat's token is where the page keeps it, as after creating the table."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(url + "/")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"callbreak:token:{code}", token])
    page.goto(f"{url}/t/{code}")
    return page


def boxes_overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def test_phone_hand_lift_put_back_and_a_killed_server(browser: Any, server: ServeProcess) -> None:
    code, token = make_table(server.url)
    page = open_as(browser, server.url, code, token, PHONE)
    page.click("#start")
    page.wait_for_selector("button.call", timeout=20000)
    # Every one of the 13 cards can be hit by a finger: at least 44 px of it is its own.
    hits = page.locator("#hand .card").evaluate_all("""els => els.map(e => {
        const r = e.getBoundingClientRect();
        const x = r.left + 22, y = r.top + 12;  // the middle of the card's own 44 px at the top
        const hit = document.elementFromPoint(x, y);
        return [r.width, Boolean(hit && e.contains(hit)), r.right <= window.innerWidth];
    })""")
    assert len(hits) == 13
    assert all(width >= 44 and mine and inside for width, mine, inside in hits), hits
    shot(page, "life-phone-hand")
    page.locator("button.call").first.click()
    page.wait_for_selector("#hand .card.legal", timeout=20000)
    # A first tap lifts a card and sends nothing; Put back takes it back.
    version = httpx.post(f"{server.url}/api/tables/{code}/state", json={"token": token}).json()["version"]
    first = page.locator("#hand .card.legal").first
    card = first.get_attribute("data-card")
    first.click()
    page.wait_for_selector(f"#hand .card.selected[data-card='{card}']")
    assert page.locator("#play-lifted").inner_text().startswith("Play ")
    shot(page, "life-phone-lifted")
    page.click("#put-back")
    page.wait_for_function("() => !document.querySelector('#hand .card.selected') && !document.querySelector('#play-lifted')")
    assert httpx.post(f"{server.url}/api/tables/{code}/state", json={"token": token}).json()["version"] == version
    assert page.locator(f"#hand .card[data-card='{card}']").count() == 1
    # The server dies: the page says so at once and takes no taps.
    server.kill()
    page.wait_for_selector("#conn:not([hidden])", timeout=10000)
    assert "reconnecting" in page.locator("#conn").inner_text()
    assert page.evaluate("() => document.body.classList.contains('offline')")
    assert page.locator("#hand .card.legal").first.evaluate("e => getComputedStyle(e).pointerEvents") == "none"
    shot(page, "life-phone-reconnecting")
    # It comes back (the same table from the store): the page reconnects by itself and plays on.
    server.start()
    page.wait_for_selector("#conn", state="hidden", timeout=30000)
    assert not page.evaluate("() => document.body.classList.contains('offline')")
    page.wait_for_selector("#hand .card.legal", timeout=20000)
    again = page.locator("#hand .card.legal").first
    card = again.get_attribute("data-card")
    again.click()
    again.click()  # the second tap plays it
    page.wait_for_function(f"() => !document.querySelector('#hand .card[data-card=\"{card}\"]')", timeout=20000)
    shot(page, "life-phone-after-reconnect")
    page.context.close()


class Bob(threading.Thread):
    """A friend at the table on a websocket, playing the first legal action: a person stays
    connected, so the table goes on while Ann is away."""

    def __init__(self, url: str, code: str, token: str) -> None:
        super().__init__(daemon=True)
        self.url, self.code, self.token = url.replace("http", "ws"), code, token
        self.stop = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with connect(f"{self.url}/ws/{self.code}") as ws:
                ws.send(json.dumps({"type": "hello", "token": self.token}))
                while not self.stop.is_set():
                    try:
                        m = json.loads(ws.recv(timeout=0.5))
                    except TimeoutError:
                        continue
                    view = m.get("view") if m.get("type") == "state" else None
                    if not view or view["phase"] == "over" or view["to_act"] != view["seat"]:
                        continue
                    ordinary = [a for a in view["legal"] if a["type"] not in ("look", "redeal")]
                    if ordinary:
                        ws.send(json.dumps({"type": "action", "token": self.token,
                                            "version": m["version"], "action": ordinary[0]}))
        except BaseException as e:  # reported by the test
            self.error = e


def test_the_clock_counts_down_acts_and_says_what_it_did(browser: Any, server: ServeProcess) -> None:
    code, token = make_table(server.url, timer=4)
    r = httpx.post(f"{server.url}/api/tables/{code}/join", json={"name": "Bob", "seat": 2})
    bob = Bob(server.url, code, r.json()["token"])
    bob.start()
    page = open_as(browser, server.url, code, token, {"width": 1200, "height": 860})
    page.click("#start")
    page.wait_for_selector("button.call", timeout=20000)
    # A countdown bar, not only digits, and a warning near the end.
    assert page.locator("#clock-bar").is_visible()
    page.wait_for_selector("#clock.low", timeout=6000)
    assert "Hurry" in page.locator("#clock-text").inner_text()
    shot(page, "life-clock-warning")
    # Ann does nothing: the clock calls for her and the table says so.
    page.wait_for_selector("#notices:not([hidden])", timeout=10000)
    text = page.locator("#notices").inner_text()
    assert "Time ran out: your call was set to 1" in text, text
    shot(page, "life-clock-notice")
    page.click("#notices-ok")
    page.wait_for_selector("#notices", state="hidden")
    # Ann leaves; Bob stays, so her turns are played by a stand-in bot when her clock runs out.
    context = page.context
    page.close()
    while True:
        notices = httpx.post(f"{server.url}/api/tables/{code}/state", json={}).json()["notices"]
        away = [n for n in notices if n["seat"] == 0 and n["why"] == "away"]
        if away:
            break
        time.sleep(0.5)
    # She comes back on the same browser and is told what was played in her name.
    page = context.new_page()
    page.goto(f"{server.url}/t/{code}")
    page.wait_for_selector("#notices:not([hidden])", timeout=10000)
    text = page.locator("#notices").inner_text()
    assert "You were away, so a bot stood in" in text, text
    assert page.locator("#notices li").count() <= 3  # the latest two and a count: the hand stays in sight
    assert "Time ran out: your call" not in text  # already seen on this browser
    shot(page, "life-returning-player")
    bob.stop.set()
    bob.join(10)
    assert bob.error is None, bob.error
    page.context.close()


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1200, "height": 860}], ids=["phone", "desktop"])
def test_the_scoreboard_never_covers_a_timed_call(browser: Any, server: ServeProcess,
                                                   viewport: dict[str, int]) -> None:
    code, token = make_table(server.url, deals=2, timer=20)
    page = open_as(browser, server.url, code, token, viewport)
    page.click("#start")
    # One tap at a time inside the page, so that looking and tapping see the same table (a state
    # arriving between a look and a tap from outside could make us call past the scoreboard).
    tap = tap_script("if (document.querySelector('#scoreboard') && document.querySelector('button.call')) return 'ready';")
    while (done := page.evaluate(tap)) != "ready":  # deal 1, until deal 2's call comes up
        if page.locator("#game-over-actions").count():  # past deal 2 without it: it never came
            shot(page, "life-scoreboard-stuck")
            raise AssertionError(f"deal 2's call never came with the scoreboard up (last: {done})")
        if done == "wait":
            time.sleep(0.03)
    assert "Scoreboard" in page.locator("#scoreboard").inner_text()
    assert not page.locator("#toast").is_visible(), page.locator("#toast").inner_text()  # no refusals
    names = page.locator(".seat .name").all_inner_texts()
    assert len(names) == 4 and not [n for n in names if "(bot)" in n], names  # a bot is named once
    board = page.locator("#scoreboard .panel").bounding_box()
    assert board is not None
    for what in ("#hand", "#controls", "#clock", "#turn"):  # the choice and its clock in sight
        box = page.locator(what).bounding_box()
        assert box is not None and box["y"] + box["height"] <= viewport["height"], (what, box)
        assert not boxes_overlap(board, box), (what, board, box)
    for i in range(page.locator("button.call").count()):
        box = page.locator("button.call").nth(i).bounding_box()
        assert box is not None and not boxes_overlap(board, box)
    shot(page, f"life-scoreboard-{'phone' if viewport is PHONE else 'desktop'}")
    if viewport is PHONE:
        page.locator("button.call").first.click()  # the call buttons take the tap
    else:  # and the keys work with the scores up: a call by its digit and Enter
        low = page.locator("button.call").first.get_attribute("data-call")
        page.keyboard.press(str(low))
        page.keyboard.press("Enter")
    page.wait_for_function("() => !document.querySelector('button.call')", timeout=10000)
    page.context.close()


def test_a_player_continues_on_another_device(browser: Any, server: ServeProcess) -> None:
    code, token = make_table(server.url)
    laptop = open_as(browser, server.url, code, token, {"width": 1200, "height": 860})
    # Words a player knows: the rule set's name, "a random bot", labelled bot seats.
    laptop.wait_for_selector(".seat-list")
    lobby = laptop.locator("#table").inner_text()
    assert "Call Break · 1 deal" in lobby and "Open — a random bot plays" in lobby, lobby
    laptop.click("#other-device")
    link = laptop.locator("#handoff-link").input_value()
    assert link.startswith(f"{server.url}/t/{code}#handoff=")
    shot(laptop, "life-handoff-link")
    laptop.click("#close-handoff")
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.goto(link)
    phone.wait_for_selector(".seat-slot.me[data-seat='0']", timeout=10000)
    assert "#handoff" not in phone.url  # the one-time code leaves the address bar
    assert phone.locator("#start").count() == 1  # the host's seat, with its rights
    # The laptop is told and only watches now: no start button, no seat of its own.
    laptop.wait_for_function("() => !document.querySelector('.seat-slot.me')", timeout=10000)
    assert laptop.locator("#start").count() == 0
    assert laptop.evaluate(f"() => localStorage.getItem('callbreak:token:{code}')") is None
    phone.click("#start")
    phone.wait_for_selector("button.call", timeout=20000)
    assert phone.locator("#other-device").count() == 1  # and on again, whenever needed
    shot(phone, "life-handoff-phone-playing")
    phone.context.close()
    laptop.context.close()
