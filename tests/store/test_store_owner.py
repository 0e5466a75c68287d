"""One server for a SQLite database: the owner file beside it (store/owner.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from callbreak.store import sqlite_file
from callbreak.store.owner import DatabaseInUse, Owner, claim, owner_path


def test_a_second_claim_is_refused_naming_the_holder_and_a_release_lets_it_in(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    first = claim(db, "http://127.0.0.1:8781")
    with pytest.raises(DatabaseInUse) as refused:
        claim(db, "http://127.0.0.1:8782")
    message = str(refused.value)
    assert str(db) in message
    assert "the server at http://127.0.0.1:8781" in message
    assert f"process {os.getpid()} on this machine" in message and "started " in message
    assert "--db" in message and "PostgreSQL" in message and "--workers" in message
    first.release()
    second = claim(db, "http://127.0.0.1:8782")
    assert second.previous is None  # the first stopped cleanly
    second.release()
    assert owner_path(db).read_text() == ""  # nobody owns it now


def test_a_holder_that_died_without_releasing_is_followed_and_named(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    crashed = claim(db, "http://127.0.0.1:8781")
    assert crashed._fd is not None
    os.close(crashed._fd)  # what the kernel does for a killed process: the lock goes, the text stays
    crashed._fd = None
    after = claim(db, "http://127.0.0.1:8781")
    assert after.previous is not None and after.previous.pid == os.getpid()
    assert after.previous.address == "http://127.0.0.1:8781"
    after.release()


def test_the_same_file_by_another_spelling_is_the_same_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "link").symlink_to(tmp_path)
    first = claim(Path("games.db"), "http://a")
    with pytest.raises(DatabaseInUse):
        claim(tmp_path / "link" / "games.db", "http://b")
    first.release()


@pytest.mark.parametrize("text", ["", "{", "[1, 2]", '{"pid": "x", "address": 5}', "\udcff"])
def test_an_owner_file_cut_short_or_foreign_reads_as_an_unknown_server(text: str) -> None:
    owner = Owner.read(text)
    assert owner.pid is None and owner.address is None
    assert owner.describe() == "a server"


def test_only_a_sqlite_file_has_an_owner_file(tmp_path: Path) -> None:
    assert sqlite_file(f"sqlite:///{tmp_path / 'a.db'}") == tmp_path / "a.db"
    assert sqlite_file(str(tmp_path / "b.db")) == tmp_path / "b.db"  # a bare path is SQLite
    assert sqlite_file("sqlite://") is None and sqlite_file("sqlite:///:memory:") is None
    assert sqlite_file("postgresql://u@h/db") is None
    assert sqlite_file("not a url at all ://") is None
