"""The package as users get it: the wheel and the sdist build, and the wheel, installed in a
fresh virtual environment away from the repository, plays, runs an arena and serves the web app.

(The new environment borrows the project's installed dependencies through a path entry, not
its editable install of callbreak, so the callbreak it imports is the wheel's.)
"""

from __future__ import annotations

import os
import site
import socket
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.process, pytest.mark.slow]


def run(*args: str | Path, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    result = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                            timeout=timeout, env=env)
    assert result.returncode == 0, f"{args}: {result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the fresh environment's bin folder, a working folder outside the repository)."""
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "build", "--wheel", "--sdist", "--outdir", out, ROOT, cwd=out, timeout=600)
    (wheel,) = out.glob("callbreak-*.whl")
    (sdist,) = out.glob("callbreak-*.tar.gz")
    with zipfile.ZipFile(wheel) as zipped:
        names = zipped.namelist()
    for shipped in ("callbreak/server/static/index.html", "callbreak/games/rules/callbreak.md",
                    "callbreak/i18n/locale/ne/LC_MESSAGES/seats.po", "callbreak/store/migrations/env.py",
                    "callbreak/py.typed"):
        assert shipped in names, shipped
    assert any(n.startswith("callbreak/bots/weights/") for n in names)
    assert any(n.endswith("licenses/LICENSE") for n in names)  # the licence travels with the wheel
    with tarfile.open(sdist) as tarred:
        assert any(n.endswith("/LICENSE") for n in tarred.getnames())
    env = tmp_path_factory.mktemp("env")
    run(sys.executable, "-m", "venv", env, cwd=env)
    py = env / "bin" / "python"
    # The dependencies from the project's environment, by a path entry: its .pth files (the
    # editable install among them) are not read, so `import callbreak` finds the wheel's.
    deps = site.getsitepackages()[0]
    new_site = run(py, "-c", "import site; print(site.getsitepackages()[0])", cwd=env).stdout.strip()
    Path(new_site, "project-dependencies.pth").write_text(deps + "\n")
    run(py, "-m", "pip", "install", "--no-deps", "--no-index", wheel, cwd=env)
    return env / "bin", tmp_path_factory.mktemp("work")


def test_the_installed_wheel_is_imported_from_its_environment(installed: tuple[Path, Path]) -> None:
    bin_, work = installed
    where = run(bin_ / "python", "-c", "import callbreak; print(callbreak.__file__)", cwd=work).stdout
    assert str(bin_.parent) in where and str(ROOT) not in where


def test_the_installed_commands_answer(installed: tuple[Path, Path]) -> None:
    bin_, work = installed
    from callbreak import __version__

    assert run(bin_ / "callbreak", "--version", cwd=work).stdout.strip() == f"callbreak {__version__}"
    assert "expert" in run(bin_ / "callbreak", "bots", cwd=work).stdout
    arena = run(bin_ / "callbreak", "arena", "heuristic", "random", "--deals", "4", "--seed", "1",
                "--quiet", cwd=work)
    assert "heuristic" in arena.stdout and "random" in arena.stdout


def test_the_installed_web_app_serves_its_page(installed: tuple[Path, Path]) -> None:
    bin_, work = installed
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([bin_ / "callbreak", "serve", "--port", str(port), "--db", work / "games.db"],
                              cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert server.stdout is not None
        assert f"running at http://127.0.0.1:{port}" in server.stdout.readline()
        while True:  # (it said it runs; one that never answers is the per-test timeout's)
            try:
                page = httpx.get(f"http://127.0.0.1:{port}/", timeout=10)
                break
            except httpx.TransportError:
                assert server.poll() is None, "the server exited"
                time.sleep(0.2)
        assert page.status_code == 200 and "Call Break" in page.text
    finally:
        server.terminate()
        server.wait(30)
