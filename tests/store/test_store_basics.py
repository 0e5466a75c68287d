"""The store on SQLite and PostgreSQL: games and ordered actions, results, sheets, migrations."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy import update
from store_helpers import db_url_fixture  # noqa: F401 (fixture)

from callbreak.store import Store, StoreError, normalize_url
from callbreak.store.db import LeaseLost
from callbreak.store.models import GameRow


def test_games_keep_their_actions_in_order(db_url: str) -> None:
    store = Store(db_url)
    gid = store.create_game("CODE1", {"preset": "callbreak", "seed": 4}, [{"kind": "open"}] * 4)
    for seq in range(5):
        store.append_action(gid, seq, {"type": "call", "seat": seq % 4, "tricks": seq + 1})
    with pytest.raises(StoreError):  # the same version can never be written twice
        store.append_action(gid, 3, {"type": "call", "seat": 0, "tricks": 1})
    store.update_game(gid, status="playing", seats=[{"kind": "bot"}] * 4)
    got = store.load_game("CODE1")
    assert got is not None and got.status == "playing" and got.seats == [{"kind": "bot"}] * 4
    assert [a["tricks"] for a in got.actions] == [1, 2, 3, 4, 5]
    assert got.config == {"preset": "callbreak", "seed": 4}
    assert [g.code for g in store.load_games("playing")] == ["CODE1"]
    assert store.load_game("NOPE") is None
    store.close()


def test_results_feed_history_and_player_statistics(db_url: str) -> None:
    store = Store(db_url)
    for n, (winner, made) in enumerate([(0, 3), (1, 5)]):
        gid = store.create_game(f"G{n}", {"preset": "callbreak"}, [])
        store.finish_game(gid, [
            {"seat": s, "name": ["Ann", "Bob", "Cat", "Dan"][s], "kind": "human", "total": 10 * s,
             "winner": s == winner, "deals": 5, "calls_made": made if s == 0 else 1, "points": 10 * s + n}
            for s in range(4)])
    history = store.finished_games()
    assert {g["code"] for g in history} == {"G0", "G1"} and len(history[0]["seats"]) == 4
    stats = {r["name"]: r for r in store.player_stats()}
    assert stats["Ann"] == {"name": "Ann", "kind": "human", "player": None, "games": 2, "wins": 1,
                            "deals": 10, "points": 1, "calls_made": 8}
    assert stats["Bob"]["wins"] == 1 and stats["Cat"]["wins"] == 0
    store.close()


def test_two_people_with_one_name_are_two_leaderboard_rows(db_url: str) -> None:
    store = Store(db_url)
    # Two browsers (guest identities) both call themselves Ann; a third game has no identity.
    for n, player in enumerate(["k" * 32, "m" * 32, "k" * 32, None]):
        gid = store.create_game(f"G{n}", {"preset": "callbreak"}, [])
        store.finish_game(gid, [{"seat": 0, "name": "Ann", "kind": "human", "total": 10, "winner": True,
                                 "deals": 5, "calls_made": 3, "points": 10, "player": player}])
    rows = sorted((r["player"] or "", r["games"]) for r in store.player_stats() if r["name"] == "Ann")
    assert rows == [("", 1), ("kkkkkkkk", 2), ("mmmmmmmm", 1)]
    store.close()


def test_sheets_round_trip(db_url: str) -> None:
    store = Store(db_url)
    store.create_sheet("S1", "hash", {"deals": []})
    store.update_sheet("S1", {"deals": [1]})
    assert store.load_sheet("S1") == ("hash", {"deals": [1]})
    assert store.load_sheet("S2") is None
    store.close()


def test_migrating_twice_is_harmless_and_data_survives(db_url: str) -> None:
    first = Store(db_url)
    first.create_game("KEEP", {}, [])
    first.close()
    second = Store(db_url)  # runs the migrations again: already at head
    assert second.load_game("KEEP") is not None
    second.close()


def test_urls() -> None:
    assert normalize_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("sqlite:///x.db") == "sqlite:///x.db"
    assert normalize_url("games.db").startswith("sqlite:///")
    with pytest.raises(StoreError):
        Store("nosuchdriver://x")


def test_bot_memories_go_with_the_action_they_were_stored_with(db_url: str) -> None:
    """What a seat's bot learnt is written in the action's commit, or not at all: a refused
    action (a version taken, a lease lost) leaves the memories of the last stored one."""
    store = Store(db_url)
    gid = store.create_game("MINDS", {"preset": "callbreak"}, [], status="playing")
    assert store.load_game("MINDS").memories == {}  # type: ignore[union-attr]
    reading = {"deal": 1, "prior": {}, "reading": {"2": [0.1, 0.2, 0.3, 0.4]}}
    store.append_action(gid, 0, {"type": "call", "seat": 1, "tricks": 3}, memories={1: reading})
    store.append_action(gid, 1, {"type": "call", "seat": 2, "tricks": 2})  # (a person's: none to keep)
    assert store.load_game("MINDS").memories == {1: reading}  # type: ignore[union-attr]
    with pytest.raises(StoreError):
        store.append_action(gid, 1, {"type": "call", "seat": 2, "tricks": 4}, memories={1: reading, 2: reading})
    epoch = store.acquire_lease(gid, "proc-a", ttl=30)
    assert epoch is not None
    with pytest.raises(LeaseLost):
        store.append_action(gid, 2, {"type": "call", "seat": 3, "tricks": 1}, epoch=epoch - 1, memories={3: reading})
    assert store.load_game("MINDS").memories == {1: reading}  # type: ignore[union-attr]
    store.append_action(gid, 2, {"type": "call", "seat": 3, "tricks": 1}, epoch=epoch, memories={1: reading, 3: reading})
    assert store.load_game("MINDS").memories == {1: reading, 3: reading}  # type: ignore[union-attr]
    store.close()


def test_unreadable_bot_memories_leave_the_game_playable(db_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """Memories make the bots play as they would have, not the game: a damaged value is left out
    (the bots start afresh), with a warning, and the game loads."""
    store = Store(db_url)
    gid = store.create_game("DAMAGED", {"preset": "callbreak"}, [], status="playing")
    store.append_action(gid, 0, {"type": "call", "seat": 1, "tricks": 3})
    with store.engine.begin() as conn:
        conn.execute(update(GameRow).where(GameRow.id == gid).values(bot_memories="{not json"))
    with caplog.at_level(logging.WARNING, logger="callbreak.store"):
        got = store.load_game("DAMAGED")
    assert got is not None and got.memories == {} and len(got.actions) == 1
    assert "DAMAGED" in caplog.text and "unreadable" in caplog.text
    store.close()


def _schema_at(db_url: str, revision: str) -> None:
    """The database's schema as the migrations up to ``revision`` made it (an older install's)."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    from callbreak.store.db import MIGRATIONS

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    engine = create_engine(db_url)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
    engine.dispose()


