"""Bots for empty seats, stand-ins for absent players, and hints.

A seat's bot is rebuilt for every decision with a seed derived from the table seed, the state
version and the seat, and handed what the seat's bot learnt in the game so far (its memory: the
expert's reading of the other players, :class:`~callbreak.bots.Remembers`), which the table
stores with the action it decided. That makes a table's play a pure function of its seed and its
stored game, so a table resumed after a crash plays on exactly as it would have.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from callbreak.bots import BotError, Decision, Remembers
from callbreak.core import CallbreakError
from callbreak.core.game import GameView
from callbreak.protocol.players import check_url_game, check_url_rules, is_url, make_player

__all__ = ["PlayerError", "build", "check_remote_rules", "check_spec", "decide", "is_url"]

log = logging.getLogger("callbreak.server")


class PlayerError(CallbreakError):
    """A bot spec we cannot seat."""


def check_spec(spec: Any, game: str = "callbreak") -> str:
    """Refuse a bot spec that names nothing we can build for ``game``."""
    if not isinstance(spec, str) or not spec.strip() or len(spec) > 200:
        raise PlayerError(f"a bot must be a level name or a bot URL, got {spec!r}")
    text = str(spec).strip()
    if is_url(text):
        try:
            check_url_game(text, game)
        except BotError as e:
            raise PlayerError(str(e)) from None
        return text
    make_player(text, seed=0, game=game)  # raises BotError naming the bots that play the game
    return text


def check_remote_rules(rules: Any) -> None:
    """A tournament-protocol bot plays only the rules that protocol speaks; refuse others early."""
    try:
        check_url_rules(rules)
    except BotError as e:
        raise PlayerError(f"a bot seated by URL cannot play these rules: {e}") from None


def build(spec: str, seed: int, game: str = "callbreak") -> Any:
    """A fresh player of ``game`` for ``spec``: a registered bot, or a tournament-protocol bot by
    URL (:func:`callbreak.protocol.players.make_player`)."""
    return make_player(spec, seed, game=game)


def decide(spec: str, seed: int, view: GameView, budget: float, game: str = "callbreak",
           memory: Mapping[str, Any] | None = None) -> tuple[Decision, dict[str, Any] | None]:
    """One decision by a freshly built player (run in a worker thread by the server), given the
    seat's ``memory``: the decision, and the memory after it (None: a bot that keeps none)."""
    player = build(spec, seed, game)
    if not isinstance(player, Remembers):
        return player.decide(view, budget), None
    if memory is not None:
        try:
            player.recall(memory)
        except ValueError as e:  # (another kind of bot's: the seat's bot was changed) it starts afresh
            log.warning("bot %s could not take back its seat's memory, and starts afresh: %s", spec, e)
    return player.decide(view, budget), player.memory()
