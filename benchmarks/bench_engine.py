"""Random-play throughput of every game (the figures behind ``muggins bench``), median of several runs.

    python benchmarks/bench_engine.py [--seconds 2] [--runs 5]
"""

from __future__ import annotations

import argparse
import json

from muggins.core.rules import all_games
from muggins.perf import median_runs, random_play


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--all-presets", action="store_true", help="every preset, not only each game's default")
    args = ap.parse_args()
    out = []
    for name, spec in all_games().items():
        presets = list(spec.presets) if args.all_presets else [spec.default_preset]
        for preset in presets:
            r = median_runs(random_play, args.runs, game=name, preset=preset, players=spec.default_players,
                            seconds=args.seconds)
            row = {"game": name, "preset": preset, "players": spec.default_players,
                   "moves_per_second": round(r["moves_per_second"]),
                   "games_per_second": round(r["games_per_second"], 1)}
            out.append(row)
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
