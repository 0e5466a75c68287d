"""The training run behind the ``neural`` bot: expert iteration on the batched environment.

Each generation (see :func:`run`):

1. **Positions.** Self-play on :class:`~callbreak.env.vector.VectorEnv` tables of a preset drawn
   from :data:`PRESET_MIX`, seats drawn from the population (the current network, its past
   versions, random, greedy, heuristic and expert bots; generation 0 has no network yet), every
   choice labelled by the expert's search at a small budget (:mod:`callbreak.learn.positions`;
   a call from more simulated deals than a card: a network fitted to calls from 32 deals called
   0.15 a deal worse than the heuristic bot, its card play level with it).
   Positions are written in chunks, so a stopped run loses at most one chunk.
2. **Learning.** The network (PyTorch) is fitted to every position of the last ``window``: the
   policy to the expert's values made into a distribution (``softmax(value / tau)``), the value
   head to the seat's deal points.
3. **Measuring.** Before training on them, the new positions measure the last network (how often
   it picks the expert's card, and the points its choices lose by the expert's values); after
   training the network plays duplicate sets against three heuristic bots (its margin a deal).

The run directory holds the settings, the chunks, a checkpoint per generation (the run resumes
from the last one), the exported numpy weights of every generation (``nets/``), ``log.jsonl``,
the learning curve ``curve.png`` and, at the end, ``neural.npz`` with its ``neural.json``.

Why search targets, not PPO: on 2 CPU cores the expert's appraisal of a position costs a few
milliseconds and says how much every legal card is worth, while a policy gradient learns from one
noisy deal score for a whole deal's choices and needs orders of magnitude more games; the
network's own play still drives what positions it meets (its seats in the population), which is
the self-play half of expert iteration (Anthony, Tian and Barber, 2017).
"""

from __future__ import annotations

import itertools
import json
import math
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from callbreak.arena.stats import mean_ci
from callbreak.bots.expert import ExpertBot
from callbreak.bots.neural import BASE, ENCODER, INPUTS, Network, derived, input_scale
from callbreak.env.vector import VectorEnv
from callbreak.games.spaces import CALLBREAK_ACTIONS
from callbreak.learn.evaluate import per_set, play_sets
from callbreak.learn.positions import Batch, Population, SelfPlay

# The presets the batched environment covers, and how often each is drawn for a chunk.
PRESET_MIX = {"callbreak": 0.3, "bhoos-tournament": 0.15, "nepal-traditional": 0.1, "catsatcards": 0.1,
              "567": 0.1, "no-trump": 0.05, "partnership": 0.05, "call-bridge": 0.1,
              "call-bridge-simple": 0.05}
FIRST_POPULATION = {"heuristic": 0.35, "greedy": 0.2, "random": 0.1, "expert": 0.35}
POPULATION = {"net": 0.35, "past": 0.1, "heuristic": 0.2, "greedy": 0.1, "random": 0.05, "expert": 0.2}


class TrainingError(RuntimeError):
    """A run directory that cannot be resumed with these settings, or a missing extra."""


@dataclass
class Settings:
    """Everything that decides a run (saved in the run directory; a resume must match it)."""

    seed: int = 1
    generations: int = 12
    positions: int = 30_000  # labelled positions per generation
    chunk: int = 4_000  # positions per chunk file
    tables: int = 32
    samples: int = 32  # sampled deals behind each of the expert's appraisals of the cards
    call_samples: int = 1024  # simulated deals behind each of its trick outlooks for a call
    hidden: tuple[int, ...] = (256, 256, 256)
    steps: int = 1_500  # gradient steps per generation
    batch: int = 512
    lr: float = 1e-3
    tau: float = 0.3  # points: how sharply the expert's values become the policy target
    value_weight: float = 0.5
    window: int = 1_000_000  # train on at most this many of the latest positions
    eval_sets: int = 25  # duplicate sets (4 matches of 5 deals) against heuristic, each generation
    presets: dict[str, float] = field(default_factory=lambda: dict(PRESET_MIX))

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["hidden"] = list(self.hidden)
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Settings:
        d = dict(d)
        d["hidden"] = tuple(d["hidden"])
        return cls(**d)


