"""The network as the expert's playout policy (``expert:network_moves=K``): each lane's seat to
act reads exactly its own view, no other seat's cards ever enter it, the playouts without network
moves are the classic ones, the bot plays only legal actions, the same for a seed, and a bad
setting is named."""

from __future__ import annotations

import random

import numpy as np
import pytest
from env_helpers import heuristic_game_to, real_worlds, with_other_hidden_cards
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from callbreak.bots import make_bot
from callbreak.bots.expert import ExpertBot
from callbreak.bots.heuristic import classic_table
from callbreak.bots.kernel import POLICY_HEURISTIC, get_kernel, options_array, position_of
from callbreak.bots.kernel_classic import T_ALLOWED
from callbreak.bots.kernel_sampling import WorldSampler
from callbreak.bots.neural import features, shipped
from callbreak.bots.neural_playout import inputs, network_moves, play, playouts, seat_bases, start
from callbreak.core import CHANCE, Phase, Play
from callbreak.games import game_info, new_game
from callbreak.games.spaces import CALLBREAK_ACTIONS, PLAY0, action_mask
from callbreak.kernel.rules import ST_DONE


def _to_play(preset: str, seed: int, moves: int, deals: int = 1):  # type: ignore[no-untyped-def]
    """A deal played by heuristic bots for at least ``moves`` moves, up to a card to play."""
    game, _ = heuristic_game_to(preset, seed, moves, deals)
    bot = make_bot("heuristic", seed=seed)
    while game.view(game.to_act).phase is not Phase.PLAY:
        game.apply(bot.decide(game.view(game.to_act), 1.0).action)
    return game, bot


@pytest.mark.parametrize(("preset", "seed", "moves", "backend"),
                         [("callbreak", 3, 4, "python"), ("callbreak", 5, 30, "numba"),
                          ("partnership", 7, 19, "numba")])
def test_each_lane_gives_the_mover_its_real_view(preset: str, seed: int, moves: int, backend: str) -> None:
    """Played on in a lane holding the real deal, every position's input and legal moves equal
    the encoding of the real view the mover has then, trick after trick."""
    game, bot = _to_play(preset, seed, moves)
    root = game.view(game.to_act)
    net, kernel = shipped(), get_kernel(backend)
    opts = options_array(root.rules)
    bases = seat_bases(root, net.scale)
    first = bot.decide(root, 1.0).action
    assert isinstance(first, Play)
    lanes = start(real_worlds(game), position_of(root), classic_table(root)[:, T_ALLOWED],
                  np.array([int(first.card)], dtype=np.int64), kernel, opts)
    game.apply(first)
    legal = np.zeros(1, dtype=np.int64)
    checked = 0
    while not game.is_over and game.to_act != CHANCE and checked < 12:
        view = game.view(game.to_act)
        np.testing.assert_array_equal(inputs(bases, lanes, net.scale)[0], features(view, net.scale),
                                      err_msg=f"move {checked}")
        kernel.lanes_legal(lanes.hands, lanes.tricks, lanes.states, opts, legal)
        mask = np.zeros(CALLBREAK_ACTIONS, dtype=np.float32)
        mask[PLAY0:PLAY0 + 52] = (legal[0] >> np.arange(52)) & 1
        np.testing.assert_array_equal(mask, action_mask(view, CALLBREAK_ACTIONS))
        action = bot.decide(view, 1.0).action
        assert isinstance(action, Play)
        play(lanes, np.array([int(action.card)], dtype=np.int64), kernel, opts)
        game.apply(action)
        checked += 1
    assert checked == 12


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(preset=st.sampled_from(["callbreak", "partnership"]), seed=st.integers(0, 2**31),
       moves=st.integers(4, 40), steps=st.integers(0, 6), swaps=st.integers(1, 12))
