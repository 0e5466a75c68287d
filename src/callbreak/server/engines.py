"""The games a table can hold, behind one interface the table service drives.

A table holds either a Call Break match (any preset of the core engine) or one of the related
games of :mod:`callbreak.games`. Both have the same shape (``to_act``, ``verify``, ``apply``,
``view``, ``history``, ``default_action``...), so the table service only needs, per kind of game:
how to build one from the stored settings, how to deal, how to read a stored or client action,
how to turn a seat's view into JSON, which bots play it, and what to record when it ends.
"""

from __future__ import annotations

from typing import Any

from callbreak.bots.games_bots import game_bot_names, make_game_bot
from callbreak.core import CallbreakError, Card, Dealer, Match, make_rules
from callbreak.core.actions import action_from_json
from callbreak.core.errors import RecordError
from callbreak.core.scoring import made
from callbreak.games import GAMES, GameAction, GameDealer, GameView, TrickGame, make_trick_game
from callbreak.games.actions import game_action_from_json
from callbreak.server import players
from callbreak.server.wire import MessageError, cards_json

CALLBREAK = "callbreak"
"""The ``game`` of a Call Break table (the preset says which rules)."""

RELATED_CLIENT_ACTIONS = {"play", "bid", "pass", "trump", "join", "exchange", "settle"}
"""Action kinds a client may send in a related game; the deal belongs to the server."""

GAME_BOT_PREFERENCE = ("search", "heuristic", "random")


def related_games() -> dict[str, Any]:
    """The related games a table may hold, by registry name (Call Bridge is a Call Break preset)."""
    return {name: info for name, info in GAMES.items() if info.cls is not None}


def game_of(config: dict[str, Any]) -> str:
    """The game a stored table configuration is for (older tables have no ``game``: Call Break)."""
    return str(config.get("game", CALLBREAK))


def is_related(config: dict[str, Any]) -> bool:
    return game_of(config) != CALLBREAK


def seat_count(config: dict[str, Any]) -> int:
    return int(config.get("players", 4))


# --- building and dealing -------------------------------------------------------------------


def new_game(config: dict[str, Any]) -> Match | TrickGame:
    """A fresh game for a table's stored settings."""
    if is_related(config):
        return make_trick_game(config["game"], config["players"], **config["options"])
    rules = make_rules(config["preset"], **{**config["options"], "deals": config["deals"],
                                             "turn_timer": config["timer"]})
    return Match(rules)


def chance(game: Match | TrickGame, seed: int, stop: bool = False) -> Any:
    """The chance step ``game`` waits for, from a dealer seeded by ``seed`` (``stop``: end an
    unlimited Call Break table here if it may stop)."""
    if isinstance(game, TrickGame):
        return GameDealer(seed=seed).chance(game)
    return Dealer(seed=seed).chance(game, stop=stop)


def stored_action(game: Match | TrickGame, data: Any) -> Any:
    """An action read back from the store."""
    if isinstance(game, TrickGame):
        return game_action_from_json(data)
    return action_from_json(data)


def parse_related_action(data: Any, seat: int) -> GameAction:
    """The related-game action a client sent for ``seat``; its seat may be omitted but not wrong."""
    if not isinstance(data, dict):
        raise MessageError("malformed", "'action' must be an object like {\"type\": \"bid\", \"tricks\": 6}")
    kind = data.get("type")
    if kind not in RELATED_CLIENT_ACTIONS:
        raise MessageError("malformed", f"unknown action type {kind!r}; a player may send "
                                        f"{', '.join(sorted(RELATED_CLIENT_ACTIONS))}")
    given = data.get("seat", seat)
    if given != seat or isinstance(given, bool):
        raise MessageError("wrong_seat", f"your token is for seat {seat}, not seat {given!r}")
    try:
        return game_action_from_json({**data, "seat": seat})
    except RecordError as e:
        raise MessageError("malformed", str(e)) from None


# --- bots -----------------------------------------------------------------------------------


def bot_levels(config: dict[str, Any]) -> list[str]:
    return game_bot_names() if is_related(config) else players.bot_levels()