def _torch() -> Any:
    try:
        import torch
    except ImportError:
        raise TrainingError("training needs PyTorch: pip install 'callbreak[train]'") from None
    return torch


def make_model(hidden: tuple[int, ...], inputs: int = INPUTS) -> Any:
    """The network in PyTorch: the same layers :class:`~callbreak.bots.neural.Network` plays
    (``inputs``: another input width, for experiments)."""
    torch = _torch()
    nn = torch.nn

    class Model(nn.Module):  # type: ignore[misc, name-defined]
        def __init__(self) -> None:
            super().__init__()
            layers: list[Any] = []
            width = inputs
            for h in hidden:
                layers += [nn.Linear(width, h), nn.ReLU()]
                width = h
            self.trunk = nn.Sequential(*layers)
            self.policy = nn.Linear(width, CALLBREAK_ACTIONS)
            self.value = nn.Linear(width, 1)

        def forward(self, x: Any) -> tuple[Any, Any]:
            h = self.trunk(x)
            return self.policy(h), self.value(h)[:, 0]

    return Model()


def export(model: Any, scale: np.ndarray, meta: dict[str, Any]) -> Network:
    """The numpy network of a PyTorch model."""
    linears = [m for m in model.trunk if hasattr(m, "weight")]

    def pair(m: Any) -> tuple[np.ndarray, np.ndarray]:
        return (m.weight.detach().numpy().T.astype(np.float32).copy(),
                m.bias.detach().numpy().astype(np.float32).copy())

    return Network(tuple(pair(m) for m in linears), pair(model.policy), pair(model.value), scale, meta)


def losses(model: Any, x: Any, mask: Any, q: Any, value: Any, tau: float, value_weight: float
           ) -> tuple[Any, dict[str, float]]:
    """The training loss of a batch, and its parts for the log."""
    torch = _torch()
    logits, v = model(x)
    legal = mask > 0
    logp = torch.log_softmax(logits.masked_fill(~legal, -1e9), dim=1)
    labelled = torch.isfinite(q)
    rows = labelled.any(dim=1)
    target = torch.softmax(torch.where(labelled, q / tau, torch.full_like(q, -1e9)), dim=1)
    policy = -(target * logp).sum(dim=1)
    policy_loss = policy[rows].mean() if rows.any() else logits.sum() * 0
    known = torch.isfinite(value)
    value_loss = (torch.nn.functional.smooth_l1_loss(v[known] / 5, value[known] / 5)
                  if known.any() else v.sum() * 0)
    total = policy_loss + value_weight * value_loss
    return total, {"policy": policy_loss.item(), "value": value_loss.item()}


def agreement(net: Network, data: dict[str, np.ndarray]) -> dict[str, float]:
    """On labelled positions: how often the network picks the expert's best action, and the
    points a decision its choices lose by the expert's values (card play and calls)."""
    q = data["q"]
    rows = np.isfinite(q).any(axis=1) & (np.isfinite(q).sum(axis=1) > 1)
    if not rows.any():
        return {"agree": math.nan, "regret": math.nan}
    x = data["x"][rows].astype(np.float32)
    logits, _ = net.forward(x, data["mask"][rows])
    qq = np.where(np.isfinite(q[rows]), q[rows], -np.inf)
    logits = np.where(np.isfinite(qq), logits, -np.inf)
    pick = logits.argmax(axis=1)
    best = qq.argmax(axis=1)
    ix = np.arange(len(pick))
    return {"agree": float((pick == best).mean()), "regret": float((qq[ix, best] - qq[ix, pick]).mean())}


