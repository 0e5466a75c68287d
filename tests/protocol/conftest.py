"""Fixtures for the protocol tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from protocol_helpers import LiveServer


@pytest.fixture
def serve() -> Iterator[Callable[[Any], LiveServer]]:
    """Start any number of apps for one test; all are stopped when it ends."""
    started: list[LiveServer] = []

    def start(app: Any) -> LiveServer:
        live = LiveServer(app).__enter__()
        started.append(live)
        return live

    yield start
    for live in started:
        live.__exit__()
