"""Matches between players: the refereed match runner, duplicate deals, statistics, ratings."""

from callbreak.arena.duplicate import ArenaPlan, SetResult, TableResult, lineups, run_set, seating
from callbreak.arena.players import build_player, check_player, is_url
from callbreak.arena.runner import (
    ArenaError,
    DealStream,
    MatchOutcome,
    play_game,
    play_match,
    refereed_action,
)
from callbreak.arena.tournament import (
    ArenaInterrupted,
    ArenaReport,
    PlayerSummary,
    default_workers,
    run_arena,
    run_sets,
    sets_for,
    summarise,
)
from callbreak.referee import DEFAULT_BUDGET, DEFAULT_TOLERANCE, Fault, SeatStats

__all__ = [
    "DEFAULT_BUDGET", "DEFAULT_TOLERANCE", "ArenaError", "ArenaInterrupted", "ArenaPlan", "ArenaReport", "DealStream",
    "Fault", "MatchOutcome", "PlayerSummary", "SeatStats", "SetResult", "TableResult", "build_player",
    "check_player", "default_workers", "is_url", "lineups", "play_game", "play_match",
    "refereed_action", "run_arena", "run_set", "run_sets", "seating", "sets_for", "summarise",
]
