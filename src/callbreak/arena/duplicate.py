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

from callbreak.arena.players import build_player
from callbreak.arena.runner import (
    DEFAULT_BUDGET,
    DEFAULT_TOLERANCE,
    PLAYERS,
    UNLIMITED_MATCH_DEALS,
    ArenaError,
    DealStream,
    Fault,
    play_match,
)
from callbreak.core import Rules
from callbreak.core.scoring import made
from callbreak.record import dumps

ROTATIONS = 4


def lineups(players: int, partnership: bool = False) -> list[tuple[int, ...]]:
    """Which player fills each seat before rotation (see the module docstring)."""
    if partnership:
        if players == 2:
            return [(0, 1, 0, 1)]  # a pair against a pair
        if players == 3:
            raise ArenaError("under partnership rules the arena takes 2 players (a pair each) or 4 "
                             "(the 1st and 3rd against the 2nd and 4th), not 3")
    if players == 4:
        return [(0, 1, 2, 3)]
    if players == 2:
        return [(0, 1, 1, 1)]
    if players == 3:
        return [(k, (k + 1) % 3, (k + 2) % 3, k) for k in range(3)]
    raise ArenaError(f"the arena takes 2, 3 or 4 players, got {players}")


def rotations(players: int, partnership: bool = False) -> range:
    """The rotations each lineup is played in: every seat, or, for a pair against a pair, both
    ways round (two more turns would repeat the same tables)."""
    return range(2) if partnership and players == 2 else range(ROTATIONS)


def seating(lineup: Sequence[int], rotation: int) -> tuple[int, ...]:
    """The lineup turned ``rotation`` seats: the player at lineup slot i sits in seat i + rotation."""
    return tuple(lineup[(seat - rotation) % PLAYERS] for seat in range(PLAYERS))


def tables_per_set(players: int, partnership: bool = False) -> int:
    return len(lineups(players, partnership)) * len(rotations(players, partnership))


def _derived_seed(*parts: object) -> int:
    """A 32-bit seed that depends only on ``parts`` (stable across processes and machines)."""
    return zlib.crc32("/".join(map(str, parts)).encode())


@dataclass(frozen=True, slots=True)
class ArenaPlan:
    """Everything a worker needs to play any duplicate set of a run (picklable)."""

    players: tuple[str, ...]  # player specs, as given
    rules: Rules
    seed: int
    sets: int
    budget: float = DEFAULT_BUDGET
    tolerance: float = DEFAULT_TOLERANCE
    keep_records: bool = False
    names: tuple[str, ...] = ()  # how players are shown (default: their specs)

    @property
    def display_names(self) -> tuple[str, ...]:
        return self.names or self.players

    @property
    def stop_after(self) -> int | None:
        return UNLIMITED_MATCH_DEALS if self.rules.deals is None else None

    @property
    def deals_per_match(self) -> int:
        return self.rules.deals or UNLIMITED_MATCH_DEALS


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


def run_set(plan: ArenaPlan, set_index: int, on_table: Callable[[], None] | None = None) -> SetResult:
    """Play duplicate set ``set_index`` of ``plan``: the set's seeded match at every seating.

    Everything random is derived from (plan.seed, set_index, seating), so a set gives the same
    result in any process, in any order. ``on_table`` is called as each table finishes (progress).
    """
    tables = []
    partnership = plan.rules.partnership
    for li, lineup in enumerate(lineups(len(plan.players), partnership)):
        for rotation in rotations(len(plan.players), partnership):
            seats = seating(lineup, rotation)
            bots = [build_player(plan.players[p], seed=_derived_seed(plan.seed, set_index, li, rotation, s),
                                 timeout=plan.budget + plan.tolerance)
                    for s, p in enumerate(seats)]
            # The same stream for every seating: the same first dealer and the same deals.
            chance = DealStream(f"{plan.seed}/{set_index}", stop_after=plan.stop_after)
            names = [plan.display_names[p] for p in seats]
            meta = {"arena": {"seed": plan.seed, "set": set_index, "lineup": li, "rotation": rotation,
                              "budget": plan.budget, "players": [plan.players[p] for p in seats]}}
            out = play_match(plan.rules, bots, chance=chance, budget=plan.budget,
                             tolerance=plan.tolerance, names=names, meta=meta)
            m = out.match
            rules = plan.rules
            made_flags = []
            for r in m.results:
                if rules.partnership:
                    flags = tuple(made(r.calls[s % 2] + r.calls[s % 2 + 2], r.won[s % 2] + r.won[s % 2 + 2],
                                       rules) for s in range(PLAYERS))
                else:
                    flags = tuple(made(r.calls[s], r.won[s], rules) for s in range(PLAYERS))
                made_flags.append(flags)
            tables.append(TableResult(
                set_index=set_index, lineup=li, rotation=rotation, seat_players=seats,
                points=tuple(r.points for r in m.results), made=tuple(made_flags),
                totals=tuple(m.totals), winners=tuple(m.winners),
                times=tuple(tuple(s.times) for s in out.seats), faults=tuple(out.faults),
                record=dumps(out.record) if plan.keep_records else None,
            ))
            if on_table is not None:
                on_table()
    return SetResult(set_index, tuple(tables))
