"""Game records: a versioned JSON document of a match that replays exactly.

A record is a header (format, version, game, rules, seats) plus every action in order, chance
steps included (the dealt cards, never a seed), plus the results for a reader's convenience.
Loading a record replays it through the engine, so a tampered record (an illegal action, cards
that do not add up) is refused with a message naming the first bad entry.

>>> from callbreak.core import Dealer, Match, make_rules, CHANCE
>>> m = Match(make_rules("bhoos-tournament"))
>>> d = Dealer(3)
>>> while not m.is_over:
...     m.apply(d.chance(m) if m.to_act == CHANCE else m.legal_actions()[0])
>>> rec = record_of(m, seats=["a", "b", "c", "d"])
>>> replay(loads(dumps(rec))).totals == m.totals
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from callbreak.core import (
    CHANCE,
    Action,
    CallbreakError,
    Match,
    RecordError,
    Rules,
    format_points,
)
from callbreak.core.actions import Deal, action_from_json
from callbreak.core.cards import Card

FORMAT = "callbreak-record"
VERSION = 1
HIDDEN = "??"  # a card a redacted record does not show


@dataclass(frozen=True, slots=True)
class Record:
    rules: Rules
    seats: tuple[str, ...]
    actions: tuple[Action, ...]
    game: str = "callbreak"
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        match = replay(self)
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "rules": self.rules.to_dict(),
            "seats": list(self.seats),
            "meta": self.meta,
            "actions": [a.to_json() for a in self.actions],
            "result": _result_json(match),
        }


def _result_json(m: Match) -> dict[str, Any]:
    return {
        "finished": m.is_over,
        "deals": [
            {"number": r.number, "dealer": r.dealer, "calls": list(r.calls), "blind": list(r.blind),
             "won": list(r.won), "points": [p / 10 for p in r.points], "tiebreak": r.tiebreak}
            for r in m.results
        ],
        "totals": [t / 10 for t in m.totals],
        "winners": list(m.winners),
        "chips": list(m.chips) if m.chips is not None else None,
    }


def record_of(match: Match, seats: Sequence[str] | None = None, meta: dict[str, Any] | None = None) -> Record:
    """The record of a match so far."""
    names = tuple(seats) if seats is not None else tuple(f"seat {i}" for i in range(4))
    return Record(rules=match.rules, seats=names, actions=tuple(match.history), meta=dict(meta or {}))


def replay_states(record: Record) -> Iterator[Match]:
    """Every state of the match: the initial one, then one after each action (copies)."""
    m = Match(record.rules)
    yield m.clone()
    for i, action in enumerate(record.actions):
        try:
            m.apply(action)
        except CallbreakError as e:
            raise RecordError(f"action {i} ({_describe(action)}) is refused: {e}") from None
        yield m.clone()


def replay(record: Record) -> Match:
    """The match after every action of the record; :class:`RecordError` names the first bad one."""
    m = Match(record.rules)
    for i, action in enumerate(record.actions):
        try:
            m.apply(action)
        except CallbreakError as e:
            raise RecordError(f"action {i} ({_describe(action)}) is refused: {e}") from None
    return m


def _describe(action: Action) -> str:
    d = action.to_json()
    if d["type"] == "deal":
        return "deal"
    return json.dumps(d, separators=(",", ":"))


def dumps(record: Record, indent: int | None = None) -> str:
    return json.dumps(record.to_json(), indent=indent)


def loads(text: str | bytes) -> Record:
    """Parse and verify a record; raise :class:`RecordError` naming what is wrong."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise RecordError(f"not a JSON record: {e}") from None
    return from_json(data)


def from_json(data: Any) -> Record:
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a Call Break record (format is {data.get('format')!r}, "
                          f"expected {FORMAT!r})")
    if data.get("version") != VERSION:
        raise RecordError(f"unsupported record version {data.get('version')!r}; this program "
                          f"reads version {VERSION}")
    if data.get("game", "callbreak") != "callbreak":
        raise RecordError(f"this is a record of {data.get('game')!r}, not Call Break")
    try:
        rules = Rules.from_dict(data.get("rules"))
    except CallbreakError as e:
        raise RecordError(f"bad rules in record: {e}") from None
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) != 4 or not all(isinstance(s, str) for s in seats):
        raise RecordError("seats must be a list of four names")
    raw = data.get("actions")
    if not isinstance(raw, list):
        raise RecordError("actions must be a list")
    actions = []
    for i, a in enumerate(raw):
        try:
            actions.append(action_from_json(a))
        except RecordError as e:
            raise RecordError(f"action {i}: {e}") from None
    meta = data.get("meta") or {}
    if not isinstance(meta, dict):
        raise RecordError("meta must be an object")
    record = Record(rules=rules, seats=tuple(seats), actions=tuple(actions), meta=meta)
    match = replay(record)  # refuses illegal actions, naming the first
    claimed = data.get("result")
    if claimed is not None:
        # The result is derived data, but a reader trusts it: it must agree with the replay.
        wrong = _first_difference(claimed, _result_json(match), "result")
        if wrong is not None:
            path, said, actual = wrong
            raise RecordError(f"{path} says {said!r} but replaying the actions gives {actual!r}")
    return record


