"""Every registered game as an OpenSpiel Python game: ``pyspiel.load_game("python_callbreak")``.

Importing this module registers ``python_<name>`` for each game of the registry (dashes become
underscores: ``python_callbreak``, ``python_batak_ihaleli``, ``python_batak_koz_maca``,
``python_donut``, ``python_horsethief``, ``python_snarples``; Call Bridge is
``python_callbreak`` with ``preset=call-bridge``)::

    import pyspiel
    import callbreak.env.openspiel  # registers the games
    game = pyspiel.load_game("python_callbreak", {"preset": "bhoos-tournament"})

Parameters: ``players`` (the game's usual number unless given; 0 means that too), ``preset`` ("": the game's default),
``options`` (the game's options as ``"name:value name:value"``, e.g. ``"deals:2 max_call:8"``),
``max_deals`` (with an unlimited number of deals, Call Bridge, the table stops after this many)
and ``returns``: ``"score"`` (the default: each seat's match score in points; in the race-down
games, Donut and Snarples, the points it came down, so that more is always better) or ``"win"``
(``1/k`` to each of ``k`` winners).

Actions are the ids of :mod:`callbreak.games.spaces` (83 for Call Break, 107 for the related
games); observations (``observation_tensor``) are its float encoding. Chance deals one card at a
time (outcome = the card, uniformly among those left; seats in dealing order from the dealer's
next), and picks the first dealer (outcome = the seat) or draws for it (outcome = a card per
seat). Information states have perfect recall, as strings (the public actions, and after each
one the seat's own hand and the cards it has seen face up) and as tensors (the same sequence as
fixed-size steps, :class:`Recall`).

Games and states pickle, and ``pyspiel.serialize_game_and_state`` round-trips them: a game is
rebuilt from its name, parameters and options, a state from its history and its fields.
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
    Play,
    Stop,
)
from callbreak.core.cards import DECK
from callbreak.core.game import ChanceKind, Game
from callbreak.games import GameInfo, game_info, games
from callbreak.games.encoding import Encoding
from callbreak.games.spaces import (
    Encoder,
    action_id,
    describe_action,
    encoding_of,
    game_encoding,
    legal_ids,
)

PREFIX = "python_"
RETURNS = ("score", "win")


def short_name(game: str) -> str:
    """The OpenSpiel name of a registry game: ``batak-ihaleli`` -> ``python_batak_ihaleli``."""
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

    def __init__(self, game: Game) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        return _Holder(self.game.clone())


class _Memory:
    """Each seat's information state so far (text pieces, tensor steps, its private parts now).
    Its items never change once appended, so a clone copies the lists, not the items."""

    __slots__ = ("pieces", "steps", "seen")

    def __init__(self, pieces: list[list[str]], steps: list[list[tuple[int, int, int]]],
                 seen: list[tuple[int, int, int]]) -> None:
        self.pieces = pieces
        self.steps = steps
        self.seen = seen

    def __deepcopy__(self, memo: dict[int, Any]) -> _Memory:
        return _Memory([list(p) for p in self.pieces], [list(s) for s in self.steps], list(self.seen))


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
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": info.check_seats(None), "preset": "", "options": "", "max_deals": 5,
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
        # OpenSpiel reads an unquoted number in a game's string as an int (``preset=567``):
        # keep a numeric preset name quoted so that the game's string loads it again.
        preset = str(p["preset"]).strip('"') or None
        if preset is not None and preset.isdigit():
            p["preset"] = f'"{preset}"'
        if preset is not None:
            info.preset(preset)
        self.options = info.make_options(preset, parse_options(str(p["options"])))
        self.max_deals = int(p["max_deals"])
        if self.max_deals < 1:
            raise ValueError("max_deals must be at least 1")
        probe = info.create(self.players, self.options)
        if self.options.deal_limit is None and not probe.STOPPABLE:
            # A game played to its natural end may last any number of hands; the OpenSpiel
            # game agrees a limit (max_deals), as Call Bridge's table stops, so that a match and
            # its information-state tensor have a size.
            self.options = self.options.with_deal_limit(self.max_deals)
            probe = info.create(self.players, self.options)
        self.deal_bound = int(self.options.deal_limit or self.max_deals)
        self.returns_mode = str(p["returns"])
        if self.returns_mode not in RETURNS:
            raise ValueError(f"returns must be one of {', '.join(RETURNS)}")
        encoding = game_encoding(probe)
        self.family = encoding.family
        self.encoder = Encoder(encoding, self.players)
        self.start_scores = list(probe.scores)
        self.recall = Recall(encoding, self.players, self.deal_bound)
        bound = 1.0 if self.returns_mode == "win" else 30.0 * (self.max_deals + 30)
        super().__init__(game_type, pyspiel.GameInfo(
            num_distinct_actions=encoding.num_actions,
            max_chance_outcomes=52,
            num_players=self.players,
            min_utility=0.0 if self.returns_mode == "win" else -bound,
            max_utility=bound,
            utility_sum=None,
            max_game_length=100_000,
        ), {**p, "players": self.players})  # the game's string names the seats it has, not 0

    def new_initial_state(self) -> CardGameState:
        return CardGameState(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> CardGame:
        return self  # a game is immutable: states share it

    def __reduce__(self) -> tuple[Any, ...]:
        # pyspiel pickles a game as its string and loads it again, which skips __init__'s
        # attributes (and a bot may give a game its table's own options): rebuild it whole.
        return _restore_game, (self.info.name, self.get_parameters(), self.options)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self, iig_obs_type)


class CardGameState(pyspiel.State):  # type: ignore[misc]
    """A game in progress; wraps the engine's game (``.engine``)."""

    def __init__(self, game: CardGame, engine: Any = None, horizon: int | None = None) -> None:
        super().__init__(game)
        self.cg = game
        self.box = _Holder(engine if engine is not None else game.info.create(game.players, game.options))
        self.pending: list[int] = []  # chance cards of a deal (or draw) in progress
        # With a horizon the state ends when the engine has scored this many deals (a search of
        # the current deal only); None: the whole match.
        self.horizon = horizon
        self.restart_record()
        self._auto()

    @property
    def engine(self) -> Game:
        return self.box.game

    # --- the OpenSpiel state API -----------------------------------------------------------------

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        to_act = self.engine.to_act
        assert to_act is not None  # None only once over, which is terminal
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
            scores = [p / 10 for p in pts]  # in points (every game keeps tenths)
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
        return self.engine.chance_kind is ChanceKind.FIRST_DEALER

    def _drawing(self) -> bool:
        """A draw for the first dealer (or the pick of one) is due, not a deal."""
        return self.engine.chance_kind is not ChanceKind.DEAL

    def _deal_size(self) -> int:
        return len(self.engine.pack_seats())

    def _deal_of(self, cards: list[int]) -> Deal:
        pack = [DECK[c] for c in cards] + [DECK[c] for c in range(52) if c not in set(cards)]
        return self.engine.deal_from_pack(pack)

    def _engine_apply(self, action: Any) -> None:
        self.pending = []
        self.engine.apply(action)
        self._record(action)
        self._auto()

    def _auto(self) -> None:
        """The table stops by itself after ``max_deals`` deals when the match has no end."""
        e = self.engine
        while not e.is_over and e.to_act == CHANCE and len(e.results) >= self.cg.max_deals and e.can_stop:
            e.apply(Stop())
            self._record(Stop())

    def restart_record(self, root: bool = False) -> None:
        """Start every seat's information state afresh: at the game's start, or (``root``) at a
        search's root, whose state the seat is not told again (it is the same for every world)."""
        n = self.cg.players
        self.memory = _Memory([["root"] if root else [] for _ in range(n)],
                              [[(ROOT, -1, 0)] if root else [] for _ in range(n)],
                              [_private_parts(self.engine, p) for p in range(n)])

    @property
    def pieces(self) -> list[list[str]]:
        """Each seat's information state as text, a piece for each action."""
        return self.memory.pieces

    @property
    def steps(self) -> list[list[tuple[int, int, int]]]:
        """Each seat's information state as the steps of its tensor (:class:`Recall`)."""
        return self.memory.steps

    def _record(self, action: Any) -> None:
        """Append what each seat learns from ``action`` to its information state (as text, and
        as the steps of its tensor)."""
        e = self.engine
        for p in range(self.cg.players):
            seen = _private(e, p)
            if isinstance(action, Deal):
                text = "deal"
            elif isinstance(action, Exchange) and action.seat != p:
                text = f"{action.seat}:exchange {len(action.cards)}"
            else:
                text = f"{action.actor}:{action.to_json()}" if not isinstance(action, Draw) \
                    else f"draw {[c.text for c in action.cards]}"
            self.pieces[p].append(f"{text}|{seen}")
            steps = self.steps[p]
            steps.extend(_action_steps(action, p))
            parts = _private_parts(e, p)
            before = self.memory.seen[p]
            if isinstance(action, Play) and action.seat == p and before[0] >= 0:
                before = (before[0] & ~(1 << int(action.card)), *before[1:])  # its own card left its hand
            for kind, old, new in zip(PRIVATE, before, parts, strict=True):
                if old != new:
                    steps.append((FACE_DOWN, -1, 0) if new == UNSEEN else (kind, -1, new))
            self.memory.seen[p] = parts

    def info_string(self, player: int) -> str:
        mine = sorted(self._pending_to(player))
        tail = f"\ndealing:{mine}" if self.pending else ""
        return "\n".join(self.pieces[player]) + tail

    def _pending_to(self, player: int) -> list[int]:
        """The cards of the deal in progress that have come to ``player`` so far."""
        if not self.pending:
            return []
        e = self.engine
        # A draw gives a card to each seat in turn; a deal follows the game's pack order.
        seats = tuple(range(e.players)) if self._drawing() else e.pack_seats()
        return [c for i, c in enumerate(self.pending) if i < len(seats) and seats[i] == player]


