"""Pegging: what one card scores in the play (RULES.md §5.1 table, examples P1-P10).

A series is the list of ranks laid since the last reset, the new card last. Only its tail can score: a
pair, pair royal or double pair royal is the run of equal ranks ending at the new card; a run is the
longest tail of n >= 3 cards, in any order, with n distinct consecutive ranks. Both are found by one
backward scan that stops at the first repeated rank, so the cost is the length of the scoring tail, not
of the series. The counts 15 and 31 score 2 each (31 already includes the go).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["PAIR_NAMES", "PAIR_POINTS", "peg_items", "peg_parts", "peg_points"]

#: Points for the tail of equal ranks by its length (1: no pair).
PAIR_POINTS = (0, 0, 2, 6, 12)
PAIR_NAMES = ("", "", "pair", "pair royal", "double pair royal")


def peg_parts(ranks: Sequence[int], count: int) -> tuple[int, int, int]:
    """(points for 15 or 31, points for pairs, length of the run scored) of the last card of ``ranks``
    with the series at ``count`` after it."""
    total = 2 if count == 15 or count == 31 else 0
    n = len(ranks)
    last = ranks[n - 1]
    i = n - 2
    if i >= 0 and ranks[i] == last:
        k = 2
        i -= 1
        while i >= 0 and ranks[i] == last:
            k += 1
            i -= 1
        return total, PAIR_POINTS[k], 0  # the repeated rank rules out a run through the last two cards
    if n < 3:
        return total, 0, 0
    seen = 1 << last
    lo = hi = last
    best = 0
    length = 1
    while i >= 0:
        r = ranks[i]
        bit = 1 << r
        if seen & bit:
            break
        seen |= bit
        length += 1
        if r < lo:
            lo = r
        elif r > hi:
            hi = r
        if length >= 3 and hi - lo == length - 1:
            best = length
        i -= 1
    return total, 0, best


def peg_points(ranks: Sequence[int], count: int) -> int:
    """Points of the last card of ``ranks`` (fifteen, 31, pairs and runs; not the go)."""
    a, b, c = peg_parts(ranks, count)
    return a + b + c


def peg_items(ranks: Sequence[int], count: int, go: int = 0, last_card: bool = False) -> list[list[object]]:
    """The scoring items of the last card, as spoken: [["fifteen", 2], ["run of 3", 3], ["go", 1]].
    ``go`` is the point for go or last card that comes with the card when nobody can follow it."""
    fifteen, pairs, run = peg_parts(ranks, count)
    items: list[list[object]] = []
    if fifteen:
        items.append(["fifteen" if count == 15 else "thirty-one", 2])
    if pairs:
        items.append([PAIR_NAMES[PAIR_POINTS.index(pairs)], pairs])
    if run:
        items.append([f"run of {run}", run])
    if go:
        items.append(["last card" if last_card else "go", go])
    return items
