"""Duplicate-deal margins and the share of a gap closed: the figures bench_strength.py reports."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from muggins.sim.stats import mean_interval, ratio_interval
from muggins.sim.tournament import Config, duplicate_margins, run_tournament

ROOT = Path(__file__).resolve().parents[2]


def test_mean_interval_of_known_samples() -> None:
    m, lo, hi = mean_interval([1.0, 2.0, 3.0, 4.0])
    sd = math.sqrt(sum((x - 2.5) ** 2 for x in (1, 2, 3, 4)) / 3)
    assert m == 2.5
    assert lo == pytest.approx(2.5 - 1.959963984540054 * sd / 2)
    assert hi == pytest.approx(2.5 + 1.959963984540054 * sd / 2)
    assert mean_interval([3.0])[1:] == (-math.inf, math.inf)


def test_ratio_interval_pairs_the_deals() -> None:
    den = [10.0, 30.0, 5.0, 25.0, 12.0]
    num = [x * 0.4 for x in den]  # every deal closes exactly 40%: no resample can say otherwise
    point, lo, hi = ratio_interval(num, den)
    assert point == pytest.approx(0.4) and lo == pytest.approx(0.4) and hi == pytest.approx(0.4)
    noisy = [x * 0.4 + (1 if i % 2 else -1) for i, x in enumerate(den)]
    p2, lo2, hi2 = ratio_interval(noisy, den, seed=3)
    assert lo2 < p2 < hi2
    assert ratio_interval(noisy, den, seed=3) == (p2, lo2, hi2)  # deterministic for a seed
    with pytest.raises(ValueError):
        ratio_interval([1.0], [1.0, 2.0])
    assert math.isnan(ratio_interval([1.0, 1.0], [-1.0, 0.5])[1])


def test_duplicate_margins_from_a_real_tournament() -> None:
    cfg = Config("card-muggins", "muggins", 2, ("greedy", "random"), 6, seed=5, options=(("target", 15),))
    _, results = run_tournament(cfg)
    margins = duplicate_margins(results, "greedy", "random")
    assert len(margins) == 3  # three deals, each played in both orientations
    for seed, margin in margins.items():
        games = [r for r in results if r.seed == seed]
        assert len(games) == 2
        diff = sum(s.score if s.bot == "greedy" else -s.score for r in games for s in r.seats)
        assert margin == pytest.approx(diff / sum(r.hands for r in games))
    assert duplicate_margins(results, "random", "greedy") == {k: -v for k, v in margins.items()}
    assert duplicate_margins(results, "greedy", "heuristic") == {}


@pytest.mark.slow
def test_bench_strength_reports_the_gap_of_a_game(tmp_path: Path) -> None:
    out = tmp_path / "strength.json"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_strength.py"), "--game", "card-muggins",
                    "--only", "gap", "--games", "4", "--target", "15", "--search", "search:iterations=20",
                    "--omniscient", "omniscient:iterations=20", "--omniscient", "omniscient:iterations=30",
                    "--jobs", "1", "--json", str(out)],
                   check=True, capture_output=True, cwd=ROOT)
    rep = json.loads(out.read_text())
    gap = rep["gap"]["card-muggins"]
    assert set(gap["bots"]) == {"random", "heuristic", "search:iterations=20", "omniscient:iterations=20",
                                "omniscient:iterations=30"}
    assert all(r["deals"] == 2 for r in gap["bots"].values())
    assert len(rep["pairs"]) == 5
    # one share per ceiling, the first also at the top level
    assert [c["ceiling"] for c in gap["ceilings"]] == ["omniscient:iterations=20", "omniscient:iterations=30"]
    assert gap["share_closed"] == gap["ceilings"][0]["share_closed"]
    assert all(len(c["share_ci95"]) == 2 for c in gap["ceilings"])
