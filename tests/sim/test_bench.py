"""The search-speed benchmark: its shape and that it measures real searches (no timing assertions)."""

from __future__ import annotations

from muggins.bots.base import next_decision
from muggins.sim.bench import sample_positions, search_speed


def test_positions_are_real_choices() -> None:
    for game in ("dominoes", "cribbage"):
        pos = sample_positions(game, count=4)
        assert len(pos) == 4
        for state, seat in pos:
            nd = next_decision(state)
            assert nd is not None and nd[0] == seat and len(nd[1]) > 1
            assert nd[1][0].kind != "discard"  # the cribbage discard is not searched


def test_search_speed_report_shape() -> None:
    r = search_speed("dominoes", seconds=0.02, positions=2, runs=1)
    assert r["positions"] == 2 and len(r["search_iterations_per_second_runs"]) == 1
    assert r["search_iterations_per_second"] > 0
