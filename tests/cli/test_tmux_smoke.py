"""`callbreak play` in a real terminal (tmux): the first screen renders and a card can be played,
by key presses and by mouse clicks."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


def test_first_screen_renders_and_a_card_can_be_played(tmp_path: Path) -> None:
    socket = f"callbreak-test-{os.getpid()}"  # our own tmux server, never anyone else's

    def tmux(*args: str) -> str:
        return subprocess.run(["tmux", "-L", socket, *args], check=True, capture_output=True,
                              text=True, timeout=10).stdout

    def screen() -> str:
        return tmux("capture-pane", "-p", "-t", "play")

    def wait_for(ready: Callable[[str], bool], what: str, limit: float = 20.0) -> str:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            text = screen()
            if ready(text):
                return text
            time.sleep(0.2)
        raise AssertionError(f"never saw {what}; the screen was:\n{screen()}")

    command = " ".join(shlex.quote(a) for a in (
        "env", f"CALLBREAK_DATA_DIR={tmp_path}", "TERM=xterm-256color", sys.executable, "-c",
        "from callbreak.cli.main import main; main()",
        "play", "--fast", "--seed", "1", "--opponents", "random", "--think", "0.05"))
    tmux("new-session", "-d", "-s", "play", "-x", "80", "-y", "24", command)
    try:
        first = wait_for(lambda s: "Your call" in s, "the call prompt")
        hand_lines = [line for line in first.splitlines() if line.lstrip().startswith("♠")
                      or line.lstrip().startswith(("♥", "♣", "♦"))]
        assert hand_lines, first  # the hand, grouped by suit, is on screen
        assert "You" in first and "North" in first and "East" in first and "West" in first
        assert "Deal 1 of 5" in first

        assert _cards_in_hand(first) == 13
        tmux("send-keys", "-t", "play", "Enter")  # take the suggested call
        wait_for(lambda s: "Your turn" in s, "the play prompt")
        tmux("send-keys", "-t", "play", "Enter")  # play the selected (legal) card
        after = wait_for(lambda s: _cards_in_hand(s) == 12, "the hand one card shorter")
        assert "Not allowed" not in after

        saved = next((tmp_path / "games").glob("*.json"))
        actions = json.loads(saved.read_text())["actions"]
        assert any(a["type"] == "play" and a["seat"] == 0 for a in actions)
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True, timeout=10)


def _cards_in_hand(screen: str) -> int:
    """The highest card number shown over the hand (cards are numbered 1..n)."""
    lines = screen.splitlines()
    for i, line in enumerate(lines):
        if line.lstrip().startswith(("♠", "♥", "♣", "♦")) and i > 0:
            numbers = [int(t) for t in lines[i - 1].split() if t.isdigit()]
            return max(numbers, default=0)
    return 0


def test_mouse_clicks_in_a_real_terminal_make_the_call_and_play_a_card(tmp_path: Path) -> None:
    """tmux forwards SGR mouse reports (as a terminal with a mouse sends them) to the game."""
    socket = f"callbreak-mouse-{os.getpid()}"

    def tmux(*args: str) -> str:
        return subprocess.run(["tmux", "-L", socket, *args], check=True, capture_output=True,
                              text=True, timeout=10).stdout

    def screen() -> str:
        return tmux("capture-pane", "-p", "-t", "play")

    def wait_for(ready: Callable[[str], bool], what: str, limit: float = 20.0) -> str:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            text = screen()
            if ready(text):
                return text
            time.sleep(0.2)
        raise AssertionError(f"never saw {what}; the screen was:\n{screen()}")

    def click(column: int, row: int) -> None:  # 0-based cell; SGR reports count from 1
        for end in ("M", "m"):  # press, release
            tmux("send-keys", "-t", "play", "-l", f"\x1b[<0;{column + 1};{row + 1}{end}")

    command = " ".join(shlex.quote(a) for a in (
        "env", f"CALLBREAK_DATA_DIR={tmp_path}", "TERM=xterm-256color", sys.executable, "-c",
        "from callbreak.cli.main import main; main()",
        "play", "--fast", "--seed", "2", "--opponents", "random", "--think", "0.05"))
    tmux("new-session", "-d", "-s", "play", "-x", "80", "-y", "24", command)
    try:
        first = wait_for(lambda s: "Your call" in s, "the call prompt")
        lines = first.splitlines()
        picker = next(i for i, line in enumerate(lines) if "Your call" in line) + 1
        click(lines[picker].index(" 5 ") + 1, picker)  # the call 5
        wait_for(lambda s: "You call 5" in s, "the call made by a click")
        playing = wait_for(lambda s: "Your turn" in s, "the play prompt")
        saved = next((tmp_path / "games").glob("*.json"))
        assert _human_plays(saved) == 0
        rows = playing.splitlines()
        faces = next(i for i, line in enumerate(rows) if line.lstrip().startswith(("♠", "♥", "♣", "♦")))
        numbers = rows[faces - 1]
        for n in range(1, _cards_in_hand(playing) + 1):  # click every card: only a legal one plays
            column = numbers.index(f"{n:>2} ") + 1 if n > 9 else numbers.index(f" {n} ") + 1
            click(column, faces)
            time.sleep(0.3)
            if _human_plays(saved) == 1:
                break
        wait_for(lambda s: _cards_in_hand(s) == 12, "the hand one card shorter")
        assert _human_plays(saved) == 1
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True, timeout=10)


def _human_plays(saved: Path) -> int:
    try:
        actions = json.loads(saved.read_text())["actions"]
    except (OSError, ValueError):
        return -1
    return sum(1 for a in actions if a["type"] == "play" and a["seat"] == 0)
