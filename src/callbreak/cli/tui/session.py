"""One person against bots at any registered game: the game logic of terminal play, no drawing.

A :class:`Session` owns a game from the registry (:func:`callbreak.games.game_info`) the way a
server owns a table and drives it only through the game protocol
(:class:`callbreak.core.game.Game`): chance comes from the game's own seeded dealer, the other
seats from bots that play the game (:func:`callbreak.bots.make_bot`). The interface asks it for
the person's view and hands it actions; it never gives the interface another seat's cards. Every
applied action is saved at once as a game record, so ``callbreak play --resume`` rebuilds the
game by replaying it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from pathlib import Path
from typing import Any

from callbreak.bots import Bot, BotError, Decision, bots_for, make_bot
from callbreak.cli.tui import language
from callbreak.cli.tui.language import _
from callbreak.cli.tui.saves import APP_TAG as APP_TAG  # re-exported for the tests
from callbreak.cli.tui.saves import new_save_path, write_atomically
from callbreak.core import CHANCE, Action, CallbreakError, RecordError, Rules
from callbreak.core.game import GameOf
from callbreak.games import GameInfo, View, game_info
from callbreak.i18n.seats import seat_names as names_of_seats
from callbreak.i18n.seats import short_name
from callbreak.protocol.client import RemoteBot
from callbreak.protocol.players import check_url_rules, is_url, make_player
from callbreak.record import dumps, loads, record_of, replay
from callbreak.referee import BotSeat, Event, Moved, PersonSeat, Referee

STRENGTH_ORDER = ("expert", "search", "heuristic", "beginner", "random")
"""Bot names from strongest to weakest; the first that plays the game is the default and the hint."""

_COUNTS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


class Turn(str, Enum):
    """Who the game is waiting for."""

    HUMAN = "human"
    BOT = "bot"
    CHANCE = "chance"  # a deal (or first-dealer choice) is due
    STOP_CHOICE = "stop_choice"  # unlimited deals: the person decides whether to deal again
    OVER = "over"


def best_bot_name(names: Sequence[str] | None = None, game: str = "callbreak") -> str:
    """The strongest bot among ``names`` (default: those that play ``game``)."""
    registered = set(bots_for(game) if names is None else names)
    return next((name for name in STRENGTH_ORDER if name in registered), "random")


def seat_names(viewer: int, labels: Sequence[str]) -> tuple[str, ...]:
    """Display names by seat, as seen from ``viewer`` (i18n/seats.py: ``You · Seat 1``,
    ``East · Seat 2 · expert``, at other table sizes ``Seat 2 · search``), in the terminal's
    language, each player as :func:`label_words` shows it."""
    return names_of_seats([label if label == "you" else label_words(label) for label in labels],
                          language.current(), viewer=viewer)


def label_words(label: str) -> str:
    """A seat's label in a record as shown: a bot's name (shortened), or the person's ("you",
    which terminal play writes) in the terminal's language."""
    return _("you") if label == "you" else _short(label)


_is_url = is_url  # a URL as the arena and the web tables read one


def make_opponent(spec: str, seed: int | None, game: str = "callbreak") -> Bot:
    """A bot that plays ``game`` by name (``"heuristic"``, with options), or for Call Break a
    tournament-protocol bot by URL (:func:`callbreak.protocol.players.make_player`)."""
    return make_player(spec, seed, game=game)


def _check_remote(specs: Sequence[str], options: Any, title: str) -> None:
    """Refuse, before the game starts, rules that tournament-protocol bots cannot play."""
    if not any(_is_url(s) for s in specs):
        return
    # A capability honestly absent: the tournament protocol speaks Call Break's rules only.
    if not isinstance(options, Rules):
        raise BotError(f"remote bots play the Call Break tournament protocol, not {title}")
    try:
        check_url_rules(options)
    except BotError as e:
        raise BotError(f"remote bots cannot play these rules ({e}); try --preset "
                       "bhoos-tournament") from None


def _check_answering(specs: Sequence[str], timeout: float) -> None:
    """Refuse, before the game starts, tournament-bot URLs where no bot answers ``GET /hi``:
    otherwise every move of that seat would silently be the timer's default."""
    urls = [s.strip() for s in specs if _is_url(s)]
    if not urls:
        return
    silent = [url for url in dict.fromkeys(urls) if not RemoteBot(url).hello(timeout)]
    if silent:
        raise BotError(f"no tournament bot answers at {', '.join(silent)} (GET /hi); start one "
                       "(e.g. `callbreak bot-server --bot heuristic --port 7000`) or check the URL")


@dataclass(frozen=True, slots=True)
class BotMove:
    """What a bot did, and whether it had to be replaced by the default action."""

    action: Action
    fallback: str = ""  # why the bot's own choice was not used, if it was not


