"""The arena's statistics on data whose answers are known."""

from __future__ import annotations

import math
import random

import pytest

from callbreak.arena import ArenaPlan, SetResult, TableResult, summarise
from callbreak.arena.stats import mean_ci, percentile, plackett_luce_ratings, t_cdf, t_quantile
from callbreak.core import make_rules

# Two-sided 95% critical values of Student's t, from printed tables.
T_TABLE = {1: 12.706, 2: 4.303, 4: 2.776, 9: 2.262, 19: 2.093, 29: 2.045, 99: 1.984, 10**6: 1.960}


@pytest.mark.parametrize("df, expected", sorted(T_TABLE.items()))
def test_t_quantiles_match_the_printed_table(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=6e-4)
    assert t_quantile(0.025, df) == pytest.approx(-expected, abs=6e-4)


def test_t_cdf_is_the_cauchy_distribution_at_one_degree_of_freedom() -> None:
    for t in (-3.0, -0.5, 0.0, 0.7, 10.0):
        assert t_cdf(t, 1) == pytest.approx(0.5 + math.atan(t) / math.pi, abs=1e-12)


def test_t_quantiles_agree_with_scipy_where_it_is_installed() -> None:
    stats = pytest.importorskip("scipy.stats")
    for p in (0.6, 0.9, 0.975, 0.995):
        for df in (1, 3, 7, 30, 250):
            assert t_quantile(p, df) == pytest.approx(stats.t.ppf(p, df), abs=1e-8)


def test_mean_ci_on_known_data() -> None:
    mean, low, high = mean_ci([1, 2, 3, 4, 5])
    # mean 3, sd sqrt(2.5), se sqrt(0.5), t(0.975, 4) = 2.7764451
    assert mean == 3
    assert low == pytest.approx(3 - 2.7764451 * math.sqrt(0.5), abs=1e-6)
    assert high == pytest.approx(3 + 2.7764451 * math.sqrt(0.5), abs=1e-6)
    assert mean_ci([2.5]) == (2.5, None, None)
    assert mean_ci([4, 4, 4]) == (4, 4, 4)
    with pytest.raises(ValueError):
        mean_ci([])


def test_the_95_percent_interval_covers_the_mean_about_95_percent_of_the_time() -> None:
    rng = random.Random(1)
    covered = 0
    for _ in range(1000):
        sample = [rng.gauss(10, 3) for _ in range(6)]
        _, low, high = mean_ci(sample)
        assert low is not None and high is not None
        covered += low <= 10 <= high
    assert 0.93 < covered / 1000 < 0.97


def test_percentile_is_nearest_rank() -> None:
    values = list(range(1, 201))
    assert percentile(values, 99) == 198
    assert percentile(values, 50) == 100
    assert percentile([5.0], 99) == 5.0
    assert percentile([3, 1, 2], 100) == 3


def test_ratings_rank_the_player_who_keeps_winning_first() -> None:
    tables = [((0, 1, 1, 1), (50, 10, 20, 5))] * 20
    (mu_a, sigma_a), (mu_b, sigma_b) = plackett_luce_ratings(tables, 2)
    assert mu_a > mu_b
    assert sigma_a < 25 / 3 and sigma_b < 25 / 3


def _table(set_index: int, rotation: int, seats: tuple[int, ...], points: list[tuple[int, ...]],
           winners: tuple[int, ...], times: tuple[tuple[float, ...], ...] | None = None) -> TableResult:
    totals = tuple(sum(d[s] for d in points) for s in range(4))
    return TableResult(set_index=set_index, lineup=0, rotation=rotation, seat_players=seats,
                       points=tuple(points), made=tuple(tuple(p > 0 for p in d) for d in points),
                       totals=totals, winners=winners, times=times or ((0.001,), (0.002,), (0.003,), (0.004,)),
                       faults=(), record=None)


def test_summary_pairs_values_by_duplicate_set() -> None:
    # Two players, A alone against three copies of B; A's per-set mean points per deal are
    # 4.0 and 2.0, so its mean is 3.0 with a t interval of 3 +- 12.706 * 1.0.
    plan = ArenaPlan(("A", "B"), make_rules("callbreak"), seed=0, sets=2)
    sets = []
    for set_index, a_points in ((0, 40), (1, 20)):
        tables = []
        for rotation in range(4):
            seats = tuple(0 if s == rotation else 1 for s in range(4))
            deal = tuple(a_points if s == rotation else -10 for s in range(4))
            tables.append(_table(set_index, rotation, seats, [deal], winners=(rotation,)))
        sets.append(SetResult(set_index, tuple(tables)))
    report = summarise(plan, "callbreak", sets)
    a, b = report.players
    assert a.mean_score_per_deal == pytest.approx(3.0)
    assert a.ci95[0] == pytest.approx(3.0 - 12.706 * 1.0, abs=1e-3)
    assert a.ci95[1] == pytest.approx(3.0 + 12.706 * 1.0, abs=1e-3)
    assert b.mean_score_per_deal == pytest.approx(-1.0) and b.ci95 == (-1.0, -1.0)
    assert a.margin_per_deal == pytest.approx(4.0)  # 3 - (-1)
    assert a.match_win_rate == 1.0 and b.match_win_rate == 0.0
    assert a.call_made_rate == 1.0 and b.call_made_rate == 0.0
    assert (a.seat_deals, b.seat_deals, a.seat_matches, b.seat_matches) == (8, 24, 8, 24)
    # A sits in seat r at rotation r: its decision times are 1, 2, 3, 4 ms.
    assert a.mean_move_ms == pytest.approx(2.5) and a.p99_move_ms == pytest.approx(4.0)
    assert a.rating_mu > b.rating_mu
    assert report.deals == 8


def test_a_shared_win_counts_as_a_share() -> None:
    plan = ArenaPlan(("A", "B", "C", "D"), make_rules("callbreak"), seed=0, sets=1)
    table = _table(0, 0, (0, 1, 2, 3), [(10, 10, -10, -10)], winners=(0, 1))
    report = summarise(plan, "callbreak", [SetResult(0, (table,))])
    assert [p.match_win_rate for p in report.players] == [0.5, 0.5, 0.0, 0.0]
