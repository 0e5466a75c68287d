"""Every message a person can read has a translation in every language we offer.

Messages are extracted from the sources each domain names (as ``pybabel extract`` would), so an
English string added without its catalog entries fails here, naming the string and the file.
"""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from callbreak import i18n
from callbreak.i18n.catalogs import template

OTHERS = [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT]


def extracted(domain: str) -> dict[str, str]:
    """Each message id of a domain, with the first file it appears in (what the catalogs'
    template holds: ``python -m callbreak.i18n.catalogs`` writes the same)."""
    found: dict[str, str] = {}
    for message in template(domain):
        msgid = message.id[0] if isinstance(message.id, tuple) else message.id
        if msgid:
            found.setdefault(msgid, message.locations[0][0] if message.locations else "?")
    return found


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{[A-Za-z_][A-Za-z0-9_]*\}|%\([A-Za-z_]+\)[sd]|%[sd]", text))


@pytest.mark.parametrize("domain", list(i18n.DOMAINS))
@pytest.mark.parametrize("lang", OTHERS)
def test_every_message_is_translated(domain: str, lang: str) -> None:
    wanted = extracted(domain)
    if not wanted:
        pytest.skip(f"the {domain} domain has no messages marked yet")
    path = i18n.po_path(lang, domain)
    assert path.exists(), f"{path} is missing: {len(wanted)} messages of {domain} are untranslated"
    with path.open("rb") as f:
        po = read_po(f, locale=lang, domain=domain)
    have = {}
    for m in po:
        if m.id:
            key = m.id[0] if isinstance(m.id, tuple) else m.id
            strings = m.string if isinstance(m.string, tuple) else (m.string,)
            have[key] = (strings, m.fuzzy)
    missing = [f"{msgid!r} ({where})" for msgid, where in wanted.items()
               if msgid not in have or not all(have[msgid][0]) or have[msgid][1]]
    assert not missing, f"{lang}/{domain}.po lacks {len(missing)} translations: " + "; ".join(missing[:20])
    wrong = [f"{msgid!r} -> {s!r}" for msgid in wanted if msgid in have
             for s in have[msgid][0] if placeholders(s) != placeholders(msgid)]
    assert not wrong, f"{lang}/{domain}.po changes placeholders: " + "; ".join(wrong[:20])


def test_the_browser_language_is_honoured_and_a_choice_wins() -> None:
    assert i18n.negotiate("bn-BD,bn;q=0.9,en;q=0.8") == "bn"
    assert i18n.negotiate("fr-FR, hi;q=0.5, ne-NP;q=0.7") == "ne"
    assert i18n.negotiate("fr, de") == "en"
    assert i18n.negotiate(None) == "en"
    assert i18n.negotiate("hi", chosen="ne") == "ne"
    assert i18n.negotiate("hi", chosen="xx") == "hi"


def test_numbers_are_written_in_each_languages_digits() -> None:
    assert i18n.format_number(-12.5, "en", tenths=True) == "-12.5"
    assert i18n.format_number(3.1, "ne", tenths=True) == "३.१"
    assert i18n.format_number(3, "bn", tenths=True) == "৩.০"
    assert i18n.format_number(1234, "hi") == "1,234"