@pytest.mark.parametrize("revision", ["0001", "0002", "0003", "0004", "0005", "0006"])
def test_a_database_of_each_earlier_version_opens_with_its_games(db_url: str, revision: str) -> None:
    """An install upgraded from any earlier version: its database migrates on start, and the
    games it held load with their actions."""
    from sqlalchemy import create_engine, text

    _schema_at(db_url, revision)
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO games (code, status, config, seats, created_at) VALUES "
                          "('OLDONE', 'playing', '{\"seed\": 1}', '[]', '2026-11-01 10:00:00')"))
        game_id = conn.execute(text("SELECT id FROM games WHERE code = 'OLDONE'")).scalar_one()
        conn.execute(text("INSERT INTO actions (game_id, seq, action) VALUES (:g, 0, '{\"type\": \"deal\"}')"),
                     {"g": game_id})
    engine.dispose()
    store = Store(db_url)
    game = store.load_game("OLDONE")
    store.close()
    assert game is not None and game.status == "playing" and game.config == {"seed": 1}
    assert game.actions == [{"type": "deal"}] and game.memories == {}


def test_a_database_a_newer_version_wrote_is_refused_by_name_and_left_as_it_was(db_url: str) -> None:
    """A downgrade onto a database a newer callbreak migrated: the store refuses it, saying so,
    before changing anything."""
    from sqlalchemy import create_engine, text

    first = Store(db_url)
    first.create_game("KEEP", {}, [])
    first.close()
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0099'"))
    with pytest.raises(StoreError, match="revision '0099'.*newer version wrote it.*nothing was changed"):
        Store(db_url)
    with engine.begin() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == "0099"
        assert conn.execute(text("SELECT count(*) FROM games WHERE code = 'KEEP'")).scalar_one() == 1
    engine.dispose()
