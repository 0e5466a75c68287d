"""The arena, the web tables and the terminal make a player from a spec in one place
(:func:`callbreak.protocol.players.make_player`), so they agree on what a URL is, on which games a
URL bot plays, and on the player a spec makes."""

from __future__ import annotations

from typing import Any

import pytest

from callbreak.arena import players as arena
from callbreak.bots import BotError
from callbreak.cli.tui import session as terminal
from callbreak.core import CallbreakError
from callbreak.protocol import RemoteBot
from callbreak.protocol import players as shared
from callbreak.server import players as server

SPECS = ["http://127.0.0.1:7000", " HTTP://x", "Https://bots.example/mine/", "https://h:1 ",
         "heuristic", " heuristic", "expert:budget=0.1", "httpx", "http:/x", "ftp://x", "", "  "]

BUILDERS = {
    "arena": lambda spec, game: arena.build_player(spec, seed=1, game=game),
    "server": lambda spec, game: server.build(spec, 1, game=game),
    "terminal": lambda spec, game: terminal.make_opponent(spec, 1, game=game),
}


@pytest.mark.parametrize("spec", SPECS)
def test_the_three_read_a_url_alike(spec: str) -> None:
    expected = shared.is_url(spec)
    assert arena.is_url(spec) is expected
    assert server.is_url(spec) is expected
    assert terminal._is_url(spec) is expected
    assert shared.is_url(" HTTP://x") and not shared.is_url("httpx")


def _outcome(build: Any, spec: str, game: str) -> tuple[str, str]:
    try:
        player = build(spec, game)
    except CallbreakError as e:
        return "error", type(e).__name__ if not isinstance(e, BotError) else "BotError"
    if isinstance(player, RemoteBot):
        return "remote", player.url
    return "bot", str(player.name)


@pytest.mark.parametrize("game", ["callbreak", "donut"])
@pytest.mark.parametrize("spec", SPECS)
def test_the_three_make_the_same_player(spec: str, game: str) -> None:
    outcomes = {where: _outcome(build, spec, game) for where, build in BUILDERS.items()}
    assert len(set(outcomes.values())) == 1, outcomes
    kind, detail = outcomes["arena"]
    if shared.is_url(spec):
        assert (kind, detail) == (("remote", spec.strip().lower().rstrip("/")) if game == "callbreak"
                                  else ("error", "BotError"))


def test_a_url_is_checked_for_the_game_alike() -> None:
    with pytest.raises(BotError, match="plays Call Break only"):
        arena.check_player(" HTTP://127.0.0.1:9", game="donut")
    with pytest.raises(server.PlayerError, match="plays Call Break only"):
        server.check_spec(" HTTP://127.0.0.1:9", game="donut")
    assert server.check_spec(" HTTP://127.0.0.1:9 ") == "HTTP://127.0.0.1:9"