def _private(engine: Game, seat: int) -> str:
    """What ``seat`` holds and sees face up now, compactly: its hand (-1: not looked at), the
    other cards shown to it, the upcard if any."""
    hand, shown, up = engine.private_parts(seat)
    return f"{hand:x}/{shown:x}" + ("" if up is None else f"/{up.text}")


class Observer:
    """OpenSpiel's observer of a game: the observation tensor (the seat's view now), the
    information-state tensor (perfect recall: :class:`Recall`), and the strings."""

    def __init__(self, game: CardGame, iig_obs_type: Any) -> None:
        self.game = game
        self.iig = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        self.private = self.iig.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if self.iig.perfect_recall:
            self.tensor = np.zeros(game.recall.size, np.float32)
            self.dict = {"info_state": self.tensor}
        else:
            self.tensor = np.zeros(game.encoder.size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: CardGameState, player: int) -> None:
        if self.iig.perfect_recall:
            self.game.recall.encode(state, player, out=self.tensor)
            return
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


# --- the information-state tensor ------------------------------------------------------------

# Kinds of step in a seat's information state. ACT: a seat's action (payload: its action id);
# DEAL, STOP, ROOT: markers; DRAW: a seat's card in the draw for dealer; DEALER: the first dealer
# chosen; EXCHANGE: another seat exchanged (payload: how many cards); OWN_EXCHANGE: the cards the
# seat exchanged; then the seat's private parts whenever they change other than by its own play:
# HAND (its cards), AUX (Call Break: cards shown for a redeal; related games: the seat's
# discards), UPCARD (related games), FACE_DOWN (its cards are dealt but not looked at).
ACT, DEAL, STOP, ROOT, DRAW, DEALER, EXCHANGE, OWN_EXCHANGE, HAND, AUX, UPCARD, FACE_DOWN = range(12)
KINDS = 12
PRIVATE = (HAND, AUX, UPCARD)
UNSEEN = -1  # the HAND part of a Call Break seat that has not looked at its cards


