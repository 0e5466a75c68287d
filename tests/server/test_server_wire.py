"""The spliced per-seat state text is exactly the JSON of the seat's own view."""

from __future__ import annotations

import json

from callbreak.core import CHANCE, Dealer, Match, make_rules
from callbreak.server.wire import dumps, personal_json, public_json, state_text, view_json


def test_spliced_state_equals_the_plain_message_at_every_step() -> None:
    match = Match(make_rules("567"))
    dealer = Dealer(5)
    shared = {"type": "state", "version": 0, "table": {"code": "X"}, "clock": {"left": None, "kind": None}}
    checked = 0
    while not match.is_over and len(match.history) < 120:
        public = dumps(public_json(match.view(None)))
        for seat in (None, 0, 1, 2, 3):
            own = view_json(match.view(seat))
            text = state_text(shared, public, seat, personal_json(match.view(seat)))
            assert json.loads(text) == {**shared, "you": seat, "view": own}
            checked += 1
        match.apply(dealer.chance(match) if match.to_act == CHANCE else match.legal_actions()[0])
    assert checked > 500
    assert json.loads(state_text(shared, None, 2, None)) == {**shared, "you": 2, "view": None}


def test_a_seat_view_has_no_field_outside_the_allow_list() -> None:
    match = Match(make_rules("callbreak"))
    dealer = Dealer(2)
    while match.to_act == CHANCE:
        match.apply(dealer.chance(match))
    fields = set(view_json(match.view(1)))
    assert fields == set(public_json(match.view(1))) | {"seat", "hand", "looked", "legal"}
    assert "hands" not in fields and "caps" not in fields
