"""MkDocs hooks: pages made at build time from the files that are their one source.

- ``rules/GAME.md``: the rules the package ships (src/callbreak/games/rules/), the same text
  ``callbreak rules GAME`` prints and the web app's Rules link shows;
- ``benchmarks/``: benchmarks/RESULTS.md, its current figures first, then its history on a page
  per topic (RESULTS.md stays the one place each figure is recorded);
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


# The history of RESULTS.md (its sections after the current figures, in the order they were
# measured) on a page per topic: the first topic whose words a section's title holds.
TOPICS = (
    ("tests", "The test suite", ("issue 52",)),
    ("terminal", "The terminal game", ("terminal play",)),
    ("review", "Game review", ("review",)),
    ("learning", "Research environments and the learned player", ("issue 29", "research environments")),
    ("web", "The web app and its servers", ("web app", "web tables", "issue 30", "issue 55")),
    ("engine", "The rules engine's speed", ("rules engine", "one interface", "issue 53", "issue 31: the engine",
                                            "issue 31: one", "issue 31: what")),
    ("related", "The related games", ("related games",)),
    ("protocol", "The expert through the bot-tournament protocol, and reading other players",
     ("protocol", "issue 20", "strangers")),
    ("strength", "The bots' strength and the expert's search", ("",)),
)


def results_sections() -> tuple[str, list[str]]:
    """RESULTS.md's current figures (the body of that section) and its later sections, whole."""
    text = RESULTS.read_text(encoding="utf-8")
    sections = ["## " + part for part in text.split("\n## ")[1:]]
    current = next(sec for sec in sections if sec.startswith("## Current figures"))
    return current.split("\n", 1)[1].strip(), [sec for sec in sections if sec is not current]


def topic_of(section: str) -> str:
    title = section.split("\n", 1)[0].lower()
    return next(slug for slug, _, words in TOPICS if any(word in title for word in words))


def benchmark_pages() -> dict[str, str]:
    """``benchmarks/index.md`` (the current figures and the topics) and a page per topic."""
    current, history = results_sections()
    pages = {}
    for slug, title, _ in TOPICS:
        mine = [sec for sec in history if topic_of(sec) == slug]
        if mine:
            pages[f"benchmarks/{slug}.md"] = f"# {title}\n\n" + "\n".join(mine)
    topics = "\n".join(f"- [{title}]({slug}.md)" for slug, title, _ in TOPICS if f"benchmarks/{slug}.md" in pages)
    pages["benchmarks/index.md"] = (
        "# Benchmarks\n\n" + current + "\n\nThe history, with the command that reproduces each figure "
        "and its baseline from the same run, by topic (all of it is `benchmarks/RESULTS.md` in the "
        "repository):\n\n" + topics + "\n")
    return pages


# README.md's links to the repository, as the site has them.
SITE_LINKS = {"(docs/": "(", 'src="docs/': 'src="', "(CONTRIBUTING.md)": "(develop.md)",
              "(CHANGELOG.md)": "(changelog.md)", "(benchmarks/RESULTS.md)": "(benchmarks/index.md)",
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
    for path, content in benchmark_pages().items():
        files.append(File.generated(config, path, content=content))
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    files.append(File.generated(config, "changelog.md", content=changelog))
    return files
