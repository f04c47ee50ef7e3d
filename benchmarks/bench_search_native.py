"""Search iterations per second with native rollouts against pure (Python) rollouts, same positions, same
run, and where the time of a native-rollout search goes.

For each game, positions along greedy games (``muggins.sim.bench.sample_positions``) are searched for
``--seconds`` each with ``native=True`` and ``native=False`` alternately; the rate of a run is the median
over positions, the figure the median over ``--runs`` runs. ``--profile`` adds the top functions (own time)
of a native-rollout search under cProfile.

    python benchmarks/bench_search_native.py [--seconds 0.5] [--positions 12] [--runs 3] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import statistics
import time

from muggins._accel import describe_build
from muggins.bots.base import next_decision
from muggins.bots.search import SearchPolicy
from muggins.sim.bench import sample_positions

GAMES = (("dominoes", "muggins"), ("cribbage", "cribbage"))


def rate(state: object, seat: int, native: bool, seconds: float, seed: int) -> tuple[float, int]:
    nd = next_decision(state)
    assert nd is not None
    policy = SearchPolicy(iterations=10**9, time_limit=seconds, native=native)
    t0 = time.perf_counter()
    policy.choose(state, seat, nd[1], random.Random(seed))
    return policy.total_iterations / (time.perf_counter() - t0), policy.native_rollouts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=0.5)
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    print(describe_build())
    for game, preset in GAMES:
        pos = sample_positions(game, preset, 2, args.positions, seed=0)
        runs: dict[bool, list[float]] = {True: [], False: []}
        used = 0
        for r in range(args.runs):
            rates: dict[bool, list[float]] = {True: [], False: []}
            for state, seat in pos:
                for native in (True, False):
                    x, n = rate(state, seat, native, args.seconds, r)
                    rates[native].append(x)
                    used += n
            for native in (True, False):
                runs[native].append(statistics.median(rates[native]))
        nat, pure = statistics.median(runs[True]), statistics.median(runs[False])
        print(f"{game}/{preset}: {len(pos)} positions x {args.runs} runs, {args.seconds}s each; native rollouts "
              f"{nat:.0f} it/s {[round(x) for x in runs[True]]}, pure rollouts {pure:.0f} it/s "
              f"{[round(x) for x in runs[False]]}; ratio {nat / pure:.2f}x (native rollouts made: {used})")
        if args.profile:
            prof = cProfile.Profile()
            prof.enable()
            for state, seat in pos[:6]:
                rate(state, seat, True, args.seconds, 0)
            prof.disable()
            out = io.StringIO()
            pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(14)
            print("\n".join(line for line in out.getvalue().splitlines() if line.strip())[:4000])


if __name__ == "__main__":
    main()
