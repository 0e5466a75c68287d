"""Deal scores, match standings and stakes, in integer tenths of a point.

Scores are kept as whole tenths (``31`` means 3.1) so that sums never drift the way floats do.

>>> from callbreak.core.rules import make_rules
>>> deal_points(3, 4, make_rules("callbreak"))
31
>>> deal_points(3, 2, make_rules("callbreak"), blind=True)
-60
>>> format_points(31), format_points(-60)
('3.1', '-6')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from callbreak.core.rules import Rules, Scoring


def made(call: int, won: int, rules: Rules) -> bool:
    """Whether a call counts as made under the scoring option."""
    if rules.scoring is Scoring.EXACT_OR_ONE_OVER:
        return call <= won <= call + 1
    return won >= call


def deal_points(call: int, won: int, rules: Rules, *, blind: bool = False) -> int:
    """Points in tenths for one player's (or one partnership's) deal."""
    if made(call, won, rules):
        bonus = rules.bonus_call
        if bonus is not None and call >= bonus.threshold:
            pts = bonus.points * 10
        elif rules.scoring is Scoring.TENTHS:
            pts = call * 10 + (won - call)
        else:
            pts = call * 10
    else:
        pts = -call * 10
    return pts * 2 if blind else pts


def expected_deal_points(call: int, tricks: Iterable[float], rules: Rules, *,
                         blind: bool = False) -> float:
    """The mean of :func:`deal_points` for ``call`` over a distribution of tricks taken
    (``tricks[w]``: the chance of taking ``w``), in tenths."""
    return sum(p * deal_points(call, w, rules, blind=blind) for w, p in enumerate(tricks) if p > 0)


def format_points(tenths: int) -> str:
    """``31`` -> ``'3.1'``, ``-40`` -> ``'-4'``."""
    sign = "-" if tenths < 0 else ""
    whole, frac = divmod(abs(tenths), 10)
    return f"{sign}{whole}.{frac}" if frac else f"{sign}{whole}"


def leaders(totals: Sequence[int], among: Sequence[int] | None = None) -> tuple[int, ...]:
    """Seats with the highest total (all of them on a tie), optionally among some seats only."""
    seats = list(range(len(totals))) if among is None else list(among)
    best = max(totals[s] for s in seats)
    return tuple(s for s in seats if totals[s] == best)


def settle_stakes(winners: Sequence[int], players: int, stake: int,
                  commission: float) -> tuple[float, ...]:
    """Chips won or lost by each seat at the end of a match (the 567 platform's rules).

    Each loser loses their stake; the winners share the losers' total less commission.

    >>> settle_stakes([0], 4, 10, 0.05)
    (28.5, -10.0, -10.0, -10.0)
    >>> settle_stakes([0, 2], 4, 10, 0.05)
    (9.5, -10.0, 9.5, -10.0)
    """
    losers = [s for s in range(players) if s not in winners]
    if not losers:
        return tuple(0.0 for _ in range(players))
    share = round(stake * len(losers) * (1 - commission) / len(winners), 2)
    return tuple(share if s in winners else float(-stake) for s in range(players))
