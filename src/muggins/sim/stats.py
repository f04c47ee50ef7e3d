"""Statistics of tournaments: Wilson intervals for win rates and Bradley-Terry ratings (on the Elo
scale) with bootstrap intervals. Pure Python: the numbers are small."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

Z95 = 1.959963984540054
ELO = 400.0 / math.log(10.0)
BASE_RATING = 1500.0


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (draws may count half). (0, 1) when n is 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = min(max(successes / n, 0.0), 1.0)
    z2 = z * z
    den = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


# Pairwise results: (i, j) -> (score of i against j, games). Score counts a draw as half a win.
PairResults = Mapping[tuple[int, int], tuple[float, int]]


def bradley_terry(k: int, results: PairResults, prior: float = 0.5, iterations: int = 500,
                  tol: float = 1e-10) -> list[float]:
    """Ratings of ``k`` players on the Elo scale (mean 1500) fitted by the MM algorithm (Hunter 2004).

    ``prior`` adds that many virtual wins each way to every pair that met, so a player who won every
    game still gets a finite rating."""
    wins = [0.0] * k
    games: dict[tuple[int, int], float] = {}
    for (i, j), (score, n) in results.items():
        if n <= 0:
            continue
        a, b = (i, j) if i < j else (j, i)
        sa = score if i < j else n - score
        games[(a, b)] = games.get((a, b), 0.0) + n + 2 * prior
        wins[a] += sa + prior
        wins[b] += (n - sa) + prior
    p = [1.0] * k
    for _ in range(iterations):
        denom = [0.0] * k
        for (a, b), m in games.items():
            d = m / (p[a] + p[b])
            denom[a] += d
            denom[b] += d
        new = [wins[i] / denom[i] if denom[i] > 0 else p[i] for i in range(k)]
        g = math.exp(sum(math.log(x) for x in new) / k)
        new = [x / g for x in new]
        change = max(abs(math.log(x / y)) for x, y in zip(new, p, strict=True))
        p = new
        if change < tol:
            break
    return [BASE_RATING + ELO * math.log(x) for x in p]


def _resample(score: float, n: int, rng: random.Random, prior: float = 0.5) -> float:
    """A binomial draw at the observed rate, smoothed by the prior so that a clean sweep still varies
    (normal approximation for large n)."""
    q = (score + prior) / (n + 2 * prior)
    if n <= 60:
        return float(sum(1 for _ in range(n) if rng.random() < q))
    x = round(rng.gauss(n * q, math.sqrt(n * q * (1 - q))))
    return float(min(max(x, 0), n))


def rating_intervals(k: int, results: PairResults, rounds: int = 200, seed: int = 0
                     ) -> tuple[list[float], list[tuple[float, float]]]:
    """Ratings and their 95% parametric-bootstrap intervals (each pair's games redrawn at its rate)."""
    ratings = bradley_terry(k, results)
    rng = random.Random(seed)
    samples: list[list[float]] = [[] for _ in range(k)]
    items = [(key, sn) for key, sn in results.items() if sn[1] > 0]
    for _ in range(rounds):
        boot = {key: (_resample(score, n, rng), n) for key, (score, n) in items}
        for i, r in enumerate(bradley_terry(k, boot, iterations=200, tol=1e-7)):
            samples[i].append(r)
    intervals = []
    for i in range(k):
        xs = sorted(samples[i])
        if not xs:
            intervals.append((ratings[i], ratings[i]))
            continue
        lo = xs[int(0.025 * (len(xs) - 1))]
        hi = xs[math.ceil(0.975 * (len(xs) - 1))]
        intervals.append((lo, hi))
    return ratings, intervals


def mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def mean_interval(xs: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean of ``xs`` and its normal 95% interval (the samples are independent deals)."""
    n = len(xs)
    m = mean(xs)
    if n < 2:
        return m, -math.inf, math.inf
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    half = z * sd / math.sqrt(n)
    return m, m - half, m + half


def ratio_interval(num: Sequence[float], den: Sequence[float], rounds: int = 2000, seed: int = 0
                   ) -> tuple[float, float, float]:
    """mean(num) / mean(den) and its 95% bootstrap interval, resampling the deals in pairs: ``num[i]`` and
    ``den[i]`` were measured on the same deal, so their noise is shared. NaN bounds when ``den``'s resampled
    mean can be 0 or less (the ratio is then not bounded)."""
    if len(num) != len(den) or not num:
        raise ValueError("a paired ratio needs two equally long, non-empty lists")
    n = len(num)
    d = mean(den)
    point = mean(num) / d if d > 0 else math.nan
    rng = random.Random(seed)
    out: list[float] = []
    for _ in range(rounds):
        idx = [rng.randrange(n) for _ in range(n)]
        sd = sum(den[i] for i in idx)
        if sd <= 0:
            return point, math.nan, math.nan
        out.append(sum(num[i] for i in idx) / sd)
    out.sort()
    return point, out[int(0.025 * (rounds - 1))], out[math.ceil(0.975 * (rounds - 1))]
