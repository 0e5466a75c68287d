"""Keeping the catalogs in step with the sources: ``python -m callbreak.i18n.catalogs [DOMAIN ...]``.

For each domain, Babel extracts every marked message from the sources ``DOMAINS`` names into
``locale/<domain>.pot``, and each language's ``.po`` is updated from it (new messages added
untranslated, messages no longer in the sources marked obsolete), as ``pybabel extract`` and
``pybabel update`` would. The translations themselves are written by people, in the ``.po`` files.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from callbreak.i18n import DEFAULT, DOMAINS, LANGUAGES, LOCALE_DIR, po_path

SRC = Path(__file__).resolve().parent.parent
PROJECT = "callbreak"


def template(domain: str) -> Catalog:
    """Every message marked in a domain's sources, with where each is used."""
    pot = Catalog(project=PROJECT, domain=domain, creation_date=datetime(2026, 1, 1, tzinfo=UTC),
                  fuzzy=False)
    for pattern, method, keywords in DOMAINS[domain]:
        for path in sorted(SRC.glob(pattern)):
            where = str(path.relative_to(SRC))
            for line, message, comments, context in extract_from_file(
                method, str(path), keywords=keywords, comment_tags=(), strip_comment_tags=True
            ):
                pot.add(message, None, [(where, line)], auto_comments=comments, context=context)
    return pot


def update(domain: str) -> None:
    """Writes the domain's ``.pot`` and brings every language's ``.po`` up to it."""
    pot = template(domain)
    if not len(pot):
        return
    LOCALE_DIR.mkdir(exist_ok=True)
    with (LOCALE_DIR / f"{domain}.pot").open("wb") as f:
        write_po(f, pot, width=100, sort_output=False)
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        path = po_path(lang, domain)
        if path.exists():
            with path.open("rb") as f:
                po = read_po(f, locale=lang, domain=domain)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            po = Catalog(locale=lang, domain=domain, project=PROJECT, fuzzy=False)
        po.update(pot, no_fuzzy_matching=True)
        with path.open("wb") as f:
            write_po(f, po, width=100, ignore_obsolete=True)


if __name__ == "__main__":
    for name in sys.argv[1:] or list(DOMAINS):
        update(name)
