"""The outlook head: its labels are the tricks the seats go on to take, the bot calls what scores
best over it, a bad head is named, and a tiny outlook run goes end to end."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from env_helpers import decisions
from test_neural_bot import NET, _random_network

from callbreak.bots import make_bot
from callbreak.bots.neural import OUTLOOK, Network, NeuralBot, NeuralWeightsError
from callbreak.core import CHANCE, Call, Look, Phase
from callbreak.core.scoring import expected_deal_points
from callbreak.env.vector import VectorEnv
from callbreak.games import game_info, new_game

pytest.importorskip("torch")

from callbreak.learn.outlook import OutlookData, OutlookPlay, OutlookSettings, run_outlook  # noqa: E402
from callbreak.learn.train import TrainingError  # noqa: E402


def _certain(tricks: int) -> Network:
    """NET with an outlook head sure that the seat takes ``tricks`` tricks."""
    width = NET.trunk[-1][0].shape[1]
    bias = np.full(OUTLOOK, -30.0, dtype=np.float32)
    bias[tricks] = 30.0
    head = ((np.zeros((width, OUTLOOK), dtype=np.float32), bias),)
    return Network(NET.trunk, NET.policy, NET.value, NET.scale, NET.meta, head)


def _decisions(bot, preset: str, dealer_seed: int):  # type: ignore[no-untyped-def]
    """One deal of ``preset`` played by ``bot`` at every seat: each view and the action taken."""
    game = new_game("callbreak", preset=preset, deals=1)
    return decisions(game, game_info("callbreak").dealer(dealer_seed), lambda view: bot.decide(view, 1.0).action)


def _first_call_view(preset: str = "callbreak"):  # type: ignore[no-untyped-def]
    game = new_game("callbreak", preset=preset)
    chance = game_info("callbreak").dealer(4)
    while game.to_act == CHANCE:
        game.apply(chance.chance(game))
    return game.view(game.to_act)


@pytest.mark.parametrize("tricks", [1, 4, 8])
def test_the_bot_calls_what_scores_best_over_its_outlook(tricks: int) -> None:
    view = _first_call_view()
    assert view.phase is Phase.CALL
    decision = NeuralBot(_certain(tricks)).decide(view, 1.0)
    assert decision.action == Call(seat=view.seat, tricks=tricks)  # sure of w tricks: call w
    assert "100%" in decision.reason


def test_an_uncertain_outlook_is_weighed_by_the_scoring() -> None:
    view = _first_call_view()
    bot = NeuralBot(_random_network(seed=3, outlook=True))
    outlook = bot.outlook(view)
    assert outlook.shape == (OUTLOOK,) and abs(outlook.sum() - 1) < 1e-5
    worth = {a.tricks: expected_deal_points(a.tricks, outlook, view.rules) for a in view.legal
             if isinstance(a, Call)}
    chosen = bot.decide(view, 1.0).action
    assert isinstance(chosen, Call) and worth[chosen.tricks] == max(worth.values())


def test_labels_are_the_tricks_taken_four_seats_thirteen_tricks_a_deal() -> None:
    env = VectorEnv(num_tables=8, preset="callbreak", seed=5, reward="deal")
    data = OutlookData()
    OutlookPlay(env, NET, seed=6, random_share=0.0).play(data, 400)
    tricks = np.array(data.tricks)
    assert len(tricks) >= 400 and len(tricks) % 4 == 0  # every seat's call, of whole deals only
    assert tricks.min() >= 0 and tricks.max() <= 13
    assert tricks.sum() == 13 * len(tricks) // 4  # each deal's four labels share its 13 tricks
    masks = np.array(data.mask)
    assert (masks[:, 52:].sum(axis=1) > 0).all()  # every kept position is a call


def test_an_outlook_head_of_the_wrong_size_is_named(tmp_path: Path) -> None:
    arrays = _random_network(outlook=True).arrays()
    arrays["outlook0.w"] = arrays["outlook0.w"][:, :14]
    arrays["outlook0.b"] = arrays["outlook0.b"][:14]
    path = tmp_path / "short.npz"
    np.savez(path, **arrays)  # type: ignore[arg-type]
    with pytest.raises(NeuralWeightsError, match=r"short.npz: the outlook head has 14 classes"):
        Network.load(path)


@pytest.mark.slow
def test_a_tiny_outlook_run_fits_a_head_the_bot_calls_by(tmp_path: Path) -> None:
    out = tmp_path / "outlook"
    s = OutlookSettings(generations=2, positions=600, chunk=300, tables=16, hidden=(8,), steps=20,
                        batch=64, eval_sets=1)
    net = run_outlook(NET, out, s, progress=False, command="callbreak train-outlook (test)")
    log = [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]
    assert [e["generation"] for e in log] == [0, 1]
    assert all(e["positions"] >= 600 and np.isfinite(e["held_out_loss"]) for e in log)
    assert net.meta["command"] == "callbreak train-outlook (test)" and net.meta["base"] == NET.meta
    assert net.meta["outlook_positions"] == sum(e["positions"] for e in log)
    assert len(net.outlook) == 2
    again = Network.load(out / "neural.npz")
    assert np.array_equal(again.outlook[-1][0], net.outlook[-1][0])
    # the trunk and the policy are the base's: card play is unchanged
    assert np.array_equal(again.trunk[0][0], NET.trunk[0][0]) and np.array_equal(again.policy[0], NET.policy[0])

    run_outlook(NET, out, OutlookSettings(**{**s.__dict__, "generations": 2}), progress=False)  # resumes: nothing new
    assert len((out / "log.jsonl").read_text().splitlines()) == 2
    with pytest.raises(TrainingError, match="other settings"):
        run_outlook(NET, out, OutlookSettings(**{**s.__dict__, "steps": 21}), progress=False)

    bot = make_bot(f"neural:weights={out / 'neural.npz'}")
    for view, action in _decisions(bot, "partnership", 2):
        assert action in view.legal


def test_the_command_names_a_missing_base_and_trains_from_a_real_one(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from callbreak.cli.main import app

    runner = CliRunner()
    missing = runner.invoke(app, ["train-outlook", str(tmp_path / "none.npz"), "--out", str(tmp_path / "o")])
    assert missing.exit_code != 0 and "none.npz" in "".join(missing.output.split())  # however it wraps
    base = tmp_path / "base.npz"
    NET.save(base)
    done = runner.invoke(app, ["train-outlook", str(base), "--out", str(tmp_path / "o"), "--generations", "1",
                               "--positions", "200", "--steps", "20", "--eval-sets", "1"])
    assert done.exit_code == 0, done.output
    made = Network.load(tmp_path / "o" / "neural.npz")
    assert made.outlook and made.meta["command"].startswith("callbreak train-outlook")


@pytest.mark.parametrize("preset", ["callbreak", "partnership", "567"])
def test_the_batched_call_is_the_bots_call(preset: str) -> None:
    """Self-play calls in batches (calls_by_outlook); the bot at a table calls one view at a time:
    the same call for the same view, the partner's call counted in partnership."""
    from callbreak.bots.neural import calls_by_outlook, features, partner_calls
    from callbreak.games.spaces import CALL0, legal_ids

    net = _random_network(seed=11, outlook=True)
    bot = NeuralBot(net)
    checked = 0
    for seed in range(6):
        for view, action in _decisions(bot, preset, seed):
            if view.phase is Phase.CALL and any(isinstance(a, Call) and not a.blind for a in view.legal) \
                    and not any(isinstance(a, Look) for a in view.legal):
                x = features(view, net.scale)[None, :]
                mask = np.zeros((1, 83), dtype=np.int8)
                mask[0, list(legal_ids(view))] = 1
                _, _, outlook = net.forward_all(x, mask)
                chosen = calls_by_outlook(outlook, mask, partner_calls(x, view.rules), view.rules)[0]
                assert isinstance(action, Call) and chosen == CALL0 + action.tricks
                checked += 1
    assert checked >= 20


