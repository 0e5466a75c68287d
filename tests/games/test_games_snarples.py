"""Snarples: each rule of RULES.md section 4 (seed 000)."""

from __future__ import annotations

import pytest
from games_helpers import fill_deal, play_seq, random_playout

from callbreak.core.actions import Bid, Join, NameTrump, Pass, Play, Settle
from callbreak.core.cards import Card, Suit
from callbreak.core.dealing import Dealer
from callbreak.core.errors import CallOutOfRangeError, RulesError, WrongPhaseError
from callbreak.core.game import Phase
from callbreak.core.scoring import tenths
from callbreak.games import Snarples
from callbreak.i18n import say


def play_out_hand(g: Snarples) -> None:
    while g.phase is Phase.PLAY:
        g.apply(g.legal_actions()[0])


def test_seed000_snarples_is_for_3_to_8_players_with_five_cards_each() -> None:
    for n in range(3, 9):
        g = Snarples(n)
        g.apply(Dealer(n).chance(g))
        assert [h.bit_count() for h in g.hands] == [5] * n
    for n in (2, 9):
        with pytest.raises(RulesError):
            Snarples(n)


def test_seed000_snarples_one_round_of_bidding_from_dealers_left_each_bid_higher() -> None:
    g = Snarples(4)
    g.apply(fill_deal(g, {}))
    assert g.turn == 1 and list(g.scores) == [16] * 4
    g.apply(Bid(1, 2))
    with pytest.raises(CallOutOfRangeError):
        g.apply(Bid(2, 2))
    with pytest.raises(CallOutOfRangeError):
        g.apply(Bid(2, 6))
    play_seq(g, [Bid(2, 3), Pass(3), Pass(0)])
    assert g.phase is Phase.TRUMP and g.declarer == 2 and g.contract == 3


def test_seed000_snarples_all_pass_the_same_dealer_deals_again() -> None:
    g = Snarples(4)
    g.apply(fill_deal(g, {}))
    play_seq(g, [Pass(1), Pass(2), Pass(3), Pass(0)])
    assert g.phase is Phase.DEAL and g.dealer == 0 and not g.results
    assert g.notice == "everyone passed: the same dealer deals again"
    words = g.view(2).notice_words
    assert words is not None and say(words, "en") == g.notice
    assert say(words, "hi") == "सबने पास किया: वही डीलर फिर से बाँटता है"
    assert say(words, "ne") == "सबैले पास गरे: उही डिलरले फेरि बाँड्छ"
    g.apply(fill_deal(g, {}))
    assert g.notice == "" and g.view(2).notice_words is None  # a new deal clears it


def test_seed000_snarples_others_choose_to_play_or_sit_out_from_dealers_left() -> None:
    g = Snarples(4)
    g.apply(fill_deal(g, {}))
    play_seq(g, [Pass(1), Bid(2, 2), Pass(3), Pass(0), NameTrump(2, Suit.HEARTS)])
    assert g.phase is Phase.JOIN and g.turn == 1  # from the dealer's left, skipping the bidder
    play_seq(g, [Join(1, True), Join(3, False), Join(0, True)])
    assert g.phase is Phase.PLAY and g.turn == 2  # the high bidder leads
    assert g.active == [True, True, True, False]


@pytest.mark.parametrize("bid, trump", [(1, Suit.HEARTS), (3, Suit.SPADES)])
def test_seed000_snarples_bid_of_one_or_spades_trump_forces_everyone_to_play(bid: int, trump: Suit) -> None:
    g = Snarples(4)
    g.apply(fill_deal(g, {}))
    play_seq(g, [Bid(1, bid), Pass(2), Pass(3), Pass(0), NameTrump(1, trump)])
    assert g.phase is Phase.PLAY and g.active == [True] * 4
    with pytest.raises(WrongPhaseError):
        g.apply(Join(2, False))


def scripted_hand(g: Snarples, dealer: Dealer, sitter: int) -> bool:
    """First speaker bids 2, the rest pass, hearts trump, ``sitter`` sits out if asked.
    Returns whether ``sitter`` was asked."""
    g.apply(dealer.chance(g))
    g.apply(Bid(g.turn, 2))
    while g.phase is Phase.AUCTION:
        g.apply(Pass(g.turn))
    g.apply(NameTrump(g.turn, Suit.HEARTS))
    asked = False
    while g.phase is Phase.JOIN:
        asked = asked or g.turn == sitter
        g.apply(Join(g.turn, g.turn != sitter))
    play_out_hand(g)
    return asked


def test_seed000_snarples_nobody_sits_out_three_hands_in_a_row() -> None:
    g = Snarples(4)
    d = Dealer(9)
    sitter = 3  # never the first to speak in the first three hands (dealers 0, 1, 2)
    assert scripted_hand(g, d, sitter) and scripted_hand(g, d, sitter)
    assert g.streak[sitter] == 2
    assert not scripted_hand(g, d, sitter)  # not asked: must play
    assert g.results[-1].active[sitter] and g.streak[sitter] == 0


def test_seed000_snarples_sitting_out_at_3_or_less_adds_1() -> None:
    g = Snarples(4)
    g.totals[3] = 30
    g.totals[0] = 40
    g.apply(fill_deal(g, {}))
    play_seq(g, [Bid(1, 2), Pass(2), Pass(3), Pass(0), NameTrump(1, Suit.HEARTS),
                 Join(2, True), Join(3, False), Join(0, False)])
    play_out_hand(g)
    assert g.results[-1].points[3] == 10 and g.results[-1].points[0] == 0  # tenths: +1 point


