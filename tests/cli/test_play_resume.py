"""`callbreak play` killed with SIGKILL in the middle of a deal loses nothing: --resume finishes it."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from pathlib import Path

import pytest
from _terminal import (
    CALLBREAK,
    kill_9_mid_deal,
    plays_in_current_deal,
    read_output,
    start_in_a_terminal,
    terminal_env,
)
from textual.pilot import Pilot

from callbreak.cli.tui.app import PlayApp
from callbreak.cli.tui.saves import latest_unfinished
from callbreak.cli.tui.session import Session
from callbreak.record import loads

pytestmark = pytest.mark.process


def test_resume_after_kill_9_mid_deal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    returncode = kill_9_mid_deal(  # well into the first deal: trick 5 under way
        [*CALLBREAK, "play", "--fast", "--seed", "5", "--opponents", "random",
         "--option", "deals=2", "--think", "0.02"], terminal_env(tmp_path), tmp_path / "games", plays=18)
    assert returncode == -signal.SIGKILL

    monkeypatch.setenv("CALLBREAK_DATA_DIR", str(tmp_path))
    path = latest_unfinished()
    assert path is not None
    at_kill = loads(path.read_text())  # a whole, valid record despite the kill
    plays, _ = plays_in_current_deal(path)
    assert 18 <= plays < 52

    session = Session.resume(path)
    assert session.game.history == list(at_kill.actions)
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
    assert session.game.is_over and len(session.game.results) == 2
    final = loads(path.read_text())
    assert list(final.actions[:len(at_kill.actions)]) == list(at_kill.actions)
    assert latest_unfinished() is None


def test_callbreak_play_resume_in_a_terminal_finishes_the_killed_match(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole path a person takes: play, the process is killed mid-deal, `callbreak play
    --resume` in a new terminal carries on from the same position and plays to the end."""
    env = terminal_env(tmp_path)
    games = tmp_path / "games"
    returncode = kill_9_mid_deal(
        [*CALLBREAK, "play", "--fast", "--seed", "6", "--opponents", "random",
         "--option", "deals=1", "--think", "0.02"], env, games, plays=10)
    assert returncode == -signal.SIGKILL
    (path,) = games.glob("*.json")
    at_kill = loads(path.read_text())

    proc, fd = start_in_a_terminal([*CALLBREAK, "play", "--resume", "--fast", "--think", "0.02"],
                                    env)
    shown = b""
    try:
        while proc.poll() is None:
            shown += read_output(fd)
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
