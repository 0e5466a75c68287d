"""One or more tests for each row of RULES.md sections 1-3, each naming its seed.

Seeds: 000 catsatcards (Call Break + Call Bridge), 001, 002 (Nepali rules), 003 (pagat Call
Bridge), 004 (a real-money platform's Callbreak).
"""

from __future__ import annotations

import random

import pytest
from cbcore_helpers import call_all, fill_deal, names, play, started

from callbreak.core import (
    CHANCE,
    CallOutOfRangeError,
    IllegalActionError,
    Match,
    Rules,
    WrongPhaseError,
    make_rules,
    parse_cards,
    preset,
)
from callbreak.core.actions import Call, ChooseDealer, Draw, Look, Play, Redeal, Stop
from callbreak.core.cards import Suit
from callbreak.core.dealing import Dealer
from callbreak.core.game import Phase
from callbreak.core.rules import (
    BonusCall,
    FirstDealer,
    Scoring,
    SpadeLead,
    Stakes,
    TieBreak,
    Trump,
    VoidRule,
    WeakHand,
)
from callbreak.core.scoring import deal_points, expected_deal_points, settle_stakes
from callbreak.i18n import say

ALL_SPADES = "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"


def finish_deal(m: Match) -> None:
    """Play the current deal out with the turn-timer default (biggest legal card)."""
    n = len(m.results)
    while len(m.results) == n:
        m.apply(m.default_action())


def spades_deal_result(rules: Rules | str, calls: list[int], blind_first: bool = False) -> Match:
    """Seat 1 holds all thirteen spades, so it wins every trick; calls in turn order from seat 1."""
    m = started(rules, fill_deal({1: ALL_SPADES}), dealer=0)
    if blind_first:
        m.apply(Call(1, calls[0], blind=True))
        calls = calls[1:]
    call_all(m, calls)
    finish_deal(m)
    return m


# --- section 1: common core --------------------------------------------------------------------


def test_right_of_dealer_calls_first_and_leads_seed_002_003() -> None:
    """002/003: the player to the dealer's right calls first and leads; the dealer calls last."""
    m = started("callbreak", fill_deal({}), dealer=2)
    order = []
    while m.phase is Phase.CALL:
        order.append(m.turn)
        m.apply(Call(m.turn, 1))
    assert order == [3, 0, 1, 2]
    assert m.turn == 3 and m.view(0).leader == 3


def test_dealer_rotation_right_seed_002_003() -> None:
    """002/003: the deal passes to the right (same direction as play): dealer + 1."""
    m = started("callbreak", fill_deal({}), dealer=1)
    call_all(m, [1, 1, 1, 1])
    finish_deal(m)
    assert m.dealer == 2 and m.results[0].dealer == 1


def test_dealer_rotation_left_seed_000() -> None:
    """000 (Call Break): the deal rotates clockwise, against play: dealer - 1."""
    m = started(make_rules("callbreak", dealer_rotation="left"), fill_deal({}), dealer=1)
    call_all(m, [1, 1, 1, 1])
    finish_deal(m)
    assert m.dealer == 0


def test_spades_always_trump_seed_000_001_002_003_004() -> None:
    """All seeds: the highest spade wins; without spades the highest card of the suit led."""
    m = started("callbreak", fill_deal({1: "KH 2D", 2: "AH", 3: "3H", 0: "2S 4H"}), dealer=0)
    call_all(m, [1, 1, 1, 1])
    assert m.view(1).trump is Suit.SPADES


# --- section 2: options -----------------------------------------------------------------------


def test_min_call_1_seed_000_001_004() -> None:
    """000/001/004: the minimum call is 1."""
    m = started("callbreak", fill_deal({}))
    assert Call(1, 1) in m.legal_actions()
    with pytest.raises(CallOutOfRangeError):
        m.apply(Call(1, 0))


