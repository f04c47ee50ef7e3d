"""Whole random card Muggins games per second: the native engine against the engine through the protocol,
measured in one run, on one core, interleaved, median of the repeats.

Under the muggins rule the claim policy decides how long a game lasts: a game where nobody announces anything
scores only "last" (about a thousand moves to 61), one where every play announces its true points ends in a
few dozen. So each engine is measured both ways, and the ratios compare like with like:

* ``native``: ``muggins.cards.muggins31.native.random_games_native``: the cut, deals, moves and scoring in C,
  one Python call for the whole run, the GIL released (the figure ``muggins bench`` reports as ``native``:
  plays announce their true points);
* ``native_silent``: the same, nobody announcing;
* ``protocol_silent``: ``muggins.perf.random_play`` (what ``muggins bench`` measures): ``CardMugginsState``
  through ``legal_actions``/``apply`` with Action objects, nobody announcing, in the build in use;
* ``protocol``: the same loop, each play announcing its true points (``claim_for``).

Time is CPU time of this process (``time.process_time``).

    python benchmarks/bench_muggins31_native.py [--preset muggins] [--players 2] [--seconds 1] [--repeats 5]
        [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from muggins._accel import build_status, load_native
from muggins.cards.muggins31.rules import PRESETS
from muggins.cards.muggins31.state import CardMugginsState
from muggins.core.chance import Chance
from muggins.perf import random_play


def protocol_announcing(preset: str, players: int, seconds: float, seed: int) -> dict[str, float]:
    """Random moves through the protocol, each play announcing its true points; nobody calls."""
    rules = PRESETS[preset]
    rnd = random.Random(seed).random
    manual = rules.claims == "manual"
    clock = time.process_time
    start = clock()
    moves = games = 0
    g = seed
    while clock() - start < seconds:
        st = CardMugginsState.new(rules, players, Chance(g))
        g += 1
        while not st.is_over():
            seat = st.turn
            acts = [a for a in st.legal_actions(seat) if a.kind not in ("muggins", "claim")]
            a = acts[int(rnd() * len(acts))]
            if manual:
                pts = st.claim_for(seat, a)
                if pts:
                    a = a.with_claim(pts)
            st.apply(seat, a)
            moves += 1
        games += 1
    elapsed = clock() - start
    return {"games_per_second": games / elapsed, "moves_per_second": moves / elapsed}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--preset", default="muggins", choices=sorted(PRESETS))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--json")
    args = ap.parse_args()
    mod, why = load_native("muggins.cards.muggins31.native")
    if mod is None:
        raise SystemExit(f"the native card Muggins module: {why}")
    rules, n, sec = PRESETS[args.preset], args.players, args.seconds
    runs: dict[str, list[dict[str, Any]]] = {k: [] for k in ("native", "native_silent", "protocol",
                                                              "protocol_silent")}
    for r in range(args.repeats):  # interleaved: a slow spell of the machine hits every contender alike
        runs["native"].append(mod.random_games_native(rules, n, sec, r))
        runs["native_silent"].append(mod.random_games_native(rules, n, sec, r, announce=False))
        runs["protocol"].append(protocol_announcing(args.preset, n, sec, r))
        runs["protocol_silent"].append(random_play("card-muggins", args.preset, n, sec, r))
    med = {k: {m: statistics.median(x[m] for x in v) for m in ("games_per_second", "moves_per_second")}
           for k, v in runs.items()}
    out = {"preset": args.preset, "players": n, "seconds": sec, "repeats": args.repeats,
           "build": build_status()["mode"], "median": med,
           "ratio_announcing": med["native"]["games_per_second"] / med["protocol"]["games_per_second"],
           "ratio_silent": med["native_silent"]["games_per_second"] / med["protocol_silent"]["games_per_second"]}
    for k, v in med.items():
        print(f"{k:16s} {v['games_per_second']:>14,.0f} games/s {v['moves_per_second']:>14,.0f} moves/s")
    print(f"native / protocol, like with like: {out['ratio_announcing']:,.0f}x announcing, "
          f"{out['ratio_silent']:,.0f}x silent ({out['build']} build)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
