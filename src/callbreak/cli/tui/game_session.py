"""One person against bots at a related game of seed 000 (Batak, Snarples, Donut, Horsethief).

The related-game counterpart of :class:`~callbreak.cli.tui.session.Session`: it owns the
:class:`~callbreak.games.TrickGame`, gives the interface only the person's
:class:`~callbreak.games.GameView`, asks game bots for the other seats, and saves the game
record (:mod:`callbreak.games.record`) after every action so ``callbreak play --resume``
continues it. Chance is seeded by the game's seed and the step's position, as in Call Break.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from callbreak.bots import BotError
from callbreak.bots.games_bots import GameBot, GameDecision, game_bot_names, make_game_bot
from callbreak.cli.tui.saves import new_save_path, write_atomically
from callbreak.cli.tui.session import APP_TAG, BotMove, Turn
from callbreak.core import CHANCE, CallbreakError, RecordError
from callbreak.games import GAMES, GameAction, GameDealer, GameView, TrickGame, make_trick_game
from callbreak.games.record import dumps_game, game_record_of, loads_game, replay_game

DEFAULT_GAME_BOT = "search"
"""The strongest game bot: the default opponent and the hint giver."""


class GameSession:
    """A related game between the person at ``human`` and game bots at the other seats."""

    def __init__(self, game: TrickGame, *, human: int, opponents: dict[int, str], seed: int,
                 save_path: Path | None, started: str | None = None) -> None:
        self.game = game
        self.human = human
        self.opponents = dict(opponents)
        self.seed = seed
        self.save_path = save_path
        self.started = started or datetime.now(UTC).isoformat(timespec="seconds")
        self.bots: dict[int, GameBot] = {
            seat: make_game_bot(spec, seed=seed * 10 + seat) for seat, spec in self.opponents.items()}
        self._hint_bot: GameBot | None = None
        self._resumed = bool(game.history)
        self.save_error: str | None = None

    # --- building ----------------------------------------------------------------------

    @classmethod
    def new(cls, name: str, *, players: int | None = None, options: dict[str, str] | None = None,
            opponents: Sequence[str] | None = None, seat: int = 0, seed: int | None = None,
            save_path: Path | None = None, save: bool = True) -> GameSession:
        """A fresh game. Raises :class:`CallbreakError` naming a bad game, player count, option,
        seat or bot before anything is saved."""
        info = GAMES.get(name)
        if info is not None and info.cls is None:
            raise CallbreakError(f"{info.title} is a Call Break preset: play it with --preset {name}")
        game = make_trick_game(name, players, **(options or {}))
        n = game.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise CallbreakError(f"--seat must be 0-{n - 1} at a {n}-player table, got {seat!r}")
        specs = tuple(s.strip() for s in opponents) if opponents is not None else (DEFAULT_GAME_BOT,)
        if len(specs) == 1:
            specs = specs * (n - 1)
        if len(specs) != n - 1 or not all(specs):
            raise BotError(f"--opponents needs one or {n - 1} game bot names separated by commas, "
                           f"got {','.join(specs)!r}; game bots are: {', '.join(game_bot_names())}")
        for spec in specs:
            make_game_bot(spec)  # refuse an unknown bot or bad option now, with its message
        others = [(seat + i) % n for i in range(1, n)]  # in play order after the person
        table = dict(zip(others, specs, strict=True))
        if seed is None:
            seed = random.SystemRandom().randrange(1, 2**31)
        path = (save_path or new_save_path()) if save else None
        session = cls(game, human=seat, opponents=table, seed=seed, save_path=path)
        session.save()
        return session

    @classmethod
    def resume(cls, path: Path, text: str | None = None) -> GameSession:
        """Rebuild a saved game by replaying its record; bots are re-created from its meta."""
        if text is None:
            try:
                text = path.read_text(encoding="utf-8")
            except OSError as e:
                raise RecordError(f"cannot read {path}: {e.strerror}") from None
        record = loads_game(text)
        meta = record.meta
        if meta.get("app") != APP_TAG:
            raise RecordError(f"{path} was not saved by `callbreak play`, so there is no seat to "
                              "resume; read it with `callbreak replay FILE`")
        try:
            human = int(meta["human_seat"])
            opponents = {int(k): str(v) for k, v in dict(meta["opponents"]).items()}
            seed = int(meta["seed"])
        except (KeyError, TypeError, ValueError) as e:
            raise RecordError(f"{path}: the saved game's meta is incomplete ({e})") from None
        n = record.players
        if not 0 <= human < n or sorted(opponents) != [s for s in range(n) if s != human]:
            raise RecordError(f"{path}: the saved seats do not make a table")
        return cls(replay_game(record), human=human, opponents=opponents, seed=seed,
                   save_path=path, started=str(meta.get("started") or ""))

    # --- what the interface may read ---------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def resumed(self) -> bool:
        return self._resumed

    @property
    def players(self) -> int:
        return self.game.players

    @property
    def title(self) -> str:
        return self.game.TITLE

    def view(self) -> GameView:
        """Everything the person may see, and nothing more."""
        return self.game.view(self.human)

    def names(self) -> tuple[str, ...]:
        """Display names by seat: "You" and e.g. "Seat 2 (search)"."""
        return tuple("You" if s == self.human else f"Seat {s} ({self.opponents[s].split(':', 1)[0]})"
                     for s in range(self.players))

    @property
    def turn(self) -> Turn:
        g = self.game
        if g.is_over:
            return Turn.OVER
        if g.to_act == CHANCE:
            return Turn.CHANCE
        return Turn.HUMAN if g.to_act == self.human else Turn.BOT

    # --- acting ------------------------------------------------------------------------

    def apply(self, action: GameAction) -> None:
        """Apply and save; a refused action raises and changes nothing, on disk too."""
        self.game.apply(action)
        try:
            self.save()
        except OSError as e:
            self.save_error = f"could not save the game to {self.save_path}: {e.strerror or e}"
        else:
            self.save_error = None

    def apply_human(self, action: GameAction) -> None:
        """Apply an action the person chose; anything not theirs is refused."""
        if getattr(action, "seat", None) != self.human:
            raise CallbreakError("you can only act for your own seat")
        self.apply(action)

    def chance_action(self) -> GameAction:
        """The next deal, seeded by the seed and the step, so a resumed game deals the same."""
        return GameDealer(seed=self.seed * 1_000_003 + len(self.game.history)).chance(self.game)

    def bot_view(self) -> tuple[int, GameView]:
        seat = self.game.to_act
        if seat is None or seat == CHANCE or seat == self.human:
            raise CallbreakError("no bot is to act")
        return seat, self.game.view(seat)

    def decide(self, seat: int, view: GameView, budget: float) -> BotMove:
        """Ask ``seat``'s bot (safe in a worker thread: it reads only the frozen view); a failing
        or illegal answer is replaced by the first legal action."""
        try:
            decision = self.bots[seat].decide(view, budget)
            if decision.action in view.legal:
                return BotMove(decision.action, decision.reason)  # type: ignore[arg-type]
            problem = f"chose an illegal action ({decision.action!r})"
        except Exception as e:  # noqa: BLE001 - a bot's bug must never end the person's game
            problem = f"failed ({type(e).__name__}: {e})"
        return BotMove(view.legal[0], "default action", problem)  # type: ignore[arg-type]

    def hint(self, view: GameView, budget: float) -> tuple[str, GameDecision]:
        """What the search bot would do from the person's view (safe in a worker thread)."""
        if self._hint_bot is None:
            self._hint_bot = make_game_bot(DEFAULT_GAME_BOT, seed=self.seed)
        return DEFAULT_GAME_BOT, self._hint_bot.decide(view, budget)

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
        record = game_record_of(self.game, seats=self.seat_labels(), meta=self.meta())
        write_atomically(self.save_path, dumps_game(record))
