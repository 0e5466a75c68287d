"""The learning example in examples/ runs as docs/research.md says, on a small budget: it trains,
draws its learning curve and reports the arena's intervals."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.process

EXAMPLE = Path(__file__).parents[2] / "examples" / "train_call_model.py"


def test_the_call_model_example_learns_and_is_measured(tmp_path: Path) -> None:
    plot = tmp_path / "curve.png"
    out = subprocess.run(
        [sys.executable, str(EXAMPLE), "--tables", "16", "--eval-tables", "64", "--iterations", "3",
         "--deals", "40", "--plot", str(plot)],
        capture_output=True, text=True, timeout=300, check=True).stdout
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(re.findall(r"^round +\d+:", out, re.M)) == 3
    # Both opponents measured, each with a 95% interval around the mean.
    for opponent in ("random", "beginner"):
        assert re.search(rf"vs {opponent} *: learned-caller +[+-]\d+\.\d+ \[[+-]\d+\.\d+, [+-]\d+\.\d+\]", out), out