def test_other_seats_hidden_cards_never_enter_a_seats_input(
        preset: str, seed: int, moves: int, steps: int, swaps: int) -> None:
    """After the network's moves in sampled deals, the mover's input is the same whatever the
    other seats hold; and the expert's card at a fixed sample count, by the network's moves and
    by its value at a cut-off, is the same when the real deal gives the other seats other cards."""
    game, _ = _to_play(preset, seed % 1000, moves, deals=3)  # not the last deal: a cut-off is used
    seat = game.to_act
    view = game.view(seat)
    assume(len(view.legal) > 1)
    net, kernel = shipped(), get_kernel("numba")
    opts = options_array(view.rules)
    worlds, _ = WorldSampler(view, kernel).draw(6, random.Random(seed))
    cands = np.array([int(a.card) for a in view.legal if isinstance(a, Play)], dtype=np.int64)
    bases = seat_bases(view, net.scale)
    lanes = start(worlds, position_of(view), classic_table(view)[:, T_ALLOWED], cands, kernel, opts)
    network_moves(net, bases, lanes, steps, kernel, opts)
    assume((lanes.states[:, ST_DONE] < 13).all())  # (else the deal ended: no one is to act)
    x = inputs(bases, lanes, net.scale)
    rng = random.Random(seed + 1)
    movers = lanes.movers()
    for i in range(len(lanes.hands)):  # the three other hands' cards dealt among them afresh
        others = [s for s in range(4) if s != movers[i]]
        cards = [c for s in others for c in range(52) if lanes.hands[i, s] >> c & 1]
        rng.shuffle(cards)
        for s in others:
            k = int(lanes.hands[i, s]).bit_count()
            played = lanes.dealt[i, s] & ~lanes.hands[i, s]
            lanes.hands[i, s] = sum(1 << c for c in cards[:k])
            lanes.dealt[i, s] = lanes.hands[i, s] | played
            cards = cards[k:]
    np.testing.assert_array_equal(inputs(bases, lanes, net.scale), x)
    alt = with_other_hidden_cards(game, seat, game_info("callbreak"), random.Random(seed), swaps)
    assume(alt is not None)
    for setting in ({"network_moves": 3}, {"cutoff": 2}):
        one, two = (ExpertBot(samples=16, seed=3, **setting) for _ in range(2))  # type: ignore[arg-type]
        assert one.decide(view, 5.0).action == two.decide(alt.view(seat), 5.0).action


@pytest.mark.parametrize("backend", ["python", "numba"])
def test_without_network_moves_the_lanes_play_out_as_the_classic_playouts(backend: str) -> None:
    """Lanes started from the candidates and finished by classic play give, seed for seed, the
    very tricks of the expert's classic playouts (the same random streams per sampled deal)."""
    game, _ = _to_play("callbreak", 21, 17)
    view = game.view(game.to_act)
    kernel = get_kernel(backend)
    opts = options_array(view.rules)
    worlds, _ = WorldSampler(view, kernel).draw(5, random.Random(4))
    cands = np.array([int(a.card) for a in view.legal if isinstance(a, Play)], dtype=np.int64)
    table, pos = classic_table(view), position_of(view)
    classic = np.zeros((5, len(cands), 2, 4), dtype=np.int64)
    kernel.classic_evaluate(worlds, pos.trick, pos.state, pos.won, opts, cands, 2, POLICY_HEURISTIC, 99,
                            view.seat, table, classic)
    lanes = playouts(shipped(), seat_bases(view, shipped().scale), worlds, pos, opts, cands, 2,
                     POLICY_HEURISTIC, 99, view.seat, table, 0, kernel)
    np.testing.assert_array_equal(lanes, classic)
    assert (lanes.sum(axis=3) == 13).all()


@pytest.mark.parametrize("spec", ["expert:samples=8,network_moves=4", "expert:samples=8,cutoff=2",
                                  "expert:samples=8,network_moves=2,cutoff=1"])
def test_the_network_playing_expert_plays_legal_cards_the_same_for_a_seed(spec: str) -> None:
    game = new_game("callbreak", preset="callbreak", deals=2)  # the first deal: a cut-off is used
    chance = game_info("callbreak").dealer(13)
    bots = [make_bot(spec, seed=s) for s in range(4)]
    twins = [make_bot(spec, seed=s) for s in range(4)]
    played = 0
    while played < 52:
        if game.to_act == CHANCE:
            game.apply(chance.chance(game))
            continue
        view = game.view(game.to_act)
        decision = bots[game.to_act].decide(view, 5.0)
        assert decision.action in view.legal
        assert twins[game.to_act].decide(view, 5.0) == decision
        played += isinstance(decision.action, Play)
        game.apply(decision.action)
    assert played == 52


@pytest.mark.parametrize(("spec", "named"), [("expert:network_moves=17", "network_moves must be between 0"),
                                             ("expert:network_moves=-1", "network_moves must be between 0"),
                                             ("expert:network_moves=lots", "network_moves must be a whole"),
                                             ("expert:cutoff=13", "cutoff must be between 0"),
                                             ("expert:cutoff=-2", "cutoff must be between 0"),
                                             ("expert:cutoff=1.5", "cutoff must be a whole")])
def test_a_bad_network_setting_is_named(spec: str, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        make_bot(spec)
