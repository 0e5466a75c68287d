"""The ``neural`` bot: a small network, trained by :mod:`callbreak.learn`, played with numpy alone.

The network reads one seat's view exactly as the environments encode it
(:class:`~callbreak.games.spaces.Encoder`, 429 numbers, scaled by the ``scale`` array stored with
the weights), then :func:`rules_features` (the house rules in force, so one network plays every
preset), then :func:`derived` (what a card player counts, computed from the first two and the
legal actions). It has a trunk of dense layers with ReLU, a policy head over the 83 Call Break
action ids (masked to the legal ones), a value head (the seat's expected points this deal) and,
optionally, an outlook head (the distribution of the tricks the seat takes this deal, the pair's
in partnership once the partner has called: :mod:`callbreak.learn.outlook`). A network with an
outlook calls what scores best over it under the rules in force; one without calls by its policy.

No training framework is needed to play: the weights are plain arrays in an ``.npz`` file, with
the command, seed and commit that made them in a ``.json`` file beside it
(``callbreak/bots/weights/neural.json`` for the shipped ones).

Under rules with blind calls the bot looks first unless it is behind by 3 points or more on the
last deal, where it makes the blind call most likely to catch up by its outlook of a hand not yet
seen (see :meth:`NeuralBot.decide`).
"""

from __future__ import annotations

import functools
import json
import zipfile
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import numpy as np

from callbreak.bots.base import Decision, register
from callbreak.core import Call, Look, Phase, SeatView
from callbreak.core.rules import (
    Rules,
    Scoring,
    SpadeLead,
    Trump,
    VoidRule,
    WeakHand,
)
from callbreak.core.scoring import deal_points, expected_deal_points, made
from callbreak.games.spaces import (
    CALL0,
    CALLBREAK_ACTIONS,
    CALLBREAK_FAMILY,
    LOOK,
    Encoder,
    describe_action,
    legal_ids,
)

WEIGHTS = Path(__file__).with_name("weights") / "neural.npz"
ENCODER = Encoder(CALLBREAK_FAMILY, 4)
BLIND_DEFICIT = 30  # tenths behind the leader on the last deal before a blind call pays (as the expert)
OUTLOOK = 27  # the outlook head's classes: 0..26 tricks (a pair's, in partnership)


class NeuralWeightsError(ValueError):
    """A weights file that is missing, unreadable or not the neural bot's."""


def _one_hot(value: Enum, kind: type[Enum]) -> list[float]:
    return [1.0 if value is member else 0.0 for member in kind]


@functools.lru_cache(maxsize=64)
def rules_features(rules: Rules) -> np.ndarray:
    """The house rules that change how a hand should be played, as numbers near 0..1 (cached:
    asked at every decision; callers copy it, never change it)."""
    bonus = rules.bonus_call
    values = [
        rules.min_call / 13, rules.max_call / 13, float(rules.follow_must_beat),
        *_one_hot(rules.void_rule, VoidRule), float(rules.no_wasting_trumps),
        float(rules.spade_lead_first_trick is SpadeLead.FORBIDDEN), *_one_hot(rules.scoring, Scoring),
        0.0 if bonus is None else bonus.threshold / 13, 0.0 if bonus is None else bonus.points / 10,
        float(rules.blind_call), float(rules.redeal_weak_hand is not WeakHand.OFF),
        float(rules.redeal_one_suit_hand), (rules.min_call_total or 0) / 52,
        float(rules.side_off_declaration), float(rules.partnership), float(rules.trump is Trump.FIRST_LED),
        0.0 if rules.deals is None else rules.deals / 10,
    ]
    return np.asarray(values, dtype=np.float32)


RULES_FEATURES = len(rules_features(Rules()))
BASE = ENCODER.size + RULES_FEATURES  # what a position stores: the observation (scaled) and the rules


def _block(x: np.ndarray, name: str) -> np.ndarray:
    b = ENCODER.blocks[name]
    return x[:, b.offset:b.offset + b.size]


_RANKS = np.arange(13, dtype=np.float32)


