"""The one engine of every trick game here: Call Break and each related game is a :class:`TrickGame`.

A trick game is a state machine over the actions of :mod:`callbreak.core.actions`. Chance deals
(:class:`~callbreak.core.actions.Deal`), seats play cards (:class:`~callbreak.core.actions.Play`),
and everything else a game has (Call Break's calls and redeal claims, an auction, naming trump,
sitting a deal out, exchanging with the stock) is its *contract*, in three hooks:
``_contract_actions(seat)`` (what may be done now), ``_verify_contract(action)`` (raise if it may
not) and ``_apply_contract(action)``. The engine does the rest the same way for every game:

- ``verify`` refuses anything in the wrong phase, a malformed deal, a card out of turn or not
  allowed, and hands the contract to its hook; ``apply`` verifies first, so a refused action
  changes nothing, then records it in ``history``;
- a completed trick is recorded (:meth:`_complete_trick`), and after the last one the game's
  ``_score_deal`` hook gives each seat's points, which :meth:`finish_deal` records as a
  :class:`~callbreak.core.scoring.DealResult`, adds to ``totals``, and then ends the match
  (``_winners_after_deal``, the deal limit) or moves the deal on to the next dealer;
- ``clone`` and ``snapshot`` copy and compare the whole state, whatever fields a game adds.

Points are integer tenths of a point in every game (``totals``, a result's ``points``, what
``_score_deal`` returns), so sums never drift; ``scores`` are the same totals in points.

A subclass sets the class constants (``NAME``, ``TITLE``, seats, cards each, ``OPTIONS``) and its
contract; Call Break's :class:`~callbreak.core.match.Match` also replaces the hottest paths
(listing and applying plays) with its own, which the engine's tests hold to the same answers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from operator import attrgetter, itemgetter
from typing import Any, ClassVar, Self

from callbreak.core.actions import CHANCE, Action, Deal, Play
from callbreak.core.cards import Card, cards_of
from callbreak.core.errors import IllegalActionError, RulesError, WrongPhaseError
from callbreak.core.game import ChanceKind, CompletedTrick, Phase
from callbreak.core.options import Options
from callbreak.core.scoring import DealResult, leaders
from callbreak.core.tricks import NO_TRUMP, biggest_card, check_play, check_seat, check_turn, follow_suit_mask
from callbreak.core.words import Words


class TrickGame:
    """A trick game's whole state, and the moves every trick game makes the same way."""

    NAME: ClassVar[str] = ""  # the registry name, written into records
    TITLE: ClassVar[str] = ""
    DESCRIPTION: ClassVar[str] = ""
    MIN_PLAYERS: ClassVar[int] = 4
    MAX_PLAYERS: ClassVar[int] = 4
    CARDS_EACH: ClassVar[int] = 13
    STOPPABLE: ClassVar[bool] = False  # a game without a deal limit plays to its natural end
    LOW_WINS: ClassVar[bool] = False  # race-down games: a lower total is better
    OPTIONS: ClassVar[type[Options]]
    MATCH_WORD: ClassVar[str] = "game"  # "the game is over"
    LEAD_REFUSAL: ClassVar[str] = "may not be led now"  # why a lead is refused, if one can be
    CONTRACT_ACTIONS: ClassVar[tuple[type, ...]] = ()  # the kinds of action its contract takes
    ACTS_OUT_OF_TURN: ClassVar[bool] = False  # whether a seat not to act may have a choice
    # Caches that are not state: left out of ``snapshot`` (a refused action may fill one).
    CACHES: ClassVar[tuple[str, ...]] = ()

    # Slots for the fields every game has (the commonest reads of the hottest paths); a game's
    # own fields live in slots it declares or, if it declares none, in an instance dict;
    # ``clone`` and ``snapshot`` see both.
    __slots__ = ("players", "options", "phase", "dealer", "turn", "deal_number", "hands", "dealt",
                 "won", "trump", "leader", "trick", "tricks", "results", "totals", "winners",
                 "history")

    def __init__(self, players: int, options: Options) -> None:
        """A match before its first deal, among ``players`` seats under ``options``."""
        if isinstance(players, bool) or not isinstance(players, int) or not (
                self.MIN_PLAYERS <= players <= self.MAX_PLAYERS):
            raise RulesError(f"{self.TITLE} is for {self.MIN_PLAYERS}-{self.MAX_PLAYERS} players, "
                             f"not {players!r}")
        if not isinstance(options, self.OPTIONS):
            raise RulesError(f"{self.TITLE} takes {self.OPTIONS.__name__}, not {type(options).__name__}")
        self.players = players
        self.options = options
        self.phase = Phase.DEAL
        self.dealer: int | None = None
        self.turn = CHANCE
        self.deal_number = 1  # the current (or next) deal, from 1
        self.hands = [0] * players  # card masks
        self.dealt = [0] * players  # each hand as dealt
        self.won = [0] * players  # tricks won this deal
        self.trump = NO_TRUMP
        self.leader: int | None = None
        self.trick: list[Card] = []
        self.tricks: list[CompletedTrick] = []
        self.results: list[DealResult] = []
        self.totals = [0] * players  # tenths of a point
        self.winners: tuple[int, ...] = ()
        self.history: list[Action] = []

    # --- reading -------------------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        """The seat to act, :data:`CHANCE` for a chance step, None once the game is over."""
        return None if self.phase is Phase.OVER else self.turn

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def scores(self) -> tuple[float, ...]:
        """The totals in points (they are kept in tenths)."""
        return tuple(t / 10 for t in self.totals)

    @property
    def deal_limit(self) -> int | None:
        """The deals a match has at most, as its options say (None: no limit)."""
        return self.options.deal_limit

    @property
    def can_stop(self) -> bool:
        """Whether a Stop is legal now (only in a game that may stop between deals)."""
        return False

    @property
    def chance_kind(self) -> ChanceKind:
        """What the chance step now due decides: a deal, unless a game draws for dealer."""
        return ChanceKind.DEAL

    def check_seat(self, seat: object) -> None:
        """Raise :class:`~callbreak.core.errors.IllegalActionError` unless ``seat`` is a seat of
        the table."""
        check_seat(seat, self.players)

    def check_turn(self, seat: object) -> None:
        """Raise unless ``seat`` is a seat of the table and the one to act."""
        check_turn(seat, self.turn, self.players)

    def play_mask(self) -> int:
        """Mask of the cards the seat to act may play (0 outside the play phase)."""
        if self.phase is not Phase.PLAY:
            return 0
        return self._play_mask(self.hands[self.turn])

    def _play_mask(self, hand: int) -> int:
        """Follow suit; void: any card (a game with stricter obligations says so)."""
        return follow_suit_mask(hand, self.trick[0]) if self.trick else hand

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every action ``seat`` (default: the seat to act) may take now. Chance steps are not
        listed (any well-formed deal is legal); a Stop is, for the chance seat, while the table
        may stop."""
        if seat is None:
            seat = self.turn
        elif seat != CHANCE:
            self.check_seat(seat)
        if self.phase is Phase.OVER:
            return []
        if seat == CHANCE:
            return [self._stop()] if self.can_stop else []
        if self.phase is Phase.DEAL or (seat != self.turn and not self.ACTS_OUT_OF_TURN):
            return []
        if self.phase is Phase.PLAY:
            return [Play(seat, c) for c in cards_of(self.play_mask())] if seat == self.turn else []
        return self._contract_actions(seat)

    def _stop(self) -> Action:
        raise WrongPhaseError(f"{self.TITLE} cannot stop between deals")

    def _contract_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do now outside the play (and the deal)."""
        raise NotImplementedError

    def default_action(self) -> Action:
        """What a turn timer does for the seat to act: the biggest legal card in the play, the
        game's own choice otherwise."""
        if self.phase is Phase.PLAY:
            return Play(self.turn, biggest_card(self.play_mask(), self.trump))
        return self._default_contract()

    def _default_contract(self) -> Action:
        raise WrongPhaseError(f"no seat is to act in the {self.phase.value} phase")

    # --- verifying -----------------------------------------------------------------------

    def verify(self, action: Action) -> None:
        """Raise a specific :class:`IllegalActionError` if ``action`` may not be applied now."""
        phase = self.phase
        if phase is Phase.OVER:
            raise WrongPhaseError(f"the {self.MATCH_WORD} is over")
        if isinstance(action, Deal):
            if phase is not Phase.DEAL:
                raise WrongPhaseError(f"cannot deal in the {phase.value} phase")
            self._check_deal(action)
        elif isinstance(action, Play):
            if phase is not Phase.PLAY:
                raise WrongPhaseError(f"cannot play a card in the {phase.value} phase")
            check_play(action.seat, action.card, turn=self.turn, hands=self.hands,
                       legal=self.play_mask(), trick=self.trick, lead_rule=self.LEAD_REFUSAL)
        elif isinstance(action, self.CONTRACT_ACTIONS):
            self._verify_contract(action)
        elif isinstance(action, Action):
            raise IllegalActionError(f"{self.TITLE} has no {action.kind!r} action")
        else:
            raise IllegalActionError(f"unknown action {action!r}")

    def is_legal(self, action: Action) -> bool:
        """Whether :meth:`verify` lets ``action`` be applied now."""
        try:
            self.verify(action)
        except IllegalActionError:
            return False
        return True

    def _verify_contract(self, action: Action) -> None:
        """Raise unless ``action``, one of :attr:`CONTRACT_ACTIONS`, may be taken now."""
        raise NotImplementedError

    def hand_sizes(self) -> Sequence[int]:
        """The cards each seat is dealt (0: a seat out of the game)."""
        return (self.CARDS_EACH,) * self.players

    def _check_deal(self, deal: Deal) -> None:
        """Every hand the right size, every card dealt once, the upcard and stock as the game has
        them (:meth:`_check_deal_extras`)."""
        dealt = 0
        for mask in deal.hand_masks(self.hand_sizes()):
            dealt |= mask
        self._check_deal_extras(deal, dealt)
        for c in deal.stock or ():
            if not isinstance(c, Card):
                raise IllegalActionError(f"the stock holds something that is not a card: {c!r}")
            if dealt >> c & 1:
                raise IllegalActionError(f"{c} is dealt twice")
            dealt |= 1 << c

    def _check_deal_extras(self, deal: Deal, dealt: int) -> None:
        if deal.upcard is not None or deal.stock:
            raise IllegalActionError(f"{self.TITLE} has no upcard and no stock")

    # --- applying ------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Verify ``action`` and apply it. A refused action changes nothing."""
        self.verify(action)
        self.apply_verified(action)

    def apply_verified(self, action: Action) -> None:
        """Apply ``action``, which :meth:`verify` has just accepted in this very state: a table
        that checks an action before it stores it applies it after, without checking it again."""
        self.history.append(action)
        if isinstance(action, Deal):
            self._deal(action)
        elif isinstance(action, Play):
            self._play(action.seat, action.card)
        else:
            self._apply_contract(action)

    def _deal(self, deal: Deal) -> None:
        raise NotImplementedError

    def _play(self, seat: int, card: Card) -> None:
        raise NotImplementedError

    def _apply_contract(self, action: Action) -> None:
        raise NotImplementedError

    def _complete_trick(self, leader: int, seats: tuple[int, ...], winner: int) -> None:
        """Record the trick just completed (``seats``: who played each card), give it to
        ``winner``, who leads next; after the deal's last trick, score the deal."""
        self.tricks.append(CompletedTrick(leader, tuple(self.trick), winner, seats))
        self.won[winner] += 1
        self.trick = []
        self.turn = winner
        self.leader = winner
        if len(self.tricks) == self.CARDS_EACH:
            points, note = self._score_deal()
            self.finish_deal(points, note)

    def _score_deal(self) -> tuple[Sequence[int], Words | str | None]:
        """Each seat's points for the deal just played, in tenths, and what its end settled."""
        raise NotImplementedError

    def finish_deal(self, points: Sequence[int], note: Words | str | None = None) -> None:
        """Record the deal (``points`` in tenths), add its points, pass the deal on, and end the
        match if the game or its deal limit says so (``note``: what the deal's end settled)."""
        self.results.append(self._deal_result(tuple(points), note))
        for s in range(self.players):
            self.totals[s] += points[s]
        self._after_deal(note)
        winners = self._winners_after_deal(points)
        limit = self.options.deal_limit
        if winners is None and limit is not None and len(self.results) >= limit:
            winners = self._winners_at_limit()
        dealer = self.dealer
        assert dealer is not None  # a deal was played
        self.dealer = self._next_dealer(dealer)  # after the deal's end settled who is still in
        self.phase = Phase.DEAL
        self.turn = CHANCE
        if winners is not None:
            self._end(winners)
        else:
            self.deal_number += 1

    def _deal_result(self, points: tuple[int, ...], note: Words | str | None) -> DealResult:
        """The deal just played, as a result (each game adds what it records)."""
        raise NotImplementedError

    def _after_deal(self, note: Words | str | None) -> None:
        """What a game clears or says once a deal is scored."""

    def _next_dealer(self, dealer: int) -> int:
        """Who deals after ``dealer``: the next seat in the direction the options rotate."""
        return (dealer + self.options.dealer_step) % self.players

    def _winners_after_deal(self, points: Sequence[int]) -> tuple[int, ...] | None:
        """The winners, if the deal just scored ends the match by the game's own rules."""
        return None

    def _winners_at_limit(self) -> tuple[int, ...] | None:
        """The winners when the agreed number of deals has been played (None: play on)."""
        return self.best_seats(range(self.players))

    def best_seats(self, seats: Sequence[int] | range) -> tuple[int, ...]:
        """The seats with the best total among ``seats`` (the lowest in a race-down game)."""
        return leaders(self.totals, seats, low=self.LOW_WINS)

    def _end(self, winners: tuple[int, ...]) -> None:
        self.winners = winners
        self.phase = Phase.OVER
        self.turn = CHANCE

    # --- copies --------------------------------------------------------------------------

    def clone(self) -> Self:
        """An independent copy (for search and what-if checks): lists copied, the rest shared
        (every other value of a state is immutable)."""
        cls = self.__class__
        g = cls.__new__(cls)
        names, values = _slots_of(cls)
        for name, value in zip(names, values(self), strict=True):
            setattr(g, name, value.copy() if value.__class__ is list else value)
        if cls.__dictoffset__:
            g.__dict__.update({k: v.copy() if v.__class__ is list else v for k, v in self.__dict__.items()})
        return g

    def snapshot(self) -> tuple[object, ...]:
        """A comparable value of the whole state (to check replays and refusals): its fields by
        name, in name order, caches left out, lists as tuples."""
        cls = self.__class__
        names, values = _compared_of(cls)
        fields: Iterable[tuple[str, Any]] = zip(names, values(self), strict=True)
        if cls.__dictoffset__:  # (a game without slots: its own fields join the sorted ones)
            fields = sorted([*fields, *((k, v) for k, v in self.__dict__.items() if k not in self.CACHES)],
                            key=itemgetter(0))
        # The history, the longest list by far, holds only actions (apply appends nothing else):
        # copied whole, not searched for lists inside.
        return tuple([(k, (tuple(v) if k == "history" else _frozen(v)) if v.__class__ is list else v)
                      for k, v in fields])

    def result_json(self) -> dict[str, Any]:
        raise NotImplementedError


