"""`callbreak play --opponents URL`: a tournament-protocol bot served over HTTP takes a seat."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from typer.testing import CliRunner

from callbreak.cli.main import app as cli
from callbreak.cli.tui.app import PlayApp
from callbreak.cli.tui.session import Session
from callbreak.record import loads

uvicorn = pytest.importorskip("uvicorn")


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CALLBREAK_DATA_DIR", str(tmp_path))
    return tmp_path


@pytest.fixture
def no_screen(monkeypatch: pytest.MonkeyPatch) -> list[PlayApp]:
    """`callbreak play` through the CLI runner records the app it would open instead of running it."""
    opened: list[PlayApp] = []
    monkeypatch.setattr(PlayApp, "run", lambda self: opened.append(self))
    return opened


@pytest.fixture
def bot_url() -> Iterator[str]:
    """Our heuristic bot behind the tournament protocol, on a loopback port the OS picked."""
    from callbreak.protocol import wait_until_ready
    from callbreak.protocol.server import create_app

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    server = uvicorn.Server(uvicorn.Config(create_app("heuristic"), log_level="error"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        wait_until_ready(url, timeout=10)
        yield url
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow
def test_a_whole_match_against_a_remote_bot_by_key_presses(bot_url: str) -> None:
    session = Session.new(preset="bhoos-tournament", opponents=["random", bot_url, "random"],
                          seed=17)
    app = PlayApp(session, delay=0.0, think=0.05)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await _enter_until_over(app, pilot)

    asyncio.run(main())
    assert session.is_over and len(session.game.results) == 5
    assert session.opponents[2] == bot_url
    assert "North · Seat 3 · 127.0.0.1:" in session.names()[2]
    assert not [line for line in app.log_lines if "playing the default" in line]
    remote_moves = [a for a in session.game.history if getattr(a, "seat", None) == 2
                    and a.kind in ("call", "play")]
    assert len(remote_moves) == 5 * 14  # a call and 13 cards a deal, all answered by the bot
    assert session.save_path is not None
    assert loads(session.save_path.read_text()).meta["opponents"]["2"] == bot_url


async def _enter_until_over(app: PlayApp, pilot: Pilot[None]) -> None:
    """Enter whenever the app waits for us, until the match ends; no count of its own: the match
    takes 30 s of 10 ms pauses on a quiet machine (5000 of them, about a minute, would run out on
    a machine half as fast), and a hang is the per-test timeout's."""
    while app.is_running:
        if app.mode in ("act", "continue", "stop", "over"):
            await pilot.press("enter")
        await pilot.pause(0.01)


def test_a_url_where_no_bot_answers_is_refused_before_the_match(data_dir: Path,
                                                                no_screen: list[PlayApp]) -> None:
    url = f"http://127.0.0.1:{_closed_port()}"
    result = CliRunner().invoke(cli, ["play", "--preset", "bhoos-tournament", "--opponents",
                                      f"heuristic,{url},random"])
    assert result.exit_code == 2
    assert f"no tournament bot answers at {url}" in result.output
    assert "callbreak bot-server" in result.output
    assert not list(data_dir.rglob("*.json"))  # nothing was saved: there is no match to resume
    assert not no_screen


def test_resume_refuses_while_the_remote_bot_is_away_and_keeps_the_save(
        no_screen: list[PlayApp]) -> None:
    url = f"http://127.0.0.1:{_closed_port()}"
    session = Session.new(preset="bhoos-tournament", opponents=[url], seed=3,
                          reach_timeout=None)
    while session.turn.value == "chance":
        session.apply(session.chance_action())
    assert session.save_path is not None
    before = session.save_path.read_bytes()
    result = CliRunner().invoke(cli, ["play", "--resume"])
    assert result.exit_code == 2 and f"no tournament bot answers at {url}" in result.output
    assert session.save_path.read_bytes() == before and not no_screen


def test_play_against_a_live_remote_bot_through_the_cli(bot_url: str,
                                                         no_screen: list[PlayApp]) -> None:
    result = CliRunner().invoke(cli, ["play", "--preset", "bhoos-tournament", "--fast",
                                      "--opponents", f"{bot_url},heuristic,beginner"])
    assert result.exit_code == 0, result.output
    (opened,) = no_screen
    assert opened.session.opponents == {1: bot_url, 2: "heuristic", 3: "beginner"}
