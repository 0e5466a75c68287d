"""Batak Ihaleli and Batak Koz Maca: each rule of RULES.md section 4 (seed 000)."""

from __future__ import annotations

import pytest
from games_helpers import fill_deal, play_seq, random_playout

from callbreak.core.actions import Bid, NameTrump, Pass, Play
from callbreak.core.cards import Card, Suit, parse_cards
from callbreak.core.errors import CallOutOfRangeError, IllegalActionError, IllegalPlayError, RulesError
from callbreak.core.game import Phase
from callbreak.games import BatakIhaleli, BatakKozMaca
from callbreak.i18n import say

HEARTS12 = "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H"
CLUBS = [c.text for c in parse_cards("AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C")]


def legal_cards(g: BatakIhaleli | BatakKozMaca) -> set[str]:
    return {a.card.text for a in g.legal_actions() if isinstance(a, Play)}


def play_out_hand(g: BatakIhaleli | BatakKozMaca) -> None:
    while g.phase is Phase.PLAY:
        g.apply(g.legal_actions()[0])


def test_seed000_batak_auction_starts_at_dealers_left_and_a_pass_is_final() -> None:
    g = BatakIhaleli()
    g.apply(fill_deal(g, {}))
    assert g.phase is Phase.AUCTION and g.dealer == 0
    assert g.turn == 3  # the dealer's left, with play going to the right (seat + 1)
    assert [a.tricks for a in g.legal_actions() if isinstance(a, Bid)] == list(range(5, 14))
    play_seq(g, [Bid(3, 5), Bid(0, 6), Pass(1), Bid(2, 7), Bid(3, 8)])
    assert g.turn == 0
    g.apply(Pass(0))
    assert g.turn == 2  # seat 1 passed and is skipped for good
    g.apply(Pass(2))
    assert g.phase is Phase.TRUMP and g.declarer == 3 and g.contract == 8 and g.turn == 3


def test_seed000_batak_bids_must_be_5_to_13_and_higher_than_the_last() -> None:
    g = BatakIhaleli()
    g.apply(fill_deal(g, {}))
    with pytest.raises(CallOutOfRangeError):
        g.apply(Bid(3, 4))
    g.apply(Bid(3, 6))
    before = g.snapshot()
    for bad in (6, 5, 14):
        with pytest.raises(CallOutOfRangeError):
            g.apply(Bid(0, bad))
    assert g.snapshot() == before


def test_seed000_batak_dealer_takes_it_at_4_when_everyone_passes() -> None:
    g = BatakIhaleli()
    g.apply(fill_deal(g, {}))
    play_seq(g, [Pass(3), Pass(0), Pass(1), Pass(2)])
    assert g.declarer == 0 and g.contract == 4 and g.phase is Phase.TRUMP
    # The English notice is the engine's (seats from 0), as records and logs keep it; each
    # reader's language says it from its words, seats from 1, numbers in the language's digits.
    notice = g.view(None).notice_words
    assert g.notice == "everyone passed: the dealer (seat 0) takes it at 4"
    assert notice is not None and say(notice, "en") == "everyone passed: the dealer (seat 1) takes it at 4"
    assert say(notice, "ne") == "सबैले पास गरे: डिलर (सिट १) ले ४ मा लिन्छ"
    assert say(notice, "hi") == "सबने पास किया: डीलर (सीट 1) 4 पर लेता है"
    assert say(notice, "bn") == "সবাই পাস দিল: ডিলার (আসন ১) ৪-এ নেয়"


def test_seed000_batak_dealer_speaking_last_must_bid_at_least_4_after_three_passes() -> None:
    g = BatakIhaleli(auction_start="right")
    g.apply(fill_deal(g, {}))
    assert g.turn == 1
    play_seq(g, [Pass(1), Pass(2), Pass(3)])
    assert [a.tricks for a in g.legal_actions()] == list(range(4, 14))  # type: ignore[union-attr]
    with pytest.raises(IllegalActionError, match="must bid"):
        g.apply(Pass(0))
    g.apply(Bid(0, 4))
    assert g.declarer == 0 and g.contract == 4