def test_seed000_snarples_scoring_made_bid_punted_bid_and_trickless_opponent() -> None:
    g = Snarples(3)
    # Seat 1 holds the top hearts and bids 3 with hearts trump; seat 2 sits in with nothing.
    g.apply(fill_deal(g, {1: "AH KH QH JH 10H", 2: "2C 3C 4C 5C 6C", 0: "2D 3D 4D 5D 6D"}))
    play_seq(g, [Bid(1, 3), Pass(2), Pass(0), NameTrump(1, Suit.HEARTS), Join(2, True), Join(0, True)])
    play_out_hand(g)
    assert g.results[-1].won == (0, 5, 0)
    assert list(g.scores) == [21, 11, 21]  # bidder -5 (tricks won); trickless players +5
    g2 = Snarples(3)
    g2.apply(fill_deal(g2, {1: "2H 3H 4H 5H 6H", 2: "AH KH QH JH 10H", 0: "2D 3D 4D 5D 6D"}))
    play_seq(g2, [Bid(1, 2), Pass(2), Pass(0), NameTrump(1, Suit.HEARTS), Join(2, True), Join(0, False)])
    play_out_hand(g2)
    assert g2.results[-1].won == (0, 0, 5)
    assert list(g2.scores) == [16, 21, 11]  # punted +5; opponent -1 a trick; sitter unchanged


@pytest.mark.parametrize("penalize_others", [False, True])
def test_seed000_snarples_everyone_sits_out_the_bidder_chooses(penalize_others: bool) -> None:
    g = Snarples(4)
    g.apply(fill_deal(g, {}))
    play_seq(g, [Bid(1, 2), Pass(2), Pass(3), Pass(0), NameTrump(1, Suit.HEARTS),
                 Join(2, False), Join(3, False), Join(0, False)])
    assert g.phase is Phase.SETTLE and g.turn == 1
    g.apply(Settle(1, penalize_others))
    expected = [21, 16, 21, 21] if penalize_others else [16, 11, 16, 16]
    assert list(g.scores) == expected and g.phase is Phase.DEAL and g.dealer == 1


def test_seed000_snarples_follow_suit_void_any_card() -> None:
    g = Snarples(3)
    g.apply(fill_deal(g, {1: "AC KC QC JC 10C", 2: "2H 3H 4H 5H 6H", 0: "2C 3D 4D 5D 6D"}))
    play_seq(g, [Bid(1, 2), Pass(2), Pass(0), NameTrump(1, Suit.HEARTS), Join(2, True), Join(0, True)])
    g.apply(Play(1, Card.parse("AC")))
    assert {a.card.text for a in g.legal_actions()} == {"2H", "3H", "4H", "5H", "6H"}  # type: ignore[union-attr]
    g.apply(Play(2, Card.parse("2H")))
    assert {a.card.text for a in g.legal_actions()} == {"2C"}  # type: ignore[union-attr]


def test_seed000_snarples_spade_out_wins_at_once() -> None:
    g = Snarples(4)
    g.apply(fill_deal(g, {2: "AS KS QS JS 10S"}))
    play_seq(g, [Pass(1), Bid(2, 5), Pass(3), Pass(0), NameTrump(2, Suit.SPADES)])
    play_out_hand(g)
    assert g.is_over and g.winners == (2,) and g.scores[2] == 11


def test_seed000_snarples_33_drops_out_and_0_or_less_ends_with_lowest_winning() -> None:
    g = Snarples(4)
    g.totals[:] = tenths([20, 1, 30, 20])
    g.apply(fill_deal(g, {1: "AH KH QH JH 10H", 2: "2C 3C 4C 5C 6C"}))
    play_seq(g, [Bid(1, 1), Pass(2), Pass(3), Pass(0), NameTrump(1, Suit.HEARTS)])
    play_out_hand(g)
    assert list(g.scores) == [25, -4, 35, 25]
    assert not g.in_game[2]
    assert g.is_over and g.winners == (1,)
    g2 = Snarples(3)
    g2.totals[:] = tenths([16, 16, 30])
    g2.apply(fill_deal(g2, {1: "AH KH QH JH 10H", 2: "2C 3C 4C 5C 6C"}))
    play_seq(g2, [Bid(1, 1), Pass(2), Pass(0), NameTrump(1, Suit.HEARTS)])
    play_out_hand(g2)
    assert g2.in_game == [True, True, False] and not g2.is_over
    deal = Dealer(1).chance(g2)
    assert len(deal.hands[2]) == 0  # a dropped player is dealt no more
    g2.apply(deal)
    assert g2.turn == 0  # seat 2 (left of dealer 1) is out of the game: seat 0 bids first


def test_seed000_snarples_random_games_end_with_the_lowest_score_or_a_spade_out() -> None:
    for seed in range(6):
        g = Snarples(5)
        random_playout(g, seed)
        last = g.results[-1]
        spade_out = last.trump is Suit.SPADES and 5 in last.won
        if not spade_out:
            left = [s for s in range(5) if g.in_game[s]]
            assert any(g.scores[s] <= 0 for s in left) or len(left) <= 1
            assert all(g.scores[w] == min(g.scores[s] for s in left or g.winners) for w in g.winners)
