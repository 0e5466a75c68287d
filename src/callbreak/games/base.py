"""The shared machinery of the related games: state shape, trick play, views, copies.

Every related game of the catsatcards rules is a :class:`TrickGame` with the same shape as
:class:`callbreak.core.match.Match`: ``phase``, ``to_act`` (a seat, :data:`CHANCE` for a chance step,
None when over), ``legal_actions()``, ``verify()`` (raises a specific
:class:`~callbreak.core.errors.IllegalActionError`), ``is_legal()``, ``apply()`` (verifies first, so
a refused action changes nothing), ``view(seat)``, ``is_over``, ``winners``, ``scores``,
``history``, ``clone()`` and ``snapshot()``.

Seats are numbered in the direction of play: seat ``s + 1`` (mod players) always plays after seat
``s``. For the clockwise games (Snarples, Donut, Horsethief) that is the player on the left; for
Batak, played counter-clockwise, the player on the right. "The dealer's left" in a game's
docstring is translated to seat numbers there.

The trick itself is the core's: :func:`callbreak.core.tricks.trick_winner` (with ``low_high`` for
Donut's reversed ranks) decides every trick, :func:`callbreak.core.tricks.follow_suit_mask` and
:func:`callbreak.core.tricks.legal_mask` decide what may be played.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Self

from callbreak.core.actions import (
    CHANCE,
    Action,
    Bid,
    Deal,
    Exchange,
    Join,
    NameTrump,
    Pass,
    Play,
    Settle,
)
from callbreak.core.cards import DECK, FULL_DECK, SUIT_MASKS, Card, Suit, cards_of
from callbreak.core.errors import (
    IllegalActionError,
    RulesError,
    WrongPhaseError,
)
from callbreak.core.game import CompletedTrick, Phase, TrickState, TrickView
from callbreak.core.inference import fresh_caps, infer_play
from callbreak.core.options import Options
from callbreak.core.rules import Rules, VoidRule
from callbreak.core.sampling import SamplingError
from callbreak.core.tricks import (
    NO_TRUMP,
    biggest_card,
    check_play,
    follow_suit_mask,
    trick_winner,
)
from callbreak.core.words import Words


class DealerRotation(str, Enum):
    WITH_PLAY = "with_play"  # the next dealer is the next seat in the direction of play
    AGAINST_PLAY = "against_play"


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand's outcome; ``points`` are added to the scores (negative in the race-down games
    means progress)."""

    number: int
    dealer: int
    declarer: int | None
    contract: int | None
    trump: Suit | None
    active: tuple[bool, ...]
    won: tuple[int, ...]
    points: tuple[int, ...]
    note: str = ""  # the English, as records keep it; ``words`` is the same for every language
    words: Words | None = None

    @property
    def tiebreak(self) -> bool:
        """Whether this was a deal played to break a tie (never, in the related games)."""
        return False

    @property
    def shown_points(self) -> tuple[str, ...]:
        """Each seat's points as people read them (whole points, signed)."""
        return tuple(f"{p:+d}" for p in self.points)

    def seat_summary(self, seat: int) -> str:
        """``seat``'s hand in short: its points and tricks won, "-" for a seat that sat out."""
        shown = self.shown_points[seat]
        return f"{shown} ({self.won[seat]})" if self.active[seat] else f"{shown} -"


@dataclass(frozen=True, slots=True, kw_only=True)
class GameOptions(Options):
    """Options every related game has; each game adds its own (documented in its module)."""

    first_dealer: int = 0  # who deals first is settled when the table is seated
    dealer_rotation: DealerRotation = DealerRotation.WITH_PLAY
    # An agreed limit on the number of hands (timed tables, arenas); when it is reached the best
    # score among the players still in the game wins (ties share). None: play to the game's end.
    max_hands: int | None = None

    @property
    def deal_limit(self) -> int | None:
        """The hands a game has at most (None: played to its natural end)."""
        return self.max_hands

    def with_deal_limit(self, deals: int) -> Self:
        return dataclasses.replace(self, max_hands=deals)


