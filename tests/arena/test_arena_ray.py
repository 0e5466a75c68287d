"""The same arena run on a local Ray instance gives the same results as local processes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from callbreak.arena import ArenaPlan, run_sets
from callbreak.core import make_rules

pytestmark = [pytest.mark.ray, pytest.mark.slow]


@pytest.mark.process
def test_ray_local_matches_local_processes() -> None:
    pytest.importorskip("ray")
    plan = ArenaPlan(("random", "random", "random"), make_rules("callbreak"), seed=12, sets=2, keep_records=True)
    progress: list[tuple[int, int]] = []
    on_ray = run_sets(plan, workers=2, ray_address="local", progress=lambda d, t: progress.append((d, t)))
    here = run_sets(plan, workers=1)
    assert [[replace(t, times=()) for t in s.tables] for s in on_ray] == \
        [[replace(t, times=()) for t in s.tables] for s in here]
    assert progress == [(12, 24), (24, 24)]  # 3 players: 12 tables a set, counted as sets finish
