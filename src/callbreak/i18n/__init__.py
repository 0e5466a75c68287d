"""The languages the product speaks: gettext catalogs, choosing a language, numbers as each writes.

Every word a person reads (the web page, the server's messages, the terminal game, the review) is
an English message id in one of the gettext domains below, translated in
``locale/<lang>/LC_MESSAGES/<domain>.po``. The catalogs are read with Babel straight from the
``.po`` files (no compiled ``.mo`` to fall out of date). ``tests/i18n`` extracts every message
from the sources a domain names and fails when one lacks a translation in any language.
"""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.extract import extract_javascript as babel_extract_javascript
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from callbreak.core.words import SEAT, Words

# Each language by its own name, as a language menu shows it.
LANGUAGES: dict[str, str] = {"en": "English", "ne": "नेपाली", "hi": "हिन्दी", "bn": "বাংলা"}
DEFAULT = "en"
LOCALE_DIR = Path(__file__).parent / "locale"

# Each domain and the sources its messages are extracted from: (glob under src/callbreak, the
# Babel extraction method, its keywords). Python sources mark messages with _() / ngettext();
# the page's scripts with t() / tn().
Keywords = dict[str, "tuple[int, int] | None"]
PY_KEYWORDS: Keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}
JS_KEYWORDS: Keywords = {"t": None, "tn": (1, 2)}
DOMAINS: dict[str, list[tuple[str, str, Keywords]]] = {
    "web": [("server/static/**/*.js", "callbreak.i18n:extract_javascript", JS_KEYWORDS)],
    "server": [("server/**/*.py", "python", PY_KEYWORDS),
               # the lobby's words that the rules, games and bots define, listed by the server
               ("server/words.py", "callbreak.server.words:extract", {})],
    "terminal": [("cli/tui/**/*.py", "python", PY_KEYWORDS), ("cli/play.py", "python", PY_KEYWORDS),
                 ("cli/review.py", "python", PY_KEYWORDS)],
    "review": [("review/**/*.py", "python", PY_KEYWORDS)],
    # Cards named in words ("king of spades"), for every sentence that names one.
    "cards": [("i18n/cards.py", "python", PY_KEYWORDS)],
    # Seats named one way everywhere ("North · Seat 3 · expert").
    "seats": [("i18n/seats.py", "python", PY_KEYWORDS)],
    # What the rules say at the table (a deal thrown in, how a hand ended), marked N_() where the
    # core and the games write it: one catalog that the page (with "web") and the terminal read.
    "games": [("core/words.py", "python", {"N_": None}), ("core/match.py", "python", {"N_": None}),
              ("games/**/*.py", "python", {"N_": None})],
}


def extract_javascript(fileobj: Any, keywords: Any, comment_tags: Any, options: dict[str, Any]) -> Any:
    """Babel's JavaScript extraction, reading inside template strings too: the page writes
    `${t("...")}`, which the plain extractor passes over without a word."""
    return babel_extract_javascript(fileobj, keywords, comment_tags, {**options, "parse_template_string": True})  # type: ignore[typeddict-item]


def supported(lang: str | None) -> str | None:
    """The language we speak for a tag like ``ne-NP`` or ``bn_BD``, or None."""
    if not lang:
        return None
    base = re.split(r"[-_]", lang.strip().lower(), maxsplit=1)[0]
    return base if base in LANGUAGES else None


def negotiate(accept_language: str | None, chosen: str | None = None) -> str:
    """The language to speak: the one a person chose, else the best of their browser's
    ``Accept-Language`` we speak (by its q weights), else English."""
    if supported(chosen):
        return supported(chosen)  # type: ignore[return-value]
    offers: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        m = re.search(r"q\s*=\s*([0-9.]+)", params)
        if m:
            try:
                q = float(m.group(1))
            except ValueError:
                q = 0.0
        lang = supported(tag)
        if lang and q > 0:
            offers.append((-q, i, lang))
    return min(offers)[2] if offers else DEFAULT


def po_path(lang: str, domain: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


@cache
def translations(lang: str, domain: str) -> gettext.NullTranslations:
    """The catalog of one domain in one language; English (and a missing catalog) is the
    message ids themselves."""
    if domain not in DOMAINS:
        raise ValueError(f"unknown message domain {domain!r}; known: {', '.join(DOMAINS)}")
    path = po_path(lang, domain)
    if lang == DEFAULT or not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=domain)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def gettext_for(lang: str, domain: str) -> Callable[[str], str]:
    return translations(supported(lang) or DEFAULT, domain).gettext


def catalog(lang: str, domain: str) -> dict[str, str]:
    """Every translated message of a domain, id to text (what the page's script loads)."""
    lang = supported(lang) or DEFAULT
    path = po_path(lang, domain)
    if lang == DEFAULT or not path.exists():
        return {}
    with path.open("rb") as f:
        po = read_po(f, locale=lang, domain=domain)
    out: dict[str, str] = {}
    for message in po:
        if not message.id or not message.string or message.fuzzy:
            continue
        if isinstance(message.id, tuple):  # plural: "one|other" forms under the singular id
            out[str(message.id[0])] = "\x00".join(message.string)
        else:
            out[str(message.id)] = str(message.string)
    return out


# The first digit of each numbering system a language writes by default (CLDR's names).
_ZERO = {"deva": 0x0966, "beng": 0x09E6}


def native_digits(text: str, lang: str) -> str:
    """``text`` with its ASCII digits written as ``lang`` writes them (Nepali in Devanagari,
    Bengali in Bengali digits; Hindi and English keep 0-9, as CLDR has them)."""
    zero = _ZERO.get(Locale.parse(supported(lang) or DEFAULT).default_numbering_system)
    if zero is None:
        return text
    return text.translate({ord("0") + d: zero + d for d in range(10)})


def format_number(value: float, lang: str, tenths: bool = False) -> str:
    """A number as ``lang`` writes it: its digits, its decimal sign and its minus; ``tenths``
    always shows one decimal (Call Break's 3.1 points)."""
    lang = supported(lang) or DEFAULT
    text = format_decimal(value, format="#,##0.0" if tenths else "#,##0.###", locale=lang)
    return native_digits(text, lang)


def say(words: Words, lang: str) -> str:
    """What the rules said (``words``) in ``lang``: seats counted from 1, numbers in its digits,
    a list of seats as "seat 1, seat 3"."""
    tr = gettext_for(lang, "games")

    def shown(value: int | list[int]) -> str:
        if isinstance(value, list):
            return ", ".join(tr(SEAT).format(seat=format_number(s, lang)) for s in value)
        return format_number(value, lang)

    return tr(words.template).format(**{k: shown(v) for k, v in words.people_values().items()})