def test_min_call_2_seed_002_003() -> None:
    """002/003: the minimum call is 2; a call of 1 is refused and changes nothing."""
    m = started("nepal-traditional", fill_deal({}))
    before = m.snapshot()
    with pytest.raises(CallOutOfRangeError, match="2..13"):
        m.apply(Call(1, 1))
    assert m.snapshot() == before
    assert min(a.tricks for a in m.legal_actions() if isinstance(a, Call)) == 2


@pytest.mark.parametrize(("name", "top", "seeds"), [
    ("callbreak", 13, "000/002"), ("call-bridge", 12, "000 Call Bridge"), ("567", 8, "001/004"),
    ("bhoos-tournament", 8, "004")])
def test_max_call_13_12_8_seed_000_001_002_004(name: str, top: int, seeds: str) -> None:
    """max_call 13 (000/002), 12 (000's Call Bridge), 8 (001/004): one over is refused."""
    m = started(name, fill_deal({}))
    assert max(a.tricks for a in m.legal_actions() if isinstance(a, Call)) == top
    m.apply(Call(1, top))
    if top < 13:
        with pytest.raises(CallOutOfRangeError):
            m.apply(Call(2, top + 1))


def test_follow_must_beat_seed_000_002_004() -> None:
    """000/002/004: following, a player must beat the current winner if able."""
    deal = fill_deal({1: "10H " + " ".join(ALL_SPADES.split()[:12]),
                      2: "JH 4H AD KD QD JD 10D 9D 8D 7D 6D 5D 4D",
                      3: "2H QH KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C"})
    m = started("callbreak", deal)
    call_all(m, [1, 1, 1, 1])
    play(m, "10H")
    assert names(m.legal_cards()) == {"JH"}
    play(m, "JH")
    assert names(m.legal_cards()) == {"QH"}  # must beat JH, the highest so far, not just 10H


def test_follow_any_card_of_suit_seed_001_003() -> None:
    """001/003 (call-bridge): following, any card of the suit led."""
    deal = fill_deal({1: "10H " + " ".join(ALL_SPADES.split()[:12]),
                      2: "JH 4H AD KD QD JD 10D 9D 8D 7D 6D 5D 4D"})
    m = started("call-bridge", deal)
    call_all(m, [2, 2, 2, 2])
    play(m, "10H")
    assert names(m.legal_cards()) == {"JH", "4H"}


def test_follow_trumped_trick_any_of_suit_seed_000_002_004() -> None:
    """000/002/004: if a non-spade lead is already trumped, any card of the led suit is fine."""
    deal = fill_deal({1: "10H KC", 2: "AS 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
                      3: "AH 4H 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC"})
    m = started("callbreak", deal)
    call_all(m, [1, 1, 1, 1])
    play(m, "10H AS")
    assert names(m.legal_cards()) == {"AH", "4H"}


def _void_position(rules: Rules) -> Match:
    """Seat 1 leads 10H, seat 2 trumps with 9S, seat 3 (void in hearts) holds 3S KS and clubs."""
    deal = fill_deal({1: "10H", 2: "9S 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
                      3: "3S KS 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC"})
    m = started(rules, deal)
    while m.phase is Phase.CALL:
        m.apply(Call(m.turn, rules.min_call))
    play(m, "10H 9S")
    return m


def test_void_trump_if_winning_seed_000_001_003_004() -> None:
    """000/001/003/004: void, a player holding a spade that would win must play one."""
    m = _void_position(make_rules("callbreak"))
    assert names(m.legal_cards()) == {"KS"}


def test_void_must_trump_seed_002() -> None:
    """002: void and holding spades, a spade must be played (a winning one if held)."""
    m = _void_position(make_rules("nepal-traditional", spade_lead_first_trick="allowed"))
    assert names(m.legal_cards()) == {"KS"}
    deal = fill_deal({1: "10H", 2: "QS 2D 3D 4D 5D 6D 7D 8D 9D 10D JD KD AD",
                      3: "3S 5S 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC"})
    m2 = started(make_rules("nepal-traditional", spade_lead_first_trick="allowed"), deal)
    call_all(m2, [2, 2, 2, 2])
    play(m2, "10H QS")
    assert names(m2.legal_cards()) == {"3S", "5S"}  # only lower spades: still a spade


