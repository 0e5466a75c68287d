"""MkDocs hooks: pages made at build time from the files that are their one source.

- ``rules/GAME.md``: the rules the package ships (src/callbreak/games/rules/), the same text
  ``callbreak rules GAME`` prints and the web app's Rules link shows;
- ``benchmarks.md``: the current figures at the top of benchmarks/RESULTS.md (the history stays
  in that file, beside the commands that reproduce it);
- ``changelog.md``: CHANGELOG.md;
- ``index.md``: README.md, its links turned into the site's pages.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "src" / "callbreak" / "games" / "rules"
RESULTS = ROOT / "benchmarks" / "RESULTS.md"


def current_figures() -> str:
    """RESULTS.md from its title up to the first section after "Current figures"."""
    lines = RESULTS.read_text(encoding="utf-8").splitlines()
    start = lines.index("## Current figures")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    body = "\n".join(lines[start + 1:end]).strip()
    return ("# Benchmarks\n\n" + body + "\n\nThe commands that reproduce each figure, its baseline and its "
            "history are in `benchmarks/RESULTS.md` in the repository, one section per topic.\n")


# README.md's links to the repository, as the site has them.
SITE_LINKS = {"(docs/": "(", 'src="docs/': 'src="', "(CONTRIBUTING.md)": "(develop.md)",
              "(CHANGELOG.md)": "(changelog.md)", "(benchmarks/RESULTS.md)": "(benchmarks.md)",
              "([LICENSE](LICENSE))": "(the LICENSE file)"}


def home() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for repository, site in SITE_LINKS.items():
        text = text.replace(repository, site)
    return text


def on_files(files: Files, config: Any) -> Files:
    files.append(File.generated(config, "index.md", content=home()))
    for path in sorted(RULES.glob("*.md")):
        files.append(File.generated(config, f"rules/{path.name}", content=path.read_text(encoding="utf-8")))
    files.append(File.generated(config, "benchmarks.md", content=current_figures()))
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    files.append(File.generated(config, "changelog.md", content=changelog))
    return files
