"""Persistence: SQLite by default, PostgreSQL by URL, schema migrations with alembic."""

from callbreak.store.db import (
    LeaseLost,
    Store,
    StoredGame,
    StoreError,
    default_url,
    normalize_url,
    sqlite_file,
    store_away,
)
from callbreak.store.queue import NewGame, Party, Place

__all__ = ["LeaseLost", "NewGame", "Party", "Place", "Store", "StoreError", "StoredGame",
           "default_url", "normalize_url", "sqlite_file", "store_away"]
