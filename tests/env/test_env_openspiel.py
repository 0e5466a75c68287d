"""Every game as an OpenSpiel Python game: OpenSpiel's own random-simulation checks, its uniform
random bot and its IS-MCTS playing whole matches, and IS-MCTS seated at our tables."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import callbreak.env.openspiel as cos  # noqa: E402
from callbreak.bots import bots_for, make_bot  # noqa: E402
from callbreak.core.actions import CHANCE  # noqa: E402
from callbreak.games import game_info, games, new_game  # noqa: E402

SHORT = {"callbreak": "deals:1", "call-bridge": "", "batak-ihaleli": "deals:1",
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
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("preset", ["catsatcards", "567", "no-trump", "partnership"])
def test_openspiel_random_simulation_checks_of_presets(preset: str) -> None:
    game = pyspiel.load_game("python_callbreak", {"preset": preset, "options": "deals:1"})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


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
