"""One person against three bots: the game logic of terminal play, without any drawing.

A :class:`Session` owns the :class:`~callbreak.core.Match` the way a server owns a table. The
interface asks it for the person's :class:`~callbreak.core.SeatView` and hands it actions; it
never gives the interface another seat's cards. Every applied action is saved at once as a game
record, so ``callbreak play --resume`` can rebuild the match by replaying it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from pathlib import Path
from typing import Any

from callbreak.bots import Bot, BotError, Decision, available, make_bot
from callbreak.cli.tui.saves import APP_TAG as APP_TAG  # re-exported: game_session, tests
from callbreak.cli.tui.saves import new_save_path, write_atomically
from callbreak.core import (
    CHANCE,
    Action,
    CallbreakError,
    Dealer,
    Match,
    RecordError,
    Rules,
    SeatView,
)
from callbreak.core.actions import action_seat
from callbreak.record import dumps, loads, record_of, replay

STRENGTH_ORDER = ("expert", "heuristic", "beginner", "random")
"""Bot names from strongest to weakest; the first registered one is the default and the hint."""

POSITIONS = ("South", "East", "North", "West")
"""Where each seat sits as the person sees the table: themself at the bottom, play going right."""


class Turn(str, Enum):
    """Who the match is waiting for."""

    HUMAN = "human"
    BOT = "bot"
    CHANCE = "chance"  # a deal (or first-dealer choice) is due
    STOP_CHOICE = "stop_choice"  # unlimited deals: the person decides whether to deal again
    OVER = "over"


def best_bot_name(names: Sequence[str] | None = None) -> str:
    """The strongest registered bot (the default opponent and the hint giver)."""
    registered = set(available() if names is None else names)
    for name in STRENGTH_ORDER:
        if name in registered:
            return name
    return "random"


def default_opponents() -> tuple[str, str, str]:
    """Three of the strongest bot available."""
    best = best_bot_name()
    return (best, best, best)


def make_opponent(spec: str, seed: int | None) -> Bot:
    """A bot by name (``"heuristic"``), with options, or a tournament-protocol bot by URL.

    The protocol layer's ``make_player`` understands both names and URLs; until it exists only
    local bots can be named.
    """
    try:
        from callbreak.protocol.players import make_player
    except ImportError:
        if _is_url(spec):
            raise BotError(f"cannot play against {spec!r}: remote bots need the tournament "
                           "protocol client, which is not installed") from None
        return make_bot(spec, seed=seed)
    player: Bot = make_player(spec, seed)
    return player


def _is_url(spec: str) -> bool:
    return spec.strip().lower().startswith(("http://", "https://"))


def _check_remote(specs: Sequence[str], rules: Rules) -> None:
    """Refuse, before the match starts, rules that tournament-protocol bots cannot play."""
    if not any(_is_url(s) for s in specs):
        return
    try:
        from callbreak.protocol.wire import check_rules
    except ImportError:
        return  # make_opponent explains that remote bots are unavailable
    try:
        check_rules(rules)
    except CallbreakError as e:
        raise BotError(f"remote bots cannot play these rules ({e}); try --preset "
                       "bhoos-tournament") from None


def _check_answering(specs: Sequence[str], timeout: float) -> None:
    """Refuse, before the match starts, tournament-bot URLs where no bot answers ``GET /hi``:
    otherwise every move of that seat would silently be the timer's default."""
    urls = [s.strip() for s in specs if _is_url(s)]
    if not urls:
        return
    try:
        from callbreak.protocol.client import RemoteBot
    except ImportError:
        return  # make_opponent explains that remote bots are unavailable
    silent = [url for url in dict.fromkeys(urls) if not RemoteBot(url).hello(timeout)]
    if silent:
        raise BotError(f"no tournament bot answers at {', '.join(silent)} (GET /hi); start one "
                       "(e.g. `callbreak bot-server --bot heuristic --port 7000`) or check the URL")


@dataclass(frozen=True, slots=True)
class BotMove:
    """What a bot did, and whether it had to be replaced by the default action."""

    action: Action
    reason: str
    fallback: str = ""  # why the bot's own choice was not used, if it was not


