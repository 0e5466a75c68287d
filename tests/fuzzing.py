"""What the fuzz tests share (tests/server, tests/protocol, tests/record): any JSON value, and a
real JSON document with one part changed."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8)


def places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value (a key of an object, an index of a list), outermost first."""
    found = [path] if path else []
    if isinstance(value, dict):
        for k, v in value.items():
            found += places(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += places(v, (*path, i))
    return found


@st.composite
def one_part_changed(draw: st.DrawFn, document: Any) -> Any:
    """A copy of ``document`` (a JSON value with at least one place) with one part replaced by
    any JSON value, removed, or a stranger added beside it."""
    changed = copy.deepcopy(document)
    *outer, last = draw(st.sampled_from(places(document)))
    parent = changed
    for step in outer:
        parent = parent[step]
    how = draw(st.sampled_from(["replace", "remove", "add"]))
    if how == "replace":
        parent[last] = draw(JSON)
    elif how == "remove":
        del parent[last]
    elif isinstance(parent, dict):
        parent[draw(st.text(max_size=6))] = draw(JSON)
    else:
        parent.insert(last, draw(JSON))
    return changed
