"""One referee for every table: a game between seats, stepped by one function.

:class:`Referee` keeps a game and whatever deals its chance actions, and moves it on one action
at a time: :meth:`Referee.step` deals what chance owes or asks the seat to act, and
:meth:`Referee.submit` applies an action a seat gave. Either way an action is verified once (by
the game's own ``apply``, which changes nothing when it refuses), applied, and told to the
listeners as :class:`Moved` and, when a deal is scored, :class:`DealScored`. A bot's answer is
refereed (:func:`referee`): when it raises, runs over its budget or is not legal, the seat is
charged a :class:`Fault` and the game's ``default_action()`` is played for it, so a misbehaving
player never stops a game; a person's illegal action is refused instead, naming why. A table that
asks its bots in its own way (the web's, in a thread beside its event loop; the bot server,
against its own deadline) judges their answers by the same rule, :func:`judge`.

The arena and ``callbreak related-games`` play whole games through :meth:`Referee.play`; a table
that waits for people steps it as their actions arrive. A table that stores every action before
it applies it (the web's, so that a crash loses nothing) takes the step in two: :meth:`Referee.check`
the action (chance's from :meth:`Referee.chance_due`), store it, then :meth:`Referee.commit` it.

>>> from callbreak.bots import make_bot
>>> from callbreak.games import game_info, new_game
>>> game = new_game("donut", players=4, max_hands=1)
>>> table = Referee(game, game_info("donut").dealer(3),
...                 [BotSeat(make_bot("random", seed=s, game="donut")) for s in range(4)])
>>> table.play().is_over, [len(s.faults) for s in table.stats], len(table.deal_points)
(True, [0, 0, 0, 0], 1)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from callbreak.bots import Decision
from callbreak.core.actions import CHANCE, Action
from callbreak.core.errors import CallbreakError, IllegalActionError
from callbreak.core.game import Chance, Game, GameView
from callbreak.games import game_info

DEFAULT_BUDGET = 1.0  # seconds a move
DEFAULT_TOLERANCE = 0.05  # seconds past the budget before a slow answer counts as a fault


@dataclass(frozen=True, slots=True)
class Fault:
    """A move the referee had to make for a player, and why."""

    seat: int
    player: str
    deal: int  # 1-based deal number of the match
    kind: str  # "error", "timeout" or "illegal"
    detail: str
    seconds: float
    answer: str = ""  # what an illegal answer was (its repr)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "player": self.player, "deal": self.deal, "kind": self.kind,
                "detail": self.detail, "seconds": round(self.seconds, 6)}


@dataclass(slots=True)
class SeatStats:
    """What one seat's player did in a game: decision times (seconds) and faults."""

    player: str
    times: list[float] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)

    @property
    def moves(self) -> int:
        return len(self.times)


# --- what the referee tells its listeners ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Moved:
    """``action`` was applied for ``seat`` (CHANCE for a deal, a draw, a stop); ``fault`` when
    the referee played it in place of a player's answer."""

    game: Game
    seat: int
    action: Action
    seconds: float = 0.0
    fault: Fault | None = None


@dataclass(frozen=True, slots=True)
class DealScored:
    """A deal was scored: each seat's points for it, in tenths, higher better (the sign flipped
    in the games where the lowest score wins)."""

    game: Game
    points: tuple[int, ...]


Event = Moved | DealScored
Listener = Callable[[Event], None]


# --- seats ------------------------------------------------------------------------------------


class Seat(Protocol):
    """Who plays a seat, as the referee asks it: an in-process bot, a remote bot (the same,
    through :class:`~callbreak.protocol.client.RemoteBot`), or a person, whose actions arrive by
    :meth:`Referee.submit` instead (asking a :class:`PersonSeat` is an error)."""

    name: str

    def ask(self, view: GameView, seat: int, deal: int, default: Callable[[], Any]
            ) -> tuple[Any, float, Fault | None]: ...


