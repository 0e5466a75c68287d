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
