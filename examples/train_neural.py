"""Train a small network to play Call Break from scratch, then show it beats the untrained one.

The same training as the shipped ``neural`` bot (``callbreak train``: self-play on the batched
environment, every choice labelled by the expert's search, a network fitted generation after
generation), made small: a network of two hidden layers of 64, three generations of 6,000
positions, the expert's labels from 24 sampled deals. Then both networks, the trained one and the
untrained one it started from (the same seed), play the same duplicate tables against three
``random`` bots, and the gain from training is printed paired, with its 95% interval.

Run (a few minutes on 2 cores; needs ``pip install 'callbreak[train]'``)::

    .venv/bin/python examples/train_neural.py
    .venv/bin/python examples/train_neural.py --out /tmp/small-run --sets 100 --field heuristic

The run folder (by default a new temporary one) keeps the log, ``curve.png`` and the weights:
``callbreak arena neural:weights=RUN/neural.npz heuristic`` seats the result anywhere.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from callbreak.bots.neural import input_scale
from callbreak.learn.evaluate import FIELDS, paired, per_set, play_sets
from callbreak.learn.train import Settings, export, make_model, run


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", type=Path, help="the run folder (default: a new temporary one)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--generations", type=int, default=3)
    p.add_argument("--positions", type=int, default=6_000)
    p.add_argument("--sets", type=int, default=50, help="duplicate sets of the comparison (20 deals each)")
    p.add_argument("--field", default="random", choices=sorted(FIELDS))
    args = p.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="callbreak-neural-"))
    settings = Settings(seed=args.seed, generations=args.generations, positions=args.positions,
                        chunk=2_000, samples=24, call_samples=128, hidden=(64, 64), steps=600, batch=256, eval_sets=5)
    start = time.perf_counter()
    run(out, settings, command="examples/train_neural.py")
    print(f"trained in {time.perf_counter() - start:.0f} s; the run: {out} (log.jsonl, curve.png)")

    import torch

    torch.manual_seed(settings.seed)  # the network the run started from, before any training
    export(make_model(settings.hidden), input_scale(), {"untrained": True}).save(out / "untrained.npz")

    field = FIELDS[args.field]
    results = {}
    for name in ("untrained", "neural"):
        own, _ = per_set(play_sets(f"neural:weights={out / (name + '.npz')}", field, seed=args.seed,
                                   sets=args.sets))
        results[name] = own
        print(f"{name:>9}: {sum(own) / len(own):+.2f} points a deal against 3x {args.field}")
    mean, low, high = paired(results["neural"], results["untrained"])
    print(f"gain from training, paired on the same {args.sets * 20} deals: {mean:+.2f} "
          f"[{low:+.2f}, {high:+.2f}] points a deal (95% interval)")


if __name__ == "__main__":
    main()
