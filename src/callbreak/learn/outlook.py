"""The call outlook: how many tricks a hand takes, learned from deals the network plays itself.

A call decides a whole deal's score, and the policy head fitted to the expert's call values called
0.15 a deal worse than the heuristic bot (calls are one decision in fourteen, and the expert's
outlook is that of its own card play). The outlook head predicts instead the distribution of
tricks the seat goes on to take (the pair's, in partnership once the partner has called), and the
bot calls what scores best over it (:meth:`~callbreak.bots.neural.NeuralBot.decide`). Its labels
cost nothing but play: every call position of a deal played out on the batched environment by the
network itself, all four seats decided in one batch (a share of seats play at random, so that the
outlook has seen weak tables too). The seat's call is drawn from the outlook's own choice with a
share of exploration, so the tricks are those of the play that follows the calls the bot makes.
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

from callbreak.bots.neural import (
    BASE,
    ENCODER,
    OUTLOOK,
    Network,
    calls_by_outlook,
    partner_calls,
    rules_features,
    seen_calls,
)
from callbreak.env.vector import VectorEnv
from callbreak.games.spaces import BLIND0, CALL0, CALLBREAK_ACTIONS, LOOK
from callbreak.learn.train import PRESET_MIX, TrainingError, _torch, git_commit, margin_against

_CALLS = ENCODER.blocks["calls"]
_PARTNER_NONE = _CALLS.offset + 2 * 15 + 14  # the partner (relative seat 2) has not called yet


@dataclass
class OutlookData:
    """Call positions and the tricks taken after them."""

    x: list[np.ndarray] = field(default_factory=list)  # (BASE,) stored inputs
    mask: list[np.ndarray] = field(default_factory=list)  # (83,) legal actions
    tricks: list[int] = field(default_factory=list)

    def arrays(self) -> dict[str, np.ndarray]:
        return {"x": np.asarray(self.x, dtype=np.float16).reshape(-1, BASE),
                "mask": np.asarray(self.mask, dtype=np.int8).reshape(-1, CALLBREAK_ACTIONS),
                "tricks": np.asarray(self.tricks, dtype=np.int8)}


class OutlookPlay:
    """``env``'s tables played by ``net`` at every seat but the random ones; :meth:`play` keeps each
    call position of the network's seats with the tricks taken after it."""

    def __init__(self, env: VectorEnv, net: Network, seed: int, random_share: float = 0.15,
                 explore: float = 0.3, temperature: float = 0.1) -> None:
        self.env = env
        self.net = net
        self.rng = np.random.default_rng(seed)
        self.random_share = random_share
        self.explore = explore
        self.temperature = temperature
        self.rules_x = rules_features(env.rules)
        env.reset(seed=int(self.rng.integers(2**31)))
        t = env.num_tables
        self.random_seat = self.rng.random((t, 4)) < random_share
        self.taken = np.zeros((t, 4), dtype=np.int64)
        self.pending: list[list[tuple[int, int, bool]]] = [[] for _ in range(t)]  # (row, seat, pair)

    def _inputs(self, tables: np.ndarray) -> np.ndarray:
        x = np.empty((len(tables), BASE), dtype=np.float32)
        x[:, :ENCODER.size] = self.env.obs[tables] * self.net.scale
        x[:, ENCODER.size:] = self.rules_x
        return x

    def _choose(self, tables: np.ndarray, out: OutlookData) -> np.ndarray:
        """The network's actions at ``tables``; call positions are kept in ``out``."""
        env = self.env
        x = self._inputs(tables)
        mask = env.mask[tables]
        logits, _, outlook = self.net.forward_all(x, mask)
        logits = np.where(mask == 1, logits, -np.inf)
        g = self.rng.gumbel(size=logits.shape) * self.temperature
        actions = np.argmax(logits + g, axis=1)
        calling = (mask[:, CALL0:CALL0 + 14].any(axis=1) | (mask[:, LOOK] == 1)
                   | mask[:, BLIND0:BLIND0 + 14].any(axis=1))
        seats = env.to_act[tables]
        calls = seen_calls(mask)
        for k in np.flatnonzero(calling):
            t = int(tables[k])
            pair = bool(env.rules.partnership and x[k, _PARTNER_NONE] == 0)
            self.pending[t].append((len(out.x), int(seats[k]), pair))
            out.x.append(x[k].copy())
            out.mask.append(mask[k].copy())
            out.tricks.append(-1)
            if outlook is not None and calls[k] and self.rng.random() > self.explore:
                # The bot's own choice: the call that scores best over the outlook.
                partner = partner_calls(x[k:k + 1], env.rules)
                actions[k] = calls_by_outlook(outlook[k:k + 1], mask[k:k + 1], partner, env.rules)[0]
            elif self.rng.random() < self.explore:
                legal = np.flatnonzero(mask[k])
                actions[k] = int(self.rng.choice(legal))
        return np.asarray(actions)

    def play(self, out: OutlookData, want: int) -> None:
        """Step every table until ``out`` holds ``want`` labelled positions (unlabelled ones, of
        deals not yet over or thrown in, are dropped at the end)."""
        env = self.env
        t_count = env.num_tables
        labelled = 0
        while labelled < want:
            seats = env.to_act
            rand = self.random_seat[np.arange(t_count), seats]
            actions = env.sample_actions(self.rng)
            net_tables = np.flatnonzero(~rand)
            if len(net_tables):
                actions[net_tables] = self._choose(net_tables, out)
            env.step(actions)
            won = env.trick_winner
            for t in np.flatnonzero(won >= 0):
                self.taken[t, won[t]] += 1
            for t in np.flatnonzero((self.taken.sum(axis=1) == 13) | (env.chance_count > 0)):
                if self.taken[t].sum() == 13:  # the deal is over: its call positions get their tricks
                    for row, seat, pair in self.pending[t]:
                        tricks = self.taken[t, seat] + (self.taken[t, (seat + 2) % 4] if pair else 0)
                        out.tricks[row] = int(tricks)
                        labelled += 1
                self.pending[t] = []  # a deal thrown in (or scored): nothing waits any more
                self.taken[t] = 0
                if env.done[t]:
                    self.random_seat[t] = self.rng.random(4) < self.random_share
        keep = [i for i, w in enumerate(out.tricks) if w >= 0]
        out.x = [out.x[i] for i in keep]
        out.mask = [out.mask[i] for i in keep]
        out.tricks = [out.tricks[i] for i in keep]


