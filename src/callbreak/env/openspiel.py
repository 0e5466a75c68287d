"""Every registered game as an OpenSpiel Python game: ``pyspiel.load_game("python_callbreak")``.

Importing this module registers ``python_<name>`` for each game of the registry (dashes become
underscores: ``python_callbreak``, ``python_call_bridge``, ``python_batak_ihaleli``,
``python_batak_koz_maca``, ``python_donut``, ``python_horsethief``, ``python_snarples``)::

    import pyspiel
    import callbreak.env.openspiel  # registers the games
    game = pyspiel.load_game("python_callbreak", {"preset": "bhoos-tournament"})

Parameters: ``players`` (0: the game's usual number), ``preset`` ("": the game's default),
``options`` (the game's options as ``"name:value name:value"``, e.g. ``"deals:2 max_call:8"``),
``max_deals`` (with an unlimited number of deals, Call Bridge, the table stops after this many)
and ``returns``: ``"score"`` (the default: each seat's match score in points; in the race-down
games, Donut and Snarples, the points it came down, so that more is always better) or ``"win"``
(``1/k`` to each of ``k`` winners).

Actions are the ids of :mod:`callbreak.games.spaces` (83 for Call Break, 107 for the related
games); observations (``observation_tensor``) are its float encoding. Chance deals one card at a
time (outcome = the card, uniformly among those left; seats in dealing order from the dealer's
next), and picks the first dealer (outcome = the seat) or draws for it (outcome = a card per
seat). Information states are strings with perfect recall: the public actions, and after each
one the seat's own hand and the cards it has seen face up.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from callbreak.core.actions import (
    CHANCE,
    ChooseDealer,
    Deal,
    Draw,
    Exchange,
    Stop,
)
from callbreak.core.cards import DECK, Card
from callbreak.core.match import Match
from callbreak.core.rules import FirstDealer
from callbreak.core.view import Phase
from callbreak.games import GameInfo, game_info, games
from callbreak.games.base import TrickGame
from callbreak.games.spaces import (
    Encoder,
    action_id,
    describe_action,
    family_of,
    legal_ids,
    num_actions,
)

PREFIX = "python_"
RETURNS = ("score", "win")


def short_name(game: str) -> str:
    """The OpenSpiel name of a registry game: ``call-bridge`` -> ``python_call_bridge``."""
    return PREFIX + game.replace("-", "_")


def parse_options(text: str) -> dict[str, str]:
    """``"deals:2 max_call:8"`` -> ``{"deals": "2", "max_call": "8"}`` (pairs ``name:value``
    apart by spaces or ``;``: OpenSpiel's game strings keep ``=`` and ``,`` for themselves)."""
    out: dict[str, str] = {}
    for part in text.replace(";", " ").split():
        key, sep, value = part.partition(":")
        if not sep or not key:
            raise ValueError(f"bad option {part!r}: expected name:value")
        out[key] = value
    return out


class _Holder:
    """The engine's game inside a state: OpenSpiel clones a Python state by deep-copying its
    attributes, and this copies the engine the fast way (its own ``clone``)."""

    __slots__ = ("game",)

    def __init__(self, game: Any) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        return _Holder(self.game.clone())


def _game_type(info: GameInfo) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name(info.name),
        long_name=f"Python {info.title} (callbreak)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(info.seats),
        min_num_players=min(info.seats),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": 0, "preset": "", "options": "", "max_deals": 5,
                                 "returns": "score"},
    )


class CardGame(pyspiel.Game):  # type: ignore[misc]
    """One registered game under a preset and options, as an OpenSpiel game."""

    def __init__(self, info: GameInfo, game_type: pyspiel.GameType,
                 params: dict[str, Any] | None = None) -> None:
        p = {"players": 0, "preset": "", "options": "", "max_deals": 5, "returns": "score",
             **(params or {})}
        self.info = info
        self.players = info.check_seats(int(p["players"]) or None)
        preset = str(p["preset"]) or None
        if preset is not None:
            info.preset(preset)
        self.options = info.make_options(preset, parse_options(str(p["options"])))
        self.max_deals = int(p["max_deals"])
        if self.max_deals < 1:
            raise ValueError("max_deals must be at least 1")
        self.returns_mode = str(p["returns"])
        if self.returns_mode not in RETURNS:
            raise ValueError(f"returns must be one of {', '.join(RETURNS)}")
        probe = info.create(self.players, self.options)
        self.family = family_of(probe)
        self.encoder = Encoder(self.family, self.players)
        self.start_scores = list(probe.scores)
        bound = 1.0 if self.returns_mode == "win" else 30.0 * (self.max_deals + 30)
        super().__init__(game_type, pyspiel.GameInfo(
            num_distinct_actions=num_actions(self.family),
            max_chance_outcomes=52,
            num_players=self.players,
            min_utility=0.0 if self.returns_mode == "win" else -bound,
            max_utility=bound,
            utility_sum=None,
            max_game_length=100_000,
        ), p)

    def new_initial_state(self) -> CardGameState:
        return CardGameState(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> CardGame:
        return self  # a game is immutable: states share it

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self, iig_obs_type)


