"""Every action says who makes it (``actor``): what the terminal, the research environments and
the web tables read to tell a seat's move from chance's, in every registered game."""

from __future__ import annotations

import random

import pytest

from callbreak.core.actions import CHANCE, ChooseDealer, Deal, Draw, Play, Stop
from callbreak.core.cards import Card
from callbreak.games import game_info, games


@pytest.mark.parametrize("name", [info.name for info in games()])
def test_each_action_is_made_by_the_seat_to_act(name: str) -> None:
    info = game_info(name)
    game = info.new()
    chance = info.dealer(3)
    rng = random.Random(3)
    for _ in range(300):
        if game.is_over:
            break
        action = chance.chance(game) if game.to_act == CHANCE else rng.choice(game.legal_actions())
        assert action.actor == game.to_act, action
        game.apply(action)


def test_chance_steps_are_chance_s_even_when_they_name_a_seat() -> None:
    # The first dealer chosen at random names a seat, but chance chooses it.
    assert ChooseDealer(seat=2).actor == CHANCE
    assert {Stop().actor, Draw(cards=()).actor, Deal(hands=()).actor} == {CHANCE}
    assert Play(seat=3, card=Card.parse("AS")).actor == 3
