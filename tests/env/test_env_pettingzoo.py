"""The PettingZoo environment of every game: PettingZoo's own API and seed tests, bad actions,
rewards, and no hidden card in any observation."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from env_helpers import CONFIGS, config_id, with_other_hidden_cards  # noqa: E402
from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import callbreak.env as cenv  # noqa: E402
from callbreak.core.errors import IllegalActionError  # noqa: E402
from callbreak.games import game_info  # noqa: E402
from callbreak.games.spaces import MaskedActionError  # noqa: E402


def _make(c: tuple[str, int, str | None], **kw: object) -> cenv.CardGameEnv:
    return cenv.make(c[0], players=c[1], preset=c[2], **kw)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pettingzoo_api_and_seed_tests(config: tuple[str, int, str | None]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the usual notes on dict observations with a mask
        api_test(_make(config), num_cycles=60)
        seed_test(lambda: _make(config), num_cycles=60)


def _play(env: cenv.CardGameEnv, rng: np.random.Generator, steps: int) -> None:
    for _ in range(steps):
        if env.game.is_over:
            return
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))


@pytest.mark.parametrize("name", ["callbreak", "horsethief", "snarples"])
def test_an_action_outside_the_mask_raises_and_changes_nothing(name: str) -> None:
    env = cenv.make(name)
    env.reset(seed=5)
    _play(env, np.random.default_rng(1), 7)
    agent = env.agent_selection
    before = env.game.snapshot()
    mask = env.observe(agent)["action_mask"]
    bad = [int(np.flatnonzero(mask == 0)[0]), -1, len(mask), "3", 2.0, None, True]
    for action in bad:
        with pytest.raises(MaskedActionError, match="not legal"):
            env.step(action)
        assert env.game.snapshot() == before and env.agent_selection == agent
    assert issubclass(MaskedActionError, IllegalActionError)
    env.step(np.int64(np.flatnonzero(mask)[0]))  # numpy integers are action ids too


def test_deal_rewards_add_up_to_the_scores_and_match_rewards_to_the_winners() -> None:
    for reward in ("deal", "match"):
        env = cenv.make("callbreak", reward=reward)
        env.reset(seed=11)
        total = dict.fromkeys(env.possible_agents, 0.0)
        rng = np.random.default_rng(0)
        for agent in env.agent_iter():
            obs, r, term, trunc, _ = env.last()
            total[agent] += r
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        got = [total[a] for a in env.possible_agents]
        if reward == "deal":
            assert got == pytest.approx(list(env.game.scores))
        else:
            assert got == pytest.approx([1 / len(env.game.winners) if s in env.game.winners else 0
                                         for s in range(4)])


def test_race_down_rewards_are_negated_points_and_ansi_renders() -> None:
    env = cenv.make("donut", players=5, render_mode="ansi")
    env.reset(seed=2)
    total = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(3)
    for agent in env.agent_iter():
        obs, r, term, trunc, _ = env.last()
        total[agent] += r
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert [total[a] for a in env.possible_agents] == [15 - s for s in env.game.scores]
    text = env.render()
    assert isinstance(text, str) and "scores" in text


def test_presets_and_options_reach_the_game() -> None:
    env = cenv.make("callbreak", preset="bhoos-tournament", deals=2)
    env.reset(seed=1)
    assert env.game.rules.max_call == 8 and env.game.rules.deals == 2
    assert env.observe(env.agent_selection)["action_mask"][52 + 9:66].sum() == 0  # calls > 8
    with pytest.raises(Exception, match="preset"):
        cenv.make("callbreak", preset="nope")
    bridge = cenv.make("call-bridge", max_deals=2)  # no fixed end: the table stops after 2
    bridge.reset(seed=3)
    _play(bridge, np.random.default_rng(0), 10_000)
    assert bridge.game.is_over and len(bridge.game.results) == 2


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**31), steps=st.integers(0, 120),
       swaps=st.integers(1, 12), salt=st.integers(0, 2**31))
def test_hidden_cards_of_other_seats_never_reach_an_observation(
        config: tuple[str, int, str | None], seed: int, steps: int, swaps: int, salt: int) -> None:
    env = _make(config)
    env.reset(seed=seed)
    _play(env, np.random.default_rng(seed), steps)
    game = env.game
    assume(not game.is_over)
    seat = game.to_act
    alt = None
    rng = random.Random(salt)
    alt = with_other_hidden_cards(game, seat, game_info(config[0]), rng, swaps, retries=3)
    assume(alt is not None)
    assert alt is not None and alt.snapshot() != game.snapshot()  # other seats' cards differ
    agent = env.possible_agents[seat]
    mine = env.observe(agent)
    env.game = alt
    theirs = env.observe(agent)
    assert np.array_equal(mine["observation"], theirs["observation"])
    assert np.array_equal(mine["action_mask"], theirs["action_mask"])
