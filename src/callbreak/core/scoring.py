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
from dataclasses import dataclass

from callbreak.core.cards import Suit
from callbreak.core.rules import Rules, Scoring
from callbreak.core.words import Words


@dataclass(frozen=True, slots=True, kw_only=True)
class DealResult:
    """One deal's outcome in any game: its number, dealer, tricks won and ``points`` (tenths of
    a point, added to the totals; negative in a race-down game means progress), with what the
    game's contract recorded: Call Break's ``calls`` and ``blind``, a related game's
    ``declarer``, ``contract`` and the seats ``active`` in the deal."""

    number: int  # from 1; Call Break's tie-break deal comes after the last regular deal
    dealer: int
    won: tuple[int, ...]
    points: tuple[int, ...]  # tenths; partners share their pair's points
    trump: Suit | None = None
    calls: tuple[int, ...] = ()  # Call Break: each seat's call
    blind: tuple[bool, ...] = ()  # Call Break: which calls were blind
    tiebreak: bool = False  # Call Break: a deal played to break a tie
    declarer: int | None = None  # the seat that won the contract (None: none)
    contract: int | None = None
    active: tuple[bool, ...] = ()  # the seats that played the deal (empty: every seat)
    note: str = ""  # what the deal's end settled, in English, as records keep it
    words: Words | None = None  # the note as a message id and values, for any language

    @property
    def shown_points(self) -> tuple[str, ...]:
        """Each seat's points as people read them (``3.1``, ``-4``; a related game's signed)."""
        if self.calls:
            return tuple(format_points(p) for p in self.points)
        return tuple(("+" if p >= 0 else "") + format_points(p) for p in self.points)

    def played(self, seat: int) -> bool:
        """Whether ``seat`` played this deal (not sitting it out)."""
        return not self.active or self.active[seat]

    def seat_summary(self, seat: int) -> str:
        """``seat``'s deal in short: tricks won over its call (``b`` blind), then its points;
        without calls, its points and tricks won ("-" for a seat that sat out)."""
        shown = self.shown_points[seat]
        if self.calls:
            return f"{self.won[seat]}/{self.calls[seat]}{'b' if self.blind[seat] else ''} {shown}"
        return f"{shown} ({self.won[seat]})" if self.played(seat) else f"{shown} -"


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


def tenths(points: Iterable[int]) -> tuple[int, ...]:
    """Whole points in tenths, the unit every deal's points and every total are kept in."""
    return tuple(10 * p for p in points)


def points_value(tenths: int) -> int | float:
    """Tenths as a JSON number of points: whole points as an int (``30`` -> ``3``), else ``3.1``."""
    return tenths // 10 if tenths % 10 == 0 else tenths / 10


def format_points(tenths: int) -> str:
    """``31`` -> ``'3.1'``, ``-40`` -> ``'-4'``."""
    sign = "-" if tenths < 0 else ""
    whole, frac = divmod(abs(tenths), 10)
    return f"{sign}{whole}.{frac}" if frac else f"{sign}{whole}"


def leaders(totals: Sequence[int], among: Sequence[int] | None = None, *,
            low: bool = False) -> tuple[int, ...]:
    """Seats with the highest total (all of them on a tie), optionally among some seats only;
    ``low``: the lowest (a race-down game)."""
    seats = list(range(len(totals))) if among is None else list(among)
    best = (min if low else max)(totals[s] for s in seats)
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
