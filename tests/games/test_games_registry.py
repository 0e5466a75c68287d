"""The games registry, options and player counts of RULES.md section 4 (seed 000)."""

from __future__ import annotations

import pytest
from games_helpers import random_playout

from callbreak.core.cards import Card, Suit, parse_cards
from callbreak.core.errors import RulesError
from callbreak.core.match import Match
from callbreak.core.rules import Rotation
from callbreak.core.scoring import deal_points
from callbreak.core.tricks import legal_mask
from callbreak.games import GAMES, make_game, make_trick_game


def test_seed000_registry_lists_the_six_related_games_with_their_player_counts() -> None:
    counts = {name: (info.min_players, info.max_players) for name, info in GAMES.items()}
    assert counts == {"call-bridge": (4, 4), "batak-ihaleli": (4, 4), "batak-koz-maca": (4, 4),
                      "snarples": (3, 8), "donut": (4, 6), "horsethief": (3, 5)}
    assert all(info.description for info in GAMES.values())


def mask(cards: tuple[Card, ...]) -> int:
    return sum(1 << c for c in cards)


def test_seed000_call_bridge_is_the_call_bridge_preset_of_the_engine() -> None:
    game = make_game("call-bridge")
    assert isinstance(game, Match)
    r = game.rules
    assert r.min_call == 2 and r.max_call == 12
    assert r.deals is None  # "played for an agreed time"
    assert r.dealer_rotation is Rotation.RIGHT  # 000: the deal passes counter-clockwise, as play goes
    # Follow suit with free choice; void: trump only if a spade could win.
    hand = mask(parse_cards("2H KH 3S"))
    led_queen = [Card.parse("QH")]
    assert legal_mask(hand, led_queen, Suit.SPADES, r, first_trick=False) == mask(parse_cards("2H KH"))
    void = mask(parse_cards("3S 2C"))
    assert legal_mask(void, led_queen, Suit.SPADES, r, False) == mask(parse_cards("3S"))
    overtrumped = [Card.parse("QH"), Card.parse("5S")]
    assert legal_mask(void, overtrumped, Suit.SPADES, r, False) == void
    # Call or call+1 scores the call; a made call of 8 or more scores 13; otherwise -call.
    assert [deal_points(4, won, r) // 10 for won in (3, 4, 5, 6)] == [-4, 4, 4, -4]
    assert [deal_points(8, won, r) // 10 for won in (7, 8, 9, 10)] == [-8, 13, 13, -8]
    with pytest.raises(RulesError, match="4 players"):
        make_game("call-bridge", players=5)
    with pytest.raises(RulesError, match="preset"):
        make_trick_game("call-bridge")


def test_seed000_options_are_checked_and_named() -> None:
    with pytest.raises(RulesError, match="unknown option 'colour'"):
        make_game("donut", colour="red")
    with pytest.raises(RulesError, match="ties must be one of shared, play_on"):
        make_game("horsethief", ties="coin")
    with pytest.raises(RulesError, match="first_dealer"):
        make_game("snarples", players=3, first_dealer=3)
    with pytest.raises(RulesError, match="unknown game"):
        make_game("whist")
    assert make_trick_game("batak-ihaleli", deals="3").options.deals == 3  # type: ignore[attr-defined]


@pytest.mark.parametrize("rotation, step", [("with_play", 1), ("against_play", -1)])
def test_seed000_dealer_rotation_is_an_explicit_option(rotation: str, step: int) -> None:
    g = make_trick_game("horsethief", 4, dealer_rotation=rotation, first_dealer=2, max_hands=4)
    random_playout(g, seed=3)
    dealers = [r.dealer for r in g.results]
    assert dealers == [(2 + step * i) % 4 for i in range(len(dealers))]


def test_seed000_max_hands_ends_the_game_with_the_best_score_winning() -> None:
    g = make_trick_game("snarples", 5, max_hands=2)
    random_playout(g, seed=8)
    assert len(g.results) == 2 and all(sc > 0 for sc in g.scores)  # stopped by the limit
    left = [s for s in range(5) if g.in_game[s]]
    assert g.is_over
    assert g.winners == tuple(s for s in left if g.scores[s] == min(g.scores[t] for t in left))