def margin_against(spec: str, field_bot: str, sets: int, seed: int) -> tuple[float, float]:
    """``spec`` against three ``field_bot`` on duplicate sets: its points a deal less the mean of
    the other three at its table, and the half-width of the 95% interval over sets."""
    _, margins = per_set(play_sets(spec, (field_bot,) * 3, seed, sets))
    m, low, _ = mean_ci(margins)
    return m, math.nan if low is None else m - low


def git_commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                             cwd=Path(__file__).parent, timeout=10)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


class Run:
    """A run directory: settings, chunks, checkpoints, the log."""

    def __init__(self, out: Path, settings: Settings) -> None:
        self.out = out
        self.settings = settings
        out.mkdir(parents=True, exist_ok=True)
        (out / "chunks").mkdir(exist_ok=True)
        (out / "nets").mkdir(exist_ok=True)
        saved = out / "settings.json"
        if saved.exists():
            before = json.loads(saved.read_text())
            now = settings.to_json()
            changed = sorted(k for k in before if before.get(k) != now.get(k) and k != "generations")
            if changed:
                raise TrainingError(f"{out} holds a run with other settings ({', '.join(changed)}); "
                                    "resume it with the same ones or choose another --out")
        saved.write_text(json.dumps(settings.to_json(), indent=2) + "\n")

    @property
    def log_path(self) -> Path:
        return self.out / "log.jsonl"

    def log(self) -> list[dict[str, Any]]:
        if not self.log_path.exists():
            return []
        return [json.loads(line) for line in self.log_path.read_text().splitlines() if line.strip()]

    def chunk_path(self, gen: int, k: int) -> Path:
        return self.out / "chunks" / f"gen{gen:03d}-{k:03d}.npz"

    def net_path(self, gen: int) -> Path:
        return self.out / "nets" / f"gen{gen:03d}.npz"

    def load_chunks(self, gens: range) -> dict[str, np.ndarray]:
        parts: list[dict[str, np.ndarray]] = []
        for g in gens:
            for path in sorted((self.out / "chunks").glob(f"gen{g:03d}-*.npz")):
                with np.load(path) as d:
                    parts.append({k: d[k] for k in d.files if d[k].ndim})  # not the preset's name
        if not parts:
            return {}
        return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def generate(run: Run, gen: int, nets: list[Network], on_positions: Callable[[int], None]) -> int:
    """Fill generation ``gen``'s chunks (those already on disk are kept); returns positions."""
    s = run.settings
    chunks = math.ceil(s.positions / s.chunk)
    total = 0
    presets = list(s.presets)
    weights = np.array([s.presets[p] for p in presets])
    for k in range(chunks):
        path = run.chunk_path(gen, k)
        if path.exists():
            with np.load(path) as d:
                n = len(d["x"])
            total += n
            on_positions(n)
            continue
        rng = np.random.default_rng([s.seed, gen, k])
        preset = presets[int(rng.choice(len(presets), p=weights / weights.sum()))]
        env = VectorEnv(num_tables=s.tables, preset=preset, seed=int(rng.integers(2**31)), reward="deal")
        labeller = ExpertBot(samples=s.samples, seed=int(rng.integers(2**31)), read="off", settle=0)
        caller = ExpertBot(samples=s.call_samples, seed=int(rng.integers(2**31)), read="off", settle=0)
        population = Population(FIRST_POPULATION if not nets else POPULATION)
        play = SelfPlay(env, population, labeller, nets, seed=int(rng.integers(2**31)),
                        call_labeller=caller)
        batch = Batch()
        want = min(s.chunk, s.positions - k * s.chunk)
        while True:
            n = len(batch)
            play.step(batch)
            on_positions(len(batch) - n)
            known = sum(1 for v in batch.value if not math.isnan(v))
            if known >= want:
                break
        arrays = batch.arrays()
        keep = np.isfinite(arrays["value"])  # whole deals only: every kept position has its value
        arrays = {key: a[keep] for key, a in arrays.items()}
        tmp = path.with_suffix(".tmp.npz")
        np.savez_compressed(tmp, preset=np.array(preset), **arrays)  # type: ignore[arg-type]
        os.replace(tmp, path)
        total += len(arrays["x"])
    return total


