"""Donut and Horsethief: each rule of RULES.md section 4 (seed 000)."""

from __future__ import annotations

import pytest
from games_helpers import fill_deal, play_seq

from callbreak.core.actions import Exchange, Join, NameTrump, Play
from callbreak.core.cards import Card, Suit, parse_cards
from callbreak.core.dealing import Dealer
from callbreak.core.errors import IllegalActionError, IllegalPlayError, RulesError
from callbreak.core.game import Phase
from callbreak.core.scoring import tenths
from callbreak.games import Donut, Horsethief
from callbreak.games.base import ContractGame


def play_out_hand(g: ContractGame) -> None:
    while g.phase is Phase.PLAY:
        g.apply(g.legal_actions()[0])


def donut_with_upcard(up: str, scores: list[int] | None = None, players: int = 4) -> Donut:
    g = Donut(players)
    if scores:
        g.totals[:] = tenths(scores)
    g.apply(fill_deal(g, {0: f"{up} 2D 3D 4D 5D" if not up.endswith("D") else f"{up} 2S 3S 4S 5S"},
                      upcard=up))
    return g


# --- Donut -----------------------------------------------------------------------------------


def test_seed000_donut_is_for_4_to_6_players_and_the_dealers_fifth_card_is_face_up() -> None:
    for n in (4, 5, 6):
        g = Donut(n)
        deal = Dealer(n).chance(g)
        assert deal.upcard in deal.hands[g.dealer]
        g.apply(deal)
        assert g.view(1).upcard == deal.upcard
    for n in (3, 7):
        with pytest.raises(RulesError):
            Donut(n)
    g = Donut(4)
    with pytest.raises(IllegalActionError, match="upcard"):
        g.apply(fill_deal(g, {0: "2H 3H 4H 5H 6H"}, upcard="AS"))


@pytest.mark.parametrize("up", ["4H", "5H", "7H", "8H", "JH", "QH", "KH", "AH"])
def test_seed000_donut_upcard_sets_trump_and_allows_drops(up: str) -> None:
    g = donut_with_upcard(up)
    assert g.trump == Suit.HEARTS and g.phase is Phase.JOIN and g.turn == 1 and g.may_sit_out


def test_seed000_donut_upcard_2_dealer_names_trump_no_drops() -> None:
    g = donut_with_upcard("2H")
    assert g.phase is Phase.TRUMP and g.turn == 0
    g.apply(NameTrump(0, Suit.CLUBS))
    assert g.trump == Suit.CLUBS and g.phase is Phase.PLAY and g.active == [True] * 4


def test_seed000_donut_upcard_3_highest_scorer_names_trump_or_on_a_tie_upcard_suit_with_drops() -> None:
    g = donut_with_upcard("3H", scores=[15, 12, 14, 9])
    assert g.phase is Phase.TRUMP and g.turn == 0
    g = donut_with_upcard("3H", scores=[10, 12, 14, 9])
    assert g.phase is Phase.TRUMP and g.turn == 2
    g = donut_with_upcard("3H", scores=[10, 14, 14, 9])
    assert g.phase is Phase.JOIN and g.trump == Suit.HEARTS


@pytest.mark.parametrize("up, trump, reversed_ranks", [("6H", None, True), ("9H", None, False),
                                                      ("10H", Suit.HEARTS, False)])
def test_seed000_donut_upcards_6_9_10_no_drops(up: str, trump: Suit | None, reversed_ranks: bool) -> None:
    g = donut_with_upcard(up)
    assert g.phase is Phase.PLAY and g.active == [True] * 4 and not g.may_sit_out
    assert g.view(2).trump == trump and g.low_high == reversed_ranks
    assert g.turn == 1  # the dealer's left leads


def test_seed000_donut_6_reverses_ranks_so_the_2_wins() -> None:
    g = Donut(4)
    g.apply(fill_deal(g, {0: "6H AC 2D 3D 4D", 1: "KC 5S 6S 7S 8S", 2: "2C 9S 10S JS QS",
                          3: "QC KS AS 2H 3H"}, upcard="6H"))
    play_seq(g, [Play(1, Card.parse("KC")), Play(2, Card.parse("2C")), Play(3, Card.parse("QC")),
                 Play(0, Card.parse("AC"))])
    assert g.tricks[-1].winner == 2