@dataclass(frozen=True, slots=True, kw_only=True)
class GameView(TrickView):
    """Everything ``seat`` may know about a game, and nothing more (``seat`` None: a spectator).

    Built by allow-list from the state; holds only tuples and frozen values, never a reference
    to the state. Hidden: other seats' hands, the stock, other seats' discards.
    """

    game: str
    options: GameOptions
    seat: int | None
    players: int
    phase: Phase
    hand_number: int  # 1-based number of the current (or next) hand
    dealer: int
    to_act: int | None
    hand: tuple[Card, ...] | None  # None for spectators
    hand_sizes: tuple[int, ...]
    in_game: tuple[bool, ...]  # False once a Snarples player has dropped out at 33
    active: tuple[bool, ...]  # playing this hand (sitters, droppers and out-players are not)
    joined: tuple[bool | None, ...]  # each seat's play/out decision this hand, None if not made
    bids: tuple[int | None, ...]
    passed: tuple[bool, ...]
    declarer: int | None  # the high bidder (or the seat that names trump)
    contract: int | None
    trump: Suit | None
    low_high: bool  # Donut's 6 upcard: ranks reversed, 2 high
    trump_broken: bool
    upcard: Card | None
    may_sit_out: bool  # whether dropping / sitting out / going out is allowed this hand
    leader: int | None
    trick: tuple[Card, ...]
    trick_seats: tuple[int, ...]
    tricks: tuple[CompletedTrick, ...]
    won: tuple[int, ...]
    scores: tuple[int, ...]
    results: tuple[HandResult, ...]
    streak: tuple[int, ...]  # Snarples: hands in a row each seat has sat out
    exchanged: tuple[int | None, ...]  # Horsethief: cards each seat exchanged, None if not yet
    stock_size: int
    discards: tuple[Card, ...]  # this seat's own discards this hand
    notice: str
    notice_words: Words | None  # the notice as a message id and values, for the reader's language
    winners: tuple[int, ...]
    legal: tuple[Action, ...]

    # What a client may be sent of this view, by name (see TrickView).
    PUBLIC_FIELDS: ClassVar[tuple[str, ...]] = (
        "game", "players", "options", "phase", "hand_number", "dealer", "to_act", "hand_sizes",
        "in_game", "active", "joined", "bids", "passed", "declarer", "contract", "trump",
        "low_high", "trump_broken", "upcard", "may_sit_out", "leader", "trick", "trick_seats",
        "tricks", "won", "scores", "results", "streak", "exchanged", "stock_size", "notice",
        "notice_words", "winners",
    )
    PRIVATE_FIELDS: ClassVar[tuple[str, ...]] = ("seat", "hand", "discards", "legal")

    @property
    def deal_number(self) -> int:
        """The protocol's name for :attr:`hand_number`."""
        return self.hand_number

    @property
    def tiebreak_seats(self) -> tuple[int, ...]:
        """Seats in a tie-break deal (none: a tie is shared or settled by the game's end)."""
        return ()

    @property
    def chips(self) -> tuple[float, ...] | None:
        """Chips won and lost (none: the related games play for no stakes)."""
        return None

    @property
    def fixed_trump(self) -> Suit | None:
        """None: trump is named, drawn or absent deal by deal (:attr:`trump` once it is known)."""
        return None

    @property
    def call_range(self) -> tuple[int, int] | None:
        """None: a contract is bid (or there is none), not called."""
        return None

    @property
    def contract_word(self) -> str:
        """"bid" once an auction is under way, "" in a game without one."""
        if self.phase is Phase.AUCTION or any(b is not None for b in self.bids) or any(self.passed):
            return "bid"
        return ""

    def contract_part(self, seat: int) -> str:
        """Its bid ("5", "5*" the declarer's), "pass", whether it plays the deal ("in", "out"),
        "gone" once out of the game, "-" (none yet)."""
        if not self.in_game[seat]:
            return "gone"
        bid = self.bids[seat]
        if bid is not None:
            return f"{bid}{'*' if self.declarer == seat else ''}"
        if self.passed[seat]:
            return "pass"
        if self.joined[seat] is False or (self.phase is Phase.PLAY and not self.active[seat]):
            return "out"
        return "in" if self.joined[seat] else "-"

    @property
    def face_up(self) -> tuple[Card, ...]:
        """The upcard, and this seat's own discards."""
        return (*(() if self.upcard is None else (self.upcard,)), *self.discards)

    def voids(self, seat: int) -> frozenset[Suit]:
        """Suits ``seat`` has shown it does not hold this hand (it failed to follow them)."""
        out: set[Suit] = set()
        for t in self.tricks:
            _voids_in(t.seats, t.cards, seat, out)
        _voids_in(self.trick_seats, self.trick, seat, out)
        return frozenset(out)

    def unseen_mask(self) -> int:
        """Cards whose place this seat does not know: not in its hand, not played, not its own
        discards, not the upcard (in Donut the upcard is the dealer's until played)."""
        mask = FULL_DECK
        for c in (*(self.hand or ()), *self.played, *self.discards):
            mask &= ~(1 << c)
        if self.upcard is not None:
            mask &= ~(1 << self.upcard)
        return mask