def derived(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """What a card player counts, from the stored input alone: (B, BASE) inputs and (B, 83) legal
    masks -> (B, DERIVED). Per card: whether playing it now would win the trick so far, whether it
    is the highest of its suit still unseen (a master), and how many unseen cards of its suit rank
    above it; the seat's and the unseen cards' suit lengths; each seat's tricks still needed for
    its call; whether the seat leads; the tricks left; the legal actions. Nothing here is not
    already in the observation: it saves the network from learning to count."""
    n = len(x)
    hand = _block(x, "hand")
    played = _block(x, "played").reshape(n, 4, 52)
    trick = _block(x, "trick")
    leader = _block(x, "leader")
    trump = _block(x, "trump")
    seen = np.minimum(hand + played.sum(axis=1), 1.0)
    unseen = (1.0 - seen).reshape(n, 4, 13)
    above = np.cumsum(unseen[:, :, ::-1], axis=2)[:, :, ::-1] - unseen  # unseen higher, same suit
    master = hand * (above.reshape(n, 52) == 0)
    lead_card = (played * leader[:, :, None]).sum(axis=1) * trick
    lead_suit = lead_card.reshape(n, 4, 13).sum(axis=2)
    in_trick = trick.reshape(n, 4, 13)
    top_trump = np.max(np.where((in_trick * trump[:, :, None]).sum(axis=1) > 0, _RANKS, -1), axis=1)
    top_lead = np.max(np.where((in_trick * lead_suit[:, :, None]).sum(axis=1) > 0, _RANKS, -1), axis=1)
    trumped = (top_trump >= 0)[:, None]
    ranks = np.broadcast_to(_RANKS, (n, 13))
    wins = (trump[:, :, None] * (ranks > top_trump[:, None])[:, None, :]
            + (lead_suit * (1 - trump))[:, :, None] * (~trumped & (ranks > top_lead[:, None]))[:, None, :])
    leading = (trick.sum(axis=1) == 0).astype(np.float32)
    wins = np.minimum(wins.reshape(n, 52), 1.0) * hand * (1.0 - leading[:, None])
    calls = _block(x, "calls").reshape(n, 4, 15)
    called = calls[:, :, :14] @ np.arange(14, dtype=np.float32)
    need = np.where(calls[:, :, 14] > 0, 0.0, called - _block(x, "won") * 4) / 13
    left = 1.0 - _block(x, "won").sum(axis=1, keepdims=True) * 4 / 13
    return np.concatenate([wins, master, above.reshape(n, 52) / 12, hand.reshape(n, 4, 13).sum(axis=2) / 13,
                           unseen.sum(axis=2) / 13, need, leading[:, None], left,
                           mask.astype(np.float32)], axis=1).astype(np.float32)


DERIVED = derived(np.zeros((1, BASE), dtype=np.float32), np.zeros((1, CALLBREAK_ACTIONS))).shape[1]
INPUTS = BASE + DERIVED


def input_scale() -> np.ndarray:
    """The default scale of the observation: counts and points brought near 0..1."""
    scale = np.ones(ENCODER.size, dtype=np.float32)
    for name, factor in (("won", 1 / 4), ("scores", 1 / 20), ("deal", 1 / 5)):
        block = ENCODER.blocks[name]
        scale[block.offset:block.offset + block.size] = factor
    return scale


_CARD_BITS = np.arange(52, dtype=np.int64)


def card_bits(masks: np.ndarray) -> np.ndarray:
    """(..., 52) 0/1 floats of int64 card masks (...): how the inputs hold a set of cards."""
    return ((masks[..., None] >> _CARD_BITS) & 1).astype(np.float32)


def features(view: SeatView, scale: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """The stored part of the network's input for one seat's view (its seat must not be None)."""
    x = np.empty(BASE, dtype=np.float32) if out is None else out
    ENCODER.encode(view, x[:ENCODER.size])
    x[:ENCODER.size] *= scale
    x[ENCODER.size:] = rules_features(view.rules)
    return x


@dataclass(frozen=True)
class Network:
    """The trunk's layers, the two heads and the input scale, as numpy arrays."""

    trunk: tuple[tuple[np.ndarray, np.ndarray], ...]  # (weights (in, out), bias (out,)) per layer
    policy: tuple[np.ndarray, np.ndarray]
    value: tuple[np.ndarray, np.ndarray]
    scale: np.ndarray
    meta: dict[str, Any]
    outlook: tuple[tuple[np.ndarray, np.ndarray], ...] = ()  # on the trunk's last layer; () if none

    def forward(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(B, BASE) inputs and (B, 83) legal masks -> (B, 83) policy logits and (B,) values
        (points this deal)."""
        logits, value, _ = self.forward_all(x, mask, outlook=False)
        return logits, value

    def hidden(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The trunk's last layer: what the heads read."""
        h = np.concatenate([x, derived(x, mask)], axis=1)
        for w, b in self.trunk:
            h = np.maximum(h @ w + b, 0.0)
        return h

    def forward_all(self, x: np.ndarray, mask: np.ndarray, outlook: bool = True
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """:meth:`forward`, and the outlook's distribution of tricks (B, OUTLOOK) when the
        network has an outlook head (else None)."""
        h = self.hidden(x, mask)
        logits, value = h @ self.policy[0] + self.policy[1], (h @ self.value[0] + self.value[1])[:, 0]
        if not outlook or not self.outlook:
            return logits, value, None
        o = h
        for i, (w, b) in enumerate(self.outlook):
            o = o @ w + b
            if i < len(self.outlook) - 1:
                o = np.maximum(o, 0.0)
        o = np.exp(o - o.max(axis=1, keepdims=True))
        return logits, value, o / o.sum(axis=1, keepdims=True)

    def arrays(self) -> dict[str, np.ndarray]:
        out = {"scale": self.scale, "policy.w": self.policy[0], "policy.b": self.policy[1],
               "value.w": self.value[0], "value.b": self.value[1]}
        for i, (w, b) in enumerate(self.trunk):
            out[f"trunk{i}.w"], out[f"trunk{i}.b"] = w, b
        for i, (w, b) in enumerate(self.outlook):
            out[f"outlook{i}.w"], out[f"outlook{i}.b"] = w, b
        return out

    def save(self, path: Path) -> None:
        """Write the arrays to ``path`` (.npz) and the metadata beside it (.json)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as f:
            np.savez(f, **self.arrays())  # type: ignore[arg-type]
        path.with_suffix(".json").write_text(json.dumps(self.meta, indent=2) + "\n")

    @classmethod
    def load(cls, path: Path | str = WEIGHTS) -> Network:
        """Read a weights file; :class:`NeuralWeightsError` names the file and what is wrong."""
        path = Path(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: np.asarray(data[k], dtype=np.float32) for k in data.files}
        except FileNotFoundError:
            raise NeuralWeightsError(f"no weights file at {path} (make one with `callbreak train`)") from None
        except (OSError, ValueError, zipfile.BadZipFile, EOFError) as e:
            raise NeuralWeightsError(f"{path} is not a readable weights file: {e}") from None
        meta_path = path.with_suffix(".json")
        try:
            meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
        except (OSError, ValueError) as e:
            raise NeuralWeightsError(f"{meta_path} is not readable JSON: {e}") from None
        return cls.from_arrays(arrays, meta, str(path))

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], meta: dict[str, Any], source: str = "weights"
                    ) -> Network:
        try:
            layers = {name: _layers(arrays, name) for name in ("trunk", "outlook")}
            net = cls(layers["trunk"], (arrays["policy.w"], arrays["policy.b"]),
                      (arrays["value.w"], arrays["value.b"]), arrays["scale"], meta, layers["outlook"])
        except KeyError as e:
            raise NeuralWeightsError(f"{source} lacks the array {e} of the neural bot's network") from None
        width = INPUTS
        for w, b in (*net.trunk, net.policy, net.value):
            if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
                raise NeuralWeightsError(f"{source}: layer shapes do not chain ({w.shape} after width "
                                         f"{width}); it was made for another input")
            if not (np.isfinite(w).all() and np.isfinite(b).all()):
                raise NeuralWeightsError(f"{source} holds weights that are not finite numbers")
            if w is not net.policy[0] and w is not net.value[0]:
                width = w.shape[1]
        if net.policy[0].shape[1] != CALLBREAK_ACTIONS or net.value[0].shape[1] != 1 or \
                net.scale.shape != (ENCODER.size,):
            raise NeuralWeightsError(f"{source}: heads or scale of the wrong size for Call Break")
        width = net.trunk[-1][0].shape[1] if net.trunk else INPUTS
        for w, b in net.outlook:
            if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],) or \
                    not (np.isfinite(w).all() and np.isfinite(b).all()):
                raise NeuralWeightsError(f"{source}: the outlook head's layers do not chain or are not "
                                         "finite numbers")
            width = w.shape[1]
        if net.outlook and width != OUTLOOK:
            raise NeuralWeightsError(f"{source}: the outlook head has {width} classes, not {OUTLOOK}")
        return net


@functools.lru_cache(maxsize=64)
def points_table(rules: Rules) -> np.ndarray:
    """(OUTLOOK calls, OUTLOOK tricks): the deal points in tenths of a call made after looking
    (a pair's call, in partnership, goes up to 26) for each number of tricks taken."""
    return np.array([[deal_points(c, w, rules) for w in range(OUTLOOK)] for c in range(OUTLOOK)],
                    dtype=np.float32)


def partner_calls(x: np.ndarray, rules: Rules) -> np.ndarray:
    """(B,) the partner's call where the partnership rule is on and the partner has called (the
    pair's tricks then decide), else 0; from stored inputs (B, BASE)."""
    if not rules.partnership:
        return np.zeros(len(x), dtype=np.int64)
    partner = _block(x, "calls")[:, 2 * 15:3 * 15]  # relative seat 2, one-hot; index 14: none yet
    return np.where(partner[:, 14] > 0, 0, np.argmax(partner[:, :14], axis=1))


def seen_calls(mask: np.ndarray) -> np.ndarray:
    """(B,) whether each position is a call made after looking (calls legal, looking not: where
    blind calls are on, the seat that may still look decides that first)."""
    return np.asarray(mask[:, CALL0:CALL0 + 14].any(axis=1) & (mask[:, LOOK] == 0))


def calls_by_outlook(outlook: np.ndarray, mask: np.ndarray, partner: np.ndarray, rules: Rules) -> np.ndarray:
    """For a batch of call positions: the call action id that scores best over each outlook
    ((B, OUTLOOK) distributions, (B, 83) legal masks with a call, (B,) the partner's call or 0)."""
    legal = mask[:, CALL0:CALL0 + 14] > 0
    totals = np.minimum(np.arange(14)[None, :] + partner[:, None], OUTLOOK - 1)
    worth = np.einsum("bcw,bw->bc", points_table(rules)[totals], outlook)
    return np.asarray(CALL0 + np.argmax(np.where(legal, worth, -np.inf), axis=1))


def _layers(arrays: dict[str, np.ndarray], name: str) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    out: list[tuple[np.ndarray, np.ndarray]] = []
    while f"{name}{len(out)}.w" in arrays:
        i = len(out)
        out.append((arrays[f"{name}{i}.w"], arrays[f"{name}{i}.b"]))
    return tuple(out)


_SHIPPED: Network | None = None


def shipped() -> Network:
    """The weights that come with the package, loaded once."""
    global _SHIPPED
    if _SHIPPED is None:
        _SHIPPED = Network.load(WEIGHTS)
    return _SHIPPED


class NeuralBot:
    """Plays the legal action its network likes best (``temperature`` > 0: draws by the policy)."""

    def __init__(self, network: Network | None = None, seed: int | None = None,
                 temperature: float = 0.0) -> None:
        if temperature < 0:
            raise ValueError(f"temperature must be 0 or more, got {temperature}")
        self.name = "neural"
        self.net = network or shipped()
        self.temperature = temperature
        self.rng = np.random.default_rng(seed)
        self._x = np.empty((1, BASE), dtype=np.float32)
        self._mask = np.zeros((1, CALLBREAK_ACTIONS), dtype=np.float32)

    def evaluate(self, view: SeatView) -> tuple[dict[int, Any], np.ndarray, float]:
        """The legal actions by id, the policy's probabilities over them (same order) and the
        value the network sees in the seat's deal (points)."""
        ids = legal_ids(view)
        features(view, self.net.scale, self._x[0])
        chosen = np.fromiter(ids, dtype=np.int64, count=len(ids))
        self._mask[:] = 0
        self._mask[0, chosen] = 1
        logits, value = self.net.forward(self._x, self._mask)
        z = logits[0, chosen]
        p = np.exp(z - z.max())
        return ids, p / p.sum(), float(value[0])

    def decide(self, view: SeatView, budget: float) -> Decision:
        if not view.legal:
            raise ValueError("the bot was asked to act with no legal action")
        if view.seat is None:
            raise ValueError("the neural bot plays a seat; this view has none")
        if len(view.legal) == 1:
            return Decision(view.legal[0], "the only legal move")
        if view.phase is Phase.CALL and any(isinstance(a, Look) for a in view.legal):
            return self._blind_or_look(view)
        if view.phase is Phase.CALL and self.net.outlook:
            return self._call_by_outlook(view)
        ids, p, value = self.evaluate(view)
        actions = list(ids.values())
        if self.temperature > 0:
            q = p ** (1 / self.temperature)
            k = int(self.rng.choice(len(actions), p=q / q.sum()))
        else:
            k = int(np.argmax(p))
        action = actions[k]
        what = describe_action(CALLBREAK_FAMILY, list(ids)[k])
        return Decision(action, f"{what}: the network's choice ({p[k]:.0%}), "
                                f"expecting {value:+.1f} points this deal")

    def outlook(self, view: SeatView) -> np.ndarray:
        """The outlook head's distribution of the tricks this seat takes this deal (the pair's, in
        partnership once the partner has called); the network must have the head."""
        ids = legal_ids(view)
        features(view, self.net.scale, self._x[0])
        self._mask[:] = 0
        self._mask[0, np.fromiter(ids, dtype=np.int64, count=len(ids))] = 1
        _, _, outlook = self.net.forward_all(self._x, self._mask)
        assert outlook is not None
        return np.asarray(outlook[0])

    def _call_by_outlook(self, view: SeatView) -> Decision:
        """The call that scores best over the tricks the outlook expects."""
        seat = view.seat
        assert seat is not None
        tricks = self.outlook(view)
        partner = view.calls[(seat + 2) % 4] if view.rules.partnership else None
        calls = [a for a in view.legal if isinstance(a, Call)]
        worth = [expected_deal_points(a.tricks + (partner or 0), tricks, view.rules, blind=a.blind)
                 for a in calls]
        if self.temperature > 0:
            z = np.asarray(worth) / 10 / self.temperature
            q = np.exp(z - z.max())
            k = int(self.rng.choice(len(calls), p=q / q.sum()))
        else:
            k = int(np.argmax(worth))
        best = calls[k]
        total = best.tricks + (partner or 0)
        share = sum(p for w, p in enumerate(tricks) if made(total, w, view.rules))
        return Decision(best, f"a call of {best.tricks}: the network expects it made in {share:.0%} of "
                              f"deals, worth {worth[k] / 10:+.1f} points")

    def _blind_or_look(self, view: SeatView) -> Decision:
        look = next(a for a in view.legal if isinstance(a, Look))
        blind = [a for a in view.legal if isinstance(a, Call) and a.blind]
        seat = view.seat
        assert seat is not None
        deficit = max(view.totals) - view.totals[seat]
        last = view.rules.deals is not None and view.deal_number >= view.rules.deals
        if blind and last and deficit >= BLIND_DEFICIT:
            if self.net.outlook:  # the outlook of a hand not yet seen
                tricks = self.outlook(view)

                def catch_up(a: Call) -> tuple[float, float]:
                    pts = [deal_points(a.tricks, w, view.rules, blind=True) for w in range(len(tricks))]
                    return (float(sum(p for p, x in zip(tricks, pts, strict=True) if x > deficit)),
                            float(np.dot(tricks, pts)))

                pick = max(blind, key=catch_up)
                return Decision(pick, f"a blind call of {pick.tricks}: behind by {deficit / 10:g} on "
                                      f"the last deal, it catches up in {catch_up(pick)[0]:.0%} of deals")
            # Unseen, a hand is an average one: the network's call for it (hand encoded as empty).
            ids, p, _ = self.evaluate(view)
            calls = {i - CALL0: p for i, p in zip(ids, p, strict=True) if CALL0 <= i < CALL0 + 14}
            want = max(calls, key=lambda c: calls[c]) if calls else blind[0].tricks
            pick = min(blind, key=lambda a: abs(a.tricks - max(want, 1)))
            return Decision(pick, f"a blind call of {pick.tricks}: behind by {deficit / 10:g} on the "
                                  "last deal")
        return Decision(look, "look at the cards before calling")


@register("neural")
def _neural(seed: str | None = None, temperature: str | None = None, weights: str | None = None) -> NeuralBot:
    """A network trained on the expert's search and self-play: instant, no search at the table."""
    try:
        t = 0.0 if temperature is None else float(temperature)
    except ValueError:
        raise ValueError(f"temperature must be a number, got {temperature!r}") from None
    try:
        s = None if seed is None else int(seed)
    except ValueError:
        raise ValueError(f"seed must be a whole number, got {seed!r}") from None
    net = Network.load(weights) if weights else shipped()
    return NeuralBot(net, seed=s, temperature=t)


__all__ = ["BASE", "INPUTS", "WEIGHTS", "card_bits", "derived", "Network", "NeuralBot", "NeuralWeightsError", "features",
           "input_scale", "rules_features", "shipped"]
