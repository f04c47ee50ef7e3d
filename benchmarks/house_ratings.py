"""The starting ratings of the house bots (``muggins.server.ratings.HOUSE_START``), measured on the bot ladder.

For each game family, the four levels play a duplicate round robin (2 players, the game's default preset, the
same as ``muggins tournament --players 2 --bots beginner,casual,club,expert --games N --seed S``). The
tournament's Elo ratings (their mean is 1500) are carried onto the ratings' scale by the model's own odds: a
level ``d`` Elo points above the mean gets the rating whose chance of beating a 1500 player, by the
Plackett-Luce model at the house deviation, is the Elo chance of ``d`` points. The mean of the four levels is
1500, a newcomer's rating.

    python benchmarks/house_ratings.py [--games 100] [--seed 2026] [--jobs 1] [--json FILE ...]

With ``--json`` the reports of ``muggins tournament --json`` already made are read instead of playing (one file
per family). It prints the table that goes into ``HOUSE_START``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from muggins.core.rules import get_game
from muggins.server.ratings import BASE, FAMILIES, elo_to_scale
from muggins.sim.tournament import Config, run_tournament

LEVELS = ("beginner", "casual", "club", "expert")


def ladder(family: str, games: int, seed: int, jobs: int) -> dict[str, Any]:
    cfg = Config(family, get_game(family).default_preset, 2, LEVELS, games, seed=seed)
    summary, _results = run_tournament(cfg, jobs=jobs)
    return summary


def starts(report: dict[str, Any]) -> dict[str, float]:
    elo = {r["bot"]: float(r["rating"]) for r in report["ratings"]}
    mean = sum(elo.values()) / len(elo)
    return {level: round(BASE + elo_to_scale(elo[level] - mean), -1) for level in LEVELS}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", type=Path, nargs="*", default=[], help="tournament reports to read instead")
    args = ap.parse_args()
    reports = [json.loads(p.read_text()) for p in args.json] or [ladder(f, args.games, args.seed, args.jobs)
                                                                  for f in FAMILIES]
    for report in reports:
        elo = {r["bot"]: round(r["rating"]) for r in report["ratings"]}
        print(f'    "{report["game"]}": {starts(report)},  # Elo {elo}, {report["games_per_pair"]} games a pair')


if __name__ == "__main__":
    main()