def _first_difference(claimed: Any, actual: Any, path: str) -> tuple[str, Any, Any] | None:
    """The first place where ``claimed`` disagrees with ``actual`` (keys absent from ``claimed``
    are not checked, so older or trimmed records still load)."""
    if isinstance(actual, dict):
        if not isinstance(claimed, dict):
            return path, claimed, actual
        for key, value in actual.items():
            if key in claimed:
                found = _first_difference(claimed[key], value, f"{path}.{key}")
                if found is not None:
                    return found
        return None
    if isinstance(actual, list):
        if not isinstance(claimed, list) or len(claimed) != len(actual):
            return path, claimed, actual
        for i, (c, a) in enumerate(zip(claimed, actual, strict=True)):
            found = _first_difference(c, a, f"{path}[{i}]")
            if found is not None:
                return found
        return None
    if type(claimed) is bool or type(actual) is bool:
        return None if claimed is actual else (path, claimed, actual)
    return None if claimed == actual else (path, claimed, actual)


def redact(record: Record, seat: int) -> dict[str, Any]:
    """The record as JSON, safe to give to ``seat``: other seats' cards appear only once played.

    Redacted deals show ``"??"`` for cards nobody saw; such a record is for reading, not replay.
    """
    data = record.to_json()
    played_by: list[set[Card]] = []
    current: set[Card] | None = None
    deal_index = -1
    for a in record.actions:
        if isinstance(a, Deal):
            current = set()
            played_by.append(current)
            deal_index += 1
        elif a.kind == "play" and current is not None:
            current.add(a.card)  # type: ignore[union-attr]
    shown = _shown_hands(record)
    deal_no = -1
    for entry in data["actions"]:
        if entry["type"] != "deal":
            continue
        deal_no += 1
        seen = played_by[deal_no] | shown[deal_no]
        entry["hands"] = [
            h if s == seat else [c if Card.parse(c) in seen else HIDDEN for c in h]
            for s, h in enumerate(entry["hands"])
        ]
    data["redacted_for"] = seat
    return data


def _shown_hands(record: Record) -> list[set[Card]]:
    """Cards shown openly in each deal: a redeal claimant's hand."""
    out: list[set[Card]] = []
    hands: tuple[tuple[Card, ...], ...] = ()
    for a in record.actions:
        if isinstance(a, Deal):
            hands = a.hands
            out.append(set())
        elif a.kind == "redeal" and a.claim and out:  # type: ignore[union-attr]
            out[-1].update(hands[a.seat])  # type: ignore[union-attr]
    return out


def narrate(record: Record) -> Iterator[str]:
    """A readable deal-by-deal account of a record."""
    names = record.seats
    m = Match(record.rules)
    yield f"Call Break record: {', '.join(f'{i}={n}' for i, n in enumerate(names))}"
    for action in record.actions:
        before = m.clone()
        m.apply(action)
        kind = action.kind
        if kind == "choose_dealer" or (kind == "draw" and m.dealer is not None and before.dealer is None):
            yield f"First dealer: {names[m.dealer]}"  # type: ignore[index]
        elif kind == "deal":
            yield ""
            yield f"Deal {m.deal_number} (dealer {names[before.dealer]})"  # type: ignore[index]
            for s, h in enumerate(action.hands):  # type: ignore[union-attr]
                yield f"  {names[s]:>12}: {' '.join(c.pretty for c in sorted(h, key=lambda c: (c.suit, -c.rank)))}"
            if m.redeal is not None:
                yield f"  Thrown in: {m.redeal.reason}"
        elif kind == "redeal" and action.claim:  # type: ignore[union-attr]
            yield f"  Thrown in: {m.redeal.reason if m.redeal else ''}"
        elif kind == "call":
            blind = " blind" if action.blind else ""  # type: ignore[union-attr]
            yield f"  {names[action.seat]} calls {action.tricks}{blind}"  # type: ignore[union-attr]
            if m.redeal is not None and m.phase.value == "deal":
                yield f"  Thrown in: {m.redeal.reason}"
        elif kind == "play" and len(before.trick) == 3:
            t = m.tricks[-1]  # tricks are kept until the next deal, so this is the one just won
            cards = " ".join(f"{names[t.seat_of(i)]}:{c.pretty}" for i, c in enumerate(t.cards))
            yield f"  Trick {len(m.tricks)}: {cards} -> {names[t.winner]}"
            if len(m.results) > len(before.results):
                r = m.results[-1]
                line = ", ".join(f"{names[s]} {r.won[s]}/{r.calls[s]} = {format_points(r.points[s])}"
                                 for s in range(4))
                yield f"  Scores: {line}"
                yield f"  Totals: {', '.join(f'{names[s]} {format_points(m.totals[s])}' for s in range(4))}"
        elif kind == "stop":
            yield "The table stops."
    if m.is_over:
        yield ""
        yield "Winner" + ("s" if len(m.winners) > 1 else "") + ": " + ", ".join(names[s] for s in m.winners)
        if m.chips is not None:
            yield "Chips: " + ", ".join(f"{names[s]} {m.chips[s]:+g}" for s in range(4))


def seat_names(record: Record) -> tuple[str, ...]:
    return record.seats


__all__ = ["FORMAT", "HIDDEN", "VERSION", "Record", "dumps", "from_json", "loads", "narrate",
           "record_of", "redact", "replay", "replay_states", "CHANCE"]
