"""The training run end to end, in seconds: positions from self-play labelled by the expert, a
network fitted to them, the log, the curve, the exported weights, and a resumed run."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from callbreak.bots import make_bot  # noqa: E402
from callbreak.bots.neural import BASE, Network  # noqa: E402
from callbreak.core import CHANCE  # noqa: E402
from callbreak.games import game_info, new_game  # noqa: E402
from callbreak.games.spaces import CALL0, CALLBREAK_ACTIONS  # noqa: E402
from callbreak.learn.train import Settings, TrainingError, run  # noqa: E402

TINY = dict(positions=120, chunk=60, tables=4, samples=8, call_samples=8, hidden=(16,), steps=10, batch=32,
            eval_sets=2)


@pytest.mark.slow
def test_a_tiny_run_trains_logs_and_exports_weights_the_bot_plays(tmp_path: Path) -> None:
    out = tmp_path / "run"
    net = run(out, Settings(generations=2, **TINY), progress=False, command="callbreak train (test)")
    log = [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]
    assert [e["generation"] for e in log] == [0, 1]
    assert all(e["positions"] >= 60 for e in log)
    assert log[1]["agree_new"] is not None  # the first network measured on the next positions
    assert (out / "curve.png").stat().st_size > 0
    assert net.meta["command"] == "callbreak train (test)" and net.meta["seed"] == 1
    assert net.meta["positions"] == sum(e["positions"] for e in log)

    with np.load(next((out / "chunks").glob("gen000-*.npz"))) as chunk:
        x, mask, q, value = chunk["x"], chunk["mask"], chunk["q"], chunk["value"]
    assert x.shape[1] == BASE and mask.shape[1] == q.shape[1] == CALLBREAK_ACTIONS
    assert np.isfinite(value).all()  # every kept position's deal was scored
    labelled = np.isfinite(q)
    assert (mask[labelled] == 1).all()  # targets only for legal actions
    assert (labelled.sum(axis=1) >= 2).all()  # a label is a choice between actions
    assert labelled[:, CALL0:CALL0 + 14].any() and labelled[:, :52].any()  # calls and cards

    game = new_game("callbreak")
    chance = game_info("callbreak").dealer(1)
    bot = make_bot(f"neural:weights={out / 'neural.npz'}")
    while not game.is_over:
        if game.to_act == CHANCE:
            game.apply(chance.chance(game))
        else:
            view = game.view(game.to_act)
            action = bot.decide(view, 1.0).action
            assert action in view.legal
            game.apply(action)


@pytest.mark.slow
def test_a_run_resumes_from_its_checkpoint_and_refuses_other_settings(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run(out, Settings(generations=1, **TINY), progress=False)
    first = sorted(p.name for p in (out / "chunks").iterdir())
    chunk = (out / "chunks" / first[0]).read_bytes()
    run(out, Settings(generations=2, **TINY), progress=False)  # one more generation
    log = (out / "log.jsonl").read_text().splitlines()
    assert len(log) == 2
    assert (out / "chunks" / first[0]).read_bytes() == chunk  # kept, not made again
    assert Network.load(out / "neural.npz").meta["generations"] == 2
    with pytest.raises(TrainingError, match="samples"):
        run(out, Settings(generations=2, **{**TINY, "samples": 9}), progress=False)


@pytest.mark.slow
def test_the_same_seed_makes_the_same_positions(tmp_path: Path) -> None:
    a = Settings(generations=1, **{**TINY, "positions": 60})
    run(tmp_path / "a", a, progress=False)
    run(tmp_path / "b", a, progress=False)
    with np.load(tmp_path / "a" / "chunks" / "gen000-000.npz") as x, \
            np.load(tmp_path / "b" / "chunks" / "gen000-000.npz") as y:
        assert np.array_equal(x["x"], y["x"])
        assert np.array_equal(x["q"], y["q"], equal_nan=True)


@pytest.mark.parametrize("order_index", range(6))
def test_relabelling_the_side_suits_gives_the_input_of_the_relabelled_game(order_index: int) -> None:
    import itertools
    import random

    from callbreak.bots.neural import features, input_scale
    from callbreak.core.actions import Deal, Play
    from callbreak.core.cards import DECK
    from callbreak.games.spaces import action_mask
    from callbreak.learn.train import _ACTS, _COLS

    order = list(itertools.permutations((1, 2, 3)))[order_index]
    suit = (0, *order)

    def moved(card: object) -> object:
        c = int(card)  # type: ignore[call-overload]
        return DECK[suit[c // 13] * 13 + c % 13]

    game, twin = new_game("callbreak"), new_game("callbreak")
    chance = game_info("callbreak").dealer(5)
    rng = random.Random(order_index)
    while len(game.history) < 45:
        action = chance.chance(game) if game.to_act == CHANCE else rng.choice(game.view(game.to_act).legal)
        game.apply(action)
        if isinstance(action, Deal):
            action = Deal(hands=tuple(tuple(sorted(moved(c) for c in h)) for h in action.hands))
        elif isinstance(action, Play):
            action = Play(action.seat, moved(action.card))
        twin.apply(action)
    mine, theirs = game.view(game.to_act), twin.view(twin.to_act)
    x = features(mine, input_scale())[None]
    mask = action_mask(mine, CALLBREAK_ACTIONS)[None]
    assert np.array_equal(np.take_along_axis(x, _COLS[[order_index]], axis=1),
                          features(theirs, input_scale())[None])
    assert np.array_equal(np.take_along_axis(mask, _ACTS[[order_index]], axis=1),
                          action_mask(theirs, CALLBREAK_ACTIONS)[None])
