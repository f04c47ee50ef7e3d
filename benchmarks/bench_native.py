"""The native domino engine beside the protocol engine and the ``dominoes`` package, in one run.

    python benchmarks/bench_native.py [--seconds 2] [--runs 5] [--peer-python /path/to/venv/bin/python]

Figures (medians of ``--runs``, CPU time of this one process):

* ``native_random_play``: whole games dealt and played in C with random moves (``random_play_native``);
* ``native_playouts_random`` / ``native_playouts_greedy``: ``clone()`` + ``playout()`` from mid-game
  positions read from the pure engine (what a search rollout does), the clone counted in the time;
* ``native_from_state``: reading a pure ``DominoState`` into the native engine, per second;
* ``protocol_random_play``: :func:`muggins.perf.random_play` (the figure of ``muggins bench``);
* ``peer_random_play``: the ``dominoes`` package (PyPI) playing its own game (four players, no boneyard,
  one hand) with random moves, when ``--peer-python`` names an interpreter that has it (install it in a
  separate environment: ``python -m venv /tmp/peer-venv && /tmp/peer-venv/bin/pip install dominoes``).
  Its moves are its plays and its recorded passes, as ours count every play, draw and pass.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from typing import Any

from muggins._accel import build_status, load_native
from muggins.core.rules import get_game
from muggins.perf import random_play

PEER = r"""
import json, random, sys, time
import dominoes
seconds, seed = float(sys.argv[1]), int(sys.argv[2])
random.seed(seed)
choice = random.choice
moves = games = 0
clock = time.process_time
start = clock()
while clock() - start < seconds:
    g = dominoes.Game.new()
    while g.result is None:
        g.make_move(*choice(g.valid_moves))
    moves += len(g.moves)
    games += 1
el = clock() - start
print(json.dumps({"moves_per_second": moves / el, "games_per_second": games / el,
                  "version": getattr(dominoes, "__version__", None)}))
"""


def positions(preset: str, players: int, count: int) -> list[Any]:
    """Mid-game positions of the pure engine (a few random moves into a game), to start playouts from."""
    spec = get_game("dominoes")
    rules = spec.rules(preset)
    out = []
    for g in range(count):
        state = spec.new(rules, players, seed=g)
        rng = random.Random(g)
        for _ in range(rng.randrange(2, 12)):
            acts = state._regular(state.turn)
            a = rng.choice(acts)
            state.apply(state.turn, a.with_claim(state.claim_for(state.turn, a)) if a.kind == "play" else a)
        out.append(state)
    return out


def playouts(native: Any, states: list[Any], policy: int, seconds: float, seed: int) -> float:
    starts = [native.NativeDominoes.from_state(s) for s in states]
    moves = 0
    k = seed
    clock = time.process_time
    t0 = clock()
    while clock() - t0 < seconds:
        for s in starts:
            c = s.clone()
            moves += c.playout(policy, k)
            k += 1
    return moves / (clock() - t0)


def from_state_rate(native: Any, states: list[Any], seconds: float) -> float:
    n = 0
    clock = time.process_time
    t0 = clock()
    while clock() - t0 < seconds:
        for s in states:
            native.NativeDominoes.from_state(s)
        n += len(states)
    return n / (clock() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--preset", default="muggins")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--peer-python", help="an interpreter with the dominoes package installed")
    args = ap.parse_args()
    native, why = load_native("muggins.dominoes.native")
    if native is None:
        sys.exit(f"the native engine is not usable: {why}")
    rules = get_game("dominoes").rules(args.preset)
    states = positions(args.preset, args.players, 16)
    figures: dict[str, list[float]] = {}

    def add(name: str, value: float) -> None:
        figures.setdefault(name, []).append(value)

    for run in range(args.runs):
        add("native_random_play", native.random_play_native(rules, args.players, args.seconds, run)["moves_per_second"])
        add("native_playouts_random", playouts(native, states, 0, args.seconds, run * 1000))
        add("native_playouts_greedy", playouts(native, states, 1, args.seconds, run * 1000))
        add("native_from_state", from_state_rate(native, states, min(args.seconds, 0.5)))
        add("protocol_random_play", random_play("dominoes", args.preset, args.players, args.seconds, seed=run)
            ["moves_per_second"])
        if args.peer_python:
            out = subprocess.run([args.peer_python, "-c", PEER, str(args.seconds), str(run)], capture_output=True,
                                 text=True, check=True)
            add("peer_random_play", json.loads(out.stdout)["moves_per_second"])
    med = {k: statistics.median(v) for k, v in figures.items()}
    report: dict[str, Any] = {"preset": args.preset, "players": args.players, "seconds_per_run": args.seconds,
                              "runs": args.runs, "build": build_status()["mode"],
                              "medians": {k: round(v) for k, v in med.items()},
                              "runs_each": {k: [round(x) for x in v] for k, v in figures.items()}}
    ratios = {"native_over_protocol": med["native_random_play"] / med["protocol_random_play"]}
    if "peer_random_play" in med:
        ratios["native_over_peer"] = med["native_random_play"] / med["peer_random_play"]
        ratios["protocol_over_peer"] = med["protocol_random_play"] / med["peer_random_play"]
    report["ratios"] = {k: round(v, 1) for k, v in ratios.items()}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
