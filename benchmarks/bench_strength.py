"""Bot strength by tournament: the judged pairs, and each bot's points per hand against ``greedy``.

2-player ``muggins`` preset, games to 200, duplicate deals (every deal played twice, seats swapped):

* the ladder: ``greedy`` against ``random``, ``heuristic`` against ``greedy``, the search bot against
  ``heuristic``, ``--games`` games each, with win rates and Wilson 95% intervals;
* the gap to the ceiling: each bot's points per hand minus ``greedy``'s when they meet (``greedy``
  against itself is 0 by symmetry), and the share of the greedy-to-omniscient margin that the best fair
  bot closes. Pairs already played for the ladder are reused; the others play ``--gap-games`` games.

    python benchmarks/bench_strength.py [--games 2000] [--gap-games 400] [--jobs 2] [--json FILE]
        [--search search:iterations=200] [--omniscient omniscient:iterations=200] [--only ladder|gap]

The same figures come from ``muggins tournament`` one pair at a time, for example
``muggins tournament --game dominoes --preset muggins --players 2 --bots greedy,random --games 2000
--seed 2026 --option target=200 --json``.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from muggins.sim.tournament import Config, run_tournament


def play(a: str, b: str, games: int, seed: int, target: int, jobs: int) -> dict[str, Any]:
    cfg = Config("dominoes", "muggins", 2, (a, b), games, seed=seed, options=(("target", target),))
    t0 = time.perf_counter()
    summary, _ = run_tournament(cfg, jobs=jobs)
    pair = summary["pairs"][0]
    bots = {x["bot"]: x for x in summary["bots"]}
    return {"a": a, "b": b, "games": pair["games"], "a_win_rate": pair["a_win_rate"], "ci95": pair["ci95"],
            "points_per_hand": pair["points_per_hand"], "seconds_per_move": {k: v["seconds_per_move"]
                                                                             for k, v in bots.items()},
            "wall_seconds": time.perf_counter() - t0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000, help="games per ladder pair")
    ap.add_argument("--gap-games", type=int, default=400, help="games per extra pair against greedy")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--target", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--search", default="search:iterations=200", help="the search bot as named to make_bot")
    ap.add_argument("--omniscient", default="omniscient:iterations=200")
    ap.add_argument("--only", choices=("ladder", "gap"))
    ap.add_argument("--json", help="write every figure to this file")
    args = ap.parse_args()
    console = Console()
    played: dict[tuple[str, str], dict[str, Any]] = {}

    def get(a: str, b: str, games: int) -> dict[str, Any]:
        if (a, b) not in played:
            console.print(f"[dim]{a} v {b}: {games} games ...[/dim]")
            played[(a, b)] = play(a, b, games, args.seed, args.target, args.jobs)
        return played[(a, b)]

    out: dict[str, Any] = {"seed": args.seed, "target": args.target}
    if args.only != "gap":
        ladder = [get("greedy", "random", args.games), get("heuristic", "greedy", args.games),
                  get(args.search, "heuristic", args.games)]
        t = Table(title=f"ladder (2-player muggins, games to {args.target}, duplicate deals)")
        for col in ("pair", "games", "win rate", "95% interval", "s/move (first)"):
            t.add_column(col)
        for p in ladder:
            t.add_row(f"{p['a']} v {p['b']}", str(p["games"]), f"{p['a_win_rate']:.1%}",
                      f"[{p['ci95'][0]:.1%}, {p['ci95'][1]:.1%}]", f"{p['seconds_per_move'][p['a']]:.4f}")
        console.print(t)
        out["ladder"] = ladder
    if args.only != "ladder":
        margins: dict[str, float] = {"greedy": 0.0}
        for bot in ("random", "heuristic", args.search, args.omniscient):
            games = args.games if bot in ("random", "heuristic") else args.gap_games
            p = played.get(("greedy", bot)) or played.get((bot, "greedy")) or get(bot, "greedy", games)
            ppH = p["points_per_hand"]
            mine, theirs = (ppH["a"], ppH["b"]) if p["a"] == bot else (ppH["b"], ppH["a"])
            margins[bot] = mine - theirs
        fair = max((b for b in margins if b != args.omniscient), key=margins.__getitem__)
        ceiling = margins[args.omniscient]
        share = margins[fair] / ceiling if ceiling > 0 else 0.0
        t = Table(title="points per hand against greedy (bot minus greedy)")
        t.add_column("bot")
        t.add_column("margin")
        for b, m in margins.items():
            t.add_row(b, f"{m:+.2f}")
        console.print(t)
        console.print(f"best fair bot {fair} closes {share:.0%} of the greedy-to-omniscient gap")
        out["gap"] = {"margins": margins, "best_fair": fair, "share_closed": share}
    out["pairs"] = list(played.values())
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
