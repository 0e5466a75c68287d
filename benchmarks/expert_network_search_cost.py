"""What the network as the playout policy (``network_moves``) and as a value at a cut-off
(``cutoff``) cost the expert: sampled deals searched in a 0.1 s decision, and CPU time of a
decision at a fixed 200 sampled deals, against today's expert.

Positions: card decisions with a choice in the first deal of a 3-deal ``callbreak`` match (a
cut-off is not used on a match's last deal), heuristic bots playing up to ``8``, ``24`` and ``40``
moves into the deal, one per seed. One process, one thread (run with ``OPENBLAS_NUM_THREADS=1``)::

    OPENBLAS_NUM_THREADS=1 PYTHONPATH=src .venv/bin/python benchmarks/expert_network_search_cost.py \
        --settings "network_moves=1;network_moves=3;cutoff=3"
"""

from __future__ import annotations

import argparse
import statistics
import time

from callbreak.bots import make_bot
from callbreak.bots.expert import ExpertBot
from callbreak.core import CHANCE, Phase, SeatView
from callbreak.games import game_info, new_game


def positions(seeds: int) -> list[SeatView]:
    out = []
    for seed in range(seeds):
        for moves in (8, 24, 40):
            game = new_game("callbreak", preset="callbreak", deals=3)
            chance = game_info("callbreak").dealer(seed)
            bot = make_bot("heuristic", seed=seed)
            made = 0
            while True:
                if game.to_act == CHANCE:
                    game.apply(chance.chance(game))
                    continue
                view = game.view(game.to_act)
                if made >= moves and view.phase is Phase.PLAY and len(view.legal) > 1:
                    out.append(view)
                    break
                game.apply(bot.decide(view, 1.0).action)
                made += 1
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seeds", type=int, default=6)
    p.add_argument("--settings", default="network_moves=1;network_moves=3;network_moves=8;cutoff=1;cutoff=3")
    args = p.parse_args(argv)
    views = positions(args.seeds)
    print(f"{len(views)} positions\n")
    print("| expert | sampled deals in 0.1 s, median | CPU ms a decision at 200 deals, median / max |")
    print("|---|---|---|")
    for setting in ["", *args.settings.split(";")]:
        options = dict(kv.split("=") for kv in setting.split(",") if kv)
        kw = {k: int(v) for k, v in options.items()}
        timed = ExpertBot(seed=1, settle=0, **kw)  # type: ignore[arg-type]
        deals = [timed.appraise(v, 0.1).deals for v in views]
        fixed = ExpertBot(seed=1, samples=200, **kw)  # type: ignore[arg-type]
        cpu = []
        for v in views:
            t = time.thread_time()
            fixed.appraise(v, 10.0)
            cpu.append(1000 * (time.thread_time() - t))
        print(f"| today's{', ' + setting if setting else ''} | {statistics.median(deals):.0f} | "
              f"{statistics.median(cpu):.1f} / {max(cpu):.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
