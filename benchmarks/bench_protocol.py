"""Random play through the protocol, in one run on one core, against the ``dominoes`` package.

    python benchmarks/bench_protocol.py [--seconds 2] [--runs 5] [--peer-python /path/to/venv/bin/python]

Figures (moves per second, medians of ``--runs``, CPU time, the process pinned to one core: ``--cpu``):

* ``peer_random_play``: the ``dominoes`` package (PyPI) playing its own game with random moves, measured as
  in benchmarks/bench_native.py (needs ``--peer-python``: an interpreter that has the package);
* ``default_actions``: :func:`muggins.perf.random_play` through ``spec.new`` as every consumer gets it (the
  native-backed ``NativeDominoState`` where the native engine is built) with Action objects (``legal_actions``
  + ``apply``: the figure of ``muggins bench``);
* ``default_ids``: the same through the integer protocol (``legal_action_ids`` + ``apply_action_id``);
* ``pure_actions``, ``pure_ids``: the same two under ``MUGGINS_ENGINE=pure`` (the pure reference engine);
* ``native_ids``: the integer protocol of a ``NativeDominoState`` dealt by the native engine's own generator
  (no :class:`~muggins.core.chance.Chance`), its event log kept as ints.

Every figure uses the same random policy (a uniform legal move of the seat waited for; nobody claims or
calls), and the ratios divide each by the package's figure of the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_native import PEER  # the package, measured as that benchmark does

from muggins._accel import build_status
from muggins.core.engine import ENGINE_ENV
from muggins.core.rules import get_game
from muggins.perf import random_play


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--preset", default="muggins")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--cpu", type=int, default=max(os.sched_getaffinity(0)), help="the one core to run on")
    ap.add_argument("--peer-python", help="an interpreter with the dominoes package installed")
    args = ap.parse_args()
    os.sched_setaffinity(0, {args.cpu})  # the package's process inherits it
    figures: dict[str, list[float]] = {}

    def add(name: str, value: float) -> None:
        figures.setdefault(name, []).append(value)

    for run in range(args.runs):
        if args.peer_python:
            out = subprocess.run([args.peer_python, "-c", PEER, str(args.seconds), str(run)], capture_output=True,
                                 text=True, check=True)
            add("peer_random_play", json.loads(out.stdout)["moves_per_second"])
        for name, engine, kw in (("default_actions", "native", {}), ("default_ids", "native", {"ids": True}),
                                 ("pure_actions", "pure", {}), ("pure_ids", "pure", {"ids": True}),
                                 ("native_ids", "native", {"native": True})):
            os.environ[ENGINE_ENV] = engine
            add(name, random_play("dominoes", args.preset, args.players, args.seconds, seed=run, **kw)
                ["moves_per_second"])
    os.environ[ENGINE_ENV] = "native"
    med = {k: statistics.median(v) for k, v in figures.items()}
    report: dict[str, Any] = {"preset": args.preset, "players": args.players, "seconds_per_run": args.seconds,
                              "runs": args.runs, "cpu": args.cpu, "build": build_status()["mode"],
                              "spec_new_engine": get_game("dominoes").engine(
                                  get_game("dominoes").rules(args.preset), args.players),
                              "medians": {k: round(v) for k, v in med.items()},
                              "runs_each": {k: [round(x) for x in v] for k, v in figures.items()}}
    if "peer_random_play" in med:
        report["ratios_to_peer"] = {k: round(v / med["peer_random_play"], 2) for k, v in med.items()
                                    if k != "peer_random_play"}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
