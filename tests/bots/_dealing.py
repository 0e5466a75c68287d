"""Matches brought to their play phase, for the kernel tests."""

from __future__ import annotations

from collections.abc import Callable

from callbreak.core import CHANCE, Call, Dealer, Match, Phase
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
