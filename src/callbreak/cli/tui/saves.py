"""Where terminal games are saved, and how a save is written so that a kill loses nothing.

Every save is a complete game record (:mod:`callbreak.record`). It is rewritten after every
action through a temporary file and :func:`os.replace`, which is atomic on POSIX and Windows: a
process killed at any instant leaves either the previous record or the new one, never half of one.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from callbreak.core.game import Game
from callbreak.record import Record

APP_TAG = "callbreak play"
"""``meta["app"]`` of records written by terminal play (so resume knows how to rebuild them)."""

DATA_DIR_ENV = "CALLBREAK_DATA_DIR"
"""Environment variable that overrides the data directory (used by tests and portable installs)."""


def data_dir() -> Path:
    """The user's callbreak data directory (``CALLBREAK_DATA_DIR`` overrides the platform default)."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("callbreak"))


def games_dir() -> Path:
    """The folder that holds saved terminal games."""
    return data_dir() / "games"


def new_save_path(now: datetime | None = None) -> Path:
    """A fresh, unused file name for a new game, sortable by start time."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    folder = games_dir()
    path = folder / f"game-{stamp}.json"
    n = 2
    while path.exists():
        path = folder / f"game-{stamp}-{n}.json"
        n += 1
    return path


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the new one, never a mix."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        # Leave no stray temporary file behind, whatever stopped us.
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A saved game as listed in the games folder (read cheaply, without replaying it)."""

    path: Path
    modified: float
    finished: bool
    seats: tuple[str, ...]
    deals_played: int
    readable: bool = True
    game: str = "callbreak"  # the registry name of the game (the record's "game" field)


def list_saved(folder: Path | None = None) -> list[SavedGame]:
    """Saved games, most recently changed first. Unreadable files are listed as such, not skipped."""
    folder = folder or games_dir()
    if not folder.is_dir():
        return []
    out: list[SavedGame] = []
    for path in folder.glob("*.json"):
        try:
            modified = path.stat().st_mtime
            data = json.loads(path.read_text(encoding="utf-8"))
            result = data.get("result") or {}
            # Call Break's results list "deals", the other games' "hands".
            out.append(SavedGame(path, modified, bool(result.get("finished")),
                                 tuple(str(s) for s in data.get("seats") or ()),
                                 len(result.get("deals") or result.get("hands") or ()),
                                 game=str(data.get("game") or "callbreak")))
        except (OSError, ValueError, AttributeError, TypeError):
            out.append(SavedGame(path, 0.0, False, (), 0, readable=False))
    out.sort(key=lambda g: (g.modified, g.path.name), reverse=True)
    return out


def latest_unfinished(folder: Path | None = None) -> Path | None:
    """The most recently changed saved game that is not over, if any."""
    for game in list_saved(folder):
        if game.readable and not game.finished:
            return game.path
    return None


def resolve_record_path(name: str | Path) -> Path:
    """A record path as typed, or failing that a file of that name in the saved-games folder."""
    path = Path(name)
    if path.exists():
        return path
    for candidate in (games_dir() / path.name, games_dir() / f"{path.name}.json"):
        if candidate.exists():
            return candidate
    return path


def unfinished_play_seat(record: Record, final: Game) -> int | None:
    """The person's seat if ``record`` is a `callbreak play` save whose game is not over."""
    if record.meta.get("app") != APP_TAG or final.is_over:
        return None
    try:
        seat = int(record.meta.get("human_seat", 0))
    except (TypeError, ValueError):
        return 0
    return seat if 0 <= seat < record.players else 0