def test_seed000_donut_dealer_always_plays_and_alone_takes_3_off() -> None:
    g = donut_with_upcard("AH")
    play_seq(g, [Join(1, False), Join(2, False)])
    with pytest.raises(IllegalActionError):
        g.apply(Join(0, False))  # the dealer is not asked
    g.apply(Join(3, False))
    assert g.results[-1].points == tenths((-3, 0, 0, 0)) and list(g.scores) == [12, 15, 15, 15]
    assert g.phase is Phase.DEAL and g.dealer == 1


def test_seed000_donut_minus_one_a_trick_a_donut_adds_3_droppers_score_nothing() -> None:
    g = Donut(4)
    g.apply(fill_deal(g, {0: "AH KH QH JH 10H", 1: "2C 3C 4C 5C 6C", 2: "AS KS QS JS 10S"}, upcard="AH"))
    play_seq(g, [Join(1, True), Join(2, False), Join(3, True)])
    assert g.turn == 1
    play_out_hand(g)
    assert g.results[-1].won == (5, 0, 0, 0)
    assert g.results[-1].points == tenths((-5, 3, 0, 3))


def test_seed000_donut_first_to_0_wins_lowest_if_several_equal_lowest_draw() -> None:
    g = Donut(4)
    g.totals[:] = tenths([5, 2, 2, 9])
    g.apply(fill_deal(g, {0: "AD KD QD 2S 3S", 1: "AH KH 4C 5C 6C", 2: "QH JH 7C 8C 9C",
                          3: "10H 9H 10C JC QC"}, upcard="AD"))
    play_seq(g, [Join(1, True), Join(2, True), Join(3, True)])
    play_seq(g, [Play(1, Card.parse("AH")), Play(2, Card.parse("QH")), Play(3, Card.parse("9H")),
                 Play(0, Card.parse("2S")),
                 Play(1, Card.parse("KH")), Play(2, Card.parse("JH")), Play(3, Card.parse("10H")),
                 Play(0, Card.parse("3S"))])
    play_seq(g, [Play(1, Card.parse("4C")), Play(2, Card.parse("9C")), Play(3, Card.parse("10C")),
                 Play(0, Card.parse("AD"))])
    play_seq(g, [Play(0, Card.parse("KD")), Play(1, Card.parse("5C")), Play(2, Card.parse("8C")),
                 Play(3, Card.parse("JC"))])
    play_seq(g, [Play(0, Card.parse("QD")), Play(1, Card.parse("6C")), Play(2, Card.parse("7C")),
                 Play(3, Card.parse("QC"))])
    assert g.results[-1].won == (3, 2, 0, 0)
    assert list(g.scores) == [2, 0, 5, 12]
    assert g.is_over and g.winners == (1,)
    draw = Donut(4)
    draw.totals[:] = tenths([2, 1, 9, 9])
    draw.apply(fill_deal(draw, {0: "AH 2D 3D 4D 5D", 1: "AS KS 2C 3C 4C"}, upcard="AH"))
    play_seq(draw, [Join(1, True), Join(2, False), Join(3, False)])
    plays = ["1 AS", "0 2D", "1 KS", "0 3D", "1 2C", "0 AH", "0 4D", "1 3C", "0 5D", "1 4C"]
    play_seq(draw, [Play(int(p[0]), Card.parse(p[2:])) for p in plays])
    assert draw.results[-1].won == (3, 2, 0, 0) and list(draw.scores[:2]) == [-1, -1]
    assert draw.is_over and draw.winners == (0, 1)  # equal lowest: a draw between them


# --- Horsethief --------------------------------------------------------------------------------


def thief(up: str, players: int = 3, **hands: str) -> Horsethief:
    g = Horsethief(players)
    g.apply(fill_deal(g, {int(k[1:]): v for k, v in hands.items()}, upcard=up))
    return g


def test_seed000_horsethief_is_for_3_to_5_players_and_the_turned_stock_card_is_trump() -> None:
    for n in (3, 4, 5):
        g = Horsethief(n)
        deal = Dealer(n).chance(g)
        assert len(deal.stock) == 52 - 5 * n - 1
        g.apply(deal)
        assert g.trump == deal.upcard.suit  # type: ignore[union-attr]
        assert g.view(0).stock_size == len(deal.stock)
    for n in (2, 6):
        with pytest.raises(RulesError):
            Horsethief(n)


def test_seed000_horsethief_in_or_out_from_dealers_left_and_clubs_force_all_in() -> None:
    g = thief("AH")
    assert g.phase is Phase.JOIN and g.turn == 1
    play_seq(g, [Join(1, True), Join(2, False), Join(0, True)])
    assert g.phase is Phase.EXCHANGE and g.turn == 1 and g.active == [True, True, False]
    clubs = thief("AC")
    assert clubs.phase is Phase.EXCHANGE and clubs.active == [True] * 3


