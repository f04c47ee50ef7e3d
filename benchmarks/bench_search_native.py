"""Search iterations per second: the whole search native (the module's ``search``), native rollouts under
the Python tree, and pure (Python) rollouts; same positions, same run; and where the time of a
native-rollout search goes.

For each game, positions along greedy games (``muggins.sim.bench.sample_positions``) are searched for
``--seconds`` each in the three modes in turn; the rate of a run is the median over positions, the figure
the median over ``--runs`` runs, with its ratio to the pure search of the same run and to the baseline of
the issue "A native engine core" (dominoes 4,271 it/s, cribbage 7,198 it/s, the search before any native
code). Where a game has no native search the first mode falls back (its count of native searches says so).
``--profile`` adds the top functions (own time) of a native-rollout search under cProfile.

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
BASELINE = {"dominoes": 4271.0, "cribbage": 7198.0}
#: mode -> (native, native_search)
MODES = {"search": (True, True), "rollouts": (True, False), "pure": (False, False)}


def rate(state: object, seat: int, mode: str, seconds: float, seed: int) -> tuple[float, int, int]:
    """Iterations per second of one search, with the native rollouts and native searches it made."""
    nd = next_decision(state)
    assert nd is not None
    native, whole = MODES[mode]
    policy = SearchPolicy(iterations=10**9, time_limit=seconds, native=native, native_search=whole)
    t0 = time.perf_counter()
    policy.choose(state, seat, nd[1], random.Random(seed))
    return policy.total_iterations / (time.perf_counter() - t0), policy.native_rollouts, policy.native_searches


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
        runs: dict[str, list[float]] = {m: [] for m in MODES}
        used = searched = 0
        for r in range(args.runs):
            rates: dict[str, list[float]] = {m: [] for m in MODES}
            for state, seat in pos:
                for mode in MODES:
                    x, n, k = rate(state, seat, mode, args.seconds, r)
                    rates[mode].append(x)
                    used += n
                    searched += k
            for mode in MODES:
                runs[mode].append(statistics.median(rates[mode]))
        med = {m: statistics.median(runs[m]) for m in MODES}
        pure = med["pure"]
        print(f"{game}/{preset}: {len(pos)} positions x {args.runs} runs, {args.seconds}s each "
              f"(native searches made: {searched}, native rollouts made: {used})")
        for mode, label in (("search", "native search"), ("rollouts", "native rollouts"), ("pure", "pure")):
            print(f"  {label:16} {med[mode]:>9.0f} it/s {[round(x) for x in runs[mode]]}; "
                  f"{med[mode] / pure:6.2f}x pure, {med[mode] / BASELINE[game]:6.2f}x the issue's baseline")
        if args.profile:
            prof = cProfile.Profile()
            prof.enable()
            for state, seat in pos[:6]:
                rate(state, seat, "rollouts", args.seconds, 0)
            prof.disable()
            out = io.StringIO()
            pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(14)
            print("\n".join(line for line in out.getvalue().splitlines() if line.strip())[:4000])


if __name__ == "__main__":
    main()
