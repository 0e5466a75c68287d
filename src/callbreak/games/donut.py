"""Donut (the catsatcards rules): 4 to 6 players, five cards each, a race from 15 down to 0.

Played clockwise: seat ``s + 1`` is the player on ``s``'s left. The dealer deals five cards one at
a time from the dealer's left; the dealer's fifth card (the last card dealt) is dealt face up (the
upcard, part of the dealer's hand) and decides the hand:

=========================  ==========================================================
upcard                     hand
=========================  ==========================================================
4 5 7 8 J Q K A            upcard suit is trump; players may drop
2                          the dealer names trump after looking; nobody may drop
3                          the highest scorer names trump, nobody may drop; if several
                           share the highest score: upcard suit is trump, drops allowed
6                          no trump and ranks reversed (2 high, ace low); no drops
9                          no trump; no drops
10                         upcard suit is trump; no drops
=========================  ==========================================================

Then, when drops are allowed, each player from the dealer's left says play or drop; the dealer
always plays and is not asked. If everyone else drops, the dealer subtracts 3 and the hand is not
played. The first playing seat after the dealer leads; follow suit, void: any card.

Scoring: -1 per trick won; a player who played and took no trick adds 3 (a "donut"); a player
who dropped scores nothing. The game ends after a hand in which anyone is at 0 or less; the lowest
score wins; equal lowest is a draw (every tied seat is listed in ``winners``).

Where catsatcards is silent: the deal passes to the left (``dealer_rotation="with_play"``, as the deal and
the play go); ``"against_play"`` passes it to the right.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from callbreak.core.actions import Action, Deal, Join, NameTrump
from callbreak.core.cards import Card, Rank, Suit
from callbreak.core.errors import IllegalActionError
from callbreak.core.game import Phase
from callbreak.core.scoring import tenths
from callbreak.core.words import N_, Words
from callbreak.games.base import ContractGame, GameOptions
from callbreak.games.registry import register_game, trick_game

_TRUMP_DROPS = frozenset({Rank.FOUR, Rank.FIVE, Rank.SEVEN, Rank.EIGHT, Rank.JACK, Rank.QUEEN,
                          Rank.KING, Rank.ACE})


@dataclass(frozen=True, slots=True, kw_only=True)
class DonutOptions(GameOptions):
    pass


class Donut(ContractGame):
    NAME = "donut"
    TITLE = "Donut"
    DESCRIPTION = ("5 cards each: the dealer's face-up fifth card sets trump, drops, no "
                   "trump or reversed ranks; race from 15 down to 0, a trickless hand adds 3.")
    MIN_PLAYERS = 4
    MAX_PLAYERS = 6
    CARDS_EACH = 5
    START_SCORE = 15
    LOW_WINS = True
    UPCARD_IN_HAND = True  # the dealer's fifth card, face up
    OPTIONS = DonutOptions

    def _finish_pack_deal(self, hands: list[list[Card]], rest: list[Card]) -> Deal:
        upcard = hands[self.dealer][-1]  # the dealer is dealt last: the fifth card of the deal
        return Deal(hands=tuple(tuple(sorted(h)) for h in hands), upcard=upcard)

    def _check_deal_extras(self, deal: Deal, dealt: int) -> None:
        up = deal.upcard
        if not isinstance(up, Card):
            raise IllegalActionError("a Donut deal needs the dealer's face-up fifth card (upcard)")
        if up not in deal.hands[self.dealer]:
            raise IllegalActionError(f"the upcard {up} must be one of the dealer's (seat "
                                     f"{self.dealer}) five cards")
        if deal.stock:
            raise IllegalActionError("Donut has no stock: the rest of the pack is out of play")

    def _begin_deal(self) -> None:
        assert self.upcard is not None
        rank, suit = self.upcard.rank, self.upcard.suit
        self.active = [True] * self.players
        self.joined = [True if s == self.dealer else None for s in range(self.players)]
        if rank == Rank.TWO:
            self._name_trump(self.dealer)
        elif rank == Rank.THREE:
            top = self.best_seats_high()
            if len(top) == 1:
                self._name_trump(top[0])
            else:
                self._trump_with_drops(suit)
        elif rank == Rank.SIX:
            self.low_high = True
            self._play_all()
        elif rank == Rank.NINE:
            self._play_all()
        elif rank == Rank.TEN:
            self.trump = suit
            self._play_all()
        else:
            assert rank in _TRUMP_DROPS
            self._trump_with_drops(suit)

    def best_seats_high(self) -> list[int]:
        """The seats with the highest (worst) score: they name trump on a 3."""
        top = max(self.scores)
        return [s for s in range(self.players) if self.scores[s] == top]

    def _name_trump(self, seat: int) -> None:
        self.declarer = seat
        self.phase = Phase.TRUMP
        self.turn = seat

    def _play_all(self) -> None:
        self.joined = [True] * self.players
        self.start_play(self.next_seat(self.dealer))

    def _trump_with_drops(self, suit: Suit) -> None:
        self.trump = suit
        self.may_sit_out = True
        self.phase = Phase.JOIN
        self.turn = self.next_seat(self.dealer)

    def _contract_actions(self, seat: int) -> list[Action]:
        if self.phase is Phase.TRUMP:
            return [NameTrump(seat, s) for s in Suit]
        if self.phase is Phase.JOIN:
            return [Join(seat, True), Join(seat, False)]
        return []

    def _verify_contract_rules(self, action: Action) -> None:
        if isinstance(action, NameTrump) and self.phase is Phase.TRUMP:
            if not isinstance(action.suit, Suit):
                raise IllegalActionError(f"not a suit: {action.suit!r}")
            return
        if isinstance(action, Join) and self.phase is Phase.JOIN:
            if not isinstance(action.playing, bool):
                raise IllegalActionError(f"playing must be true or false, got {action.playing!r}")
            return
        raise self.wrong_phase(action)

    def _apply_contract(self, action: Action) -> None:
        if isinstance(action, NameTrump):
            self.trump = action.suit
            self._play_all()
            return
        assert isinstance(action, Join)
        self.joined[action.seat] = action.playing
        nxt = self.next_seat(action.seat)
        if nxt != self.dealer:
            self.turn = nxt
            return
        self.active = [j is True for j in self.joined]
        if sum(self.active) == 1:
            points = [-3 if s == self.dealer else 0 for s in range(self.players)]
            self.finish_deal(tenths(points), Words.of(
                N_("everyone dropped: the dealer (seat {seat}) takes 3 off"), seat=self.dealer))
            return
        self.start_play(self.next_seat(self.dealer, self.active))

    def _score_deal(self) -> tuple[tuple[int, ...], Words | None]:
        points = [(-self.won[s] if self.won[s] else 3) if self.active[s] else 0
                  for s in range(self.players)]
        donuts = [s for s in range(self.players) if self.active[s] and not self.won[s]]
        return tenths(points), Words.of(N_("donuts: {seats}"), seats=tuple(donuts)) if donuts else None

    def _winners_after_deal(self, points: Sequence[int]) -> tuple[int, ...] | None:
        if any(sc <= 0 for sc in self.scores):
            return self.best_seats(range(self.players))
        return None



register_game(trick_game(Donut))