def _suit_permutations() -> tuple[np.ndarray, np.ndarray]:
    """For each of the 6 orders of the three side suits (spades, the usual trump, stay put): the
    columns of a stored input and the action ids in their new places."""
    enc = ENCODER
    cols, acts = [], []
    for order in itertools.permutations((1, 2, 3)):
        suit = np.array([0, *order])
        card = (suit[:, None] * 13 + np.arange(13)).reshape(52)  # card c's new place: card[c]
        col = np.arange(BASE)
        for name, width in (("hand", 52), ("played", 52), ("trick", 52), ("voids", 4), ("trump", 4)):
            block = enc.blocks[name]
            move = card if width == 52 else suit
            for start in range(block.offset, block.offset + block.size, width):
                col[start + move] = np.arange(start, start + width)
        act = np.arange(CALLBREAK_ACTIONS)
        act[card] = np.arange(52)
        cols.append(col)
        acts.append(act)
    return np.array(cols), np.array(acts)


_COLS, _ACTS = _suit_permutations()


def permute_suits(x: np.ndarray, mask: np.ndarray, q: np.ndarray, rng: np.random.Generator
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each position with its side suits (hearts, clubs, diamonds) relabelled at random: the same
    position for the rules (nothing treats those suits apart), six times the data."""
    k = rng.integers(0, len(_COLS), len(x))
    return (np.take_along_axis(x, _COLS[k], axis=1), np.take_along_axis(mask, _ACTS[k], axis=1),
            np.take_along_axis(q, _ACTS[k], axis=1))


def fit(run: Run, model: Any, optimizer: Any, gen: int, data: dict[str, np.ndarray]) -> dict[str, float]:
    """``steps`` gradient steps on the latest ``window`` positions."""
    torch = _torch()
    s = run.settings
    n = len(data["x"])
    start = max(0, n - s.window)
    x, mask = data["x"][start:], data["mask"][start:]
    q = data["q"][start:]
    value = torch.from_numpy(data["value"][start:])
    rng = np.random.default_rng([s.seed, gen])
    sums: dict[str, float] = {"policy": 0.0, "value": 0.0}
    for _ in range(s.steps):
        parts = train_step(model, optimizer, (x, mask, q, value), rng.integers(0, len(x), s.batch), rng,
                           s.tau, s.value_weight)
        for k in sums:
            sums[k] += parts[k] / s.steps
    return {"policy_loss": sums["policy"], "value_loss": sums["value"], "trained_on": len(x)}


def train_step(model: Any, optimizer: Any, data: tuple[np.ndarray, np.ndarray, np.ndarray, Any],
               idx: np.ndarray, rng: np.random.Generator, tau: float, value_weight: float) -> dict[str, float]:
    """One gradient step on the positions ``idx`` of (inputs, masks, targets, values as a tensor),
    their side suits relabelled at random; returns the loss's parts."""
    torch = _torch()
    x, mask, q, value = data
    xb, mb, qb = permute_suits(x[idx].astype(np.float32), mask[idx], q[idx], rng)
    full = torch.from_numpy(np.concatenate([xb, derived(xb, mb)], axis=1))
    loss, parts = losses(model, full, torch.from_numpy(mb), torch.from_numpy(qb), value[idx], tau, value_weight)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return parts


def plot(run: Run) -> None:
    """The learning curve: margin against heuristic, and agreement with the expert."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    log = run.log()
    if not log:
        return
    gens = [e["generation"] for e in log]
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    a.errorbar(gens, [e["margin"] for e in log], yerr=[e["margin_ci"] for e in log], marker="o", capsize=3)
    a.axhline(0, color="grey", lw=0.8)
    a.set_xlabel("generation")
    a.set_ylabel("points a deal over the table (95% interval)")
    a.set_title("neural against three heuristic bots")
    b.plot(gens, [e.get("agree_new") or math.nan for e in log], marker="o", label="picks the expert's best")
    b.plot(gens, [e.get("regret_new") or math.nan for e in log], marker="s", label="points lost a decision")
    b.set_xlabel("generation")
    b.set_title("the network so far, on each generation's new positions")
    b.legend()
    fig.tight_layout()
    fig.savefig(run.out / "curve.png", dpi=90)
    plt.close(fig)


def run(out: Path, settings: Settings, *, progress: bool = True, command: str | None = None) -> Network:
    """Run (or resume) training into ``out``; returns the final network, also written to
    ``out/neural.npz`` with what made it in ``out/neural.json``."""
    torch = _torch()
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    r = Run(out, settings)
    s = settings
    torch.manual_seed(s.seed)
    model = make_model(s.hidden)
    optimizer = torch.optim.Adam(model.parameters(), lr=s.lr)
    log = r.log()
    done = len(log)
    ckpt = out / "checkpoint.pt"
    if done and ckpt.exists():
        state = torch.load(ckpt, weights_only=True)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
    elif done:
        raise TrainingError(f"{out} has a log of {done} generation(s) but no checkpoint.pt")
    scale = input_scale()
    meta_base = {"command": command or " ".join(sys.argv), "seed": s.seed, "commit": git_commit(),
                 "settings": s.to_json()}
    nets = [Network.load(r.net_path(e["generation"])) for e in log]
    nets = nets[-1:] + nets[:-1]  # current first, then the past ones
    started = time.time()
    cpu0 = time.process_time()
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), disable=not progress) as bar:
        for gen in range(done, s.generations):
            task = bar.add_task(f"generation {gen}: positions", total=s.positions)
            g0, c0 = time.time(), time.process_time()
            count = generate(r, gen, nets, lambda n: bar.advance(task, n))  # noqa: B023
            bar.update(task, completed=s.positions, description=f"generation {gen}: learning")
            data = r.load_chunks(range(gen + 1))  # read once: the newest rows are this generation's
            new = {k: v[len(v) - count:] for k, v in data.items()}
            before = agreement(nets[0], new) if nets else {"agree": math.nan, "regret": math.nan}
            model.train()
            fitted = fit(r, model, optimizer, gen, data)
            model.eval()
            net = export(model, scale, {**meta_base, "generation": gen})
            net.save(r.net_path(gen))
            bar.update(task, description=f"generation {gen}: measuring")
            margin, ci = margin_against(f"neural:weights={r.net_path(gen)}", "heuristic", s.eval_sets,
                                        seed=10_000 + s.seed)
            torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, ckpt)
            entry = {"generation": gen, "positions": count, "agree_new": before["agree"],
                     "regret_new": before["regret"], **fitted, "margin": margin, "margin_ci": ci,
                     "wall_s": time.time() - g0, "cpu_s": time.process_time() - c0}
            with open(r.log_path, "a") as f:  # NaN (nothing to compare yet) as null
                f.write(json.dumps({k: None if isinstance(v, float) and math.isnan(v) else v
                                    for k, v in entry.items()}) + "\n")
            plot(r)
            bar.remove_task(task)
            if progress:
                bar.console.print(f"generation {gen}: {count:,} positions, policy loss "
                                  f"{fitted['policy_loss']:.3f}, against heuristic {margin:+.2f} "
                                  f"± {ci:.2f} a deal")
            nets = [net, *nets]
    log = r.log()
    meta = {**meta_base, "generations": len(log), "positions": int(sum(e["positions"] for e in log)),
            "wall_s": round(sum(e["wall_s"] for e in log), 1),
            "cpu_s": round(sum(e["cpu_s"] for e in log), 1),
            "margin_against_heuristic": log[-1]["margin"] if log else None,
            "this_session_wall_s": round(time.time() - started, 1),
            "this_session_cpu_s": round(time.process_time() - cpu0, 1)}
    final = Network.load(r.net_path(log[-1]["generation"]))
    final = Network(final.trunk, final.policy, final.value, final.scale, meta)
    final.save(out / "neural.npz")
    return final
