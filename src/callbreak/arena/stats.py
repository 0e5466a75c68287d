"""Small statistics for the arena: t intervals, percentiles, ratings.

The standard library has no Student t quantile, so :func:`t_quantile` inverts the t
distribution's CDF, written with the regularized incomplete beta function.

>>> round(t_quantile(0.975, 4), 4)
2.7764
>>> [round(x, 4) for x in mean_ci([1, 2, 3, 4, 5])]
[3.0, 1.0368, 4.9632]
>>> percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 99)
10
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def _beta_fraction(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz's method)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        for num in (m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)),
                    -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    # The fraction converges fast only on one side of the mean; use the symmetry elsewhere.
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t (bisection on the CDF; accurate to ~1e-10)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), got {p}")
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return (lo + hi) / 2.0


def mean_ci(values: Sequence[float], level: float = 0.95) -> tuple[float, float | None, float | None]:
    """Mean and two-sided t confidence interval; the interval is (None, None) below two values."""
    n = len(values)
    if n == 0:
        raise ValueError("no values")
    mean = math.fsum(values) / n
    if n < 2:
        return mean, None, None
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(0.5 + level / 2.0, n - 1) * math.sqrt(var / n)
    return mean, mean - half, mean + half


def percentile(values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile: the smallest value with at least ``pct``% of values at or below."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100.0 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def plackett_luce_ratings(tables: Sequence[tuple[Sequence[int], Sequence[float]]],
                          players: int) -> list[tuple[float, float]]:
    """openskill Plackett-Luce ratings (mu, sigma) of ``players`` from match results.

    Each table is (player index per seat, final score per seat), processed in order. When one
    player fills several seats (one against three copies), each seat is rated as a separate
    entrant from the player's current rating, and the player moves by the mean of those updates.
    """
    from openskill.models import PlackettLuce  # imported here: only the report needs it

    model = PlackettLuce()
    ratings = [model.rating(name=str(i)) for i in range(players)]
    for seat_players, scores in tables:
        teams = [[model.rating(mu=ratings[p].mu, sigma=ratings[p].sigma)] for p in seat_players]
        rated = model.rate(teams, scores=[float(s) for s in scores])
        for p in set(seat_players):
            seats = [s for s, q in enumerate(seat_players) if q == p]
            mu = sum(rated[s][0].mu for s in seats) / len(seats)
            sigma = sum(rated[s][0].sigma for s in seats) / len(seats)
            ratings[p] = model.rating(mu=mu, sigma=sigma)
    return [(r.mu, r.sigma) for r in ratings]
