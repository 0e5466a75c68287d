"""The arena against a bot behind the public tournament protocol, served for real on loopback."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from callbreak.arena import players
from callbreak.cli.main import app


class Served:
    """A bot server running in a thread: its URL, and a way to shut it down early."""

    def __init__(self, url: str, server: object, thread: threading.Thread) -> None:
        self.url, self.server, self.thread = url, server, thread

    def stop(self) -> None:
        self.server.should_exit = True  # type: ignore[attr-defined]
        self.thread.join(timeout=10)


@pytest.fixture
def served() -> Iterator[Served]:
    """A random bot served by the protocol's bot server on a free loopback port."""
    uvicorn = pytest.importorskip("uvicorn")
    server_module = pytest.importorskip("callbreak.protocol.server")
    from callbreak.protocol import wait_until_ready

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    server = uvicorn.Server(uvicorn.Config(server_module.create_app("random"), log_level="error"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    wait_until_ready(url, timeout=10)
    live = Served(url, server, thread)
    yield live
    live.stop()
    sock.close()


def test_a_url_player_plays_a_duplicate_set(served: Served, tmp_path: Path) -> None:
    bot_url = served.url
    out = tmp_path / "r.json"
    result = CliRunner().invoke(app, ["arena", bot_url, "random", "--preset", "bhoos-tournament",
                                      "--matches", "1", "--seed", "3", "--workers", "1", "-q",
                                      "--budget", "60",  # generous: a loaded machine must not turn into timing faults
                                      "--json", str(out)])
    assert result.exit_code == 0, result.output
    remote, local = json.loads(out.read_text())["players"]
    assert remote["name"] == bot_url and remote["faults"] == 0
    assert remote["deals"] == 4 * 5 and remote["mean_move_ms"] > 0


def test_a_remote_bot_that_goes_away_mid_match_is_a_fault(served: Served) -> None:
    from callbreak.arena import play_match
    from callbreak.core import make_rules

    # Generous times: a loaded machine must not turn into timeout faults (a server that is gone
    # refuses at once, an error).
    remote = players.build_player(served.url, timeout=60.0)
    bots = [remote] + [players.build_player("random", seed=s) for s in (1, 2, 3)]
    stopped = threading.Event()

    def stop_after_first_deal(match, seat, action, seconds):  # type: ignore[no-untyped-def]
        if match.results and not stopped.is_set():
            stopped.set()
            served.stop()  # the bot's server goes away; later requests cannot connect

    out = play_match(make_rules("bhoos-tournament"), bots, seed=5, budget=60.0, on_move=stop_after_first_deal)
    assert out.match.is_over and len(out.match.results) == 5
    faults = out.seats[0].faults
    assert faults and {f.kind for f in faults} == {"error"} and min(f.deal for f in faults) >= 2
    assert not any(s.faults for s in out.seats[1:])
