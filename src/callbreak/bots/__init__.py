"""Players that see only a seat view."""

from callbreak.bots.base import Bot, BotError, Decision, available, make_bot, register

__all__ = ["Bot", "BotError", "Decision", "available", "make_bot", "register"]
