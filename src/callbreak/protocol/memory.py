"""What a stateless bot-server remembers of the players it meets: how each one plays.

Every request carries one deal's history only, so what earlier deals showed of a player's style
(see :mod:`callbreak.bots.reading`) would be lost between requests. The server keeps it here,
keyed by player id (the protocol's ``playerIds``; it has no match id, and a player's style is
theirs across matches anyway): per player, the evidence of each deal seen, keyed by the table's
players and the round, the latest request's reading of that deal winning. A request's prior for
a player is the capped sum over every other deal remembered of them.

Bounded and forgetful: at most ``capacity`` players (the least recently seen go first), at most
``deals`` deals a player, and a player not seen for ``idle`` seconds is forgotten.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np

from callbreak.bots.reading import carry

CAPACITY = 1000  # players remembered
DEALS = 100  # deals remembered a player
IDLE_SECONDS = 1800.0  # a player not met for this long is forgotten

DealKey = tuple[tuple[str, ...], int]  # the table's player ids (sorted) and the round


class StyleMemory:
    """Per player id, what their earlier deals showed of their style (thread-safe)."""

    def __init__(self, capacity: int = CAPACITY, deals: int = DEALS, idle: float = IDLE_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity, self.deals, self.idle, self.clock = capacity, deals, idle, clock
        self._players: OrderedDict[str, tuple[float, OrderedDict[DealKey, float]]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._players)

    def known(self, player_ids: Sequence[str], me: int, round_: int) -> np.ndarray:
        """Per seat, the evidence of every other remembered deal of its player (0 for ``me``)."""
        key = _deal_key(player_ids, round_)
        known = np.zeros(len(player_ids))
        with self._lock:
            self._forget_idle()
            for seat, pid in enumerate(player_ids):
                if seat == me or pid not in self._players:
                    continue
                total = np.zeros(1)
                for deal, evidence in self._players[pid][1].items():
                    if deal != key:
                        total = carry(total, np.array([evidence]))
                known[seat] = total[0]
        return known

    def record(self, player_ids: Sequence[str], me: int, round_: int, evidence: np.ndarray) -> None:
        """This deal's evidence of each other seat's player, as read at this request."""
        key = _deal_key(player_ids, round_)
        now = self.clock()
        with self._lock:
            for seat, pid in enumerate(player_ids):
                if seat == me:
                    continue
                _, deals = self._players.pop(pid, (now, OrderedDict()))
                deals.pop(key, None)
                deals[key] = float(evidence[seat])
                while len(deals) > self.deals:
                    deals.popitem(last=False)
                self._players[pid] = (now, deals)  # the most recently seen last
            while len(self._players) > self.capacity:
                self._players.popitem(last=False)
            self._forget_idle()

    def _forget_idle(self) -> None:
        cutoff = self.clock() - self.idle
        while self._players:
            pid, (seen, _) = next(iter(self._players.items()))
            if seen >= cutoff:
                break
            del self._players[pid]


def _deal_key(player_ids: Sequence[str], round_: int) -> DealKey:
    return tuple(sorted(player_ids)), round_
