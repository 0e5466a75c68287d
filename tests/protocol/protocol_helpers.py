"""Helpers for the protocol tests: a real uvicorn server on a free loopback port, positions."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from typing import Any

import uvicorn

from callbreak.core import CHANCE, Dealer, Match, make_rules
from callbreak.protocol import wait_until_ready


class LiveServer:
    """An ASGI app served by uvicorn in a background thread, on a port the OS picked."""

    def __init__(self, app: Any) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="error", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        wait_until_ready(self.url, timeout=10)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


def play_to(seed: int, stop: Callable[[Match], bool]) -> Match:
    """A bhoos-tournament match played with random legal moves until ``stop`` says so."""
    import random

    rng = random.Random(seed)
    match = Match(make_rules("bhoos-tournament"))
    dealer = Dealer(seed)
    while not match.is_over:
        if match.to_act == CHANCE:
            match.apply(dealer.chance(match))
            continue
        if stop(match):
            return match
        match.apply(rng.choice(match.legal_actions()))
    raise AssertionError("the match ended before the wanted position")


def _round_one(me: str, cards: list[str], won: dict[str, int], history: list, played: list) -> dict:
    """A round-1 /play body at a table P0..P3 (P0 deals, P1 leads), every call 3."""
    return {"playerId": me, "playerIds": ["P0", "P1", "P2", "P3"], "cards": cards,
            "timeBudget": 2000, "played": played, "history": history,
            "context": {"round": 1, "players": {p: {"totalPoints": 0, "bid": 3, "won": won.get(p, 0)}
                                                for p in ("P0", "P1", "P2", "P3")}}}


# P2 and P3 fail to follow hearts without trumping in trick 1, so they hold no heart and no
# spade; P1 does the same in trick 2. Every card in each body is where it may be.
NOBODY_HOLDS_THEM = _round_one(
    "P0", ["1S", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S"], {"P0": 2},
    [[1, ["2H", "2C", "3C", "3H"], 0], [0, ["4H", "2D", "4C", "5C"], 0]], [])
# P2 and P3 as above; P1 follows hearts, so the 8 unseen hearts and 4 unseen spades can only be
# P1's, who holds 10 cards (P0, to play to trick 3, holds 11).
TOO_MANY_FOR_ONE_HAND = _round_one(
    "P0", ["1S", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "KD", "QD"], {"P0": 1, "P1": 1},
    [[1, ["2H", "2C", "3C", "3H"], 0], [0, ["4H", "5H", "4C", "5C"], 1]], ["7H", "6C", "7C"])
