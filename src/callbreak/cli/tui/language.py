"""The terminal's language: which one it speaks, its messages, its numbers and card names.

One person plays at one terminal, so the language is a setting of the process: chosen at start
(:func:`choose`: ``--lang``, else the choice remembered from last time, else the environment's
``LC_ALL`` / ``LC_MESSAGES`` / ``LANG``, else English), switched in the game with F2
(:func:`use`), and remembered in the settings file beside the saved games. Every text of the
terminal screens goes through :func:`_` (and :func:`ngettext`), every number through
:func:`number`, so they follow the switch at once.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

from callbreak import i18n
from callbreak.core import CallbreakError
from callbreak.core.cards import Card, Suit
from callbreak.core.words import (
    N_,  # (the one marker the catalog tools read)
    Words,
)
from callbreak.i18n.cards import card_name, suit_name

DOMAIN = "terminal"
_current = i18n.DEFAULT



# The games' titles the title bar translates (the related games' names are kept as they are).
TITLES = (N_("Call Break"),)


def current() -> str:
    return _current


def use(lang: str) -> None:
    """Speak ``lang`` from now on (one of :data:`callbreak.i18n.LANGUAGES`)."""
    global _current
    _current = checked(lang)


def checked(lang: str) -> str:
    """``lang`` as a language we speak (``ne-NP`` -> ``ne``), or an error naming those offered."""
    found = i18n.supported(lang)
    if found is None:
        offered = ", ".join(f"{code} ({name})" for code, name in i18n.LANGUAGES.items())
        raise CallbreakError(f"unknown language {lang!r}; the languages offered are {offered}")
    return found


def _(message: str) -> str:
    return i18n.translations(_current, DOMAIN).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return i18n.translations(_current, DOMAIN).ngettext(singular, plural, n)


def said(words: Words | None, english: str = "") -> str:
    """What the rules said (a notice, a hand's note) in the terminal's language; ``english``
    where they gave no words."""
    return i18n.say(words, _current) if words is not None else english


def number(value: float, tenths: bool = False) -> str:
    """A number in the language's digits (``tenths``: always one decimal)."""
    return i18n.format_number(value, _current, tenths=tenths)


def digits(text: str) -> str:
    """``text`` (a score like ``3.1``, ``4/3b``) with its digits in the language's own."""
    return i18n.native_digits(text, _current)


def typed_digit(char: str) -> str:
    """A key typed in the language's own digits (``३`` in Nepali, ``৩`` in Bengali) as the
    digit 0-9 it is; any other key as it is (other scripts' digits are not numbers we show)."""
    index = i18n.native_digits("0123456789", _current).find(char) if len(char) == 1 else -1
    return str(index) if index >= 0 else char


def card_words(card: Card) -> str:
    """A card in a sentence: ``Q♥`` in English (as its players write it), in words in the
    other languages (``पानको बेगम``)."""
    return card.pretty if _current == i18n.DEFAULT else card_name(card, _current)


def suit_words(suit: Suit) -> str:
    return suit_name(suit, _current)


# --- choosing and remembering ---------------------------------------------------------------

def from_environment(environ: Mapping[str, str] | None = None) -> str | None:
    """The language of the locale the environment names (POSIX order: ``LC_ALL``, then
    ``LC_MESSAGES``, then ``LANG``; ``ne_NP.UTF-8`` -> ``ne``), if we speak it."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return i18n.supported(value.split(".")[0])
    return None


def settings_path() -> Path:
    from callbreak.cli.tui.saves import data_dir

    return data_dir() / "settings.json"


def remembered() -> str | None:
    """The language last chosen in the terminal, if any (a broken settings file counts as none)."""
    try:
        data = json.loads(settings_path().read_text(encoding="utf-8"))
        return i18n.supported(str(data.get("language") or ""))
    except (OSError, ValueError, AttributeError):
        return None


def remember(lang: str) -> None:
    """Keep ``lang`` as the terminal's language for the next games (beside the saved games)."""
    from callbreak.cli.tui.saves import write_atomically

    path = settings_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        data = data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        data = {}
    data["language"] = checked(lang)
    write_atomically(path, json.dumps(data, indent=1))


def choose(option: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The language to start in: ``option`` (``--lang``; an unknown one raises, naming those
    offered), else the one remembered, else the environment's, else English."""
    if option is not None:
        return checked(option)
    return remembered() or from_environment(environ) or i18n.DEFAULT


def following(lang: str) -> str:
    """The next language of the F2 cycle."""
    codes = list(i18n.LANGUAGES)
    return codes[(codes.index(lang) + 1) % len(codes)]
