"""The bot-server's memory of how each player plays (protocol/memory.py)."""

from __future__ import annotations

import time

import numpy as np

from callbreak.bots import make_bot
from callbreak.bots.reading import CARRY_CAP
from callbreak.core import CHANCE, Dealer, Match, Phase
from callbreak.protocol.memory import StyleMemory
from callbreak.protocol.server import RULES, BotService
from callbreak.protocol.wire import parse_request, request_from_view

IDS = ("ann", "bo", "cy", "di")


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_player_is_known_by_their_other_deals_not_this_one() -> None:
    memory = StyleMemory()
    memory.record(IDS, 0, 1, np.array([0.0, -2.0, 1.0, 0.5]))
    memory.record(IDS, 0, 2, np.array([0.0, -1.0, 1.0, 0.5]))
    # Seen from seat 2 in round 2: ann and bo by round 1 only (round 2 is the deal being played).
    known = memory.known(IDS, 2, 2)
    assert known[2] == 0  # not its own
    assert known[1] == -2.0 and known[3] == 0.5
    assert known[0] == 0  # ann was seat 0, the reader, in those deals: never recorded
    # A later reading of the same deal replaces the earlier one.
    memory.record(IDS, 0, 1, np.array([0.0, -3.0, 1.0, 0.5]))
    assert memory.known(IDS, 2, 2)[1] == -3.0
    # Many deals never make a reading certain.
    for r in range(3, 60):
        memory.record(IDS, 0, r, np.array([0.0, -5.0, 0.0, 0.0]))
    assert memory.known(IDS, 2, 1)[1] == -CARRY_CAP


def test_the_memory_is_bounded_and_forgets_idle_players() -> None:
    clock = FakeClock()
    memory = StyleMemory(capacity=5, deals=3, idle=60, clock=clock)
    for table in range(4):  # 4 tables of 4 different players each: 12 others recorded
        ids = tuple(f"t{table}p{s}" for s in range(4))
        memory.record(ids, 0, 1, np.ones(4))
        clock.now += 1
    assert len(memory) == 5  # the least recently seen went first
    last = tuple(f"t3p{s}" for s in range(4))
    assert (memory.known(last, 0, 2)[1:] == 1).all()
    first = tuple(f"t0p{s}" for s in range(4))
    assert (memory.known(first, 0, 2) == 0).all()
    for r in range(1, 10):  # at most 3 deals a player
        memory.record(last, 0, r, np.ones(4))
    assert (memory.known(last, 0, 99)[1:] == 3).all()
    clock.now += 61
    assert (memory.known(last, 0, 99) == 0).all() and len(memory) == 0


def test_the_bot_server_carries_a_reading_into_the_next_deal() -> None:
    service = BotService("expert:samples=40,read=on")
    match = Match(RULES)
    dealer = Dealer(3)
    others = [make_bot("random", seed=s) for s in range(4)]
    known_in_deal_2 = None
    while match.deal_number <= 2 and not match.is_over:
        seat = match.to_act
        if seat == CHANCE:
            match.apply(dealer.chance(match))
            continue
        assert seat is not None
        view = match.view(seat)
        if seat == 0 and view.phase is Phase.PLAY and len(view.legal) > 1:
            body = request_from_view(view, time_budget_ms=5000)
            request = parse_request("play", body)
            if match.deal_number == 2 and known_in_deal_2 is None:
                known_in_deal_2 = service.memory.known(request.player_ids, request.view.seat or 0, 2)
            action = service._decide(request, body, 0.3, time.monotonic())
            match.apply(action)
        else:
            match.apply(others[seat].decide(view, 1.0).action)
    assert len(service.memory) == 3  # the three others, by their ids
    assert known_in_deal_2 is not None and known_in_deal_2.sum() < 0  # random players, read as such
