"""Game records: one versioned JSON document for every game, that replays exactly.

A record is a header (format, version, the game's registry name, the number of players, the
game's options, the seat names) plus every action in order, chance steps included (the dealt
cards, any upcard and stock, never a seed), plus the results for a reader's convenience.
Loading a record replays it through the game, so a tampered record (an illegal action, cards that
do not add up, results that do not match) is refused with a message naming the first bad entry.

Version 1 records, written before the games shared one format, still load: Call Break's (with
``"rules"``) and the related games' (with ``"game"``, ``"players"`` and ``"options"``); so do
records naming the game ``call-bridge`` (Call Bridge was a game of its own before it was Call
Break's preset), as Call Break's.

>>> from callbreak.games import CHANCE, game_info, new_game
>>> game = new_game("callbreak", preset="bhoos-tournament")
>>> chance = game_info("callbreak").dealer(3)
>>> while not game.is_over:
...     game.apply(chance.chance(game) if game.to_act == CHANCE else game.legal_actions()[0])
>>> rec = record_of(game, seats=["a", "b", "c", "d"])
>>> replay(loads(dumps(rec))).scores == game.scores
True
>>> g = new_game("horsethief", players=3)
>>> chance = game_info("horsethief").dealer(5)
>>> while not g.is_over:
...     g.apply(chance.chance(g) if g.to_act == CHANCE else g.legal_actions()[0])
>>> replay(loads(dumps(record_of(g)))).scores == g.scores
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from callbreak.core.actions import CHANCE, Action, Deal, Exchange, action_from_json
from callbreak.core.cards import Card
from callbreak.core.errors import CallbreakError, RecordError
from callbreak.core.game import Game, GameOf
from callbreak.core.rules import Rules
from callbreak.core.scoring import format_points
from callbreak.games import View, game_info
from callbreak.i18n.seats import seat_name, seat_names

FORMAT = "callbreak-record"
VERSION = 2
HIDDEN = "??"  # a card a redacted record does not show


@dataclass(frozen=True, slots=True)
class Record:
    """A game's header and actions. ``options`` is the game's options value (:class:`Rules` for
    Call Break, Call Bridge's presets included)."""

    game: str
    players: int
    options: Any
    seats: tuple[str, ...]
    actions: tuple[Action, ...]
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def rules(self) -> Rules:
        """Call Break's rules (for the games of the Call Break engine)."""
        # A capability honestly absent: only Call Break's options are its Rules (typed for its records).
        if not isinstance(self.options, Rules):
            raise RecordError(f"a record of {self.game!r} has no Call Break rules")
        return self.options

    @property
    def title(self) -> str:
        """The game's title, and its preset's where the options are exactly a preset other than
        the game's default (``Call Break · Call Bridge (pagat.com)``)."""
        info = game_info(self.game)
        preset = info.preset_of(self.options)
        if preset is None or preset.name == info.default_preset:
            return info.title
        return f"{info.title} · {preset.title}"

    def new_game(self) -> GameOf[View, Action]:
        """The game before its first action."""
        try:
            return game_info(self.game).create(self.players, self.options)
        except CallbreakError as e:
            raise RecordError(f"bad game settings in record: {e}") from None

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "version": VERSION, "game": self.game, "players": self.players,
            "options": self.options.to_dict(), "seats": list(self.seats), "meta": self.meta,
            "actions": [a.to_json() for a in self.actions], "result": replay(self).result_json(),
        }


def record_of(game: Game, seats: Sequence[str] | None = None, meta: dict[str, Any] | None = None,
              name: str | None = None) -> Record:
    """The record of a game so far. ``name`` is its registry name (default: the game's own,
    ``callbreak`` for a Call Break match); an alias is recorded as its game's name."""
    names = tuple(seats) if seats is not None else tuple(f"seat {i}" for i in range(game.players))
    if len(names) != game.players:
        raise RecordError(f"{game.players} seat names are needed, got {len(names)}")
    name = game_info(name or game.NAME).name
    return Record(name, game.players, game.options, names,
                  tuple(game.history), dict(meta or {}))


