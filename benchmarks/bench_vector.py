"""Speed of a batched environment (``muggins.rl.vector_env``: dominoes, card Muggins with ``--game
card-muggins`` or cribbage with ``--game cribbage``) beside the PettingZoo environment of the same game, in
the same run: environment steps per second, each step returning every game's observation and mask.

* ``vector``: ``--envs`` games, one learning seat, the others played by the ``random`` bot in C, on one core;
  then the same on ``--threads`` threads, and with every seat learning. ``env`` times the ``step`` calls
  alone; ``loop`` adds choosing a random legal move for every game in NumPy (what a policy would cost at
  the least). Arrays are not copied (``copy=False``). ``search_one_core``: the same with the search bot as
  the opponent in C (``--search-iterations`` a move, ``--search-envs`` games; ``--search-envs 0`` leaves it
  out). ``env_cpu`` divides by the CPU
  time the process used (all its threads) instead of the wall clock: on a loaded machine it is the figure per core.
* ``pettingzoo``: uniform random masked play through the PettingZoo environment (``last()`` then ``step``),
  as ``benchmarks/bench_rl.py`` times it.

Each figure is the median of ``--repeats`` runs of ``--seconds``.

    python benchmarks/bench_vector.py [--game dominoes] [--preset muggins] [--players 2] [--envs 4096] [--threads 2]
        [--seconds 2] [--repeats 5] [--search-iterations 64] [--search-envs 256]

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any

import numpy as np

from muggins.rl import vector_env
from muggins.rl.pettingzoo_env import MugginsAECEnv


def vector_rate(game: str, preset: str, players: int, envs: int, threads: int, opponents: str | None,
                seconds: float, seed: int, **kwargs: Any) -> dict[str, float]:
    """Steps per second of ``step`` alone (``env``: wall clock; ``env_cpu``: per second of CPU time of the
    process, all threads together) and of the loop with a random legal move chosen per game (``loop``)."""
    env = vector_env(game, preset, players, num_envs=envs, opponents=opponents, seed=seed, threads=threads,
                     copy=False, **kwargs)
    obs, _ = env.reset()
    rng = np.random.default_rng(seed)
    act = np.zeros((envs, 2), np.int64)
    wall = cpu = 0.0
    steps = 0
    t0 = time.perf_counter()
    while True:
        act[:, 0] = (rng.random(obs["action_mask"].shape, np.float32) * obs["action_mask"]).argmax(1)
        t, c = time.perf_counter(), time.process_time()
        obs, _, _, _, info = env.step(act)
        cpu += time.process_time() - c
        wall += time.perf_counter() - t
        steps += envs
        total = time.perf_counter() - t0
        if total >= seconds:
            if info["illegal"].any():
                raise AssertionError("the benchmark's moves are chosen from the mask: none may be illegal")
            env.close()
            return {"env": steps / wall, "env_cpu": steps / cpu, "loop": steps / total}


def pettingzoo_rate(game: str, preset: str, players: int, seconds: float, seed: int) -> dict[str, float]:
    """Env steps per second of the PettingZoo environment under uniform random masked play (``last()`` then
    ``step``), by the wall clock and per second of CPU time."""
    e = MugginsAECEnv(game=game, preset=preset, players=players)
    rng = np.random.default_rng(seed)
    steps, games = 0, 0
    t0, c0 = time.perf_counter(), time.process_time()
    while True:
        e.reset(seed=seed + games)
        games += 1
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += not (term or trunc)
        wall = time.perf_counter() - t0
        if wall >= seconds:
            return {"env": steps / wall, "env_cpu": steps / (time.process_time() - c0)}


def medians(runs: list[dict[str, float]]) -> dict[str, int]:
    return {k: round(statistics.median(r[k] for r in runs)) for k in runs[0]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="dominoes", choices=("dominoes", "card-muggins", "cribbage"))
    ap.add_argument("--preset", default=None, help="muggins (cribbage: cribbage)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--envs", type=int, default=4096)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--search-iterations", type=int, default=64, help="the search opponent's iterations a move")
    ap.add_argument("--search-envs", type=int, default=256, help="games stepped with the search opponent")
    args = ap.parse_args()
    args.preset = args.preset or ("cribbage" if args.game == "cribbage" else "muggins")
    out: dict[str, Any] = {"game": args.game, "preset": args.preset, "players": args.players, "envs": args.envs,
                           "cpus": os.cpu_count(), "seconds": args.seconds, "repeats": args.repeats}
    modes = {"one_core": (1, "random"), f"threads_{args.threads}": (args.threads, "random"),
             "all_seats_one_core": (1, None)}
    for name, (threads, opponents) in modes.items():
        out[name] = medians([vector_rate(args.game, args.preset, args.players, args.envs, threads, opponents,
                                         args.seconds, 1000 * k) for k in range(args.repeats)])
    if args.search_envs > 0:
        out["search_one_core"] = medians([
            vector_rate(args.game, args.preset, args.players, args.search_envs, 1, "search", args.seconds,
                        1000 * k, search_iterations=args.search_iterations) for k in range(args.repeats)])
        out["search_iterations"] = args.search_iterations
    pz = out["pettingzoo"] = medians([pettingzoo_rate(args.game, args.preset, args.players, args.seconds, 1000 * k)
                                      for k in range(args.repeats)])
    out["ratio_one_core"] = round(out["one_core"]["env"] / pz["env"], 1)
    out["ratio_one_core_cpu"] = round(out["one_core"]["env_cpu"] / pz["env_cpu"], 1)
    out[f"ratio_threads_{args.threads}"] = round(out[f"threads_{args.threads}"]["env"] / pz["env"], 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
