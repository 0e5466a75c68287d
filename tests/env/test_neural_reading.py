"""The expert's reading by the network (``expert:neural=T``): each earlier move of the others is
rebuilt exactly as that seat saw it, the weights never depend on a hidden card of the real deal,
the bot plays only legal actions and a bad setting is named."""

from __future__ import annotations

import random

import numpy as np
import pytest
from env_helpers import decisions, heuristic_game_to, real_worlds, with_other_hidden_cards
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from callbreak.bots import make_bot
from callbreak.bots.expert import ExpertBot
from callbreak.bots.kernel import get_kernel, options_array
from callbreak.bots.kernel_sampling import WorldSampler
from callbreak.bots.neural import derived, features, shipped
from callbreak.bots.neural_reading import log_likelihoods, move_inputs, past_moves
from callbreak.core import Call, Phase, Play
from callbreak.games import game_info, new_game
from callbreak.games.spaces import CALLBREAK_ACTIONS, action_id, action_mask

KERNEL = get_kernel("python")


@pytest.mark.parametrize(("preset", "seed", "moves"), [("callbreak", 3, 30), ("callbreak", 5, 45),
                                                        ("partnership", 7, 22)])
def test_each_earlier_move_is_rebuilt_as_its_seat_saw_it(preset: str, seed: int, moves: int) -> None:
    game, history = heuristic_game_to(preset, seed, moves)
    reader = game.view(game.to_act)
    net = shipped()
    past = past_moves(reader, net.scale)
    theirs = [(v, a) for v, a in history if v.seat != reader.seat and
              (isinstance(a, Play) or (isinstance(a, Call) and not a.blind))]
    assert len(past.seats) == len(theirs) > 0
    x, mask = move_inputs(past, real_worlds(game), KERNEL, options_array(reader.rules), net.scale)
    compiled = move_inputs(past, real_worlds(game), get_kernel("numba"), options_array(reader.rules), net.scale)
    assert np.array_equal(mask, compiled[1])  # the kernel's two backends agree on the legal moves
    # Calls first (in calling order), then the cards in play order: the history's order.
    for row, (view, action) in enumerate(theirs):
        assert past.seats[row] == view.seat and past.action[row] == action_id(action)
        np.testing.assert_array_equal(x[row], features(view, net.scale), err_msg=f"move {row}")
        np.testing.assert_array_equal(mask[row], action_mask(view, CALLBREAK_ACTIONS), err_msg=f"move {row}")
    # And what the network reads from them (counted from the hand and the legal moves) too.
    np.testing.assert_array_equal(derived(x, mask), derived(np.array([features(v, net.scale) for v, _ in theirs]),
                                                            mask))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(preset=st.sampled_from(["callbreak", "partnership"]), seed=st.integers(0, 2**31),
       moves=st.integers(4, 50), swaps=st.integers(1, 12))
def test_other_seats_hidden_cards_never_change_the_reading_or_the_choice(
        preset: str, seed: int, moves: int, swaps: int) -> None:
    game, _ = heuristic_game_to(preset, seed % 1000, moves)
    seat = game.to_act
    rng = random.Random(seed)
    alt = with_other_hidden_cards(game, seat, game_info("callbreak"), rng, swaps)
    assume(alt is not None)
    assert alt.snapshot() != game.snapshot()  # the other seats hold other cards
    mine, theirs = game.view(seat), alt.view(seat)
    net = shipped()
    a, b = past_moves(mine, net.scale), past_moves(theirs, net.scale)
    assert np.array_equal(a.x, b.x) and np.array_equal(a.later, b.later) and np.array_equal(a.action, b.action)
    kernel = get_kernel("numba")
    worlds, _ = WorldSampler(mine, kernel).draw(8, random.Random(1))
    opts = options_array(mine.rules)
    assert np.array_equal(log_likelihoods(net, a, worlds, kernel, opts),
                          log_likelihoods(net, b, worlds, kernel, opts))
    if mine.phase is Phase.PLAY and len(mine.legal) > 1:
        one, two = (ExpertBot(samples=16, seed=3, neural=1.0) for _ in range(2))
        assert one.decide(mine, 5.0).action == two.decide(theirs, 5.0).action


def test_the_network_reading_expert_plays_only_legal_actions() -> None:
    game = new_game("callbreak", preset="callbreak", deals=1)
    chance = game_info("callbreak").dealer(11)
    bots = [make_bot("expert:samples=8,neural=0.5", seed=s) for s in range(4)]
    played = 0
    for view, action in decisions(game, chance, lambda view: bots[game.to_act].decide(view, 5.0).action):
        assert action in view.legal
        played += isinstance(action, Play)
    assert played == 52


def test_the_reading_favours_deals_where_the_others_moves_are_likely() -> None:
    """The deal the cards really were in is read as likelier than most deals drawn for the view."""
    game, _ = heuristic_game_to("callbreak", 9, 40)
    view = game.view(game.to_act)
    net, kernel = shipped(), get_kernel("numba")
    worlds, _ = WorldSampler(view, kernel).draw(200, random.Random(2))
    opts = options_array(view.rules)
    past = past_moves(view, net.scale)
    sampled = log_likelihoods(net, past, worlds, kernel, opts)
    real = log_likelihoods(net, past, real_worlds(game), kernel, opts)[0]
    assert real > np.median(sampled)


@pytest.mark.parametrize(("spec", "named"), [("expert:neural=2", "neural must be between 0"),
                                             ("expert:neural=-0.5", "neural must be between 0"),
                                             ("expert:neural=lots", "neural must be a number")])
def test_a_bad_network_reading_setting_is_named(spec: str, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        make_bot(spec)
