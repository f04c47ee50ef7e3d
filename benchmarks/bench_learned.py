"""The ``learned`` bot on the ladder: 2-player ``--game`` (domino ``muggins``, card Muggins ``muggins``, or
``cribbage``), duplicate deals, against ``random``, ``greedy``, ``heuristic`` and the search bot at its default
settings.

For each opponent: the win rate with its Wilson 95% interval (as ``muggins tournament`` reports it) and the
points per hand the learned bot makes more than the opponent, one figure per deal (both orientations), with a
normal 95% interval. The games are those of ``muggins tournament --game GAME --preset PRESET --players 2
--bots learned,OPPONENT --games N --seed S``. Then, over ``--choices`` games against ``greedy`` (half in each
seat), how often the learned bot plays the move that scores most now where it has more than one.

    python benchmarks/bench_learned.py [--game dominoes] [--games 2000] [--search-games 400] [--seed 2026]
        [--jobs 1] [--choices 200] [--no-ladder] [--json FILE]
"""

from __future__ import annotations

import argparse
import json

from bench_strength import PRESETS, play
from rich.console import Console
from rich.table import Table

from muggins.bots import make_bot
from muggins.bots.base import regular_actions, true_points
from muggins.core.rules import get_game
from muggins.sim.stats import mean_interval

OPPONENTS = ("random", "greedy", "heuristic", "search")


def most_points_share(game: str, games: int) -> tuple[int, int]:
    """(decisions with more than one move, those where the learned bot took the most points now) over
    ``games`` games of 2-player ``game`` (its ladder preset) against ``greedy`` (deal seeds 0 .. games - 1)."""
    spec = get_game(game)
    rules = spec.rules(PRESETS[game])
    learned, greedy = make_bot("learned", 0), make_bot("greedy", 1)
    choices = best = 0
    for g in range(games):
        st = spec.new(rules, 2, seed=g)
        bots = [learned, greedy] if g % 2 == 0 else [greedy, learned]
        while not st.is_over() and st.waiting_for():
            seat = min(st.waiting_for())
            acts = regular_actions(st, seat)
            a = bots[seat].act(st, seat)
            assert a is not None
            if bots[seat] is learned and len(acts) > 1:
                choices += 1
                best += true_points(st, seat, a._replace(claim=None)) == max(true_points(st, seat, x) for x in acts)
            st.apply(seat, a)
    return choices, best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="dominoes", choices=sorted(PRESETS))
    ap.add_argument("--games", type=int, default=2000, help="games against each bot but search (deals x 2)")
    ap.add_argument("--search-games", type=int, default=400, help="games against the search bot (deals x 2)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--choices", type=int, default=200, help="games of the most-points count (0: none)")
    ap.add_argument("--no-ladder", action="store_true", help="only the most-points count")
    ap.add_argument("--json", help="write every figure to this file")
    args = ap.parse_args()
    console = Console()
    rows = []
    for opp in () if args.no_ladder else OPPONENTS:
        games = args.search_games if opp == "search" else args.games
        console.print(f"[dim]learned v {opp}, {games} games ...[/dim]")
        p = play(args.game, "learned", opp, games, args.seed, None, args.jobs)
        m, lo, hi = mean_interval(list(p["margins"].values()))
        rows.append({"opponent": opp, "games": p["games"], "win_rate": p["a_win_rate"], "ci95": p["ci95"],
                     "points_per_hand": p["points_per_hand"], "margin": m, "margin_ci95": [lo, hi],
                     "seconds_per_move": p["seconds_per_move"], "wall_seconds": p["wall_seconds"]})
    t = Table(title=f"learned (2-player {args.game} {PRESETS[args.game]}, duplicate deals, 95% intervals)")
    for col in ("against", "games", "win rate", "95% interval", "points/hand (theirs)", "margin/hand",
                "95% interval "):
        t.add_column(col)
    for r in rows:
        pts = r["points_per_hand"]
        t.add_row(r["opponent"], str(r["games"]), f"{r['win_rate']:.1%}", f"[{r['ci95'][0]:.1%}, {r['ci95'][1]:.1%}]",
                  f"{pts['a']:.2f} ({pts['b']:.2f})", f"{r['margin']:+.2f}",
                  f"[{r['margin_ci95'][0]:+.2f}, {r['margin_ci95'][1]:+.2f}]")
    if rows:
        console.print(t)
    out: dict[str, object] = {"game": args.game, "seed": args.seed, "rows": rows}
    if args.choices > 0:
        choices, best = most_points_share(args.game, args.choices)
        console.print(f"{choices} decisions with more than one move in {args.choices} games against greedy: "
                      f"the most points now in {best} ({best / choices:.1%}), fewer in {choices - best} "
                      f"({(choices - best) / choices:.1%})")
        out["most_points"] = {"games": args.choices, "choices": choices, "most_points": best}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
