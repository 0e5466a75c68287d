"""The bot-server keeps a reading bot's readings of the other players across a match's deals."""

from __future__ import annotations

import time

from callbreak.bots import make_bot
from callbreak.bots.reading import GREEDY
from callbreak.core import CHANCE, Dealer, Match, make_rules
from callbreak.protocol.server import BotService, match_key
from callbreak.protocol.wire import kind_for, parse_request, request_from_view


def test_readings_of_each_player_are_carried_into_the_next_deal_by_player_id() -> None:
    service = BotService("expert:samples=24,read=on", seed=1, workers=1)
    match = Match(make_rules("bhoos-tournament"))
    dealer = Dealer(4)
    greedy = make_bot("greedy")
    keys = set()
    while not match.is_over and match.deal_number <= 1:
        seat = match.to_act
        if seat == CHANCE:
            match.apply(dealer.chance(match))
            continue
        assert seat is not None
        view = match.view(seat)
        if seat != 0:
            match.apply(greedy.decide(view, 1.0).action)
            continue
        body = request_from_view(view, time_budget_ms=1500)
        request = parse_request(kind_for(view), body)
        keys.add(match_key(request, body))
        action, fault = service._decide(request, body, 0.05, time.monotonic())
        assert fault is None, fault  # (the readings are kept from the bot's own answers only)
        match.apply(action)
    assert len(keys) == 1  # the seat order turns with the dealer; the key does not
    (key,) = keys
    carried = service.styles.priors(key, 2)
    assert set(carried) == {"P1", "P2", "P3"}  # the three others, by their ids
    for reading in carried.values():
        assert reading.argmax() == GREEDY
    other = dict(body, matchId="m-7")
    assert match_key(parse_request(kind_for(view), other), other)[:2] == ("match", "m-7")
