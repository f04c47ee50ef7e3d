"""Speed of the PettingZoo environment beside the engine it drives: env steps per second under uniform
random masked play (``last()`` with its observation and mask, then ``step``), and the raw engine's random
moves per second through the protocol (``legal_actions`` + ``apply``), in the same run, on one core.
Each figure is the median of ``--repeats`` timed runs of ``--seconds`` each, games restarted as they end.

    python benchmarks/bench_rl.py [--seconds 2] [--repeats 5] [--game dominoes] [--preset muggins]

One JSON line per game (default preset unless given).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from typing import Any

import numpy as np

from muggins._accel import compiled_in_use
from muggins.core.rules import all_games, get_game
from muggins.rl.pettingzoo_env import MugginsAECEnv


def env_rate(game: str, preset: str | None, seconds: float, seed: int) -> float:
    """Env steps per second (a dead agent's closing step is not counted)."""
    e = MugginsAECEnv(game=game, preset=preset)
    rng = np.random.default_rng(seed)
    steps, games = 0, 0
    t0 = time.perf_counter()
    while True:
        e.reset(seed=seed + games)
        games += 1
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return steps / elapsed


def engine_rate(game: str, preset: str | None, seconds: float, seed: int) -> float:
    """Random moves per second of the engine alone: a seat the game waits for, one of its legal actions."""
    spec = get_game(game)
    rules = spec.rules(preset)
    n = MugginsAECEnv(game=game, preset=preset).num_players
    rng = random.Random(seed)
    moves, games = 0, 0
    t0 = time.perf_counter()
    while True:
        st = spec.new(rules, n, seed=seed + games)
        games += 1
        while not st.is_over():
            seat = min(st.waiting_for())
            a = rng.choice(st.legal_actions(seat))
            if a.kind == "claim":
                a = a._replace(claim=0)
            st.apply(seat, a)
            moves += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return moves / elapsed


def measure(game: str, preset: str | None, seconds: float, repeats: int) -> dict[str, Any]:
    env_runs = [env_rate(game, preset, seconds, 1000 * k) for k in range(repeats)]
    engine_runs = [engine_rate(game, preset, seconds, 1000 * k) for k in range(repeats)]
    e = MugginsAECEnv(game=game, preset=preset)
    env_median, engine_median = statistics.median(env_runs), statistics.median(engine_runs)
    return {
        "game": game, "preset": e.rules.preset, "players": e.num_players,
        "actions": e.num_game_actions + 1, "observation_size": e.encoder.size,
        "compiled": compiled_in_use("muggins.core.protocol"),
        "pure_python_forced": os.environ.get("MUGGINS_PURE_PYTHON") == "1",
        "seconds_per_run": seconds, "repeats": repeats,
        "env_steps_per_second": round(env_median), "engine_moves_per_second": round(engine_median),
        "env_over_engine": round(env_median / engine_median, 3),
        "env_steps_per_second_runs": [round(x) for x in env_runs],
        "engine_moves_per_second_runs": [round(x) for x in engine_runs],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=2.0, help="length of one timed run")
    ap.add_argument("--repeats", type=int, default=5, help="timed runs per figure (the median is reported)")
    ap.add_argument("--game", action="append", help="only this game (repeatable)")
    ap.add_argument("--preset", help="this preset instead of each game's default")
    args = ap.parse_args()
    for name in args.game or list(all_games()):
        print(json.dumps(measure(name, args.preset, args.seconds, max(1, args.repeats))), flush=True)


if __name__ == "__main__":
    main()
