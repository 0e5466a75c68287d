"""Browser test plumbing: ``callbreak serve`` on a temporary SQLite file, and Debian's chromium.

Playwright's own browser download does not work here, so the tests drive the system chromium
(``CALLBREAK_CHROMIUM`` or /usr/bin/chromium) and skip when it is absent.
"""

from __future__ import annotations

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


# How long a server may take to be ready to play. A new server makes the bots' kernel ready in a
# child process at a lower priority (callbreak.server.warmup), and until then a Call Break table
# (random bots included) waits for it, creating one too. On an idle machine that is a second or
# two; on a shared one busy with other work the low-priority child waited 40 s for a core, and the
# tests' first requests (10 s) timed out. The tests here are about play, not the cold start
# (tests/server/test_server_loop.py is): they begin once the server says it is ready.
READY_WITHIN = 180.0


def wait_until_ready(url: str, proc: subprocess.Popen[str]) -> None:
    """Until ``/readyz`` answers 200 (the kernel ready, the database answering)."""
    deadline = time.monotonic() + READY_WITHIN
    while True:
        try:
            got = httpx.get(f"{url}/readyz", timeout=5)
            if got.status_code == 200:
                return
            detail = got.text
        except httpx.TransportError as e:
            detail = repr(e)
        assert proc.poll() is None, proc.stdout.read() if proc.stdout else "the server died on start"
        assert time.monotonic() < deadline, f"the server was not ready within {READY_WITHIN:.0f} s: {detail}"
        time.sleep(0.1)


class ServeProcess:
    """``callbreak serve`` on a fixed port and database, which a test may kill and start again."""

    def __init__(self, db: Path) -> None:
        self.db, self.port = db, free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from callbreak.cli.main import main; main()", "serve",
             "--port", str(self.port), "--db", f"sqlite:///{self.db}", "--no-limits"],  # (a test makes many tables)
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
        wait_until_ready(self.url, self.proc)

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


@pytest.fixture(name="base_url", scope="module")
def base_url_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A running ``callbreak serve`` for the module's tests."""
    db = tmp_path_factory.mktemp("browser") / "web.db"
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-c", "from callbreak.cli.main import main; main()", "serve", "--port", str(port),
         "--db", f"sqlite:///{db}", "--no-limits"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(url, proc)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


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