def test_void_free_seed_003() -> None:
    """003 rare variant: void, any card."""
    m = _void_position(make_rules("callbreak", void_rule="free"))
    assert len(m.legal_cards()) == 13


def test_no_wasting_trumps_seed_003() -> None:
    """003 variant: after a trump, a player who cannot overtrump may not underplay a spade."""
    deal = fill_deal({1: "10H", 2: "AS 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
                      3: "3S KS 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC"})
    m = started(make_rules("callbreak", no_wasting_trumps=True), deal)
    call_all(m, [1, 1, 1, 1])
    play(m, "10H AS")
    assert "3S" not in names(m.legal_cards()) and "KS" not in names(m.legal_cards())
    assert len(m.legal_cards()) == 11
    with pytest.raises(IllegalActionError, match="void"):
        m.apply(Play(3, parse_cards("3S")[0]))
    m.apply(Play(3, parse_cards("2C")[0]))
    assert Suit.HEARTS in m.view(0).voids(3)


def test_spade_lead_forbidden_first_trick_seed_002_003() -> None:
    """002, 003 variant: no spade lead to the first trick; allowed again from trick 2."""
    deal = fill_deal({1: "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S AH AD"})
    m = started("nepal-traditional", deal)
    call_all(m, [2, 2, 2, 2])
    assert names(m.legal_cards()) == {"AH", "AD"}
    before = m.snapshot()
    with pytest.raises(IllegalActionError, match="may not lead the first trick"):
        m.apply(Play(1, parse_cards("AS")[0]))
    assert m.snapshot() == before
    play(m, "AH")
    for _ in range(3):
        m.apply(m.default_action())
    assert m.turn == 1 and len(m.tricks) == 1  # the ace of hearts won trick 1
    assert len(m.legal_cards()) == 12  # spades may lead from trick 2


def test_spade_lead_allowed_seed_000_002() -> None:
    """000 and 002's "spade-lead-free" variation: a spade may lead trick 1."""
    m = started("callbreak", fill_deal({1: "AS AH"}))
    call_all(m, [1, 1, 1, 1])
    assert "AS" in names(m.legal_cards())


def test_scoring_tenths_examples_seed_002() -> None:
    """002's examples: 4 called, 5 won = 4.1; 7 won = 4.3; 3 won = -4 (also 000/004)."""
    r = make_rules("callbreak")
    assert (deal_points(4, 5, r), deal_points(4, 7, r), deal_points(4, 3, r)) == (41, 43, -40)
    m = spades_deal_result("callbreak", [10, 1, 1, 1])
    assert m.results[0].points == (-10, 103, -10, -10)


def test_expected_deal_points_weigh_each_trick_count_by_its_chance() -> None:
    """What the expert calls and the review judges calls by: 4 called with even chances of 3
    and 5 tricks is (-40 + 41) / 2; under Call Bridge's scoring 6 tricks count against it."""
    r = make_rules("callbreak")
    assert expected_deal_points(4, [0, 0, 0, 0.5, 0, 0.5], r) == pytest.approx(0.5)
    assert expected_deal_points(4, [0, 0, 0, 0, 0, 0, 1.0], r) == 42
    bridge = make_rules("call-bridge")
    assert expected_deal_points(4, [0, 0, 0, 0, 0.5, 0, 0.5], bridge) == pytest.approx(0.0)
    assert expected_deal_points(2, [0, 0, 1.0], r, blind=True) == 2 * deal_points(2, 2, r)


def test_scoring_exact_or_one_over_seed_003() -> None:
    """003 and 000's Call Bridge: call or call+1 scores +call; anything else -call."""
    r = make_rules("call-bridge")
    assert [deal_points(4, w, r) for w in (3, 4, 5, 6)] == [-40, 40, 40, -40]
    m = spades_deal_result("call-bridge", [12, 2, 2, 2])  # 13 won on a call of 12: one over
    assert m.results[0].points[1] == 130  # made, and 12 >= 8 scores the bonus 13


