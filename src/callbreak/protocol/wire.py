"""The bot-tournament protocol's JSON bodies, both ways.

Server side, :func:`parse_request` turns a ``/bid`` or ``/play`` body into the requesting seat's
:class:`~callbreak.core.SeatView`, from the request alone: nothing is remembered between requests.
Every field is checked, and the history is replayed through the rules (trick winners, the
requester's own plays, and what earlier plays proved about the others' hands), so a request that
does not add up is refused with a :class:`ProtocolError` saying what is wrong.

Client side, :func:`request_from_view` writes the body for one seat from its view only, and
:func:`action_from_answer` reads a bot's answer and refuses anything illegal.

Seats: ``playerIds`` is the fixed seat order, and under the ``bhoos-tournament`` rules the dealer
of deal ``r`` is index ``(r - 1) % 4``, so the player after the dealer calls first and leads the
first trick.

>>> from callbreak.core import Dealer, Match, make_rules
>>> m = Match(make_rules("bhoos-tournament"))
>>> m.apply(Dealer(seed=5).chance(m))
>>> body = request_from_view(m.view(1), time_budget_ms=2800)
>>> body["playerId"], body["context"]["round"], len(body["cards"])
('P1', 1, 13)
>>> parse_request("bid", body).view == m.view(1)
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Literal

from callbreak.core import (
    Action,
    Call,
    CallbreakError,
    Card,
    CardError,
    CompletedTrick,
    Phase,
    Play,
    Rules,
    SeatView,
    Suit,
    cards_of,
    make_rules,
)
from callbreak.core.cards import FULL_DECK, from_protocol, to_protocol
from callbreak.core.inference import fresh_caps, infer_play
from callbreak.core.sampling import allowed_mask
from callbreak.core.tricks import legal_mask, trick_winner

RULES: Rules = make_rules("bhoos-tournament")
"""The only rules the protocol speaks."""

PLAYERS = 4
TRICKS = 13
SPADES = int(Suit.SPADES)

Kind = Literal["bid", "play"]


class ProtocolError(CallbreakError):
    """A malformed or inconsistent protocol body; the message says which field and why."""


@dataclass(frozen=True, slots=True)
class Request:
    """A checked request: the requester's view and what the server needs to answer in time."""

    kind: Kind
    view: SeatView
    player_ids: tuple[str, ...]
    time_budget_ms: float

    @property
    def decisions_left(self) -> int:
        """Decisions this seat still has to make in this deal, this one included."""
        hand = len(self.view.hand or ())
        return hand + 1 if self.kind == "bid" else hand


# --- reading a request (server side) -------------------------------------------------------


