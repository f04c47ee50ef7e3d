"""Bot strength by tournament: the judged pairs, and for each game the share of the gap to the ceiling
that the best fair bot closes, with 95% intervals.

Every pair plays duplicate deals (every deal played twice, seats swapped), 2 players:

* the ladder (dominoes, ``muggins`` preset): ``greedy`` against ``random``, ``heuristic`` against ``greedy``,
  the search bot against ``heuristic``, ``--games`` games each, with win rates and Wilson 95% intervals;
* the gap, for each game of ``--game`` (dominoes ``muggins``, cribbage ``cribbage``, card Muggins
  ``muggins``): each bot's points per hand minus ``greedy``'s when they meet, one figure per deal (both
  orientations), its mean with a normal 95% interval; the share of the greedy-to-``omniscient`` margin that
  the search bot closes is the ratio of the two means, with a bootstrap 95% interval resampling the deals in
  pairs (the search bot and the ceiling meet ``greedy`` on the same deals). ``omniscient`` is the same search
  told every hand: the ceiling, never an opponent.

    python benchmarks/bench_strength.py [--game dominoes --game cribbage ...] [--games 200] [--jobs 2]
        [--search BOT] [--omniscient BOT ...] [--target N]
        [--only ladder|gap] [--json FILE]

Seconds per move of each bot come from the same games (the issue's budget: at most 1 s a move on one
core). The same figures come from ``muggins tournament`` one pair at a time, for example
``muggins tournament --game dominoes --preset muggins --players 2 --bots search,greedy --games 200
--seed 2026 --json``.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from muggins.sim.stats import mean_interval, ratio_interval
from muggins.sim.tournament import Config, duplicate_margins, run_tournament

PRESETS = {"dominoes": "muggins", "cribbage": "cribbage", "card-muggins": "muggins"}
# each game's search bot and ceilings when none is named: the measured settings (the native search makes 20,000
# iterations in about 0.02-0.2 s). The first
# ceiling is the (the search told everything, default settings); in dominoes and card Muggins the second
# is the same search with the fair bot's own settings, the ones a ceiling can use (infer reads nothing it does not
# see)
SEARCH = {"dominoes": "search:iterations=20000:scale=30:model=1:infer=10:heavy=2.5:defend=1:points=1",
          "cribbage": "search:iterations=20000",
          "card-muggins": "search:iterations=20000:infer=10:heavy=3:model=1:points=1"}
CEILINGS = {"dominoes": ["omniscient:iterations=20000",
                         "omniscient:iterations=20000:scale=30:model=1:defend=1:points=1"],
            "cribbage": ["omniscient:iterations=20000"],
            "card-muggins": ["omniscient:iterations=20000", "omniscient:iterations=20000:model=1:points=1"]}


def play(game: str, a: str, b: str, games: int, seed: int, target: int | None, jobs: int) -> dict[str, Any]:
    options = (("target", target),) if target is not None else ()
    cfg = Config(game, PRESETS[game], 2, (a, b), games, seed=seed, options=options)
    t0 = time.perf_counter()
    summary, results = run_tournament(cfg, jobs=jobs)
    pair = summary["pairs"][0]
    bots = {x["bot"]: x for x in summary["bots"]}
    return {"game": game, "a": a, "b": b, "games": pair["games"], "a_win_rate": pair["a_win_rate"],
            "ci95": pair["ci95"], "points_per_hand": pair["points_per_hand"],
            "seconds_per_move": {k: v["seconds_per_move"] for k, v in bots.items()},
            "margins": duplicate_margins(results, a, b), "wall_seconds": time.perf_counter() - t0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", action="append", choices=sorted(PRESETS), help="a game of the gap (repeatable; "
                    "default all three)")
    ap.add_argument("--games", type=int, default=200, help="games per pair (an even number: deals x 2)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--target", type=int, help="the target score of every game (default: each preset's)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--search", help="the search bot as named to make_bot (default: each game's, SEARCH)")
    ap.add_argument("--omniscient", action="append", help="a ceiling as named to make_bot (repeatable: each "
                    "gets its share; default: each game's, CEILINGS)")
    ap.add_argument("--only", choices=("ladder", "gap"))
    ap.add_argument("--json", help="write every figure to this file")
    args = ap.parse_args()
    console = Console()
    played: dict[tuple[str, str, str], dict[str, Any]] = {}

    def get(game: str, a: str, b: str) -> dict[str, Any]:
        if (game, a, b) not in played:
            console.print(f"[dim]{game}: {a} v {b}, {args.games} games ...[/dim]")
            played[(game, a, b)] = play(game, a, b, args.games, args.seed, args.target, args.jobs)
        return played[(game, a, b)]

    out: dict[str, Any] = {"seed": args.seed, "target": args.target, "games_per_pair": args.games}
    if args.only != "gap":
        ladder = [get("dominoes", "greedy", "random"), get("dominoes", "heuristic", "greedy"),
                  get("dominoes", args.search or SEARCH["dominoes"], "heuristic")]
        t = Table(title="ladder (2-player dominoes muggins, duplicate deals)")
        for col in ("pair", "games", "win rate", "95% interval", "s/move (first)"):
            t.add_column(col)
        for p in ladder:
            t.add_row(f"{p['a']} v {p['b']}", str(p["games"]), f"{p['a_win_rate']:.1%}",
                      f"[{p['ci95'][0]:.1%}, {p['ci95'][1]:.1%}]", f"{p['seconds_per_move'][p['a']]:.4f}")
        console.print(t)
        out["ladder"] = [{k: v for k, v in p.items() if k != "margins"} for p in ladder]
    if args.only != "ladder":
        out["gap"] = {}
        for game in args.game or list(PRESETS):
            search = args.search or SEARCH[game]
            ceilings: list[str] = args.omniscient or CEILINGS[game]
            rows: dict[str, dict[str, Any]] = {}
            for bot in ("random", "heuristic", search, *ceilings):
                p = get(game, bot, "greedy")
                m, lo, hi = mean_interval(list(p["margins"].values()))
                rows[bot] = {"margin": m, "ci95": [lo, hi], "deals": len(p["margins"]),
                             "seconds_per_move": p["seconds_per_move"][bot]}
            t = Table(title=f"{game} {PRESETS[game]}: points per hand against greedy (bot minus greedy), "
                            f"per deal, 95% intervals")
            for col in ("bot", "margin", "95% interval", "deals", "s/move"):
                t.add_column(col)
            for b, r in rows.items():
                t.add_row(b, f"{r['margin']:+.2f}", f"[{r['ci95'][0]:+.2f}, {r['ci95'][1]:+.2f}]", str(r["deals"]),
                          f"{r['seconds_per_move']:.3f}")
            console.print(t)
            fair = played[(game, search, "greedy")]["margins"]
            shares = []
            for c in ceilings:
                ceiling = played[(game, c, "greedy")]["margins"]
                deals = sorted(set(fair) & set(ceiling))
                share, slo, shi = ratio_interval([fair[d] for d in deals], [ceiling[d] for d in deals],
                                                 seed=args.seed)
                console.print(f"{game}: {search} closes {share:.0%} [{slo:.0%}, {shi:.0%}] of the "
                              f"gap from greedy to {c}")
                shares.append({"ceiling": c, "share_closed": share, "share_ci95": [slo, shi]})
            out["gap"][game] = {"bots": rows, "search": search, "ceiling": ceilings[0],
                                "share_closed": shares[0]["share_closed"], "share_ci95": shares[0]["share_ci95"],
                                "ceilings": shares}
    out["pairs"] = [{**p, "margins": {str(k): v for k, v in p["margins"].items()}} for p in played.values()]
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
