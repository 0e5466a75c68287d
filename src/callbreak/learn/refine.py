"""Refining a network's card play: its own positions, labelled by a deeper search, learned on top.

The first runs (:mod:`callbreak.learn.train`) labelled each card from 32 sampled deals, played from
a population where the network held about a third of the seats, and reached the heuristic bot's
card play. Here the network (calling by its outlook head, :mod:`callbreak.learn.outlook`) holds
most seats, so the positions are the ones it meets, and each card it could play is valued from
``samples`` sampled deals (128 by default: a quarter of the noise of 32, at about 6 ms of CPU a
position). The network is then trained further from its own weights on these positions and the
base run's, its outlook head refitted on the new trunk (the DAgger recipe: imitate the expert on
the states the learner visits).
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from callbreak.bots.expert import ExpertBot
from callbreak.bots.neural import Network
from callbreak.env.vector import VectorEnv
from callbreak.learn.outlook import OutlookSettings, fit_head, load, trunk_features, with_outlook
from callbreak.learn.positions import Batch, Population, SelfPlay
from callbreak.learn.train import (
    PRESET_MIX,
    TrainingError,
    _torch,
    export,
    git_commit,
    make_model,
    margin_against,
    train_step,
)

REFINE_POPULATION = {"net": 0.75, "heuristic": 0.15, "greedy": 0.05, "random": 0.05}


@dataclass
class RefineSettings:
    """Everything that decides a refining run (saved in its folder; a resume must match it)."""

    seed: int = 1
    positions: int = 200_000  # labelled card positions
    chunk: int = 5_000
    tables: int = 32
    samples: int = 128  # sampled deals behind each card's value
    temperature: float = 0.5  # the network's seats draw by their policy at this temperature
    steps: int = 6_000
    batch: int = 512
    lr: float = 3e-4
    tau: float = 0.3
    value_weight: float = 0.5
    eval_sets: int = 50
    presets: dict[str, float] = field(default_factory=lambda: dict(PRESET_MIX))

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def collect(net: Network, s: RefineSettings, chunks: Path, on_positions: Any = None,
            part: int = 0, parts: int = 1) -> int:
    """The labelled positions, in chunk files under ``chunks`` (those already there are kept: a
    stopped run loses at most one chunk); returns how many. ``part`` of ``parts``: only the chunks
    ``k`` with ``k % parts == part`` (processes filling one run side by side)."""
    chunks.mkdir(parents=True, exist_ok=True)
    presets = list(s.presets)
    weights = np.array([s.presets[p] for p in presets])
    total = 0
    for k in range(math.ceil(s.positions / s.chunk)):
        path = chunks / f"refine-{k:03d}.npz"
        if k % parts != part:
            continue
        if not path.exists():
            rng = np.random.default_rng([s.seed, 7, k])
            preset = presets[int(rng.choice(len(presets), p=weights / weights.sum()))]
            env = VectorEnv(num_tables=s.tables, preset=preset, seed=int(rng.integers(2**31)), reward="deal")
            labeller = ExpertBot(samples=s.samples, seed=int(rng.integers(2**31)), read="off", settle=0)
            play = SelfPlay(env, Population(REFINE_POPULATION), labeller, [net], seed=int(rng.integers(2**31)),
                            temperature=s.temperature, label_calls=False)
            batch = Batch()
            want = min(s.chunk, s.positions - k * s.chunk)
            while sum(1 for v in batch.value if not math.isnan(v)) < want:
                play.step(batch)
            arrays = batch.arrays()
            keep = np.isfinite(arrays["value"])  # whole deals only
            tmp = path.with_suffix(".tmp.npz")
            np.savez_compressed(tmp, preset=np.array(preset), **{key: a[keep] for key, a in arrays.items()})
            os.replace(tmp, path)
        with np.load(path) as d:
            n = len(d["x"])
        total += n
        if on_positions is not None:
            on_positions(total)
    return total


def _load_policy_chunks(paths: list[Path]) -> dict[str, np.ndarray]:
    parts = []
    for path in paths:
        with np.load(path) as d:
            parts.append({k: d[k] for k in ("x", "mask", "q", "value")})
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def import_weights(model: Any, net: Network) -> None:
    """Load a numpy network's trunk and heads into a PyTorch model of the same shape."""
    torch = _torch()
    linears = [m for m in model.trunk if hasattr(m, "weight")]
    with torch.no_grad():
        for m, (w, b) in zip([*linears, model.policy, model.value], [*net.trunk, net.policy, net.value],
                             strict=True):
            m.weight.copy_(torch.from_numpy(w.T.copy()))
            m.bias.copy_(torch.from_numpy(b.copy()))


