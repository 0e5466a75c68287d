"""The words the lobby shows that the layers below define: rule presets' and games' titles and
descriptions, and what each bot is.

They are written once, where they belong (``core.rules``, the games, the bots' registry); the
"server" catalog takes them through :func:`extract`, a Babel extraction method that
``callbreak.i18n.DOMAINS`` names, and ``/api/meta`` sends them translated.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from callbreak.bots.base import catalog
from callbreak.core.rules import PRESETS
from callbreak.games import games


def lobby_words() -> list[str]:
    """Every title and description the lobby may show, once each."""
    words = [text for p in PRESETS.values() for text in (p.title, p.description)]
    for g in games():
        words += [g.title, g.description]
        words += [text for p in g.presets for text in (p.title, p.description)]
        # (the project's own bots: one a test or a plugin registers says its own words)
        words += [e.description for e in catalog(g.name)
                  if getattr(e.factory, "__module__", "").startswith("callbreak.")]
    return list(dict.fromkeys(w for w in words if w))


def extract(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extraction method for the lobby's words (whatever the file: it names this one)."""
    for word in lobby_words():
        yield 1, None, word, []
