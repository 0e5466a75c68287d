"""Calibrate the related games' review: how the search bot's review rates random, heuristic and
search players in each related game.

Each related game is played ``--games`` times from seeded deals, refereed by the arena's
``play_game``; seat ``s`` of game ``i`` gets the kind ``KINDS[(s + i) % 3]`` (as
``games_arena.py`` seats them), so every kind sits in every seat. A game stops at its own end or
after ``--max-hands`` hands. Every game is reviewed at the default settings (the review's judge
here is the search bot at its own defaults, whatever the players' sample count). Reported per
game and kind: the mean accuracy over its seat-games (the share of the points at stake kept,
with a 95% interval over the seat-games), the decisions judged, and the points lost a hand.

    PYTHONPATH=src .venv/bin/python benchmarks/related_review_accuracy.py --games 3
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from callbreak.arena.runner import play_game
from callbreak.arena.stats import mean_ci
from callbreak.bots import make_bot
from callbreak.games import game_info, new_game
from callbreak.review import ReviewSettings, review_record

KINDS = ("search", "heuristic", "random")
PLAYERS = {"batak-ihaleli": 4, "batak-koz-maca": 4, "snarples": 4, "donut": 4, "horsethief": 3}
BUDGET = 2.0  # seconds a decision: generous, no decision is cut off


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games of each related game")
    parser.add_argument("--max-hands", type=int, default=2, help="hands a game at most")
    parser.add_argument("--samples", type=int, default=16, help="the search players' deals a decision")
    parser.add_argument("--only", default="", help="comma-separated games (default: all five)")
    parser.add_argument("--workers", type=int, default=2, help="processes judging a review")
    args = parser.parse_args()
    names = [n for n in PLAYERS if not args.only or n in args.only.split(",")]
    # (game, kind) -> per seat-game: accuracy, decisions judged, points lost a hand
    rows: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(
        lambda: {"accuracy": [], "judged": [], "lost": []})
    start = time.perf_counter()
    for name in names:
        players = PLAYERS[name]
        for index in range(args.games):
            kinds = [KINDS[(s + index) % 3] for s in range(players)]
            specs = [f"search:samples={args.samples}" if k == "search" else k for k in kinds]
            bots = [make_bot(spec, seed=1000 * index + s, game=name) for s, spec in enumerate(specs)]
            out = play_game(new_game(name, players, max_hands=args.max_hands), bots, name=name,
                            chance=game_info(name).dealer(index), budget=BUDGET, tolerance=60.0,
                            names=kinds)
            began = time.perf_counter()
            review = review_record(out.record, ReviewSettings(), workers=args.workers)
            hands = max(1, len(out.deal_points))
            for s in review.summary():
                row = rows[name, kinds[s.seat]]
                row["accuracy"].append(s.accuracy)
                row["judged"].append(s.judged)
                row["lost"].append(s.lost / hands)
            print(f"{name} game {index}: {hands} hands, reviewed in {time.perf_counter() - began:.1f} s; "
                  + ", ".join(f"{kinds[s.seat]} {s.accuracy:.0f}%" for s in review.summary()), flush=True)
    print(f"\n{len(names) * args.games} games, {time.perf_counter() - start:.0f} s in all\n")
    print("| game | " + " | ".join(f"{k} accuracy (95% CI)" for k in KINDS)
          + " | decisions judged (search / heuristic / random) | points lost a hand (s / h / r) |")
    print("|---|" + "---|" * (len(KINDS) + 2))
    for name in [*names, "all"]:
        pick = [(n, k) for n in names for k in KINDS] if name == "all" else [(name, k) for k in KINDS]

        def of(kind: str, field: str, pick: list[tuple[str, str]] = pick) -> list[float]:
            return [x for n, k in pick if k == kind for x in rows[n, k][field]]

        cells = []
        for kind in KINDS:
            mean, low, high = mean_ci(of(kind, "accuracy"))
            cells.append(f"{mean:.0f}%" + ("" if low is None or high is None else f" [{low:.0f}, {high:.0f}]"))
        judged = " / ".join(f"{sum(of(k, 'judged')):.0f}" for k in KINDS)
        lost = " / ".join(f"{statistics.mean(of(k, 'lost')):.2f}" for k in KINDS)
        print(f"| {name} | " + " | ".join(cells) + f" | {judged} | {lost} |")


if __name__ == "__main__":
    main()
