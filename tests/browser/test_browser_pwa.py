"""The installable web app in a real browser: the manifest is linked and valid and its icons are
the sizes it says; the service worker takes control of the page, keeps the page's shell (and
drops an older release's) and never a table's data; and offline, a page asks for shows the offline page, which reloads into
the game once the network is back."""

from __future__ import annotations

import io
import re
from typing import Any
from urllib.parse import urljoin

import httpx
import pytest
from browser_helpers import base_url_fixture, browser_fixture, shot  # noqa: F401 (fixtures)
from PIL import Image

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
COLOUR = re.compile(r"^#[0-9a-f]{6}$", re.IGNORECASE)
CACHED = """async () => {
  const names = await caches.keys();
  const urls = [];
  for (const name of names) {
    for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
  }
  return { names, urls };
}"""


def test_the_manifest_is_linked_and_valid_and_its_icons_are_the_sizes_it_says(base_url: str) -> None:
    page = httpx.get(f"{base_url}/", timeout=10).text
    link = re.search(r'<link rel="manifest" href="([^"]+)"', page)
    assert link, "index.html does not link a manifest"
    r = httpx.get(urljoin(base_url, link.group(1)), timeout=10)
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/manifest+json")
    manifest = r.json()
    assert manifest["name"] == "Call Break" and manifest["short_name"]
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert COLOUR.match(manifest["theme_color"]) and COLOUR.match(manifest["background_color"])
    purposes: dict[str, set[str]] = {}
    for icon in manifest["icons"]:
        got = httpx.get(urljoin(base_url, icon["src"]), timeout=10)
        assert got.status_code == 200 and got.headers["content-type"] == icon["type"] == "image/png", icon
        with Image.open(io.BytesIO(got.content)) as image:
            assert image.format == "PNG" and "{}x{}".format(*image.size) == icon["sizes"], icon
        purposes.setdefault(icon.get("purpose", "any"), set()).add(icon["sizes"])
    assert {"192x192", "512x512"} <= purposes["any"] and purposes["maskable"]
    worker = httpx.get(f"{base_url}/sw.js", timeout=10)
    assert worker.status_code == 200 and "javascript" in worker.headers["content-type"]


def test_the_worker_controls_the_page_keeps_the_shell_not_the_game_and_shows_the_offline_page(
        browser: Any, base_url: str) -> None:
    made = httpx.post(f"{base_url}/api/tables", json={"name": "Ann", "settings": {
        "preset": "callbreak", "deals": 1, "bots": "random", "bot_delay": 0}}, timeout=10).json()
    code, token = made["code"], made["token"]
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # An older release's shell, left in the cache before this release's worker is installed (the
    # offline page registers no worker).
    page.goto(f"{base_url}/static/offline.html")
    page.evaluate("() => caches.open('callbreak-shell-0ld').then((c) => c.put('/static/app.js', new Response('old')))")
    page.goto(f"{base_url}/")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"callbreak:token:{code}", token])
    page.evaluate("() => navigator.serviceWorker.ready")
    page.goto(f"{base_url}/t/{code}")  # a new load: the worker answers its requests from the start
    assert page.evaluate("() => navigator.serviceWorker.controller && navigator.serviceWorker.controller.scriptURL") \
        == f"{base_url}/sw.js"
    page.click("#start")
    page.wait_for_selector("button.call")  # the table's state came by the websocket, through the page
    page.evaluate("() => Promise.all([fetch('/api/meta'), fetch('/api/history'), fetch('/metrics')])")
    cached = page.evaluate(CACHED)
    # One cache, this release's: the older one went when this worker took over.
    assert len(cached["names"]) == 1 and cached["names"][0].startswith("callbreak-shell-"), cached["names"]
    assert cached["names"][0] != "callbreak-shell-0ld"
    shell = {"/", "/static/app.js", "/static/cards.js", "/static/style.css", "/static/motion.js", "/static/sound.js",
             "/static/offline.html", "/manifest.webmanifest", "/static/icons/icon-192.png", "/static/icons/icon-512.png"}
    assert shell <= set(cached["urls"]), shell - set(cached["urls"])
    game_data = [u for u in cached["urls"] if u.startswith(("/api/", "/ws/", "/metrics", "/t/", "/history"))]
    assert not game_data, game_data
    # The installed app at a phone's size, as it looks with no browser bar (Playwright cannot
    # emulate the display-mode media feature, so this is the page at the window's full size).
    shot(page, "pwa-standalone-phone")

    context.set_offline(True)
    page.goto(f"{base_url}/t/{code}")
    page.wait_for_selector("#offline")
    text = page.locator("#offline").inner_text()
    assert "You are offline" in text and "kept on the server" in text and "reload" in text.lower()
    shot(page, "pwa-offline-phone")
    # The offline page cannot fetch a catalog: it carries its words, in the player's language.
    page.evaluate("localStorage.setItem('callbreak:lang', 'bn')")
    page.goto(f"{base_url}/t/{code}")
    page.wait_for_selector("#offline [lang=bn]:not([hidden])")
    assert "আপনি অফলাইনে আছেন" in page.locator("#offline").inner_text()
    assert "You are offline" not in page.locator("#offline").inner_text()
    page.evaluate("localStorage.removeItem('callbreak:lang')")
    context.set_offline(False)
    page.click("#offline .reload >> visible=true")
    page.wait_for_selector("#hand .card")  # back at the table, in the game the server kept
    assert page.url == f"{base_url}/t/{code}"
    assert not errors, errors
    context.close()
