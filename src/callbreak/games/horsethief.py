"""Horsethief (the catsatcards rules): 3 to 5 players, five cards each, first to 15.

Played clockwise: seat ``s + 1`` is the player on ``s``'s left. The dealer deals five cards one at
a time from the dealer's left, then turns the top card of the stock face up: its suit is trump
(the upcard stays face up beside the stock and is never drawn). Each player from the dealer's left,
the dealer last, says in or out; clubs trump forces everyone in (nobody is asked). When every
player but one is out, that player scores 5 and the hand is not played; so if everyone before the
dealer goes out, the dealer takes the 5 without being asked.

The in-players, from the dealer's left, each exchange 0..5 cards: discard them face down and draw
as many from the top of the stock (the stock order is part of the deal, a chance step). The stock
cannot run out: at most 5 players exchange at most 5 cards each, 25 cards, and the stock holds
52 - 5 x 5 - 1 = 26 or more. (An exchange larger than the stock would still be refused.) The first
in-player after the dealer leads; follow suit, void: any card.

Scoring: +1 per trick; an in-player with no trick scores -5; an out-player scores nothing. The game
ends after a hand in which anyone has 15 (``target``) or more: the highest wins. Where catsatcards is silent,
ties at the top: ``ties="shared"`` (default) shares the win, ``ties="play_on"`` plays more hands
until one seat alone has the highest score at or above the target. The deal passes to the left
(``dealer_rotation="with_play"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations

from callbreak.core.actions import Action, Deal, Exchange, Join
from callbreak.core.cards import FULL_DECK, Card, Suit, cards_of
from callbreak.core.errors import IllegalActionError, IllegalPlayError, RulesError
from callbreak.core.game import Phase
from callbreak.core.scoring import tenths
from callbreak.core.words import N_, Words
from callbreak.games.base import ContractGame, GameOptions
from callbreak.games.registry import register_game, trick_game


class Ties(str, Enum):
    SHARED = "shared"
    PLAY_ON = "play_on"


@dataclass(frozen=True, slots=True, kw_only=True)
class HorsethiefOptions(GameOptions):
    target: int = 15
    ties: Ties = Ties.SHARED


class Horsethief(ContractGame):
    NAME = "horsethief"
    TITLE = "Horsethief"
    DESCRIPTION = ("5 cards each: the turned stock card is trump, say in or out, exchange "
                   "with the stock; +1 a trick, -5 for none; first to 15.")
    MIN_PLAYERS = 3
    MAX_PLAYERS = 5
    CARDS_EACH = 5
    OPTIONS = HorsethiefOptions
    options: HorsethiefOptions

    def _check_options(self) -> None:
        if self.options.target < 1:
            raise RulesError("target must be at least 1")

    def _finish_pack_deal(self, hands: list[list[Card]], rest: list[Card]) -> Deal:
        return Deal(hands=tuple(tuple(sorted(h)) for h in hands), upcard=rest[0],
                        stock=tuple(rest[1:]))

    def _check_deal_extras(self, deal: Deal, dealt: int) -> None:
        up = deal.upcard
        if not isinstance(up, Card):
            raise IllegalActionError("a Horsethief deal needs the turned-up card (upcard)")
        if dealt >> up & 1:
            raise IllegalActionError(f"{up} is dealt twice")
        want = 52 - self.CARDS_EACH * self.players - 1
        stock = deal.stock
        if not isinstance(stock, (tuple, list)) or len(stock) != want:
            raise IllegalActionError(f"the stock must hold the other {want} cards in order")
        rest = dealt | 1 << up
        for c in stock:
            if not isinstance(c, Card):
                raise IllegalActionError(f"the stock holds something that is not a card: {c!r}")
            if rest >> c & 1:
                raise IllegalActionError(f"{c} is dealt twice")
            rest |= 1 << c
        if rest != FULL_DECK:  # pragma: no cover - the counts above make this the whole pack
            raise IllegalActionError("the deal does not use the whole pack")

    def _begin_deal(self) -> None:
        assert self.upcard is not None
        self.trump = self.upcard.suit
        if self.trump == Suit.CLUBS:
            self.joined = [True] * self.players
            self._after_joining()
            return
        self.may_sit_out = True
        self.phase = Phase.JOIN
        self.turn = self.next_seat(self.dealer)

    def _contract_actions(self, seat: int) -> list[Action]:
        if self.phase is Phase.JOIN:
            return [Join(seat, True), Join(seat, False)]
        if self.phase is Phase.EXCHANGE:
            hand = cards_of(self.hands[seat])
            most = min(len(hand), len(self.stock))
            return [Exchange(seat, combo) for k in range(most + 1) for combo in combinations(hand, k)]
        return []

    def _verify_contract_rules(self, action: Action) -> None:
        if isinstance(action, Join) and self.phase is Phase.JOIN:
            if not isinstance(action.playing, bool):
                raise IllegalActionError(f"playing must be true or false, got {action.playing!r}")
            return
        if isinstance(action, Exchange) and self.phase is Phase.EXCHANGE:
            cards = action.cards
            if not isinstance(cards, tuple) or not all(isinstance(c, Card) for c in cards):
                raise IllegalPlayError(f"an exchange is a list of cards, got {cards!r}")
            if len(set(cards)) != len(cards):
                raise IllegalPlayError("the same card is discarded twice")
            for c in cards:
                if not self.hands[action.seat] >> c & 1:
                    raise IllegalPlayError(f"seat {action.seat} does not hold {c}")
            if len(cards) > len(self.stock):
                raise IllegalPlayError(f"only {len(self.stock)} cards are left in the stock")
            return
        raise self.wrong_phase(action)

    def _apply_contract(self, action: Action) -> None:
        if isinstance(action, Join):
            self.joined[action.seat] = action.playing
            undecided = [j is None for j in self.joined]
            ins = [s for s in range(self.players) if self.joined[s]]
            if sum(undecided) == 1 and not ins:
                self._lone_in(undecided.index(True))
            elif any(undecided):
                self.turn = self.next_seat(action.seat, undecided)
            elif len(ins) == 1:
                self._lone_in(ins[0])
            else:
                self._after_joining()
            return
        assert isinstance(action, Exchange)
        seat = action.seat
        for c in action.cards:
            self.hands[seat] &= ~(1 << c)
            self.discards[seat] |= 1 << c
        for _ in action.cards:
            self.hands[seat] |= 1 << self.stock.pop(0)
        self.exchanged[seat] = len(action.cards)
        self._next_exchange(seat)

    def _lone_in(self, seat: int) -> None:
        self.joined[seat] = True
        self.active = [s == seat for s in range(self.players)]
        points = [5 if s == seat else 0 for s in range(self.players)]
        self.finish_deal(tenths(points), Words.of(N_("everyone else is out: seat {seat} takes 5 unplayed"), seat=seat))

    def _after_joining(self) -> None:
        self.active = [j is True for j in self.joined]
        self.phase = Phase.EXCHANGE
        self._next_exchange(self.dealer)

    def _next_exchange(self, after: int) -> None:
        seat = after
        for _ in range(self.players):
            seat = self.next_seat(seat)
            if self.active[seat] and self.exchanged[seat] is None:
                self.turn = seat
                return
        self.start_play(self.next_seat(self.dealer, self.active))

    def _score_deal(self) -> tuple[tuple[int, ...], Words | None]:
        points = [(self.won[s] if self.won[s] else -5) if self.active[s] else 0
                  for s in range(self.players)]
        return tenths(points), None

    def _winners_after_deal(self, points: Sequence[int]) -> tuple[int, ...] | None:
        if max(self.scores) < self.options.target:
            return None
        top = self.best_seats(range(self.players))
        if len(top) > 1 and self.options.ties is Ties.PLAY_ON:
            return None
        return top


register_game(trick_game(Horsethief))