def strongest_bot(config: dict[str, Any]) -> str:
    if not is_related(config):
        return players.strongest_bot()
    names = set(game_bot_names())
    return next((n for n in GAME_BOT_PREFERENCE if n in names), sorted(names)[0])


def check_game_bot(spec: Any) -> str:
    if not isinstance(spec, str) or not spec.strip() or len(spec) > 200:
        raise MessageError("bad_config", f"a game bot must be a name like 'heuristic', got {spec!r}")
    try:
        make_game_bot(spec.strip(), seed=0)
    except CallbreakError as e:
        raise MessageError("bad_config", str(e)) from None
    return spec.strip()


def decide(config: dict[str, Any], spec: str, seed: int, view: Any, budget: float) -> Any:
    """One decision (``.action``, ``.reason``) by a fresh bot for the table's game (worker thread)."""
    if is_related(config):
        return make_game_bot(spec, seed=seed).decide(view, budget)
    return players.decide(spec, seed, view, budget)


# --- views as JSON --------------------------------------------------------------------------


def game_personal_json(view: GameView) -> dict[str, Any]:
    """The fields of a related-game view that belong to its seat alone."""
    return {"seat": view.seat, "hand": cards_json(view.hand), "discards": cards_json(view.discards),
            "legal": [a.to_json() for a in view.legal]}


def _card(card: Card | None) -> str | None:
    return None if card is None else card.text


def game_public_json(view: GameView) -> dict[str, Any]:
    """The fields of a related-game view that are the same for every seat (allow-listed)."""
    info = GAMES[view.game]
    cls = info.cls
    return {
        "game": view.game, "title": info.title, "players": view.players,
        "options": view.options.to_dict(), "low_wins": bool(cls is not None and cls.LOW_WINS),
        "phase": view.phase.value, "hand_number": view.hand_number, "dealer": view.dealer,
        "to_act": view.to_act, "hand_sizes": list(view.hand_sizes), "in_game": list(view.in_game),
        "active": list(view.active), "joined": list(view.joined), "bids": list(view.bids),
        "passed": list(view.passed), "declarer": view.declarer, "contract": view.contract,
        "trump": view.trump.letter if view.trump is not None else None, "low_high": view.low_high,
        "trump_broken": view.trump_broken, "upcard": _card(view.upcard),
        "may_sit_out": view.may_sit_out, "leader": view.leader, "trick": cards_json(view.trick),
        "trick_seats": list(view.trick_seats),
        "tricks": [{"leader": t.leader, "seats": list(t.seats), "cards": cards_json(t.cards),
                    "winner": t.winner} for t in view.tricks],
        "won": list(view.won), "scores": list(view.scores),
        "results": [{"number": r.number, "dealer": r.dealer, "declarer": r.declarer,
                     "contract": r.contract, "trump": r.trump.letter if r.trump is not None else None,
                     "active": list(r.active), "won": list(r.won), "points": list(r.points),
                     "note": r.note} for r in view.results],
        "streak": list(view.streak), "exchanged": list(view.exchanged),
        "stock_size": view.stock_size, "notice": view.notice, "winners": list(view.winners),
    }


# --- the end of a game ----------------------------------------------------------------------


def results(game: Match | TrickGame, seat_names: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """One stored result row per seat (``seat_names``: each seat's name and kind).

    A related game's score is stored as its own points in ``total`` (not tenths); its deals,
    calls made and deal points are 0 so the Call Break averages are not mixed with them.
    """
    rows = []
    if isinstance(game, TrickGame):
        for s, (name, kind) in enumerate(seat_names):
            rows.append({"seat": s, "name": name, "kind": kind, "total": game.scores[s],
                         "winner": s in game.winners, "deals": 0, "calls_made": 0, "points": 0})
        return rows
    rules = game.rules
    for s, (name, kind) in enumerate(seat_names):
        rows.append({
            "seat": s, "name": name, "kind": kind, "total": game.totals[s],
            "winner": s in game.winners, "deals": len(game.results),
            "calls_made": sum(1 for r in game.results if made(r.calls[s], r.won[s], rules)),
            "points": sum(r.points[s] for r in game.results)})
    return rows



