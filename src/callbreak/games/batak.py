"""Batak, the Turkish game of the catsatcards rules: Batak Ihaleli (auction) and Batak Koz Maca (spades trump).

Both are four players, thirteen cards each, played counter-clockwise: seat ``s + 1`` is the
player on ``s``'s right, so the dealer's right is ``dealer + 1`` and the dealer's left is
``dealer + 3``. The deal starts at the dealer's right (catsatcards). The dealer passes to the right after
each hand (catsatcards: "rotates to the next player in a counter-clockwise direction"). Ten hands; the
highest total wins, equal highest totals share the win.

Play (both variants; in words: ``callbreak rules batak-ihaleli``): trump may not be led until a trump has been played to a
trick, unless the leader holds only trumps (:func:`callbreak.core.tricks.lead_mask_unbroken`);
following, a player must follow suit and beat the highest card of the led suit if able (unless the
trick is already trumped); void, must trump, overtrumping if able; otherwise any card. That is the
core's :func:`~callbreak.core.tricks.legal_mask` with ``follow_must_beat`` and ``must_trump``.

Batak Ihaleli. The auction starts at the dealer's LEFT, as the catsatcards rules say, and continues in
the direction of play (``auction_start="left"``, the default); ``auction_start="right"`` starts at
the dealer's right so that the dealer speaks last, as many Turkish tables do. Bids are 5..13
(``min_bid``) or a pass; each bid must be higher than the last; a pass is final. The auction ends
when every other player has passed after the high bid. If nobody but the dealer is left and no
one has bid, the dealer must bid at least 4 (``forced_bid``); with the default auction order the
dealer speaks second, so if the dealer passed too, the dealer is made high bidder at 4. (catsatcards says
"if the first three pass"; with the left start the dealer is not the fourth to speak, so this is
the settlement.) The high bidder names trump and leads. Scoring: the high bidder scores +bid if
they win at least the bid, else -bid; every other player scores +tricks won, or -(high bid) with
no trick.

Batak Koz Maca. The catsatcards rules give no detail beyond "each player makes a bid", so it is settled as Turkish
tables play it (``callbreak rules batak-koz-maca``): spades are always trump; every player calls once, 1..13, starting at
the dealer's right and ending with the dealer; no auction, no passing. The player at the dealer's
right leads the first trick (the first to call; there is no single high bidder), or with
``first_lead="highest_call"`` the highest caller (the earliest of equal calls). A player who wins
at least the call scores +call, else -call.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from callbreak.core.actions import Action, Bid, NameTrump, Pass
from callbreak.core.cards import Suit
from callbreak.core.errors import CallOutOfRangeError, IllegalActionError, RulesError
from callbreak.core.game import Phase
from callbreak.core.rules import Rules, VoidRule
from callbreak.core.scoring import tenths
from callbreak.core.tricks import lead_mask_unbroken, legal_mask
from callbreak.core.words import N_, Words
from callbreak.games.base import ContractGame, GameOptions
from callbreak.games.registry import register_game, trick_game

# The core's Call Break option set that expresses Batak's play obligations.
_BATAK_PLAY = Rules(follow_must_beat=True, void_rule=VoidRule.MUST_TRUMP)


class AuctionStart(str, Enum):
    LEFT = "left"  # the dealer's left bids first (catsatcards)
    RIGHT = "right"  # the dealer's right bids first; the dealer speaks last


@dataclass(frozen=True, slots=True, kw_only=True)
class BatakOptions(GameOptions):
    deals: int = 10

    @property
    def deal_limit(self) -> int | None:
        """Ten hands (``deals``), or fewer under an agreed ``max_hands``."""
        return self.deals if self.max_hands is None else min(self.deals, self.max_hands)
    min_bid: int = 5
    forced_bid: int = 4
    auction_start: AuctionStart = AuctionStart.LEFT


class FirstLead(str, Enum):
    RIGHT_OF_DEALER = "right_of_dealer"  # the first to call leads
    HIGHEST_CALL = "highest_call"  # the highest call leads (the earliest of equal calls)


@dataclass(frozen=True, slots=True, kw_only=True)
class KozMacaOptions(GameOptions):
    deals: int = 10

    @property
    def deal_limit(self) -> int | None:
        """Ten hands (``deals``), or fewer under an agreed ``max_hands``."""
        return self.deals if self.max_hands is None else min(self.deals, self.max_hands)
    first_lead: FirstLead = FirstLead.RIGHT_OF_DEALER


class _Batak(ContractGame):
    """What both Batak variants share: the deal, the play obligations and the ten-hand end."""

    MIN_PLAYERS = MAX_PLAYERS = 4
    CARDS_EACH = 13
    PLAY_RULES = _BATAK_PLAY
    TRUMP_LEAD_WAITS = True

    def _check_options(self) -> None:
        if self.options.deals < 1:  # type: ignore[attr-defined]
            raise RulesError("deals must be at least 1")

    def _play_mask(self, hand: int) -> int:
        if not self.trick:
            return hand if self.trump_broken else lead_mask_unbroken(hand, self.trump)
        return legal_mask(hand, self.trick, self.trump, self.PLAY_RULES, first_trick=False)

    def _winners_after_deal(self, points: Sequence[int]) -> tuple[int, ...] | None:
        if len(self.results) >= self.options.deals:  # type: ignore[attr-defined]
            return self.best_seats(range(self.players))
        return None


class BatakIhaleli(_Batak):
    NAME = "batak-ihaleli"
    TITLE = "Batak Ihaleli"
    DESCRIPTION = ("Auction Batak (catsatcards): bid 5-13 or pass, the high bidder names trump; no trump "
                   "lead until broken, must beat and overtrump; 10 hands.")
    OPTIONS = BatakOptions
    options: BatakOptions

    def _check_options(self) -> None:
        super()._check_options()
        o = self.options
        if not 1 <= o.forced_bid <= o.min_bid <= 13:
            raise RulesError(f"need 1 <= forced_bid ({o.forced_bid}) <= min_bid ({o.min_bid}) <= 13")

    def _begin_deal(self) -> None:
        self.active = [True] * self.players
        self.phase = Phase.AUCTION
        start = -1 if self.options.auction_start is AuctionStart.LEFT else 1
        self.turn = (self.dealer + start) % self.players

    def _high(self) -> int:
        return max((b for b in self.bids if b is not None), default=0)

    def _dealer_forced(self, seat: int) -> bool:
        return (seat == self.dealer and self._high() == 0
                and all(self.passed[s] for s in range(self.players) if s != self.dealer))

    def _contract_actions(self, seat: int) -> list[Action]:
        if self.phase is Phase.AUCTION:
            if self._dealer_forced(seat):
                return [Bid(seat, n) for n in range(self.options.forced_bid, 14)]
            low = max(self.options.min_bid, self._high() + 1)
            return [Pass(seat), *(Bid(seat, n) for n in range(low, 14))]
        if self.phase is Phase.TRUMP:
            return [NameTrump(seat, s) for s in Suit]
        return []

    def _verify_contract_rules(self, action: Action) -> None:
        if isinstance(action, (Bid, Pass)):
            if self.phase is not Phase.AUCTION:
                raise self.wrong_phase(action)
            forced = self._dealer_forced(action.seat)
            if isinstance(action, Pass):
                if forced:
                    raise IllegalActionError(f"everyone else passed: the dealer must bid at least "
                                             f"{self.options.forced_bid}")
                return
            n = action.tricks
            low = self.options.forced_bid if forced else max(self.options.min_bid, self._high() + 1)
            if isinstance(n, bool) or not isinstance(n, int) or not low <= n <= 13:
                raise CallOutOfRangeError(f"a bid here must be {low}..13 (higher than the last bid "
                                          f"{self._high() or 'none'}), got {n!r}")
            return
        if isinstance(action, NameTrump):
            if self.phase is not Phase.TRUMP:
                raise self.wrong_phase(action)
            if not isinstance(action.suit, Suit):
                raise IllegalActionError(f"not a suit: {action.suit!r}")
            return
        raise self.wrong_phase(action)

    def _apply_contract(self, action: Action) -> None:
        if isinstance(action, NameTrump):
            self.trump = action.suit
            self.start_play(action.seat)
            return
        seat = action.seat  # type: ignore[union-attr]
        if isinstance(action, Pass):
            self.passed[seat] = True
        else:
            assert isinstance(action, Bid)
            self.bids[seat] = action.tricks
        open_seats = [s for s in range(self.players) if not self.passed[s]]
        high = self._high()
        if not open_seats:  # everyone passed, the dealer included: the dealer takes it at 4
            self._won_auction(self.dealer, self.options.forced_bid, forced=True)
        elif high and len(open_seats) == 1:
            self._won_auction(open_seats[0], high, forced=False)
        else:
            self.turn = self.next_seat(seat, [not p for p in self.passed])

    def _won_auction(self, seat: int, bid: int, forced: bool) -> None:
        self.declarer = seat
        self.contract = bid
        if forced:
            self.bids[seat] = bid
            self.say(Words.of(N_("everyone passed: the dealer (seat {seat}) takes it at {bid}"),
                              seat=seat, bid=bid))
        self.phase = Phase.TRUMP
        self.turn = seat

    def _score_deal(self) -> tuple[tuple[int, ...], Words | None]:
        assert self.declarer is not None and self.contract is not None
        bid, d = self.contract, self.declarer
        points = []
        for s in range(self.players):
            if s == d:
                points.append(bid if self.won[s] >= bid else -bid)
            else:
                points.append(self.won[s] if self.won[s] else -bid)
        made = (N_("seat {seat} makes a bid of {bid} with {tricks} tricks") if self.won[d] >= bid
                else N_("seat {seat} fails a bid of {bid} with {tricks} tricks"))
        return tenths(points), Words.of(made, seat=d, bid=bid, tricks=self.won[d])


class BatakKozMaca(_Batak):
    NAME = "batak-koz-maca"
    TITLE = "Batak Koz Maca"
    DESCRIPTION = ("Spades-trump Batak (catsatcards): everyone calls once 1-13; spades not led until "
                   "broken, must beat and overtrump; at least the call scores it; 10 hands.")
    OPTIONS = KozMacaOptions
    options: KozMacaOptions

    def _begin_deal(self) -> None:
        self.active = [True] * self.players
        self.trump = Suit.SPADES
        self.phase = Phase.AUCTION
        self.turn = (self.dealer + 1) % self.players

    def _contract_actions(self, seat: int) -> list[Action]:
        return [Bid(seat, n) for n in range(1, 14)]

    def _verify_contract_rules(self, action: Action) -> None:
        if not isinstance(action, Bid) or self.phase is not Phase.AUCTION:
            raise self.wrong_phase(action)
        n = action.tricks
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 13:
            raise CallOutOfRangeError(f"a call must be 1..13, got {n!r}")

    def _apply_contract(self, action: Action) -> None:
        assert isinstance(action, Bid)
        self.bids[action.seat] = action.tricks
        if action.seat != self.dealer:
            self.turn = (action.seat + 1) % self.players
            return
        first = (self.dealer + 1) % self.players
        if self.options.first_lead is FirstLead.HIGHEST_CALL:
            order = [(first + i) % self.players for i in range(self.players)]
            first = max(order, key=lambda s: (self.bids[s] or 0, -order.index(s)))
        self.start_play(first)

    def _score_deal(self) -> tuple[tuple[int, ...], Words | None]:
        points = []
        for s in range(self.players):
            call = self.bids[s] or 0
            points.append(call if self.won[s] >= call else -call)
        return tenths(points), None


register_game(trick_game(BatakIhaleli))
register_game(trick_game(BatakKozMaca))
