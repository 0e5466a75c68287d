"""The one game protocol: what every registered game is, whatever its rules.

Every game here implements it through one engine, :class:`~callbreak.core.trick_game.TrickGame`
(Call Break's :class:`~callbreak.core.match.Match`, each related game of :mod:`callbreak.games`);
a game of another kind could implement the protocol itself. Everything above the rules (records, bots, the arena, the
terminal, the web tables) drives a game only through this protocol and finds games by name in
the registry (:func:`callbreak.games.game_info`).

A game is a state machine over the actions of :mod:`callbreak.core.actions`:

- ``to_act`` is the seat to act, :data:`~callbreak.core.actions.CHANCE` when chance must deal
  (or draw for dealer), None once the game is over;
- ``legal_actions()`` lists what the seat to act may do (never empty while a seat is to act);
  chance steps come from a :class:`Chance` source, so the rules never touch randomness;
- ``verify(action)`` raises a specific :class:`~callbreak.core.errors.IllegalActionError` and
  ``apply(action)`` verifies first, so a refused action changes nothing;
- ``view(seat)`` is everything that seat may know, built by allow-list (``None``: a spectator);
- ``history`` is every action applied, chance steps included: replaying it rebuilds the game.

The protocol is generic in a game's view and action types (:class:`GameOf`): Call Break's
match is a ``GameOf[SeatView, Action]``, a related game a ``GameOf[games.ContractView, Action]``, and
a game from the registry (any of them) a ``GameOf[games.View, Action]``. A game's views are a
covariant parameter (a game with a narrower view type is a game of the wider one), its actions
an invariant one (it takes what it offers). :class:`Game` is the protocol with its view type
left open (``Any``), for callers that need no more.

>>> from callbreak.core.dealing import Dealer
>>> from callbreak.core.match import Match
>>> from callbreak.core.rules import make_rules
>>> game: Game = Match(make_rules("bhoos-tournament"))
>>> chance = Dealer(seed=1)
>>> while not game.is_over:
...     game.apply(chance.chance(game) if game.to_act == CHANCE else game.legal_actions()[0])
>>> len(game.scores), len(game.view(0).played)  # the last deal's tricks stay in view
(4, 52)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, Protocol, Self, TypeVar, runtime_checkable

from callbreak.core.actions import CHANCE, Action, Deal, Play
from callbreak.core.cards import Card, Suit
from callbreak.core.options import Options
from callbreak.core.scoring import DealResult
from callbreak.core.words import Words

__all__ = ["CHANCE", "ActionT", "Chance", "ChanceKind", "CompletedTrick", "Game", "GameOf", "GameView", "Options", "Phase",
           "TrickView", "ViewT"]


class Phase(str, Enum):
    """Where a game stands: every game's phases are members of this one enum (a game passes
    through only those its rules have; its observation encoding lists them)."""

    DRAW = "draw"  # chance decides the first dealer (Call Break)
    DEAL = "deal"  # chance deals (a thrown-in deal is dealt again by the same dealer)
    REDEAL_CLAIM = "redeal_claim"  # seats with a weak hand may claim a redeal (Call Break)
    CALL = "call"  # every seat calls its tricks (Call Break)
    AUCTION = "auction"  # bids and passes (Batak, Snarples) or calls (Koz Maca)
    TRUMP = "trump"  # the entitled seat names trump
    JOIN = "join"  # each seat says play or sit out / drop / out
    EXCHANGE = "exchange"  # Horsethief: in-players exchange cards with the stock
    SETTLE = "settle"  # Snarples: the bidder's choice when every other player sat out
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class CompletedTrick:
    """A completed trick of any game: who led, the cards in play order (the leader's first),
    who won, and the seat that played each card (where some seats sit a deal out, not every
    seat in turn)."""

    leader: int
    cards: tuple[Card, ...]
    winner: int
    # Left out of the repr: at a full table the seats follow from the leader, and a state pinned
    # by its repr (an old record's final state) reads as it always has.
    seats: tuple[int, ...] = field(repr=False)


class ChanceKind(str, Enum):
    """What the chance step now due decides (an environment that deals one outcome at a time,
    as OpenSpiel does, asks)."""

    DEAL = "deal"  # the cards: the pack in the order of :meth:`Game.pack_seats`
    DRAW = "draw"  # the draw for the first dealer: a card for each seat
    FIRST_DEALER = "first_dealer"  # the first dealer, picked at random: a seat


@runtime_checkable
class GameView(Protocol):
    """What one seat may know of any game (``seat`` None: a spectator); ``game`` is the game's
    registry name and ``options`` its options value (Call Break's :class:`Rules`)."""

    @property
    def game(self) -> str: ...
    @property
    def options(self) -> Options: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def deal_number(self) -> int: ...  # 1-based number of the current (or next) deal
    @property
    def deal_limit(self) -> int | None: ...  # the deals the match has at most (None: no limit)
    @property
    def dealer(self) -> int | None: ...
    @property
    def declarer(self) -> int | None: ...  # the seat that won the contract (None: none)
    @property
    def contract(self) -> int | None: ...  # the tricks it contracted for
    @property
    def upcard(self) -> Card | None: ...  # a card turned face up by the deal (None: none)
    @property
    def stock_size(self) -> int: ...  # cards left undealt in a stock
    @property
    def low_high(self) -> bool: ...  # ranks reversed this deal, 2 high (Donut)
    @property
    def tiebreak_seats(self) -> tuple[int, ...]: ...  # seats playing a tie-break deal
    @property
    def chips(self) -> tuple[float, ...] | None: ...  # stakes settled (None: no stakes)
    @property
    def trump(self) -> Suit | None: ...  # this deal's trump (None: none, or not yet named)
    @property
    def fixed_trump(self) -> Suit | None: ...  # a trump the rules fix for every deal (None: none)
    @property
    def call_range(self) -> tuple[int, int] | None: ...  # the calls a seat may make (None: it bids)
    @property
    def contract_word(self) -> str: ...  # a seat's part in the contract: "call", "bid" ("": none)

    def contract_part(self, seat: int) -> str:
        """``seat``'s part in the deal's contract, in short: a call ("3", "3b" blind), a bid
        ("5", "5*" the declarer's), "pass", "out", "-" (none yet)."""
        ...

    @property
    def players(self) -> int: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def hand(self) -> tuple[Card, ...] | None: ...
    @property
    def trick(self) -> tuple[Card, ...]: ...
    @property
    def trick_seats(self) -> tuple[int, ...]: ...
    @property
    def won(self) -> tuple[int, ...]: ...
    @property
    def totals(self) -> tuple[int, ...]: ...  # each seat's total in tenths of a point
    @property
    def scores(self) -> tuple[float, ...]: ...  # the totals in points
    @property
    def winners(self) -> tuple[int, ...]: ...
    @property
    def legal(self) -> tuple[Action, ...]: ...
    @property
    def legal_cards(self) -> tuple[Card, ...]: ...
    @property
    def played(self) -> tuple[Card, ...]: ...
    @property
    def is_over(self) -> bool: ...

    # What a client may be sent of the view, by field name: the same for every seat, then the
    # seat's own (see :class:`TrickView`).
    PUBLIC_FIELDS: ClassVar[tuple[str, ...]]
    PRIVATE_FIELDS: ClassVar[tuple[str, ...]]


ViewT = TypeVar("ViewT", bound=GameView, covariant=True)
"""A game's view type (what :meth:`Game.view` returns)."""

ActionT = TypeVar("ActionT", bound=Action)
"""A game's action type (what it offers and takes; every game here takes :data:`Action`)."""


# The view type is covariant although two methods take a view (possible_cards, sample_deal): a
# game reads only the views it made, and trusts its caller to pass one of them (a Call Break
# view to Call Break), as OpenSpiel's states read only their own observations.
@runtime_checkable
class GameOf(Protocol[ViewT, ActionT]):  # type: ignore[misc]
    """A game in progress: the state machine every registered game implements, with views of
    type ``ViewT`` and actions of type ``ActionT``.

    What callers may ask of any game, beyond the state machine:

    - ``NAME``: its registry name (what its records say); ``dealer``: the seat dealing the
      current or next deal (None until the first dealer is drawn);
    - a result's ``points`` and the ``totals`` are tenths of a point in every game; ``scores``
      are the totals in points;
    - ``STOPPABLE``: whether a match with no deal limit may be stopped between deals (a
      :class:`~callbreak.core.actions.Stop` chance step, while ``can_stop``); a game that cannot
      stop is given a ``deal_limit`` by a caller that needs an end;
    - the whole state's cards, for what sees everything (search, resampling, a debug render):
      ``hands`` and ``discards`` (card masks per seat), ``stock``;
    - chance one outcome at a time: ``chance_kind``, ``pack_seats()`` and ``deal_from_pack()``;
    - hidden information: ``private_parts(seat)`` (what a seat holds and sees face up),
      ``possible_cards(view)`` (what the play shows each seat may still hold) and
      ``sample_deal(view, rng)`` (a game of the current deal consistent with a view).
    """

    NAME: ClassVar[str]
    STOPPABLE: ClassVar[bool]

    @property
    def players(self) -> int: ...
    @property
    def dealer(self) -> int | None: ...
    @property
    def options(self) -> Options: ...  # the game's options value
    @property
    def deal_limit(self) -> int | None: ...  # the deals a match has at most (None: no limit)
    @property
    def can_stop(self) -> bool: ...  # a Stop is legal now (only when STOPPABLE)
    @property
    def hands(self) -> Sequence[int]: ...
    @property
    def discards(self) -> Sequence[int]: ...
    @property
    def stock(self) -> Sequence[Card]: ...
    @property
    def chance_kind(self) -> ChanceKind: ...  # meaningful while ``to_act`` is CHANCE
    @property
    def phase(self) -> Phase: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def totals(self) -> Sequence[int]: ...  # tenths of a point
    @property
    def scores(self) -> Sequence[float]: ...  # the totals in points
    @property
    def winners(self) -> tuple[int, ...]: ...
    @property
    def history(self) -> Sequence[ActionT]: ...
    @property
    def results(self) -> Sequence[Any]: ...  # one entry per scored deal

    def legal_actions(self, seat: int | None = None) -> list[ActionT]: ...
    def verify(self, action: ActionT) -> None: ...
    def is_legal(self, action: ActionT) -> bool: ...
    def apply(self, action: ActionT) -> None: ...
    def apply_verified(self, action: ActionT) -> None: ...  # (an action verify just accepted)
    def default_action(self) -> ActionT: ...
    def view(self, seat: int | None) -> ViewT: ...
    def clone(self) -> Self: ...
    def snapshot(self) -> tuple[object, ...]: ...
    def result_json(self) -> dict[str, Any]: ...

    def pack_seats(self) -> tuple[int, ...]:
        """For each card of the pack the next deal takes, in dealing order, the seat it goes to
        (-1: not to a seat, the stock or the upcard); its length is the number of cards dealt."""
        ...

    def deal_from_pack(self, pack: Sequence[Card]) -> Deal:
        """The deal a dealer makes from ``pack`` (all 52 cards, in dealing order)."""
        ...

    def private_parts(self, seat: int) -> tuple[int, int, Card | None]:
        """What ``seat`` holds and sees face up outside the tricks now: its hand (a card mask;
        -1 while it has not looked at it), the other cards shown to it (a mask: a redeal
        claimant's hand, its own discards) and the upcard (None: none)."""
        ...

    def possible_cards(self, view: ViewT) -> list[int]:  # type: ignore[misc]
        """Per seat, the mask of cards it may still hold as far as ``view``'s seat knows from
        the play (suits it failed to follow, cards the rules would have made it play)."""
        ...

    @classmethod
    def sample_deal(cls, view: ViewT, rng: random.Random) -> Self:  # type: ignore[misc]
        """A game of ``view``'s current deal (its history empty) at the position the view
        shows, the cards its seat cannot see drawn at random consistently with the view."""
        ...


@runtime_checkable
class Game(GameOf[Any, Action], Protocol):
    """Any game, its view type left open: what a caller holds that needs no more (``GameOf``
    says which views a game makes)."""


class Chance(Protocol):
    """A source of chance actions (a seeded dealer): the deal, the draw for dealer."""

    def chance(self, game: Any) -> Action: ...  # a game of the dealer's kind


class _WithOptions(Protocol):
    @property
    def options(self) -> Options: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class TrickView:
    """What one seat may know of any trick game: the fields every game's view has, and what
    every view derives from them. Each game's view adds what its contract keeps (Call Break's
    :class:`~callbreak.core.view.SeatView`, the related games'
    :class:`~callbreak.games.base.ContractView`). Frozen, holding only tuples and frozen values:
    never a reference to the state."""

    seat: int | None  # None: a spectator
    players: int
    phase: Phase
    deal_number: int  # the current (or next) deal, from 1
    dealer: int | None  # None until the first dealer is drawn
    to_act: int | None  # a seat, -1 for chance, None when the match is over
    hand: tuple[Card, ...] | None  # None for spectators (and a seat yet to look at a blind deal)
    hand_sizes: tuple[int, ...]
    won: tuple[int, ...]  # tricks won this deal
    trump: Suit | None  # None: none, or not yet named
    leader: int | None  # who led (or will lead) the current trick
    trick: tuple[Card, ...]  # the current trick, in play order from ``leader``
    trick_seats: tuple[int, ...]  # the seat that played each card of it
    tricks: tuple[CompletedTrick, ...]  # completed tricks of this deal
    totals: tuple[int, ...]  # each seat's total, in tenths of a point
    results: tuple[DealResult, ...]  # every deal scored
    winners: tuple[int, ...]
    legal: tuple[Action, ...]  # what this seat may do now (empty if nothing)

    # The allow-list of what may leave the server: fields every seat may see, then the seat's own
    # (its hand, its legal actions). Each view class names its own.
    PUBLIC_FIELDS: ClassVar[tuple[str, ...]] = ()
    PRIVATE_FIELDS: ClassVar[tuple[str, ...]] = ()

    @property
    def scores(self) -> tuple[float, ...]:
        """The totals in points."""
        return tuple(t / 10 for t in self.totals)

    @property
    def played(self) -> tuple[Card, ...]:
        """Every card played this deal, completed tricks then the current one."""
        out: list[Card] = []
        for t in self.tricks:
            out.extend(t.cards)
        out.extend(self.trick)
        return tuple(out)

    @property
    def legal_cards(self) -> tuple[Card, ...]:
        """The cards this seat may play now (empty outside its turn to play)."""
        return tuple(a.card for a in self.legal if isinstance(a, Play))

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def face_up(self) -> tuple[Card, ...]:
        """Cards laid face up outside the tricks (none here; games with an upcard or a shown
        hand say so)."""
        return ()

    @property
    def notice(self) -> str:
        """Why the last deal was thrown in or what its end settled, if anything ("" if not)."""
        return ""

    @property
    def notice_words(self) -> Words | None:
        """The notice as a message id and its values, for the reader's language (None if none)."""
        return None

    @property
    def deal_limit(self: _WithOptions) -> int | None:
        """The deals the match has at most (None: no limit), as its options say."""
        return self.options.deal_limit

    def shown_cards(self) -> frozenset[Card]:
        """Every card this view shows: its own hand, the cards played, the cards face up."""
        return frozenset((*(self.hand or ()), *self.played, *self.face_up))