@dataclass
class OutlookSettings:
    """Everything that decides an outlook run (saved in its folder; a resume must match it)."""

    seed: int = 1
    generations: int = 3
    positions: int = 300_000  # labelled call positions each generation
    chunk: int = 50_000
    tables: int = 256
    hidden: tuple[int, ...] = (128,)
    steps: int = 4_000
    batch: int = 1_024
    lr: float = 1e-3
    window: int = 1_000_000  # fit on at most this many of the latest positions
    eval_sets: int = 25
    presets: dict[str, float] = field(default_factory=lambda: dict(PRESET_MIX))

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["hidden"] = list(self.hidden)
        return d


def with_outlook(net: Network, outlook: tuple[tuple[np.ndarray, np.ndarray], ...],
                 meta: dict[str, Any]) -> Network:
    return Network(net.trunk, net.policy, net.value, net.scale, meta, outlook)


def collect(net: Network, s: OutlookSettings, gen: int, chunks: Path) -> int:
    """Generation ``gen``'s positions, in chunk files under ``chunks`` (those already there are
    kept: a stopped run loses at most one chunk); returns how many."""
    presets = list(s.presets)
    weights = np.array([s.presets[p] for p in presets])
    total = 0
    for k in range(math.ceil(s.positions / s.chunk)):
        path = chunks / f"gen{gen:03d}-{k:03d}.npz"
        if not path.exists():
            rng = np.random.default_rng([s.seed, gen, k])
            preset = presets[int(rng.choice(len(presets), p=weights / weights.sum()))]
            env = VectorEnv(num_tables=s.tables, preset=preset, seed=int(rng.integers(2**31)), reward="deal")
            data = OutlookData()
            OutlookPlay(env, net, seed=int(rng.integers(2**31))).play(data, min(s.chunk, s.positions - total))
            tmp = path.with_suffix(".tmp.npz")
            np.savez_compressed(tmp, **data.arrays())  # type: ignore[arg-type]
            os.replace(tmp, path)
        with np.load(path) as d:
            total += len(d["tricks"])
    return total


def load(chunks: Path, gens: range, window: int) -> dict[str, np.ndarray]:
    parts = []
    for g in gens:
        for path in sorted(chunks.glob(f"gen{g:03d}-*.npz")):
            with np.load(path) as d:
                parts.append({k: d[k] for k in d.files})
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    return {k: v[-window:] for k, v in data.items()}


def trunk_features(net: Network, data: dict[str, np.ndarray], batch: int = 8192) -> np.ndarray:
    """The trunk's last layer for every position (the trunk is not trained here)."""
    n = len(data["x"])
    out = np.empty((n, net.trunk[-1][0].shape[1]), dtype=np.float32)
    for i in range(0, n, batch):
        out[i:i + batch] = net.hidden(data["x"][i:i + batch].astype(np.float32), data["mask"][i:i + batch])
    return out


