"""Records of the related games: the same "callbreak-record" format, with ``"game"`` naming one.

A record is a header (format, version, game, players, options, seats) plus every action in order,
chance steps included (the dealt cards, the upcard, the stock order; never a seed), plus the
results for a reader. Loading replays every action through the game, so a tampered record is
refused with a message naming the first bad entry; claimed scores that do not match the replay
are refused too. (Call Break's own records are :mod:`callbreak.record`; this module follows its
patterns for the games of :mod:`callbreak.games`.)

>>> from callbreak.games import make_trick_game, GameDealer, CHANCE
>>> g = make_trick_game("horsethief", players=3)
>>> d = GameDealer(5)
>>> while not g.is_over:
...     g.apply(d.chance(g) if g.to_act == CHANCE else g.legal_actions()[0])
>>> rec = game_record_of(g)
>>> replay_game(loads_game(dumps_game(rec))).scores == g.scores
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from callbreak.core.cards import Card
from callbreak.core.errors import CallbreakError, RecordError
from callbreak.games.actions import Exchange, GameAction, GameDeal, game_action_from_json
from callbreak.games.base import TrickGame

FORMAT = "callbreak-record"
VERSION = 1
HIDDEN = "??"


@dataclass(frozen=True, slots=True)
class GameRecord:
    game: str
    players: int
    options: dict[str, Any]
    seats: tuple[str, ...]
    actions: tuple[GameAction, ...]
    meta: dict[str, Any] = field(default_factory=dict)

    def new_game(self) -> TrickGame:
        from callbreak.games import GAMES, make_trick_game

        if self.game not in GAMES or GAMES[self.game].cls is None:
            raise RecordError(f"unknown game {self.game!r} in a games record")
        try:
            return make_trick_game(self.game, self.players, **self.options)
        except CallbreakError as e:
            raise RecordError(f"bad game settings in record: {e}") from None

    def to_json(self) -> dict[str, Any]:
        game = replay_game(self)
        return {
            "format": FORMAT, "version": VERSION, "game": self.game, "players": self.players,
            "options": dict(self.options), "seats": list(self.seats), "meta": self.meta,
            "actions": [a.to_json() for a in self.actions], "result": _result_json(game),
        }


def _result_json(g: TrickGame) -> dict[str, Any]:
    return {
        "finished": g.is_over,
        "hands": [{"number": r.number, "dealer": r.dealer, "declarer": r.declarer,
                   "contract": r.contract, "trump": r.trump.letter if r.trump is not None else None,
                   "active": list(r.active), "won": list(r.won), "points": list(r.points),
                   "note": r.note} for r in g.results],
        "scores": list(g.scores),
        "winners": list(g.winners),
    }


def game_record_of(game: TrickGame, seats: Sequence[str] | None = None,
                   meta: dict[str, Any] | None = None) -> GameRecord:
    """The record of a game so far."""
    names = tuple(seats) if seats is not None else tuple(f"seat {i}" for i in range(game.players))
    if len(names) != game.players:
        raise RecordError(f"{game.players} seat names are needed, got {len(names)}")
    return GameRecord(game.NAME, game.players, game.options.to_dict(), names,
                      tuple(game.history), dict(meta or {}))


def replay_game_states(record: GameRecord) -> Iterator[TrickGame]:
    """Every state: the initial one, then one after each action (copies)."""
    g = record.new_game()
    yield g.clone()
    for i, action in enumerate(record.actions):
        _apply(g, i, action)
        yield g.clone()


def replay_game(record: GameRecord) -> TrickGame:
    """The game after every action; :class:`RecordError` names the first refused action."""
    g = record.new_game()
    for i, action in enumerate(record.actions):
        _apply(g, i, action)
    return g


def _apply(g: TrickGame, i: int, action: GameAction) -> None:
    try:
        g.apply(action)
    except CallbreakError as e:
        what = "deal" if isinstance(action, GameDeal) else json.dumps(action.to_json())
        raise RecordError(f"action {i} ({what}) is refused: {e}") from None


def dumps_game(record: GameRecord, indent: int | None = None) -> str:
    return json.dumps(record.to_json(), indent=indent)


def loads_game(text: str | bytes) -> GameRecord:
    """Parse and verify a record; raise :class:`RecordError` naming what is wrong."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise RecordError(f"not a JSON record: {e}") from None
    return game_record_from_json(data)


