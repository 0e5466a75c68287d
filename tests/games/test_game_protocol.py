"""Every registered game answers what the game protocol declares, the same way for both engines
(issue 31): callers ask these members instead of probing with getattr or isinstance."""

from __future__ import annotations

import random

import pytest

from callbreak.core.actions import CHANCE, Deal, Stop
from callbreak.core.cards import DECK
from callbreak.core.game import ChanceKind, Game, GameView, Options
from callbreak.core.trick_game import TrickGame
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
    assert isinstance(game, TrickGame)  # one engine for every game, Call Break's included
    assert len(game.totals) == players and game.scores == tuple(t / 10 for t in game.totals)
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


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_every_view_declares_what_the_terminal_reads(name: str, players: int) -> None:
    """The view protocol's members (the terminal reads them, typed, with no getattr): every
    view of every game has them, the contract column included."""
    for game in _playout(name, players, seed=7):
        view = game.view(game.to_act if game.to_act not in (None, CHANCE) else None)
        assert isinstance(view, GameView)
        assert view.contract_word in ("call", "bid", "")
        parts = [view.contract_part(s) for s in range(players)]
        assert all(isinstance(p, str) and p for p in parts)
        assert view.fixed_trump is None or view.fixed_trump is view.trump or view.trump is None
        assert view.call_range is None or view.call_range[0] <= view.call_range[1]
        for result in view.results:  # what the scoreboard shows of a deal, declared by its result
            assert len(result.shown_points) == players
            assert all(result.shown_points[s] in result.seat_summary(s) for s in range(players))


def test_the_contract_column_in_words() -> None:
    """Call Break's calls ("3", "3b" blind, "-" before the call); a related game's bids ("5*" the
    declarer's) and passes."""
    from callbreak.core.view import SeatView

    call_break = game_info("callbreak").new()
    for game in _playout("callbreak", 4, seed=1):
        view = game.view(0)
        assert isinstance(view, SeatView)
        if all(c is not None for c in view.calls):
            call_break = game
            break
    view = call_break.view(0)
    assert isinstance(view, SeatView)
    assert view.contract_word == "call"
    assert [view.contract_part(s) for s in range(4)] == [
        f"{c}{'b' if b else ''}" for c, b in zip(view.calls, view.blind, strict=True)]
    batak = game_info("batak-ihaleli").new(4)
    batak.apply(game_info("batak-ihaleli").dealer(1).chance(batak))
    assert batak.view(0).contract_word in ("", "bid")
    assert [batak.view(0).contract_part(s) for s in range(4)] == ["-"] * 4
    while batak.phase.value == "auction":
        batak.apply(batak.legal_actions()[-1])  # a pass where it may, else the highest bid
        words = [batak.view(0).contract_part(s) for s in range(4)]
        assert batak.view(0).contract_word == "bid"
        assert all(w in ("-", "pass") or w.rstrip("*").isdigit() for w in words)
    declarer = batak.view(0).declarer
    assert declarer is not None and batak.view(0).contract_part(declarer).endswith("*")
