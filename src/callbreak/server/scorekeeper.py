"""The scorekeeper: running totals for a game played with real cards.

People enter each deal's calls and tricks; the sheet is checked (13 tricks a deal, calls in the
preset's range, blind calls only where the preset has them) and scored with the engine's own
scoring, so a sheet and a played game can never disagree.
"""

from __future__ import annotations

from typing import Any

from callbreak.core import CallbreakError, Rules, format_points, make_rules
from callbreak.core.rules import PRESETS
from callbreak.core.scoring import deal_points, leaders
from callbreak.core.words import N_
from callbreak.server.wire import MessageError

MAX_DEALS = 100


def sheet_rules(data: dict[str, Any]) -> Rules:
    preset = data.get("preset", "callbreak")
    if not isinstance(preset, str) or preset not in PRESETS:  # (a list or an object: not even hashable)
        raise MessageError("bad_sheet", f"unknown preset {preset!r}; presets are: {', '.join(PRESETS)}")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise MessageError("bad_sheet", "options must be an object of option: value")
    try:
        return make_rules(preset, **options)
    except CallbreakError as e:
        raise MessageError("bad_sheet", N_("these rules are not valid: {problem}"), problem=str(e), english=str(e)) from None


def check_sheet(data: Any) -> dict[str, Any]:
    """Validate a sheet (preset, options, four names, deals) and return its clean form."""
    if not isinstance(data, dict):
        raise MessageError("bad_sheet", "a score sheet must be a JSON object")
    rules = sheet_rules(data)
    names = data.get("names") or ["North", "East", "South", "West"]
    if (not isinstance(names, list) or len(names) != 4
            or not all(isinstance(n, str) and 0 < len(n.strip()) <= 24 for n in names)):
        raise MessageError("bad_sheet", N_("names must be four names of 1..24 characters"))
    deals = data.get("deals") or []
    if not isinstance(deals, list) or len(deals) > MAX_DEALS:
        raise MessageError("bad_sheet", f"deals must be a list of at most {MAX_DEALS} deals")
    clean = []
    for n, deal in enumerate(deals, start=1):
        clean.append(_check_deal(n, deal, rules))
    return {"preset": data.get("preset", "callbreak"), "options": data.get("options") or {},
            "names": [n.strip() for n in names], "deals": clean}


def _check_deal(n: int, deal: Any, rules: Rules) -> dict[str, Any]:
    if not isinstance(deal, dict):
        raise MessageError("bad_sheet", f"deal {n} must be an object with calls and won")
    calls, won = deal.get("calls"), deal.get("won")
    blind = deal.get("blind") or [False] * 4
    for label, values in (("calls", calls), ("won", won)):
        if (not isinstance(values, list) or len(values) != 4
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in values)):
            raise MessageError("bad_sheet", f"deal {n}: {label} must be four whole numbers")
    assert isinstance(calls, list) and isinstance(won, list)
    if not isinstance(blind, list) or len(blind) != 4 or not all(isinstance(b, bool) for b in blind):
        raise MessageError("bad_sheet", f"deal {n}: blind must be four true/false values")
    for seat, c in enumerate(calls):
        if c not in rules.call_range:
            raise MessageError("bad_sheet", N_("deal {deal}: call {call} of player {player} is outside {low}..{high}"),
                               deal=n, call=c, player=seat + 1, low=rules.min_call, high=rules.max_call)
    if any(w < 0 for w in won) or sum(won) != 13:
        raise MessageError("bad_sheet", N_("deal {deal}: the tricks won must add up to 13, they add up to {sum}"),
                           deal=n, sum=sum(won))
    if any(blind) and not rules.blind_call:
        raise MessageError("bad_sheet", N_("deal {deal}: this preset has no blind calls"), deal=n)
    return {"calls": calls, "won": won, "blind": blind}


def score_sheet(sheet: dict[str, Any]) -> dict[str, Any]:
    """Points per deal and running totals (tenths, and as text) for a checked sheet."""
    rules = sheet_rules(sheet)
    totals = [0, 0, 0, 0]
    rows = []
    for deal in sheet["deals"]:
        calls, won, blind = deal["calls"], deal["won"], deal["blind"]
        if rules.partnership:
            team = [deal_points(calls[t] + calls[t + 2], won[t] + won[t + 2], rules) for t in (0, 1)]
            points = [team[s % 2] for s in range(4)]
        else:
            points = [deal_points(calls[s], won[s], rules, blind=blind[s]) for s in range(4)]
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        rows.append({**deal, "points": points, "totals": list(totals),
                     "points_text": [format_points(p) for p in points],
                     "totals_text": [format_points(t) for t in totals]})
    complete = rules.deals is not None and len(rows) >= rules.deals
    return {**sheet, "rows": rows, "totals": totals, "totals_text": [format_points(t) for t in totals],
            "deals_planned": rules.deals, "complete": complete,
            "leaders": list(leaders(totals)) if rows else [],
            "call_range": [rules.min_call, rules.max_call], "blind_calls": rules.blind_call}
