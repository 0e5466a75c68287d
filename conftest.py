"""The Python examples of README.md and the documentation (docs/*.md) run as tests (Sybil):
an example that no longer works fails the suite."""

from __future__ import annotations

from typing import Any

from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser


def _keep_registries(namespace: dict[str, Any]) -> None:
    """An example may register a bot or a game: the registries are one per process, so they are
    put back as they were after the document's examples (else every later test in the worker
    would list the example's bot or game)."""
    from callbreak.bots import base
    from callbreak.games import registry

    namespace["__registries__"] = ({k: list(v) for k, v in base._REGISTRY.items()},
                                   dict(registry._GAMES), dict(registry._ALIASES))


def _restore_registries(namespace: dict[str, Any]) -> None:
    from callbreak.bots import base
    from callbreak.games import registry

    bots, games, aliases = namespace["__registries__"]
    base._REGISTRY.clear()
    base._REGISTRY.update(bots)
    for kept, now in ((games, registry._GAMES), (aliases, registry._ALIASES)):
        now.clear()
        now.update(kept)


pytest_collect_file = Sybil(
    parsers=[PythonCodeBlockParser()],
    patterns=["README.md", "docs/*.md"],
    setup=_keep_registries,
    teardown=_restore_registries,
).pytest()
