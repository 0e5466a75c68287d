"""Browser test plumbing: ``callbreak serve`` on a temporary SQLite file, and Debian's chromium.

Playwright's own browser download does not work here, so the tests drive the system chromium
(``CALLBREAK_CHROMIUM`` or /usr/bin/chromium) and skip when it is absent.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def chromium_path() -> str | None:
    path = os.environ.get("CALLBREAK_CHROMIUM", "/usr/bin/chromium")
    return path if Path(path).exists() else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_answers(url: str, proc: subprocess.Popen[str], path: str = "/readyz") -> None:
    """Until ``path`` answers 200 (``/readyz``: the kernel ready, the database answering), or fail
    at once if the server exits. No deadline of our own: a shared machine may keep the server's
    low-priority kernel child from a core for a long time (40 s was seen), and a server that
    never comes up is what the suite's per-test timeout catches."""
    while True:
        try:
            if httpx.get(f"{url}{path}", timeout=5).status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert proc.poll() is None, proc.stdout.read() if proc.stdout else "the server died on start"
        time.sleep(0.1)


def start_serve(db: Path, *args: str, env: dict[str, str] | None = None, port: int | None = None,
                output: bool = False) -> tuple[subprocess.Popen[str], str]:
    """``callbreak serve`` on ``db`` (SQLite) with ``args``; returns the process and its URL
    (``output``: keep what it prints, for the failure of a server that dies on start)."""
    port = port or free_port()
    out = subprocess.PIPE if output else subprocess.DEVNULL
    proc = subprocess.Popen(
        [sys.executable, "-c", "from callbreak.cli.main import main; main()", "serve",
         "--port", str(port), "--db", f"sqlite:///{db}", *args],
        stdout=out, stderr=subprocess.STDOUT if output else subprocess.DEVNULL, text=True, env=env)
    return proc, f"http://127.0.0.1:{port}"


class ServeProcess:
    """``callbreak serve`` on a fixed port and database, which a test may kill and start again."""

    def __init__(self, db: Path) -> None:
        self.db, self.port = db, free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> None:
        self.proc, _ = start_serve(self.db, "--no-limits", port=self.port)  # (a test makes many tables)
        wait_until_answers(self.url, self.proc)

    def kill(self) -> None:
        """SIGKILL: no goodbye to any socket."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@contextlib.contextmanager
def served(db: Path, *args: str) -> Iterator[str]:
    """A running ``callbreak serve`` on ``db`` with ``args``, stopped at the end; yields its URL."""
    proc, url = start_serve(db, *args, output=True)
    try:
        wait_until_answers(url, proc)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(name="base_url", scope="module")
def base_url_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A running ``callbreak serve`` for the module's tests."""
    with served(tmp_path_factory.mktemp("browser") / "web.db", "--no-limits") as url:
        yield url


@pytest.fixture(name="base_url", scope="module")
def practice_url_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A running ``callbreak serve --practice`` for the module's tests (a module imports it in
    place of base_url_fixture): a table may be seeded, which fixes its deals and its random bots'
    moves, so a test that needs a particular situation meets it every run."""
    with served(tmp_path_factory.mktemp("browser") / "web.db", "--no-limits", "--practice") as url:
        yield url


def seed_tables(page: Any, seed: int) -> None:
    """The tables this page makes from the lobby are seeded with ``seed`` (a practice server takes
    a seed; the lobby's form has none)."""
    def with_seed(route: Any) -> None:
        body = json.loads(route.request.post_data or "{}")
        route.continue_(post_data=json.dumps({**body, "seed": seed}))

    page.route("**/api/tables", with_seed)


@pytest.fixture(name="browser", scope="module")
def browser_fixture() -> Iterator[Any]:
    path = chromium_path()
    if path is None:
        pytest.skip("Debian's chromium is not installed (scripts/services.sh installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def shot(page: Any, name: str) -> None:
    """Keep a screenshot as a test artefact."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


# One tap at a time inside the page, as a phone player does: the call, then lift a playable card
# and play it. Answers 'call', 'play', 'tap' or 'wait'.
_TAP_STEPS = """
  const call = document.querySelector('button.call');
  if (call) { call.click(); return 'call'; }
  const lifted = document.querySelector('#play-lifted');
  if (lifted) { lifted.click(); return 'play'; }
  const card = document.querySelector('#hand .card.legal');
  if (card) { card.click(); return 'tap'; }
  return 'wait';
}"""


def tap_script(*first: str) -> str:
    """The page script of one tap, after the test's own checks (``first``: JavaScript lines
    that return what the test waits for, e.g. 'over')."""
    return "() => {\n" + "\n".join(f"  {line}" for line in first) + _TAP_STEPS
