"""Fixtures for every test under tests/."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from callbreak.games import registry

# --doctest-modules (pyproject) would also import every conftest.py under tests/ as a module named
# "conftest", and pytest 9 refuses the second one while the first is in sys.modules ("import file
# mismatch"). They hold fixtures, not doctests; pytest still loads them as conftests.
collect_ignore_glob = ["*conftest.py"]


@pytest.fixture(autouse=True)
def _game_registry_left_as_found() -> Iterator[None]:
    """A test that registers a game takes it away again (tests/toy_whist.py: ``registered()``).

    The registry is one per process, and many tests ask it for "every registered game", some at
    collection (their parameters) and some as they run: a game one test leaves behind would change
    what later tests in the same worker play, by the order the tests happened to run in. The
    registry is put back as it was, and the test that changed it fails, naming what it left."""
    games, aliases = dict(registry._GAMES), dict(registry._ALIASES)
    yield
    left = (set(registry._GAMES) ^ set(games)) | (set(registry._ALIASES) ^ set(aliases))
    registry._GAMES.clear()
    registry._GAMES.update(games)
    registry._ALIASES.clear()
    registry._ALIASES.update(aliases)
    assert not left, f"the test left the game registry changed: {sorted(left)}"
