"""Every registered game answers what the game protocol declares, the same way for both engines
(issue 31): callers ask these members instead of probing with getattr or isinstance."""

from __future__ import annotations

import random

import pytest

from callbreak.core.actions import CHANCE, Deal, Stop
from callbreak.core.cards import DECK
from callbreak.core.game import ChanceKind, Game, Options
from callbreak.games import game_info, games
from callbreak.games.spaces import Encoder, game_encoding

GAMES = [(info.name, n) for info in games() for n in info.seats]


def _playout(name: str, players: int, seed: int):  # noqa: ANN202 - yields games
    info = game_info(name)
    game = info.new(players)
    chance = info.dealer(seed)
    rng = random.Random(seed)
    while not game.is_over and len(game.results) < 3:
        yield game
        if game.to_act == CHANCE:
            game.apply(Stop() if game.can_stop else chance.chance(game))
        else:
            game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_every_game_declares_the_protocol(name: str, players: int) -> None:
    game = game_info(name).new(players)
    assert isinstance(game, Game)
    assert isinstance(game.options, Options)
    assert game.deal_limit == game.options.deal_limit
    assert game.POINT_UNITS >= 1
    assert len(game.hands) == len(game.discards) == players
    encoding = game_encoding(game)
    assert Encoder(encoding, players).size > 0
    assert encoding.num_actions > 52


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_chance_steps_one_card_at_a_time_rebuild_the_dealers_deal(name: str, players: int) -> None:
    for game in _playout(name, players, seed=3):
        if game.to_act != CHANCE or game.chance_kind is not ChanceKind.DEAL or game.can_stop:
            continue
        pack = list(DECK)
        random.Random(len(game.history)).shuffle(pack)
        deal = game.deal_from_pack(pack)
        seats = game.pack_seats()
        for i, seat in enumerate(seats):
            if seat >= 0:
                assert pack[i] in deal.hands[seat]
        dealt = {c for h in deal.hands for c in h} | set(deal.stock) | {deal.upcard} - {None}
        assert len(dealt) == len(seats)  # (Donut's upcard is one of the dealer's cards)
        game.clone().apply(deal)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_hidden_information_members_agree_with_the_state(name: str, players: int) -> None:
    rng = random.Random(5)
    for game in _playout(name, players, seed=5):
        if game.to_act is None or game.to_act == CHANCE or not game.history:
            continue
        if not any(isinstance(a, Deal) for a in game.history):
            continue
        seat = game.to_act
        view = game.view(seat)
        hand, _, _ = game.private_parts(seat)
        assert hand in (-1, game.hands[seat])
        possible = game.possible_cards(view)
        for s in range(players):
            assert game.hands[s] & ~possible[s] == 0, "a seat holds a card the play ruled out"
        if game.phase.value == "play":
            sampled = type(game).sample_deal(view, rng)
            mine = sampled.view(seat)
            assert mine.hand == view.hand and mine.trick == view.trick and mine.legal == view.legal
