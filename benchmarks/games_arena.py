"""Arena for the related games (the catsatcards rules): search bot vs heuristic vs random, per game.

Each game is played ``--games`` times from seeded deals, refereed by the arena's ``play_game``
(the one path every registered game takes); seat ``s`` of game ``i`` gets bot kind
``KINDS[(s + i) % 3]``, so every kind sits in every seat and meets the same deals. A game stops at
its own end or after ``--max-hands`` hands (the games' ``max_hands`` option: the best score then
wins). Reported per game and bot kind: points per seat-hand (sign flipped for the race-down games
so that higher is always better) with its standard error, the share of games won per seat (ties
split), that share as a ratio to the heuristic's (the baseline, measured in the same run), and the
median time of the search bot's decisions.

Reproduce (what benchmarks/RESULTS.md quotes):

    .venv/bin/python benchmarks/games_arena.py --games 24 --max-hands 8 --samples 8

``--bots`` seats three other bot specs in the same rotation (``--baseline`` names the one the
win-share ratio is taken against), e.g. the search bot against itself without reading what Batak's
obligations reveal:

    .venv/bin/python benchmarks/games_arena.py --only batak-ihaleli,batak-koz-maca \
        --bots search,search:reveal=0,heuristic --baseline search:reveal=0
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from callbreak.arena.runner import play_game
from callbreak.bots import make_bot
from callbreak.games import game_info, new_game

KINDS = ("search", "heuristic", "random")
BUDGET = 2.0  # seconds a decision (the search bot's sampling stops well within it)
PLAYERS = {"batak-ihaleli": 4, "batak-koz-maca": 4, "snarples": 4, "donut": 4, "horsethief": 3}


def _spec(kind: str, samples: int) -> str:
    """A search spec gets the run's sample count unless it sets its own."""
    if kind.split(":")[0] != "search" or "samples=" in kind:
        return kind
    return f"{kind}{',' if ':' in kind else ':'}samples={samples}"


def run_game(name: str, players: int, index: int, max_hands: int, samples: int,
             think: list[float], kinds3: tuple[str, ...] = KINDS) -> tuple[list[str], list[float], list[float]]:
    """One game, refereed by the arena; returns seat kinds, points per hand for each seat, and
    win credit per seat. The budget is generous: no decision here is cut off or replaced."""
    kinds = [kinds3[(s + index) % 3] for s in range(players)]
    bots = [make_bot(_spec(k, samples), seed=1000 * index + s, game=name) for s, k in enumerate(kinds)]
    out = play_game(new_game(name, players, max_hands=max_hands), bots, name=name,
                    chance=game_info(name).dealer(index), budget=BUDGET, tolerance=60.0)
    think.extend(t for s, k in enumerate(kinds) if k == kinds3[0] for t in out.seats[s].times)
    hands = len(out.deal_points)  # points in tenths, sign flipped in the race-down games
    per_hand = [sum(deal[s] for deal in out.deal_points) / 10 / hands for s in range(players)]
    winners = out.game.winners
    credit = [1 / len(winners) if s in winners else 0.0 for s in range(players)]
    return kinds, per_hand, credit


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--max-hands", type=int, default=8)
    ap.add_argument("--samples", type=int, default=8)
    ap.add_argument("--only", default="", help="comma separated game names")
    ap.add_argument("--bots", default=",".join(KINDS), help="three bot specs (decision times: the first)")
    ap.add_argument("--baseline", default="heuristic", help="the bot the win-share ratio is against")
    args = ap.parse_args()
    kinds3 = tuple(args.bots.split(","))
    if len(kinds3) != 3 or args.baseline not in kinds3:
        ap.error("--bots takes three bot specs and --baseline must be one of them")
    names = [n for n in PLAYERS if not args.only or n in args.only.split(",")]
    print(f"games={args.games} max_hands={args.max_hands} samples={args.samples} bots={args.bots}")
    print("| game | players | bot | points/hand, median of games | mean ± s.e. | win share | "
          f"win share / {args.baseline}'s |")
    print("|---|---|---|---|---|---|---|")
    for name in names:
        players = PLAYERS[name]
        points: dict[str, list[float]] = defaultdict(list)
        wins: dict[str, list[float]] = defaultdict(list)
        think: list[float] = []
        t0 = time.perf_counter()
        for i in range(args.games):
            kinds, per_hand, credit = run_game(name, players, i, args.max_hands, args.samples, think,
                                               kinds3)
            for s, k in enumerate(kinds):
                points[k].append(per_hand[s])
                wins[k].append(credit[s])
        base = statistics.mean(wins[args.baseline])
        for k in kinds3:
            share = statistics.mean(wins[k])
            se = statistics.stdev(points[k]) / len(points[k]) ** 0.5
            print(f"| {game_info(name).title} | {players} | {k} | {statistics.median(points[k]):+.2f} | "
                  f"{statistics.mean(points[k]):+.2f} ± {se:.2f} | {share:.2f} | "
                  f"{f'{share / base:.2f}x' if base else 'n/a'} |")
        med = statistics.median(think) * 1000 if think else 0.0
        print(f"| {game_info(name).title} | | {kinds3[0]} decision median {med:.0f} ms | | | | "
              f"({time.perf_counter() - t0:.0f} s) |")


if __name__ == "__main__":
    main()