class Session:
    """A match between the person at ``human`` and bots at the other seats, saved as it goes."""

    def __init__(self, match: Match, *, human: int, opponents: dict[int, str], seed: int,
                 save_path: Path | None, started: str | None = None) -> None:
        self.match = match
        self.human = human
        self.opponents = dict(opponents)
        self.seed = seed
        self.save_path = save_path
        self.started = started or datetime.now(UTC).isoformat(timespec="seconds")
        self.bots: dict[int, Bot] = {
            seat: make_opponent(spec, seed=seed * 10 + seat) for seat, spec in self.opponents.items()}
        self._hint_bot: Bot | None = None
        self._resumed = bool(match.history)
        self.save_error: str | None = None

    # --- building ----------------------------------------------------------------------

    @classmethod
    def new(cls, rules: Rules, *, opponents: Sequence[str] | None = None, seat: int = 0,
            seed: int | None = None, save_path: Path | None = None, save: bool = True,
            reach_timeout: float | None = 3.0) -> Session:
        """A fresh match. Raises :class:`CallbreakError` for a bad seat or an unknown bot, or
        (unless ``reach_timeout`` is None) a bot URL where nothing answers within that many
        seconds; nothing is saved then."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
            raise CallbreakError(f"--seat must be 0, 1, 2 or 3, got {seat!r}")
        specs = tuple(opponents) if opponents is not None else default_opponents()
        if len(specs) == 1:
            specs = specs * 3
        if len(specs) != 3 or not all(s.strip() for s in specs):
            raise BotError(f"--opponents needs one or three bot names separated by commas, got "
                           f"{','.join(specs)!r}; bots are: {', '.join(available())}")
        _check_remote(specs, rules)
        if reach_timeout is not None:
            _check_answering(specs, reach_timeout)
        others = [(seat + i) % 4 for i in (1, 2, 3)]  # in play order: East, North, West
        table = {s: spec.strip() for s, spec in zip(others, specs, strict=True)}
        if seed is None:
            seed = random.SystemRandom().randrange(1, 2**31)
        path = (save_path or new_save_path()) if save else None
        session = cls(Match(rules), human=seat, opponents=table, seed=seed, save_path=path)
        session.save()
        return session

    @classmethod
    def resume(cls, path: Path, *, reach_timeout: float | None = 3.0) -> Session:
        """Rebuild a saved match by replaying its record; bots are re-created from its meta.

        Bot URLs where nothing answers are refused as in :meth:`new` (the save is untouched)."""
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise RecordError(f"cannot read {path}: {e.strerror}") from None
        record = loads(text)
        meta = record.meta
        if meta.get("app") != APP_TAG:
            raise RecordError(f"{path} was not saved by `callbreak play`, so there is no seat to "
                              "resume; step through it with `callbreak replay FILE --step`")
        try:
            human = int(meta["human_seat"])
            opponents = {int(k): str(v) for k, v in dict(meta["opponents"]).items()}
            seed = int(meta["seed"])
        except (KeyError, TypeError, ValueError) as e:
            raise RecordError(f"{path}: the saved game's meta is incomplete ({e})") from None
        if not 0 <= human <= 3 or sorted(opponents) != [s for s in range(4) if s != human]:
            raise RecordError(f"{path}: the saved seats do not make a table")
        match = replay(record)
        if reach_timeout is not None:
            _check_answering(list(opponents.values()), reach_timeout)
        return cls(match, human=human, opponents=opponents, seed=seed, save_path=path,
                   started=str(meta.get("started") or ""))

    # --- what the interface may read ---------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.match.is_over

    @property
    def resumed(self) -> bool:
        """Whether the match already had actions when this session took it over."""
        return self._resumed

    @property
    def rules(self) -> Rules:
        return self.match.rules

    def view(self) -> SeatView:
        """Everything the person may see, and nothing more."""
        return self.match.view(self.human)

    def names(self) -> tuple[str, ...]:
        """Display names by seat: "You" and e.g. "East (expert)"."""
        return tuple(
            "You" if s == self.human
            else f"{POSITIONS[(s - self.human) % 4]} ({_short(self.opponents[s])})"
            for s in range(4))

    def position(self, seat: int) -> str:
        """South/East/North/West as the person sees it."""
        return POSITIONS[(seat - self.human) % 4]

    @property
    def turn(self) -> Turn:
        m = self.match
        if m.is_over:
            return Turn.OVER
        if m.to_act == CHANCE:
            return Turn.STOP_CHOICE if m.can_stop else Turn.CHANCE
        return Turn.HUMAN if m.to_act == self.human else Turn.BOT

    # --- acting ------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply an action and save. A refused action raises and changes nothing, on disk too.

        A save that fails (disk full, folder removed) does not stop the game: the error is kept
        in :attr:`save_error` for the interface to show, and the next action tries again.
        """
        self.match.apply(action)
        try:
            self.save()
        except OSError as e:
            self.save_error = f"could not save the game to {self.save_path}: {e.strerror or e}"
        else:
            self.save_error = None

    def apply_human(self, action: Action) -> None:
        """Apply an action the person chose; anything not theirs is refused."""
        if action_seat(action) != self.human:
            raise CallbreakError("you can only act for your own seat")
        self.apply(action)

    def default_action(self) -> Action:
        """What the turn timer plays for the person (004): biggest card, lowest call, keep."""
        if self.match.to_act != self.human:
            raise CallbreakError("it is not your turn")
        return self.match.default_action()

    def chance_action(self, *, stop: bool = False) -> Action:
        """The next chance step. Seeded by the game's seed and the step's position, so a resumed
        match deals exactly the cards the uninterrupted one would have."""
        dealer = Dealer(seed=_mix(self.seed, len(self.match.history)))
        return dealer.chance(self.match, stop=stop)

    def bot_view(self) -> tuple[int, SeatView]:
        """The seat to act and its view, to be handed to that seat's bot (maybe in a thread)."""
        seat = self.match.to_act
        if seat is None or seat == CHANCE or seat == self.human:
            raise CallbreakError("no bot is to act")
        return seat, self.match.view(seat)

    def decide(self, seat: int, view: SeatView, budget: float) -> BotMove:
        """Ask ``seat``'s bot; a failing or illegal answer is replaced by the timer's default.

        Safe to run in a worker thread: it reads only the frozen ``view``.
        """
        try:
            decision = self.bots[seat].decide(view, budget)
            action = decision.action
            if action in view.legal:
                return BotMove(action, decision.reason)
            problem = f"chose an illegal action ({action!r})"
        except Exception as e:  # noqa: BLE001 - a bot's bug must never end the person's game
            problem = f"failed ({type(e).__name__}: {e})"
        return BotMove(_default_from_view(view), "default action", problem)

    def hint(self, view: SeatView, budget: float) -> tuple[str, Decision]:
        """What the strongest local bot would do from the person's view: (bot name, decision).

        Safe to run in a worker thread.
        """
        name = best_bot_name()
        if self._hint_bot is None:
            self._hint_bot = make_bot(name, seed=self.seed)
        return name, self._hint_bot.decide(view, budget)

    # --- saving ------------------------------------------------------------------------

    def meta(self) -> dict[str, Any]:
        return {"app": APP_TAG, "human_seat": self.human,
                "opponents": {str(s): spec for s, spec in sorted(self.opponents.items())},
                "seed": self.seed, "started": self.started}

    def seat_labels(self) -> tuple[str, ...]:
        return tuple("you" if s == self.human else self.opponents[s] for s in range(4))

    def save(self) -> None:
        """Write the whole record atomically (a no-op for unsaved sessions)."""
        if self.save_path is None:
            return
        record = record_of(self.match, seats=self.seat_labels(), meta=self.meta())
        write_atomically(self.save_path, dumps(record))


def _short(spec: str) -> str:
    """A bot spec short enough for a seat label (URLs lose their scheme and path)."""
    if "://" in spec:
        host = spec.split("://", 1)[1].split("/", 1)[0]
        return host[:18]
    return spec.split(":", 1)[0][:18]


def _mix(seed: int, step: int) -> int:
    # Distinct, well-spread seeds per step; random.Random takes any int.
    return seed * 1_000_003 + step


def _default_from_view(view: SeatView) -> Action:
    """The turn timer's default worked out from a view: biggest legal card, lowest call, keep."""
    legal = view.legal
    plays = [a for a in legal if a.kind == "play"]
    if plays:
        trump = view.trump

        def strength(a: Action) -> tuple[int, int]:
            card = a.card  # type: ignore[union-attr]
            return (1 if trump is not None and card.suit == trump else 0, int(card.rank))

        return max(plays, key=strength)
    calls = [a for a in legal if a.kind == "call" and not a.blind]  # type: ignore[union-attr]
    if calls:
        return min(calls, key=lambda a: a.tricks)  # type: ignore[union-attr]
    keeps = [a for a in legal if a.kind == "redeal" and not a.claim]  # type: ignore[union-attr]
    if keeps:
        return keeps[0]
    return legal[0]
