"""Matches brought to their play phase, and the play decisions of heuristic games, for the
bots' tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from callbreak.bots.heuristic import HeuristicBot
from callbreak.core import CHANCE, Call, Dealer, Match, Phase, SeatView, make_rules
from callbreak.core.rules import Rules


def dealt(rules: Rules, seed: int, call: Callable[[Match], Call] | None = None) -> Match:
    """A match of ``rules`` dealt by ``Dealer(seed)`` and called up to its first lead: every seat
    calls ``call(match)`` (default: the smallest call)."""
    match = Match(rules)
    dealer = Dealer(seed)
    while match.phase is not Phase.PLAY:
        if match.to_act == CHANCE:
            match.apply(dealer.chance(match))
        elif call is not None:
            match.apply(call(match))
        else:
            match.apply(Call(match.to_act, rules.min_call))  # type: ignore[arg-type]
    return match


def decisions(match: Match, dealer: Dealer, deals: int | None = None) -> Iterator[tuple[int, SeatView]]:
    """Each decision of ``match`` (its first ``deals`` deals, else to its end) as (seat, the
    seat's view), the cards dealt by ``dealer``: the caller applies the seat's action before
    asking for the next."""
    while not match.is_over and (deals is None or match.deal_number <= deals):
        seat = match.to_act
        if seat == CHANCE:
            match.apply(dealer.chance(match))
            continue
        assert seat is not None
        yield seat, match.view(seat)


def heuristic_positions(preset: str, seed: int, deals: int) -> Iterator[tuple[Match, SeatView]]:
    """Every play decision of a match of four heuristic bots, as (match, the seat's view),
    during its first ``deals`` deals."""
    match = Match(make_rules(preset))
    bot = HeuristicBot(seed=seed)
    for _, view in decisions(match, Dealer(seed), deals):
        if view.phase is Phase.PLAY:
            yield match, view
        match.apply(bot.decide(view, 1.0).action)
