"""Speed of the Cribbage show scorer: hands per second on one core (median of several runs).

    python benchmarks/bench_show.py [--seconds 1] [--repeats 5] [--seed 0] [--peer] [--explain]

``--peer`` also times the ``cribbage-scorer`` package on the same kind of random hands, ``--explain``
times ``explain_show`` (the full list of combinations) for comparison.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

from muggins.cards.cribbage.show import benchmark, explain_show
from muggins.cards.deck import Card, full_deck


def _deals(n: int, seed: int) -> list[tuple[list[Card], Card, bool]]:
    rng = random.Random(seed)
    deck = full_deck()
    out = []
    for i in range(n):
        five = rng.sample(deck, 5)
        out.append((five[:4], five[4], i % 4 == 3))
    return out


def _rate(count: Callable[[list[Card], Card, bool], object], seconds: float, repeats: int,
          seed: int) -> float:
    """Median calls per second of ``count`` over a fixed random sample."""
    deals = _deals(1024, seed)
    rates = []
    for _ in range(repeats):
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            for hand, starter, crib in deals:
                count(hand, starter, crib)
            done += len(deals)
        rates.append(done / (time.perf_counter() - start))
    return statistics.median(rates)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=1.0, help="length of one run")
    ap.add_argument("--repeats", type=int, default=5, help="runs; the median is reported")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--peer", action="store_true", help="also time cribbage-scorer")
    ap.add_argument("--explain", action="store_true", help="also time explain_show")
    args = ap.parse_args()

    result: dict[str, object] = {"score_show": benchmark(args.seconds, args.repeats, args.seed)}
    if args.explain:
        result["explain_show_hands_per_second"] = _rate(explain_show, args.seconds, args.repeats, args.seed)
    if args.peer:
        from cribbage_scorer import cribbage_scorer as peer  # type: ignore[import-untyped]

        def peer_count(hand: list[Card], starter: Card, crib: bool) -> object:
            return peer.show_calc_score((starter.rank, starter.suit), [(c.rank, c.suit) for c in hand], crib)

        result["cribbage_scorer_hands_per_second"] = _rate(peer_count, args.seconds, args.repeats, args.seed)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
