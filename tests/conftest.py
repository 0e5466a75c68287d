"""Fixtures for every test under tests/."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

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


# --- The `process` marker tells the truth -------------------------------------------------------
# A test that starts a real process (a server, a bot, a terminal, chromium) is slower and needs more
# of the machine than one that does not; the quick tier (scripts/test.sh --quick) leaves those out
# by their marker. So the marker is checked, not trusted: an audit hook sees every process start,
# and a test that started one without carrying `process` (or `browser`, which always does) fails,
# naming what it started.
_SPAWN_EVENTS = {"subprocess.Popen", "os.posix_spawn", "os.fork", "os.forkpty", "os.exec", "os.system", "os.spawn"}
_spawned: dict[str, str] = {}
_watching: list[str] = []


def _audit(event: str, args: tuple[object, ...]) -> None:
    # A `git rev-parse` for a run's provenance, or matplotlib's `fc-list` as it first builds its
    # font cache (on a fresh machine), is a query answered at once, not a process the test runs
    # beside it.
    if event == "subprocess.Popen" and args[0] in ("git", "fc-list"):
        return
    if event in _SPAWN_EVENTS and _watching and _watching[-1] not in _spawned:
        _spawned[_watching[-1]] = f"{event} {str(args[:2])[:120]}"


def _spawn_through_multiprocessing() -> None:
    """multiprocessing's "spawn" and "forkserver" start their children below the audited calls."""
    import multiprocessing.util as mp_util

    original = mp_util.spawnv_passfds

    def spawnv_passfds(path: Any, args: Any, passfds: Any) -> int:
        sys.audit("os.posix_spawn", path, args)
        return original(path, args, passfds)

    mp_util.spawnv_passfds = spawnv_passfds  # type: ignore[assignment]


def pytest_configure(config: pytest.Config) -> None:
    sys.addaudithook(_audit)
    _spawn_through_multiprocessing()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[object]:
    _watching.append(item.nodeid)
    try:
        return (yield)
    finally:
        _watching.pop()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    result = yield
    started = _spawned.pop(item.nodeid, None)
    if started and not (item.get_closest_marker("process") or item.get_closest_marker("browser")):
        pytest.fail(
            f"{item.nodeid} started a process ({started}) but is not marked `process`: "
            "add @pytest.mark.process (or pytestmark = pytest.mark.process for its module)",
            pytrace=False,
        )
    return result


# --- The quick tier ------------------------------------------------------------------------------
# `pytest --quick` (what scripts/test.sh --quick runs) leaves out every test carrying one of these
# markers: defined here, once. No test may fail for the clock (a busy machine must not fail one),
# so `slow` is kept truthful by a report instead: a quick-tier test that took longer than
# QUICK_BOUND is named at the end of a quick run, to be made cheaper or marked slow.
OUTSIDE_QUICK = ("slow", "browser", "postgres", "process")
QUICK_BOUND = 5.0  # seconds, setup and teardown included
_took: dict[str, float] = {}
_long_quick: list[tuple[float, str]] = []


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--quick", action="store_true",
                     help=f"the quick tier: leave out the tests marked {', '.join(OUTSIDE_QUICK)}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("quick"):
        return
    left_out = [item for item in items if any(item.get_closest_marker(m) for m in OUTSIDE_QUICK)]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if not any(item.get_closest_marker(m) for m in OUTSIDE_QUICK)]


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """(Under xdist this runs in the controller, with the workers' reports: their keywords hold
    the markers.)"""
    if set(OUTSIDE_QUICK) & set(report.keywords):
        return
    took = _took[report.nodeid] = _took.get(report.nodeid, 0.0) + report.duration
    if report.when == "teardown" and took > QUICK_BOUND:
        _long_quick.append((took, report.nodeid))


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    if _long_quick and config.getoption("quick"):  # (in the whole suite, tests share the machine more)
        terminalreporter.section(f"quick-tier tests over {QUICK_BOUND:.0f} s: make them cheaper, or mark them slow")
        for took, nodeid in sorted(_long_quick, reverse=True):
            terminalreporter.write_line(f"{took:6.1f} s  {nodeid}")