def test_scoring_at_least_seed_001() -> None:
    """001 (its example wins over its text) and 003 variant: won >= call scores +call."""
    r = make_rules("callbreak", scoring="at_least")
    assert [deal_points(4, w, r) for w in (3, 4, 7)] == [-40, 40, 40]


def test_bonus_call_8_13_seed_003_002_000() -> None:
    """003/002/000 Call Bridge: a made call of 8+ scores a flat 13; a failed one -call."""
    r = make_rules("call-bridge-simple")
    assert r.bonus_call == BonusCall(threshold=8, points=13)
    assert deal_points(8, 9, r) == 130 and deal_points(7, 9, r) == 70 and deal_points(8, 7, r) == -80
    m = spades_deal_result("call-bridge-simple", [8, 2, 2, 2])
    assert m.results[0].points == (-20, 130, -20, -20)
    m2 = spades_deal_result("call-bridge", [8, 2, 2, 2])  # 13 won on 8: not "call or one over"
    assert m2.results[0].points[1] == -80


def test_bonus_call_8_16_seed_003() -> None:
    """003 variant: the bonus is 16."""
    r = make_rules("call-bridge", bonus_call="8:16")
    assert deal_points(9, 10, r) == 160


def test_blind_call_doubles_seed_004() -> None:
    """004: a blind call (before looking) doubles the deal's score, plus or minus."""
    m = spades_deal_result("567", [8, 1, 1, 1], blind_first=True)
    assert m.results[0].blind == (False, True, False, False)
    assert m.results[0].points == (-10, 2 * 85, -10, -10)
    assert deal_points(3, 2, make_rules("567"), blind=True) == -60


def test_blind_call_hand_hidden_until_look_seed_004() -> None:
    """004: the hand is hidden until the seat looks; a seat that looked may not call blind."""
    m = started("567", fill_deal({}))
    assert m.view(1).hand is None and not m.view(1).looked
    assert Call(1, 3, blind=True) in m.view(1).legal
    m.apply(Look(2))  # any seat may look at any time before calling
    assert m.view(2).hand is not None and len(m.view(2).hand or ()) == 13
    m.apply(Call(1, 3))
    assert m.view(1).hand is not None  # calling openly means looking
    before = m.snapshot()
    with pytest.raises(IllegalActionError, match="looked"):
        m.apply(Call(2, 3, blind=True))
    assert m.snapshot() == before
    m2 = started("callbreak", fill_deal({}))
    with pytest.raises(IllegalActionError, match="not allowed"):
        m2.apply(Call(1, 3, blind=True))


def test_redeal_weak_hand_claim_seed_000() -> None:
    """000: a player with no spades, or no A/K/Q/J, may show the hand and demand a redeal."""
    weak = "2H 3H 4H 5H 6H 7H 8H 9H 10H 2C 3C 4C 5C"  # no spade, no face card
    m = started("catsatcards", fill_deal({2: weak}), dealer=0)
    assert m.phase is Phase.REDEAL_CLAIM
    # Seat 1 (random cards) may claim only if its own hand is weak by the rule, judged from its cards.
    hand = m.view(1).hand or ()
    weak_1 = not any(c.suit is Suit.SPADES for c in hand) or not any(c.rank >= 11 for c in hand)
    assert m.legal_actions() == ([Redeal(1, True), Redeal(1, False)] if weak_1 else [Redeal(1, False)])
    while m.turn != 2:
        m.apply(Redeal(m.turn, False))
    assert Redeal(2, True) in m.legal_actions()
    m.apply(Redeal(2, True))
    assert m.phase is Phase.DEAL and m.dealer == 0  # the same dealer deals again
    assert m.redeal is not None and m.redeal.seat == 2
    assert names(m.redeal.shown) == set(weak.split())
    assert m.view(3).redeal == m.redeal  # shown to everyone


def _weak_seat(m: Match, seat: int) -> bool:
    return Redeal(seat, True) in m.legal_actions(seat)


