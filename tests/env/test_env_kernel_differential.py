"""One rules kernel (callbreak/kernel/rules.py), held to the engine: the same deals played
through the core engine, the kernel's rules and the batched environment give the same legal
cards, the same trick winners and the same scores, for every preset, on random deals and on
deals made to be awkward (a seat with every spade, seats void in suits from the start)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from callbreak.bots.kernel import options_array
from callbreak.core.actions import Deal, Play, Stop
from callbreak.core.cards import Card, cards_of
from callbreak.core.game import Phase
from callbreak.core.match import Match
from callbreak.core.rules import PRESETS, make_rules
from callbreak.env.vector import VectorEnv, start_match
from callbreak.games.spaces import legal_ids
from callbreak.kernel.rules import (
    OPT_MUST_BEAT,
    OPT_NO_SPADE_LEAD,
    OPT_NO_WASTING,
    OPT_VOID_RULE,
    legal_mask,
    play_to_trick,
)

KERNEL_PRESETS = sorted(PRESETS)


class KernelTrick:
    """The kernel's own account of the trick under way, kept beside the engine's."""

    def __init__(self, leader: int, trump: int) -> None:
        self.ntrick, self.leader, self.trump, self.winpos = 0, leader, trump, 0
        self.cards = [0, 0, 0]

    def legal(self, hand: int, first_trick: bool, opts: np.ndarray) -> int:
        t0, t1, t2 = self.cards
        return int(legal_mask(hand, t0, t1, t2, self.ntrick, self.trump, first_trick, int(opts[OPT_MUST_BEAT]),
                              int(opts[OPT_VOID_RULE]), int(opts[OPT_NO_WASTING]), int(opts[OPT_NO_SPADE_LEAD])))

    def play(self, card: int) -> int:
        """The winner (-1 until the trick is complete)."""
        t0, t1, t2 = self.cards
        self.ntrick, self.leader, self.trump, self.winpos, t0, t1, t2, winner = play_to_trick(
            card, self.ntrick, self.leader, self.trump, self.winpos, t0, t1, t2)
        self.cards = [t0, t1, t2]
        return int(winner)


def play_checked(match: Match, choose: random.Random) -> int:
    """Play the deal in hand to its end, checking the kernel at every card; the tricks seen."""
    opts = options_array(match.rules)
    tricks = 0
    trick = KernelTrick(match.leader, match.trump)
    while match.phase is Phase.PLAY:
        seat = match.to_act
        assert seat is not None
        assert trick.legal(match.hands[seat], not match.tricks, opts) == match.play_mask(), "legal cards"
        card = choose.choice(match.legal_cards())
        done = len(match.tricks)
        match.apply(Play(seat, card))
        winner = trick.play(int(card))
        if len(match.tricks) > done:
            tricks += 1
            assert winner == match.tricks[-1].winner, "trick winner"
        else:
            assert winner == -1
    return tricks


def call_and_play(match: Match, choose: random.Random) -> int:
    while match.phase is not Phase.PLAY and not match.is_over and match.to_act != -1:
        match.apply(choose.choice(match.legal_actions()))
    return play_checked(match, choose) if match.phase is Phase.PLAY else 0


def awkward_deals(seed: int) -> list[tuple[tuple[Card, ...], ...]]:
    """Every spade in one hand; two seats void in two suits each; the aces and kings split."""
    deck = [Card(c) for c in range(52)]
    by_suit = [deck[s * 13:(s + 1) * 13] for s in range(4)]
    rng = random.Random(seed)
    spades_in_one = [tuple(by_suit[0]), *_split(by_suit[1] + by_suit[2] + by_suit[3], 3, rng)]
    voids = (tuple(by_suit[0][:7] + by_suit[1][:6]), tuple(by_suit[0][7:] + by_suit[1][6:]),
             tuple(by_suit[2][:7] + by_suit[3][:6]), tuple(by_suit[2][7:] + by_suit[3][6:]))
    tops = [c for c in deck if c.rank >= 13]
    rest = [c for c in deck if c.rank < 13]
    rng.shuffle(rest)
    honours = tuple(tuple(tops[s::4] + rest[s * 11:(s + 1) * 11]) for s in range(4))
    return [tuple(spades_in_one), voids, honours]


def _split(cards: list[Card], hands: int, rng: random.Random) -> list[tuple[Card, ...]]:
    cards = cards[:]
    rng.shuffle(cards)
    return [tuple(cards[h * 13:(h + 1) * 13]) for h in range(hands)]


def _feed(vec: VectorEnv, t: int, match: Match | None) -> Match:
    for kind, value in vec.chance_events(t):
        if kind == "dealer":
            match = start_match(vec.rules, value)
        else:
            assert match is not None
            match.apply(Deal(hands=tuple(cards_of(m) for m in value)))
    assert match is not None
    return match


@pytest.mark.parametrize("preset", KERNEL_PRESETS)
def test_engine_kernel_and_batched_tables_agree_on_random_deals(preset: str) -> None:
    extra = {} if PRESETS[preset].rules.deals is None else {"deals": 2}
    vec = VectorEnv(num_tables=4, preset=preset, seed=41, max_deals=2, **extra)
    vec.reset()
    matches = [_feed(vec, t, None) for t in range(vec.num_tables)]
    opts = options_array(matches[0].rules)
    rng = np.random.default_rng(5)
    tricks = 0
    kernel: list[KernelTrick | None] = [None] * vec.num_tables  # each table's trick, as the kernel has it
    for _ in range(200):
        for t, m in enumerate(matches):
            if m.phase is Phase.PLAY:
                if not m.trick:
                    kernel[t] = KernelTrick(m.leader, m.trump)
                k = kernel[t]
                assert k is not None and m.to_act is not None
                assert k.legal(m.hands[m.to_act], not m.tricks, opts) == m.play_mask(), "legal cards"
        actions = vec.sample_actions(rng)
        step = vec.step(actions)
        for t, m in enumerate(matches):
            action = legal_ids(m.view(m.to_act))[int(actions[t])]
            done = len(m.tricks)
            m.apply(action)
            k = kernel[t]
            if isinstance(action, Play) and k is not None:
                winner = k.play(int(action.card))
                if len(m.tricks) > done:
                    tricks += 1
                    assert winner == m.tricks[-1].winner == vec.trick_winner[t], "trick winner"
            if step.done[t]:
                if not m.is_over:
                    m.apply(Stop())
                assert vec.final_totals[t].tolist() == m.totals, "scores"
            else:
                assert vec.totals[t].tolist() == m.totals, "scores"
            matches[t] = _feed(vec, t, m)
    assert tricks > 50


@pytest.mark.parametrize("preset", KERNEL_PRESETS)
def test_engine_and_kernel_agree_on_awkward_deals(preset: str) -> None:
    rules = make_rules(preset)
    choose = random.Random(preset)
    tricks = 0
    for seed, hands in enumerate(awkward_deals(7)):
        for dealer in range(4):
            match = start_match(rules, dealer)
            match.apply(Deal(hands=hands))
            if match.phase is Phase.DEAL or match.is_over:
                continue  # thrown in (a weak-hand claim, calls under the minimum): nothing to play
            tricks += call_and_play(match, random.Random(f"{preset}/{seed}/{dealer}/{choose.random()}"))
    assert tricks > 0