def parse_request(kind: Kind, body: Any) -> Request:
    """Check a ``/bid`` or ``/play`` body and rebuild the requesting seat's view from it.

    Raises :class:`ProtocolError` naming the first thing that is malformed or inconsistent.
    """
    if not isinstance(body, dict):
        raise ProtocolError(f"the request body must be a JSON object, got {_kind_of(body)}")
    player_ids = _player_ids(_field(body, "playerIds"))
    me_id = _field(body, "playerId")
    if not isinstance(me_id, str) or me_id not in player_ids:
        raise ProtocolError(f"playerId {me_id!r} is not one of playerIds {list(player_ids)}")
    seat = player_ids.index(me_id)
    budget = _field(body, "timeBudget")
    if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not math.isfinite(budget) \
            or budget < 0:
        raise ProtocolError(f"timeBudget must be a number of milliseconds >= 0, got {budget!r}")
    context = _field(body, "context")
    if not isinstance(context, dict):
        raise ProtocolError(f"context must be an object, got {_kind_of(context)}")
    deal = _int_field(context, "round", "context.round")
    deals = RULES.deals or 5
    if not 1 <= deal <= deals:
        raise ProtocolError(f"context.round must be 1..{deals}, got {deal}")
    dealer = (deal - 1) % PLAYERS
    first = (dealer + 1) % PLAYERS
    players = _field(context, "players", "context.players")
    if not isinstance(players, dict) or set(players) != set(player_ids):
        found = sorted(players) if isinstance(players, dict) else _kind_of(players)
        raise ProtocolError(f"context.players must have one entry per id in playerIds "
                            f"{list(player_ids)}, got {found}")
    entries = [_player_entry(players[pid], pid) for pid in player_ids]
    totals = tuple(e[0] for e in entries)
    # Each earlier deal scored between -max_call and max_call + the overtricks (tenths).
    low = -RULES.max_call * 10 * (deal - 1)
    high = (RULES.max_call * 10 + TRICKS - RULES.max_call) * (deal - 1)
    for pid, total in zip(player_ids, totals, strict=True):
        if not low <= total <= high:
            raise ProtocolError(f"context.players.{pid}.totalPoints is {total / 10:g}, but after "
                                f"{deal - 1} deal(s) a total lies between {low / 10:g} and "
                                f"{high / 10:g}")
    bids = [e[1] for e in entries]
    won_claimed = [e[2] for e in entries]

    hand = _cards(_field(body, "cards"), "cards")
    if kind == "bid":
        history_raw: Any = body.get("history", [])
        played_raw: Any = body.get("played", [])
        if history_raw or played_raw:
            raise ProtocolError("a /bid request must not carry cards already played "
                                "(history and played must be empty)")
    else:
        if "history" not in body and "played" not in body:
            raise ProtocolError("missing fields 'history' and 'played': a /play request carries "
                                "the finished tricks and the trick in progress (a call goes to "
                                "POST /bid)")
        history_raw = _field(body, "history")
        played_raw = _field(body, "played")

    # Calls: in /bid, exactly the seats ahead of the requester in calling order have called.
    order = [(first + i) % PLAYERS for i in range(PLAYERS)]
    calls: list[int | None] = []
    for s, bid in enumerate(bids):
        pid = player_ids[s]
        called = kind == "play" or order.index(s) < order.index(seat)
        if called and not RULES.min_call <= bid <= RULES.max_call:
            why = ("every player has called before /play" if kind == "play" else
                   f"{pid} calls before {me_id} in round {deal}")
            raise ProtocolError(f"context.players.{pid}.bid must be {RULES.min_call}.."
                                f"{RULES.max_call} ({why}), got {bid}")
        if not called and bid != 0:
            raise ProtocolError(f"context.players.{pid}.bid must be 0: {pid} calls after "
                                f"{me_id} in round {deal} (the dealer is {player_ids[dealer]}), "
                                f"got {bid}")
        calls.append(bid if called else None)

    tricks, history_cards = _history(history_raw, player_ids, first)
    played = _cards(played_raw, "played")
    if len(played) > PLAYERS - 1:
        raise ProtocolError(f"played holds {len(played)} cards; a trick in progress has at most 3")
    leader = tricks[-1].winner if tricks else first
    if kind == "play" and (leader + len(played)) % PLAYERS != seat:
        turn = player_ids[(leader + len(played)) % PLAYERS]
        raise ProtocolError(f"it is not {me_id}'s turn: {player_ids[leader]} leads this trick and "
                            f"{len(played)} card(s) are played, so {turn} plays next")
    if kind == "play" and len(hand) != TRICKS - len(tricks):
        raise ProtocolError(f"cards holds {len(hand)} cards, but after {len(tricks)} finished "
                            f"trick(s) {me_id} must hold {TRICKS - len(tricks)}")
    if kind == "bid" and len(hand) != TRICKS:
        raise ProtocolError(f"cards holds {len(hand)} cards; a hand to call on has {TRICKS}")
    _check_distinct(hand, history_cards, played)

    won = [0] * PLAYERS
    for t in tricks:
        won[t.winner] += 1
    for s in range(PLAYERS):
        if won_claimed[s] != won[s]:
            raise ProtocolError(f"context.players.{player_ids[s]}.won is {won_claimed[s]}, but "
                                f"history shows {won[s]} trick(s) won")

    caps = _replay(tricks, played, leader, seat, hand, player_ids)
    hand_mask = sum(1 << c for c in hand)
    sizes = tuple(TRICKS - len(tricks) - (1 if s in _trick_seats(leader, len(played)) else 0)
                  for s in range(PLAYERS))
    _check_dealable(hand_mask, history_cards, played, caps, sizes, seat, player_ids)
    if kind == "bid":
        legal: tuple[Action, ...] = tuple(Call(seat, n) for n in RULES.call_range)
    else:
        mask = legal_mask(hand_mask, played, SPADES, RULES, not tricks)
        legal = tuple(Play(seat, c) for c in cards_of(mask))
    view = SeatView(
        seat=seat, rules=RULES, players=PLAYERS,
        phase=Phase.CALL if kind == "bid" else Phase.PLAY,
        deal_number=deal, dealer=dealer, to_act=seat,
        hand=cards_of(hand_mask), hand_sizes=sizes, looked=True,
        calls=tuple(calls), blind=(False,) * PLAYERS, won=tuple(won),
        trump=Suit.SPADES, leader=leader if kind == "play" else None,
        trick=played, trick_seats=tuple((leader + i) % PLAYERS for i in range(len(played))) if kind == "play" else (),
        tricks=tricks, caps=caps, totals=totals,
        results=(),  # earlier deals' details are not in the protocol; totals carry their sum
        redeal=None, tiebreak_seats=(), winners=(), chips=None, legal=legal,
    )
    return Request(kind=kind, view=view, player_ids=player_ids, time_budget_ms=float(budget))