def _private_parts(engine: Game, seat: int) -> tuple[int, int, int]:
    """What ``seat`` holds and sees face up now, as card masks (``_private`` as numbers; the
    hand is UNSEEN while the seat has not looked at it)."""
    hand, shown, up = engine.private_parts(seat)
    return hand, shown, 0 if up is None else 1 << int(up)


def _action_steps(action: Any, seat: int) -> list[tuple[int, int, int]]:
    """The steps of ``seat``'s information state for ``action`` (kind, actor or -1, payload bits)."""
    if isinstance(action, Deal):
        return [(DEAL, -1, 0)]
    if isinstance(action, Stop):
        return [(STOP, -1, 0)]
    if isinstance(action, Draw):
        return [(DRAW, s, 1 << int(c)) for s, c in enumerate(action.cards)]
    if isinstance(action, ChooseDealer):
        return [(DEALER, action.seat, 0)]
    if isinstance(action, Exchange):
        if action.seat != seat:
            return [(EXCHANGE, action.seat, 1 << len(action.cards))]
        return [(OWN_EXCHANGE, seat, sum(1 << int(c) for c in action.cards))]
    return [(ACT, action.seat, 1 << action_id(action))]


class Recall:
    """The information-state tensor: a seat's information state with perfect recall, as a fixed
    number of steps (two states give the same tensor exactly when they give the seat the same
    information-state string).

    Layout: ``capacity`` steps of ``width`` floats, each one-hot in its kind (``KINDS``), its
    actor seat (``players``; none for private parts and markers) and bits of its payload (an
    action id, a card mask, or a count; the family's number of actions wide), zero after the last
    step; then the seat's own number (``players``), whether a deal is in progress, and the cards
    of that deal come to the seat so far (52). The capacity is the game's deals at most (its
    ``deals``, ``max_hands`` or ``max_deals``) times a bound on the steps of one deal, with room
    in Call Break for two redeals of each deal and two extra deals for ties; a longer match
    (rarer than one in ten thousand in random play) raises ``SpielError``.
    """

    def __init__(self, family: str | Encoding[Any], players: int, deals: int) -> None:
        encoding = encoding_of(family) if isinstance(family, str) else family
        self.players = players
        self.payload = encoding.num_actions
        self.width = KINDS + players + self.payload
        per_deal, extra = encoding.deal_steps(players)
        self.capacity = players + 1 + (deals + extra) * per_deal
        self.size = self.capacity * self.width + players + 1 + 52

    def encode(self, state: CardGameState, player: int, out: np.ndarray) -> np.ndarray:
        steps = state.steps[player]
        if len(steps) > self.capacity:
            raise pyspiel.SpielError(
                f"the information state of seat {player} has {len(steps)} steps, more than the "
                f"tensor's {self.capacity}: a longer match than this game's bound")
        out[:] = 0
        grid = out[:self.capacity * self.width].reshape(self.capacity, self.width)
        actor0, pay0 = KINDS, KINDS + self.players
        for i, (kind, actor, bits) in enumerate(steps):
            row = grid[i]
            row[kind] = 1
            if actor >= 0:
                row[actor0 + actor] = 1
            while bits:
                low = bits & -bits
                row[pay0 + low.bit_length() - 1] = 1
                bits ^= low
        tail = self.capacity * self.width
        out[tail + player] = 1
        if state.pending:
            out[tail + self.players] = 1
            for c in state._pending_to(player):
                out[tail + self.players + 1 + c] = 1
        return out


