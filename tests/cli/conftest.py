"""Fixtures for the command-line and terminal tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from callbreak.cli.tui import language


@pytest.fixture(autouse=True)
def _terminal_speaks_english(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The terminal's language is a setting of the process, chosen from ``--lang``, the choice
    remembered in the data folder and the locale's variables: every test starts in English
    whatever the machine's locale or its player's remembered choice, and leaves it English."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CALLBREAK_DATA_DIR", str(tmp_path_factory.mktemp("data")))
    language.use("en")
    yield
    language.use("en")
