"""Whole random two-player cribbage games per second: our native engine, our engine through the protocol,
and OpenSpiel's C++ ``cribbage``, measured in one run, on one core, interleaved, median of the repeats.

Contenders (each plays whole games, 121 up, uniform random legal moves, chance by its probabilities):

* ``native``: ``muggins.cards.cribbage.native.random_games_native``: deals, moves and scoring in C,
  one Python call for the whole run;
* ``protocol``: ``muggins.perf.random_play`` (what ``muggins bench`` measures): ``CribbageState`` through
  ``legal_actions``/``apply``, in whatever build is in use (compiled or pure, reported);
* ``openspiel_cpp``: ``pyspiel.evaluate_bots`` with two ``pyspiel.make_uniform_random_bot``: the whole game,
  chance included, runs in C++; one Python call per game. This is the fairest C++-side loop pyspiel offers
  for this game: ``MCTSBot`` with a ``RandomRolloutEvaluator`` refuses cribbage ("Game must have terminal
  rewards") and the evaluator alone has no Python method;
* ``openspiel_random_sim_test``: ``pyspiel.random_sim_test`` (C++ loop, but it checks the game on every
  move: shown for completeness, not a throughput loop);
* ``openspiel_python_loop``: the usual Python loop over a pyspiel state (``legal_actions``,
  ``chance_outcomes``, ``apply_action``).

Apart: native rollouts as a search would run them (``clone`` + ``playout`` from a mid-hand position).

Time is CPU time of this process (``time.process_time``). The process pins itself to one core (core 1, as
``taskset -c 1`` would; ``--core -1`` leaves it alone).

    python benchmarks/bench_cribbage_native.py [--seconds 2] [--repeats 5] [--core 1] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import pyspiel

from muggins._accel import build_status, load_native
from muggins.cards.cribbage.rules import PRESETS
from muggins.perf import random_play


def native_games(seconds: float, seed: int) -> dict[str, float]:
    mod, why = load_native("muggins.cards.cribbage.native")
    if mod is None:
        raise SystemExit(f"the native cribbage module: {why}")
    out: dict[str, float] = mod.random_games_native(PRESETS["cribbage"], seconds, seed)
    return out


def protocol_games(seconds: float, seed: int) -> dict[str, float]:
    return random_play("cribbage", "cribbage", 2, seconds, seed)


def openspiel_cpp_games(seconds: float, seed: int) -> dict[str, float]:
    game = pyspiel.load_game("cribbage")
    bots = [pyspiel.make_uniform_random_bot(p, seed * 2 + p) for p in range(2)]
    clock = time.process_time
    start = clock()
    games = 0
    while True:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed * 1_000_003 + games)
        games += 1
        if clock() - start >= seconds:
            break
    dt = clock() - start
    return {"games": games, "seconds": dt, "games_per_second": games / dt}


def openspiel_sim_test_games(seconds: float, seed: int) -> dict[str, float]:
    game = pyspiel.load_game("cribbage")
    clock = time.process_time
    start = clock()
    games = 0
    batch = 20
    while clock() - start < seconds:
        pyspiel.random_sim_test(game, num_sims=batch, serialize=False, verbose=False, mask_test=False)
        games += batch
    dt = clock() - start
    return {"games": games, "seconds": dt, "games_per_second": games / dt}


def openspiel_python_games(seconds: float, seed: int) -> dict[str, float]:
    game = pyspiel.load_game("cribbage")
    rng = random.Random(seed)
    clock = time.process_time
    start = clock()
    games = moves = 0
    while True:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes(), strict=True)
                s.apply_action(rng.choices(outcomes, probs)[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
            moves += 1
        games += 1
        if clock() - start >= seconds:
            break
    dt = clock() - start
    return {"games": games, "seconds": dt, "games_per_second": games / dt, "actions_per_game": moves / games}


def native_playouts(seconds: float, seed: int) -> dict[str, float]:
    """Rollouts as a search would run them: from one mid-hand position (seat 0 to play, a few cards down),
    ``clone()`` then ``playout()`` to the end of the game, one Python call pair per rollout."""
    mod, why = load_native("muggins.cards.cribbage.native")
    if mod is None:
        raise SystemExit(f"the native cribbage module: {why}")
    root = mod.NativeCribbage(seed=seed)
    while root.phase() != "play" or root.count() < 10:
        root.playout(0, seed, 1)
    clock = time.process_time
    start = clock()
    n = moves = 0
    while True:
        for _ in range(100):
            moves += root.clone().playout(0, seed + n)
            n += 1
        if clock() - start >= seconds:
            break
    dt = clock() - start
    return {"playouts": n, "seconds": dt, "playouts_per_second": n / dt, "moves_per_second": moves / dt}


CONTENDERS: dict[str, tuple[str, Callable[[float, int], dict[str, float]]]] = {
    "native": ("ours, native C engine (random_games_native)", native_games),
    "protocol": ("ours, CribbageState through the protocol (muggins.perf.random_play)", protocol_games),
    "openspiel_cpp": ("OpenSpiel C++ cribbage, evaluate_bots with uniform random bots (C++ loop)",
                      openspiel_cpp_games),
    "openspiel_random_sim_test": ("OpenSpiel C++ cribbage, random_sim_test (C++ loop with per-move checks)",
                                  openspiel_sim_test_games),
    "openspiel_python_loop": ("OpenSpiel C++ cribbage, driven by a Python loop", openspiel_python_games),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement")
    ap.add_argument("--repeats", type=int, default=5, help="measurements per contender (the median is kept)")
    ap.add_argument("--core", type=int, default=1, help="pin to this core (-1: do not pin)")
    ap.add_argument("--json", help="write the figures to this file too")
    args = ap.parse_args()
    if args.core >= 0 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.core})
    runs: dict[str, list[float]] = {k: [] for k in CONTENDERS}
    for r in range(args.repeats):  # interleaved, so a busy moment of the machine hits every contender alike
        for key, (_, fn) in CONTENDERS.items():
            runs[key].append(fn(args.seconds, 100 + r)["games_per_second"])
    medians = {k: statistics.median(v) for k, v in runs.items()}
    rollouts = [native_playouts(args.seconds, 100 + r) for r in range(args.repeats)]
    out: dict[str, Any] = {
        "game": "cribbage (two players, 121 up), uniform random legal moves, whole games",
        "seconds_per_measurement": args.seconds, "repeats": args.repeats,
        "core": sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "build": build_status()["mode"],
        "games_per_second": {k: {"engine": CONTENDERS[k][0], "median": medians[k],
                                 "runs": [round(x, 1) for x in runs[k]]} for k in CONTENDERS},
        "native_playouts_from_a_position": {
            "what": "clone() + playout(random) from one mid-hand position to the end of the game",
            "playouts_per_second": statistics.median(x["playouts_per_second"] for x in rollouts),
            "moves_per_second": statistics.median(x["moves_per_second"] for x in rollouts)},
        "ratios": {
            "native_over_openspiel_cpp": medians["native"] / medians["openspiel_cpp"],
            "native_over_protocol": medians["native"] / medians["protocol"],
            "protocol_over_openspiel_python_loop": medians["protocol"] / medians["openspiel_python_loop"],
        },
    }
    text = json.dumps(out, indent=2)
    print(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
