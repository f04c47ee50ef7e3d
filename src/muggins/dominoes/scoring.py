"""Pure scoring functions of the Fives family, precomputed as tables where the input is small."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from muggins.dominoes.rules import ScoreFn

_ODD_PRIMES: list[int] = [p for p in range(3, 4100, 2) if all(p % q for q in range(3, int(p**0.5) + 1, 2))]


def _fives_count(c: int) -> int:
    return c if c > 0 and c % 5 == 0 else 0


def _fives_per5(c: int) -> int:
    return c // 5 if c > 0 and c % 5 == 0 else 0


def _threes_count(c: int) -> int:
    return c if c > 0 and c % 3 == 0 else 0


def _threes_per3(c: int) -> int:
    return c // 3 if c > 0 and c % 3 == 0 else 0


def _fives_and_threes(c: int) -> int:
    if c <= 0:
        return 0
    return (c // 5 if c % 5 == 0 else 0) + (c // 3 if c % 3 == 0 else 0)


def _threes_and_fives_pips(c: int) -> int:
    if c <= 0:
        return 0
    return (c if c % 3 == 0 else 0) + (c if c % 5 == 0 else 0)


def _odd_primes(c: int) -> int:
    """Fives-and-Threes extended to every odd prime: the sum of c/p over odd primes p dividing c."""
    if c <= 0:
        return 0
    return sum(c // p for p in _ODD_PRIMES if p <= c and c % p == 0)


SCORE_FUNCTIONS: dict[str, Callable[[int], int]] = {
    "fives_count": _fives_count,
    "fives_per5": _fives_per5,
    "threes_count": _threes_count,
    "threes_per3": _threes_per3,
    "fives_and_threes": _fives_and_threes,
    "threes_and_fives_pips": _threes_and_fives_pips,
    "odd_primes": _odd_primes,
}

TABLE_SIZE = 4096  # no layout of a double-15 set reaches this count


@cache
def score_table(fn: ScoreFn) -> tuple[int, ...]:
    """Points for every count 0..TABLE_SIZE-1: scoring a play is one index."""
    f = SCORE_FUNCTIONS[fn]
    return tuple(f(c) for c in range(TABLE_SIZE))


def per_unit(fn: ScoreFn) -> bool:
    """Whether the game scores one point per five (or three): bonuses are divided likewise."""
    return fn in ("fives_per5", "threes_per3")


def round_nearest(pips: int, unit: int) -> int:
    """Nearest multiple of ``unit`` (5: remainder 1-2 down, 3-4 up; 3: remainder 1 down, 2 up)."""
    if unit <= 1:
        return pips
    if pips < 0:
        return -round_nearest(-pips, unit)
    return unit * ((pips + (unit - 1) // 2) // unit)


def prime_at_most(n: int) -> int:
    """The largest prime not above ``n`` (0 when there is none)."""
    for p in range(n, 1, -1):
        if all(p % q for q in range(2, int(p**0.5) + 1)):
            return p
    return 0
