"""Play one match between four players, feeding each only its own seat view.

The runner is the referee: it asks the seat to act for a decision with a time budget, and when a
player raises, runs over its budget, or answers with something illegal, it records a
:class:`Fault` and plays :meth:`Match.default_action` (what the turn timer would do) instead, so a
misbehaving player never stops a match. In-process bots cannot be pre-empted, so an overrun is
noticed once the bot returns; remote players are cut off by their own HTTP timeout, which shows
up here as an exception.

>>> from callbreak.bots import make_bot
>>> from callbreak.core import make_rules
>>> bots = [make_bot("random", seed=s) for s in range(4)]
>>> out = play_match(make_rules("callbreak"), bots, seed=1)
>>> out.match.is_over, len(out.match.results), sum(len(s.faults) for s in out.seats)
(True, 5, 0)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from callbreak.bots import Bot, Decision
from callbreak.bots.games_bots import GameDecision
from callbreak.core import CHANCE, Action, CallbreakError, ChooseDealer, Deal, Draw, Match, Rules, Stop
from callbreak.core.cards import DECK
from callbreak.core.dealing import shuffled_hands
from callbreak.core.rules import FirstDealer
from callbreak.core.view import Phase
from callbreak.games import Action, TrickGame
from callbreak.games.base import GamePhase, shuffled_pack
from callbreak.games.record import GameRecord, game_record_of
from callbreak.record import Record, record_of

PLAYERS = 4
DEFAULT_BUDGET = 1.0  # seconds a move
DEFAULT_TOLERANCE = 0.05  # seconds past the budget before a slow answer counts as a fault
UNLIMITED_MATCH_DEALS = 5  # where the rules never end a match, the arena stops the table here


class ArenaError(CallbreakError):
    """A run that cannot go on (bad players, bad settings, a match that never ends)."""


@dataclass(frozen=True, slots=True)
class Fault:
    """A move the referee had to make for a player, and why."""

    seat: int
    player: str
    deal: int  # 1-based deal number of the match
    kind: str  # "error", "timeout" or "illegal"
    detail: str
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "player": self.player, "deal": self.deal, "kind": self.kind,
                "detail": self.detail, "seconds": round(self.seconds, 6)}


@dataclass(slots=True)
class SeatStats:
    """What one seat's player did in a match: decision times (seconds) and faults."""

    player: str
    times: list[float] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)

    @property
    def moves(self) -> int:
        return len(self.times)


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """A finished match: the engine state, its record, and per-seat stats."""

    match: Match
    record: Record
    seats: tuple[SeatStats, ...]

    @property
    def faults(self) -> list[Fault]:
        return [f for s in self.seats for f in s.faults]


class DealStream:
    """Chance for an arena match: the first dealer and then a seeded stream of deals.

    Deals come from ``deals`` first, then from a generator seeded with ``seed``. The n-th deal
    handed out is the same whatever happened before it, so a thrown-in deal (a weak-hand claim,
    calls under ``min_call_total``) simply moves on to the next deal of the stream: replaying the
    same stream with players rotated gives every rotation the same cards, as duplicate play needs.
    The first dealer uses a generator of its own, for the same reason.

    ``stop_after`` ends a match with unlimited deals after that many scored deals; with a fixed
    list of deals and unlimited rules the table stops when the list runs out.
    """

    def __init__(self, seed: int | str | None = None, *, deals: Sequence[Deal] = (),
                 stop_after: int | None = None) -> None:
        # String seeds hash the same way on every run and machine (random.Random uses SHA-512).
        self._deal_rng = random.Random(f"deals/{seed}" if seed is not None else None)
        self._dealer_rng = random.Random(f"dealer/{seed}" if seed is not None else None)
        self._fixed = list(deals)
        self._only_fixed = bool(deals) and stop_after is None
        self.stop_after = stop_after
        self.dealt = 0  # deals handed out, thrown-in ones included

    def chance(self, match: Match) -> Action:
        """The chance action ``match`` is waiting for."""
        if match.phase is Phase.DRAW:
            if match.rules.first_dealer is FirstDealer.RANDOM:
                return ChooseDealer(self._dealer_rng.randrange(PLAYERS))
            return Draw(cards=tuple(self._dealer_rng.sample(DECK, PLAYERS)))
        if match.phase is not Phase.DEAL:
            raise ArenaError(f"no chance step is due in the {match.phase.value} phase")
        if match.can_stop:
            if self.stop_after is not None and len(match.results) >= self.stop_after:
                return Stop()
            if self._only_fixed and self.dealt >= len(self._fixed):
                return Stop()
        return self.next_deal()

    def next_deal(self) -> Deal:
        if self.dealt < len(self._fixed):
            deal = self._fixed[self.dealt]
        else:
            deal = Deal(hands=shuffled_hands(self._deal_rng))
        self.dealt += 1
        return deal