def test_seed000_batak_high_bidder_names_trump_and_leads_and_trump_waits_until_broken() -> None:
    g = BatakIhaleli()
    g.apply(fill_deal(g, {0: HEARTS12 + " 2C", 1: " ".join(CLUBS[:12]) + " 2H",
                          2: "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"}))
    play_seq(g, [Pass(3), Bid(0, 5), Pass(1), Pass(2)])
    g.apply(NameTrump(0, Suit.HEARTS))
    assert g.phase is Phase.PLAY and g.turn == 0
    assert legal_cards(g) == {"2C"}  # hearts may not lead before a heart is played
    with pytest.raises(IllegalPlayError):
        g.apply(Play(0, Card.parse("AH")))
    g.apply(Play(0, Card.parse("2C")))
    assert legal_cards(g) == set(CLUBS[:12])  # seat 1 follows and beats
    g.apply(Play(1, Card.parse("3C")))
    g.apply(Play(2, Card.parse("2S")))  # void, no trump: any card
    g.apply(Play(3, Card.parse("2D")))
    assert g.tricks[-1].winner == 1 and not g.trump_broken
    assert "2H" not in legal_cards(g)  # seat 1 may not lead its heart yet
    g.apply(Play(1, Card.parse("4C")))
    g.apply(Play(2, Card.parse("3S")))
    g.apply(Play(3, Card.parse("3D")))
    assert legal_cards(g) == set(HEARTS12.split())  # void in clubs: must trump
    g.apply(Play(0, Card.parse("3H")))
    assert g.trump_broken and g.tricks[-1].winner == 0


def test_seed000_batak_a_hand_of_only_trumps_may_lead_trump() -> None:
    g = BatakIhaleli()
    g.apply(fill_deal(g, {0: HEARTS12 + " 2H"}))
    play_seq(g, [Pass(3), Bid(0, 5), Pass(1), Pass(2), NameTrump(0, Suit.HEARTS)])
    assert len(legal_cards(g)) == 13


def koz_maca_overtrump_deal(g: BatakKozMaca) -> None:
    g.apply(fill_deal(g, {
        1: "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
        2: "KS QS QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
        3: "AS JS 2S QC JC 10C 9C 8C 7C 6C 5C 4C 3C",
        0: "10S 9S 8S 7S 6S 5S 4S 3S AH KH AC KC 2C",
    }))


def test_seed000_batak_must_follow_and_beat_must_trump_and_overtrump() -> None:
    g = BatakKozMaca()
    koz_maca_overtrump_deal(g)
    play_seq(g, [Bid(1, 1), Bid(2, 1), Bid(3, 2), Bid(0, 2)])
    assert g.turn == 1
    g.apply(Play(1, Card.parse("2D")))
    assert legal_cards(g) == {"KS", "QS"}  # void: must trump
    g.apply(Play(2, Card.parse("QS")))
    assert legal_cards(g) == {"AS"}  # and overtrump if able
    g.apply(Play(3, Card.parse("AS")))
    assert legal_cards(g) == {"10S", "9S", "8S", "7S", "6S", "5S", "4S", "3S"}  # cannot overtrump: any trump
    g.apply(Play(0, Card.parse("3S")))
    assert g.tricks[-1].winner == 3
    g.apply(Play(3, Card.parse("10C")))
    assert legal_cards(g) == {"KC", "AC"}  # follow suit and beat: not the 2
    g.apply(Play(0, Card.parse("KC")))
    assert len(legal_cards(g)) == 12  # void, no trump: any card
    g.apply(Play(1, Card.parse("3D")))
    assert legal_cards(g) == {"KS"}


def test_seed000_batak_ihaleli_scoring_bidder_and_defenders() -> None:
    made = BatakIhaleli()
    made.apply(fill_deal(made, {0: HEARTS12 + " 2H"}))
    play_seq(made, [Pass(3), Bid(0, 7), Pass(1), Pass(2), NameTrump(0, Suit.HEARTS)])
    play_out_hand(made)
    assert made.results[-1].won == (13, 0, 0, 0)
    assert list(made.scores) == [7, -7, -7, -7]  # defenders with no trick lose the high bid
    failed = BatakIhaleli()
    failed.apply(fill_deal(failed, {0: "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
                                    1: HEARTS12 + " 2H", 2: " ".join(CLUBS)}))
    play_seq(failed, [Pass(3), Bid(0, 5), Pass(1), Pass(2), NameTrump(0, Suit.HEARTS)])
    play_out_hand(failed)
    assert failed.results[-1].won == (0, 13, 0, 0)
    assert list(failed.scores) == [-5, 13, -5, -5]  # the bidder fails; a defender scores its tricks
    note = failed.results[-1]
    assert note.note == "seat 0 fails a bid of 5 with 0 tricks" and note.words is not None
    assert say(note.words, "bn") == "আসন ১ ০ পিঠ জিতে ৫-এর ডাক পূরণ করতে পারল না"
    made_words = made.results[-1].words
    assert made_words is not None and say(made_words, "ne") == "सिट १ ले १३ हात जितेर ७ को बोली पुर्‍यायो"


