"""Speed of the search bot: IS-MCTS iterations per second on positions from real games."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from muggins.bots import heuristics
from muggins.bots.base import next_decision
from muggins.bots.registry import make_bot
from muggins.bots.search import SearchPolicy
from muggins.core.protocol import GameState
from muggins.core.rules import default_game, get_game
from muggins.sim.driver import DealChance, run


def sample_positions(game: str, preset: str | None = None, players: int | None = None, count: int = 12,
                     seed: int = 0) -> list[tuple[GameState, int]]:
    """Positions the search really searches (two moves or more, not left to an exact per-game
    calculation), taken along greedy games."""
    spec = get_game(game)
    override = heuristics.search_override_fn(game)
    rules = spec.rules(preset)
    n = players if players is not None else spec.default_players
    out: list[tuple[GameState, int]] = []
    g = 0
    while len(out) < count and g < 50:
        found: list[tuple[GameState, int]] = []

        def keep(state: GameState, found: list[tuple[GameState, int]] = found) -> None:
            nd = next_decision(state)
            if nd is None or len(nd[1]) < 2:
                return
            if override is not None and override(state, nd[0], nd[1], random.Random(0)) is not None:
                return
            found.append((state.clone(), nd[0]))

        state = spec.new(rules, n, chance=DealChance(seed * 1000 + g))
        run(state, [make_bot("greedy", i) for i in range(n)], seed * 1000 + g, on_state=keep)
        step = max(1, len(found) // 4)
        out.extend(found[::step][:4])
        g += 1
    return out[:count]


def search_speed(game: str | None = None, preset: str | None = None, players: int | None = None,
                 seconds: float = 0.5, positions: int = 12, runs: int = 3, seed: int = 0) -> dict[str, Any]:
    """Median iterations per second of the search bot over ``positions`` positions (each searched for
    ``seconds``), repeated ``runs`` times; the per-run medians are listed too. ``game`` None: the
    default game."""
    game = game or default_game().name
    pos = sample_positions(game, preset, players, positions, seed)
    per_run = []
    for r in range(runs):
        rates = []
        for state, seat in pos:
            nd = next_decision(state)
            assert nd is not None
            policy = SearchPolicy(iterations=10**9, time_limit=seconds)
            t0 = time.perf_counter()
            policy.choose(state, seat, nd[1], random.Random(r))
            rates.append(policy.total_iterations / (time.perf_counter() - t0))
        per_run.append(statistics.median(rates))
    return {"game": game, "preset": preset or get_game(game).default_preset, "positions": len(pos),
            "seconds_per_search": seconds,
            "search_iterations_per_second": statistics.median(per_run),
            "search_iterations_per_second_runs": per_run}
