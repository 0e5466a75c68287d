"""What saving after every action costs `callbreak play`.

Plays whole matches (random bots at all four seats, the person's seat answered with its first
legal action) and times, per action, the baseline ``Match.apply`` against ``Session.apply``
(apply, then the whole record written to a temporary file, fsync'd and moved into place), and
the same without the fsync to show where the time goes.

Reproduce:

    .venv/bin/python benchmarks/tui_save.py --matches 3

The data directory is a fresh temporary folder (set through CALLBREAK_DATA_DIR).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from contextlib import nullcontext
from unittest import mock


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["CALLBREAK_DATA_DIR"] = folder
        from callbreak.cli.tui.session import Session, Turn
        from callbreak.core import make_rules

        timings: dict[str, list[float]] = {"Match.apply": [], "Session.apply (fsync)": [],
                                           "Session.apply (no fsync)": []}
        for seed in range(1, args.matches + 1):
            for label in timings:
                s = Session.new(make_rules("callbreak"), opponents=["random"], seed=seed,
                                save=label != "Match.apply")
                no_fsync = label.endswith("(no fsync)")
                with mock.patch("os.fsync", lambda fd: None) if no_fsync else nullcontext():
                    while s.turn is not Turn.OVER:
                        if s.turn is Turn.CHANCE:
                            action = s.chance_action()
                        elif s.turn is Turn.BOT:
                            seat, view = s.bot_view()
                            action = s.decide(seat, view, 0.01).action
                        else:
                            action = s.view().legal[0]
                        start = time.perf_counter()
                        s.apply(action)  # with save=False this is Match.apply and nothing else
                        timings[label].append(time.perf_counter() - start)
        base = statistics.median(timings["Match.apply"])
        print(f"{args.matches} matches of 5 deals, {len(timings['Match.apply'])} actions each way")
        print(f"{'what':28} {'median ms':>10} {'p90 ms':>8} {'max ms':>8} {'per match s':>12} {'x base':>8}")
        for label, values in timings.items():
            med = statistics.median(values)
            p90 = statistics.quantiles(values, n=10)[-1]
            per_match = sum(values) / args.matches
            print(f"{label:28} {med * 1e3:10.3f} {p90 * 1e3:8.3f} {max(values) * 1e3:8.2f} "
                  f"{per_match:12.3f} {med / base:8.0f}")


if __name__ == "__main__":
    main()