def test_redeal_weak_hand_may_keep_and_strong_may_not_claim_seed_000() -> None:
    """000: the claim is optional; a hand with spades and a face card may not claim."""
    m = started("catsatcards", fill_deal({2: "2H 3H 4H 5H 6H 7H 8H 9H 10H 2C 3C 4C 5C",
                                          1: "AS KS"}), dealer=0)
    assert m.turn == 1 and m.legal_actions() == [Redeal(1, False)]
    before = m.snapshot()
    with pytest.raises(IllegalActionError, match="may not claim"):
        m.apply(Redeal(1, True))
    assert m.snapshot() == before
    for _ in range(4):
        m.apply(Redeal(m.turn, False))
    assert m.phase is Phase.CALL and m.turn == 1


def test_redeal_no_spade_automatic_seed_002_003() -> None:
    """003 variant / 002 misdeal: a hand without spades is redealt by the same dealer."""
    m = started(make_rules("callbreak", redeal_weak_hand="no_spade"),
                fill_deal({3: "2H 3H 4H 5H 6H 7H 8H 9H 10H 2C 3C 4C 5C"}), dealer=1)
    assert m.phase is Phase.DEAL and m.dealer == 1 and m.to_act == CHANCE
    assert m.redeal is not None and m.redeal.seat == 3 and "without spades" in m.redeal.reason


def test_redeal_one_suit_hand_seed_002() -> None:
    """002 misdeal rule: a hand of thirteen cards of one suit is redealt."""
    deal = fill_deal({0: "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"})
    m = started(make_rules("callbreak", redeal_one_suit_hand=True), deal, dealer=3)
    assert m.phase is Phase.DEAL and m.dealer == 3 and m.redeal is not None
    m2 = started("callbreak", deal, dealer=3)
    assert m2.phase is Phase.CALL  # off by default


def test_min_call_total_8_redeals_seed_000() -> None:
    """000: calls totalling less than 8 are thrown in and the same dealer redeals."""
    m = started("catsatcards", fill_deal({s: "AS" if s == 0 else "" for s in range(1)} | {
        1: "KS QH", 2: "QS KH", 3: "JS JH", 0: "AS AH"}), dealer=0)
    while m.phase is Phase.REDEAL_CLAIM:
        m.apply(Redeal(m.turn, False))
    call_all(m, [1, 2, 2, 2])
    assert m.phase is Phase.DEAL and m.dealer == 0 and m.redeal is not None
    assert m.redeal.reason == "calls total 7, under the minimum of 8"
    words = m.view(None).notice_words
    assert words is not None and say(words, "en") == m.redeal.reason
    assert say(words, "ne") == "कलको जम्मा ७, न्यूनतम ८ भन्दा कम"
    assert say(words, "bn") == "কলের মোট ৭, সর্বনিম্ন ৮-এর কম"
    assert say(words, "hi") == "कॉल का कुल 7, न्यूनतम 8 से कम"
    m.apply(fill_deal({1: "KS QH", 2: "QS KH", 3: "JS JH", 0: "AS AH"}))
    while m.phase is Phase.REDEAL_CLAIM:
        m.apply(Redeal(m.turn, False))
    call_all(m, [2, 2, 2, 2])
    assert m.phase is Phase.PLAY


def test_min_call_total_10_redeals_seed_002_003() -> None:
    """002, 003 variant: a total of 9 or less is redealt (minimum 10)."""
    m = started("call-bridge-simple", fill_deal({}), dealer=0)
    call_all(m, [2, 2, 2, 3])
    assert m.phase is Phase.DEAL and m.redeal is not None
    m.apply(fill_deal({}))
    call_all(m, [2, 2, 3, 3])
    assert m.phase is Phase.PLAY


def test_side_off_declaration_seed_003() -> None:
    """003 variant: after calling, a void is declared before the first lead (public)."""
    deal = fill_deal({2: "AS KS QS JS 10S AH KH QH JH 10H AD KD QD"})  # seat 2: no clubs
    m = started(make_rules("callbreak", side_off_declaration=True), deal)
    call_all(m, [1, 1, 1])
    assert m.view(0).voids(2) == frozenset()  # not yet: calls are not finished
    call_all(m, [1])
    assert m.view(0).voids(2) == {Suit.CLUBS}
    m2 = started("callbreak", deal)
    call_all(m2, [1, 1, 1, 1])
    assert m2.view(0).voids(2) == frozenset()