def replay_states(record: Record) -> Iterator[GameOf[View, Action]]:
    """Every state of the game: the initial one, then one after each action (copies)."""
    g = record.new_game()
    yield g.clone()
    for i, action in enumerate(record.actions):
        _apply(g, i, action)
        yield g.clone()


def replay(record: Record) -> GameOf[View, Action]:
    """The game after every action of the record; :class:`RecordError` names the first bad one."""
    g = record.new_game()
    for i, action in enumerate(record.actions):
        _apply(g, i, action)
    return g


def _apply(g: Game, i: int, action: Action) -> None:
    try:
        g.apply(action)
    except CallbreakError as e:
        what = "deal" if isinstance(action, Deal) else json.dumps(action.to_json(), separators=(",", ":"))
        raise RecordError(f"action {i} ({what}) is refused: {e}") from None


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
    """A record from its JSON form (version 2, or either version 1 form), verified by replay."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a game record (format is {data.get('format')!r}, "
                          f"expected {FORMAT!r})")
    version = data.get("version")
    if version not in (1, VERSION):
        raise RecordError(f"unsupported record version {version!r}; this program reads "
                          f"versions 1 and {VERSION}")
    name = data.get("game", "callbreak")
    if not isinstance(name, str):
        raise RecordError(f"game must be a name, got {name!r}")
    try:
        info = game_info(name)
    except CallbreakError as e:
        raise RecordError(str(e)) from None
    # A capability honestly absent: the first record format ("rules", four seats) was Call Break's alone.
    if version == 1 and name == "callbreak":
        players: Any = 4
        raw_options = data.get("rules")
    else:
        players = data.get("players")
        raw_options = data.get("options") or {}
    if isinstance(players, bool) or not isinstance(players, int) or players not in info.seats:
        raise RecordError(f"players must be one of {list(info.seats)} for {info.title}, "
                          f"got {players!r}")
    try:
        options = info.load_options(raw_options)
    except CallbreakError as e:
        raise RecordError(f"bad options in record: {e}") from None
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) != players or not all(isinstance(s, str) for s in seats):
        raise RecordError(f"seats must be a list of {players} names")
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
    # An alias (``call-bridge``, once a game of its own) loads as its game: the same engine and
    # options, so the same final state.
    record = Record(info.name, players, options, tuple(seats), tuple(actions), meta)
    game = replay(record)  # refuses illegal actions, naming the first
    claimed = data.get("result")
    if claimed is not None:
        # The result is derived data, but a reader trusts it: it must agree with the replay.
        wrong = _first_difference(claimed, game.result_json(), "result")
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
    """The record as JSON, safe to give to ``seat`` (-1: anyone): a card of another seat appears
    only where ``seat`` saw it during that deal (played, laid face up, or shown by a redeal
    claim); the stock only as far as ``seat`` drew from it; other seats' discards never.

    Redacted deals show ``"??"`` for cards nobody saw; such a record is for reading, not replay.
    """
    data = record.to_json()
    seen_by_deal: list[set[Card]] = []
    for action, state in zip(record.actions, _states_after(record), strict=True):
        if isinstance(action, Deal):
            seen_by_deal.append(set())
        if seen_by_deal:
            view = state.view(seat if 0 <= seat < record.players else None)
            seen_by_deal[-1] |= view.shown_cards()

    def hide(cards: list[str], seen: set[Card]) -> list[str]:
        return [c if Card.parse(c) in seen else HIDDEN for c in cards]

    deal_no = -1
    for entry, action in zip(data["actions"], record.actions, strict=True):
        if isinstance(action, Deal):
            deal_no += 1
            seen = seen_by_deal[deal_no]
            entry["hands"] = [h if s == seat else hide(h, seen) for s, h in enumerate(entry["hands"])]
            if "stock" in entry:
                entry["stock"] = hide(entry["stock"], seen)
        elif isinstance(action, Exchange) and action.seat != seat:
            entry["cards"] = [HIDDEN] * len(action.cards)
    data["redacted_for"] = seat
    return data


def _states_after(record: Record) -> Iterator[GameOf[View, Action]]:
    """The game after each action (one game, advanced in place: read it before the next)."""
    g = record.new_game()
    for i, action in enumerate(record.actions):
        _apply(g, i, action)
        yield g


_SAYS: dict[str, Callable[[Any], str]] = {
    "call": lambda a: f"calls {a.tricks}" + (" blind" if a.blind else ""),
    "bid": lambda a: f"bids {a.tricks}",
    "pass": lambda a: "passes",
    "trump": lambda a: f"names trump {a.suit.symbol}",
    "join": lambda a: "plays" if a.playing else "sits out",
    "exchange": lambda a: f"exchanges {len(a.cards)} card{'' if len(a.cards) == 1 else 's'}",
    "settle": lambda a: "gives the others 5 each" if a.penalize_others else "takes -5",
    "redeal": lambda a: "claims a redeal" if a.claim else "keeps the hand",
    "look": lambda a: "looks at the cards",
}


def seat_label(seat: int, name: str) -> str:
    """How a seat is named wherever two seats may share a bot's name: its number (from 1) and
    its player (i18n/seats.py: the one way a seat is named).

    >>> seat_label(1, "random")
    'Seat 2 · random'
    >>> seat_label(1, "seat 1")  # a record's default name says nothing more
    'Seat 2'
    """
    return seat_name(seat, name)


def seat_labels(record: Record) -> tuple[str, ...]:
    """Every seat's name, in seat order; a terminal game's record (a seat labelled ``you``)
    names the others by where they sat for that person too: ``North · Seat 3 · expert``."""
    return seat_names(record.seats)


def narrate(record: Record) -> Iterator[str]:
    """A readable deal-by-deal account of any game's record; seats are named by
    :func:`seat_labels` (``Seat 2 · random``: two seats may have the same player), a trick's
    cards by seat number."""
    names = seat_labels(record)
    n = record.players
    g = record.new_game()
    yield f"{record.title} record: {', '.join(names)}"
    notice = ""
    width = max(len(name) for name in names)
    for action in record.actions:
        before = g.view(None)
        dealer = g.dealer
        g.apply(action)
        view = g.view(None)
        kind = action.kind
        if kind in ("choose_dealer", "draw") and g.dealer is not None:
            yield f"The first deal is dealt by {names[g.dealer]}"
        elif isinstance(action, Deal):
            yield ""
            yield f"Deal {len(view.results) + 1} (dealer {names[dealer] if dealer is not None else '?'})"
            for s, h in enumerate(action.hands):
                if h:
                    yield f"  {names[s]:<{width}}  {' '.join(c.pretty for c in sorted(h, key=lambda c: (c.suit, -c.rank)))}"
            if action.upcard is not None:
                yield f"  Upcard: {action.upcard.pretty}"
        elif kind == "play":
            if len(view.tricks) > len(before.tricks) or len(view.results) > len(before.results):
                t = view.tricks[-1]
                cards = " ".join(f"{s + 1}:{c.pretty}" for s, c in zip(t.seats, t.cards, strict=True))
                yield f"  Trick {len(view.tricks)}: {cards} -> {names[t.winner]}"
        elif kind == "stop":
            yield "The table stops."
        elif kind in _SAYS:
            yield f"  {names[action.seat]} {_SAYS[kind](action)}"  # type: ignore[union-attr]
        if len(view.results) > len(before.results):
            gained = [after - was for after, was in zip(view.totals, before.totals, strict=True)]
            yield f"  Points: {', '.join(f'{names[s]} {format_points(gained[s])}' for s in range(n))}"
            yield f"  Scores: {', '.join(f'{names[s]} {format_points(view.totals[s])}' for s in range(n))}"
        if view.notice and view.notice != notice:
            yield f"  {view.notice}"
        notice = view.notice
    if g.is_over:
        yield ""
        yield "Winner" + ("s" if len(g.winners) > 1 else "") + ": " + ", ".join(names[s] for s in g.winners)
        chips = g.result_json().get("chips")
        if chips is not None:
            yield "Chips: " + ", ".join(f"{names[s]} {chips[s]:+g}" for s in range(n))


__all__ = ["CHANCE", "FORMAT", "HIDDEN", "VERSION", "Record", "dumps", "from_json", "loads",
           "narrate", "record_of", "redact", "replay", "replay_states", "seat_label", "seat_labels"]
