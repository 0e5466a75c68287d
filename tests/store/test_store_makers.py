"""Who made each table, kept so that the limits on one client count its tables over every
process sharing the database (issue 30)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

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


def test_games_made_at_once_are_admitted_one_after_another_and_a_refused_one_is_not_stored(
        db_url: str) -> None:
    """``create_game(admit=...)`` counts the maker's games and stores the new one under one lock
    on the maker's keys: 16 threads at once, each slow to decide, and a limit of 4 live games."""
    store = Store(db_url)
    seen: list[int] = []

    def admit(counts: dict[str, tuple[int, int, float]]) -> None:
        live = counts["guest"][0]
        seen.append(live)
        time.sleep(0.01)  # (the window in which, unlocked, the others would count the same)
        if live >= 4:
            raise OverLimit(live)

    def make(n: int) -> str:
        try:
            store.create_game(f"R{n}", {"preset": "callbreak"}, [], made_by={"guest": "ann-key"}, admit=admit)
        except OverLimit:
            return "refused"
        return "made"

    try:
        with ThreadPoolExecutor(16) as pool:
            outcomes = list(pool.map(make, range(16)))
        assert outcomes.count("made") == 4 and outcomes.count("refused") == 12
        assert sorted(seen) == [0, 1, 2, 3] + [4] * 12  # each counted the games made before it
        assert store.made_by_counts({"guest": "ann-key"}, 60.0)["guest"][:2] == (4, 4)
    finally:
        store.close()


class OverLimit(Exception):
    pass