def test_seed000_horsethief_all_but_one_out_takes_5_unplayed() -> None:
    g = thief("AH")
    play_seq(g, [Join(1, False), Join(2, False)])  # the dealer is not asked
    assert g.results[-1].points == tenths((5, 0, 0)) and g.phase is Phase.DEAL
    g2 = thief("AH")
    play_seq(g2, [Join(1, True), Join(2, False), Join(0, False)])
    assert g2.results[-1].points == tenths((0, 5, 0))


def test_seed000_horsethief_exchange_0_to_5_from_the_top_of_the_stock_in_turn() -> None:
    g = thief("AH", s1="2C 3C 4C 5C 6C", s2="2D 3D 4D 5D 6D", s0="2S 3S 4S 5S 6S")
    top = g.stock[:3]
    play_seq(g, [Join(1, True), Join(2, True), Join(0, True)])
    before = g.snapshot()
    with pytest.raises(IllegalPlayError):
        g.apply(Exchange(1, parse_cards("2D")))  # not held
    assert g.snapshot() == before
    assert len(g.legal_actions()) == 32  # any subset of five cards
    g.apply(Exchange(1, parse_cards("2C 3C")))
    assert g.hands[1] >> top[0] & 1 and g.hands[1] >> top[1] & 1
    assert g.view(1).discards == parse_cards("2C 3C") and g.view(2).discards == ()
    assert g.turn == 2
    g.apply(Exchange(2, ()))
    g.apply(Exchange(0, parse_cards("6S")))
    assert g.hands[0] >> top[2] & 1
    assert g.phase is Phase.PLAY and g.turn == 1  # the first in-player after the dealer leads


def test_seed000_horsethief_plus_1_a_trick_minus_5_for_none_out_scores_nothing() -> None:
    g = thief("AH", s1="KH QH JH 10H 9H", s2="2C 3C 4C 5C 6C")
    play_seq(g, [Join(1, True), Join(2, True), Join(0, False)])
    play_seq(g, [Exchange(1, ()), Exchange(2, ())])
    play_out_hand(g)
    assert g.results[-1].points == tenths((0, 5, -5))


@pytest.mark.parametrize("ties, over", [("shared", True), ("play_on", False)])
def test_seed000_horsethief_first_to_15_wins_and_ties_follow_the_option(ties: str, over: bool) -> None:
    g = Horsethief(3, ties=ties)
    g.totals[:] = tenths([10, 13, 12])
    g.apply(fill_deal(g, {1: "KH QH 2C 3C 4C", 2: "JH 10H AC KC QC", 0: "2D 3D 4D 5D 6D"}, upcard="AH"))
    play_seq(g, [Join(1, True), Join(2, True), Join(0, False), Exchange(1, ()), Exchange(2, ())])
    play_out_hand(g)
    assert g.scores[1] == g.scores[2] and g.scores[1] >= 15
    assert g.is_over is over
    if over:
        assert g.winners == (1, 2)


def test_seed000_horsethief_stock_never_runs_out_even_when_five_players_each_exchange_five() -> None:
    """000 is silent on an empty stock: 52 - 5 x 5 - 1 = 26 cards cover every exchange."""
    g = Horsethief(5)
    g.apply(fill_deal(g, {}, upcard="AC"))  # clubs: everyone is in, nobody is asked
    assert g.phase is Phase.EXCHANGE and g.active == [True] * 5
    while g.phase is Phase.EXCHANGE:
        whole_hand = [a for a in g.legal_actions() if isinstance(a, Exchange) and len(a.cards) == 5]
        assert len(whole_hand) == 1
        g.apply(whole_hand[0])
    assert len(g.stock) == 1 and g.phase is Phase.PLAY
    assert all(d.bit_count() == 5 for d in g.discards)
    assert all(h.bit_count() == 5 for h in g.hands)


def test_seed000_donut_first_lead_passes_over_a_dropped_player_on_the_dealers_left() -> None:
    """000: the player to the dealer's left leads; if that player dropped, the next one who plays
    leads (the settlement in callbreak.games.donut)."""
    g = donut_with_upcard("AH", players=5)
    play_seq(g, [Join(1, False), Join(2, True), Join(3, False), Join(4, True)])
    assert g.phase is Phase.PLAY and g.turn == 2 and g.active == [True, False, True, False, True]
    play_out_hand(g)
    assert sum(g.results[-1].won) == 5 and g.results[-1].points[1] == g.results[-1].points[3] == 0