# --- registration ------------------------------------------------------------------------------


def _restore_game(name: str, params: dict[str, Any], options: Any) -> CardGame:
    game: CardGame = pyspiel.load_game(short_name(name), params)
    game.options = options
    return game


def _register(info: GameInfo) -> None:
    game_type = _game_type(info)

    def init(self: CardGame, params: dict[str, Any] | None = None) -> None:
        CardGame.__init__(self, info, game_type, params)

    # A class, not a closure, is registered: OpenSpiel's registry outlives the interpreter and
    # a class (which refers to itself) is never freed when it lets go of it at exit.
    name = f"CardGame_{info.name.replace('-', '_')}"
    cls = type(name, (CardGame,), {"__init__": init, "__module__": __name__, "__qualname__": name})
    globals()[name] = cls  # pickle finds a class by its module and name
    pyspiel.register_game(game_type, cls)


def registered_names() -> list[str]:
    return [short_name(info.name) for info in games()]


_DONE: set[str] = set()


def register_games() -> None:
    """Register with OpenSpiel every game of the registry not registered yet (done on import;
    again for a game registered later)."""
    for info in games():
        if info.name not in _DONE:
            _register(info)
            _DONE.add(info.name)


register_games()


def load(game: str = "callbreak", **params: Any) -> CardGame:
    """``pyspiel.load_game(short_name(game), params)``, with the registry name."""
    game_info(game)
    register_games()
    loaded: CardGame = pyspiel.load_game(short_name(game), params)
    return loaded


__all__ = ["CardGame", "CardGameState", "Recall", "action_id", "load", "parse_options", "register_games",
           "registered_names", "short_name"]
