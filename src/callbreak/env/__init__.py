"""A research environment: PettingZoo, OpenSpiel and a batched environment on the numba kernel.

- :func:`make` builds a PettingZoo AEC environment (:class:`~callbreak.env.aec.CardGameEnv`) for
  any registered game, any preset and any options::

      env = callbreak.env.make("callbreak", preset="bhoos-tournament")
      env = callbreak.env.make("donut", players=5, reward="match")

  Observations are ``{"observation": float32 array, "action_mask": int8 array}``; the encoding
  and the fixed action space of each game are documented in :mod:`callbreak.games.spaces`.
- :class:`~callbreak.env.vector.VectorEnv` steps many Call Break tables at once on compiled code,
  with the same observation encoding and action ids as the AEC environment.
- :mod:`callbreak.env.openspiel` registers every game with OpenSpiel as ``python_<name>``
  (``pyspiel.load_game("python_callbreak", {"preset": "callbreak"})``), and the
  ``openspiel-ismcts`` bot seats OpenSpiel's IS-MCTS at our tables.

PettingZoo and gymnasium come with the ``env`` extra, OpenSpiel with the ``openspiel`` extra
(``pip install 'callbreak[env,openspiel]'``); the spaces and the vector environment need neither.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from callbreak.games.spaces import MaskedActionError

if TYPE_CHECKING:
    from callbreak.env.aec import CardGameEnv

__all__ = ["MaskedActionError", "make"]


def make(game: str = "callbreak", players: int | None = None, preset: str | None = None,
         **kwargs: Any) -> CardGameEnv:
    """A PettingZoo AEC environment of ``game`` (see :class:`~callbreak.env.aec.CardGameEnv` for
    ``reward``, ``render_mode`` and ``max_deals``; any other keyword is a game option)."""
    try:
        from callbreak.env.aec import CardGameEnv
    except ImportError as e:  # pragma: no cover - the env extra is part of dev
        raise ImportError("callbreak.env.make needs PettingZoo: pip install 'callbreak[env]'") from e
    return CardGameEnv(game, players, preset, **kwargs)
