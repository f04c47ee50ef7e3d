"""Cribbage search iterations per second: the whole search in C (``native.search``) against the Python
search with pure rollouts (``SearchPolicy(native=False)``) and with native rollouts (``native=True``), same
run, same positions (``muggins.sim.bench.sample_positions``), and the ratio to the issue's baseline.

Each position is searched for ``--seconds`` by each of the three in turn; a run's figure is the median over
positions, the result the median over ``--runs`` runs. Run it on one core: ``taskset -c 1``.

    python benchmarks/bench_search_cribbage_native.py [--seconds 0.5] [--positions 12] [--runs 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from muggins._accel import describe_build, load_native
from muggins.bots.base import next_decision
from muggins.bots.search import SearchPolicy
from muggins.sim.bench import sample_positions

#: The issue's baseline of the cribbage search, iterations per second.
BASELINE = 7198


def python_rate(state: object, seat: int, native: bool, seconds: float, seed: int) -> float:
    nd = next_decision(state)
    assert nd is not None
    policy = SearchPolicy(iterations=10**9, time_limit=seconds, native=native)
    t0 = time.perf_counter()
    policy.choose(state, seat, nd[1], random.Random(seed))
    return policy.total_iterations / (time.perf_counter() - t0)


def c_rate(mod: object, state: object, seat: int, seconds: float, seed: int) -> float:
    p = SearchPolicy()
    t0 = time.perf_counter()
    r = mod.search(state, seat, 10**9, seconds, p.exploration, p.horizon, p.rollout_greedy, seed)
    return r["iterations"] / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=0.5)
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    mod, why = load_native("muggins.cards.cribbage.native")
    if mod is None or not hasattr(mod, "search"):
        raise SystemExit(f"the native cribbage search is not available: {why or 'rebuild the module'}")
    print(describe_build())
    pos = sample_positions("cribbage", "cribbage", 2, args.positions, seed=0)
    names = ("C search", "native rollouts", "pure rollouts")
    runs: dict[str, list[float]] = {k: [] for k in names}
    for r in range(args.runs):
        rates: dict[str, list[float]] = {k: [] for k in names}
        for state, seat in pos:
            rates["C search"].append(c_rate(mod, state, seat, args.seconds, r))
            rates["native rollouts"].append(python_rate(state, seat, True, args.seconds, r))
            rates["pure rollouts"].append(python_rate(state, seat, False, args.seconds, r))
        for k in names:
            runs[k].append(statistics.median(rates[k]))
    med = {k: statistics.median(v) for k, v in runs.items()}
    print(f"cribbage/cribbage: {len(pos)} positions x {args.runs} runs, {args.seconds}s each (medians, it/s)")
    for k in names:
        print(f"  {k:16s} {med[k]:>10.0f}  runs {[round(x) for x in runs[k]]}  "
              f"{med[k] / BASELINE:.1f}x the baseline {BASELINE}")
    print(f"  C search / native rollouts {med['C search'] / med['native rollouts']:.1f}x, "
          f"/ pure rollouts {med['C search'] / med['pure rollouts']:.1f}x")


if __name__ == "__main__":
    main()
