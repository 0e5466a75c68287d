"""A toy game registered through the public API only: two-player plain whist.

This is the "Adding a game" example of docs/develop.md, kept runnable: one module and one registry entry.
Two players, thirteen cards each (the rest of the pack is out of play), no trump, follow suit,
the highest card of the suit led wins; a point a trick; after ``hands`` hands the higher total
wins.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from callbreak.core import RulesError
from callbreak.core.scoring import tenths
from callbreak.games import ContractGame, GameOptions, game_info, register_game, registry, trick_game


@dataclass(frozen=True, slots=True, kw_only=True)
class WhistOptions(GameOptions):
    hands: int = 2  # hands in a game


class PlainWhist(ContractGame):
    NAME = "plain-whist"
    TITLE = "Plain whist for two"
    DESCRIPTION = "Two players, 13 cards each, no trump: a point a trick, the most points wins."
    MIN_PLAYERS = MAX_PLAYERS = 2
    OPTIONS = WhistOptions

    def _begin_deal(self) -> None:  # no contract: play starts at once, left of the dealer
        self.active = [True] * self.players
        self.start_play(self.next_seat(self.dealer))

    def _score_deal(self) -> tuple[tuple[int, ...], str]:
        return tenths(self.won), ""  # a point a trick (points are kept in tenths)

    def _winners_after_deal(self, points: object) -> tuple[int, ...] | None:
        assert isinstance(self.options, WhistOptions)
        if len(self.results) < self.options.hands:
            return None
        return self.best_seats(range(self.players))


def register() -> None:
    """Register the game (once; registering the same entry again is allowed)."""
    try:
        game_info(PlainWhist.NAME)
    except RulesError:
        register_game(trick_game(PlainWhist))


@contextmanager
def registered() -> Iterator[None]:
    """The game registered for the tests inside, and gone again after (the registry is one per
    process: left registered, it would be among the games of every test that runs later in the
    same worker, and of every test collected after it)."""
    was_there = PlainWhist.NAME in registry._GAMES
    register()
    try:
        yield
    finally:
        if not was_there:
            registry._GAMES.pop(PlainWhist.NAME, None)
