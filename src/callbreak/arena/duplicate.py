"""Duplicate play: the same seeded deals replayed with the players rotated through every seat.

A *duplicate set* is one seeded match (its first dealer and its stream of deals) played once per
seating. A seating puts a *lineup* (which player fills each seat) in one of four rotations, so
every player holds every seat's cards once per lineup and the luck of the deal cancels.

Lineups, by the number of distinct players:

* 4 players ``A B C D``: the lineup itself, rotated 4 ways (4 tables a set).
* 2 players ``A B``: ``A`` against three copies of ``B`` (``A B B B``), ``A`` rotated through the
  four seats (4 tables a set). The first player is the one measured against a field of the second.
* 3 players ``A B C``: each player in turn takes the spare seat (``A B C A``, ``B C A B``,
  ``C A B C``), each rotated 4 ways (12 tables a set); every player sits every seat equally often.
* Under partnership rules, 2 players are a pair against a pair (``A B A B`` and ``B A B A``, 2
  tables a set); 4 players are the 1st and 3rd against the 2nd and 4th, rotated 4 ways; 3 players
  are refused (someone would partner themselves against themselves).

Any registered game (``ArenaPlan.game``; Call Break by default) is seated the same way at its own
table size (see :func:`lineups`), with the bots that play it, and dealt from its seeded dealer.

A set is the unit of work (one task for a worker) and the unit of the confidence intervals, so
they reflect the variance that remains after duplication.

>>> lineups(2)
[(0, 1, 1, 1)]
>>> [seating((0, 1, 1, 1), r) for r in range(4)]
[(0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 0, 1), (1, 1, 1, 0)]
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from callbreak.arena.players import build_player
from callbreak.arena.runner import (
    PLAYERS,
    UNLIMITED_MATCH_DEALS,
    ArenaError,
    DealStream,
    play_game,
)
from callbreak.core.game import Game
from callbreak.games import GameInfo, game_info
from callbreak.record import dumps
from callbreak.referee import DEFAULT_BUDGET, DEFAULT_TOLERANCE, Fault

ROTATIONS = 4


def lineups(players: int, partnership: bool = False, seats: int = PLAYERS) -> list[tuple[int, ...]]:
    """Which player fills each seat before rotation (see the module docstring).

    ``seats`` is the table size (4 for Call Break; 3 to 8 for the related games). The rule is
    the same at any size: as many players as seats sit once each; 2 players are the first
    against copies of the second; otherwise the players fill the seats in turn, each lineup
    starting one player later, so every player sits every seat equally often.

    >>> lineups(3, seats=5)
    [(0, 1, 2, 0, 1), (1, 2, 0, 1, 2), (2, 0, 1, 2, 0)]
    """
    if partnership:
        if players == 2:
            return [(0, 1, 0, 1)]  # a pair against a pair
        if players == 3:
            raise ArenaError("under partnership rules the arena takes 2 players (a pair each) or 4 "
                             "(the 1st and 3rd against the 2nd and 4th), not 3")
    if not 2 <= players <= min(4, seats):
        counts = "2, 3 or 4" if seats >= 4 else "2 or 3"
        raise ArenaError(f"the arena takes {counts} players at a table of {seats}, got {players}")
    if players == seats:
        return [tuple(range(seats))]
    if players == 2:
        return [(0, *([1] * (seats - 1)))]
    starts = range(1) if seats % players == 0 else range(players)
    return [tuple((k + i) % players for i in range(seats)) for k in starts]


def rotations(players: int, partnership: bool = False, seats: int = PLAYERS) -> range:
    """The rotations each lineup is played in: every seat, or, for a pair against a pair, both
    ways round (two more turns would repeat the same tables)."""
    return range(2) if partnership and players == 2 else range(seats)


def seating(lineup: Sequence[int], rotation: int) -> tuple[int, ...]:
    """The lineup turned ``rotation`` seats: the player at lineup slot i sits in seat i + rotation."""
    n = len(lineup)
    return tuple(lineup[(seat - rotation) % n] for seat in range(n))


def tables_per_set(players: int, partnership: bool = False, seats: int = PLAYERS) -> int:
    return len(lineups(players, partnership, seats)) * len(rotations(players, partnership, seats))


def _derived_seed(*parts: object) -> int:
    """A 32-bit seed that depends only on ``parts`` (stable across processes and machines)."""
    return zlib.crc32("/".join(map(str, parts)).encode())


@dataclass(frozen=True, slots=True)
class ArenaPlan:
    """Everything a worker needs to play any duplicate set of a run (picklable).

    ``game`` is a registry name; ``options`` the game's options value (``game_info(game)
    .make_options``: Call Break's :class:`~callbreak.core.rules.Rules`, a related game's own);
    ``table_size`` the seats at each table (None: the game's usual number).
    """

    players: tuple[str, ...]  # player specs, as given
    options: Any
    seed: int
    sets: int
    budget: float = DEFAULT_BUDGET
    tolerance: float = DEFAULT_TOLERANCE
    keep_records: bool = False
    names: tuple[str, ...] = ()  # how players are shown (default: their specs)
    game: str = "callbreak"
    table_size: int | None = None

    @property
    def info(self) -> GameInfo:
        return game_info(self.game)

    @property
    def display_names(self) -> tuple[str, ...]:
        return self.names or self.players

    @property
    def deals_per_match(self) -> int:
        """Deals a game has: its hand limit or number of deals; where the rules set neither, the
        5 the arena stops an unlimited Call Break table at, or an estimate of 10."""
        limit = self.options.deal_limit
        if limit:
            return int(limit)
        return UNLIMITED_MATCH_DEALS if self.new_game().STOPPABLE else 10

    @property
    def partnership(self) -> bool:
        return bool(self.options.partnership)

    @property
    def seats(self) -> int:
        """Seats at each table."""
        return self.info.check_seats(self.table_size)

    @property
    def tables_in_set(self) -> int:
        return tables_per_set(len(self.players), self.partnership, self.seats)

    def new_game(self) -> Game:
        """A fresh game of this plan (raises :class:`RulesError` for bad settings)."""
        return self.info.create(self.seats, self.options)


@dataclass(frozen=True, slots=True)
class TableResult:
    """One match of a set, at one seating. Points are tenths, per deal and per seat."""

    set_index: int
    lineup: int
    rotation: int
    seat_players: tuple[int, ...]  # player index in each seat
    points: tuple[tuple[int, ...], ...]  # per scored deal, per seat
    made: tuple[tuple[bool, ...], ...]  # per scored deal, per seat: the call was made
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    times: tuple[tuple[float, ...], ...]  # per seat: seconds of each decision
    faults: tuple[Fault, ...]
    record: str | None  # the game record as JSON, when records are kept


@dataclass(frozen=True, slots=True)
class SetResult:
    set_index: int
    tables: tuple[TableResult, ...]


def run_set(plan: ArenaPlan, set_index: int,
            on_table: Callable[[TableResult], None] | None = None) -> SetResult:
    """Play duplicate set ``set_index`` of ``plan``: the set's seeded game at every seating.

    Everything random is derived from (plan.seed, set_index, seating), so a set gives the same
    result in any process, in any order. ``on_table`` is called with each table as it finishes
    (progress, and its faults to announce).
    Points are tenths, higher better (a race-down game's points have their sign flipped); a seat
    "made" a deal when the deal gained it points (in Call Break: its call was made).
    """
    tables = []
    n, partnership, size = len(plan.players), plan.partnership, plan.seats
    for li, lineup in enumerate(lineups(n, partnership, size)):
        for rotation in rotations(n, partnership, size):
            seats = seating(lineup, rotation)
            bots = [build_player(plan.players[p], seed=_derived_seed(plan.seed, set_index, li, rotation, s),
                                 timeout=plan.budget + plan.tolerance, game=plan.game)
                    for s, p in enumerate(seats)]
            # The same stream for every seating: the same first dealer and the same deals.
            chance = DealStream(f"{plan.seed}/{set_index}", game=plan.game)
            names = [plan.display_names[p] for p in seats]
            meta = {"arena": {"seed": plan.seed, "set": set_index, "lineup": li, "rotation": rotation,
                              "budget": plan.budget, "players": [plan.players[p] for p in seats]}}
            out = play_game(plan.new_game(), bots, name=plan.game, chance=chance, budget=plan.budget,
                            tolerance=plan.tolerance, names=names, meta=meta)
            points = out.deal_points
            table = TableResult(
                set_index=set_index, lineup=li, rotation=rotation, seat_players=seats,
                points=points, made=tuple(tuple(p > 0 for p in deal) for deal in points),
                totals=tuple(sum(deal[s] for deal in points) for s in range(size)),
                winners=tuple(out.game.winners),
                times=tuple(tuple(s.times) for s in out.seats), faults=tuple(out.faults),
                record=dumps(out.record) if plan.keep_records else None,
            )
            tables.append(table)
            if on_table is not None:
                on_table(table)
    return SetResult(set_index, tuple(tables))
