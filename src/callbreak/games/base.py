"""The related games' contracts: auctions, naming trump, sitting a deal out, the upcard and stock.

Every related game of the catsatcards rules is a :class:`ContractGame`: a
:class:`~callbreak.core.trick_game.TrickGame`, the one engine Call Break's
:class:`~callbreak.core.match.Match` is too, whose contract phases are bids and passes, naming
trump, joining or sitting out a deal, exchanging with the stock and the bidder's settlement. This
module adds what those contracts keep (who is still in the game, who plays this deal, the bids,
the declarer and contract, an upcard, a stock and discards) and the trick play of games where
not every seat plays every deal; each game supplies its own contract and scoring.

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
    Settle,
)
from callbreak.core.cards import DECK, FULL_DECK, SUIT_MASKS, Card, Suit, cards_of
from callbreak.core.errors import (
    IllegalActionError,
    RulesError,
    WrongPhaseError,
)
from callbreak.core.game import Phase, TrickView
from callbreak.core.inference import fresh_caps, infer_play
from callbreak.core.options import Options
from callbreak.core.rules import Rules, VoidRule
from callbreak.core.sampling import SamplingError
from callbreak.core.scoring import DealResult, points_value
from callbreak.core.trick_game import TrickGame
from callbreak.core.tricks import NO_TRUMP, trick_winner
from callbreak.core.words import Words


class DealerRotation(str, Enum):
    WITH_PLAY = "with_play"  # the next dealer is the next seat in the direction of play
    AGAINST_PLAY = "against_play"


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

    @property
    def dealer_step(self) -> int:
        return 1 if self.dealer_rotation is DealerRotation.WITH_PLAY else -1


@dataclass(frozen=True, slots=True, kw_only=True)
class ContractView(TrickView):
    """Everything ``seat`` may know about a game, and nothing more (``seat`` None: a spectator).

    Built by allow-list from the state; holds only tuples and frozen values, never a reference
    to the state. Hidden: other seats' hands, the stock, other seats' discards.
    """

    game: str
    options: GameOptions
    in_game: tuple[bool, ...]  # False once a Snarples player has dropped out at 33
    active: tuple[bool, ...]  # playing this deal (sitters, droppers and out-players are not)
    joined: tuple[bool | None, ...]  # each seat's play/out decision this deal, None if not made
    bids: tuple[int | None, ...]
    passed: tuple[bool, ...]
    declarer: int | None  # the high bidder (or the seat that names trump)
    contract: int | None
    low_high: bool  # Donut's 6 upcard: ranks reversed, 2 high
    trump_broken: bool
    upcard: Card | None
    may_sit_out: bool  # whether dropping / sitting out / going out is allowed this deal
    streak: tuple[int, ...]  # Snarples: deals in a row each seat has sat out
    exchanged: tuple[int | None, ...]  # Horsethief: cards each seat exchanged, None if not yet
    stock_size: int
    discards: tuple[Card, ...]  # this seat's own discards this deal
    notice: str
    notice_words: Words | None  # the notice as a message id and values, for the reader's language

    # What a client may be sent of this view, by name (see TrickView).
    PUBLIC_FIELDS: ClassVar[tuple[str, ...]] = (
        "game", "players", "options", "phase", "deal_number", "deal_limit", "dealer", "to_act", "hand_sizes",
        "in_game", "active", "joined", "bids", "passed", "declarer", "contract", "trump",
        "low_high", "trump_broken", "upcard", "may_sit_out", "leader", "trick", "trick_seats",
        "tricks", "won", "totals", "scores", "results", "streak", "exchanged", "stock_size", "notice",
        "notice_words", "winners",
    )
    PRIVATE_FIELDS: ClassVar[tuple[str, ...]] = ("seat", "hand", "discards", "legal")

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
        """Suits ``seat`` has shown it does not hold this deal (it failed to follow them)."""
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


# The actions of the related games' contracts.
_CONTRACT_ACTIONS = (Bid, Pass, NameTrump, Join, Exchange, Settle)

# Which kinds of contract action each phase takes (the game decides which of them are legal).
_PHASE_ACTIONS: dict[Phase, tuple[type, ...]] = {
    Phase.AUCTION: (Bid, Pass),
    Phase.TRUMP: (NameTrump,),
    Phase.JOIN: (Join,),
    Phase.EXCHANGE: (Exchange,),
    Phase.SETTLE: (Settle,),
}


class ContractGame(TrickGame):
    """Base of the related games. Subclasses supply the contract phases and the scoring."""

    START_SCORE: ClassVar[int] = 0  # in points
    UPCARD_IN_HAND: ClassVar[bool] = False  # the upcard is the dealer's until played (Donut)
    OPTIONS: ClassVar[type[GameOptions]] = GameOptions
    LEAD_REFUSAL: ClassVar[str] = "may not be led now (trump not yet broken)"
    CONTRACT_ACTIONS: ClassVar[tuple[type, ...]] = _CONTRACT_ACTIONS
    options: GameOptions
    # The play obligations in the core's terms (used to read what a play reveals): follow suit,
    # void: any card. Batak overrides both.
    PLAY_RULES: ClassVar[Rules] = Rules(follow_must_beat=False, void_rule=VoidRule.FREE)
    TRUMP_LEAD_WAITS: ClassVar[bool] = False  # trump may not lead until broken (Batak)

    # State that every seat may see; copied into views and back by :meth:`from_view`.
    _PUBLIC: ClassVar[tuple[str, ...]] = (
        "phase", "dealer", "turn", "deal_number", "upcard", "in_game", "active", "joined", "bids",
        "passed", "declarer", "contract", "trump", "low_high", "trump_broken", "may_sit_out",
        "leader", "trick", "trick_seats", "tricks", "won", "totals", "results", "streak",
        "exchanged", "notice", "notice_words", "winners",
    )

    def __init__(self, players: int | None = None, options: GameOptions | None = None,
                 **option_values: Any) -> None:
        """A new game before the first deal. ``players`` defaults to 4; options come as an
        options value or as keywords (text accepted); :class:`RulesError` names anything bad."""
        n = self.MIN_PLAYERS if players is None and self.MIN_PLAYERS == self.MAX_PLAYERS else players
        if n is None:
            n = 4
        if options is None:
            options = self.OPTIONS.build(option_values)
        elif option_values:
            options = self.OPTIONS.build({**options.to_dict(), **option_values})
        super().__init__(n, options)
        self._check_options()
        if not 0 <= self.options.first_dealer < n:
            raise RulesError(f"first_dealer must be a seat 0..{n - 1}, got {self.options.first_dealer}")
        if self.options.max_hands is not None and self.options.max_hands < 1:
            raise RulesError(f"max_hands must be at least 1, got {self.options.max_hands}")
        self.dealer: int = self.options.first_dealer
        self.stock: list[Card] = []
        self.discards = [0] * n
        self.upcard: Card | None = None
        self.in_game = [True] * n
        self.totals = [self.START_SCORE * 10] * n
        self.streak = [0] * n
        self.notice = ""
        self.notice_words: Words | None = None
        self._reset_deal()

    def _check_options(self) -> None:
        """Refuse option combinations that make no sense (subclasses extend)."""

    def _reset_deal(self) -> None:
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
        self.leader = None
        self.trick = []
        self.trick_seats: list[int] = []
        self.tricks = []
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

    def possible_cards(self, view: ContractView) -> list[int]:
        return [FULL_DECK & ~a for a in self.shown_absent(view)]

    @classmethod
    def sample_deal(cls, view: ContractView, rng: random.Random) -> ContractGame:
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

    def hand_sizes(self) -> list[int]:
        """A seat out of the game is dealt nothing."""
        return [self.CARDS_EACH if i else 0 for i in self.in_game]

    def _default_contract(self) -> Action:
        """The first listed choice (a pass, playing the deal, no exchange), or the longest suit
        as trump."""
        legal = self.legal_actions()
        if not legal:
            raise WrongPhaseError(f"no seat is to act in the {self.phase.value} phase")
        if self.phase is Phase.TRUMP:
            hand = self.hands[self.turn]
            return max(legal, key=lambda a: (hand & SUIT_MASKS[a.suit]).bit_count())  # type: ignore[union-attr]
        return legal[0]

    # --- verifying -----------------------------------------------------------------------

    def _verify_contract(self, action: Action) -> None:
        """The right kind of action for the phase, from the seat to act; then the game's rules
        for it (:meth:`_verify_contract_rules`)."""
        assert isinstance(action, _CONTRACT_ACTIONS)
        if self.phase is Phase.DEAL:
            raise WrongPhaseError("the cards must be dealt first")
        self.check_seat(action.seat)
        if not isinstance(action, _PHASE_ACTIONS.get(self.phase, ())):
            raise self.wrong_phase(action)
        self.check_turn(action.seat)
        self._verify_contract_rules(action)

    def _verify_contract_rules(self, action: Action) -> None:
        """The game's own rules for a contract action of the phase's kind from the seat to act
        (a bid's range, an exchange's cards); raise if it may not be taken."""
        raise NotImplementedError

    def wrong_phase(self, action: Action) -> WrongPhaseError:
        return WrongPhaseError(f"a {action.kind} action is not taken in the {self.phase.value} "
                               f"phase of {self.TITLE}")

    # --- applying ------------------------------------------------------------------------

    def _deal(self, deal: Deal) -> None:
        self._reset_deal()
        self.say(None)
        self.hands = [sum(1 << c for c in h) for h in deal.hands]
        self.dealt = list(self.hands)
        self.upcard = deal.upcard
        self.stock = list(deal.stock)
        self._begin_deal()

    def _begin_deal(self) -> None:
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
        """The deal is not played; the same dealer deals again."""
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
        seats = tuple(self.trick_seats)
        winner = seats[trick_winner(self.trick, self.trump, self.low_high)]
        self.trick_seats = []
        self._complete_trick(seats[0], seats, winner)

    def _deal_result(self, points: tuple[int, ...], note: Words | str | None) -> DealResult:
        assert self.dealer is not None
        return DealResult(
            number=self.deal_number, dealer=self.dealer, won=tuple(self.won), points=points,
            trump=Suit(self.trump) if self.trump >= 0 else None, declarer=self.declarer,
            contract=self.contract, active=tuple(self.active),
            note=note if isinstance(note, str) else note.english if note is not None else "",
            words=note if isinstance(note, Words) else None)

    def _after_deal(self, note: Words | str | None) -> None:
        self.say(note)
        self.hands = [0] * self.players
        self.leader = None

    def _next_dealer(self, dealer: int) -> int:
        """The next seat still in the game, the way the deal passes."""
        step = self.options.dealer_step
        for _ in range(self.players):
            dealer = (dealer + step) % self.players
            if self.in_game[dealer]:
                break
        return dealer

    def _winners_at_limit(self) -> tuple[int, ...]:
        return self.best_seats(self.seats_in_game)

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

    def view(self, seat: int | None) -> ContractView:
        """What ``seat`` may know (``None``: a spectator). Built by allow-list, shares nothing."""
        if seat is not None:
            self.check_seat(seat)
        return ContractView(
            game=self.NAME, options=self.options, seat=seat, players=self.players,
            phase=self.phase, deal_number=self.deal_number, dealer=self.dealer,
            to_act=self.to_act,
            hand=None if seat is None else cards_of(self.hands[seat]),
            hand_sizes=tuple(h.bit_count() for h in self.hands),
            in_game=tuple(self.in_game), active=tuple(self.active), joined=tuple(self.joined),
            bids=tuple(self.bids), passed=tuple(self.passed), declarer=self.declarer,
            contract=self.contract, trump=Suit(self.trump) if self.trump >= 0 else None,
            low_high=self.low_high, trump_broken=self.trump_broken, upcard=self.upcard,
            may_sit_out=self.may_sit_out, leader=self.leader, trick=tuple(self.trick),
            trick_seats=tuple(self.trick_seats), tricks=tuple(self.tricks), won=tuple(self.won),
            totals=tuple(self.totals), results=tuple(self.results), streak=tuple(self.streak),
            exchanged=tuple(self.exchanged), stock_size=len(self.stock),
            discards=() if seat is None else cards_of(self.discards[seat]),
            notice=self.notice, notice_words=self.notice_words, winners=self.winners,
            legal=tuple(self.legal_actions(seat)) if seat is not None else (),
        )

    @classmethod
    def from_view(cls, view: ContractView, hands: Sequence[int], stock: Sequence[Card] = ()) -> ContractGame:
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
    def shown_absent(cls, view: ContractView) -> list[int]:
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
    def sample_hidden(cls, view: ContractView, rng: random.Random, tries: int = 30,
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
        dealer = view.dealer
        if (cls.UPCARD_IN_HAND and view.upcard is not None and view.upcard not in view.played
                and dealer is not None and me != dealer):
            fixed[dealer] |= 1 << view.upcard
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

    def _restore_private(self, view: ContractView) -> None:
        """Subclasses with private bookkeeping rebuild it from the view here."""

    def result_json(self) -> dict[str, Any]:
        """The results so far, JSON-ready (what a record states for its readers)."""
        return {
            "finished": self.is_over,
            "hands": [{"number": r.number, "dealer": r.dealer, "declarer": r.declarer,
                       "contract": r.contract, "trump": r.trump.letter if r.trump is not None else None,
                       "active": list(r.active), "won": list(r.won),
                       "points": [points_value(p) for p in r.points], "note": r.note}
                      for r in self.results],
            "scores": [points_value(t) for t in self.totals],
            "winners": list(self.winners),
        }
