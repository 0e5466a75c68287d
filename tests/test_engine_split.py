"""Nothing asks which engine or game it holds (issue 31), as benchmarks/engine_split.py counts
it: no getattr/hasattr probe of a game, view, options, rules, result or action anywhere in src,
and no Python branch above games/ on the engine or a game's name but the ones kept because a
capability is honestly absent (each says so in a comment). A new getattr/hasattr call is read
and classified in the script's table."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
PYTHON_BRANCHES = ("isinstance on an engine type", "game name compared", "table keyed by game names")


def _engine_split() -> ModuleType:
    spec = importlib.util.spec_from_file_location("engine_split", ROOT / "benchmarks" / "engine_split.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("engine_split", module)  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_nothing_above_the_rules_probes_or_branches_on_the_engine() -> None:
    split = _engine_split()
    hits = split.count(ROOT).hits
    # No probe anywhere in src, the rules included (one engine declares what every game has).
    probes = [f"{h.path}:{h.line} {h.text}" for h in hits if h.what in (split.PROBE, "unclassified")]
    assert not probes, "a getattr/hasattr probe, or a call to classify in engine_split.GETATTR_USES"
    above = [h for h in hits if split.layer(h.path) in split.ABOVE_GAMES]
    branches = [f"{h.path}:{h.line} {h.text}" for h in above if h.what in PYTHON_BRANCHES and not h.absent]
    assert not branches, "a branch on the engine or a game's name: ask the registry or the protocol"