_SLOTS: dict[type, tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]] = {}


def _slots_of(cls: type) -> tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]:
    """The slot names of a state class (its own and its bases', :class:`TrickGame`'s among them,
    so always several), and a reader of their values."""
    found = _SLOTS.get(cls)
    if found is None:
        names = tuple(n for c in cls.__mro__ for n in c.__dict__.get("__slots__", ()))
        found = _SLOTS[cls] = (names, attrgetter(*names))
    return found


_COMPARED: dict[type, tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]] = {}


def _compared_of(cls: type[TrickGame]) -> tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]:
    """The slots a snapshot compares (all but the caches), in name order, and a reader of their
    values: worked out once a class (a replay check takes a snapshot at every move)."""
    found = _COMPARED.get(cls)
    if found is None:
        names = tuple(sorted(n for n in _slots_of(cls)[0] if n not in cls.CACHES))
        found = _COMPARED[cls] = (names, attrgetter(*names))  # (TrickGame's own slots: always several)
    return found


def _frozen(value: object) -> object:
    """``value`` with its lists (and lists of lists) as tuples: a copy no later move changes."""
    if not isinstance(value, list):
        return value
    # A list that holds no lists is copied whole, not item by item (no state
    # holds a subclass of list).
    if list not in map(type, value):
        return tuple(value)
    return tuple([_frozen(v) for v in value])