MoveHook = Callable[[Match, int, Action, float], None]


def play_match(
    rules: Rules,
    players: Sequence[Bot],
    *,
    seed: int | str | None = None,
    deals: Sequence[Deal] = (),
    chance: DealStream | None = None,
    budget: float = DEFAULT_BUDGET,
    tolerance: float = DEFAULT_TOLERANCE,
    names: Sequence[str] | None = None,
    meta: dict[str, Any] | None = None,
    clock: Callable[[], float] = time.perf_counter,
    on_move: MoveHook | None = None,
) -> MatchOutcome:
    """Play a whole match: ``players[s]`` sits in seat ``s`` and sees only ``match.view(s)``.

    Args:
        rules: the rules of the table.
        players: four bots (anything with ``name`` and ``decide(view, budget)``).
        seed: seeds the deals when ``chance`` is not given.
        deals: fixed deals to play first (then the seeded stream continues).
        chance: a ready :class:`DealStream` (overrides ``seed`` and ``deals``).
        budget: seconds each decision may take.
        tolerance: seconds past the budget still accepted (scheduling noise on a busy machine).
        names: seat names for the record (default: the players' names).
        meta: extra keys for the record's ``meta``.
        clock: the timer (a test can pass a fake one).
        on_move: called after every seat move with (match, seat, action applied, seconds).

    Returns:
        the finished match, its record (faults listed in ``meta["faults"]``) and per-seat stats.
    """
    if len(players) != PLAYERS:
        raise ArenaError(f"a match needs {PLAYERS} players, got {len(players)}")
    if budget <= 0:
        raise ArenaError(f"the budget must be positive, got {budget}")
    seat_names = list(names) if names is not None else [str(getattr(p, "name", "?")) for p in players]
    if chance is None:
        stop_after = UNLIMITED_MATCH_DEALS if rules.deals is None and not deals else None
        chance = DealStream(seed, deals=deals, stop_after=stop_after)
    match = Match(rules)
    stats = tuple(SeatStats(seat_names[s]) for s in range(PLAYERS))
    # A match whose deals keep being thrown in (calls always under min_call_total) never ends.
    deal_limit = 20 * (rules.deals or chance.stop_after or UNLIMITED_MATCH_DEALS) + 100
    stream = chance

    def next_chance() -> Action:
        if stream.dealt > deal_limit:
            raise ArenaError(f"the match did not finish after {stream.dealt} deals were dealt "
                             "(every deal thrown in?)")
        return stream.chance(match)

    play_out(match, players, stats, next_chance=next_chance, default=match.default_action,
             deal_number=lambda: match.deal_number, budget=budget, tolerance=tolerance,
             clock=clock, on_move=on_move)
    record_meta = dict(meta or {})
    record_meta["faults"] = [f.to_json() for s in stats for f in s.faults]
    return MatchOutcome(match, record_of(match, seat_names, record_meta), stats)


class Table(Protocol):
    """What the referee needs of a game: Call Break's :class:`Match` and every related game
    (:class:`callbreak.games.TrickGame`) have this shape."""

    @property
    def is_over(self) -> bool: ...

    @property
    def to_act(self) -> int | None: ...

    def view(self, seat: int) -> Any: ...

    def apply(self, action: Any) -> None: ...


def play_out(table: Table, players: Sequence[Any], stats: Sequence[SeatStats], *,
             next_chance: Callable[[], Any], default: Callable[[], Any],
             deal_number: Callable[[], int], budget: float, tolerance: float,
             clock: Callable[[], float] = time.perf_counter, on_move: Any = None) -> None:
    """Play ``table`` (a :class:`Table`) to its end: chance steps from ``next_chance()``, each
    seat's move refereed from that seat's view only, ``default()`` played for a faulting seat."""
    while not table.is_over:
        seat = table.to_act
        assert seat is not None
        if seat == CHANCE:
            table.apply(next_chance())
            continue
        action, seconds, fault = referee(table.view(seat), seat, players[seat], default=default,
                                         deal=deal_number(), budget=budget, tolerance=tolerance,
                                         name=stats[seat].player, clock=clock)
        stats[seat].times.append(seconds)
        if fault is not None:
            stats[seat].faults.append(fault)
        table.apply(action)
        if on_move is not None:
            on_move(table, seat, action, seconds)


