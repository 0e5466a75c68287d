"""The games registry, options and player counts of RULES.md section 4 (seed 000)."""

from __future__ import annotations

import pytest
from games_helpers import random_playout

from callbreak.core.errors import RulesError
from callbreak.core.match import Match
from callbreak.games import GAMES, make_game, make_trick_game


def test_seed000_registry_lists_the_six_related_games_with_their_player_counts() -> None:
    counts = {name: (info.min_players, info.max_players) for name, info in GAMES.items()}
    assert counts == {"call-bridge": (4, 4), "batak-ihaleli": (4, 4), "batak-koz-maca": (4, 4),
                      "snarples": (3, 8), "donut": (4, 6), "horsethief": (3, 5)}
    assert all(info.description for info in GAMES.values())


def test_seed000_call_bridge_is_the_call_bridge_preset_of_the_engine() -> None:
    game = make_game("call-bridge")
    assert isinstance(game, Match)
    assert game.rules.min_call == 2 and game.rules.max_call == 12
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