def _play_match(rules: Rules, seed: int, stop_after: int | None = None) -> Match:
    """A whole match: timer defaults for play, random calls (minimum calls could be redealt
    forever under min_call_total)."""
    m = Match(rules)
    d = Dealer(seed)
    rng = random.Random(seed)
    while not m.is_over:
        if m.to_act == CHANCE:
            stop = stop_after is not None and len(m.results) >= stop_after
            m.apply(d.chance(m, stop=stop))
        elif m.phase is Phase.CALL:
            m.apply(rng.choice([a for a in m.legal_actions() if isinstance(a, Call)]))
        else:
            m.apply(m.default_action())
    return m


@pytest.mark.parametrize(("deals", "seed_text"), [(5, "000/001/002"), (3, "004"), (7, "002"), (9, "002")])
def test_deals_fixed_number_seed_000_001_002_004(deals: int, seed_text: str) -> None:
    """000/001/002: 5 deals; 004: 3 or 5; 002: 7 or 9 for long sessions."""
    m = _play_match(make_rules("callbreak", deals=deals), seed=deals)
    assert len(m.results) == deals and m.phase is Phase.OVER


def test_deals_unlimited_until_stop_seed_003() -> None:
    """003 and 000's Call Bridge: no fixed end; the table stops between deals."""
    m = Match(make_rules("call-bridge", first_dealer="random"))
    m.apply(ChooseDealer(0))
    assert not m.can_stop
    with pytest.raises(WrongPhaseError):
        m.apply(Stop())
    m = _play_match(make_rules("call-bridge"), seed=3, stop_after=6)
    assert len(m.results) == 6 and m.is_over and m.winners


def _tied_after_one_deal(tie_break: str) -> tuple[Match, Dealer]:
    """A one-deal match whose top is tied (found by trying seeds; play is deterministic)."""
    rules = make_rules("callbreak", deals=1, tie_break=tie_break)
    for seed in range(500):
        m = Match(rules)
        d = Dealer(seed)
        m.apply(d.chance(m))
        m.apply(d.chance(m))
        while not m.results:
            m.apply(m.default_action())
        top = [s for s in range(4) if m.totals[s] == max(m.totals)]
        if len(top) > 1:
            return m, d
    raise AssertionError("no tie found")


def test_tie_break_shared_seed_002() -> None:
    """002: without the extra deal, a tie at the top is a shared win."""
    m, _ = _tied_after_one_deal("shared")
    assert m.is_over and len(m.winners) > 1


def test_tie_break_extra_deal_seed_002() -> None:
    """002: a tie at the top is broken by one extra deal among the tied players."""
    m, dealer = _tied_after_one_deal("extra_deal")
    tied = tuple(s for s in range(4) if m.totals[s] == max(m.totals))
    assert m.phase is Phase.DEAL and m.tiebreak_seats == tied and not m.is_over
    m.apply(dealer.chance(m))
    while not m.is_over:
        m.apply(m.default_action())
    assert len(m.results) == 2 and m.results[1].tiebreak
    best = max(m.results[1].points[s] for s in tied)
    assert m.winners == tuple(s for s in tied if m.results[1].points[s] == best)


def test_first_dealer_random_seed_004() -> None:
    """004: the first dealer is chosen at random (a chance action)."""
    m = Match(make_rules("567"))
    assert m.to_act == CHANCE and m.phase is Phase.DRAW
    m.apply(ChooseDealer(3))
    assert m.dealer == 3 and m.first_dealer == 3


