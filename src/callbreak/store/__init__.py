"""Persistence: SQLite by default, PostgreSQL by URL, schema migrations with alembic."""

from callbreak.store.db import LeaseLost, Store, StoredGame, StoreError, default_url, normalize_url

__all__ = ["LeaseLost", "Store", "StoreError", "StoredGame", "default_url", "normalize_url"]
