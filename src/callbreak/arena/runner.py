"""Play one game between players, feeding each only its own seat view: the arena's games, run
by the one referee (callbreak/referee.py: when a player raises, runs over its budget, or answers
with something illegal, it records a :class:`Fault` and plays the game's ``default_action()``
instead, so a misbehaving player never stops a game), with the arena's chance (:class:`DealStream`)
and its record of each game.

>>> from callbreak.bots import make_bot
>>> from callbreak.core import make_rules
>>> bots = [make_bot("random", seed=s) for s in range(4)]
>>> out = play_match(make_rules("callbreak"), bots, seed=1)
>>> out.match.is_over, len(out.match.results), sum(len(s.faults) for s in out.seats)
(True, 5, 0)
>>> from callbreak.games import new_game
>>> game = new_game("donut", players=5, max_hands=2)
>>> out = play_game(game, [make_bot("random", seed=s, game="donut") for s in range(5)], seed=1)
>>> out.record.game, len(out.deal_points)
('donut', 2)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from callbreak.bots import BotOf
from callbreak.core import CallbreakError, Deal, Match, Rules, SeatView, Stop
from callbreak.core.actions import CHANCE, Action
from callbreak.core.game import Chance, Game
from callbreak.games import game_info
from callbreak.record import Record, record_of
from callbreak.referee import (
    DEFAULT_BUDGET,
    DEFAULT_TOLERANCE,
    BotSeat,
    Fault,
    Listener,
    Moved,
    Referee,
    SeatStats,
    referee,
)

PLAYERS = 4  # Call Break's table
UNLIMITED_MATCH_DEALS = 5  # where the rules never end a match, the arena stops the table here
DEAL_LIMIT = 1000  # a game still going after this many deals is refused as endless
STOP = Stop()


class ArenaError(CallbreakError):
    """A run that cannot go on (bad players, bad settings, a match that never ends)."""


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """A finished game: the game state, its record, per-seat stats, and each deal's points per
    seat in tenths, higher better (sign flipped in the race-down games)."""

    game: Game
    record: Record
    seats: tuple[SeatStats, ...]
    deal_points: tuple[tuple[int, ...], ...] = ()

    @property
    def match(self) -> Any:
        """The game (for a Call Break table, its :class:`Match`)."""
        return self.game

    @property
    def faults(self) -> list[Fault]:
        return [f for s in self.seats for f in s.faults]


class DealStream:
    """Chance for an arena game: the game's own seeded dealer (``game_info(game).dealer``).

    Duplicate play replays the same stream at every seating of a set. A dealer's n-th answer
    depends only on its seed and on what is due (the draw for the first dealer, the n-th pack),
    so every seating is dealt the same chance actions as long as the games agree on what is due;
    where they part (a deal thrown in on a weak-hand claim or calls under ``min_call_total``, a
    player out of a Snarples game), the n-th deal is still made from the n-th pack.

    ``deals`` replace the first deals of the stream. ``stop_after`` ends a game whose rules never
    end it (Call Break with unlimited deals: wherever the game takes a ``Stop``) after that many
    scored deals; ``stop_after=None`` with a fixed list of deals stops it when the list runs out.
    """

    def __init__(self, seed: int | str | None = None, *, deals: Sequence[Deal] = (),
                 stop_after: int | None = UNLIMITED_MATCH_DEALS, game: str = "callbreak") -> None:
        # String seeds hash the same way on every run and machine (random.Random uses SHA-512).
        self._dealer: Chance = game_info(game).dealer(f"deals/{seed}" if seed is not None else None)
        self._fixed = list(deals)
        self._only_fixed = bool(deals) and stop_after is None
        self.stop_after = stop_after
        self.dealt = 0  # deals handed out, thrown-in ones included

    def chance(self, game: Game) -> Action:
        """The chance action ``game`` is waiting for."""
        if self.dealt > DEAL_LIMIT:
            raise ArenaError(f"the game did not finish after {self.dealt} deals were dealt "
                             "(every deal thrown in? set max_hands?)")
        if (((self.stop_after is not None and len(game.results) >= self.stop_after)
                or (self._only_fixed and self.dealt >= len(self._fixed)))
                and game.is_legal(STOP)):  # the rules never end the game: the arena does
            return STOP
        try:
            action = self._dealer.chance(game)
        except CallbreakError as e:
            raise ArenaError(str(e)) from None
        if isinstance(action, Deal):
            if self.dealt < len(self._fixed):
                action = self._fixed[self.dealt]
            self.dealt += 1
        return action


MoveHook = Callable[[Any, int, Action, float], None]


def play_match(rules: Rules, players: Sequence[BotOf[SeatView]], *, seed: int | str | None = None,
               deals: Sequence[Deal] = (), chance: DealStream | None = None,
               **kwargs: Any) -> MatchOutcome:
    """Play a whole Call Break match under ``rules``: :func:`play_game` on a new :class:`Match`.

    ``seed`` seeds the deals when ``chance`` is not given; ``deals`` are fixed deals to play
    first. With unlimited deals the arena stops the table after 5 scored deals (or when the fixed
    deals run out).
    """
    if chance is None:
        chance = DealStream(seed, deals=deals, stop_after=None if deals else UNLIMITED_MATCH_DEALS)
    return play_game(Match(rules), players, chance=chance, **kwargs)


def play_game(
    game: Game,
    players: Sequence[Any],
    *,
    name: str | None = None,
    seed: int | str | None = None,
    chance: Chance | None = None,
    budget: float = DEFAULT_BUDGET,
    tolerance: float = DEFAULT_TOLERANCE,
    names: Sequence[str] | None = None,
    meta: dict[str, Any] | None = None,
    clock: Callable[[], float] = time.perf_counter,
    on_move: MoveHook | None = None,
) -> MatchOutcome:
    """Play ``game`` to its end: ``players[s]`` sits in seat ``s`` and sees only ``game.view(s)``.

    Args:
        game: a new game of any registered kind (:func:`callbreak.games.new_game`).
        players: one bot per seat (anything with ``name`` and ``decide(view, budget)``).
        name: the game's registry name (default: the game's own; Call Break for a ``Match``).
        seed: seeds the deals when ``chance`` is not given.
        chance: the source of chance actions (overrides ``seed``): a :class:`DealStream`, or
            any dealer with ``chance(game)``.
        budget: seconds each decision may take.
        tolerance: seconds past the budget still accepted (scheduling noise on a busy machine).
        names: seat names for the record (default: the players' names).
        meta: extra keys for the record's ``meta``.
        clock: the timer (a test can pass a fake one).
        on_move: called after every seat move with (game, seat, action applied, seconds).

    Returns:
        the finished game, its record (faults listed in ``meta["faults"]``), per-seat stats and
        each deal's points.
    """
    info = game_info(name or game.NAME)
    name = info.name  # an alias (call-bridge) plays and records as its game
    if len(players) != game.players:
        raise ArenaError(f"this {info.title} table seats {game.players} players, got {len(players)}")
    if budget <= 0:
        raise ArenaError(f"the budget must be positive, got {budget}")
    if chance is None:
        chance = DealStream(seed, game=name)
    seat_names = list(names) if names is not None else [str(p.name) for p in players]
    listeners: list[Listener] = []
    if on_move is not None:
        hook = on_move
        listeners.append(lambda e: hook(e.game, e.seat, e.action, e.seconds)
                         if isinstance(e, Moved) and e.seat != CHANCE else None)
    table = Referee(game, chance, [BotSeat(p, budget=budget, tolerance=tolerance, name=seat_names[s], clock=clock)
                                   for s, p in enumerate(players)], listeners=listeners, name=name)
    table.play()
    record_meta = dict(meta or {})
    record_meta["faults"] = [f.to_json() for s in table.stats for f in s.faults]
    record = record_of(game, seat_names, record_meta, name=name)
    return MatchOutcome(game, record, table.stats, tuple(table.deal_points))


def refereed_action(game: Game, seat: int, player: Any, *, budget: float = DEFAULT_BUDGET,
                    tolerance: float = DEFAULT_TOLERANCE, name: str | None = None,
                    clock: Callable[[], float] = time.perf_counter) -> tuple[Action, float, Fault | None]:
    """Ask ``player`` (in ``seat``, which must be the seat to act) for one decision, refereed.

    Returns the action to apply (the player's, or the game's ``default_action()`` when it
    faulted), the seconds it took, and the :class:`Fault` if there was one. Nothing is applied
    here, so a terminal or web table can use it for its bot seats too.
    """
    action: Action
    action, seconds, fault = referee(game.view(seat), seat, player, default=game.default_action,
                                     deal=len(game.results) + 1, budget=budget,
                                     tolerance=tolerance, name=name, clock=clock)
    return action, seconds, fault
