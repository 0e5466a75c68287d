"""Corrupt records (issue 44, part 4): a real record cut short, or with one part replaced by any
JSON value, removed, or added to, either loads (the change was harmless) or is refused with a
RecordError saying what is wrong; nothing else escapes, whatever the damage."""

from __future__ import annotations

import json
import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from callbreak.core import CHANCE, Match, RecordError, make_rules
from callbreak.core.dealing import Dealer
from callbreak.record import dumps, loads, record_of
from fuzzing import one_part_changed


def _record_text() -> str:
    m = Match(make_rules("callbreak"))
    dealer, rng = Dealer(3), random.Random(3)
    while not m.is_over:
        m.apply(dealer.chance(m, stop=len(m.results) >= 1) if m.to_act == CHANCE else rng.choice(m.legal_actions()))
    return dumps(record_of(m, seats=["ana", "bo", "cy", "di"]))


RECORD = _record_text()


@st.composite
def damaged(draw: st.DrawFn) -> str:
    """The record cut short, or with one part changed."""
    if draw(st.booleans()):
        return RECORD[:draw(st.integers(0, len(RECORD) - 1))]
    return json.dumps(draw(one_part_changed(json.loads(RECORD))))


@settings(max_examples=int(os.environ.get("FUZZ_N", "300")), deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(text=damaged())
def test_a_damaged_record_loads_or_is_refused_saying_why(text: str) -> None:
    try:
        record = loads(text)
    except RecordError as e:
        assert str(e)
    else:
        assert record.actions is not None
