"""Corrupt records (issue 44, part 4): a real record cut short, or with one part replaced by any
JSON value, removed, or added to, either loads (the change was harmless) or is refused with a
RecordError saying what is wrong; nothing else escapes, whatever the damage."""

from __future__ import annotations

import copy
import json
import os
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from callbreak.core import CHANCE, Match, RecordError, make_rules
from callbreak.core.dealing import Dealer
from callbreak.record import dumps, loads, record_of

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8)


def _record_text() -> str:
    m = Match(make_rules("callbreak"))
    dealer, rng = Dealer(3), random.Random(3)
    while not m.is_over:
        m.apply(dealer.chance(m, stop=len(m.results) >= 1) if m.to_act == CHANCE else rng.choice(m.legal_actions()))
    return dumps(record_of(m, seats=["ana", "bo", "cy", "di"]))


RECORD = _record_text()


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    places = [path] if path else []
    if isinstance(value, dict):
        for k, v in value.items():
            places += _places(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            places += _places(v, (*path, i))
    return places


PLACES = _places(json.loads(RECORD))


@st.composite
def damaged(draw: st.DrawFn) -> str:
    how = draw(st.sampled_from(["cut", "replace", "remove", "add"]))
    if how == "cut":
        return RECORD[:draw(st.integers(0, len(RECORD) - 1))]
    data = copy.deepcopy(json.loads(RECORD))
    *outer, last = draw(st.sampled_from(PLACES))
    parent = data
    for step in outer:
        parent = parent[step]
    if how == "replace":
        parent[last] = draw(JSON)
    elif how == "remove":
        del parent[last]
    elif isinstance(parent, dict):
        parent[draw(st.text(max_size=6))] = draw(JSON)
    else:
        parent.insert(last, draw(JSON))
    return json.dumps(data)


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
