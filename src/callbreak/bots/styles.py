"""Styles of play that are not ours: the opponents a tournament bot meets.

- ``greedy``: wins the trick as cheaply as it can when it can, otherwise throws its lowest card;
  calls by counting sure winners. The baseline of most bot tournaments.
- ``ismcts``: information-set Monte Carlo tree search (single observer) with random playouts and
  UCB selection, after Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search"
  (IEEE TCIAIG, 2012): each iteration draws a deal of the unseen cards consistent with the seat's
  view, walks one tree of the seat's information set (children are cards; a card is only a choice
  in the deals where it is legal, and UCB counts how often it was available), adds a node, plays
  the rest of the deal at random and scores every seat by the rules. A fixed number of iterations
  a move (``ismcts:iterations=1000``), not a clock. Calls, looks and redeal claims are the
  heuristic's: the tree searches card play only.
- ``heuristic-overcall`` / ``heuristic-undercall``: the heuristic bot's play, with a call one above
  (or below) the call it would make, as people who push (or protect) their calls do.

Every one of them reads only its seat's view.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from callbreak.bots.base import Decision, register
from callbreak.bots.heuristic import HeuristicBot
from callbreak.bots.kernel_impl import sure_winners  # the kernel reads greedy calls with it too
from callbreak.core import Call, Look, Play, Redeal, SeatView
from callbreak.core.cards import SUIT_MASKS, Card, mask_of
from callbreak.core.rules import Rules
from callbreak.core.sampling import HandSampler
from callbreak.core.scoring import deal_points
from callbreak.core.tricks import NO_TRUMP, follow_mask, legal_mask

# --- shared helpers ----------------------------------------------------------------------------


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _trump(view: SeatView) -> int:
    return int(view.trump) if view.trump is not None else NO_TRUMP


def _current_best(trick: Sequence[int], trump: int) -> int:
    """The card winning the trick so far (the highest trump, else the highest of the suit led)."""
    best = trick[0]
    for c in trick[1:]:
        cs, bs = c // 13, best // 13
        if (cs == bs and c > best) or (cs != bs and cs == trump):
            best = c
    return best


def _wins_over(card: int, best: int, trump: int) -> bool:
    cs, bs = card // 13, best // 13
    return card > best if cs == bs else cs == trump


def _cost(card: int, trump: int) -> tuple[int, int]:
    """How dear a card is to give up: any trump is dearer than any side card, then by rank."""
    return (1 if card // 13 == trump else 0, card % 13)


def _nearest_call(calls: list[Call], want: int) -> Call:
    return min(calls, key=lambda a: (abs(a.tricks - want), a.tricks))


def _non_play(view: SeatView, calls_by: HeuristicBot | None = None,
              want: int | None = None) -> Decision | None:
    """Looks, redeals and calls for the styles that do not search them; None in the play phase."""
    legal = view.legal
    if any(isinstance(a, Play) for a in legal):
        return None
    if calls_by is not None:
        return calls_by.decide(view, 0.0)
    look = next((a for a in legal if isinstance(a, Look)), None)
    if look is not None:
        return Decision(look, "look at the cards before calling")
    keep = next((a for a in legal if isinstance(a, Redeal) and not a.claim), None)
    if keep is not None:
        return Decision(keep, "keep the hand")
    calls = [a for a in legal if isinstance(a, Call) and not a.blind]
    if calls and want is not None:
        best = _nearest_call(calls, want)
        return Decision(best, f"call {best.tricks}: {want} sure winners")
    return Decision(legal[0], "the only move")


# --- greedy ------------------------------------------------------------------------------------


class GreedyBot:
    """Wins the trick as cheaply as it can when it can, else throws its lowest card.

    Leading, any card wins the trick for now, so it leads its cheapest card, unless it holds the
    highest card still out in a side suit: then it cashes that. It calls the number of its sure
    winners (:func:`sure_winners`), looks before calling, never claims a redeal and ignores a
    partner. Deterministic.
    """

    def __init__(self, seed: int | None = None) -> None:
        self.name = "greedy"
        self.seed = seed

    def decide(self, view: SeatView, budget: float) -> Decision:
        if not view.legal or view.seat is None:
            raise ValueError("the bot was asked to act with no legal action")
        trump = _trump(view)
        hand = mask_of(view.hand or ())
        other = _non_play(view, want=sure_winners(hand, trump if trump >= 0 else 0))
        if other is not None:
            return other
        by_card = {a.card: a for a in view.legal if isinstance(a, Play)}
        cards = list(by_card)
        if not view.trick:
            gone = mask_of(view.played) | hand
            for card in sorted(cards, key=lambda c: -(c % 13)):
                suit = card // 13
                higher_out = SUIT_MASKS[suit] & ~gone & ~((2 << card) - 1)
                if suit != trump and not higher_out:
                    return Decision(by_card[card], f"cash {card.pretty}: the top card out")
            card = min(cards, key=lambda c: _cost(c, trump))
            return Decision(by_card[card], f"lead my cheapest card, {card.pretty}")
        best = _current_best(view.trick, trump)
        winners = [c for c in cards if _wins_over(c, best, trump)]
        if winners:
            card = min(winners, key=lambda c: _cost(c, trump))
            return Decision(by_card[card], f"win it as cheaply as I can, with {card.pretty}")
        card = min(cards, key=lambda c: _cost(c, trump))
        return Decision(by_card[card], f"cannot win it: throw my lowest card, {card.pretty}")


# --- heuristic call styles ---------------------------------------------------------------------


class CallStyleBot(HeuristicBot):
    """The heuristic bot with its open calls shifted by ``shift`` tricks (within the legal calls)."""

    def __init__(self, seed: int | None = None, shift: int = 1) -> None:
        super().__init__(seed)
        self.shift = shift
        self.name = "heuristic-overcall" if shift > 0 else "heuristic-undercall"

    def decide(self, view: SeatView, budget: float) -> Decision:
        decision = super().decide(view, budget)
        action = decision.action
        if not isinstance(action, Call) or action.blind:
            return decision
        calls = [a for a in view.legal if isinstance(a, Call) and not a.blind]
        shifted = _nearest_call(calls, action.tricks + self.shift)
        word = "over" if self.shift > 0 else "under"
        return Decision(shifted, f"call {shifted.tricks} ({word}calling the count of "
                                 f"{action.tricks})")


# --- ismcts ------------------------------------------------------------------------------------


class _Node:
    __slots__ = ("card", "seat", "children", "visits", "avail", "total")

    def __init__(self, card: int, seat: int) -> None:
        self.card = card
        self.seat = seat  # who played ``card`` to reach this node
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


class _Deal:
    """A determinized deal in play, on card masks: just what a playout needs."""

    __slots__ = ("hands", "trick", "best", "win_seat", "leader", "trump", "won", "first", "rules")

    def __init__(self, hands: list[int], view: SeatView, rules: Rules) -> None:
        self.hands = hands
        self.trick: list[int] = [int(c) for c in view.trick]
        self.trump = _trump(view)
        self.leader = view.leader if view.leader is not None else 0
        self.best = -1
        self.win_seat = -1
        if self.trick:
            self.best = _current_best(self.trick, self.trump)
            self.win_seat = (self.leader + self.trick.index(self.best)) % 4
        self.won = list(view.won)
        self.first = not view.tricks and not view.trick
        self.rules = rules

    def to_act(self) -> int:
        return (self.leader + len(self.trick)) % 4

    def legal(self) -> int:
        hand = self.hands[self.to_act()]
        if self.trick:
            return follow_mask(hand, self.trick[0] // 13, self.best, self.trump, self.rules)
        return legal_mask(hand, (), self.trump, self.rules, self.first) if self.first else hand

    def play(self, card: int) -> None:
        seat = self.to_act()
        self.hands[seat] &= ~(1 << card)
        if not self.trick:
            if self.trump < 0:
                self.trump = card // 13  # the first card led sets trump (no-trump preset)
            self.best, self.win_seat = card, seat
        elif _wins_over(card, self.best, self.trump):
            self.best, self.win_seat = card, seat
        self.trick.append(card)
        if len(self.trick) == 4:
            self.won[self.win_seat] += 1
            self.leader = self.win_seat
            self.trick = []
            self.first = False

    def over(self) -> bool:
        return not self.trick and not self.hands[self.leader]


class IsmctsBot:
    """Information-set MCTS with random playouts and UCB1 selection; see the module docstring."""

    def __init__(self, seed: int | None = None, iterations: int = 1000,
                 exploration: float = 0.7) -> None:
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations}")
        self.name = "ismcts"
        self.iterations = iterations
        self.exploration = exploration
        self.rng = random.Random(seed)
        self._calls = HeuristicBot(seed)

    def decide(self, view: SeatView, budget: float) -> Decision:
        if not view.legal or view.seat is None:
            raise ValueError("the bot was asked to act with no legal action")
        other = _non_play(view, calls_by=self._calls)
        if other is not None:
            return other
        by_card = {a.card: a for a in view.legal if isinstance(a, Play)}
        if len(by_card) == 1:
            only = next(iter(by_card))
            return Decision(by_card[only], "the only card I may play")
        root = self.search(view)
        card = max(root.children.values(), key=lambda n: (n.visits, n.card)).card
        node = root.children[card]
        return Decision(by_card[Card(card)], f"{card_text(card)}: best of {self.iterations} searched "
                                             f"deals ({node.total / max(node.visits, 1):+.2f})")

    def search(self, view: SeatView) -> _Node:
        sampler = HandSampler(view)
        rules = view.rules
        rng = self.rng
        calls = [c if c is not None else 0 for c in view.calls]
        blind = view.blind
        root = _Node(-1, -1)
        c = self.exploration
        for _ in range(self.iterations):
            deal = _Deal(list(sampler.sample(rng)), view, rules)
            node = root
            path = [root]
            # selection and expansion: down the tree while every legal card has a child
            while not deal.over():
                seat = deal.to_act()
                legal = deal.legal()
                cards = _bits(legal)
                untried = [x for x in cards if x not in node.children]
                if untried:
                    card = rng.choice(untried)
                    child = _Node(card, seat)
                    node.children[card] = child
                    deal.play(card)
                    path.append(child)
                    break
                best_score, choice = -math.inf, None
                for x in cards:
                    ch = node.children[x]
                    ch.avail += 1
                    score = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if score > best_score:
                        best_score, choice = score, ch
                assert choice is not None
                deal.play(choice.card)
                node = choice
                path.append(node)
            # random playout to the end of the deal
            while not deal.over():
                deal.play(rng.choice(_bits(deal.legal())))
            reward = _rewards(deal.won, calls, blind, rules)
            for n in path:
                n.visits += 1
                if n.seat >= 0:
                    n.total += reward[n.seat]
        return root


def _rewards(won: list[int], calls: list[int], blind: tuple[bool, ...], rules: Rules
             ) -> list[float]:
    """Each seat's deal score, scaled to about -1..1 by its call (a pair's in a partnership)."""
    out = []
    for s in range(4):
        call, tricks = calls[s], won[s]
        if rules.partnership:
            call += calls[(s + 2) % 4]
            tricks += won[(s + 2) % 4]
        points = deal_points(call, tricks, rules, blind=bool(blind[s])) if call else tricks * 10
        out.append(points / (20.0 * max(call, 1)))
    return out


def card_text(card: int) -> str:
    return Card(card).pretty


# --- registrations -----------------------------------------------------------------------------


def _seed(seed: str | None) -> int | None:
    return int(seed) if seed is not None else None


@register("greedy")
def _greedy(seed: str | None = None) -> GreedyBot:
    """Wins each trick as cheaply as it can, else throws its lowest: the usual baseline."""
    return GreedyBot(_seed(seed))


@register("ismcts")
def _ismcts(seed: str | None = None, iterations: str = "1000", exploration: str = "0.7") -> IsmctsBot:
    """Information-set MCTS with random playouts, as most tournament bots: 1,000 iterations a card."""
    return IsmctsBot(_seed(seed), iterations=int(iterations), exploration=float(exploration))


@register("heuristic-overcall")
def _overcall(seed: str | None = None) -> CallStyleBot:
    """The heuristic's play, calling one trick more than its count."""
    return CallStyleBot(_seed(seed), shift=1)


@register("heuristic-undercall")
def _undercall(seed: str | None = None) -> CallStyleBot:
    """The heuristic's play, calling one trick fewer than its count."""
    return CallStyleBot(_seed(seed), shift=-1)


__all__ = ["CallStyleBot", "GreedyBot", "IsmctsBot", "sure_winners"]
