"""Who made each table, kept so that the limits on one client count its tables over every
process sharing the database (issue 30)."""

from __future__ import annotations

from store_helpers import db_url_fixture  # noqa: F401 (fixture)

from callbreak.store import Store


def test_a_makers_live_and_recent_tables_are_counted(db_url: str) -> None:
    store = Store(db_url)
    try:
        ann = {"guest": "ann-key", "address": "addr-1"}
        for n in range(3):
            store.create_game(f"M{n}", {"preset": "callbreak"}, [], made_by=ann)
        store.create_game("OTHER", {"preset": "callbreak"}, [], made_by={"guest": "bob-key", "address": "addr-1"})
        store.create_game("NOBODY", {"preset": "callbreak"}, [])
        store.finish_game(store.load_game("M0").id, [])  # type: ignore[union-attr]
        counts = store.made_by_counts({"guest": "ann-key", "address": "addr-1"}, 60.0)
        assert counts["guest"][:2] == (2, 3) and counts["address"][:2] == (3, 4)
        assert all(0.0 <= age < 60.0 for _, _, age in counts.values())
        assert store.made_by_counts({"guest": "ann-key", "address": None}, 60.0).keys() == {"guest"}
        assert store.made_by_counts({"guest": "nobody"}, 60.0) == {"guest": (0, 0, 0.0)}
        assert store.made_by_counts({"guest": "ann-key"}, 0.0)["guest"][1] == 0  # none in no time
    finally:
        store.close()
