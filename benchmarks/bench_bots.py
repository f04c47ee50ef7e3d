"""Speed of the search bot: IS-MCTS iterations per second on one core, on positions taken from greedy
games of each game's default preset (median over positions, then over runs).

    python benchmarks/bench_bots.py [--seconds 0.5] [--positions 12] [--runs 3] [--game dominoes]
"""

from __future__ import annotations

import argparse
import json

from muggins.core.rules import all_games
from muggins.sim.bench import search_speed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=0.5, help="search time per position")
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--game", action="append", help="only this game (repeatable)")
    ap.add_argument("--preset")
    args = ap.parse_args()
    for name in args.game or list(all_games()):
        r = search_speed(name, args.preset, None, args.seconds, args.positions, args.runs)
        r["search_iterations_per_second"] = round(r["search_iterations_per_second"])
        r["search_iterations_per_second_runs"] = [round(x) for x in r["search_iterations_per_second_runs"]]
        print(json.dumps(r), flush=True)


if __name__ == "__main__":
    main()
