"""Snarples (the catsatcards rules): 3 to 8 players, five cards each, a race from 16 down to 0.

Played clockwise: seat ``s + 1`` is the player on ``s``'s left. The dealer deals five cards one at
a time starting at the dealer's left; the rest of the pack is out of play. The dealer passes to
the left after each hand (catsatcards); a thrown-in hand is dealt again by the same dealer.

Auction: one round, from the dealer's left, the dealer last; each player passes or bids 1..5,
higher than any bid before. All pass: the hand is thrown in. The high bidder names trump, then
every other player, from the dealer's left, says play or sit out. Everyone must play when the bid
was 1 or spades are trump; a player who has sat out ``max_sit_out_run`` (2) hands in a row must
play (catsatcards: "no player may sit out more than two hands in a row"). Seats with no choice are not
asked. A player who sits out with a score of 3 or less adds 1.

If every other player sits out, the high bidder chooses (a :class:`~callbreak.games.actions.Settle`
action) between -5 for themself and +5 for each other player; the hand is not played. Otherwise
the high bidder leads; follow suit, void: any card.

Scoring: a high bidder who wins at least the bid subtracts the tricks won, else ("punted") adds
5; each playing opponent subtracts 1 per trick, or adds 5 with no trick. At the end of a hand a
player at ``drop_out`` (33) or more drops out of the game (deals no more, is dealt no more). The
game ends after a hand in which anyone reaches 0 or less: the lowest score wins (equal lowest
share the win). Winning all five tricks with spades trump ("Spade Out") wins at once, whoever
does it. If only one player is left in the game, that player wins; if the last players all drop
out together, the lowest of them wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from callbreak.core.actions import Action, Bid, Join, NameTrump, Pass, Settle
from callbreak.core.cards import Suit
from callbreak.core.errors import CallOutOfRangeError, IllegalActionError, RulesError
from callbreak.core.game import Phase
from callbreak.core.scoring import tenths
from callbreak.core.words import N_, Words
from callbreak.games.base import ContractGame, ContractView, GameOptions
from callbreak.games.registry import register_game, trick_game


@dataclass(frozen=True, slots=True, kw_only=True)
class SnarplesOptions(GameOptions):
    drop_out: int = 33
    max_sit_out_run: int = 2


class Snarples(ContractGame):
    NAME = "snarples"
    TITLE = "Snarples"
    DESCRIPTION = ("5 cards each: bid 1-5, name trump, the others play or sit out; race "
                   "from 16 down to 0; Spade Out wins at once.")
    MIN_PLAYERS = 3
    MAX_PLAYERS = 8
    CARDS_EACH = 5
    START_SCORE = 16
    LOW_WINS = True
    OPTIONS = SnarplesOptions
    options: SnarplesOptions

    def _check_options(self) -> None:
        if self.options.drop_out <= self.START_SCORE:
            raise RulesError(f"drop_out must be above the starting score {self.START_SCORE}")
        if self.options.max_sit_out_run < 0:
            raise RulesError("max_sit_out_run must not be negative")

    def _begin_deal(self) -> None:
        self.sitter_penalty = [0] * self.players
        self.phase = Phase.AUCTION
        self.turn = self.next_seat(self.dealer)

    def _restore_private(self, view: ContractView) -> None:
        # A sitter's +1 is decided when it sits out, from its score then (scores only change at
        # the end of a hand, so the current score is that score).
        self.sitter_penalty = [1 if j is False and sc <= 3 else 0
                               for j, sc in zip(view.joined, view.scores, strict=True)]

    def _high(self) -> int:
        return max((b for b in self.bids if b is not None), default=0)

    def _must_play(self, seat: int) -> bool:
        return not self.may_sit_out or self.streak[seat] >= self.options.max_sit_out_run

    def _contract_actions(self, seat: int) -> list[Action]:
        if self.phase is Phase.AUCTION:
            return [Pass(seat), *(Bid(seat, n) for n in range(self._high() + 1, 6))]
        if self.phase is Phase.TRUMP:
            return [NameTrump(seat, s) for s in Suit]
        if self.phase is Phase.JOIN:
            return [Join(seat, True), Join(seat, False)]
        if self.phase is Phase.SETTLE:
            return [Settle(seat, False), Settle(seat, True)]
        return []

    def _verify_contract_rules(self, action: Action) -> None:
        phase = self.phase
        if isinstance(action, Pass) and phase is Phase.AUCTION:
            return
        if isinstance(action, Bid) and phase is Phase.AUCTION:
            n, low = action.tricks, self._high() + 1
            if isinstance(n, bool) or not isinstance(n, int) or not low <= n <= 5:
                raise CallOutOfRangeError(f"a bid here must be {low}..5, got {n!r}")
            return
        if isinstance(action, NameTrump) and phase is Phase.TRUMP:
            if not isinstance(action.suit, Suit):
                raise IllegalActionError(f"not a suit: {action.suit!r}")
            return
        if isinstance(action, Join) and phase is Phase.JOIN:
            if not isinstance(action.playing, bool):
                raise IllegalActionError(f"playing must be true or false, got {action.playing!r}")
            return
        if isinstance(action, Settle) and phase is Phase.SETTLE:
            if not isinstance(action.penalize_others, bool):
                raise IllegalActionError("penalize_others must be true or false")
            return
        raise self.wrong_phase(action)

    def _apply_contract(self, action: Action) -> None:
        if isinstance(action, (Pass, Bid)):
            seat = action.seat
            if isinstance(action, Pass):
                self.passed[seat] = True
            else:
                self.bids[seat] = action.tricks
            if seat != self.dealer:
                self.turn = self.next_seat(seat)
                return
            high = self._high()
            if not high:
                self.throw_in(Words.of(N_("everyone passed: the same dealer deals again")))
                return
            self.declarer = next(s for s in range(self.players) if self.bids[s] == high)
            self.contract = high
            self.phase = Phase.TRUMP
            self.turn = self.declarer
        elif isinstance(action, NameTrump):
            self.trump = action.suit
            self.may_sit_out = self.contract != 1 and action.suit is not Suit.SPADES
            assert self.declarer is not None
            self.joined[self.declarer] = True
            self._next_join(self.dealer)
        elif isinstance(action, Join):
            self.joined[action.seat] = action.playing
            if not action.playing and self.scores[action.seat] <= 3:
                self.sitter_penalty[action.seat] = 1
            self._next_join(action.seat)
        elif isinstance(action, Settle):
            points = [self.sitter_penalty[s] for s in range(self.players)]
            assert self.declarer is not None
            if action.penalize_others:
                for s in self.seats_in_game:
                    if s != self.declarer:
                        points[s] += 5
                note = Words.of(N_("everyone sat out: seat {seat} gives the others 5 each"), seat=self.declarer)
            else:
                points[self.declarer] -= 5
                note = Words.of(N_("everyone sat out: seat {seat} takes 5 off"), seat=self.declarer)
            self._close_deal(points, note)

    def _next_join(self, after: int) -> None:
        """Ask the next seat with a choice; seats that must play are entered without asking."""
        seat = after
        for _ in range(self.players):
            seat = self.next_seat(seat)
            if self.joined[seat] is not None:
                continue
            if self._must_play(seat):
                self.joined[seat] = True
                continue
            self.phase = Phase.JOIN
            self.turn = seat
            return
        self.active = [j is True for j in self.joined]
        assert self.declarer is not None
        if sum(self.active) == 1:
            self.phase = Phase.SETTLE
            self.turn = self.declarer
            return
        self.start_play(self.declarer)

    def _score_deal(self) -> tuple[tuple[int, ...], Words | None]:
        assert self.declarer is not None and self.contract is not None
        d, bid = self.declarer, self.contract
        points = list(self.sitter_penalty)
        for s in range(self.players):
            if not self.active[s]:
                continue
            if s == d:
                points[s] += -self.won[s] if self.won[s] >= bid else 5
            else:
                points[s] += -self.won[s] if self.won[s] else 5
        note = Words.of(N_("seat {seat} makes a bid of {bid}") if self.won[d] >= bid
                        else N_("seat {seat} is punted on a bid of {bid}"), seat=d, bid=bid)
        if self.trump == Suit.SPADES and self.CARDS_EACH in self.won:
            note = Words.of(N_("Spade Out: seat {seat} takes every trick with spades trump"),
                            seat=self.won.index(self.CARDS_EACH))
        return tenths(points), note

    def _close_deal(self, points: list[int], note: Words | None) -> None:
        self.finish_deal(tenths(points), note)

    def finish_deal(self, points: Sequence[int], note: Words | str | None = None) -> None:
        # Sitting-out runs count hands, so they are updated however the hand ended.
        for s in self.seats_in_game:
            self.streak[s] = self.streak[s] + 1 if self.joined[s] is False else 0
        super().finish_deal(points, note)

    def _winners_after_deal(self, points: Sequence[int]) -> tuple[int, ...] | None:
        last = self.results[-1]
        if last.trump is Suit.SPADES and self.CARDS_EACH in last.won:
            return (last.won.index(self.CARDS_EACH),)
        before = self.seats_in_game
        for s in before:
            if self.scores[s] >= self.options.drop_out:
                self.in_game[s] = False
        left = self.seats_in_game
        if not left:
            return self.best_seats(before)
        if len(left) == 1:
            return tuple(left)
        if any(self.scores[s] <= 0 for s in left):
            return self.best_seats(left)
        return None


register_game(trick_game(Snarples))