def refereed_action(match: Match, seat: int, player: Bot, *, budget: float = DEFAULT_BUDGET,
                    tolerance: float = DEFAULT_TOLERANCE, name: str | None = None,
                    clock: Callable[[], float] = time.perf_counter) -> tuple[Action, float, Fault | None]:
    """Ask ``player`` (in ``seat``, which must be the seat to act) for one decision, refereed.

    Returns the action to apply (the player's, or :meth:`Match.default_action` when it faulted),
    the seconds it took, and the :class:`Fault` if there was one. Nothing is applied here, so a
    terminal or web table can use it for its bot seats too.
    """
    action: Action
    action, seconds, fault = referee(match.view(seat), seat, player, default=match.default_action,
                                     deal=match.deal_number, budget=budget, tolerance=tolerance,
                                     name=name, clock=clock)
    return action, seconds, fault


def referee(view: Any, seat: int, player: Any, *, default: Callable[[], Any], deal: int,
            budget: float = DEFAULT_BUDGET, tolerance: float = DEFAULT_TOLERANCE,
            name: str | None = None,
            clock: Callable[[], float] = time.perf_counter) -> tuple[Any, float, Fault | None]:
    """One refereed decision from ``view`` (which lists the legal actions): the player's action,
    or ``default()`` with a :class:`Fault` when it raised, overran or answered something illegal."""
    start = clock()
    error_kind = "error"
    try:
        answer: Any = player.decide(view, budget)
        error: str | None = None
    except Exception as e:  # any failure of a player is its fault, never the referee's
        answer, error = None, f"{type(e).__name__}: {e}"
        # A remote player's error says whether the bot timed out or answered something illegal.
        error_kind = str(getattr(e, "fault_kind", "error"))
    seconds = clock() - start
    if error is not None:
        kind, detail = error_kind, error
    elif seconds > budget + tolerance:
        kind, detail = "timeout", f"took {seconds:.3f} s of a {budget:g} s budget"
    else:
        # Call Break bots answer a Decision, game bots a GameDecision: both carry ``action``.
        action = answer.action if isinstance(answer, Decision | GameDecision) else answer
        try:
            legal = action in view.legal
        except Exception:  # an answer whose comparison itself fails is no action at all
            legal = False
        if legal:
            return action, seconds, None
        kind, detail = "illegal", f"answered {action!r}, which is not legal now"
    who = name if name is not None else str(getattr(player, "name", "?"))
    return default(), seconds, Fault(seat, who, deal, kind, detail, seconds)


# --- the related games (callbreak.games) ---------------------------------------------------

GAME_HAND_LIMIT = 1000  # a related game still going after this many deals is refused as endless


class GameDealStream:
    """Chance for a related game in the arena: the n-th deal is made from the n-th pack of a
    seeded stream of shuffled packs, whatever happened before it, so every seating of a duplicate
    set deals the same cards (from the same dealer, as long as the games keep step)."""

    def __init__(self, seed: int | str | None = None) -> None:
        self._rng = random.Random(f"game-deals/{seed}" if seed is not None else None)
        self.dealt = 0

    def chance(self, game: TrickGame) -> Action:
        if game.phase is not GamePhase.DEAL:
            raise ArenaError(f"no chance step is due in the {game.phase.value} phase")
        if self.dealt >= GAME_HAND_LIMIT:
            raise ArenaError(f"the game did not finish after {self.dealt} deals (set max_hands?)")
        self.dealt += 1
        return game.deal_from_pack(shuffled_pack(self._rng))


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """A finished related game: the game state, its record, and per-seat stats."""

    game: TrickGame
    record: GameRecord
    seats: tuple[SeatStats, ...]

    @property
    def faults(self) -> list[Fault]:
        return [f for s in self.seats for f in s.faults]


def play_game(game: TrickGame, players: Sequence[Any], *, chance: GameDealStream,
              budget: float = DEFAULT_BUDGET, tolerance: float = DEFAULT_TOLERANCE,
              names: Sequence[str] | None = None, meta: dict[str, Any] | None = None,
              clock: Callable[[], float] = time.perf_counter) -> GameOutcome:
    """Play a related game to its end, refereed like :func:`play_match`: ``players[s]`` (game
    bots, :func:`callbreak.bots.games_bots.make_game_bot`) sees only ``game.view(s)``. A faulting
    seat gets its first legal action (the games have no turn-timer default)."""
    if len(players) != game.players:
        raise ArenaError(f"{game.TITLE} here seats {game.players} players, got {len(players)}")
    if budget <= 0:
        raise ArenaError(f"the budget must be positive, got {budget}")
    seat_names = list(names) if names is not None else [str(getattr(p, "name", "?")) for p in players]
    stats = tuple(SeatStats(seat_names[s]) for s in range(game.players))
    play_out(game, players, stats, next_chance=lambda: chance.chance(game),
             default=lambda: game.legal_actions()[0], deal_number=lambda: game.hand_number,
             budget=budget, tolerance=tolerance, clock=clock)
    record_meta = dict(meta or {})
    record_meta["faults"] = [f.to_json() for s in stats for f in s.faults]
    return GameOutcome(game, game_record_of(game, seat_names, record_meta), stats)
