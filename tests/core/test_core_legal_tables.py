"""Legal-move tables: the exact legal cards of hand-written positions under every combination of
``follow_must_beat`` x ``void_rule`` x ``no_wasting_trumps`` x ``spade_lead_first_trick``.

Sources (RULES.md section 2): follow_must_beat 000/002/004 vs 001/003; void_rule
trump_if_winning 000/001/003/004, must_trump 002, free 003; no_wasting_trumps 003 variant;
spade_lead_first_trick 002, 003 variant.
"""

from __future__ import annotations

import itertools

import pytest
from cbcore_helpers import call_all, fill_deal, names, play, ref_legal, started

from callbreak.core import Rules, make_rules, parse_cards
from callbreak.core.cards import Suit, cards_of, mask_of
from callbreak.core.tricks import legal_mask

COMBOS = [
    (beat, void, waste, lead)
    for beat, void, waste, lead in itertools.product(
        (True, False), ("trump_if_winning", "must_trump", "free"), (False, True),
        ("allowed", "forbidden"))
    if not (void == "must_trump" and waste)  # refused as contradictory (tested elsewhere)
]


def _rules(beat: bool, void: str, waste: bool, lead: str) -> Rules:
    return make_rules("callbreak", follow_must_beat=beat, void_rule=void, no_wasting_trumps=waste,
                      spade_lead_first_trick=lead)


# Each position: (name, trick so far, hand, first trick?, expected legal cards by option).
# ``expect`` maps a key to the legal cards; the key is chosen by ``pick`` from the options.
ALL = None  # the whole hand


def _by_lead(allowed: str | None, forbidden: str | None):  # type: ignore[no-untyped-def]
    return lambda beat, void, waste, lead: allowed if lead == "allowed" else forbidden


def _by_beat(must: str | None, free: str | None):  # type: ignore[no-untyped-def]
    return lambda beat, void, waste, lead: must if beat else free


def _const(cards: str | None):  # type: ignore[no-untyped-def]
    return lambda beat, void, waste, lead: cards


def _by_void(tiw: str | None, must: str | None, free: str | None,
             tiw_waste: str | None = "same", free_waste: str | None = "same"):  # type: ignore[no-untyped-def]
    def pick(beat: bool, void: str, waste: bool, lead: str) -> str | None:
        if void == "trump_if_winning":
            return tiw_waste if waste and tiw_waste != "same" else tiw
        if void == "must_trump":
            return must
        return free_waste if waste and free_waste != "same" else free
    return pick


POSITIONS = [
    # Leading.
    ("lead trick 1, mixed hand", "", "AS 5S KH 3D", True, _by_lead(ALL, "KH 3D")),
    ("lead trick 1, only spades", "", "AS 5S 2S", True, _const(ALL)),
    ("lead a later trick", "", "AS 5S KH 3D", False, _const(ALL)),
    # Following suit.
    ("follow, holding a beater", "10H", "AH 4H 2S 3C", False, _by_beat("AH", "AH 4H")),
    ("follow, only lower cards", "10H", "4H 2H AS", False, _const("4H 2H")),
    ("follow, beat the highest not the lead", "10H QH", "JH KH 2C", False, _by_beat("KH", "JH KH")),
    ("follow a trumped trick", "10H 3S", "AH 4H KS", False, _const("AH 4H")),
    ("follow a spade lead", "10S KS", "QS AS 2S 5H", False, _by_beat("AS", "QS AS 2S")),
    ("follow on trick 1 is not a lead", "10H", "AS 4H 2C", True, _const("4H")),
    # Void in the led suit.
    ("void, no spade in the trick", "10H", "3S KS 4C 5D", False,
     _by_void(tiw="3S KS", must="3S KS", free=ALL)),
    ("void, can overtrump", "10H 9S", "3S KS 4C", False,
     _by_void(tiw="KS", must="KS", free=ALL)),
    ("void, cannot overtrump", "10H QS", "3S 5S 4C 5D", False,
     _by_void(tiw=ALL, must="3S 5S", free=ALL, tiw_waste="4C 5D", free_waste="4C 5D")),
    ("void, only low spades left", "10H QS AH", "3S 5S", False, _const(ALL)),
    ("void, no spades", "10H", "4C 5D", False, _const(ALL)),
    ("void of spades on a spade lead", "10S", "AH 4C", False, _const(ALL)),
    ("void, over two spades", "2D 4S 9S", "5S 10S 3H", False,
     _by_void(tiw="10S", must="10S", free=ALL)),
]


@pytest.mark.parametrize("combo", COMBOS, ids=lambda c: "-".join(str(x) for x in c))
@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p[0])
def test_legal_table_exact_cards(combo: tuple[bool, str, bool, str], position: tuple) -> None:  # type: ignore[type-arg]
    """The exact legal set for a hand-written position (seeds 000-004, RULES.md section 2)."""
    _, trick_text, hand_text, first, pick = position
    rules = _rules(*combo)
    hand = parse_cards(hand_text)
    trick = parse_cards(trick_text)
    expected_text = pick(*combo)
    expected = set(hand) if expected_text is None else set(parse_cards(expected_text))
    got = set(cards_of(legal_mask(mask_of(hand), trick, Suit.SPADES, rules, first)))
    assert names(got) == names(expected)
    # The naive reference written from RULES.md agrees (it is what the playouts compare with).
    assert names(ref_legal(hand, trick, Suit.SPADES, rules, first)) == names(expected)


def test_combination_count_is_twenty() -> None:
    """2 x 3 x 2 x 2 combinations less the four refused ones (must_trump + no_wasting_trumps)."""
    assert len(COMBOS) == 20


# --- the same positions reached through a real match -----------------------------------------


def test_match_legal_cards_follow_must_beat_seed_002() -> None:
    """002: following, a player must head the trick; the match lists exactly that."""
    deal = fill_deal({1: "10H 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
                      2: "AH 4H 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC"})
    m = started("callbreak", deal, dealer=0)
    call_all(m, [1, 1, 1, 1])
    play(m, "10H")
    assert names(m.legal_cards()) == {"AH"}
    m2 = started(make_rules("callbreak", follow_must_beat=False), deal, dealer=0)
    call_all(m2, [1, 1, 1, 1])
    play(m2, "10H")
    assert names(m2.legal_cards()) == {"AH", "4H"}


def test_match_no_spade_lead_first_trick_only_spades_seed_002() -> None:
    """002: a leader holding only spades may lead one to trick 1."""
    deal = fill_deal({1: "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"})
    m = started("nepal-traditional", deal, dealer=0)
    call_all(m, [2, 2, 2, 2])
    assert len(m.legal_cards()) == 13
    deal2 = fill_deal({1: "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH"})
    m2 = started("nepal-traditional", deal2, dealer=0)
    call_all(m2, [2, 2, 2, 2])
    assert names(m2.legal_cards()) == {"AH"}