class BotSeat:
    """A seat played by a bot (anything with ``name`` and ``decide(view, budget)``), refereed."""

    def __init__(self, bot: Any, *, budget: float = DEFAULT_BUDGET, tolerance: float = DEFAULT_TOLERANCE,
                 name: str | None = None, clock: Callable[[], float] = time.perf_counter) -> None:
        if budget <= 0:
            raise CallbreakError(f"the budget must be positive, got {budget}")
        self.bot = bot
        self.name = name if name is not None else str(bot.name)
        self.budget, self.tolerance, self.clock = budget, tolerance, clock

    def ask(self, view: GameView, seat: int, deal: int, default: Callable[[], Any],
            budget: float | None = None) -> tuple[Any, float, Fault | None]:
        """(``budget``: this decision's, where a table gives each its own.)"""
        return _judged(view, seat, self.bot, default, deal, budget or self.budget, self.tolerance, self.name,
                       self.clock)


class PersonSeat:
    """A seat whose player acts in their own time (the terminal, a web page)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def ask(self, view: GameView, seat: int, deal: int, default: Callable[[], Any]
            ) -> tuple[Any, float, Fault | None]:
        raise CallbreakError(f"seat {seat} ({self.name}) is a person: their actions are submitted")


def referee(view: GameView, seat: int, player: Any, *, default: Callable[[], Any], deal: int,
            budget: float = DEFAULT_BUDGET, tolerance: float = DEFAULT_TOLERANCE,
            name: str | None = None,
            clock: Callable[[], float] = time.perf_counter) -> tuple[Any, float, Fault | None]:
    """One refereed decision from ``view`` (which lists the legal actions): the player's action,
    or ``default()`` with a :class:`Fault` when it raised, overran or answered something illegal.

    In-process bots cannot be pre-empted, so an overrun is noticed once the bot returns; remote
    players are cut off by their own HTTP timeout, which shows up here as an exception."""
    return _judged(view, seat, player, default, deal, budget, tolerance, name, clock)


def _judged(view: GameView, seat: int, player: Any, default: Callable[[], Any], deal: int, budget: float,
            tolerance: float, name: str | None, clock: Callable[[], float]) -> tuple[Any, float, Fault | None]:
    """:func:`referee`, its arguments by position (it runs for every move of every bot)."""
    start = clock()
    try:
        answer: Any = player.decide(view, budget)
        error: Exception | None = None
    except Exception as e:  # any failure of a player is its fault, never the referee's
        answer, error = None, e
    seconds = clock() - start
    action, fault = judge(view, seat, answer, error, seconds, default, deal, budget, tolerance,
                          name if name is not None else str(player.name))
    return action, seconds, fault


def judge(view: GameView, seat: int, answer: Any, error: Exception | None, seconds: float,
          default: Callable[[], Any], deal: int, budget: float, tolerance: float, who: str
          ) -> tuple[Any, Fault | None]:
    """The referee's rule for a bot's answer (a :class:`~callbreak.bots.Decision` or an action)
    or the ``error`` it raised, after ``seconds``: the action, when it came within the budget and
    the tolerance and is among ``view``'s legal ones; else ``default()`` and the :class:`Fault`.
    For a table that asks its bots in its own way (the web's, in a thread beside its event loop);
    :func:`referee` asks and judges at once."""
    if error is not None:
        # A remote player's error says whether the bot timed out or answered something illegal.
        kind = str(getattr(error, "fault_kind", "error"))
        return default(), Fault(seat, who, deal, kind, f"{type(error).__name__}: {error}", seconds)
    if seconds > budget + tolerance:
        return default(), Fault(seat, who, deal, "timeout", f"took {seconds:.3f} s of a {budget:g} s budget", seconds)
    action = answer.action if isinstance(answer, Decision) else answer
    try:
        legal = action in view.legal
    except Exception:  # an answer whose comparison itself fails is no action at all
        legal = False
    if legal:
        return action, None
    return default(), Fault(seat, who, deal, "illegal", f"answered {action!r}, which is not legal now", seconds,
                            repr(action))


# --- the table ----------------------------------------------------------------------------------


class Referee:
    """A game between ``seats``, moved on by :meth:`step` and :meth:`submit` (see the module)."""

    def __init__(self, game: Game, chance: Chance, seats: Sequence[Seat], *,
                 listeners: Sequence[Listener] = (), name: str | None = None) -> None:
        info = game_info(name or game.NAME)
        if len(seats) != game.players:
            raise CallbreakError(f"this {info.title} table seats {game.players} players, got {len(seats)}")
        self.game = game
        self.chance = chance
        self.seats = list(seats)
        self.listeners = list(listeners)
        self.stats = tuple(SeatStats(s.name) for s in self.seats)
        self._times = [s.times for s in self.stats]  # (appended to at every move)
        self.deal_points: list[tuple[int, ...]] = []
        self._sign = -10 if info.low_wins else 10
        self._scores = list(game.scores)
        self._scored = len(game.results)

    @property
    def to_act(self) -> int | None:
        """The seat to act, CHANCE while chance owes an action, None once the game is over."""
        return self.game.to_act

    def play(self) -> Game:
        """Step the game to its end (every seat a bot: a seat that waits for a person stops it
        with an error)."""
        while not self.game.is_over:
            self.step()
        return self.game

    def step(self) -> Action:
        """Apply the next action, and return it: chance's when it owes one, else the answer of
        the seat to act, refereed."""
        game = self.game
        seat = game.to_act
        if seat == CHANCE:
            action = self.chance_due()
            self._apply(CHANCE, action)
            return action
        if seat is None:
            raise CallbreakError("the game is over")
        answer: Action
        answer, seconds, fault = self.seats[seat].ask(game.view(seat), seat, self._scored + 1, game.default_action)
        self._times[seat].append(seconds)
        if fault is not None:
            self.stats[seat].faults.append(fault)
        self._apply(seat, answer, seconds, fault)
        return answer

    def submit(self, seat: int, action: Action, seconds: float = 0.0) -> None:
        """Apply a person's ``action`` for ``seat``; an illegal one raises
        :class:`~callbreak.core.errors.IllegalActionError` and changes nothing."""
        if not isinstance(action, Action):
            raise IllegalActionError(f"not an action: {action!r}")
        if action.actor != seat:
            raise IllegalActionError(f"seat {seat} cannot act for seat {action.actor}")
        self._apply(seat, action, seconds)

    def chance_due(self) -> Action:
        """Chance's action now due (a deal, a draw for dealer, a stop), not yet applied."""
        return self.chance.chance(self.game)

    def check(self, action: Action) -> None:
        """Refuse ``action`` unless it may be applied now (an
        :class:`~callbreak.core.errors.IllegalActionError` naming why), changing nothing: the
        first half of a step for a table that stores an action before applying it."""
        if not isinstance(action, Action):
            raise IllegalActionError(f"not an action: {action!r}")
        self.game.verify(action)

    def commit(self, action: Action, seconds: float = 0.0, fault: Fault | None = None) -> None:
        """Apply ``action``, which :meth:`check` accepted with nothing applied since, for its
        actor (``fault``: the referee played it in place of the seat's answer)."""
        self.game.apply_verified(action)  # (checked once, by check)
        self._moved(action.actor, action, seconds, fault)

    def _apply(self, seat: int, action: Action, seconds: float = 0.0, fault: Fault | None = None) -> None:
        self.game.apply(action)  # (verifies: a refused action changes nothing)
        self._moved(seat, action, seconds, fault)

    def _moved(self, seat: int, action: Action, seconds: float, fault: Fault | None) -> None:
        game = self.game
        if self.listeners:
            self._tell(Moved(game, seat, action, seconds, fault))
        if len(game.results) > self._scored:  # a deal was scored: its points, in tenths
            self._scored = len(game.results)
            now = list(game.scores)
            points = tuple(round(self._sign * (a - b)) for a, b in zip(now, self._scores, strict=True))
            self._scores = now
            self.deal_points.append(points)
            if self.listeners:
                self._tell(DealScored(game, points))

    def _tell(self, event: Event) -> None:
        for listener in self.listeners:
            listener(event)
