"""OpenSpiel's information-set MCTS as a player of our tables: the ``openspiel-ismcts`` bot.

Registered through the ``callbreak.bots`` entry point (pyproject.toml), so the arena and the web
lobby seat it by name: ``openspiel-ismcts:iterations=200`` (options: ``iterations`` (100, the most
simulations a decision runs), ``uct_c`` (2.0), ``rollouts`` (1 random rollout per leaf),
``seed``). It plays every built-in game.

It keeps to its budget: a decision stops simulating before ``SHARE`` of the seconds it is given
(when one more simulation, as long as the mean so far, would pass it; at least one runs), so a
loaded machine's stalls fit in the rest.

At each decision it builds, from the seat's view alone, the current deal as an OpenSpiel state
(:func:`callbreak.env.resample.from_view`: the hidden cards drawn consistently with the view,
the state ending when the deal is scored, its returns that deal's points) and runs
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` on it, with a resampler that draws a new world
from the view for every simulation. OpenSpiel is imported only when the bot is made: without the
``openspiel`` extra, making it raises an error that says to install it.
"""

from __future__ import annotations

import random
import time
from typing import Any

from callbreak.bots.base import BotError, Decision
from callbreak.games import View

SHARE = 0.5  # of a decision's budget spent simulating; the rest is for a loaded machine's stalls


def _timed_bot(base: type) -> type:
    """OpenSpiel's ISMCTSBot with a deadline: its search runs simulations until the bot's
    ``max_simulations`` or ``deadline`` (a ``time.perf_counter`` value), whichever comes first."""

    class TimedISMCTSBot(base):  # type: ignore[misc]
        deadline = float("inf")
        simulations = 0

        def run_search(self, state: Any) -> list[tuple[int, float]]:
            self.reset()
            legal = state.legal_actions()
            if len(legal) == 1:
                return [(legal[0], 1.0)]
            self._root_node = self.create_new_node(state)
            self.simulations = 0
            start = now = time.perf_counter()
            # Stop when one more simulation, as long as the mean so far, would pass the deadline;
            # but not before a legal action has a visit, which the final policy needs (the first
            # simulation only expands the root: a slow machine used to stop there, and OpenSpiel
            # failed on an unvisited root).
            while self.simulations < self._max_simulations and (
                    not self._visited(legal)
                    or now + (now - start) / self.simulations < self.deadline):
                self.run_simulation(self.sample_root_state(state))
                self.simulations += 1
                now = time.perf_counter()
            node = self._root_node
            if self._allow_inconsistent_action_sets:
                node = self.filter_illegals(node, legal)
            return self.get_final_policy(state, node)  # type: ignore[no-any-return]

        def _visited(self, legal: list[int]) -> bool:
            return any(child.visits > 0 for action, child in self._root_node.child_info.items()
                       if action in legal)

    return TimedISMCTSBot


class IsmctsBot:
    name = "openspiel-ismcts"

    def __init__(self, iterations: int = 100, uct_c: float = 2.0, rollouts: int = 1,
                 seed: int | None = None) -> None:
        try:
            import pyspiel  # noqa: F401

            import callbreak.env.openspiel  # noqa: F401  (registers the games)
        except ImportError as e:
            raise BotError("openspiel-ismcts needs OpenSpiel: pip install 'callbreak[openspiel]'") from e
        if iterations < 1 or rollouts < 1 or uct_c <= 0:
            raise BotError("iterations and rollouts must be at least 1 and uct_c positive")
        self.iterations = iterations
        self.uct_c = uct_c
        self.rollouts = rollouts
        self.rng = random.Random(seed)
        self._games: dict[tuple[str, int, Any], Any] = {}

    def _game(self, view: View) -> Any:
        import pyspiel

        from callbreak.env.openspiel import register_games, short_name

        name = view.game
        options = view.options
        key = (name, view.players, options)
        game = self._games.get(key)
        if game is None:
            register_games()  # a game registered after OpenSpiel's import is registered now
            game = pyspiel.load_game(short_name(name), {"players": view.players})
            game.options = options  # the table's own options, whatever preset they came from
            self._games[key] = game
        return game

    def decide(self, view: View, budget: float) -> Decision:
        started = time.perf_counter()
        import numpy as np
        from open_spiel.python.algorithms import ismcts, mcts

        from callbreak.env.resample import from_view
        from callbreak.games.spaces import legal_ids

        legal = legal_ids(view)
        if not legal:
            raise BotError("the bot was asked to act with no legal action")
        if len(legal) == 1:
            return Decision(next(iter(legal.values())), "the only legal action")
        game = self._game(view)
        np_rng = np.random.RandomState(self.rng.randrange(2**31))
        bot = _timed_bot(ismcts.ISMCTSBot)(
            game, mcts.RandomRolloutEvaluator(self.rollouts, np_rng), self.uct_c,
            self.iterations, random_state=np_rng, allow_inconsistent_action_sets=True)
        bot.deadline = started + SHARE * budget
        bot.set_resampler(lambda state, player: from_view(game, view, self.rng))
        root = from_view(game, view, self.rng)
        action = bot.step(root)
        return Decision(legal[int(action)], f"IS-MCTS, {bot.simulations} simulations")


def openspiel_ismcts(**options: str) -> IsmctsBot:
    """The entry point's factory: options come as text (``iterations="200"``)."""
    known = {"iterations": int, "uct_c": float, "rollouts": int, "seed": int}
    kwargs: dict[str, Any] = {}
    for key, value in options.items():
        if key not in known:
            raise TypeError(f"openspiel-ismcts takes {', '.join(known)}, not {key!r}")
        kwargs[key] = known[key](value)
    return IsmctsBot(**kwargs)


def plays(game: str) -> bool:
    """The games it plays, asked when needed: every game with an observation encoding (what its
    OpenSpiel game needs; the deal comes from a view through the game protocol's
    ``sample_deal``)."""
    from callbreak.games import game_info

    return game_info(game).encoding is not None


openspiel_ismcts.games = plays  # type: ignore[attr-defined]
openspiel_ismcts.description = (  # type: ignore[attr-defined]  # what the lobby shows
    "OpenSpiel's information-set MCTS, up to 100 simulations a move within half its time.")
openspiel_ismcts.requires = "pyspiel"  # type: ignore[attr-defined]
openspiel_ismcts.extra = "openspiel"  # type: ignore[attr-defined]
