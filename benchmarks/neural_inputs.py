"""What the network's inputs and the suit relabelling are worth, on one run's stored positions.

Trains the same network (three hidden layers of 256, Adam 1e-3, batches of 512, the training's
loss) on a run's positions but the last ``--held`` chunks, three ways: the stored input alone,
with the derived features (:func:`callbreak.bots.neural.derived`), and with both and the side
suits relabelled at random (:func:`callbreak.learn.train.permute_suits`). Every ``--every``
steps it reports, on the held-out positions, how often the network picks the expert's best
action and the points a decision its picks lose by the expert's values.

    .venv/bin/python benchmarks/neural_inputs.py --run runs/neural-s1 --gens 0,1 --steps 4000
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np


def main(argv: list[str] | None = None) -> int:
    import torch

    from callbreak.bots.neural import BASE, INPUTS, derived
    from callbreak.learn.train import losses, make_model, permute_suits

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--run", type=Path, required=True)
    p.add_argument("--gens", default="0,1")
    p.add_argument("--held", type=int, default=2, help="chunks held out (the newest)")
    p.add_argument("--steps", type=int, default=4000)
    p.add_argument("--every", type=int, default=1000)
    p.add_argument("--only", choices=["base", "derived", "relabelled"], action="append")
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    files = sorted(f for g in args.gens.split(",") for f in (args.run / "chunks").glob(f"gen{int(g):03d}-*.npz"))
    keys = ("x", "mask", "q", "value")

    def load(fs: list[Path]) -> dict[str, np.ndarray]:
        parts = [dict(np.load(f)) for f in fs]
        return {k: np.concatenate([p[k] for p in parts]) for k in keys}

    train, held = load(files[:-args.held]), load(files[-args.held:])
    print(f"{len(train['x']):,} positions to train on, {len(held['x']):,} held out")
    q = held["q"]
    rows = np.isfinite(q).sum(axis=1) > 1
    qq = np.where(np.isfinite(q[rows]), q[rows], -np.inf)
    best = qq.argmax(axis=1)

    for way in args.only or ["base", "derived", "relabelled"]:
        use = way != "base"

        def inputs(x: np.ndarray, mask: np.ndarray, use: bool = use) -> np.ndarray:
            return np.concatenate([x, derived(x, mask)], axis=1) if use else x

        torch.manual_seed(0)
        model = make_model((256, 256, 256), inputs=INPUTS if use else BASE)
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        rng = np.random.default_rng(0)
        start = time.perf_counter()
        for step in range(1, args.steps + 1):
            idx = rng.integers(0, len(train["x"]), 512)
            x, mask, qb = train["x"][idx].astype(np.float32), train["mask"][idx], train["q"][idx]
            if way == "relabelled":
                x, mask, qb = permute_suits(x, mask, qb, rng)
            loss, _ = losses(model, torch.from_numpy(inputs(x, mask)), torch.from_numpy(mask),
                             torch.from_numpy(qb), torch.from_numpy(train["value"][idx]), 0.3, 0.5)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % args.every == 0:
                with torch.no_grad():
                    logits, _ = model(torch.from_numpy(inputs(held["x"][rows].astype(np.float32),
                                                              held["mask"][rows])))
                pick = np.where(np.isfinite(qq), logits.numpy(), -np.inf).argmax(axis=1)
                ix = np.arange(len(pick))
                print(f"{way:>10} {step:>6} steps: picks the expert's best {(pick == best).mean():.1%}, "
                      f"loses {(qq[ix, best] - qq[ix, pick]).mean():.3f} points a decision "
                      f"({time.perf_counter() - start:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
