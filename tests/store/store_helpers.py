"""Database URLs for the store tests: a temporary SQLite file, and PostgreSQL when one is given."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

PG_ENV = "CALLBREAK_TEST_PG_URL"


def fresh_pg_database() -> Iterator[str]:
    """A new empty database on the test PostgreSQL server, dropped afterwards."""
    import psycopg

    base = os.environ[PG_ENV]
    name = f"callbreak_test_{secrets.token_hex(6)}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield base.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(name="db_url", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.db'}"
        return
    if not os.environ.get(PG_ENV):
        pytest.skip(f"{PG_ENV} is not set (scripts/services.sh starts a server and sets it)")
    yield from fresh_pg_database()
