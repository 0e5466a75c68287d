"""The web app for every player, in a real browser: a played card travels from the hand to the
trick (and nothing moves for a player who asks for reduced motion), the hand is reached and
played by keyboard with a visible focus ring, sounds are off until turned on and the choice is
kept, and axe-core finds no serious or critical accessibility violation on any page.

axe-core comes from npm (package.json; scripts/services.sh runs ``npm ci``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_helpers import base_url_fixture, browser_fixture, shot  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 860}

# Every card that starts to move, as it starts: which card, whether the trick had been won, and
# its first and last keyframes (where it comes from, where it goes); and all the screen reader
# was told.
WATCH_MOVES = """
window.moves = [];
window.said = [];
new MutationObserver((records) => {
  for (const r of records) if (r.target.id === "announcer") window.said.push(r.target.textContent);
}).observe(document, { subtree: true, childList: true });
new MutationObserver((records) => {
  for (const r of records) {
    const el = r.target;
    if (!el.classList || !el.classList.contains("moving") || (r.oldValue || "").includes("moving")) continue;
    const frames = el.getAnimations().flatMap((a) => a.effect.getKeyframes());
    window.moves.push({ card: el.dataset.card || el.dataset.lastCard, won: "lastCard" in el.dataset,
                        first: frames.length ? frames[0].transform : null,
                        last: frames.length ? frames[frames.length - 1] : null });
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["class"], attributeOldValue: true });
"""

# Every sound the page makes: each oscillator or noise source it starts.
COUNT_SOUNDS = """
window.sounds = 0;
for (const name of ["createOscillator", "createBufferSource"]) {
  const made = AudioContext.prototype[name];
  AudioContext.prototype[name] = function () { window.sounds += 1; return made.call(this); };
}
"""


SHOWS_A_TRICK_WON = "() => [...document.querySelectorAll('.tricks-count')].some((e) => /won [1-9]/.test(e.textContent))"


def seated_table(base_url: str, *, start: bool = True) -> tuple[str, str]:
    """A one-deal table for Ann against instant random bots, made (and started) by the API."""
    made = httpx.post(f"{base_url}/api/tables", json={"name": "Ann", "settings": {
        "preset": "callbreak", "deals": 1, "bots": "random", "bot_delay": 0}}, timeout=10).json()
    code, token = made["code"], made["token"]
    if start:
        assert httpx.post(f"{base_url}/api/tables/{code}/start", json={"token": token}, timeout=10).status_code == 200
    return code, token


def open_seat(context: Any, base_url: str, code: str, token: str) -> Any:
    page = context.new_page()
    page.goto(f"{base_url}/")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"callbreak:token:{code}", token])
    page.goto(f"{base_url}/t/{code}")
    return page


def tricks_won(base_url: str, code: str, token: str) -> int:
    view = httpx.post(f"{base_url}/api/tables/{code}/state", json={"token": token}, timeout=10).json()["view"]
    return len(view["tricks"])


def play_by_keyboard(page: Any) -> str:
    """Tab to the hand from the top of the page, choose with an arrow key, play with Enter:
    returns the card played."""
    page.wait_for_selector("#hand .card.legal")
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    for _ in range(15):  # the top bar's links and the status line come first
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('#hand .card')"):
            break
    assert page.evaluate("() => document.activeElement.matches('#hand .card.legal')"), \
        page.evaluate("() => document.activeElement.outerHTML.slice(0, 120)")
    ring = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert ring == "solid"  # the focus ring shows
    page.keyboard.press("ArrowRight")  # redraws the table: the focus follows the chosen card
    assert page.evaluate("() => document.activeElement.matches('#hand .card.selected')")
    card = str(page.evaluate("() => document.activeElement.dataset.card"))
    name = page.evaluate("() => document.activeElement.querySelector('svg').getAttribute('aria-label')")
    assert re.fullmatch(r"(two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of (spades|hearts|clubs|diamonds)", name), name
    page.keyboard.press("Enter")
    # Gone from the hand: played (a trick it ends may be gathered and the next led at once).
    page.wait_for_selector(f"#hand [data-card='{card}']", state="detached")
    if page.evaluate("() => 'said' in window"):  # the screen reader is told, in a few words
        page.wait_for_function("text => window.said.some((s) => s.includes(text))", arg=f"You played the {name}.")
    return card


def test_a_card_played_by_keyboard_travels_from_the_hand_and_a_trick_to_its_winner(
        browser: Any, base_url: str) -> None:
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(WATCH_MOVES)
    code, token = seated_table(base_url)
    page = open_seat(context, base_url, code, token)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.locator("button.call").first.click()
    card = play_by_keyboard(page)
    mine = [m for m in page.evaluate("() => window.moves") if m["card"] == card]
    assert mine, f"the {card} did not move"
    # It starts over the hand, which lies below the trick: moved down (a positive y) from its place.
    start = re.search(r"translate\(([-\d.e]+)px, ([-\d.e]+)px\)", mine[0]["first"] or "")
    assert start and float(start.group(2)) > 20, mine[0]
    while tricks_won(base_url, code, token) == 0:  # until a trick is complete
        play_by_keyboard(page)
    page.wait_for_function("() => window.moves.some((m) => m.won)")
    won = [m for m in page.evaluate("() => window.moves") if m["won"]]
    # Gathered into the winner's seat: it ends moved away from its place, and gone.
    swept = [m for m in won if "translate(" in m["last"].get("transform", "") and float(m["last"]["opacity"]) == 0]
    assert swept, won
    assert not errors, errors
    context.close()

    # The same under reduced motion: the card is played and nothing moves.
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    context.add_init_script(WATCH_MOVES)
    code, token = seated_table(base_url)
    page = open_seat(context, base_url, code, token)
    page.locator("button.call").first.click()
    while tricks_won(base_url, code, token) == 0:
        play_by_keyboard(page)
    page.wait_for_function(SHOWS_A_TRICK_WON)
    assert page.evaluate("() => window.moves") == []
    assert page.evaluate("() => document.getAnimations().length") == 0
    context.close()


def test_sounds_are_off_until_turned_on_and_the_choice_is_remembered(browser: Any, base_url: str) -> None:
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(COUNT_SOUNDS)
    code, token = seated_table(base_url)
    page = open_seat(context, base_url, code, token)
    toggle = page.locator("#sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "false"
    assert page.evaluate("() => localStorage.getItem('callbreak:sound')") is None
    page.locator("button.call").first.click()
    page.wait_for_selector("#hand .card.legal")  # the calls made, and the play come round to Ann
    assert page.evaluate("() => window.sounds") == 0
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    assert page.evaluate("() => window.sounds") > 0  # a sample as it is turned on
    page.reload()
    page.wait_for_selector("#hand .card")
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "true"
    page.wait_for_selector("#hand .card.legal")
    before = page.evaluate("() => window.sounds")
    page.locator("#hand .card.legal").first.click(position={"x": 8, "y": 30})  # lifted ...
    page.click("#play-lifted")  # ... and played
    page.wait_for_function("n => window.sounds > n", arg=before)  # the card's sound
    page.locator("#sound-toggle").click()
    page.reload()
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "false"
    context.close()


def serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical findings on the page as it stands."""
    page.add_script_tag(path=str(AXE))
    return list(page.evaluate("""async () => (await axe.run(document, { resultTypes: ["violations"] })).violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(", ")}`)"""))


def finished_game(base_url: str) -> tuple[str, str]:
    """A one-deal game played to its end through the API (the first legal action each time)."""
    code, token = seated_table(base_url)
    with httpx.Client(base_url=base_url, timeout=30) as http:
        while True:
            state = http.post(f"/api/tables/{code}/state", json={"token": token}).json()
            view = state["view"]
            if view["phase"] == "over":
                return code, token
            if view["to_act"] == 0 and view["legal"]:
                http.post(f"/api/tables/{code}/action",
                          json={"token": token, "version": state["version"], "action": view["legal"][0]})


def test_axe_finds_no_serious_violation_on_any_page(browser: Any, base_url: str) -> None:
    if not AXE.exists():
        pytest.skip(f"axe-core is not installed ({AXE}): run `npm ci` (scripts/services.sh does)")
    done, done_token = finished_game(base_url)
    httpx.post(f"{base_url}/api/history/{done}/review", timeout=30)  # the review starts while we look
    # Reduced motion: axe judges the page at rest, not a card in flight.
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    found: dict[str, list[str]] = {}

    def check(page: Any, name: str, ready: str, timeout: float = 30000) -> None:
        page.wait_for_selector(ready, timeout=timeout)
        found[name] = serious_violations(page)

    page = context.new_page()
    page.goto(f"{base_url}/")
    check(page, "lobby", "#create")
    code, token = seated_table(base_url, start=False)
    page = open_seat(context, base_url, code, token)
    check(page, "table's lobby", "#start")
    page.click("#start")
    page.locator("button.call").first.click()
    check(page, "table in play, desktop", "#hand .card.legal")
    page.set_viewport_size(PHONE)
    check(page, "table in play, phone", "#hand .card.legal")
    page.set_viewport_size(DESKTOP)
    page = open_seat(context, base_url, done, done_token)
    check(page, "final scoreboard", "#scoreboard")
    for path, name, ready in [("/history", "history", "#history"), (f"/history/{done}", "replay", ".replay-hands"),
                              ("/stats", "leaderboard", "#leaderboard"), ("/scorekeeper", "scorekeeper", "#sheet-create")]:
        page.goto(base_url + path)
        check(page, name, ready)
    page.click("#sheet-create")
    check(page, "score sheet", "#sheet-table")
    page.goto(f"{base_url}/review/{done}")
    check(page, "review", "#review-summary", timeout=180000)  # the expert judges every decision
    context.close()
    assert not any(found.values()), {name: v for name, v in found.items() if v}
