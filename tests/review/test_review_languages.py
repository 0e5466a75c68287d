"""The review's words in Nepali, Hindi and Bengali (for the terminal and the web page alike),
and the English account as it always was."""

from __future__ import annotations

import re

import pytest

from callbreak.bots import make_bot
from callbreak.core.actions import CHANCE
from callbreak.games import game_info, new_game
from callbreak.record import record_of
from callbreak.review import (
    ReviewSettings,
    choice_words,
    class_name,
    review_record,
    review_text,
    review_words,
)

FAST = ReviewSettings(samples=8, call_samples=32, seed=3)
SCRIPT = {"ne": "[\u0900-\u097f]", "hi": "[\u0900-\u097f]", "bn": "[\u0980-\u09ff]"}
DIGITS = {"ne": "[०-९]", "hi": "[0-9]", "bn": "[০-৯]"}


@pytest.fixture(scope="module")
def reviewed():
    """A one-deal game of random players (so there are mistakes to tell), reviewed quickly."""
    g = new_game("callbreak", preset="bhoos-tournament", deals=1)
    chance = game_info("callbreak").dealer(4)
    bots = [make_bot("random", seed=i) for i in range(4)]
    while not g.is_over:
        g.apply(chance.chance(g) if g.to_act == CHANCE else bots[g.to_act].decide(g.view(g.to_act), 1.0).action)
    return review_record(record_of(g, seats=["random"] * 4), FAST)


@pytest.mark.parametrize("lang", ["ne", "hi", "bn"])
def test_the_account_is_in_the_language_with_its_digits(reviewed, lang: str) -> None:
    lines = list(review_text(reviewed, lang))
    text = "\n".join(lines)
    assert len(lines) > 4 and reviewed.key_moments()  # the seats, then the moments with positions
    # Only the players' names (what the test chose) and the cards' faces (Q♥) stay in Latin.
    assert set(re.findall(r"[A-Za-z]{3,}", text)) <= {"random"}, text
    assert re.search(SCRIPT[lang], lines[0]) and re.search(DIGITS[lang], lines[0]), lines[0]
    if lang != "hi":  # every number in the language's digits, but the cards' faces as printed
        assert not re.search("[0-9]", re.sub("(10|[2-9])[♠♥♦♣]", "", text)), text
    worst = reviewed.key_moments()[0]
    assert class_name(worst.label, lang) in text and choice_words(worst.chosen, lang) in text


@pytest.mark.parametrize("lang", ["ne", "hi", "bn"])
def test_the_words_beside_the_review_json_are_in_the_language(reviewed, lang: str) -> None:
    words = review_words(reviewed, lang)
    assert len(words["decisions"]) == len(reviewed.decisions)
    assert set(words["classes"]) >= {"best", "good", "inaccuracy", "mistake", "blunder"}
    assert all(re.search(SCRIPT[lang], name) for name in words["classes"].values())
    for d, said in zip(reviewed.decisions, words["decisions"], strict=True):
        assert said["index"] == d.index and said["label"] == class_name(d.label, lang)
        assert re.search(SCRIPT[lang], said["chosen"]), said  # a card or a call in words
    assert words["labels"][0] != reviewed.labels[0]  # "सिट १ · random"


def test_the_english_account_is_as_before(reviewed) -> None:
    lines = list(review_text(reviewed))
    assert lines == list(review_text(reviewed, "en"))
    assert re.fullmatch(r"Seat 1 · random: accuracy \d+% \(calls \d+%, cards \d+%\), \d+\.\d\d points "
                        r"lost of \d+\.\d\d at stake", lines[0]), lines[0]
    moment = re.compile(r"deal 1 (trick \d+|call): Seat \d · random (played|chose) \S+( \S+)* "
                        r"\((mistake|blunder), -\d+\.\d\d\)(; .+ was better)?")
    assert all(moment.fullmatch(line) for line in lines[4::2]), lines
    assert all(line.startswith("  ") and "hand" in line for line in lines[5::2])
    assert choice_words("blind call 3") == "blind call 3" and class_name("mistake") == "mistake"


def test_choices_and_cards_are_named_as_players_say_them() -> None:
    assert choice_words("KS", "ne") == "हुकुमको बादशाह"
    assert choice_words("QH", "hi") == "पान की बेगम" and choice_words("AD", "hi") == "ईंट का इक्का"
    assert choice_words("JC", "bn") == "চিড়িতনের গোলাম"
    assert choice_words("blind call 5", "ne") == "ब्लाइन्ड कल ५"
    assert choice_words("trump ♥", "bn") == "তুরুপ হরতন"
    assert choice_words("exchange 2C 3D", "hi") == "बदलना: चिड़ी की दुक्की, ईंट की तिक्की"
