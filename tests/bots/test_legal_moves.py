"""Every bot makes only legal moves, in every preset of every registered game."""

from __future__ import annotations

import random
import zlib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from muggins.bots import make_bot
from muggins.bots.base import CLAIM_KINDS
from muggins.core import Action, GameState, all_games, get_game
from muggins.sim.driver import DealChance, run

FAST = ["random", "greedy", "heuristic", "search:iterations=8", "beginner", "omniscient:iterations=8",
        "casual", "expert:iterations=8"]
SHORT_TARGET = {"dominoes": 40, "card-muggins": 31, "cribbage": 31}


class Checked:
    """Wraps a bot and checks each answer against the seat's legal actions before it is applied."""

    def __init__(self, name: str, seed: int) -> None:
        self.bot = make_bot(name, seed)
        self.name = name
        self.moves = 0

    def act(self, state: GameState, seat: int, rng: random.Random) -> Action | None:
        legal = state.legal_actions(seat)
        a = self.bot.act(state, seat, rng)
        if a is None:
            assert seat not in state.waiting_for() or not any(x.kind not in CLAIM_KINDS for x in legal)
            return None
        if a.kind in CLAIM_KINDS:
            assert any(x.kind == a.kind for x in legal), f"{a} not allowed now"
        else:
            assert a._replace(claim=None) in legal, f"{a} not among {legal}"
            assert a.claim is None or a.claim >= 0
        self.moves += 1
        return a


def _cases() -> list[Any]:
    out = []
    for name, spec in sorted(all_games().items()):
        for preset, rules in spec.presets.items():
            for n in range(spec.min_players, spec.max_players + 1):
                if name == "dominoes" and n not in (2, 3, 4):
                    continue
                try:
                    if spec.check_players is not None:
                        spec.check_players(rules, n)
                    spec.new(rules, n, seed=0)
                except Exception:
                    continue
                out.append(pytest.param(name, preset, n, id=f"{name}-{preset}-{n}"))
    return out


@pytest.mark.parametrize(("game", "preset", "players"), _cases())
def test_every_bot_plays_legally(game: str, preset: str, players: int) -> None:
    spec = get_game(game)
    target = SHORT_TARGET.get(game, 40)
    base = spec.presets[preset]
    if getattr(base, "target", 0) <= target:
        target = max(1, base.target // 2)
    rules = spec.rules(preset, {"target": target})
    offset = zlib.crc32(f"{game}{preset}{players}".encode()) % len(FAST)
    bots = [Checked(FAST[(offset + i) % len(FAST)], i) for i in range(players)]
    state = spec.new(rules, players, chance=DealChance(11))
    result = run(state, bots, 11, max_actions=600)
    assert sum(b.moves for b in bots) >= result.actions
    assert result.actions > 0


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), preset=st.sampled_from(sorted(p for p, r in get_game("dominoes").presets.items()
                                     if 2 in get_game("dominoes").players_for(r))),
       names=st.lists(st.sampled_from(["random", "greedy", "beginner", "casual"]), min_size=2, max_size=2))
def test_careless_bots_keep_scores_consistent(seed: int, preset: str, names: list[str]) -> None:
    """Forgetting, under-claiming and false calls are mistakes, never illegal moves; side scores
    always equal the sum of the score events."""
    spec = get_game("dominoes")
    rules = spec.rules(preset, {"target": 50 if spec.presets[preset].target > 61 else 21})
    state = spec.new(rules, 2, chance=DealChance(seed))
    run(state, [Checked(n, seed + i) for i, n in enumerate(names)], seed, max_actions=800)
    sums = [0] * state.num_sides
    for e in state.log:
        if e.kind == "score":
            sums[e.data["side"]] += e.points
    assert sums == state.side_scores()
