"""A tournament plays the same games on both engines behind ``spec.new``: with bots that draw nothing but their
own seeded generators (random, greedy, heuristic), every game of the native states is the pure states' game
move for move, so no figure of the bot ladder can move when the native engine backs the states."""

from __future__ import annotations

from typing import Any

import pytest

from muggins.core import get_game
from muggins.sim.driver import GameResult
from muggins.sim.tournament import Config, run_tournament, without_timing


def _games(results: list[GameResult]) -> list[dict[str, Any]]:
    """Each game's result with its seats' figures, timing left out (it is the one thing allowed to differ)."""
    out = []
    for r in results:
        d = r.to_dict()
        d["seats"] = [{k: v for k, v in s.items() if k != "seconds"} for s in d["seats"]]
        out.append(d)
    return out


@pytest.mark.parametrize(("game", "preset", "players", "options"), [
    ("dominoes", "muggins", 2, ()),
    ("dominoes", "all-threes", 3, ()),
    ("cribbage", "cribbage", 2, (("target", 61),)),
    ("card-muggins", "muggins", 2, ()),
    ("card-muggins", "muggins", 3, ()),
])
def test_a_tournament_plays_the_same_games_on_both_engines(monkeypatch: pytest.MonkeyPatch, game: str, preset: str,
                                                           players: int, options: tuple[tuple[str, Any], ...]) -> None:
    config = Config(game, preset, players, ("random", "greedy", "heuristic"), 2, seed=2026, options=options)
    spec = get_game(game)
    rules = spec.rules(preset, dict(options))
    played: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {}
    for engine in ("native", "pure"):
        monkeypatch.setenv("MUGGINS_ENGINE", engine)
        assert spec.engine(rules, players)[0] == engine  # (the build is there: CI builds it)
        report, results = run_tournament(config)
        played[engine] = without_timing(report), _games(results)
    native, pure = played["native"], played["pure"]
    assert len(native[1]) == 6 and all(g["finished"] for g in native[1])
    assert native[1] == pure[1]
    assert native[0] == pure[0]
