"""The installable web app: the manifest and the service worker, served from the site's root.

A service worker controls only the pages under the path it is served from, so ``sw.js`` is
served at ``/sw.js`` (not under ``/static/``), and the manifest beside it. The worker keeps the
page's shell (every file under ``static/``) in a cache named by a hash of those files: a release
that changes any of them is a new worker, which replaces the old cache when it takes over.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

WORKER = "sw.js"
MANIFEST = "manifest.webmanifest"
# Files under static/ that the pages ask for by another address.
ADDRESSES = {"index.html": "/", MANIFEST: f"/{MANIFEST}"}
# The lines of sw.js the server fills in (a worker read straight from /static/ keeps them).
SHELL_LINE = "const SHELL = [];"
VERSION_LINE = 'const VERSION = "unversioned";'


def _files(static: Path) -> list[Path]:
    return sorted(p for p in static.rglob("*")
                  if p.is_file() and not any(part.startswith(".") for part in p.relative_to(static).parts))


def shell_urls(static: Path) -> list[str]:
    """The addresses the worker caches: every static file but the worker itself.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     for name in ("index.html", "app.js", "sw.js", "manifest.webmanifest"):
    ...         _ = (Path(d) / name).write_text("x")
    ...     shell_urls(Path(d))
    ['/static/app.js', '/', '/manifest.webmanifest']
    """
    names = [p.relative_to(static).as_posix() for p in _files(static)]
    return [ADDRESSES.get(name, f"/static/{name}") for name in names if name != WORKER]


def shell_version(static: Path) -> str:
    """A short hash of every static file's name and bytes (the worker's too)."""
    digest = hashlib.sha256()
    for path in _files(static):
        digest.update(path.relative_to(static).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def service_worker(static: Path) -> str:
    """``sw.js`` with its shell list and version filled in."""
    text = (static / WORKER).read_text(encoding="utf-8")
    for line in (SHELL_LINE, VERSION_LINE):
        if text.count(line) != 1:
            raise RuntimeError(f"{static / WORKER} must hold the line {line!r} once, for the server to fill in")
    return (text.replace(SHELL_LINE, f"const SHELL = {json.dumps(shell_urls(static))};")
            .replace(VERSION_LINE, f"const VERSION = {json.dumps(shell_version(static))};"))
