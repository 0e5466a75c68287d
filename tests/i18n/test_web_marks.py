"""Every message the page's scripts mark reaches the catalog: Babel's JavaScript extraction once
passed over `${t("...")}` inside template strings and a t() nested in another's arguments
without a word, so a marked message could go untranslated with the catalog test green."""

from __future__ import annotations

import re

from test_catalogs import extracted

from callbreak.i18n.catalogs import SRC

# A literal first argument of t( or tn( (the scripts' only marking keywords).
MARKED = re.compile(r"""(?<![\w.])tn?\(\s*"((?:[^"\\]|\\.)*)\"""")


def test_every_marked_message_of_the_page_is_extracted() -> None:
    found = extracted("web")
    for path in sorted(SRC.glob("server/static/**/*.js")):
        text = path.read_text(encoding="utf-8")
        code = re.sub(r"^\s*//.*$", "", text, flags=re.MULTILINE)  # comments mention t("...")
        marked = {m.replace('\\"', '"') for m in MARKED.findall(code)}
        missed = sorted(marked - set(found))
        assert not missed, f"{path.name}: marked but not extracted: {missed}"