class _DealtBySession:
    """The terminal game's chance, for the referee: :meth:`Session.chance_action`."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def chance(self, game: object) -> Action:
        return self.session.chance_action()


class Session:
    """A game between the person at ``human`` and bots at the other seats, saved as it goes."""

    def __init__(self, name: str, game: GameOf[View, Action], *, human: int, opponents: dict[int, str], seed: int,
                 save_path: Path | None, started: str | None = None) -> None:
        self.name = name
        self.info: GameInfo = game_info(name)
        self.game = game
        self.human = human
        self.opponents = dict(opponents)
        self.seed = seed
        self.save_path = save_path
        self.started = started or datetime.now(UTC).isoformat(timespec="seconds")
        # The one referee (callbreak/referee.py): the person's seat waits for their actions; a bot
        # is never charged for thinking long (the terminal's bots keep to their budget), only for
        # failing or answering something illegal. The game is saved after every action.
        self.table = Referee(game, _DealtBySession(self), [
            PersonSeat("you") if s == human
            else BotSeat(make_opponent(self.opponents[s], seed * 10 + s, name), tolerance=math.inf, name=self.opponents[s])
            for s in range(game.players)], listeners=[self._save_after], name=name)
        self._hint_bot: Bot | None = None
        self._resumed = bool(game.history)
        self.save_error: str | None = None
        self.hint_bot: str | None = None  # a bot spec for the hints (None: the strongest)

    # --- building ----------------------------------------------------------------------

    @classmethod
    def new(cls, name: str = "callbreak", *, players: int | None = None, preset: str | None = None,
            options: Mapping[str, Any] | None = None, opponents: Sequence[str] | None = None,
            seat: int = 0, seed: int | None = None, save_path: Path | None = None,
            save: bool = True, reach_timeout: float | None = 3.0) -> Session:
        """A fresh game of the registered game ``name``. Raises :class:`CallbreakError` naming a
        bad game, player count, preset, option, seat or bot, or (unless ``reach_timeout`` is None)
        a bot URL where nothing answers within that many seconds; nothing is saved then."""
        info = game_info(name)
        game = info.new(players, preset, **dict(options or {}))
        n = game.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            seats = ", ".join(str(s) for s in range(n - 1))
            raise CallbreakError(f"--seat must be {seats} or {n - 1}, got {seat!r}")
        specs = tuple(s.strip() for s in opponents) if opponents is not None else (best_bot_name(game=name),)
        if len(specs) == 1:
            specs = specs * (n - 1)
        if len(specs) != n - 1 or not all(specs):
            need = "one" if n == 2 else f"one or {_COUNTS[n - 1] if n <= 10 else n - 1}"
            raise BotError(f"--opponents needs {need} bot names separated by commas, got "
                           f"{','.join(specs)!r}; bots for {info.title} are: {', '.join(bots_for(name))}")
        _check_remote(specs, game.options, info.title)
        if reach_timeout is not None:
            _check_answering(specs, reach_timeout)
        others = [(seat + i) % n for i in range(1, n)]  # in play order after the person
        if seed is None:
            seed = random.SystemRandom().randrange(1, 2**31)
        path = (save_path or new_save_path()) if save else None
        session = cls(name, game, human=seat, opponents=dict(zip(others, specs, strict=True)),
                      seed=seed, save_path=path)
        session.save()
        return session

    @classmethod
    def resume(cls, path: Path, *, reach_timeout: float | None = 3.0) -> Session:
        """Rebuild a saved game by replaying its record; bots are re-created from its meta.

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
        n = record.players
        if not 0 <= human < n or sorted(opponents) != [s for s in range(n) if s != human]:
            raise RecordError(f"{path}: the saved seats do not make a table")
        game = replay(record)
        if reach_timeout is not None:
            _check_answering(list(opponents.values()), reach_timeout)
        return cls(record.game, game, human=human, opponents=opponents, seed=seed, save_path=path,
                   started=str(meta.get("started") or ""))

    # --- what the interface may read ---------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def resumed(self) -> bool:
        """Whether the game already had actions when this session took it over."""
        return self._resumed

    @property
    def players(self) -> int:
        return self.game.players

    @property
    def title(self) -> str:
        return self.info.title

    def view(self) -> View:
        """Everything the person may see, and nothing more."""
        return self.game.view(self.human)

    def names(self) -> tuple[str, ...]:
        """Display names by seat: "You · Seat 1" and e.g. "East · Seat 2 · expert"."""
        return seat_names(self.human, self.seat_labels())

    def position(self, seat: int) -> str:
        """A seat as a sentence names it: "You", East, North, West (or "Seat N")."""
        return short_name(self.names()[seat])

    @property
    def turn(self) -> Turn:
        g = self.game
        if g.is_over:
            return Turn.OVER
        if g.to_act == CHANCE:  # the table may stop instead of dealing (Call Break, no deal limit)
            return Turn.STOP_CHOICE if g.legal_actions(CHANCE) else Turn.CHANCE
        return Turn.HUMAN if g.to_act == self.human else Turn.BOT

    # --- acting ------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply an action (through the referee) and save. A refused action raises and changes
        nothing, on disk too.

        A save that fails (disk full, folder removed) does not stop the game: the error is kept
        in :attr:`save_error` for the interface to show, and the next action tries again.
        """
        self.table.submit(action.actor, action)

    def _save_after(self, event: Event) -> None:
        if not isinstance(event, Moved):
            return
        try:
            self.save()
        except OSError as e:
            self.save_error = f"could not save the game to {self.save_path}: {e.strerror or e}"
        else:
            self.save_error = None

    def apply_human(self, action: Action) -> None:
        """Apply an action the person chose; anything not theirs is refused."""
        if action.actor != self.human:
            raise CallbreakError("you can only act for your own seat")
        self.apply(action)

    def default_action(self) -> Action:
        """What a turn timer plays for the person (Call Break: biggest card, lowest call, keep)."""
        if self.game.to_act != self.human:
            raise CallbreakError("it is not your turn")
        action: Action = self.game.default_action()
        return action

    def chance_action(self, *, stop: bool = False) -> Action:
        """The next chance step (or, with ``stop``, stopping the table), from the game's dealer
        seeded by the seed and the step's position, so a resumed game deals exactly the cards the
        uninterrupted one would have."""
        action: Action
        if stop:
            action = next(a for a in self.game.legal_actions(CHANCE) if a.kind == "stop")
            return action
        action = self.info.dealer(self.seed * 1_000_003 + len(self.game.history)).chance(self.game)
        return action

    def bot_view(self) -> tuple[int, View]:
        """The seat to act and its view, to be handed to that seat's bot (maybe in a thread)."""
        seat = self.game.to_act
        if seat is None or seat == CHANCE or seat == self.human:
            raise CallbreakError("no bot is to act")
        return seat, self.game.view(seat)

    def decide(self, seat: int, view: View, budget: float) -> BotMove:
        """Ask ``seat``'s bot, refereed; a failing or illegal answer is replaced by the game's
        default.

        Safe to run in a worker thread: the bot reads only the frozen ``view``.
        """
        bot_seat = self.table.seats[seat]
        assert isinstance(bot_seat, BotSeat), f"seat {seat} is not a bot's"
        action, _seconds, fault = bot_seat.ask(view, seat, len(self.game.results) + 1, self.game.default_action,
                                               budget=budget)
        if fault is None:
            return BotMove(action)
        if fault.kind == "illegal":
            return BotMove(action, _("chose an illegal action ({action})").format(action=fault.answer))
        return BotMove(action, _("failed ({error})").format(error=fault.detail))

    def hint(self, view: View, budget: float) -> tuple[str, Decision]:
        """What the hint bot (``hint_bot``; default: the strongest bot for the game) would do from
        the person's view: (bot name, decision). Safe to run in a worker thread."""
        name = self.hint_bot or best_bot_name(game=self.name)
        if self._hint_bot is None:
            self._hint_bot = make_bot(name, seed=self.seed, game=self.name)
        return name, self._hint_bot.decide(view, budget)

    # --- saving ------------------------------------------------------------------------

    def meta(self) -> dict[str, Any]:
        return {"app": APP_TAG, "human_seat": self.human,
                "opponents": {str(s): spec for s, spec in sorted(self.opponents.items())},
                "seed": self.seed, "started": self.started}

    def seat_labels(self) -> tuple[str, ...]:
        return tuple("you" if s == self.human else self.opponents[s] for s in range(self.players))

    def save(self) -> None:
        """Write the whole record atomically (a no-op for unsaved sessions)."""
        if self.save_path is None:
            return
        record = record_of(self.game, seats=self.seat_labels(), meta=self.meta(), name=self.name)
        write_atomically(self.save_path, dumps(record))


def _short(spec: str) -> str:
    """A bot spec short enough for a seat label (URLs lose their scheme and path)."""
    if "://" in spec:
        return spec.split("://", 1)[1].split("/", 1)[0][:18]
    return spec.split(":", 1)[0][:18]


__all__ = ["APP_TAG", "BotMove", "Session", "Turn", "best_bot_name", "label_words",
           "make_opponent", "seat_names"]
