"""Dominoes ``sample_hidden`` on the native state against the pure state, at the same positions (the same
worlds drawn: see tests/dominoes/test_native_twin_free.py), and the search bot's time per move when it draws
its worlds with ``sample_hidden`` (``native_search=False``: the Python tree, rollouts in C) on each state.
Medians of ``--runs`` runs (each the mean over the positions); one core.

    python benchmarks/bench_sample_dominoes.py [--runs 5] [--samples 200] [--iterations 200]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from muggins.bots.search import SearchPolicy
from muggins.core import get_game
from muggins.core.chance import Chance
from muggins.dominoes.fast import NativeDominoState
from muggins.dominoes.state import DominoState

CASES = (("muggins", 2), ("all-fives", 4), ("five-up", 3))


def positions(preset: str, players: int, count: int) -> list[tuple[Any, Any, int]]:
    """(pure state, native state, seat to move) at ``count`` points of greedy-random games."""
    rules = get_game("dominoes").rules(preset)
    out: list[tuple[Any, Any, int]] = []
    seed = 0
    while len(out) < count:
        pure, fast = DominoState.new(rules, players, Chance(seed)), NativeDominoState.new(rules, players, Chance(seed))
        rng = random.Random(seed)
        for k in range(rng.randrange(6, 30)):
            if pure.is_over():
                break
            seat = min(pure.waiting_for())
            action = rng.choice(pure.legal_actions(seat))
            pure.apply(seat, action)
            fast.apply(seat, action)
            if k > 4 and not pure.is_over() and rng.random() < 0.3:
                out.append((pure.clone(), fast.clone(), min(pure.waiting_for())))
        seed += 1
    return out[:count]


def per_sample(states: list[tuple[Any, int]], samples: int) -> float:
    """Mean seconds per ``sample_hidden`` over the positions (``samples`` worlds each)."""
    start = time.perf_counter()
    for state, seat in states:
        rng = random.Random(1)
        for _ in range(samples):
            state.sample_hidden(seat, rng)
    return (time.perf_counter() - start) / (samples * len(states))


def per_move(states: list[tuple[Any, int]], iterations: int) -> float:
    """Mean seconds per move of the search bot drawing its worlds with ``sample_hidden``."""
    bot = SearchPolicy(iterations=iterations, time_limit=1e9, native_search=False)
    start = time.perf_counter()
    for state, seat in states:
        bot.choose(state, seat, state.legal_actions(seat), random.Random(2))
    return (time.perf_counter() - start) / len(states)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--positions", type=int, default=8)
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--iterations", type=int, default=200)
    args = ap.parse_args()
    for preset, players in CASES:
        at = positions(preset, players, args.positions)
        runs: dict[str, list[float]] = {"pure": [], "native": [], "bot_pure": [], "bot_native": []}
        for _ in range(args.runs):
            runs["pure"].append(per_sample([(p, s) for p, _, s in at], args.samples))
            runs["native"].append(per_sample([(f, s) for _, f, s in at], args.samples))
            runs["bot_pure"].append(per_move([(p, s) for p, _, s in at], args.iterations))
            runs["bot_native"].append(per_move([(f, s) for _, f, s in at], args.iterations))
        med = {k: statistics.median(v) for k, v in runs.items()}
        print(json.dumps({"preset": preset, "players": players,
                          "sample_us_pure": round(med["pure"] * 1e6, 1),
                          "sample_us_native": round(med["native"] * 1e6, 1),
                          "native_over_pure": round(med["pure"] / med["native"], 2),
                          "search_move_ms_pure": round(med["bot_pure"] * 1e3, 1),
                          "search_move_ms_native": round(med["bot_native"] * 1e3, 1),
                          "iterations": args.iterations}), flush=True)


if __name__ == "__main__":
    main()
