"""Random play of the card games through the default protocol (``spec.new``), in one run on one core, against
OpenSpiel's C++ cribbage driven from Python.

    python benchmarks/bench_cards_protocol.py [--seconds 2] [--runs 5] [--cpu N] [--json FILE]

Figures (whole 2-player games per second, CPU time, medians of ``--runs``, the process pinned to one core):

* ``openspiel_cribbage``: ``pyspiel.load_game("cribbage")`` (OpenSpiel's C++ game) driven from Python: a
  uniform legal action of ``legal_actions()`` (chance: a uniform outcome, as every one of this game is
  equally likely; the loop of benchmarks/bench_openspiel.py), ``apply_action``;
* ``cribbage_ids`` / ``cribbage_actions``: ``get_game("cribbage").new(rules, 2, seed=...)`` - the native-backed
  state where it is built (``MUGGINS_ENGINE``; the run says which class) - played by the same loop shape: a
  seat the game waits for, a uniform legal id (``legal_action_ids`` + ``apply_action_id``) or a uniform legal
  Action (``legal_actions`` + ``apply``);
* ``cribbage_pure_ids``: the same loop on the pure state (``MUGGINS_ENGINE=pure``), for reference;
* ``muggins31_ids`` / ``muggins31_actions`` / ``muggins31_pure_ids``: the same for card Muggins (preset
  ``muggins``, automatic scoring as the cribbage figures: nobody claims or calls);
* ``muggins31_native_c``: whole card Muggins games played in C by the native engine
  (``native.random_games_native``: the figure of ``muggins bench``), the GIL released;
* ``loop_floor_cribbage`` / ``loop_floor_muggins31``: the same loop over a state that does nothing (its
  methods C built-ins returning fixed answers), for as many moves a game as ``cribbage_ids`` /
  ``muggins31_ids`` made: the most any state reached through this loop could give.

Ratios divide the cribbage figures by OpenSpiel's of the same run.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import statistics
import time
from typing import Any

from muggins._accel import load_native
from muggins.core.engine import ENGINE_ENV
from muggins.core.rules import get_game, with_options


def protocol_games(game: str, preset: str, seconds: float, seed: int, ids: bool) -> tuple[float, str, float]:
    """Whole random 2-player games per second (CPU time) through ``spec.new``, the class it gave and the moves
    a game."""
    spec = get_game(game)
    rules = with_options(spec.rules(preset), {"claims": "auto"})
    rng = random.Random(seed)
    choice = rng.choice
    games = moves = 0
    kind = ""
    t0 = time.process_time()
    while True:
        s = spec.new(rules, 2, seed=seed + games)
        kind = type(s).__name__
        waiting, over = s.waiting_for, s.is_over
        if ids:
            legal, apply = s.legal_action_ids, s.apply_action_id
        else:
            legal, apply = s.legal_actions, s.apply  # type: ignore[assignment]
        while not over():
            seat = min(waiting())
            apply(seat, choice(legal(seat)))
            moves += 1
        games += 1
        dt = time.process_time() - t0
        if dt >= seconds:
            return games / dt, kind, moves / games


def loop_floor(moves: float, seconds: float, seed: int) -> float:
    """Games per second of the protocol loop over a state that does nothing: ``waiting_for``, ``is_over``,
    ``legal_action_ids`` and ``apply_action_id`` are C built-ins (five legal ids, a fixed seat), ``moves`` moves
    a game (rounded)."""
    n = round(moves)
    seats, ids = frozenset({0}), {0: [1326, 1327, 1328, 1329, 1330]}
    sink: dict[int, int] = {}
    rng = random.Random(seed)
    choice = rng.choice
    games = 0
    t0 = time.process_time()
    while True:
        over = iter([False] * n + [True]).__next__
        waiting = itertools.repeat(seats).__next__
        legal, apply = ids.__getitem__, sink.__setitem__
        while not over():
            seat = min(waiting())
            apply(seat, choice(legal(seat)))
        games += 1
        dt = time.process_time() - t0
        if dt >= seconds:
            return games / dt


def openspiel_games(seconds: float, seed: int) -> float:
    """OpenSpiel's C++ cribbage from Python, the same loop shape: uniform legal actions and chance outcomes."""
    import pyspiel

    game = pyspiel.load_game("cribbage")
    rng = random.Random(seed)
    choice = rng.choice
    games = 0
    t0 = time.process_time()
    while True:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():  # every outcome of OpenSpiel's cribbage is equally likely
                s.apply_action(choice(s.chance_outcomes())[0])
            else:
                s.apply_action(choice(s.legal_actions()))
        games += 1
        dt = time.process_time() - t0
        if dt >= seconds:
            return games / dt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cpu", type=int, default=max(os.sched_getaffinity(0)), help="the one core to run on")
    ap.add_argument("--json", help="write the figures to this file too")
    args = ap.parse_args()
    os.sched_setaffinity(0, {args.cpu})
    figures: dict[str, list[float]] = {}
    classes: dict[str, str] = {}
    m31 = load_native("muggins.cards.muggins31.native")[0]
    m31_rules = with_options(get_game("card-muggins").rules("muggins"), {"claims": "auto"})
    saved = os.environ.get(ENGINE_ENV)
    for run in range(args.runs):
        figures.setdefault("openspiel_cribbage", []).append(openspiel_games(args.seconds, run))
        for game, preset, short in (("cribbage", "cribbage", "cribbage"), ("card-muggins", "muggins", "muggins31")):
            for engine, suffix in (("native", ""), ("pure", "_pure")):
                os.environ[ENGINE_ENV] = engine
                for ids in (True, False) if engine == "native" else (True,):
                    name = f"{short}{suffix}_{'ids' if ids else 'actions'}"
                    rate, classes[name], moves = protocol_games(game, preset, args.seconds, run * 7919, ids)
                    figures.setdefault(name, []).append(rate)
                    if name.endswith("_ids") and engine == "native":
                        figures.setdefault(f"loop_floor_{short}", []).append(loop_floor(moves, args.seconds, run))
        if m31 is not None:
            res = m31.random_games_native(m31_rules, 2, args.seconds, seed=run)
            figures.setdefault("muggins31_native_c", []).append(res["games_per_second"])
    if saved is None:
        os.environ.pop(ENGINE_ENV, None)
    else:
        os.environ[ENGINE_ENV] = saved
    med = {k: statistics.median(v) for k, v in figures.items()}
    peer = med["openspiel_cribbage"]
    out: dict[str, Any] = {
        "unit": "2-player games per second (CPU time), median of runs", "runs": args.runs, "seconds": args.seconds,
        "cpu": args.cpu, "classes": classes, "median": med, "all": figures,
        "ratio_to_openspiel": {k: med[k] / peer for k in med if k.startswith(("cribbage", "loop_floor_cribbage"))},
    }
    text = json.dumps(out, indent=2)
    print(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
