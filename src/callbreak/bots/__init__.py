"""Players that see only a seat view, found by name for each game.

Importing this package registers the built-in bots: ``random`` (every game), ``beginner``,
``heuristic`` and ``expert`` (Call Break and Call Bridge), the styles that are not ours
(``greedy``, ``ismcts``, ``heuristic-overcall``, ``heuristic-undercall``: Call Break and Call
Bridge), ``heuristic`` and ``search`` (the related games).
"""

from callbreak.bots import expert, games_bots, heuristic, neural, simple, styles  # noqa: F401  (they register)
from callbreak.bots.base import (
    CALL_BREAK_ENGINE,
    Bot,
    BotError,
    BotOf,
    Decision,
    Remembers,
    available,
    bots_for,
    describe,
    make_bot,
    needs_kernel,
    plays,
    register,
)

__all__ = ["CALL_BREAK_ENGINE", "Bot", "BotError", "BotOf", "Decision", "Remembers", "available", "bots_for", "describe",
           "make_bot", "needs_kernel", "plays", "register"]