def _voids_in(seats: Sequence[int], cards: Sequence[Card], seat: int, out: set[Suit]) -> None:
    if not cards:
        return
    lead = cards[0].suit
    for s, c in zip(seats, cards, strict=False):
        if s == seat and c.suit is not lead:
            out.add(lead)


# Which kinds of contract action each phase takes (the game decides which of them are legal).
_PHASE_ACTIONS: dict[Phase, tuple[type, ...]] = {
    Phase.AUCTION: (Bid, Pass),
    Phase.TRUMP: (NameTrump,),
    Phase.JOIN: (Join,),
    Phase.EXCHANGE: (Exchange,),
    Phase.SETTLE: (Settle,),
}


class TrickGame(TrickState):
    """Base of the related games. Subclasses supply the contract phases and the scoring."""

    NAME: ClassVar[str] = ""
    TITLE: ClassVar[str] = ""
    DESCRIPTION: ClassVar[str] = ""
    MIN_PLAYERS: ClassVar[int] = 4
    MAX_PLAYERS: ClassVar[int] = 4
    CARDS_EACH: ClassVar[int] = 13
    START_SCORE: ClassVar[int] = 0
    LOW_WINS: ClassVar[bool] = False  # race-down games: a lower score is better
    POINT_UNITS: ClassVar[int] = 1  # a hand's points are whole points
    UPCARD_IN_HAND: ClassVar[bool] = False  # the upcard is the dealer's until played (Donut)
    STOPPABLE: ClassVar[bool] = False  # a game without a hand limit plays to its natural end
    OPTIONS: ClassVar[type[GameOptions]] = GameOptions
    # The play obligations in the core's terms (used to read what a play reveals): follow suit,
    # void: any card. Batak overrides both.
    PLAY_RULES: ClassVar[Rules] = Rules(follow_must_beat=False, void_rule=VoidRule.FREE)
    TRUMP_LEAD_WAITS: ClassVar[bool] = False  # trump may not lead until broken (Batak)

    # State that every seat may see; copied into views and back by :meth:`from_view`.
    _PUBLIC: ClassVar[tuple[str, ...]] = (
        "phase", "dealer", "turn", "hand_number", "upcard", "in_game", "active", "joined", "bids",
        "passed", "declarer", "contract", "trump", "low_high", "trump_broken", "may_sit_out",
        "leader", "trick", "trick_seats", "tricks", "won", "scores", "results", "streak",
        "exchanged", "notice", "notice_words", "winners",
    )

    def __init__(self, players: int | None = None, options: GameOptions | None = None,
                 **option_values: Any) -> None:
        """A new game before the first deal. ``players`` defaults to 4; options come as an
        options value or as keywords (text accepted); :class:`RulesError` names anything bad."""
        n = self.MIN_PLAYERS if players is None and self.MIN_PLAYERS == self.MAX_PLAYERS else players
        if n is None:
            n = 4
        if isinstance(n, bool) or not isinstance(n, int) or not self.MIN_PLAYERS <= n <= self.MAX_PLAYERS:
            raise RulesError(f"{self.TITLE} is for {self.MIN_PLAYERS}-{self.MAX_PLAYERS} players, "
                             f"not {n!r}")
        if options is None:
            options = self.OPTIONS.build(option_values)
        elif option_values:
            options = self.OPTIONS.build({**options.to_dict(), **option_values})
        if not isinstance(options, self.OPTIONS):
            raise RulesError(f"{self.TITLE} takes {self.OPTIONS.__name__}, not {type(options).__name__}")
        self.players = n
        self.options = options
        self._check_options()
        if not 0 <= options.first_dealer < n:
            raise RulesError(f"first_dealer must be a seat 0..{n - 1}, got {options.first_dealer}")
        if options.max_hands is not None and options.max_hands < 1:
            raise RulesError(f"max_hands must be at least 1, got {options.max_hands}")
        self.phase = Phase.DEAL
        self.dealer = options.first_dealer
        self.turn = CHANCE
        self.hand_number = 1
        self.hands = [0] * n
        self.dealt = [0] * n
        self.stock: list[Card] = []
        self.discards = [0] * n
        self.upcard: Card | None = None
        self.in_game = [True] * n
        self.scores = [self.START_SCORE] * n
        self.results: list[HandResult] = []
        self.streak = [0] * n
        self.winners: tuple[int, ...] = ()
        self.history: list[Action] = []
        self.notice = ""
        self.notice_words: Words | None = None
        self._reset_hand()

    def _check_options(self) -> None:
        """Refuse option combinations that make no sense (subclasses extend)."""

    def _reset_hand(self) -> None:
        n = self.players
        self.active = [False] * n
        self.joined: list[bool | None] = [None] * n
        self.bids: list[int | None] = [None] * n
        self.passed = [False] * n
        self.declarer: int | None = None
        self.contract: int | None = None
        self.trump = NO_TRUMP
        self.low_high = False
        self.trump_broken = False
        self.may_sit_out = False
        self.leader: int | None = None
        self.trick: list[Card] = []
        self.trick_seats: list[int] = []
        self.tricks: list[CompletedTrick] = []
        self.won = [0] * n
        self.exchanged: list[int | None] = [None] * n
        self.discards = [0] * n

    # --- reading -------------------------------------------------------------------------

    def pack_seats(self) -> tuple[int, ...]:
        """One card at a time to each seat in the game from the dealer's next, then the rest
        of what the game deals (the upcard, the stock) to no seat."""
        seats = [self.next_seat(self.dealer)]
        while len(seats) < len(self.seats_in_game):
            seats.append(self.next_seat(seats[-1]))
        probe = self.deal_from_pack(DECK)
        used = {c for h in probe.hands for c in h} | set(probe.stock)
        if probe.upcard is not None:
            used.add(probe.upcard)
        to_seats = len(seats) * self.CARDS_EACH
        return tuple(seats[i % len(seats)] if i < to_seats else -1 for i in range(len(used)))

    def private_parts(self, seat: int) -> tuple[int, int, Card | None]:
        """Its hand, its own discards, the upcard."""
        return self.hands[seat], self.discards[seat], self.upcard

    def possible_cards(self, view: GameView) -> list[int]:
        return [FULL_DECK & ~a for a in self.shown_absent(view)]

    @classmethod
    def sample_deal(cls, view: GameView, rng: random.Random) -> TrickGame:
        """:meth:`from_view` with the hidden cards drawn by :meth:`sample_hidden`."""
        hands, stock = cls.sample_hidden(view, rng)
        return cls.from_view(view, hands, stock)

    @property
    def seats_in_game(self) -> list[int]:
        return [s for s in range(self.players) if self.in_game[s]]

    def next_seat(self, seat: int, among: Sequence[bool] | None = None) -> int:
        """The next seat after ``seat`` in the direction of play (among flagged seats)."""
        flags = self.in_game if among is None else among
        for i in range(1, self.players + 1):
            s = (seat + i) % self.players
            if flags[s]:
                return s
        raise IllegalActionError("no seat is left to act")  # pragma: no cover

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every action ``seat`` (default: the seat to act) may take now; chance steps are not
        listed (any well-formed deal is legal)."""
        if seat is None:
            seat = self.turn
        if self.phase in (Phase.OVER, Phase.DEAL) or seat != self.turn or seat == CHANCE:
            return []
        if self.phase is Phase.PLAY:
            return [Play(seat, c) for c in cards_of(self.play_mask())]
        return self._contract_actions(seat)

    def _contract_actions(self, seat: int) -> list[Action]:
        raise NotImplementedError

    def play_mask(self) -> int:
        """Mask of the cards the seat to act may play (0 outside the play phase)."""
        if self.phase is not Phase.PLAY:
            return 0
        return self._play_mask(self.hands[self.turn])

    def _play_mask(self, hand: int) -> int:
        """Follow suit; void: any card (Snarples, Donut, Horsethief)."""
        return follow_suit_mask(hand, self.trick[0]) if self.trick else hand

    def default_action(self) -> Action:
        """What a turn timer does for the seat to act: the biggest legal card, else the first
        listed choice (a pass, playing the hand, no exchange, the longest suit as trump)."""
        if self.phase is Phase.PLAY:
            return Play(self.turn, biggest_card(self.play_mask(), self.trump))
        legal = self.legal_actions()
        if not legal:
            raise WrongPhaseError(f"no seat is to act in the {self.phase.value} phase")
        if self.phase is Phase.TRUMP:
            hand = self.hands[self.turn]
            return max(legal, key=lambda a: (hand & SUIT_MASKS[a.suit]).bit_count())  # type: ignore[union-attr]
        return legal[0]

    # --- verifying -----------------------------------------------------------------------

    def verify(self, action: Action) -> None:
        """Raise a specific :class:`IllegalActionError` if ``action`` may not be applied now."""
        phase = self.phase
        if phase is Phase.OVER:
            raise WrongPhaseError("the game is over")
        if isinstance(action, Deal):
            if phase is not Phase.DEAL:
                raise WrongPhaseError(f"cannot deal in the {phase.value} phase")
            self._check_deal(action)
            return
        if phase is Phase.DEAL:
            raise WrongPhaseError("the cards must be dealt first")
        if isinstance(action, Play):
            if phase is not Phase.PLAY:
                raise WrongPhaseError(f"cannot play a card in the {phase.value} phase")
            check_play(action.seat, action.card, turn=self.turn, hands=self.hands,
                       legal=self.play_mask(), trick=self.trick,
                       lead_rule="may not be led now (trump not yet broken)")
            return
        if not isinstance(action, (Bid, Pass, NameTrump, Join, Exchange, Settle)):
            kind = getattr(action, "kind", None)
            raise IllegalActionError(f"{self.TITLE} has no {kind!r} action" if isinstance(kind, str)
                                     else f"unknown action {action!r}")
        self.check_seat(action.seat)
        if not isinstance(action, _PHASE_ACTIONS.get(phase, ())):
            raise self.wrong_phase(action)
        self.check_turn(action.seat)
        self._verify_contract(action)

    def _verify_contract(self, action: Action) -> None:
        raise NotImplementedError

    def wrong_phase(self, action: Action) -> WrongPhaseError:
        return WrongPhaseError(f"a {action.kind} action is not taken in the {self.phase.value} "
                               f"phase of {self.TITLE}")

    def _check_deal(self, deal: Deal) -> None:
        dealt = 0
        for mask in deal.hand_masks([self.CARDS_EACH if i else 0 for i in self.in_game]):
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
        self.history.append(action)
        if isinstance(action, Deal):
            self._deal(action)
        elif isinstance(action, Play):
            self._play(action.seat, action.card)
        else:
            self._apply_contract(action)

    def _apply_contract(self, action: Action) -> None:
        raise NotImplementedError

    def _deal(self, deal: Deal) -> None:
        self._reset_hand()
        self.say(None)
        self.hands = [sum(1 << c for c in h) for h in deal.hands]
        self.dealt = list(self.hands)
        self.upcard = deal.upcard
        self.stock = list(deal.stock)
        self._begin_hand()

    def _begin_hand(self) -> None:
        raise NotImplementedError

    def say(self, words: Words | str | None) -> None:
        """Make ``words`` the notice every seat reads (None: no notice; a plain string, from a
        game written before :class:`Words`: its English only, which no catalog translates)."""
        if isinstance(words, str):
            self.notice, self.notice_words = words, None
            return
        self.notice = words.english if words is not None else ""
        self.notice_words = words

    def throw_in(self, why: Words | str) -> None:
        """The hand is not played; the same dealer deals again."""
        self.say(why)
        self.hands = [0] * self.players
        self.phase = Phase.DEAL
        self.turn = CHANCE

    def start_play(self, leader: int) -> None:
        self.phase = Phase.PLAY
        self.turn = leader
        self.leader = leader

    def _play(self, seat: int, card: Card) -> None:
        self.hands[seat] &= ~(1 << card)
        if not self.trick:
            self.leader = seat
        self.trick.append(card)
        self.trick_seats.append(seat)
        if card.suit == self.trump:
            self.trump_broken = True
        if len(self.trick) < sum(self.active):
            self.turn = self.next_seat(seat, self.active)
            return
        win = trick_winner(self.trick, self.trump, self.low_high)
        winner = self.trick_seats[win]
        self.tricks.append(CompletedTrick(self.trick_seats[0], tuple(self.trick), winner,
                                          tuple(self.trick_seats)))
        self.won[winner] += 1
        self.trick = []
        self.trick_seats = []
        self.turn = winner
        self.leader = winner
        if len(self.tricks) == self.CARDS_EACH:
            points, note = self._score_hand()
            self.finish_hand(points, note)

    def _score_hand(self) -> tuple[list[int], Words | str | None]:
        raise NotImplementedError

    def finish_hand(self, points: Sequence[int], note: Words | str | None = None) -> None:
        """Record the hand, add its points, and end the game or move to the next deal (``note``:
        what the hand's end settled, as for :meth:`say`)."""
        english = note if isinstance(note, str) else note.english if note is not None else ""
        self.results.append(HandResult(
            self.hand_number, self.dealer, self.declarer, self.contract,
            Suit(self.trump) if self.trump >= 0 else None, tuple(self.active), tuple(self.won),
            tuple(points), english, note if isinstance(note, Words) else None))
        for s in range(self.players):
            self.scores[s] += points[s]
        self.say(note)
        self.hands = [0] * self.players
        self.leader = None
        winners = self._winners_after_hand()
        limit = self.options.max_hands
        if winners is None and limit is not None and len(self.results) >= limit:
            winners = self.best_seats(self.seats_in_game)
        if winners is not None:
            self.winners = winners
            self.phase = Phase.OVER
            self.turn = CHANCE
            return
        self.hand_number += 1
        step = 1 if self.options.dealer_rotation is DealerRotation.WITH_PLAY else -1
        d = self.dealer
        for _ in range(self.players):
            d = (d + step) % self.players
            if self.in_game[d]:
                break
        self.dealer = d
        self.phase = Phase.DEAL
        self.turn = CHANCE

    def _winners_after_hand(self) -> tuple[int, ...] | None:
        raise NotImplementedError

    def best_seats(self, seats: Sequence[int]) -> tuple[int, ...]:
        """The seats with the best score among ``seats`` (lowest in race-down games)."""
        pick = min if self.LOW_WINS else max
        best = pick(self.scores[s] for s in seats)
        return tuple(s for s in seats if self.scores[s] == best)

    # --- chance helpers ------------------------------------------------------------------

    def deal_from_pack(self, pack: Sequence[Card]) -> Deal:
        """The deal a dealer makes from a shuffled ``pack``: one card at a time from the seat
        after the dealer; the game adds an upcard or stock where it has one."""
        seats = [self.next_seat(self.dealer)]
        while len(seats) < len(self.seats_in_game):
            seats.append(self.next_seat(seats[-1]))
        hands: list[list[Card]] = [[] for _ in range(self.players)]
        i = 0
        for _ in range(self.CARDS_EACH):
            for s in seats:
                hands[s].append(pack[i])
                i += 1
        return self._finish_pack_deal(hands, list(pack[i:]))

    def _finish_pack_deal(self, hands: list[list[Card]], rest: list[Card]) -> Deal:
        return Deal(hands=tuple(tuple(sorted(h)) for h in hands))

    # --- views and copies ----------------------------------------------------------------

    def view(self, seat: int | None) -> GameView:
        """What ``seat`` may know (``None``: a spectator). Built by allow-list, shares nothing."""
        if seat is not None:
            self.check_seat(seat)
        return GameView(
            game=self.NAME, options=self.options, seat=seat, players=self.players,
            phase=self.phase, hand_number=self.hand_number, dealer=self.dealer,
            to_act=self.to_act,
            hand=None if seat is None else cards_of(self.hands[seat]),
            hand_sizes=tuple(h.bit_count() for h in self.hands),
            in_game=tuple(self.in_game), active=tuple(self.active), joined=tuple(self.joined),
            bids=tuple(self.bids), passed=tuple(self.passed), declarer=self.declarer,
            contract=self.contract, trump=Suit(self.trump) if self.trump >= 0 else None,
            low_high=self.low_high, trump_broken=self.trump_broken, upcard=self.upcard,
            may_sit_out=self.may_sit_out, leader=self.leader, trick=tuple(self.trick),
            trick_seats=tuple(self.trick_seats), tricks=tuple(self.tricks), won=tuple(self.won),
            scores=tuple(self.scores), results=tuple(self.results), streak=tuple(self.streak),
            exchanged=tuple(self.exchanged), stock_size=len(self.stock),
            discards=() if seat is None else cards_of(self.discards[seat]),
            notice=self.notice, notice_words=self.notice_words, winners=self.winners,
            legal=tuple(self.legal_actions(seat)) if seat is not None else (),
        )

    @classmethod
    def from_view(cls, view: GameView, hands: Sequence[int], stock: Sequence[Card] = ()) -> TrickGame:
        """A game consistent with ``view`` in which the hidden cards are ``hands`` and ``stock``
        (for search bots that sample what they cannot see). Its history is empty."""
        g = cls.__new__(cls)
        g.players = view.players
        g.options = view.options
        for name in cls._PUBLIC:
            value = view.trump.value if name == "trump" and view.trump is not None else (
                NO_TRUMP if name == "trump" else getattr(view, "to_act" if name == "turn" else name))
            if name == "turn" and value is None:
                value = CHANCE
            setattr(g, name, list(value) if isinstance(value, tuple) and name not in ("winners",)
                    else value)
        g.hands = list(hands)
        g.dealt = list(hands)
        g.stock = list(stock)
        g.discards = [0] * view.players
        if view.seat is not None:
            g.discards[view.seat] = sum(1 << c for c in view.discards)
        g.history = []
        g._restore_private(view)
        return g

    @classmethod
    def shown_absent(cls, view: GameView) -> list[int]:
        """Per seat, the mask of cards the play so far this hand shows it cannot hold: suits it
        failed to follow and, where the rules oblige, higher cards it did not play (Batak: must
        beat, must trump and overtrump; a trump led before trump was broken means only trumps).
        Public knowledge: it depends only on the tricks every seat saw (the core's
        :func:`~callbreak.core.inference.infer_play` under :attr:`PLAY_RULES`).
        """
        trump = view.trump.value if view.trump is not None else NO_TRUMP
        caps = [fresh_caps() for _ in range(view.players)]
        broken = False
        plays = [(t.seats, t.cards) for t in view.tricks] + [(view.trick_seats, view.trick)]
        for seats, cards in plays:
            for i, (seat, card) in enumerate(zip(seats, cards, strict=True)):
                if i == 0 and cls.TRUMP_LEAD_WAITS and not broken and card.suit == trump:
                    for suit in range(4):  # led trump before it was broken: holds only trumps
                        if suit != trump:
                            caps[seat][suit] = suit * 13 - 1
                infer_play(caps[seat], cards[:i], card, trump, cls.PLAY_RULES, first_trick=False)
            broken = broken or any(c.suit == trump for c in cards)
        out = []
        for seat_caps in caps:
            absent = 0
            for suit, cap in enumerate(seat_caps):
                absent |= SUIT_MASKS[suit] & ~((1 << (cap + 1)) - 1)
            out.append(absent)
        return out

    @classmethod
    def sample_hidden(cls, view: GameView, rng: random.Random, tries: int = 30,
                      reveal: bool = True) -> tuple[list[int], list[Card]]:
        """Hands for every seat (card masks) and a stock, consistent with what ``view.seat``
        knows: each seat is dealt the unseen cards its play has not shown it cannot hold (the
        last of ``tries + 1`` attempts ignores that).

        ``reveal=False`` uses only the suits a seat failed to follow, not what the rules'
        obligations reveal (kept to measure what that inference is worth)."""
        me = view.seat
        assert me is not None
        unknown = view.unseen_mask()
        fixed = [0] * view.players
        fixed[me] = sum(1 << c for c in view.hand or ())
        if (cls.UPCARD_IN_HAND and view.upcard is not None and view.upcard not in view.played
                and me != view.dealer):
            fixed[view.dealer] |= 1 << view.upcard
            unknown &= ~(1 << view.upcard)
        need = [view.hand_sizes[s] - fixed[s].bit_count() for s in range(view.players)]
        need[me] = 0
        # Cards each seat's play has shown it cannot hold: suits it failed to follow, and in
        # Batak the higher cards it would have had to play (must beat, must trump and overtrump).
        if reveal:
            void_masks = cls.shown_absent(view)
        else:
            void_masks = [sum(SUIT_MASKS[suit] for suit in view.voids(s)) for s in range(view.players)]
        void_masks[me] = 0
        pool_all = list(cards_of(unknown))
        order = sorted((s for s in range(view.players) if need[s] > 0),
                       key=lambda s: -void_masks[s].bit_count())
        for attempt in range(tries + 1):
            respect = attempt < tries
            pool = pool_all[:]
            rng.shuffle(pool)
            hands = list(fixed)
            ok = True
            for s in order:
                got = 0
                rest = []
                for c in pool:
                    if got < need[s] and not (respect and void_masks[s] >> c & 1):
                        hands[s] |= 1 << c
                        got += 1
                    else:
                        rest.append(c)
                pool = rest
                if got < need[s]:
                    ok = False
                    break
            if ok:
                return hands, pool[:view.stock_size]
        raise SamplingError("could not sample hidden cards consistent with the view")  # pragma: no cover

    def _restore_private(self, view: GameView) -> None:
        """Subclasses with private bookkeeping rebuild it from the view here."""

    def result_json(self) -> dict[str, Any]:
        """The results so far, JSON-ready (what a record states for its readers)."""
        return {
            "finished": self.is_over,
            "hands": [{"number": r.number, "dealer": r.dealer, "declarer": r.declarer,
                       "contract": r.contract, "trump": r.trump.letter if r.trump is not None else None,
                       "active": list(r.active), "won": list(r.won), "points": list(r.points),
                       "note": r.note} for r in self.results],
            "scores": list(self.scores),
            "winners": list(self.winners),
        }

    def clone(self) -> TrickGame:
        """An independent copy (for search and what-if checks)."""
        g = self.__class__.__new__(self.__class__)
        for name, value in self.__dict__.items():
            setattr(g, name, list(value) if isinstance(value, list) else value)
        return g

    def snapshot(self) -> tuple[object, ...]:
        """A comparable value of the whole state (to check replays and refusals)."""
        return tuple((k, tuple(v) if isinstance(v, list) else v)
                     for k, v in sorted(self.__dict__.items()))
