"""A PettingZoo AEC environment for every registered game (see :mod:`callbreak.env`)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from callbreak.core.actions import CHANCE, Stop
from callbreak.core.cards import cards_of
from callbreak.core.errors import RulesError
from callbreak.core.game import Game
from callbreak.games import game_info
from callbreak.games.spaces import (
    Encoder,
    MaskedActionError,
    action_mask,
    describe_action,
    game_encoding,
    legal_ids,
)

REWARDS = ("deal", "match")
OBS_BOUND = 1e6


class CardGameEnv(AECEnv):  # type: ignore[misc]
    """One table of any registered game as a PettingZoo AEC environment.

    ``game`` is a registry name, ``players`` the number of seats (default: the game's usual),
    ``preset`` one of the game's presets and ``options`` its options (text accepted, as on the
    command line). Agents are ``player_0`` .. ``player_{N-1}`` for seats 0..N-1; the agent to act
    is the game's seat to act. Chance steps (the first-dealer draw, deals, redeals) are made
    inside :meth:`step` and :meth:`reset` by the game's seeded dealer (``reset(seed=...)``).

    Rewards (``reward=``): ``"deal"`` gives each seat the points of each deal (hand) as it is
    scored, so the sum over a match is the final score (in race-down games, Donut and Snarples,
    the points are negated: a reward is always better when higher); ``"match"`` gives only at the
    end of the match ``1/k`` to each of the ``k`` winners and 0 to everyone else.

    With an unlimited number of deals (Call Bridge) the table stops after ``max_deals`` deals.

    An action outside the current ``action_mask`` raises :class:`MaskedActionError` (a
    :class:`~callbreak.core.errors.IllegalActionError`) naming it and the legal ones, and changes
    nothing: the environment stays exactly as it was, and the same agent is still to act.
    """

    metadata = {"render_modes": ["ansi"], "name": "callbreak_v0", "is_parallelizable": False}

    def __init__(self, game: str = "callbreak", players: int | None = None,
                 preset: str | None = None, *, reward: str = "deal",
                 render_mode: str | None = None, max_deals: int = 5, **options: Any) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise RulesError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
        if render_mode not in (None, "ansi"):
            raise RulesError(f"render_mode must be 'ansi' or None, got {render_mode!r}")
        if max_deals < 1:
            raise RulesError(f"max_deals must be at least 1, got {max_deals}")
        self.info = game_info(game)
        self.players = self.info.check_seats(players)
        if preset is not None:
            self.info.preset(preset)
        self.options = self.info.make_options(preset, options)
        self.reward_mode = reward
        self.render_mode = render_mode
        self.max_deals = max_deals
        encoding = game_encoding(self.info.create(self.players, self.options))
        self.family = encoding.family
        self.encoder = Encoder(encoding, self.players)
        self.n_actions = encoding.num_actions
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.n_actions,), np.int8),
        })
        act_space = spaces.Discrete(self.n_actions)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.metadata = {**self.metadata, "name": f"{game.replace('-', '_')}_v0"}
        self.game: Any = None

    # --- PettingZoo API -----------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self.game = self.info.create(self.players, self.options)
        self.chance = self.info.dealer(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._scored = 0
        self._advance()
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        view = self.game.view(self._seat[agent])
        return {"observation": self.encoder.encode(view), "action_mask": action_mask(view, self.n_actions)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        view = self.game.view(seat)
        legal = legal_ids(view)
        index = _as_index(action)
        if index is None or index not in legal:
            what = (describe_action(self.family, index) if index is not None
                    and 0 <= index < self.n_actions else "not an action id")
            raise MaskedActionError(
                f"action {action!r} ({what}) is not legal for {agent} now; legal: "
                + ", ".join(f"{i} ({describe_action(self.family, i)})" for i in sorted(legal)))
        self.game.apply(legal[index])
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._advance()
        self._give_rewards()
        if self.game.is_over:
            for a in self.agents:
                self.terminations[a] = True
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_text(self.game)

    def close(self) -> None:
        pass

    # --- helpers ------------------------------------------------------------------------------

    def _advance(self) -> None:
        """Make chance steps until a seat is to act or the game is over."""
        game = self.game
        while not game.is_over and game.to_act == CHANCE:
            if len(game.results) >= self.max_deals and game.can_stop:
                game.apply(Stop())
            else:
                game.apply(self.chance.chance(game))

    def _select(self) -> None:
        game = self.game
        if game.is_over:
            self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]
        else:
            self.agent_selection = self.possible_agents[game.to_act]

    def _give_rewards(self) -> None:
        game = self.game
        results = game.results
        sign = -1.0 if self.info.low_wins else 1.0
        if self.reward_mode == "deal":
            scale = 0.1  # a result's points are tenths of a point
            for r in results[self._scored:]:
                for s, p in enumerate(r.points):
                    self.rewards[self.possible_agents[s]] += sign * p * scale
        elif game.is_over:
            winners = game.winners
            for s in winners:
                self.rewards[self.possible_agents[s]] += 1.0 / len(winners)
        self._scored = len(results)


def _as_index(action: Any) -> int | None:
    if isinstance(action, bool):
        return None
    if isinstance(action, (int, np.integer)):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        return int(action)
    return None


def render_text(game: Game) -> str:
    """A few lines describing the table (what ``render_mode="ansi"`` returns)."""
    view = game.view(None)
    lines = [f"phase {view.phase.value}; to act: {view.to_act}; scores "
             + " ".join(f"{s:g}" for s in view.scores)]
    for s, h in enumerate(game.hands):
        lines.append(f"seat {s}: " + " ".join(c.text for c in cards_of(h)))
    if view.trick:
        lines.append("trick: " + " ".join(f"{s}:{c.text}" for s, c in zip(view.trick_seats, view.trick,
                                                                          strict=True)))
    lines.append("won: " + " ".join(str(w) for w in view.won))
    return "\n".join(lines)