def test_seed000_batak_koz_maca_calls_once_from_dealers_right_with_spades_trump() -> None:
    g = BatakKozMaca()
    g.apply(fill_deal(g, {1: HEARTS12 + " 2H", 2: " ".join(CLUBS),
                          3: "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"}))
    assert g.trump == Suit.SPADES and g.turn == 1
    with pytest.raises(IllegalActionError):
        g.apply(Pass(1))  # no passing in Koz Maca
    with pytest.raises(CallOutOfRangeError):
        g.apply(Bid(1, 0))
    play_seq(g, [Bid(1, 1), Bid(2, 1), Bid(3, 13), Bid(0, 2)])
    assert g.phase is Phase.PLAY and g.turn == 1  # the dealer's right leads
    play_out_hand(g)
    assert g.results[-1].won == (0, 0, 0, 13)
    assert list(g.scores) == [-2, -1, -1, 13]  # at least the call scores it, else minus the call


@pytest.mark.parametrize("cls", [BatakIhaleli, BatakKozMaca])
def test_seed000_batak_is_ten_hands_and_the_highest_total_wins(cls: type) -> None:
    g = cls()
    random_playout(g, seed=4)
    assert len(g.results) == 10 and g.is_over
    best = max(g.scores)
    assert g.winners == tuple(s for s in range(4) if g.scores[s] == best)
    dealers = [r.dealer for r in g.results]
    assert dealers == [i % 4 for i in range(10)]  # the deal passes in the direction of play


def test_seed000_batak_is_for_four_players() -> None:
    for n in (3, 5):
        with pytest.raises(RulesError, match="4-4 players"):
            BatakIhaleli(n)
    with pytest.raises(RulesError, match="forced_bid"):
        BatakIhaleli(forced_bid=6)


def test_seed000_koz_maca_first_lead_option_lets_the_highest_caller_lead() -> None:
    g = BatakKozMaca(first_lead="highest_call")
    g.apply(fill_deal(g, {}))
    play_seq(g, [Bid(1, 3), Bid(2, 5), Bid(3, 5), Bid(0, 2)])
    assert g.turn == 2  # the earlier of the two fives


def test_seed000_batak_after_a_trump_on_a_side_suit_lead_any_card_of_the_suit_and_void_still_trumps() -> None:
    """Following cannot beat a trick already trumped, so any card of the led suit will do; a void
    player who cannot overtrump must still play a trump (RULES.md section 4, Batak Ihaleli)."""
    g = BatakIhaleli()
    g.apply(fill_deal(g, {0: "2C AH KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D",
                          1: "KH AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S",
                          2: "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2S",
                          3: "QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H AD 2D"}))
    play_seq(g, [Pass(3), Bid(0, 5), Pass(1), Pass(2), NameTrump(0, Suit.HEARTS)])
    g.apply(Play(0, Card.parse("2C")))
    assert legal_cards(g) == {"KH"}  # void in clubs: must trump
    g.apply(Play(1, Card.parse("KH")))
    assert legal_cards(g) == set(CLUBS[:12])  # trumped: any club, not only one that beats the 2
    g.apply(Play(2, Card.parse("3C")))
    hearts = {c.text for c in parse_cards("QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H")}
    assert legal_cards(g) == hearts  # cannot overtrump the king, must still trump
    before = g.snapshot()
    with pytest.raises(IllegalPlayError):
        g.apply(Play(3, Card.parse("AD")))
    assert g.snapshot() == before
    g.apply(Play(3, Card.parse("2H")))
    assert g.tricks[-1].winner == 1
