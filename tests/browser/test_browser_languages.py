"""The web app in Nepali, Hindi and Bengali (English the baseline), on a phone: a whole game
made in the lobby and played by tapping cards, then the history, the replay, the leaderboard and
the scorekeeper, each page read in full (its text, its placeholders, labels and titles): no
English left and numbers in the language's own digits. The language comes from the browser, and
one chosen in the menu is remembered across a reload."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_helpers import base_url_fixture, browser_fixture, shot, tap_script  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
# Each language, the player name the test types (in its own script) and its digits.
LANGUAGES = {"en": ("Asha", "0-9"), "ne": ("सीता", "०-९"), "hi": ("सुनीता", "0-9"), "bn": ("রুমা", "০-৯")}
# What may stay in Latin letters on a translated page: the name of a website written as it is
# (the Call Break preset's description cites the catsatcards rules), and the names people typed
# (the history and the leaderboard list the English run's player too). Room codes (ABCD-EFGH-JKMN,
# as typed back) and a player's id on the leaderboard (#3fa9) are codes, taken out before the check.
LATIN_ALLOWED = {"catsatcards", *(name for name, _ in LANGUAGES.values())}
CODES = re.compile(r"\b[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}\b|\b[A-Z0-9]{12}\b|#[0-9a-f]{4}\b")

# Every word a person reads on the page: visible text, the chosen option of each menu, and the
# placeholders, aria-labels and titles (a screen reader speaks them). Card faces (SVG) carry the
# printed indices a real pack has (K, Q, J, A, 10), so only their label is read.
READ = """() => {
  const out = [];
  const walk = (node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) { out.push(child.textContent); continue; }
      if (child.nodeType !== Node.ELEMENT_NODE || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(child.tagName)) continue;
      if (!child.checkVisibility()) continue;
      for (const a of ['aria-label', 'title', 'placeholder']) if (child.getAttribute(a)) out.push(child.getAttribute(a));
      if (child.tagName.toLowerCase() === 'svg') continue;
      if (child.tagName === 'SELECT') { if (child.selectedOptions[0]) out.push(child.selectedOptions[0].textContent); continue; }
      walk(child);
    }
  };
  walk(document.body);
  out.push(document.title);
  return out.join('\\n');
}"""

# One tap at a time inside the page: the call, then lift a playable card and play it.
TAP = tap_script("if (document.querySelector('#game-over-actions')) return 'over';")


def check_page(page: Any, lang: str, where: str, numbers: bool = True) -> str:
    """The page's words in ``lang``: for a translated page no run of three Latin letters (but
    the allowed ones) and, for a language with digits of its own, no 0-9 (and, on a page that
    shows ``numbers``, some in its digits)."""
    text = str(page.evaluate(READ))
    assert page.evaluate("() => document.documentElement.lang") == lang
    if lang == "en":
        return text
    bare = CODES.sub(" ", text)
    english = sorted({w for w in re.findall(r"[A-Za-z]{3,}", bare) if w not in LATIN_ALLOWED})
    assert not english, f"{where} in {lang} shows English: {english}\n{text}"
    digits = LANGUAGES[lang][1]
    if digits == "0-9":
        assert not re.search(r"[०-९০-৯]", bare), f"{where} in {lang}: digits not 0-9\n{text}"
    else:
        assert not re.search(r"[0-9]", bare), f"{where} in {lang} writes 0-9, not {digits}\n{text}"
        assert not numbers or re.search(f"[{digits}]", bare), f"{where} in {lang} shows no number in {digits}\n{text}"
    return text


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_a_whole_game_on_a_phone_reads_in_the_browsers_language(browser: Any, base_url: str, lang: str) -> None:
    context = browser.new_context(locale={"en": "en-US", "ne": "ne-NP", "hi": "hi-IN", "bn": "bn-BD"}[lang], **PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    name = LANGUAGES[lang][0]
    # The lobby: a table with three fast random bots, one deal (the shortest game).
    page.goto(base_url + "/")
    page.wait_for_selector("#create")
    check_page(page, lang, "the lobby")
    page.fill("#name", name)
    page.fill("#deals", "1")
    for i in (1, 2, 3):
        page.select_option(f"#bot-{i}", "random")
    page.select_option("#bot-speed", "0")
    page.click("#create")
    page.wait_for_selector("#start")
    check_page(page, lang, "the table's lobby")
    page.click("#start")
    # The game, tapped through; the table read (and kept as a picture) once cards are down.
    shown = False
    while (done := str(page.evaluate(TAP))) != "over":
        if done == "wait":
            page.wait_for_timeout(30)
        if not shown and page.locator("#trick [data-card]").count() >= 2 and page.locator("#hand .card").count():
            check_page(page, lang, "the table")
            page.wait_for_function("!document.querySelector('.moving')")  # the picture: cards at rest
            shot(page, f"table-{lang}")
            shown = True
    assert shown
    page.wait_for_selector("#scoreboard h2")
    check_page(page, lang, "the final scoreboard")
    page.click("#close-scores")
    check_page(page, lang, "the table at its end")
    # The replay, the history, the leaderboard and the scorekeeper.
    page.click("#end-replay")
    page.wait_for_selector("input[type=range]")
    page.locator("button").nth(1).click()  # a move on: the replay describes an action
    check_page(page, lang, "the replay")
    for link, ready in (("/history", "#history"), ("/stats", "#leaderboard"), ("/scorekeeper", "#sheet-create")):
        page.click("#menu-toggle")  # on a phone the links are behind the Menu button
        page.click(f".topbar a[href='{link}']")
        page.wait_for_selector(ready)
        text = check_page(page, lang, link, numbers=link != "/scorekeeper")
        if link != "/scorekeeper":
            assert name in text
    page.click("#sheet-create")
    page.wait_for_selector("#deal-form")
    check_page(page, lang, "a score sheet")
    assert not errors, errors
    context.close()


def test_a_language_chosen_in_the_menu_is_remembered(browser: Any, base_url: str) -> None:
    context = browser.new_context(locale="en-US", **PHONE)
    page = context.new_page()
    page.goto(base_url + "/stats")
    page.wait_for_selector("#language")
    assert page.evaluate("() => document.documentElement.lang") == "en"
    menu = page.locator("#language option")
    assert menu.all_inner_texts() == ["English", "नेपाली", "हिन्दी", "বাংলা"]  # each by its own name
    with page.expect_navigation():
        page.select_option("#language", "bn")
    page.wait_for_selector("#language")  # the top bar drawn in the new language
    assert page.locator("#menu-toggle").inner_text() == "মেনু"
    assert page.locator(".topbar a[href='/stats']").text_content() == "লিডারবোর্ড"  # (behind the menu)
    page.reload()
    page.wait_for_selector("#language")
    assert page.evaluate("() => document.documentElement.lang") == "bn"
    assert page.locator("#language").input_value() == "bn"
    # The server speaks it too: the cookie the menu set.
    answer = page.evaluate("() => fetch('/api/tables/ZZZZZZZZZZZZ').then((r) => r.json())")
    assert answer["error"] == "no_table" and not re.search(r"[A-Za-z]{3,}", answer["message"]), answer
    # What the rules say at a table (a view's notice_words, a hand's words) in the page's language:
    # a list of seats said seat by seat, in its digits; a note without words stays as sent.
    said = page.evaluate("""() => import('/static/i18n.js').then((m) => [
      m.said({template: 'donuts: {seats}', params: {seats: [2, 4]}}, 'donuts: seat 1, seat 3'),
      m.said(null, 'as sent')])""")
    assert said == ["ডোনাট (একটিও পিঠ পায়নি): আসন ২, আসন ৪", "as sent"]
    context.close()