def _kind_of(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "true/false",
            type(None): "null"}.get(type(value), "a number")


def _field(obj: Mapping[str, Any], key: str, label: str | None = None) -> Any:
    if key not in obj:
        raise ProtocolError(f"missing field {label or key!r}")
    return obj[key]


def _int_field(obj: Mapping[str, Any], key: str, label: str) -> int:
    v = _whole(_field(obj, key, label))
    if v is None:
        raise ProtocolError(f"{label} must be a whole number, got {obj[key]!r}")
    return v


def _whole(v: Any) -> int | None:
    """``v`` as an int if it is a whole number, else None. JSON has a single number type, so a
    sender that writes ``5.0`` means 5; ``5.5``, ``"5"`` and ``true`` are not whole numbers."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return None


def _player_ids(raw: Any) -> tuple[str, ...]:
    if (not isinstance(raw, list) or len(raw) != PLAYERS
            or not all(isinstance(p, str) and p for p in raw)):
        raise ProtocolError(f"playerIds must be a list of {PLAYERS} non-empty ids, got {raw!r}")
    if len(set(raw)) != PLAYERS:
        raise ProtocolError(f"playerIds must be {PLAYERS} different ids, got {raw!r}")
    return tuple(raw)


def _player_entry(raw: Any, pid: str) -> tuple[int, int, int]:
    """(total in tenths, bid, won) of one ``context.players`` entry."""
    label = f"context.players.{pid}"
    if not isinstance(raw, dict):
        raise ProtocolError(f"{label} must be an object, got {_kind_of(raw)}")
    points = _field(raw, "totalPoints", f"{label}.totalPoints")
    if isinstance(points, bool) or not isinstance(points, (int, float)) or not math.isfinite(points):
        raise ProtocolError(f"{label}.totalPoints must be a number, got {points!r}")
    tenths = round(points * 10)
    if abs(points * 10 - tenths) > 1e-6 or abs(tenths) > 10_000:
        raise ProtocolError(f"{label}.totalPoints must be a score in tenths of a point, got {points!r}")
    bid = _int_field(raw, "bid", f"{label}.bid")
    won = _int_field(raw, "won", f"{label}.won")
    if not 0 <= won <= TRICKS:
        raise ProtocolError(f"{label}.won must be 0..{TRICKS}, got {won}")
    return tenths, bid, won


def _cards(raw: Any, label: str) -> tuple[Card, ...]:
    if not isinstance(raw, list):
        raise ProtocolError(f"{label} must be a list of cards, got {_kind_of(raw)}")
    out = []
    for i, text in enumerate(raw):
        try:
            out.append(from_protocol(text))
        except CardError as e:
            raise ProtocolError(f"{label}[{i}]: {e}") from None
    if len(set(out)) != len(out):
        dup = next(c for c in out if out.count(c) > 1)
        raise ProtocolError(f"{label} holds {to_protocol(dup)} more than once")
    return tuple(out)


def _history(raw: Any, player_ids: tuple[str, ...], first: int
             ) -> tuple[tuple[CompletedTrick, ...], list[Card]]:
    """Finished tricks, each led by the previous winner, with the winner the rules give."""
    if not isinstance(raw, list):
        raise ProtocolError(f"history must be a list of finished tricks, got {_kind_of(raw)}")
    if len(raw) >= TRICKS:
        raise ProtocolError(f"history holds {len(raw)} tricks; a deal has {TRICKS} and play "
                            "stops after the last")
    tricks: list[CompletedTrick] = []
    seen: list[Card] = []
    leader = first
    for i, entry in enumerate(raw):
        label = f"history[{i}]"
        if not isinstance(entry, list) or len(entry) != 3:
            raise ProtocolError(f"{label} must be [startIdx, [four cards], winnerIdx], got {entry!r}")
        start_raw, cards_raw, winner_raw = entry
        start, winner = _whole(start_raw), _whole(winner_raw)
        for name, idx, raw_idx in (("startIdx", start, start_raw), ("winnerIdx", winner, winner_raw)):
            if idx is None or not 0 <= idx < PLAYERS:
                raise ProtocolError(f"{label}: {name} must be an index 0..3 into playerIds, "
                                    f"got {raw_idx!r}")
        assert start is not None and winner is not None
        cards = _cards(cards_raw, f"{label} cards")
        if len(cards) != PLAYERS:
            raise ProtocolError(f"{label} holds {len(cards)} cards; a finished trick has {PLAYERS}")
        if start != leader:
            who = "the player after the dealer leads the first trick" if i == 0 else \
                "the winner of the previous trick leads"
            raise ProtocolError(f"{label}: startIdx is {start} ({player_ids[start]}), but "
                                f"{who}: {leader} ({player_ids[leader]})")
        expected = (start + trick_winner(cards, SPADES)) % PLAYERS
        if winner != expected:
            raise ProtocolError(f"{label}: winnerIdx is {winner} ({player_ids[winner]}), but "
                                f"{' '.join(map(to_protocol, cards))} is won by {expected} "
                                f"({player_ids[expected]})")
        tricks.append(CompletedTrick(start, cards, winner, tuple((start + i) % PLAYERS for i in range(PLAYERS))))
        seen.extend(cards)
        leader = winner
    return tuple(tricks), seen


def _check_distinct(hand: Sequence[Card], history: Sequence[Card], played: Sequence[Card]) -> None:
    seen: dict[Card, str] = {}
    for where, cards in (("cards", hand), ("history", history), ("played", played)):
        for c in cards:
            if c in seen:
                place = f"both {seen[c]} and {where}" if seen[c] != where else where + " twice"
                raise ProtocolError(f"{to_protocol(c)} appears in {place}")
            seen[c] = where


def _trick_seats(leader: int, count: int) -> set[int]:
    return {(leader + i) % PLAYERS for i in range(count)}


def _replay(tricks: Sequence[CompletedTrick], played: Sequence[Card], leader: int, seat: int,
            hand: Sequence[Card], player_ids: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    """Replay the deal's plays: check each against what is known, and return the public caps.

    The requester's own plays are checked against the hand they held then (its current cards
    plus the ones it played); the others' against what their earlier plays proved they lack.
    """
    caps = [fresh_caps() for _ in range(PLAYERS)]
    mine = sum(1 << c for c in hand)
    for t in tricks:
        mine |= 1 << t.cards[(seat - t.leader) % PLAYERS]
    sequence = [(t.leader, t.cards, f"history[{i}]") for i, t in enumerate(tricks)]
    sequence.append((leader, tuple(played), "played"))
    for number, (lead, cards, label) in enumerate(sequence):
        for i, card in enumerate(cards):
            s = (lead + i) % PLAYERS
            before = cards[:i]
            if s == seat:
                legal = legal_mask(mine, before, SPADES, RULES, number == 0)
                if not legal >> card & 1:
                    raise ProtocolError(
                        f"{label}: {player_ids[s]}'s own {to_protocol(card)} breaks the rules; from "
                        f"the hand it held it had to play one of "
                        f"{' '.join(to_protocol(c) for c in cards_of(legal))}")
                mine &= ~(1 << card)
            elif card > caps[s][card // 13]:
                suit = Suit(card // 13).name.lower()
                limit = caps[s][card // 13]
                proof = (f"had shown it holds no {suit}" if limit < (card // 13) * 13 else
                         f"had shown it holds no {suit} above {to_protocol(Card(limit))}")
                raise ProtocolError(f"{label}: {player_ids[s]} plays {to_protocol(card)}, but "
                                    f"it {proof} (an earlier play would have been illegal)")
            infer_play(caps[s], before, card, SPADES, RULES, number == 0)
    return tuple(tuple(c) for c in caps)


def _check_dealable(hand: int, history: Sequence[Card], played: Sequence[Card],
                    caps: Sequence[Sequence[int]], sizes: Sequence[int], seat: int,
                    player_ids: tuple[str, ...]) -> None:
    """The cards nobody has shown must fit in the other players' hands, given the voids and
    caps their plays proved: otherwise the history does not add up (and no deal agrees with it).

    Hall's condition: for every group of the other seats, the unseen cards that only that group
    may hold are no more than the cards the group holds between them.
    """
    unseen = FULL_DECK & ~hand
    for c in (*history, *played):
        unseen &= ~(1 << c)
    others = [s for s in range(PLAYERS) if s != seat]
    allowed = {s: allowed_mask(caps[s]) for s in others}
    for size in range(len(others) + 1):
        for group in combinations(others, size):
            outside = 0
            for s in others:
                if s not in group:
                    outside |= allowed[s]
            only = unseen & ~outside  # unseen cards no seat outside the group may hold
            room = sum(sizes[s] for s in group)
            if only.bit_count() > room:
                cards = " ".join(to_protocol(c) for c in cards_of(only))
                where = (f"only {', '.join(player_ids[s] for s in group)} may hold the unseen "
                         f"card(s) {cards}, but they hold {room} card(s) between them") if group \
                    else f"no player may hold the unseen card(s) {cards}"
                raise ProtocolError(f"the history does not add up: {where} (their earlier plays "
                                    "showed which suits and ranks they lack)")


# --- writing a request (client side) ---------------------------------------------------------


def check_rules(rules: Rules) -> None:
    """Refuse rules the protocol cannot express (it speaks ``bhoos-tournament`` only).

    Who deals first and a turn timer may differ: the seat order sent is rotated so the dealer
    sits where the protocol expects, and timing is the caller's business.
    """
    differ = [k for k, v in rules.to_dict().items()
              if v != RULES.to_dict()[k] and k not in ("first_dealer", "turn_timer")]
    if differ:
        raise ProtocolError(
            "the bot-tournament protocol only plays the bhoos-tournament rules (calls 1..8, five "
            f"deals, no blind calls or redeals); these rules differ in: {', '.join(differ)}")


def player_ids_for(view: SeatView) -> tuple[str, ...]:
    """The protocol's seat order for a view: index ``i`` is seat ``(i + offset) % 4``.

    The offset puts this deal's dealer at index ``(round - 1) % 4``; it stays the same for the
    whole match because the dealer moves one seat per deal, as the protocol's index does.
    """
    if view.dealer is None:
        raise ProtocolError("the view has no dealer yet: nothing to ask a protocol bot")
    offset = (view.dealer - (view.deal_number - 1)) % PLAYERS
    return tuple(f"P{(i + offset) % PLAYERS}" for i in range(PLAYERS))


def request_from_view(view: SeatView, *, time_budget_ms: float) -> dict[str, Any]:
    """The ``/bid`` or ``/play`` body for the seat of ``view``, written from the view alone."""
    check_rules(view.rules)
    if view.seat is None or view.hand is None:
        raise ProtocolError("a protocol request needs a seated player who has seen its cards")
    if view.phase not in (Phase.CALL, Phase.PLAY):
        raise ProtocolError(f"the protocol has no request for the {view.phase.value} phase")
    ids = player_ids_for(view)
    index = {int(pid[1:]): i for i, pid in enumerate(ids)}  # seat -> index in playerIds
    players = {
        f"P{s}": {"totalPoints": _points(view.totals[s]),
                  "bid": view.calls[s] or 0, "won": view.won[s]}
        for s in range(PLAYERS)
    }
    body: dict[str, Any] = {
        "playerId": f"P{view.seat}",
        "playerIds": list(ids),
        "cards": [to_protocol(c) for c in view.hand],
        "timeBudget": round(time_budget_ms, 3),
        "context": {"round": view.deal_number,
                    "players": {pid: players[pid] for pid in ids}},
    }
    if view.phase is Phase.PLAY:
        body["played"] = [to_protocol(c) for c in view.trick]
        body["history"] = [[index[t.leader], [to_protocol(c) for c in t.cards], index[t.winner]]
                           for t in view.tricks]
    return body


def _points(tenths: int) -> int | float:
    return tenths // 10 if tenths % 10 == 0 else tenths / 10


def kind_for(view: SeatView) -> Kind:
    """Which endpoint a view's decision goes to."""
    return "bid" if view.phase is Phase.CALL else "play"