def test_first_dealer_draw_lowest_ties_redraw_seed_000() -> None:
    """000: each draws a card, ties redraw, lowest card deals first."""
    m = Match(make_rules("catsatcards"))
    m.apply(Draw(cards=parse_cards("5H 5S KD AC")))  # tie (two fives): draw again
    assert m.phase is Phase.DRAW
    m.apply(Draw(cards=parse_cards("9H 3S KD AC")))
    assert m.dealer == 1
    with pytest.raises(WrongPhaseError):
        Match(make_rules("catsatcards")).apply(ChooseDealer(0))


def test_first_dealer_draw_highest_seed_002() -> None:
    """002: cut for the first dealer, highest card deals."""
    m = Match(make_rules("nepal-traditional"))
    m.apply(Draw(cards=parse_cards("9H 3S KD 2C")))
    assert m.dealer == 2


def test_turn_timer_default_actions_seed_004() -> None:
    """004: on time-out the engine plays the biggest legal card; a bid times out to the minimum."""
    m = started("567", fill_deal({1: "AH 2S", 2: "KH 3H 4S"}))
    assert m.rules.turn_timer is not None
    assert m.default_action() == Call(1, 1)
    call_all(m, [1, 1, 1, 1])
    assert m.default_action() == Play(1, parse_cards("AH")[0])
    play(m, "AH")
    assert m.default_action() == Play(2, parse_cards("KH")[0])  # biggest legal, not the spade


def test_partnership_scoring_seed_002() -> None:
    """002 variation: partners opposite; summed calls judged against summed tricks."""
    m = spades_deal_result("partnership", [1, 1, 1, 1])
    # Seats 1 and 3: 2 called, 13 won -> 2 + 1.1 = 3.1; seats 0 and 2: 2 called, 0 won -> -2.
    assert m.results[0].points == (-20, 31, -20, 31)


def test_trump_first_led_seed_002() -> None:
    """002 "No-trump Call Break": the first card led in the deal sets trump for that deal."""
    deal = fill_deal({1: "2H 3H", 2: "AS 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
                      3: "KH 2C", 0: "AH"})
    m = started("no-trump", deal)
    call_all(m, [1, 1, 1, 1])
    assert m.view(0).trump is None
    play(m, "2H")
    assert m.view(0).trump is Suit.HEARTS
    play(m, "AS")  # seat 2 is void in hearts; its spade is no trump now
    play(m, "KH AH")
    assert m.tricks[0].winner == 0


def test_stakes_settlement_seed_004() -> None:
    """004: winners take the losers' stakes less 5% commission, split between tied winners."""
    assert settle_stakes([1], 4, 10, 0.05) == (-10.0, 28.5, -10.0, -10.0)
    assert settle_stakes([0, 3], 4, 10, 0.05) == (9.5, -10.0, -10.0, 9.5)
    m = _play_match(make_rules("567"), seed=4)
    assert m.chips is not None and sum(m.chips) == pytest.approx(-10 * (4 - len(m.winners)) * 0.05)


# --- section 3: presets --------------------------------------------------------------------


def test_preset_callbreak_seed_000_002_004() -> None:
    r = preset("callbreak").rules
    assert (r.min_call, r.max_call, r.follow_must_beat, r.void_rule, r.scoring, r.deals,
            r.min_call_total, r.redeal_weak_hand) == (
        1, 13, True, VoidRule.TRUMP_IF_WINNING, Scoring.TENTHS, 5, None, WeakHand.OFF)
    assert make_rules() == r


def test_preset_nepal_traditional_seed_002() -> None:
    r = preset("nepal-traditional").rules
    assert (r.min_call, r.max_call, r.follow_must_beat, r.void_rule, r.spade_lead_first_trick,
            r.scoring, r.deals, r.tie_break) == (
        2, 13, True, VoidRule.MUST_TRUMP, SpadeLead.FORBIDDEN, Scoring.TENTHS, 5, TieBreak.EXTRA_DEAL)


def test_preset_catsatcards_seed_000() -> None:
    r = preset("catsatcards").rules
    assert (r.min_call, r.max_call, r.follow_must_beat, r.void_rule, r.scoring, r.deals,
            r.redeal_weak_hand, r.min_call_total, r.first_dealer) == (
        1, 13, True, VoidRule.TRUMP_IF_WINNING, Scoring.TENTHS, 5, WeakHand.NO_SPADE_OR_NO_FACE, 8,
        FirstDealer.DRAW_LOWEST)


