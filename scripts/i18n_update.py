#!/usr/bin/env python3
"""Extract the messages of gettext domains into ``locale/<domain>.pot`` with Babel and merge them
into every language's ``.po`` (Babel's update: translations kept, new messages left empty, changed
ones marked fuzzy), so that tests/i18n then names what is left to translate.

    .venv/bin/python scripts/i18n_update.py terminal review cards    # the domains to update

The domains and the sources each is extracted from are ``callbreak.i18n.DOMAINS``.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from callbreak import i18n

WIDTH = 100


def template(domain: str) -> Catalog:
    """Every message the domain's sources mark, with where each is."""
    src = i18n.LOCALE_DIR.parent.parent
    pot = Catalog(domain=domain, project="callbreak", version="0", creation_date=datetime.now(UTC),
                  header_comment=f"# Messages of the {domain} domain, extracted with Babel from the "
                                 "sources callbreak.i18n.DOMAINS names.")
    for pattern, method, keywords in i18n.DOMAINS[domain]:
        for path in sorted(src.glob(pattern)):
            for line, message, comments, context in extract_from_file(
                    method, str(path), keywords=keywords, comment_tags=(), strip_comment_tags=True):
                pot.add(message, None, [(str(path.relative_to(src)), line)], auto_comments=comments,
                        context=context)
    return pot


def update(domain: str) -> None:
    pot = template(domain)
    with (i18n.LOCALE_DIR / f"{domain}.pot").open("wb") as f:
        write_po(f, pot, width=WIDTH)
    for lang in i18n.LANGUAGES:
        path = i18n.po_path(lang, domain)
        if lang == i18n.DEFAULT or not path.exists():
            continue  # a new language's catalog starts as a copy of the .pot, with its glossary
        with path.open("rb") as f:
            po = read_po(f, locale=lang, domain=domain)
        po.update(pot, update_header_comment=False)
        with path.open("wb") as f:
            write_po(f, po, width=WIDTH, ignore_obsolete=True)
        untranslated = sum(1 for m in po if m.id and (not all(m.string if isinstance(m.string, tuple)
                                                                  else (m.string,)) or m.fuzzy))
        print(f"{path.relative_to(i18n.LOCALE_DIR)}: {len(po)} messages, {untranslated} to translate")


if __name__ == "__main__":
    unknown = [d for d in sys.argv[1:] if d not in i18n.DOMAINS]
    if not sys.argv[1:] or unknown:
        sys.exit(f"usage: i18n_update.py DOMAIN...; domains: {', '.join(i18n.DOMAINS)}"
                 + (f" (unknown: {', '.join(unknown)})" if unknown else ""))
    for name in sys.argv[1:]:
        update(name)
