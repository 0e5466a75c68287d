"""Test plumbing for `callbreak play` driven in-process through Textual's pilot."""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot


async def until(pilot: Pilot[None], ready: Callable[[], bool]) -> None:
    """Let the app run until ``ready()`` (bots move in worker threads, so poll). No deadline of its
    own: a busy machine only slows the bots down, and a hang is the per-test timeout's."""
    while not ready():
        await pilot.pause(0.01)