def test_preset_call_bridge_seed_003() -> None:
    r = preset("call-bridge").rules
    assert (r.min_call, r.max_call, r.follow_must_beat, r.void_rule, r.scoring, r.bonus_call,
            r.deals) == (2, 12, False, VoidRule.TRUMP_IF_WINNING, Scoring.EXACT_OR_ONE_OVER,
                         BonusCall(threshold=8, points=13), None)


def test_preset_call_bridge_simple_seed_003() -> None:
    r = preset("call-bridge-simple").rules
    assert (r.min_call, r.max_call, r.scoring, r.bonus_call, r.min_call_total,
            r.spade_lead_first_trick) == (2, 8, Scoring.AT_LEAST, BonusCall(threshold=8, points=13),
                                          10, SpadeLead.FORBIDDEN)


def test_preset_567_seed_004() -> None:
    r = preset("567").rules
    assert (r.min_call, r.max_call, r.follow_must_beat, r.void_rule, r.scoring, r.blind_call,
            r.deals in (3, 5), r.turn_timer is not None, r.stakes) == (
        1, 8, True, VoidRule.TRUMP_IF_WINNING, Scoring.TENTHS, True, True, True,
        Stakes(stake=10, commission=0.05))


def test_preset_bhoos_tournament_dealer_of_deal_r_seed_004() -> None:
    """The tournament protocol's rules: as callbreak, max 8; dealer of deal r is seat (r-1) mod 4."""
    r = preset("bhoos-tournament").rules
    assert r == make_rules("callbreak", max_call=8, first_dealer="seat_0")
    m = _play_match(r, seed=11)
    assert [res.dealer for res in m.results] == [0, 1, 2, 3, 0]


def test_preset_partnership_seed_002() -> None:
    assert preset("partnership").rules == make_rules("callbreak", partnership=True)


def test_preset_no_trump_seed_002() -> None:
    assert preset("no-trump").rules == make_rules("callbreak", trump=Trump.FIRST_LED)


def test_every_preset_plays_to_the_end_all_seeds() -> None:
    """Every preset of section 3 plays a whole match with the timer's default actions."""
    for i, name in enumerate(("callbreak", "nepal-traditional", "catsatcards", "call-bridge",
                              "call-bridge-simple", "567", "bhoos-tournament", "partnership",
                              "no-trump")):
        rules = preset(name).rules
        m = _play_match(rules, seed=i, stop_after=2)
        assert m.is_over and m.winners


def test_spade_lead_to_trick_1_shows_only_spades_seed_002_003() -> None:
    """002/003 variant: a spade led to trick 1 tells the table the leader holds only spades."""
    m = started("nepal-traditional", fill_deal({1: ALL_SPADES}))
    call_all(m, [2, 2, 2, 2])
    play(m, "2S")
    assert m.view(0).voids(1) == {Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS}
    m2 = started("callbreak", fill_deal({1: ALL_SPADES}))
    call_all(m2, [1, 1, 1, 1])
    play(m2, "2S")
    assert m2.view(0).voids(1) == frozenset()  # spade leads allowed: nothing learnt


def test_following_low_under_must_beat_caps_the_suit_seed_000_002_004() -> None:
    """000/002/004: following below the highest card shows no higher card of the suit is held."""
    deal = fill_deal({1: "10H " + " ".join(ALL_SPADES.split()[:12]),
                      2: "JH 4H AD KD QD JD 10D 9D 8D 7D 6D 5D 4D",
                      3: "2H 3H KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C"})
    m = started("callbreak", deal)
    call_all(m, [1, 1, 1, 1])
    play(m, "10H JH 2H")
    assert m.view(0).caps[3][Suit.HEARTS] < parse_cards("QH")[0]
    assert m.view(0).caps[2][Suit.HEARTS] == parse_cards("AH")[0]  # beat it: nothing learnt
