"""The service worker's shell and version: every static file but the worker, at the address the
page asks for it by; a new version whenever any static file changes (a release's worker then
replaces the old cache); and a worker whose fill-in lines are missing is refused at start."""

from __future__ import annotations

from pathlib import Path

import pytest

from callbreak.server import pwa
from callbreak.server.app import STATIC


def static_dir(tmp_path: Path) -> Path:
    for name in ("index.html", "app.js", "icons/icon-192.png", pwa.MANIFEST):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(name)
    (tmp_path / pwa.WORKER).write_text(f"{pwa.SHELL_LINE}\n{pwa.VERSION_LINE}\n")
    return tmp_path


def test_the_shell_is_every_static_file_but_the_worker(tmp_path: Path) -> None:
    assert sorted(pwa.shell_urls(static_dir(tmp_path))) == [
        "/", "/manifest.webmanifest", "/static/app.js", "/static/icons/icon-192.png"]
    assert "/static/offline.html" in pwa.shell_urls(STATIC)  # the real one holds the offline page


def test_a_change_to_any_static_file_is_a_new_version(tmp_path: Path) -> None:
    static = static_dir(tmp_path)
    first = pwa.service_worker(static)
    assert pwa.shell_version(static) in first and '"/static/app.js"' in first
    (static / "icons" / "icon-192.png").write_text("redrawn")
    second = pwa.service_worker(static)
    assert pwa.shell_version(static) in second and second != first


def test_a_worker_without_its_fill_in_lines_is_refused(tmp_path: Path) -> None:
    static = static_dir(tmp_path)
    (static / pwa.WORKER).write_text(pwa.SHELL_LINE)
    with pytest.raises(RuntimeError, match="VERSION"):
        pwa.service_worker(static)
