"""`callbreak play` killed with SIGKILL in the middle of a deal loses nothing: --resume finishes it."""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from textual.pilot import Pilot

from callbreak.cli.tui.app import PlayApp
from callbreak.cli.tui.saves import latest_unfinished
from callbreak.cli.tui.session import Session
from callbreak.record import loads

CALLBREAK = [sys.executable, "-c", "from callbreak.cli.main import main; main()"]


def _plays_in_current_deal(path: Path) -> tuple[int, bool]:
    """(cards played since the last deal, finished) as saved on disk; (0, False) if unreadable."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return 0, False
    plays = 0
    for action in data["actions"]:
        plays = 0 if action["type"] == "deal" else plays + (action["type"] == "play")
    return plays, bool(data["result"]["finished"])


def _start_in_a_terminal(args: list[str], env: dict[str, str]) -> tuple[subprocess.Popen[bytes], int]:
    """Run the command on a pseudo-terminal of 80x24, as a person's terminal would."""
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen(args, stdin=terminal, stdout=terminal, stderr=terminal, env=env,
                            start_new_session=True)
    os.close(terminal)
    return proc, controller


def _drain(fd: int) -> None:
    # Keep reading the screen output so the program never blocks on a full terminal buffer.
    while select.select([fd], [], [], 0)[0]:
        try:
            if not os.read(fd, 65536):
                return
        except OSError:
            return


def test_resume_after_kill_9_mid_deal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = dict(os.environ, CALLBREAK_DATA_DIR=str(tmp_path), TERM="xterm-256color",
               COLUMNS="80", LINES="24")
    proc, fd = _start_in_a_terminal(
        [*CALLBREAK, "play", "--fast", "--seed", "5", "--opponents", "random",
         "--option", "deals=2", "--think", "0.02"], env)
    games = tmp_path / "games"
    try:
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:
            _drain(fd)
            saved = sorted(games.glob("*.json")) if games.is_dir() else []
            if saved:
                plays, finished = _plays_in_current_deal(saved[0])
                assert not finished
                if plays >= 18:  # well into the first deal: trick 5 under way
                    break
            os.write(fd, b"\r")  # Enter: make the call or play the selected card
            time.sleep(0.15)
        else:
            pytest.fail("the game never got into the deal")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(fd)
    assert proc.returncode == -signal.SIGKILL

    monkeypatch.setenv("CALLBREAK_DATA_DIR", str(tmp_path))
    path = latest_unfinished()
    assert path is not None
    at_kill = loads(path.read_text())  # a whole, valid record despite the kill
    plays, _ = _plays_in_current_deal(path)
    assert 18 <= plays < 52

    session = Session.resume(path)
    assert session.match.history == list(at_kill.actions)
    assert session.opponents == {1: "random", 2: "random", 3: "random"} and session.seed == 5
    app = PlayApp(session, delay=0.0, think=0.02)

    async def finish(pilot: Pilot[None]) -> None:
        for _ in range(2000):
            if not app.is_running:
                return
            if app.mode in ("act", "continue", "stop", "over"):
                await pilot.press("enter")
            await pilot.pause(0.01)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await finish(pilot)

    asyncio.run(main())
    assert session.match.is_over and len(session.match.results) == 2
    final = loads(path.read_text())
    assert list(final.actions[:len(at_kill.actions)]) == list(at_kill.actions)
    assert latest_unfinished() is None


def test_callbreak_play_resume_in_a_terminal_finishes_the_killed_match(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole path a person takes: play, the process is killed mid-deal, `callbreak play
    --resume` in a new terminal carries on from the same position and plays to the end."""
    env = dict(os.environ, CALLBREAK_DATA_DIR=str(tmp_path), TERM="xterm-256color",
               COLUMNS="80", LINES="24")
    games = tmp_path / "games"
    proc, fd = _start_in_a_terminal(
        [*CALLBREAK, "play", "--fast", "--seed", "6", "--opponents", "random",
         "--option", "deals=1", "--think", "0.02"], env)
    try:
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:
            _drain(fd)
            saved = sorted(games.glob("*.json")) if games.is_dir() else []
            if saved and _plays_in_current_deal(saved[0])[0] >= 10:
                break
            os.write(fd, b"\r")
            time.sleep(0.15)
        else:
            pytest.fail("the game never got into the deal")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(fd)
    (path,) = games.glob("*.json")
    at_kill = loads(path.read_text())

    proc, fd = _start_in_a_terminal([*CALLBREAK, "play", "--resume", "--fast", "--think", "0.02"],
                                    env)
    shown = b""
    try:
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            while select.select([fd], [], [], 0)[0]:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    break
                shown += chunk
            os.write(fd, b"\r")  # call, play, and at the end quit
            time.sleep(0.1)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            pytest.fail("the resumed match did not finish")
        os.close(fd)
    assert proc.returncode == 0
    assert b"Resuming " + path.name.encode() in shown
    assert b"Resumed the saved match at deal 1" in shown
    final = loads(path.read_text())
    assert json.loads(path.read_text())["result"]["finished"]
    assert list(final.actions[:len(at_kill.actions)]) == list(at_kill.actions)
    monkeypatch.setenv("CALLBREAK_DATA_DIR", str(tmp_path))
    assert latest_unfinished() is None
