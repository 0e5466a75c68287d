"""Every game as an OpenSpiel Python game: OpenSpiel's own random-simulation checks, its uniform
random bot and its IS-MCTS playing whole matches, and IS-MCTS seated at our tables."""

from __future__ import annotations

import pickle
import random
import time

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import callbreak.env.openspiel as cos  # noqa: E402
from callbreak.bots import bots_for, make_bot  # noqa: E402
from callbreak.core.actions import CHANCE  # noqa: E402
from callbreak.games import game_info, games, new_game  # noqa: E402

SHORT = {"callbreak": "deals:1", "batak-ihaleli": "deals:1",
         "batak-koz-maca": "deals:1"}


def _params(name: str, players: int) -> dict[str, object]:
    options = SHORT.get(name, "max_hands:2")
    return {"players": players, "options": options, "max_deals": 1}


def test_load_game_by_name_with_a_preset() -> None:
    game = pyspiel.load_game("python_callbreak", {"preset": "callbreak"})
    assert game.num_players() == 4 and game.num_distinct_actions() == 83
    assert game.new_initial_state().is_chance_node()
    assert sorted(cos.registered_names()) == sorted(cos.short_name(i.name) for i in games())
    bhoos = pyspiel.load_game("python_callbreak", {"preset": "bhoos-tournament", "options": "deals:2"})
    assert bhoos.options.max_call == 8 and bhoos.options.deals == 2


@pytest.mark.parametrize("name,players", sorted({(i.name, n) for i in games()
                                                 for n in (i.seats[0], i.seats[-1])}))
def test_openspiel_random_simulation_checks(name: str, players: int) -> None:
    game = pyspiel.load_game(cos.short_name(name), _params(name, players))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("preset", [p.name for p in game_info("callbreak").presets])
def test_openspiel_random_simulation_checks_of_presets(preset: str) -> None:
    game = pyspiel.load_game("python_callbreak", {"preset": preset, "options": "deals:1"})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def _random_states(game: object, sims: int, seed: int) -> list[object]:
    """Every state of ``sims`` random playouts of ``game``."""
    rng = random.Random(seed)
    out = []
    for _ in range(sims):
        state = game.new_initial_state()  # type: ignore[attr-defined]
        out.append(state.clone())
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            out.append(state.clone())
    return out


@pytest.mark.parametrize("name", ["callbreak", "batak-ihaleli", "horsethief"])
def test_games_and_states_pickle_whole(name: str) -> None:
    game = pyspiel.load_game(cos.short_name(name), _params(name, 4 if name != "horsethief" else 3))
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.options == game.options
    for state in _random_states(game, 1, 3)[::7]:
        copy = pickle.loads(pickle.dumps(state))
        assert str(copy) == str(state) and copy.history() == state.history()
        assert copy.engine.snapshot() == state.engine.snapshot()
        for p in range(game.num_players()):
            assert copy.information_state_string(p) == state.information_state_string(p)
        _, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
        assert str(restored) == str(state)


def test_a_numeric_preset_survives_the_game_string() -> None:
    game = pyspiel.load_game("python_callbreak", {"preset": "567", "options": "deals:1"})
    assert pyspiel.load_game(str(game)).options == game.options


@pytest.mark.parametrize("name", ["callbreak", "donut"])
def test_the_game_string_names_its_seats_and_loads_back(name: str) -> None:
    usual = game_info(name).check_seats(None)
    for params in ({}, {"players": 0}):  # unset, or 0: the game's usual number, named as such
        game = pyspiel.load_game(cos.short_name(name), params)
        assert f"players={usual}" in str(game) and game.num_players() == usual
        assert pyspiel.load_game(str(game)).num_players() == usual


def test_a_table_game_with_its_own_options_pickles_with_them() -> None:
    game = pyspiel.load_game("python_callbreak", {"players": 4})
    game.options = game.options.replace(max_call=8)  # what the IS-MCTS bot does with a table's rules
    assert pickle.loads(pickle.dumps(game)).options.max_call == 8


@pytest.mark.slow
@pytest.mark.parametrize("name,players,preset", [
    ("callbreak", 4, "callbreak"), ("callbreak", 4, "catsatcards"), ("callbreak", 4, "nepal-traditional"),
    ("batak-ihaleli", 4, ""), ("horsethief", 5, ""), ("snarples", 3, ""), ("donut", 4, "")])
