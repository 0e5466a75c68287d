"""Test plumbing for `callbreak play` in a real terminal: a tmux session to read the screen of and
send keys and mouse clicks to, and a bare pseudo-terminal for a game that is killed mid-deal."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import select
import shlex
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

CALLBREAK = [sys.executable, "-c", "from callbreak.cli.main import main; main()"]


# --- tmux: read the screen, press keys, click ---------------------------------------------------


class TmuxGame:
    """A `callbreak play` running in a tmux window of 80x24, on a tmux server of its own."""

    def __init__(self, socket: str) -> None:
        self.socket = socket  # our own tmux server, never anyone else's

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True, capture_output=True,
                              text=True, timeout=10).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "play")

    def press(self, key: str) -> None:
        self.tmux("send-keys", "-t", "play", key)

    def click(self, column: int, row: int) -> None:
        """A left click on a 0-based cell, sent as the SGR mouse reports a terminal sends (from 1)."""
        for end in ("M", "m"):  # press, release
            self.tmux("send-keys", "-t", "play", "-l", f"\x1b[<0;{column + 1};{row + 1}{end}")

    def wait_for(self, ready: Callable[[str], bool], what: str, limit: float = 20.0) -> str:
        """The first screen ``ready`` accepts; fails naming ``what`` if none comes within ``limit`` s."""
        while True:
            text = self.screen()
            if ready(text):
                return text
            time.sleep(0.2)
        raise AssertionError(f"never saw {what}; the screen was:\n{self.screen()}")


@contextlib.contextmanager
def play_in_tmux(data_dir: Path, seed: int, label: str) -> Iterator[TmuxGame]:
    """`callbreak play --fast` against random bots (data in ``data_dir``); the tmux server is
    killed at the end, whatever happened."""
    game = TmuxGame(f"callbreak-{label}-{os.getpid()}")
    command = " ".join(shlex.quote(a) for a in (
        "env", f"CALLBREAK_DATA_DIR={data_dir}", "TERM=xterm-256color", *CALLBREAK,
        "play", "--fast", "--seed", str(seed), "--opponents", "random", "--think", "0.05"))
    game.tmux("new-session", "-d", "-s", "play", "-x", "80", "-y", "24", command)
    try:
        yield game
    finally:
        subprocess.run(["tmux", "-L", game.socket, "kill-server"], capture_output=True, timeout=10)


# --- a pseudo-terminal: play by Enter, kill -9, resume ---------------------------------------------


def terminal_env(data_dir: Path) -> dict[str, str]:
    return dict(os.environ, CALLBREAK_DATA_DIR=str(data_dir), TERM="xterm-256color",
                COLUMNS="80", LINES="24")


def start_in_a_terminal(args: list[str], env: dict[str, str]) -> tuple[subprocess.Popen[bytes], int]:
    """Run the command on a pseudo-terminal of 80x24, as a person's terminal would."""
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen(args, stdin=terminal, stdout=terminal, stderr=terminal, env=env,
                            start_new_session=True)
    os.close(terminal)
    return proc, controller


def read_output(fd: int) -> bytes:
    """Everything the program has written to the terminal so far; reading it also keeps the program
    from blocking on a full terminal buffer."""
    shown = b""
    while select.select([fd], [], [], 0)[0]:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            break
        shown += chunk
    return shown


def plays_in_current_deal(path: Path) -> tuple[int, bool]:
    """(cards played since the last deal, finished) as saved on disk; (0, False) if unreadable."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return 0, False
    plays = 0
    for action in data["actions"]:
        plays = 0 if action["type"] == "deal" else plays + (action["type"] == "play")
    return plays, bool(data["result"]["finished"])


def kill_9_mid_deal(args: list[str], env: dict[str, str], games: Path, plays: int) -> int:
    """Run `callbreak play` (``args``) in a terminal, pressing Enter (call, play the selected card)
    until the saved game in ``games`` has ``plays`` cards played in its deal, never having finished,
    then kill it with SIGKILL. Returns the process's exit status."""
    proc, fd = start_in_a_terminal(args, env)
    try:
        while True:
            read_output(fd)
            saved = sorted(games.glob("*.json")) if games.is_dir() else []
            if saved:
                so_far, finished = plays_in_current_deal(saved[0])
                assert not finished
                if so_far >= plays:
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
    return proc.returncode