# --- answers -------------------------------------------------------------------------------------


def answer_json(action: Action) -> dict[str, Any]:
    """A bot's answer body: ``{"value": 3}`` for a call, ``{"value": "QS"}`` for a card."""
    if isinstance(action, Call):
        return {"value": action.tricks}
    if isinstance(action, Play):
        return {"value": to_protocol(action.card)}
    raise ProtocolError(f"the protocol has no answer for {action!r}")


def action_from_answer(view: SeatView, data: Any) -> Action:
    """Read a bot's answer for ``view``; raise :class:`ProtocolError` unless it is legal."""
    if not isinstance(data, dict) or "value" not in data:
        raise ProtocolError(f"the answer must be an object with a value, got {data!r}")
    value = data["value"]
    seat = view.seat
    assert seat is not None
    if view.phase is Phase.CALL:
        tricks = _whole(value)
        if tricks is None:
            raise ProtocolError(f"a call must be a whole number, got {value!r}")
        action: Action = Call(seat, tricks)
    else:
        try:
            action = Play(seat, from_protocol(value))
        except CardError as e:
            raise ProtocolError(f"the answer is not a card: {e}") from None
    if action not in view.legal:
        if isinstance(action, Call):
            raise ProtocolError(f"a call must be {RULES.min_call}..{RULES.max_call}, got {value}")
        legal = " ".join(to_protocol(c) for c in view.legal_cards)
        raise ProtocolError(f"{value} is not a legal card here; legal: {legal}")
    return action
