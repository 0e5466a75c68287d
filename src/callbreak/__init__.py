"""Call Break: a rules engine, bots, an arena, and ways to play."""

__version__ = "0.4.0"  # (the one place; pyproject.toml reads it; CHANGELOG.md says what each brought)
