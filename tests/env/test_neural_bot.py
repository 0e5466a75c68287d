"""The neural bot: it reads the seat's view alone, plays only legal actions under every preset
the batched environment covers, is deterministic for a seed, and names a bad weights file."""

from __future__ import annotations

import random
from itertools import islice
from pathlib import Path

import numpy as np
import pytest
from env_helpers import decisions, with_other_hidden_cards
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from callbreak.bots import BotError, make_bot
from callbreak.bots.neural import (
    BASE,
    INPUTS,
    OUTLOOK,
    WEIGHTS,
    Network,
    NeuralBot,
    NeuralWeightsError,
    features,
    input_scale,
    shipped,
)
from callbreak.core import CHANCE, PRESETS, Phase
from callbreak.games import game_info, new_game
from callbreak.games.spaces import CALLBREAK_ACTIONS


def _random_network(seed: int = 0, hidden: tuple[int, ...] = (32, 16), outlook: bool = False) -> Network:
    rng = np.random.default_rng(seed)
    arrays = {"scale": input_scale()}
    width = INPUTS
    for i, h in enumerate(hidden):
        arrays[f"trunk{i}.w"] = rng.normal(0, 0.3, (width, h)).astype(np.float32)
        arrays[f"trunk{i}.b"] = rng.normal(0, 0.1, h).astype(np.float32)
        width = h
    arrays["policy.w"] = rng.normal(0, 0.3, (width, CALLBREAK_ACTIONS)).astype(np.float32)
    arrays["policy.b"] = np.zeros(CALLBREAK_ACTIONS, dtype=np.float32)
    arrays["value.w"] = rng.normal(0, 0.3, (width, 1)).astype(np.float32)
    arrays["value.b"] = np.zeros(1, dtype=np.float32)
    if outlook:
        arrays["outlook0.w"] = rng.normal(0, 0.3, (width, OUTLOOK)).astype(np.float32)
        arrays["outlook0.b"] = np.zeros(OUTLOOK, dtype=np.float32)
    return Network.from_arrays(arrays, {"made": "test"})


NET = _random_network()
NET_OUTLOOK = _random_network(outlook=True)  # calls by its outlook head


def _play_to(game: object, steps: int, rng: random.Random) -> None:
    chance = game_info("callbreak").dealer(rng.randrange(2**31))
    for _ in range(steps):
        if game.is_over:  # type: ignore[attr-defined]
            return
        if game.to_act == CHANCE:  # type: ignore[attr-defined]
            game.apply(chance.chance(game))  # type: ignore[attr-defined]
        else:
            game.apply(rng.choice(game.legal_actions()))  # type: ignore[attr-defined]


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**31), steps=st.integers(2, 90),
       swaps=st.integers(1, 12), outlook=st.booleans())
def test_other_seats_hidden_cards_never_change_the_networks_input_or_output(
        preset: str, seed: int, steps: int, swaps: int, outlook: bool) -> None:
    game = new_game("callbreak", preset=preset)
    rng = random.Random(seed)
    _play_to(game, steps, rng)
    assume(not game.is_over and game.to_act != CHANCE)
    seat = game.to_act
    alt = with_other_hidden_cards(game, seat, game_info("callbreak"), rng, swaps)
    assume(alt is not None)
    assert alt.snapshot() != game.snapshot()  # the other seats hold other cards
    mine, theirs = game.view(seat), alt.view(seat)
    x, y = features(mine, NET.scale), features(theirs, NET.scale)
    assert np.array_equal(x, y)
    net = NET_OUTLOOK if outlook else NET
    a, b = NeuralBot(net, seed=1), NeuralBot(net, seed=1)
    assert a.decide(mine, 1.0).action == b.decide(theirs, 1.0).action
    if outlook and mine.phase is Phase.CALL and mine.hand is not None:
        assert np.array_equal(a.outlook(mine), b.outlook(theirs))


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_shipped_weights_play_only_legal_actions_under_every_preset(preset: str) -> None:
    game = new_game("callbreak", preset=preset, **({"deals": 2} if PRESETS[preset].rules.deals is None
                                                    else {}))
    chance = game_info("callbreak").dealer(7)
    bots = [make_bot("neural", seed=s) for s in range(4)]
    played = decisions(game, chance, lambda view: bots[game.to_act].decide(view, 1.0).action)
    for view, action in islice(played, 2000):  # a guard: a match is far shorter
        assert action in view.legal
    assert game.is_over  # the bots played the whole match, every move legal
    assert shipped().meta.get("command", "").startswith("callbreak train")  # how it was made
    assert shipped().meta.get("commit") and shipped().meta.get("seed") is not None


