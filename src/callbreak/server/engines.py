"""A table's game, from its stored settings, through the registry: one path for every game.

A table's configuration names a registered game (older tables have no ``game``: Call Break), its
seat count, preset and options, and the table settings (deals, turn timer, bots). Everything here
asks the game registry (:mod:`callbreak.games`) and the bot registry (:mod:`callbreak.bots`); no
game is a special case.
"""

from __future__ import annotations

from typing import Any

from callbreak.bots import bots_for, needs_kernel
from callbreak.bots.base import catalog
from callbreak.core import CallbreakError, Stop
from callbreak.core.actions import Action, action_from_json
from callbreak.core.game import Game, GameView
from callbreak.core.words import N_
from callbreak.games import GameInfo, game_info
from callbreak.games.registry import option_names
from callbreak.server import players
from callbreak.server.wire import MessageError

CALLBREAK = "callbreak"
"""The game of a table whose stored settings name none (tables made before there were others)."""

BOT_PREFERENCE = ("expert", "search", "heuristic", "beginner", "random")
"""Strongest first: a table's default bot, its stand-in for absent players and its hints."""


def game_of(config: dict[str, Any]) -> str:
    return str(config.get("game", CALLBREAK))


def info_of(config: dict[str, Any]) -> GameInfo:
    return game_info(game_of(config))


def seat_count(config: dict[str, Any]) -> int:
    return int(config.get("players", info_of(config).default_seats))


def game_options(config: dict[str, Any]) -> Any:
    """The game's options value for a table: its preset and options, plus the table's deals and
    turn timer where the game's rules have such options (Call Break's do)."""
    info = info_of(config)
    overrides = dict(config.get("options") or {})
    names = option_names(info)
    for option, setting in (("deals", "deals"), ("turn_timer", "timer")):
        if option in names:
            overrides[option] = config.get(setting)
    return info.make_options(config.get("preset"), overrides)


def counts_deals(config: dict[str, Any]) -> bool:
    """Whether the game's rules take the table's deal count (Call Break's do; with none set, the
    table plays until the host stops it)."""
    return "deals" in option_names(info_of(config))


def new_game(config: dict[str, Any]) -> Game:
    """A fresh game for a table's stored settings."""
    return info_of(config).create(seat_count(config), game_options(config))


def chance(config: dict[str, Any], game: Game, seed: int, stop: bool = False) -> Action:
    """The chance step ``game`` waits for, from the game's dealer seeded by ``seed``; ``stop``
    ends a table whose rules never end it (unlimited deals) at the first moment it may stop."""
    if stop and game.can_stop:
        return Stop()
    return info_of(config).dealer(seed).chance(game)


def stored_action(data: Any) -> Action:
    """An action read back from the store."""
    return action_from_json(data)


# --- bots -----------------------------------------------------------------------------------


def bot_levels(config: dict[str, Any]) -> list[str]:
    """The bots people may seat at a table of this game."""
    return bots_for(game_of(config))


def bot_descriptions(config: dict[str, Any]) -> dict[str, str]:
    """What the lobby tells people of each bot they may seat at a table of this game."""
    return {e.name: e.description for e in catalog(game_of(config)) if e.installed}


def strongest_bot(config: dict[str, Any]) -> str:
    names = set(bot_levels(config))
    return next((n for n in BOT_PREFERENCE if n in names), sorted(names)[0])


def bot_needs_kernel(config: dict[str, Any], spec: str) -> bool:
    """Whether the bot ``spec`` runs on the compiled kernel at a table of this game (the expert):
    only such a bot waits while the server makes the kernel ready."""
    return not players.is_url(spec) and needs_kernel(spec, game_of(config))


def requested_bots(settings: Any) -> list[str]:
    """The bots a create-table request asks for (its default: the game's strongest on every
    seat), read as :func:`~callbreak.server.tables.parse_config` reads them; nothing for a
    request it would refuse."""
    if not isinstance(settings, dict):
        return []
    try:
        bots = settings.get("bots", [strongest_bot(settings)])
    except CallbreakError:  # not a registered game: refused on its own
        return []
    bots = [bots] if isinstance(bots, str) else bots
    return [b for b in bots if isinstance(b, str)] if isinstance(bots, list) else []


def decide(config: dict[str, Any], spec: str, seed: int, view: GameView, budget: float,
           memory: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any] | None]:
    """One decision (``.action``, ``.reason``) by a fresh bot for the table's game (worker thread),
    handed the seat's memory; and the memory after it (:func:`callbreak.server.players.decide`)."""
    return players.decide(spec, seed, view, budget, game=game_of(config), memory=memory)


# --- the end of a game ----------------------------------------------------------------------


def results(game: Game, seat_names: list[tuple[str, str]], config: dict[str, Any]) -> list[dict[str, Any]]:
    """One stored result row per seat (``seat_names``: each seat's name and kind), the same for
    every game: ``total`` is the final score in tenths of a point, ``points`` the sum of what each
    deal gained the seat in tenths (higher is better, so a race-down game's points are its
    progress down), ``deals`` the deals scored and ``calls_made`` those that gained it points (in
    Call Break: the calls made)."""
    per_deal = _deal_points(config, game)
    return [{"seat": s, "name": name, "kind": kind, "total": round(10 * game.scores[s]),
             "winner": s in game.winners, "deals": len(per_deal),
             "calls_made": sum(1 for deal in per_deal if deal[s] > 0),
             "points": round(10 * sum(deal[s] for deal in per_deal))}
            for s, (name, kind) in enumerate(seat_names)]


def _deal_points(config: dict[str, Any], game: Game) -> list[list[float]]:
    """Each scored deal's points per seat (higher better), replayed from the game's history."""
    sign = -1 if info_of(config).low_wins else 1
    replay = new_game(config)
    out: list[list[float]] = []
    before = list(replay.scores)
    for action in game.history:
        replay.apply(action)
        if len(replay.results) > len(out):
            now = list(replay.scores)
            out.append([sign * (a - b) for a, b in zip(now, before, strict=True)])
            before = now
    return out


def check_bot(config: dict[str, Any], spec: Any) -> str:
    """A bot spec for a seat at this table, checked (a URL only where the protocol plays)."""
    try:
        return players.check_spec(spec, game=game_of(config))
    except CallbreakError as e:
        raise MessageError("bad_config", N_("these settings are not valid: {problem}"), problem=str(e), english=str(e)) from None
