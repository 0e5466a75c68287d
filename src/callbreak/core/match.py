"""The whole Call Break match as a state machine.

A :class:`Match` moves through phases: the first-dealer draw, then for each deal the deal
itself, weak-hand redeal claims, the calls, and thirteen tricks, until the match is over. Chance
steps (draw, deal) are actions supplied from outside (see :mod:`callbreak.core.dealing`), so the
rules never touch randomness.

Every action goes through :meth:`Match.verify` before anything changes: a refused action raises
a specific :class:`~callbreak.core.errors.IllegalActionError` and leaves the match exactly as it
was.

>>> from callbreak.core.dealing import Dealer
>>> from callbreak.core.rules import make_rules
>>> m = Match(make_rules("callbreak"))
>>> dealer = Dealer(seed=7)
>>> while m.phase is not Phase.OVER:
...     m.apply(dealer.chance(m) if m.to_act == CHANCE else m.legal_actions()[0])
>>> len(m.results), len(m.history) > 5 * 56
(5, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from callbreak.core.actions import (
    CHANCE,
    Action,
    Call,
    ChooseDealer,
    Deal,
    Draw,
    Look,
    Play,
    Redeal,
    Stop,
)
from callbreak.core.cards import DECK, SUIT_MASKS, Card, Suit, cards_of
from callbreak.core.errors import (
    CallOutOfRangeError,
    IllegalActionError,
    WrongPhaseError,
)
from callbreak.core.game import ChanceKind, Phase
from callbreak.core.inference import infer_play
from callbreak.core.rules import FirstDealer, Rules, SpadeLead, TieBreak, Trump, WeakHand
from callbreak.core.scoring import DealResult, deal_points, leaders, points_value, settle_stakes
from callbreak.core.trick_game import TrickGame
from callbreak.core.tricks import NO_TRUMP, follow_mask, legal_mask
from callbreak.core.view import RedealNotice, SeatView
from callbreak.core.words import N_, Words

PLAYERS = 4
_NO_SPADE_LEAD = "may not lead the first trick (no spade lead)"
TRICKS = 13
_FACES = sum(1 << (s * 13 + r) for s in range(4) for r in range(9, 13))  # J Q K A of each suit

# Interned actions. Actions are frozen values, so ``legal_actions`` can hand out the same objects
# every time instead of building new dataclasses on each call (the hottest path of any search or
# playout). ``_PLAYS[seat][card]``.
_PLAYS: tuple[tuple[Play, ...], ...] = tuple(tuple(Play(s, c) for c in DECK) for s in range(PLAYERS))
_CALL_RUNS: dict[tuple[int, int, int, bool], tuple[Call, ...]] = {}


_NEXT = tuple((s + 1) % PLAYERS for s in range(PLAYERS))
_HAND_SIZES = (TRICKS,) * PLAYERS
_PACK_SEATS = tuple(i // TRICKS for i in range(PLAYERS * TRICKS))
_TRICK_SEATS = tuple(tuple((leader + i) % PLAYERS for i in range(PLAYERS)) for leader in range(PLAYERS))
_PLAY_PHASE = Phase.PLAY  # a module global is found faster than an enum member
_CALL_PHASE = Phase.CALL
_SUITS = tuple(Suit)


def _calls_of(seat: int, low: int, high: int, blind: bool) -> tuple[Call, ...]:
    key = (seat, low, high, blind)
    run = _CALL_RUNS.get(key)
    if run is None:
        run = _CALL_RUNS[key] = tuple(Call(seat, n, blind) for n in range(low, high + 1))
    return run


class Match(TrickGame):
    """A Call Break match under some :class:`Rules`: a trick game whose contract is the draw for
    the first dealer, the redeal claims and the calls."""

    NAME: ClassVar[str] = "callbreak"  # the game's registry name, written into its records
    TITLE: ClassVar[str] = "Call Break"
    STOPPABLE: ClassVar[bool] = True  # with unlimited deals the table stops between deals
    OPTIONS: ClassVar[type[Rules]] = Rules
    MATCH_WORD: ClassVar[str] = "match"
    LEAD_REFUSAL: ClassVar[str] = _NO_SPADE_LEAD
    CACHES: ClassVar[tuple[str, ...]] = ("_legal",)
    CONTRACT_ACTIONS: ClassVar[tuple[type, ...]] = (Call, Look, Redeal, Draw, ChooseDealer, Stop)
    ACTS_OUT_OF_TURN: ClassVar[bool] = True  # a seat may look at its cards before its turn to call
    options: Rules
    __slots__ = ("looked", "calls", "blind", "claims", "win_pos", "caps", "tiebreak_seats", "chips",
                 "redeal", "_legal", "_first_dealer")

    def __init__(self, rules: Rules) -> None:
        super().__init__(PLAYERS, rules)
        self.phase = Phase.DRAW
        self.looked = [True] * PLAYERS
        self.calls: list[int | None] = [None] * PLAYERS
        self.blind = [False] * PLAYERS
        self.claims: list[int] = []  # seats still to decide on a redeal claim, in order
        self.win_pos = 0  # where the current trick's winning card lies in it
        self.caps = _fresh_caps()
        self.tiebreak_seats: tuple[int, ...] = ()
        self.chips: tuple[float, ...] | None = None
        self.redeal: RedealNotice | None = None
        self._legal = -1  # cached legal play mask; -1 = not computed
        self._first_dealer: int | None = None
        if rules.first_dealer is FirstDealer.SEAT_0:
            self._start_dealing(0)

    # --- reading the state -------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """Call Break's options are its rules."""
        return self.options

    @property
    def first_dealer(self) -> int | None:
        return self._first_dealer

    @property
    def can_stop(self) -> bool:
        """With unlimited deals the table may stop between deals."""
        return (self.phase is Phase.DEAL and self.options.deals is None and bool(self.results)
                and not self.tiebreak_seats)

    def _stop(self) -> Action:
        return Stop()

    @property
    def discards(self) -> tuple[int, ...]:
        """No card is ever discarded in Call Break (the protocol's, for every game)."""
        return (0,) * PLAYERS

    @property
    def stock(self) -> tuple[Card, ...]:
        """Call Break deals the whole pack: there is no stock."""
        return ()

    @property
    def chance_kind(self) -> ChanceKind:
        if self.phase is not Phase.DRAW:
            return ChanceKind.DEAL
        return ChanceKind.FIRST_DEALER if self.options.first_dealer is FirstDealer.RANDOM else ChanceKind.DRAW

    def pack_seats(self) -> tuple[int, ...]:
        """The whole pack in four runs of thirteen, seat 0's first: a deal as random as one card
        at a time, and the one every seeded Call Break game (practice tables, tests, benchmarks)
        has always been dealt from its shuffle."""
        return _PACK_SEATS

    def deal_from_pack(self, pack: Sequence[Card]) -> Deal:
        """The deal of ``pack`` (see :meth:`pack_seats`)."""
        return Deal(hands=tuple(tuple(sorted(pack[s * TRICKS:(s + 1) * TRICKS])) for s in range(PLAYERS)))

    def private_parts(self, seat: int) -> tuple[int, int, Card | None]:
        """Its hand (-1 until it looks, under blind calls), a redeal claimant's shown hand."""
        hand = self.hands[seat] if self.looked[seat] else -1
        shown = self.redeal.shown if self.redeal is not None else ()
        return hand, sum(1 << c for c in shown), None

    def possible_cards(self, view: SeatView) -> list[int]:
        """From the view's caps: every public inference of the play and side-off declarations."""
        from callbreak.core.sampling import allowed_mask

        return [allowed_mask(view.caps[s]) for s in range(PLAYERS)]

    @classmethod
    def sample_deal(cls, view: SeatView, rng: random.Random) -> Match:
        """A one-deal match replaying ``view``'s current deal with the hidden hands sampled
        (earlier deals do not matter to the points of this one); its totals are the view's."""
        from callbreak.core.sampling import HandSampler

        hands = list(HandSampler(view).sample(rng))
        played = [0, 0, 0, 0]
        plays: list[Play] = []
        for t in view.tricks:
            for s, c in zip(t.seats, t.cards, strict=True):
                played[s] |= 1 << c
                plays.append(Play(s, c))
        for s, c in zip(view.trick_seats, view.trick, strict=True):
            played[s] |= 1 << c
            plays.append(Play(s, c))
        dealt = [hands[s] | played[s] for s in range(4)]
        rules = view.rules.replace(deals=1, first_dealer=FirstDealer.RANDOM, tie_break=TieBreak.SHARED,
                                   min_call_total=None, stakes=None)
        dealer = view.dealer
        assert dealer is not None  # a deal is under way
        m = cls(rules)
        m.apply(ChooseDealer(dealer))
        m.apply(Deal(hands=tuple(cards_of(h) for h in dealt)))
        first = (dealer + 1) % 4
        order = [(first + i) % 4 for i in range(4)]
        if m.phase is Phase.REDEAL_CLAIM:
            for s in order:
                if view.phase is Phase.REDEAL_CLAIM and s == view.to_act:
                    break
                m.apply(Redeal(s, False))
        for s in order:
            call = view.calls[s]
            if call is None:
                break
            if not view.blind[s] and Look(s) in m.legal_actions(s):
                m.apply(Look(s))
            m.apply(Call(s, call, view.blind[s]))
        if view.looked and view.seat is not None and Look(view.seat) in m.legal_actions(view.seat):
            m.apply(Look(view.seat))
        for p in plays:
            m.apply(p)
        m.totals = list(view.totals)
        m.history = []
        return m

    def play_mask(self) -> int:
        """Mask of the cards the seat to act may play (0 outside the play phase), kept until the
        next play."""
        if self.phase is not Phase.PLAY:
            return 0
        legal = self._legal
        if legal < 0:
            trick = self.trick
            hand = self.hands[self.turn]
            if trick:  # the current winner (tracked by ``_play``) is all the trick that matters
                legal = follow_mask(hand, trick[0] // 13, trick[self.win_pos], self.trump, self.options)
            elif self.tricks:
                legal = hand
            else:
                legal = legal_mask(hand, trick, self.trump, self.options, True)
            self._legal = legal
        return legal

    def legal_cards(self) -> tuple[Card, ...]:
        return cards_of(self.play_mask())

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every action ``seat`` (default: the seat to act) may take now (see
        :meth:`TrickGame.legal_actions`); the plays come from the cached legal mask as interned
        actions, the hottest path of any search or playout."""
        if (seat is None or seat == self.turn) and self.phase is _PLAY_PHASE:
            seat = self.turn
            mask = self._legal
            if mask < 0:
                trick = self.trick
                if trick:  # as in play_mask, inline: this is the hottest path
                    mask = self._legal = follow_mask(self.hands[seat], trick[0] // 13,
                                                     trick[self.win_pos], self.trump, self.options)
                else:
                    mask = self.play_mask()
            plays = _PLAYS[seat]
            found: list[Action] = []
            while mask:
                low = mask & -mask
                found.append(plays[low.bit_length() - 1])
                mask ^= low
            return found
        return super().legal_actions(seat)

    def _contract_actions(self, seat: int) -> list[Action]:
        """Looking at one's cards (blind calls), the calls, a redeal claim."""
        phase = self.phase
        if phase is Phase.CALL:
            if self.calls[seat] is not None:
                return []
            out: list[Action] = []
            if not self.looked[seat]:
                out.append(Look(seat))
            if seat != self.turn:
                return out
            rules = self.options
            out += _calls_of(seat, rules.min_call, rules.max_call, False)
            if rules.blind_call and not self.looked[seat]:
                out += _calls_of(seat, rules.min_call, rules.max_call, True)
            return out
        if phase is Phase.REDEAL_CLAIM and seat == self.turn:
            if _weak(self.hands[seat]):
                return [Redeal(seat, True), Redeal(seat, False)]
            return [Redeal(seat, False)]
        return []

    def _default_contract(self) -> Action:
        """What the turn timer does for the seat to act (the 567 platform's rules): besides the
        biggest legal card, the minimum call, or keeping the hand when a redeal could be claimed."""
        if self.phase is Phase.CALL:
            return Call(self.turn, self.options.min_call)
        if self.phase is Phase.REDEAL_CLAIM:
            return Redeal(self.turn, False)
        raise WrongPhaseError(f"no seat is to act in the {self.phase.value} phase")

    # --- validating --------------------------------------------------------------------

    def _verify_contract(self, action: Action) -> None:
        """The calls, looking at one's cards, redeal claims, the draw for dealer, stopping."""
        phase = self.phase
        kind = action.kind
        if kind == "call":
            assert isinstance(action, Call)
            if phase is not Phase.CALL:
                raise WrongPhaseError(f"cannot call in the {phase.value} phase")
            self.check_turn(action.seat)
            n = action.tricks
            if isinstance(n, bool) or not isinstance(n, int) or n not in self.options.call_range:
                raise CallOutOfRangeError(
                    f"call must be {self.options.min_call}..{self.options.max_call}, got {n!r}")
            if action.blind:
                if not self.options.blind_call:
                    raise IllegalActionError("blind calls are not allowed under these rules")
                if self.looked[action.seat]:
                    raise IllegalActionError(
                        f"seat {action.seat} has looked at its cards and may not call blind")
        elif kind == "look":
            assert isinstance(action, Look)
            if phase is not Phase.CALL:
                raise WrongPhaseError(f"cannot look at cards in the {phase.value} phase")
            self.check_seat(action.seat)
            if self.looked[action.seat] or self.calls[action.seat] is not None:
                raise IllegalActionError(f"seat {action.seat} has already seen its cards")
        elif kind == "redeal":
            assert isinstance(action, Redeal)
            if phase is not Phase.REDEAL_CLAIM:
                raise WrongPhaseError(f"no redeal claim can be made in the {phase.value} phase")
            self.check_turn(action.seat)
            if action.claim is not True and action.claim is not False:
                raise IllegalActionError(f"a redeal claim is true or false, got {action.claim!r}")
            if action.claim and not _weak(self.hands[action.seat]):
                raise IllegalActionError(f"seat {action.seat} holds spades and an ace, king, queen "
                                         "or jack, so may not claim a redeal")
        elif kind == "draw":
            assert isinstance(action, Draw)
            if phase is not Phase.DRAW or self.options.first_dealer not in (
                    FirstDealer.DRAW_LOWEST, FirstDealer.DRAW_HIGHEST):
                raise WrongPhaseError("no draw for the first dealer is due")
            cards = action.cards
            if not isinstance(cards, (tuple, list)) or len(cards) != PLAYERS or len(set(cards)) != PLAYERS or not all(
                    isinstance(c, Card) for c in cards):
                raise IllegalActionError(f"a draw needs {PLAYERS} different cards, got {cards!r}")
        elif kind == "choose_dealer":
            assert isinstance(action, ChooseDealer)
            if phase is not Phase.DRAW or self.options.first_dealer is not FirstDealer.RANDOM:
                raise WrongPhaseError("no random choice of first dealer is due")
            self.check_seat(action.seat)
        elif kind == "stop" and not self.can_stop:
            raise WrongPhaseError("the match can only be stopped between deals when the "
                                  "number of deals is unlimited")

    # --- applying ----------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Verify ``action`` and apply it. Refused actions change nothing."""
        cls = action.__class__
        if cls is Play and self.phase is _PLAY_PHASE:
            # Fast path for the commonest action: the same checks as ``verify`` makes, inline.
            # Anything that fails one of them goes through ``verify`` for the precise error.
            seat, card = action.seat, action.card  # type: ignore[union-attr]
            legal = self._legal
            if legal < 0:
                legal = self.play_mask()
            if (seat.__class__ is int and seat == self.turn and card.__class__ is Card
                    and legal >> card & 1):
                self.history.append(action)
                self._play(seat, card)
                return
        elif (cls is Deal and self.phase is Phase.DEAL and action.upcard is None  # type: ignore[union-attr]
              and not action.stock):  # type: ignore[union-attr]
            masks = action.hand_masks(_HAND_SIZES)  # type: ignore[union-attr]  # raises if malformed
            self.history.append(action)
            self._deal_hands(masks)
            return
        elif cls is Call and self.phase is _CALL_PHASE:  # the same checks as verify, in short
            self._verify_contract(action)
            self.history.append(action)
            self._call(action)  # type: ignore[arg-type]
            return
        super().apply(action)

    def _deal(self, deal: Deal) -> None:
        self._deal_hands(deal.hand_masks(_HAND_SIZES))

    def _apply_contract(self, action: Action) -> None:
        kind = action.kind
        if kind == "call":
            self._call(action)  # type: ignore[arg-type]
        elif kind == "look":
            self.looked[action.seat] = True  # type: ignore[union-attr]
        elif kind == "redeal":
            self._redeal_claim(action)  # type: ignore[arg-type]
        elif kind == "draw":
            self._draw(action)  # type: ignore[arg-type]
        elif kind == "choose_dealer":
            self._start_dealing(action.seat)  # type: ignore[union-attr]
        elif kind == "stop":
            winners = self._winners_at_limit()
            if winners is not None:
                self._end(winners)

    def _start_dealing(self, dealer: int) -> None:
        self.dealer = dealer
        self._first_dealer = dealer
        self.phase = Phase.DEAL
        self.turn = CHANCE

    def _draw(self, action: Draw) -> None:
        ranks = [c % 13 for c in action.cards]
        target = min(ranks) if self.options.first_dealer is FirstDealer.DRAW_LOWEST else max(ranks)
        if len(set(ranks)) == PLAYERS:
            self._start_dealing(ranks.index(target))
        # Ties draw again (catsatcards): the phase stays DRAW until four different ranks are drawn.

    def _deal_hands(self, hands: list[int]) -> None:
        """Start a deal from the four hands as masks (already checked by :meth:`Deal.hand_masks`)."""
        self.hands = hands
        self.dealt = list(hands)
        self.calls = [None] * PLAYERS
        self.blind = [False] * PLAYERS
        self.looked = [not self.options.blind_call] * PLAYERS
        self.won = [0] * PLAYERS
        self.trick = []
        self.tricks = []
        self.trump = NO_TRUMP if self.options.trump is Trump.FIRST_LED else Suit.SPADES
        self.caps = _fresh_caps()
        self.redeal = None
        self._legal = -1
        assert self.dealer is not None
        first = (self.dealer + 1) % PLAYERS
        order = [(first + i) % PLAYERS for i in range(PLAYERS)]
        rules = self.options
        for s in order:
            reason = _automatic_redeal(hands[s], rules)
            if reason is not None:
                self._thrown_in(reason, s, ())
                return
        if rules.redeal_weak_hand is WeakHand.NO_SPADE_OR_NO_FACE:
            # Every seat is asked after every deal, weak or not: asking only when (or only whom)
            # a weak hand exists would tell the table so through the public ``to_act``. Only a
            # weak hand may actually claim.
            self.claims = order
            self.phase = Phase.REDEAL_CLAIM
            self.turn = order[0]
            return
        self._begin_calls()

    def _thrown_in(self, reason: Words, seat: int | None, shown: tuple[Card, ...]) -> None:
        """The same dealer deals again (catsatcards, Nepali house rules, pagat.com)."""
        self.redeal = RedealNotice(reason.english, seat, shown, reason)
        self.hands = [0] * PLAYERS
        self.phase = Phase.DEAL
        self.turn = CHANCE

    def _redeal_claim(self, action: Redeal) -> None:
        if action.claim:
            hand = self.hands[action.seat]
            why = (N_("seat {seat} shows a hand with no spades") if not hand & SUIT_MASKS[0]
                   else N_("seat {seat} shows a hand with no ace, king, queen or jack"))
            self._thrown_in(Words.of(why, seat=action.seat), action.seat, cards_of(hand))
            return
        self.claims.pop(0)
        if self.claims:
            self.turn = self.claims[0]
        else:
            self._begin_calls()

    def _begin_calls(self) -> None:
        self.phase = Phase.CALL
        assert self.dealer is not None
        self.turn = (self.dealer + 1) % PLAYERS

    def _call(self, action: Call) -> None:
        seat = action.seat
        self.calls[seat] = action.tricks
        self.blind[seat] = action.blind
        self.looked[seat] = True
        if seat != self.dealer:
            self.turn = (seat + 1) % PLAYERS
            return
        total = sum(c for c in self.calls if c is not None)
        need = self.options.min_call_total
        if need is not None and total < need:
            self._thrown_in(Words.of(N_("calls total {total}, under the minimum of {need}"),
                                     total=total, need=need), None, ())
            return
        if self.options.side_off_declaration:
            # Voids are declared before the first lead (pagat.com): public from now on.
            for s in range(PLAYERS):
                for suit in range(4):
                    if not self.hands[s] & SUIT_MASKS[suit]:
                        self.caps[s][suit] = suit * 13 - 1
        self.phase = Phase.PLAY
        self.turn = (seat + 1) % PLAYERS
        self.leader = self.turn

    def _play(self, seat: int, card: Card) -> None:
        trick = self.trick
        self.hands[seat] ^= 1 << card  # held: checked before
        self._legal = -1
        cs = card // 13
        if trick:
            win_pos = self.win_pos
            best = trick[win_pos]
            bs = best // 13
            # A play tells something only when it leaves the led suit, or, under
            # follow_must_beat, follows below the highest card of the suit led while the trick
            # is not trumped (then ``best`` is that card). Otherwise ``infer_play`` would change
            # nothing, so it is not called.
            if cs != trick[0] // 13 or (cs == bs and card < best and self.options.follow_must_beat):
                self._infer(seat, card)
            if cs == bs:
                if card > best:
                    self.win_pos = len(trick)
            elif cs == self.trump:
                self.win_pos = len(trick)
            trick.append(card)
            if len(trick) == PLAYERS:
                leader = self.leader
                assert leader is not None  # set by the lead
                self._complete_trick(leader, _TRICK_SEATS[leader], (leader + self.win_pos) % PLAYERS)
                return
        else:
            if self._lead_tells(cs):
                self._infer(seat, card)
            if self.trump == NO_TRUMP:
                self.trump = cs  # first_led: the first card of the deal sets trump
            self.leader = seat
            self.win_pos = 0
            trick.append(card)
        self.turn = _NEXT[seat]

    def _lead_tells(self, suit: int) -> bool:
        """Whether leading ``suit`` tells anything: only a spade led to trick 1 when spade leads
        are forbidden there (the leader holds nothing else)."""
        return (suit == 0 and not self.tricks
                and self.options.spade_lead_first_trick is SpadeLead.FORBIDDEN)

    def _infer(self, seat: int, card: int) -> None:
        """Record what this play tells every seat about ``seat``'s remaining cards.

        Only public facts are used (the trick so far, the rules, the card played), so the caps
        are public knowledge; sampling hidden hands for search relies on them. The reasoning
        lives in :mod:`callbreak.core.inference` so that the tournament protocol shares it.
        """
        # Called before ``card`` joins the trick (and, for a lead, before first_led sets trump).
        infer_play(self.caps[seat], self.trick, card, self.trump, self.options, not self.tricks)

    def _score_deal(self) -> tuple[tuple[int, ...], None]:
        rules = self.options
        calls = tuple(c if c is not None else 0 for c in self.calls)
        won = self.won
        if rules.partnership:
            team_points = [
                deal_points(calls[t] + calls[t + 2], won[t] + won[t + 2], rules) for t in (0, 1)]
            return tuple(team_points[s % 2] for s in range(PLAYERS)), None
        return tuple(deal_points(calls[s], won[s], rules, blind=self.blind[s])
                     for s in range(PLAYERS)), None

    def _deal_result(self, points: tuple[int, ...], note: object) -> DealResult:
        assert self.dealer is not None
        return DealResult(number=self.deal_number, dealer=self.dealer, won=tuple(self.won),
                          points=points, trump=_SUITS[self.trump],
                          calls=tuple(self.calls),  # type: ignore[arg-type]  # all made by now
                          blind=tuple(self.blind), tiebreak=bool(self.tiebreak_seats))

    def _winners_after_deal(self, points: Sequence[int]) -> tuple[int, ...] | None:
        """A tie-break deal is won by the best of it among the tied seats."""
        return leaders(points, self.tiebreak_seats) if self.tiebreak_seats else None

    def _winners_at_limit(self) -> tuple[int, ...] | None:
        """The best totals win; tied players (not one partnership) play one more deal among
        themselves under the Nepali house rules' tie-break, else they share the win."""
        top = leaders(self.totals)
        tied_players = len(top) > 1 and not (self.options.partnership and len(top) == 2)
        if tied_players and self.options.tie_break is TieBreak.EXTRA_DEAL:
            self.tiebreak_seats = top
            return None
        return top

    def _end(self, winners: tuple[int, ...]) -> None:
        super()._end(winners)
        stakes = self.options.stakes
        if stakes is not None:
            self.chips = settle_stakes(winners, PLAYERS, stakes.stake, stakes.commission)

    # --- views and copies --------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may know (``None``: a spectator). Built by allow-list, shares nothing."""
        if seat is not None:
            self.check_seat(seat)
        hidden_hand = seat is None or not self.looked[seat]
        leader = self.leader if self.phase is Phase.PLAY else None
        return SeatView(
            seat=seat,
            rules=self.options,
            players=PLAYERS,
            phase=self.phase,
            deal_number=self.deal_number,
            dealer=self.dealer,
            to_act=self.to_act,
            hand=None if hidden_hand else cards_of(self.hands[seat]),  # type: ignore[index]
            hand_sizes=tuple(h.bit_count() for h in self.hands),
            looked=seat is not None and self.looked[seat],
            calls=tuple(self.calls),
            blind=tuple(self.blind),
            won=tuple(self.won),
            trump=Suit(self.trump) if self.trump >= 0 else None,
            leader=leader,
            trick=tuple(DECK[c] for c in self.trick),
            trick_seats=() if leader is None else _TRICK_SEATS[leader][:len(self.trick)],
            tricks=tuple(self.tricks),
            caps=tuple(tuple(c) for c in self.caps),
            totals=tuple(self.totals),
            results=tuple(self.results),
            redeal=self.redeal,
            tiebreak_seats=self.tiebreak_seats,
            winners=self.winners,
            chips=self.chips,
            legal=tuple(self.legal_actions(seat)) if seat is not None else (),
        )

    def result_json(self) -> dict[str, Any]:
        """The results so far, JSON-ready (what a record states for its readers)."""
        return {
            "finished": self.is_over,
            "deals": [
                {"number": r.number, "dealer": r.dealer, "calls": list(r.calls),
                 "blind": list(r.blind), "won": list(r.won),
                 "points": [points_value(p) for p in r.points], "tiebreak": r.tiebreak}
                for r in self.results
            ],
            "totals": [points_value(t) for t in self.totals],
            "scores": list(self.scores),
            "winners": list(self.winners),
            "chips": list(self.chips) if self.chips is not None else None,
        }

    def clone(self) -> Match:
        """An independent copy (for search and for what-if checks)."""
        m = super().clone()
        m.caps = [list(c) for c in self.caps]
        return m


def _fresh_caps() -> list[list[int]]:
    """Every seat may hold any card: each suit's cap is its ace (a literal: this runs every
    deal, and the engine's speed is measured per deal)."""
    return [[12, 25, 38, 51], [12, 25, 38, 51], [12, 25, 38, 51], [12, 25, 38, 51]]


def _weak(hand: int) -> bool:
    """A hand that may claim a redeal under the catsatcards rules: no spade, or no ace, king, queen or jack."""
    return not hand & SUIT_MASKS[0] or not hand & _FACES


def _automatic_redeal(hand: int, rules: Rules) -> Words | None:
    if rules.redeal_weak_hand is WeakHand.NO_SPADE and not hand & SUIT_MASKS[0]:
        return Words.of(N_("a hand without spades"))
    if rules.redeal_one_suit_hand and any(hand == m for m in SUIT_MASKS):
        return Words.of(N_("a hand of thirteen cards of one suit"))
    return None