def fine_tune(base: Network, data: dict[str, np.ndarray], s: RefineSettings) -> Network:
    """``s.steps`` gradient steps from ``base``'s weights on ``data`` (the outlook head is dropped:
    it reads a trunk that has changed)."""
    torch = _torch()
    torch.manual_seed(s.seed)
    model = make_model(tuple(w.shape[1] for w, _ in base.trunk))
    import_weights(model, base)
    optimizer = torch.optim.Adam(model.parameters(), lr=s.lr)
    rng = np.random.default_rng([s.seed, 8])
    x, mask, q = data["x"], data["mask"], data["q"]
    value = torch.from_numpy(data["value"])
    model.train()
    for step in range(s.steps):
        for group in optimizer.param_groups:
            group["lr"] = s.lr * 0.5 * (1 + math.cos(math.pi * step / s.steps))
        train_step(model, optimizer, (x, mask, q, value), rng.integers(0, len(x), s.batch), rng, s.tau,
                   s.value_weight)
    model.eval()
    return export(model, base.scale, {})


def run_refine(base: Network, out: Path, s: RefineSettings, *, replay: list[Path], outlook_chunks: Path,
               progress: bool = True, command: str | None = None) -> Network:
    """Collect, fine-tune ``base`` on the new positions and the ``replay`` chunks, refit the
    outlook head on ``outlook_chunks``; writes ``out/neural.npz`` and ``out/log.json``."""
    out.mkdir(parents=True, exist_ok=True)
    saved = out / "settings.json"
    now = s.to_json()
    if saved.exists() and json.loads(saved.read_text()) != now:
        raise TrainingError(f"{out} holds a run with other settings; choose another --out")
    saved.write_text(json.dumps(now, indent=2) + "\n")
    say = print if progress else (lambda *a, **k: None)
    commit = git_commit()  # the code that labels, taken now: the checkout may move during a long run
    t0, c0 = time.time(), time.process_time()
    count = collect(base, s, out / "chunks",
                    lambda n: say(f"\r{n:,} of {s.positions:,} positions", end="", flush=True))
    say("")
    t1, c1 = time.time(), time.process_time()
    data = _load_policy_chunks(sorted((out / "chunks").glob("refine-*.npz")) + replay)
    tuned = fine_tune(base, data, s)
    o = OutlookSettings(seed=s.seed)
    outlook_data = load(outlook_chunks, range(1000), o.window)
    head, measured = fit_head(trunk_features(tuned, outlook_data), outlook_data["tricks"], o, 0)
    meta = {"command": command or " ".join(sys.argv), "seed": s.seed, "commit": commit,
            "refine_settings": now, "base": base.meta, "positions": count, "trained_on": len(data["x"]),
            "outlook_positions": len(outlook_data["tricks"]), **measured,
            "collect_wall_s": round(t1 - t0, 1), "collect_cpu_s": round(c1 - c0, 1),
            "fit_wall_s": round(time.time() - t1, 1), "fit_cpu_s": round(time.process_time() - c1, 1)}
    net = with_outlook(tuned, head, meta)
    net.save(out / "neural.npz")
    margin, ci = margin_against(f"neural:weights={out / 'neural.npz'}", "heuristic", s.eval_sets,
                                seed=10_000 + s.seed)
    meta |= {"margin_against_heuristic": margin, "margin_ci": ci}
    net = with_outlook(tuned, head, meta)
    net.save(out / "neural.npz")
    say(f"{count:,} positions; against heuristic {margin:+.2f} ± {ci:.2f} a deal")
    return net