def game_record_from_json(data: Any) -> GameRecord:
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a game record (format is {data.get('format')!r}, expected {FORMAT!r})")
    if data.get("version") != VERSION:
        raise RecordError(f"unsupported record version {data.get('version')!r}; this program reads "
                          f"version {VERSION}")
    game = data.get("game")
    if game in (None, "callbreak"):
        raise RecordError("this is a Call Break record: read it with callbreak.record")
    if not isinstance(game, str):
        raise RecordError(f"game must be a name, got {game!r}")
    players = data.get("players")
    if isinstance(players, bool) or not isinstance(players, int):
        raise RecordError(f"players must be a whole number, got {players!r}")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise RecordError("options must be an object")
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) != players or not all(isinstance(s, str) for s in seats):
        raise RecordError(f"seats must be a list of {players} names")
    raw = data.get("actions")
    if not isinstance(raw, list):
        raise RecordError("actions must be a list")
    actions = []
    for i, a in enumerate(raw):
        try:
            actions.append(game_action_from_json(a))
        except RecordError as e:
            raise RecordError(f"action {i}: {e}") from None
    meta = data.get("meta") or {}
    if not isinstance(meta, dict):
        raise RecordError("meta must be an object")
    record = GameRecord(game, players, dict(options), tuple(seats), tuple(actions), meta)
    replayed = replay_game(record)
    claimed = data.get("result")
    if isinstance(claimed, dict) and "scores" in claimed and claimed["scores"] != list(replayed.scores):
        raise RecordError(f"the recorded scores {claimed['scores']} do not match the replayed "
                          f"scores {list(replayed.scores)}")
    return record


def redact_game(record: GameRecord, seat: int) -> dict[str, Any]:
    """The record as JSON, safe to give to ``seat``: other seats' cards appear only once played,
    the stock only as far as ``seat`` drew from it, other seats' discards never. For reading, not
    replay."""
    data = record.to_json()
    g = record.new_game()
    deal_entry = -1
    visible: set[Card] = set()
    entries = data["actions"]
    # First pass: what became visible to ``seat`` during each hand (played cards, its own draws).
    seen_by_deal: list[set[Card]] = []
    for action in record.actions:
        if isinstance(action, GameDeal):
            visible = set(action.hands[seat]) if seat < len(action.hands) else set()
            if action.upcard is not None:
                visible.add(action.upcard)
            seen_by_deal.append(visible)
        elif action.kind == "play":
            visible.add(action.card)  # type: ignore[union-attr]
        elif isinstance(action, Exchange) and action.seat == seat:
            before = g.hands[seat]
            g.apply(action)
            visible.update(c for c in _cards(g.hands[seat] & ~before))
            continue
        g.apply(action)
    for entry, action in zip(entries, record.actions, strict=True):
        if isinstance(action, GameDeal):
            deal_entry += 1
            seen = seen_by_deal[deal_entry]
            entry["hands"] = [h if s == seat else [c if Card.parse(c) in seen else HIDDEN for c in h]
                              for s, h in enumerate(entry["hands"])]
            if "stock" in entry:
                entry["stock"] = [c if Card.parse(c) in seen else HIDDEN for c in entry["stock"]]
        elif isinstance(action, Exchange) and action.seat != seat:
            entry["cards"] = [HIDDEN] * len(action.cards)
    data["redacted_for"] = seat
    return data


def _cards(mask: int) -> list[Card]:
    from callbreak.core.cards import cards_of

    return list(cards_of(mask))


def narrate_game(record: GameRecord) -> Iterator[str]:
    """A readable hand-by-hand account of a record."""
    names = record.seats
    g = record.new_game()
    yield f"{g.TITLE} record: {', '.join(f'{i}={n}' for i, n in enumerate(names))}"
    for action in record.actions:
        hands_before = len(g.results)
        tricks_before = len(g.tricks)
        g.apply(action)
        if isinstance(action, GameDeal):
            yield ""
            yield f"Hand {g.hand_number} (dealer {names[g.dealer]})"
            for s, h in enumerate(action.hands):
                if h:
                    yield f"  {names[s]:>12}: {' '.join(c.pretty for c in h)}"
            if action.upcard is not None:
                yield f"  Upcard: {action.upcard.pretty}"
        elif action.kind == "play":
            if len(g.tricks) > tricks_before or len(g.results) > hands_before:
                t = g.tricks[-1] if g.tricks else None
                if t is not None:
                    cards = " ".join(f"{names[s]}:{c.pretty}" for s, c in zip(t.seats, t.cards, strict=True))
                    yield f"  Trick {len(g.tricks)}: {cards} -> {names[t.winner]}"
        else:
            yield f"  {names[action.seat]}: {json.dumps(action.to_json())}"
        if len(g.results) > hands_before:
            r = g.results[-1]
            yield f"  Points: {', '.join(f'{names[s]} {r.points[s]:+d}' for s in range(g.players))}"
            if r.note:
                yield f"  {r.note}"
            yield f"  Scores: {', '.join(f'{names[s]} {g.scores[s]}' for s in range(g.players))}"
    if g.is_over:
        yield ""
        yield "Winner" + ("s" if len(g.winners) > 1 else "") + ": " + ", ".join(names[s] for s in g.winners)