def test_the_information_state_tensor_has_perfect_recall(name: str, players: int, preset: str) -> None:
    """Two states give a seat the same tensor exactly when they give it the same information-state
    string (which holds everything the seat has seen), and the game type says it has one."""
    params = {**_params(name, players), "preset": preset}
    game = pyspiel.load_game(cos.short_name(name), params)
    assert game.get_type().provides_information_state_tensor
    assert game.information_state_tensor_shape() == [game.recall.size]
    by_string: dict[tuple[int, str], bytes] = {}
    by_tensor: dict[bytes, tuple[int, str]] = {}
    for state in _random_states(game, 3, 11):
        for p in range(players):
            key = (p, state.information_state_string(p))
            tensor = np.asarray(state.information_state_tensor(p), np.float32).tobytes()
            assert by_string.setdefault(key, tensor) == tensor
            assert by_tensor.setdefault(tensor, key) == key
    assert len(by_string) > 100
    # the observation tensor is not perfect recall: it forgets the order of earlier tricks
    assert game.observation_tensor_size() < game.information_state_tensor_size()


def test_the_information_state_tensor_remembers_earlier_deals() -> None:
    game = pyspiel.load_game("python_callbreak", {"options": "deals:2"})
    states = _random_states(game, 1, 5)
    second = next(s for s in states if len(s.engine.results) == 1 and not s.is_chance_node())
    first_deal = len([a for a in second.engine.history if type(a).__name__ == "Deal"])
    assert first_deal == 2
    tensor = np.asarray(second.information_state_tensor(0)).reshape(-1)
    width = game.recall.width
    plays = tensor[:game.recall.capacity * width].reshape(-1, width)[:, cos.ACT].sum()
    assert plays >= 52 + 4  # the first deal's calls and plays are still there


def test_uniform_random_bots_play_a_whole_match() -> None:
    game = pyspiel.load_game("python_callbreak", {"options": "deals:2", "returns": "win"})
    bots = [pyspiel.make_uniform_random_bot(p, 7 + p) for p in range(4)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 3)
    assert sum(returns) == pytest.approx(1.0)


@pytest.mark.parametrize("name", ["callbreak", "horsethief"])
def test_ismcts_plays_a_whole_match(name: str) -> None:
    game = pyspiel.load_game(cos.short_name(name), _params(name, 4))
    rng = np.random.RandomState(1)
    bots = [ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 8, random_state=rng,
                             allow_inconsistent_action_sets=True) for _ in range(4)]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert len(state.returns()) == 4


def test_resampled_worlds_keep_the_information_state() -> None:
    game = pyspiel.load_game("python_callbreak", {"options": "deals:1"})
    rng = np.random.RandomState(4)
    state = game.new_initial_state()
    changed = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        p = state.current_player()
        other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0., 1.))
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.legal_actions() == state.legal_actions()
        changed += other.engine.hands != state.engine.hands
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert changed > 20


@pytest.mark.parametrize("budget", [0.2, 0.5])
def test_the_ismcts_bot_keeps_to_its_budget(budget: float) -> None:
    """Its default 100 simulations take longer than these budgets; it stops in time instead."""
    bot = make_bot("openspiel-ismcts", seed=1, game="callbreak")
    g = new_game("callbreak", deals=1)
    chance = game_info("callbreak").dealer(3)
    worst, decisions = 0.0, 0
    while not g.is_over and decisions < 12:
        if g.to_act == CHANCE:
            g.apply(chance.chance(g))
            continue
        # The work the bot does (this process's CPU time): a loaded machine stretches the wall
        # clock of a decision by however long the bot waits for a core.
        start = time.process_time()
        g.apply(bot.decide(g.view(g.to_act), budget).action)
        worst = max(worst, time.process_time() - start)
        decisions += 1
    assert worst <= budget + 0.05


def test_the_ismcts_bot_is_in_the_registry_and_plays_every_game() -> None:
    assert "openspiel-ismcts" in bots_for("callbreak") and "openspiel-ismcts" in bots_for("snarples")
    for name, opts in (("callbreak", {"deals": 1}), ("donut", {"max_hands": 1})):
        bot = make_bot("openspiel-ismcts:iterations=4", seed=2, game=name)
        g = new_game(name, **opts)
        chance = game_info(name).dealer(5)
        while not g.is_over:
            if g.to_act == CHANCE:
                g.apply(chance.chance(g))
            else:
                g.apply(bot.decide(g.view(g.to_act), 1.0).action)
