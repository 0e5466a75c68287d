"""Bots for the related games of the catsatcards rules (:mod:`callbreak.games`).

A game bot sees only a :class:`~callbreak.games.base.ContractView` and returns one of ``view.legal``.
Three kinds, for every game, by name through :func:`make_game_bot`:

``random``
    a random legal action.
``heuristic``
    estimates the tricks a hand will take under each possible trump and bids, names trump, plays
    or sits out, and exchanges from that estimate; in play it takes a trick cheaply when it can and
    throws its lowest card when it cannot.
``search``
    determinized search: it samples the hidden cards consistent with the view (hand sizes, suits a
    seat has shown it lacks and, in Batak, the higher cards and trumps a seat's play shows it
    lacks; the Donut upcard in the dealer's hand), plays each candidate action
    out to the end of the hand in every sample with the heuristic as the rollout policy, and picks
    the action with the best mean score change relative to the other players.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from callbreak.bots.base import BotError, Decision, register
from callbreak.core.actions import CHANCE, Action, Bid, Exchange, Join, NameTrump, Pass, Play, Settle
from callbreak.core.cards import SUIT_MASKS, Card, Suit, cards_of
from callbreak.core.game import Phase
from callbreak.core.sampling import SamplingError
from callbreak.core.tricks import beats
from callbreak.games import ContractView, GameInfo, game_info
from callbreak.games.base import ContractGame

# --- hand evaluation ---------------------------------------------------------------------


def _power(card: int, low_high: bool) -> int:
    """Rank strength 0..12 within a suit (reversed on Donut's 6)."""
    r = card % 13
    return 12 - r if low_high else r


def estimate_tricks(hand: int, trump: int, players: int, low_high: bool = False) -> float:
    """A quick estimate of the tricks ``hand`` takes with ``trump`` (-1: none) among ``players``.

    Top cards of a suit count by how likely they are to stand up; trumps add length. With short
    (five-card) hands fewer tricks are played, so long-suit values count for less.
    """
    size = hand.bit_count()
    est = 0.0
    for suit in range(4):
        cards = sorted((_power(c, low_high) for c in cards_of(hand & SUIT_MASKS[suit])), reverse=True)
        n = len(cards)
        if not n:
            continue
        is_trump = suit == trump
        for i, p in enumerate(cards):
            gap = 12 - p - i  # higher cards missing above this one
            if gap <= 0:
                est += 1.0 if is_trump else 0.9 - 0.04 * players
            elif gap == 1 and n >= 2:
                est += 0.75 if is_trump else 0.45
            elif gap == 2 and n >= 3:
                est += 0.55 if is_trump else 0.2
            elif is_trump:
                est += 0.35 if size <= 5 else 0.25
        if is_trump and size > 5 and n > 3:
            est += 0.6 * (n - 3)
    if size <= 5:
        est *= 4 / players  # more opponents each trick
    return est


def _best_trump(hand: int, players: int) -> tuple[Suit, float]:
    scored = [(estimate_tricks(hand, s, players), -s) for s in range(4)]
    est, neg = max(scored)
    return Suit(-neg), est


def _hand_mask(view: ContractView) -> int:
    return sum(1 << c for c in view.hand or ())


def _active_count(view: ContractView) -> int:
    if view.phase is Phase.PLAY:
        return sum(view.active)
    return sum(view.in_game)


# --- the heuristic -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tuning:
    """The heuristic's parameters for one game, measured in the games arena. A game without an
    entry in :data:`TUNINGS` (one registered later) plays with the defaults."""

    join_need: float = 0.8  # the tricks a hand must be worth to play a deal rather than sit out
    bid_margin: float = 0.1  # how far above its estimate the heuristic bids
    # Where the rules make sitting out cost a point at a score this low or lower (Snarples).
    sit_out_costs_at: int | None = None
    # Where the rules hand the last player a deal's points when everyone else goes out
    # (Horsethief: 5), so the second to last to decide plays more hands.
    last_one_in_scores: bool = False


# A capability honestly absent: the rules say nothing of how a hand is valued; these figures are
# the heuristic's own, measured game by game (a game without an entry plays the defaults).
TUNINGS: dict[str, Tuning] = {
    # Up to five cards can still be exchanged, so the hand as dealt says little.
    "horsethief": Tuning(join_need=0.3, last_one_in_scores=True),
    "donut": Tuning(join_need=0.5),
    "snarples": Tuning(join_need=0.9, sit_out_costs_at=3),
    "batak-ihaleli": Tuning(bid_margin=0.3),
}
"""Each game's :class:`Tuning`, by its registry name (:attr:`ContractView.game`)."""


def heuristic_action(view: ContractView) -> tuple[Action, str]:
    """The heuristic bot's choice and why."""
    legal = view.legal
    if not legal:
        raise BotError("the bot was asked to act with no legal action")
    if view.phase is Phase.PLAY:
        return _heuristic_play(view)
    hand = _hand_mask(view)
    players = _active_count(view)
    first = legal[0]
    if isinstance(first, NameTrump):
        suit, est = _best_trump(hand, players)
        return NameTrump(first.seat, suit), f"{suit.name.lower()} is the strongest trump (~{est:.1f} tricks)"
    if isinstance(first, (Bid, Pass)):
        return _heuristic_bid(view, hand, players)
    if isinstance(first, Join):
        trump = view.trump.value if view.trump is not None else -1
        est = estimate_tricks(hand, trump, players, view.low_high)
        tuning = TUNINGS.get(view.game, Tuning())
        need = tuning.join_need
        costs_at = tuning.sit_out_costs_at
        if costs_at is not None and view.seat is not None and view.scores[view.seat] <= costs_at:
            need -= 0.3  # sitting out costs a point here
        if tuning.last_one_in_scores and not any(view.joined) and sum(j is None for j in view.joined) == 2:
            need -= 0.7  # everyone so far is out: going out too hands the last player the points
        playing = est >= need
        return Join(first.seat, playing), f"~{est:.1f} tricks: {'play' if playing else 'sit out'}"
    if isinstance(first, Exchange):
        return _heuristic_exchange(view, hand)
    if isinstance(first, Settle):
        return Settle(first.seat, False), "take 5 off my own score"
    return first, "the only kind of action"


def _heuristic_bid(view: ContractView, hand: int, players: int) -> tuple[Action, str]:
    seat = view.legal[0].seat  # type: ignore[union-attr]
    bids = sorted((a for a in view.legal if isinstance(a, Bid)), key=lambda a: a.tricks)
    can_pass = any(isinstance(a, Pass) for a in view.legal)
    if view.trump is not None and bids:  # trump is known before the bids (Koz Maca: spades)
        est = estimate_tricks(hand, view.trump, players, view.low_high)
        call = min(bids[-1].tricks, max(bids[0].tricks, int(est)))
        return Bid(seat, call), f"~{est:.1f} tricks with {view.trump.name.lower()} trump"
    _, est = _best_trump(hand, players)
    fit = [b for b in bids if b.tricks <= est + TUNINGS.get(view.game, Tuning()).bid_margin]
    if fit:
        return fit[0], f"~{est:.1f} tricks with my best trump"
    if not can_pass:
        return bids[0], "forced to bid"
    return Pass(seat), f"only ~{est:.1f} tricks"


def _heuristic_exchange(view: ContractView, hand: int) -> tuple[Action, str]:
    trump = view.trump.value if view.trump is not None else -1
    keep = 0
    for c in cards_of(hand):
        if c // 13 == trump or c % 13 >= 11:  # trumps, aces and kings stay
            keep |= 1 << c
    throw = set(cards_of(hand & ~keep))
    for a in view.legal:
        if isinstance(a, Exchange) and set(a.cards) == throw:
            return a, f"keep trumps and high cards, exchange {len(throw)}"
    options = [a for a in view.legal if isinstance(a, Exchange) and set(a.cards) <= throw]
    best = max(options, key=lambda a: len(a.cards))
    return best, f"exchange {len(best.cards)}"


def _heuristic_play(view: ContractView) -> tuple[Action, str]:
    legal = [a.card for a in view.legal if isinstance(a, Play)]
    seat = view.legal[0].seat  # type: ignore[union-attr]
    card, why = choose_card(legal, list(view.trick), view.trump.value if view.trump else -1,
                            view.low_high, _remaining_above(view), _last_to_play(view))
    return Play(seat, card), why


def _last_to_play(view: ContractView) -> bool:
    return len(view.trick) == sum(view.active) - 1


def _remaining_above(view: ContractView) -> Callable[[int], bool]:
    """Whether a card is the highest of its suit still unplayed (outside this seat's hand)."""
    gone = _hand_mask(view)
    for c in view.played:
        gone |= 1 << c
    low_high = view.low_high

    def top(card: int) -> bool:
        suit_left = SUIT_MASKS[card // 13] & ~gone
        return not any(_power(c, low_high) > _power(card, low_high) for c in cards_of(suit_left))

    return top


def choose_card(legal: list[Card], trick: list[Card], trump: int, low_high: bool,
                is_top: Callable[[int], bool], last: bool) -> tuple[Card, str]:
    """Take the trick as cheaply as possible, or throw the cheapest card."""

    def cheap(c: int) -> tuple[int, int]:
        return (1 if c // 13 == trump else 0, _power(c, low_high))

    if not trick:
        winners = [c for c in legal if is_top(c) and c // 13 != trump]
        if winners:
            return max(winners, key=lambda c: _power(c, low_high)), "lead a card nobody can beat"
        tops = [c for c in legal if is_top(c)]
        if tops:
            return tops[0], "lead a top trump"
        return min(legal, key=cheap), "lead low"
    best = trick[0]
    for c in trick[1:]:
        if beats(c, best, trump, low_high):
            best = c
    winning = [c for c in legal if beats(c, best, trump, low_high)]
    if winning:
        sure = [c for c in winning if last or is_top(c) or c // 13 == trump]
        if sure:
            return min(sure, key=cheap), "win the trick cheaply"
        return max(winning, key=lambda c: _power(c, low_high)), "try to win the trick"
    return min(legal, key=cheap), "cannot win: throw the lowest"


# --- sampling hidden cards -------------------------------------------------------------------


def sample_world(view: ContractView, rng: random.Random, tries: int = 30,
                 reveal: bool = True) -> tuple[list[int], list[Card]]:
    """Hands for every seat and a stock, consistent with what ``view.seat`` knows (the game's
    :meth:`~callbreak.games.base.ContractGame.sample_hidden`).

    ``reveal=False`` uses only the suits a seat failed to follow, not what the rules' obligations
    reveal (kept to measure what that inference is worth)."""
    try:
        return _game_class(view).sample_hidden(view, rng, tries, reveal)
    except SamplingError as e:  # pragma: no cover - the last try ignores what play revealed
        raise BotError(str(e)) from None


def _game_class(view: ContractView) -> type[ContractGame]:
    """The game class a view comes from (to build sampled worlds with ``from_view``)."""
    cls = _CLASSES.get(view.game)
    if cls is None:
        game = game_info(view.game).create(view.players, view.options)
        # A capability honestly absent: only a ContractGame has the mechanics these bots play
        # sampled worlds out on (from_view, sample_hidden, the seats in and out of a deal).
        if not isinstance(game, ContractGame):
            raise BotError(f"{view.game} is not one of the related trick games")
        cls = _CLASSES[view.game] = type(game)
    return cls


_CLASSES: dict[str, type[ContractGame]] = {}


def rollout_action(g: ContractGame) -> Action:
    """The fast policy used to play sampled worlds out: the heuristic on the sampled state."""
    seat = g.turn
    if g.phase is Phase.PLAY:
        legal = list(cards_of(g.play_mask()))
        gone = g.hands[seat]
        for t in g.tricks:
            for c in t.cards:
                gone |= 1 << c
        for c in g.trick:
            gone |= 1 << c
        low_high = g.low_high

        def top(card: int) -> bool:
            left = SUIT_MASKS[card // 13] & ~gone
            p = _power(card, low_high)
            return not any(_power(c, low_high) > p for c in cards_of(left))

        last = len(g.trick) == sum(g.active) - 1
        card, _ = choose_card(legal, list(g.trick), g.trump, low_high, top, last)
        return Play(seat, card)
    return heuristic_action(g.view(seat))[0]


def outcome_value(g: ContractGame, before: Sequence[float], me: int, win_bonus: float | None = None) -> float:
    """How good the hand just played out in ``g`` was for ``me``: its score change less the mean
    change of the others (sign flipped in the race-down games, so higher is always better), plus
    ``win_bonus`` (default :data:`_WIN_BONUS`) for winning the game outright."""
    deltas = [g.scores[s] - before[s] for s in range(g.players)]
    others = [deltas[s] for s in range(g.players) if s != me and g.in_game[s]]
    rel = deltas[me] - (sum(others) / len(others) if others else 0.0)
    if g.LOW_WINS:
        rel = -rel
    bonus = _WIN_BONUS if win_bonus is None else win_bonus
    if bonus and g.is_over and me in g.winners:
        rel += bonus / len(g.winners)
    return rel


_WIN_BONUS = 20.0  # a game won is worth more than any one hand's points


# --- the bots ----------------------------------------------------------------------------------


class GameHeuristicBot:
    def __init__(self, seed: int | None = None) -> None:
        self.name = "heuristic"

    def decide(self, view: ContractView, budget: float) -> Decision:
        action, why = heuristic_action(view)
        return Decision(action, why)


class GameSearchBot:
    """Determinized search over sampled worlds, rolled out to the end of the hand."""

    # How much better (in mean relative points a hand) another action must look than the
    # heuristic's choice to be preferred: with few samples, noise otherwise picks bad actions.
    PRIOR = 0.25

    def __init__(self, seed: int | None = None, samples: int = 8, max_candidates: int = 8,
                 contract_samples: int = 24, reveal: int = 1) -> None:
        self.name = "search"
        self.rng = random.Random(seed)
        self.samples = samples
        self.contract_samples = contract_samples  # bids, trump, in/out: rarer and costlier to get wrong
        self.max_candidates = max_candidates
        self.reveal = bool(reveal)  # 0: sample by voids alone (the bot before obligations were read)

    def candidates(self, view: ContractView) -> list[Action]:
        legal = list(view.legal)
        if len(legal) <= self.max_candidates:
            return legal
        pick = heuristic_action(view)[0]
        rest = [a for a in legal if a != pick]
        if isinstance(pick, (Bid, Pass)):
            # Bids: the ones nearest the heuristic's (a pass counts as just below the lowest bid).
            aim = pick.tricks if isinstance(pick, Bid) else 0

            def distance(a: Action) -> int:
                return abs((a.tricks if isinstance(a, Bid) else 0) - aim)

            rest.sort(key=distance)
        else:
            # Many exchanges: the heuristic's choice and a spread of the others.
            self.rng.shuffle(rest)
        return [pick, *rest[: self.max_candidates - 1]]

    def decide(self, view: ContractView, budget: float) -> Decision:
        cands = self.candidates(view)
        if len(cands) == 1:
            return Decision(cands[0], "the only legal move")
        samples = self.samples if view.phase is Phase.PLAY else self.contract_samples
        deadline = time.monotonic() + max(0.01, budget * 0.8)
        values, done = self._play_out(view, cands, samples, deadline, _WIN_BONUS)
        prior = heuristic_action(view)[0]
        means = [v + (self.PRIOR if a == prior else 0.0) for v, a in zip(values, cands, strict=True)]
        best = max(range(len(cands)), key=lambda i: means[i])
        return Decision(cands[best], f"best of {len(cands)} over {done} sampled deals "
                                     f"({values[best]:+.2f} a hand)")

    def appraise(self, view: ContractView, actions: list[Action], samples: int,
                 budget: float = 30.0) -> tuple[list[float], int]:
        """The value of each of ``actions`` (legal in ``view``) from the seat's view alone: the
        mean, over ``samples`` deals the others could hold (the same deals for every action),
        of the hand's points for the seat less the others' mean when the hand is played out
        from there as the search plays it out (race-down games' sign flipped, so higher is
        better; no bonus for winning the game, so a point means the same on every hand).
        Returns the values and the deals searched (fewer if ``budget`` seconds ran out). The
        review judges the related games' decisions with it."""
        return self._play_out(view, actions, samples, time.monotonic() + budget, 0.0)

    def _play_out(self, view: ContractView, actions: list[Action], samples: int, deadline: float,
                  win_bonus: float) -> tuple[list[float], int]:
        me = view.seat
        assert me is not None
        cls = _game_class(view)
        totals = [0.0] * len(actions)
        done = 0
        for _ in range(samples):
            hands, stock = sample_world(view, self.rng, reveal=self.reveal)
            base = cls.from_view(view, hands, stock)
            for i, action in enumerate(actions):
                g = base.clone()
                before = list(g.scores)
                hands_before = len(g.results)
                g.apply(action)
                while not g.is_over and len(g.results) == hands_before and g.turn != CHANCE:
                    g.apply(rollout_action(g))
                totals[i] += outcome_value(g, before, me, win_bonus)
            done += 1
            if time.monotonic() > deadline:
                break
        return [t / done for t in totals], done


GameBot = GameHeuristicBot | GameSearchBot


def plays_trick_game(game: str) -> bool:
    """Whether ``game`` is a trick game of :mod:`callbreak.games.base` (a :class:`ContractGame`):
    what these bots need, since they build sampled worlds with its ``from_view`` and play them
    out on its mechanics. Asked when needed, so a game registered after this module is asked too.
    """
    return _is_trick_game(game_info(game))


@functools.cache
def _is_trick_game(info: GameInfo) -> bool:
    # A capability honestly absent: only a ContractGame has the mechanics these bots play out on;
    # a game's engine is known only by making one (under its default preset and seat count).
    return isinstance(info.create(info.default_seats, info.make_options(None, {})), ContractGame)
_INT_OPTIONS = ("samples", "contract_samples", "max_candidates", "seed", "reveal")


def _factory(cls: Callable[..., GameBot]) -> Callable[..., GameBot]:
    """A registry factory: options arrive as text; these bots take whole numbers only."""

    def make(**opts: str) -> GameBot:
        kwargs: dict[str, Any] = {}
        for k, v in opts.items():
            if k not in _INT_OPTIONS:
                raise BotError(f"bad option {k!r} for bot {cls.__name__}")
            try:
                kwargs[k] = int(v)
            except ValueError:
                raise BotError(f"option {k} must be a whole number, got {v!r}") from None
        return cls(**kwargs)

    return make


register("heuristic", plays_trick_game, "Rules of thumb: leads sure winners, wins cheaply, else throws its "
         "lowest.")(_factory(GameHeuristicBot))
register("search", plays_trick_game, "Our strongest here: plays each choice out over deals the others "
         "could hold.")(_factory(GameSearchBot))