@pytest.mark.slow
def test_a_tiny_refine_run_trains_on_from_the_base_and_refits_the_outlook(tmp_path: Path) -> None:
    from callbreak.learn.refine import RefineSettings, run_refine

    outlook_run = tmp_path / "outlook"
    base = run_outlook(NET, outlook_run, OutlookSettings(generations=1, positions=300, chunk=300, tables=16,
                                                         hidden=(8,), steps=5, batch=32, eval_sets=1),
                       progress=False)
    s = RefineSettings(positions=60, chunk=30, tables=4, samples=8, steps=5, batch=16, eval_sets=1)
    net = run_refine(base, tmp_path / "refine", s, replay=[], outlook_chunks=outlook_run / "chunks",
                     progress=False, command="callbreak train-refine (test)")
    with np.load(tmp_path / "refine" / "chunks" / "refine-000.npz") as chunk:
        q, mask = chunk["q"], chunk["mask"]
    labelled = np.isfinite(q)
    assert len(q) >= 30 and (mask[labelled] == 1).all()
    assert not labelled[:, 52:].any()  # cards only: the calls are the outlook's
    assert net.meta["command"] == "callbreak train-refine (test)" and net.meta["positions"] >= 60
    assert net.meta["base"] == base.meta and net.outlook and np.isfinite(net.meta["margin_against_heuristic"])
    assert not np.array_equal(net.trunk[0][0], base.trunk[0][0])  # trained on from the base's weights
    assert Network.load(tmp_path / "refine" / "neural.npz").meta["positions"] == net.meta["positions"]
