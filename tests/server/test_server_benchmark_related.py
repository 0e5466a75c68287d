"""benchmarks/web_related.py runs: it seeds its games (the same games every run), so it makes its
service a practice one; a public server's refusal of a chosen seed must not stop it."""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path

import pytest

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "web_related.py"


def test_the_related_games_benchmark_plays_its_seeded_games(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location("web_related", BENCHMARK)
    assert spec is not None and spec.loader is not None
    benchmark = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(benchmark)
    monkeypatch.setattr(benchmark, "CASES", benchmark.CASES[:1])  # Call Break alone: a quick run
    (name, actions, act, cast), = asyncio.run(benchmark.run())
    assert name.startswith("callbreak") and actions > 0 and act > 0 and cast > 0
