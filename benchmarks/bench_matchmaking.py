"""How long one pass of the ranked queue takes (benchmarks/README.md): ``--tickets`` players waiting for one
game, ``--apart`` rating points from one another (far enough apart, nobody pairs: every pass looks at every
ticket again, the case that costs most while the queue is long). Prints the median of ``--runs`` passes."""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from muggins.server.accounts import Account
from muggins.server.matchmaking import Matchmaker, Ticket


class Manager:
    """What the queue asks of a table manager here: its clock (no table is ever made)."""

    clock = staticmethod(time.monotonic)


def one_pass(tickets: int, apart: float) -> float:
    mm = Matchmaker(Manager(), None)  # type: ignore[arg-type]
    now = time.monotonic()
    for i in range(tickets):
        t = Ticket(f"k{i}", "dominoes", "muggins", 2, True, f"p{i}", Account(i, f"p{i}", 0.0), 1500.0 + apart * i,
                   f"10.0.{i // 250}.{i % 250}", now, now)
        mm.tickets[t.key] = t
    started = time.perf_counter()
    mm.tick()
    return time.perf_counter() - started


def main(argv: Any = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tickets", type=int, default=1000)
    ap.add_argument("--apart", type=float, default=1000.0)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args(argv)
    ms = 1000 * statistics.median(one_pass(args.tickets, args.apart) for _ in range(args.runs))
    print(f"{args.tickets} waiting ranked tickets, {args.apart:g} apart: one pass {ms:.1f} ms (median of {args.runs})")


if __name__ == "__main__":
    main()
