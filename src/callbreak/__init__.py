"""Call Break: a rules engine, bots, an arena, and ways to play."""

__version__ = "0.1.0"
