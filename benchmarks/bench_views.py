"""Random play through ``spec.new`` reading every seat's view after each move, as the web server does.

    python benchmarks/bench_views.py [--game dominoes] [--seconds 2] [--runs 5] [--preset muggins] [--players 2]

``--game`` is ``dominoes``, ``cribbage`` or ``card-muggins`` (``--preset`` defaults to the game's first preset).
Figures (moves per second, medians of ``--runs``, CPU time, the process pinned to one core: ``--cpu``):

* ``native_views``: the default engine (``NativeDominoState``, ``NativeCribbageState``,
  ``NativeCardMugginsState`` where the native engine is built), moves by integer id, then ``view(seat)`` of
  every seat and of a spectator (None) after each move (3 views a move with 2 players);
* ``pure_views``: the same under ``MUGGINS_ENGINE=pure`` (the pure reference engine);
* ``native_moves``, ``pure_moves``: the same play reading no view, for scale.

Every figure uses the same random policy (a uniform legal id of the seat waited for; nobody claims or calls).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from typing import Any

from muggins.core.engine import ENGINE_ENV
from muggins.core.rules import get_game


def play(game: str, preset: str, players: int, seconds: float, seed: int, views: bool) -> dict[str, Any]:
    """Random games for ``seconds`` of CPU time: moves per second, and the engine's class."""
    spec = get_game(game)
    rules = spec.rules(preset)
    rng = random.Random(seed)
    seats = [None, *range(players)]
    moves = games = 0
    kind = ""
    start = time.process_time()
    stop = start + seconds
    while time.process_time() < stop:
        state = spec.new(rules, players, seed=rng.randrange(1 << 30))
        kind = type(state).__name__
        games += 1
        while not state.is_over():
            seat = min(state.waiting_for())
            state.apply_action_id(seat, rng.choice(state.legal_action_ids(seat)))
            moves += 1
            if views:
                for s in seats:
                    state.view(s)
    spent = time.process_time() - start
    return {"moves_per_second": moves / spent, "games": games, "engine": kind}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--game", default="dominoes", choices=("dominoes", "cribbage", "card-muggins"))
    ap.add_argument("--preset", default=None, help="default: the game's first preset")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--cpu", type=int, default=max(os.sched_getaffinity(0)), help="the one core to run on")
    args = ap.parse_args()
    if args.preset is None:
        args.preset = next(iter(get_game(args.game).presets))
    os.sched_setaffinity(0, {args.cpu})
    figures: dict[str, list[float]] = {}
    engines: dict[str, str] = {}
    for run in range(args.runs):
        for name, engine, views in (("native_views", "native", True), ("pure_views", "pure", True),
                                    ("native_moves", "native", False), ("pure_moves", "pure", False)):
            os.environ[ENGINE_ENV] = engine
            r = play(args.game, args.preset, args.players, args.seconds, run, views)
            figures.setdefault(name, []).append(r["moves_per_second"])
            engines[name] = r["engine"]
    os.environ[ENGINE_ENV] = "native"
    med = {k: statistics.median(v) for k, v in figures.items()}
    print(json.dumps({"game": args.game, "preset": args.preset, "players": args.players,
                      "seconds_per_run": args.seconds,
                      "runs": args.runs, "cpu": args.cpu, "engines": engines,
                      "medians": {k: round(v) for k, v in med.items()},
                      "native_over_pure_with_views": round(med["native_views"] / med["pure_views"], 2),
                      "runs_each": {k: [round(x) for x in v] for k, v in figures.items()}}, indent=1))


if __name__ == "__main__":
    main()