class CardGameState(pyspiel.State):  # type: ignore[misc]
    """A game in progress; wraps the engine's game (``.engine``)."""

    def __init__(self, game: CardGame, engine: Any = None, horizon: int | None = None) -> None:
        super().__init__(game)
        self.cg = game
        self.box = _Holder(engine if engine is not None else game.info.create(game.players, game.options))
        self.pending: list[int] = []  # chance cards of a deal (or draw) in progress
        self.pieces: list[list[str]] = [[] for _ in range(game.players)]
        # With a horizon the state ends when the engine has scored this many deals (a search of
        # the current deal only); None: the whole match.
        self.horizon = horizon
        self._auto()

    @property
    def engine(self) -> Any:
        return self.box.game

    # --- the OpenSpiel state API -----------------------------------------------------------------

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        to_act = self.engine.to_act
        return int(pyspiel.PlayerId.CHANCE) if to_act == CHANCE else int(to_act)

    def is_terminal(self) -> bool:
        return bool(self.engine.is_over or (self.horizon is not None
                                            and len(self.engine.results) >= self.horizon))

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal() or player != self.engine.to_act:
            return []
        return sorted(legal_ids(self.engine.view(player)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._choosing_dealer():
            return [(s, 1.0 / self.cg.players) for s in range(self.cg.players)]
        left = [c for c in range(52) if c not in self.pending]
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        engine = self.engine
        if engine.to_act == CHANCE:
            if self._choosing_dealer():
                self._engine_apply(ChooseDealer(int(action)))
                return
            self.pending.append(int(action))
            if self._drawing():
                if len(self.pending) == engine.players:
                    self._engine_apply(Draw(cards=tuple(DECK[c] for c in self.pending)))
            elif len(self.pending) == self._deal_size():
                self._engine_apply(self._deal_of(self.pending))
            return
        seat = engine.to_act
        legal = legal_ids(engine.view(seat))
        if action not in legal:
            raise pyspiel.SpielError(f"action {action} is not legal here")
        self._engine_apply(legal[action])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._choosing_dealer():
                return f"first dealer {action}"
            return f"card {DECK[action]}"
        return describe_action(self.cg.family, action)

    def returns(self) -> list[float]:
        n = self.cg.players
        if not self.is_terminal():
            return [0.0] * n
        engine = self.engine
        if self.cg.returns_mode == "win":
            if not engine.is_over:  # a horizon: the deal's leaders
                pts = engine.results[-1].points
                best = max(pts)
                win = [s for s in range(n) if pts[s] == best]
            else:
                win = list(engine.winners)
            return [1.0 / len(win) if s in win else 0.0 for s in range(n)]
        if self.horizon is not None:  # the points of the deals played since the search began
            pts = [0.0] * n
            for r in engine.results[self.horizon - 1:self.horizon]:
                for s in range(n):
                    pts[s] += r.points[s]
            scores = [p / 10 if self.cg.family == "callbreak" else p for p in pts]
        else:
            scores = [float(s) - float(b) for s, b in zip(engine.scores, self.cg.start_scores, strict=True)]
        sign = -1.0 if self.cg.info.low_wins else 1.0
        return [sign * s for s in scores]

    def __str__(self) -> str:
        from callbreak.env.aec import render_text

        text = render_text(self.engine)
        return text + (f"\ndealing: {' '.join(DECK[c].text for c in self.pending)}" if self.pending else "")

    def resample_from_infostate(self, player: int, sampler: Any) -> CardGameState:
        from callbreak.env.resample import resample

        other: CardGameState = resample(self, player)
        return other

    # --- helpers ---------------------------------------------------------------------------------

    def _choosing_dealer(self) -> bool:
        e = self.engine
        return (isinstance(e, Match) and e.phase is Phase.DRAW
                and e.rules.first_dealer is FirstDealer.RANDOM)

    def _drawing(self) -> bool:
        e = self.engine
        return isinstance(e, Match) and e.phase is Phase.DRAW

    def _deal_size(self) -> int:
        e = self.engine
        if isinstance(e, Match):
            return 52
        probe = e.deal_from_pack(list(DECK))
        used = {c for h in probe.hands for c in h} | set(probe.stock)
        if probe.upcard is not None:
            used.add(probe.upcard)
        return len(used)

    def _deal_of(self, cards: list[int]) -> Deal:
        e = self.engine
        pack = [DECK[c] for c in cards] + [DECK[c] for c in range(52) if c not in set(cards)]
        if isinstance(e, Match):
            first = ((e.dealer or 0) + 1) % 4
            hands: list[list[Card]] = [[] for _ in range(4)]
            for i, c in enumerate(pack):
                hands[(first + i) % 4].append(c)
            return Deal(hands=tuple(tuple(sorted(h)) for h in hands))
        deal: Deal = e.deal_from_pack(pack)
        return deal

    def _engine_apply(self, action: Any) -> None:
        self.pending = []
        self.engine.apply(action)
        self._record(action)
        self._auto()

    def _auto(self) -> None:
        """The table stops by itself after ``max_deals`` deals when the match has no end."""
        e = self.engine
        while (not e.is_over and e.to_act == CHANCE and len(getattr(e, "results", ())) >= self.cg.max_deals
               and Stop() in e.legal_actions(CHANCE)):
            e.apply(Stop())
            self._record(Stop())

    def _record(self, action: Any) -> None:
        """Append what each seat learns from ``action`` to its information state."""
        e = self.engine
        for p in range(self.cg.players):
            seen = _private(e, p)
            if isinstance(action, Deal):
                text = "deal"
            elif isinstance(action, Exchange) and action.seat != p:
                text = f"{action.seat}:exchange {len(action.cards)}"
            else:
                text = f"{getattr(action, 'seat', '')}:{action.to_json()}" if not isinstance(action, Draw) \
                    else f"draw {[c.text for c in action.cards]}"
            self.pieces[p].append(f"{text}|{seen}")

    def info_string(self, player: int) -> str:
        mine = [c for i, c in enumerate(self.pending) if self._dealt_to(i) == player]
        tail = f"\ndealing:{mine}" if self.pending else ""
        return "\n".join(self.pieces[player]) + tail

    def _dealt_to(self, index: int) -> int:
        e = self.engine
        if self._drawing():
            return index if index < e.players else -1
        if isinstance(e, Match):
            return ((e.dealer or 0) + 1 + index) % 4 if index < 52 else -1
        seats = [e.next_seat(e.dealer)]
        while len(seats) < len(e.seats_in_game):
            seats.append(e.next_seat(seats[-1]))
        if index < len(seats) * e.CARDS_EACH:
            return int(seats[index % len(seats)])
        return -1


def _private(engine: Any, seat: int) -> str:
    """What ``seat`` holds and sees face up now, compactly."""
    if isinstance(engine, Match):
        hand = engine.hands[seat] if engine.looked[seat] else -1
        shown = engine.redeal.shown if engine.redeal is not None else ()
        return f"{hand:x}" + (f"/{sum(1 << c for c in shown):x}" if shown else "")
    assert isinstance(engine, TrickGame)
    up = "" if engine.upcard is None else f"/{engine.upcard.text}"
    return f"{engine.hands[seat]:x}/{engine.discards[seat]:x}{up}"


class Observer:
    """OpenSpiel's observer of a game: the observation tensor, and the strings."""

    def __init__(self, game: CardGame, iig_obs_type: Any) -> None:
        self.game = game
        self.iig = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        self.private = self.iig.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.tensor = np.zeros(game.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CardGameState, player: int) -> None:
        self.game.encoder.encode(state.engine.view(player), out=self.tensor)
        if not self.private:
            for name in ("hand", "discards"):
                blk = self.game.encoder.blocks.get(name)
                if blk is not None:
                    self.tensor[blk.offset:blk.offset + blk.size] = 0

    def string_from(self, state: CardGameState, player: int) -> str:
        if self.iig.perfect_recall:
            return state.info_string(player)
        self.set_from(state, player)
        on = np.flatnonzero(self.tensor)
        return " ".join(f"{i}:{self.tensor[i]:g}" for i in on)


def _register(info: GameInfo) -> None:
    game_type = _game_type(info)

    def init(self: CardGame, params: dict[str, Any] | None = None) -> None:
        CardGame.__init__(self, info, game_type, params)

    # A class, not a closure, is registered: OpenSpiel's registry outlives the interpreter and
    # a class (which refers to itself) is never freed when it lets go of it at exit.
    cls = type(f"CardGame_{info.name.replace('-', '_')}", (CardGame,), {"__init__": init})
    pyspiel.register_game(game_type, cls)


def registered_names() -> list[str]:
    return [short_name(info.name) for info in games()]


_DONE: set[str] = set()
for _info in games():
    if _info.name not in _DONE:
        _register(_info)
        _DONE.add(_info.name)


def load(game: str = "callbreak", **params: Any) -> CardGame:
    """``pyspiel.load_game(short_name(game), params)``, with the registry name."""
    game_info(game)
    loaded: CardGame = pyspiel.load_game(short_name(game), params)
    return loaded


__all__ = ["CardGame", "CardGameState", "load", "parse_options", "registered_names", "short_name",
           "action_id"]
