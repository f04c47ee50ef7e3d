"""Strength checks: the skill ladder holds on duplicate deals (the lower 95% Wilson bound above one
half). The quick one runs always; the longer ones are marked slow."""

from __future__ import annotations

import pytest

from muggins.sim.tournament import Config, run_tournament


def _lower_bound(game: str, preset: str, weaker: str, stronger: str, games: int, **options: str) -> float:
    cfg = Config(game, preset, 2, (weaker, stronger), games, seed=17, options=tuple(options.items()))
    report, _ = run_tournament(cfg)
    pair = report["pairs"][0]
    assert pair["a"] == weaker
    return 1.0 - float(pair["ci95"][1])  # the stronger bot's lower bound


def test_greedy_beats_random_at_dominoes() -> None:
    assert _lower_bound("dominoes", "muggins", "random", "greedy", 40) > 0.5


@pytest.mark.slow
def test_heuristic_beats_greedy_at_dominoes() -> None:
    assert _lower_bound("dominoes", "muggins", "greedy", "heuristic", 160) > 0.5


@pytest.mark.slow
def test_heuristic_beats_greedy_at_cribbage() -> None:
    assert _lower_bound("cribbage", "cribbage", "greedy", "heuristic", 40) > 0.5


@pytest.mark.slow
def test_heuristic_beats_greedy_at_card_muggins() -> None:
    assert _lower_bound("card-muggins", "muggins", "greedy", "heuristic", 300) > 0.5


@pytest.mark.slow
def test_club_attention_beats_beginner_attention() -> None:
    """Same skill, different attention: muggins points decide it."""
    assert _lower_bound("dominoes", "muggins", "greedy:forget=0.3:vigilance=0.2",
                        "greedy:forget=0.02:vigilance=0.9", 200) > 0.5