def test_the_shipped_weights_fit_in_the_package() -> None:
    assert WEIGHTS.stat().st_size < 2 * 1024 * 1024


def test_drawing_by_the_policy_is_deterministic_for_a_seed() -> None:
    def choices(seed: int) -> list[object]:
        game = new_game("callbreak")
        chance = game_info("callbreak").dealer(3)
        bot = NeuralBot(NET, seed=seed, temperature=1.0)
        out = []
        while not game.is_over and len(out) < 120:
            if game.to_act == CHANCE:
                game.apply(chance.chance(game))
                continue
            action = bot.decide(game.view(game.to_act), 1.0).action
            out.append(action)
            game.apply(action)
        return out

    assert choices(5) == choices(5)
    assert choices(5) != choices(6)  # the seed is what decides the draws


def test_a_missing_or_corrupt_weights_file_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "none.npz"
    with pytest.raises(BotError, match="none.npz"):
        make_bot(f"neural:weights={missing}")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip file at all")
    with pytest.raises(NeuralWeightsError, match="junk.npz"):
        Network.load(junk)
    arrays = NET.arrays()
    del arrays["policy.w"]
    partial = tmp_path / "partial.npz"
    np.savez(partial, **arrays)  # type: ignore[arg-type]
    with pytest.raises(NeuralWeightsError, match=r"partial.npz lacks the array 'policy.w'"):
        Network.load(partial)
    arrays = NET.arrays()
    arrays["trunk0.w"] = arrays["trunk0.w"][:100]
    wrong = tmp_path / "wrong.npz"
    np.savez(wrong, **arrays)  # type: ignore[arg-type]
    with pytest.raises(NeuralWeightsError, match="wrong.npz"):
        Network.load(wrong)


def test_saved_weights_load_back_to_the_same_decisions(tmp_path: Path) -> None:
    path = tmp_path / "net.npz"
    NET.save(path)
    again = Network.load(path)
    assert again.meta == {"made": "test"}
    x = np.random.default_rng(1).random((5, BASE), dtype=np.float32)
    mask = np.random.default_rng(2).integers(0, 2, (5, CALLBREAK_ACTIONS))
    assert np.array_equal(NET.forward(x, mask)[0], again.forward(x, mask)[0])


def test_the_neural_bot_gives_the_terminal_games_hints_and_a_bad_hint_bot_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from callbreak.cli.main import app
    from callbreak.cli.tui.session import Session

    session = Session.new(opponents=["random"], seed=3, save=False)
    session.hint_bot = "neural"
    while session.game.to_act != session.human:
        session.game.apply(session.game.legal_actions()[0] if session.game.to_act >= 0
                           else game_info("callbreak").dealer(3).chance(session.game))
    view = session.game.view(session.human)
    name, decision = session.hint(view, 1.0)
    assert name == "neural" and decision.action in view.legal
    monkeypatch.setenv("CALLBREAK_DATA_DIR", str(tmp_path))
    result = CliRunner().invoke(app, ["play", "--hint", "nosuch", "--seed", "1"])
    assert result.exit_code == 2 and "--hint" in result.output and "unknown bot 'nosuch'" in result.output