def fit_head(h: np.ndarray, tricks: np.ndarray, s: OutlookSettings, gen: int
             ) -> tuple[tuple[tuple[np.ndarray, np.ndarray], ...], dict[str, float]]:
    """The outlook head fitted on the trunk's features (the last 5% held out to measure it):
    its layers, and the held-out log loss and mean tricks expected against taken."""
    torch = _torch()
    nn = torch.nn
    torch.manual_seed(s.seed * 1000 + gen)
    layers: list[Any] = []
    width = h.shape[1]
    for w in s.hidden:
        layers += [nn.Linear(width, w), nn.ReLU()]
        width = w
    layers.append(nn.Linear(width, OUTLOOK))
    model = nn.Sequential(*layers)
    opt = torch.optim.Adam(model.parameters(), lr=s.lr)
    held = max(1, len(h) // 20)
    train_h, train_y = torch.from_numpy(h[:-held]), torch.from_numpy(tricks[:-held].astype(np.int64))
    test_h, test_y = torch.from_numpy(h[-held:]), torch.from_numpy(tricks[-held:].astype(np.int64))
    rng = np.random.default_rng([s.seed, gen, 1])
    for step in range(s.steps):
        for group in opt.param_groups:  # a cosine decay: the last steps settle
            group["lr"] = s.lr * 0.5 * (1 + math.cos(math.pi * step / s.steps))
        idx = torch.from_numpy(rng.integers(0, len(train_h), s.batch))
        loss = nn.functional.cross_entropy(model(train_h[idx]), train_y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits = model(test_h)
        test_loss = float(nn.functional.cross_entropy(logits, test_y))
        expected = float((torch.softmax(logits, dim=1) @ torch.arange(OUTLOOK, dtype=torch.float32)).mean())
    linears = [m for m in model if isinstance(m, nn.Linear)]
    head = tuple((m.weight.detach().numpy().T.astype(np.float32).copy(),
                  m.bias.detach().numpy().astype(np.float32).copy()) for m in linears)
    return head, {"held_out_loss": test_loss, "expected_tricks": expected,
                  "taken_tricks": float(tricks[-held:].mean())}


def run_outlook(base: Network, out: Path, s: OutlookSettings, *, progress: bool = True,
                command: str | None = None) -> Network:
    """Give ``base`` an outlook head, by ``s.generations`` rounds of play and fitting (each round's
    play calls by the last round's head); resumes from ``out``'s log. Writes ``out/neural.npz``."""
    out.mkdir(parents=True, exist_ok=True)
    chunks = out / "chunks"
    chunks.mkdir(exist_ok=True)
    (out / "nets").mkdir(exist_ok=True)
    saved = out / "settings.json"
    now = s.to_json()
    if saved.exists():
        before = json.loads(saved.read_text())
        changed = sorted(k for k in before if before.get(k) != now.get(k) and k != "generations")
        if changed:
            raise TrainingError(f"{out} holds a run with other settings ({', '.join(changed)}); "
                                "resume it with the same ones or choose another --out")
    saved.write_text(json.dumps(now, indent=2) + "\n")
    log_path = out / "log.jsonl"
    log = [json.loads(line) for line in log_path.read_text().splitlines()] if log_path.exists() else []
    meta_base = {"command": command or " ".join(sys.argv), "seed": s.seed, "commit": git_commit(),
                 "outlook_settings": now, "base": base.meta}
    net = base if not log else Network.load(out / "nets" / f"gen{len(log) - 1:03d}.npz")
    say = print if progress else (lambda *a, **k: None)
    for gen in range(len(log), s.generations):
        g0, c0 = time.time(), time.process_time()
        count = collect(net, s, gen, chunks)
        data = load(chunks, range(gen + 1), s.window)
        head, measured = fit_head(trunk_features(base, data), data["tricks"], s, gen)
        net = with_outlook(base, head, {**meta_base, "outlook_generation": gen})
        path = out / "nets" / f"gen{gen:03d}.npz"
        net.save(path)
        margin, ci = margin_against(f"neural:weights={path}", "heuristic", s.eval_sets, seed=10_000 + s.seed)
        entry = {"generation": gen, "positions": count, "trained_on": len(data["tricks"]), **measured,
                 "margin": margin, "margin_ci": ci, "wall_s": time.time() - g0,
                 "cpu_s": time.process_time() - c0}
        with open(log_path, "a") as f:
            f.write(json.dumps(entry) + "\n")
        say(f"outlook generation {gen}: {count:,} positions, held-out loss {measured['held_out_loss']:.3f}, "
            f"against heuristic {margin:+.2f} ± {ci:.2f} a deal")
    log = [json.loads(line) for line in log_path.read_text().splitlines()]
    meta = {**meta_base, "outlook_generations": len(log),
            "outlook_positions": int(sum(e["positions"] for e in log)),
            "outlook_wall_s": round(sum(e["wall_s"] for e in log), 1),
            "outlook_cpu_s": round(sum(e["cpu_s"] for e in log), 1),
            "margin_against_heuristic": log[-1]["margin"]}
    final = with_outlook(base, net.outlook, meta)
    final.save(out / "neural.npz")
    return final
