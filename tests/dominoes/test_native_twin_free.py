"""The answers of the native domino state that used to come from its pure twin, made from the C data: equal
to the pure engine's, and no twin built to give them (every preset with every number of players it allows).

What a consumer asks besides the views: the inventory (OpenSpiel's chance nodes), the mask of legal ids and
the action of an id (the learning adapters), the number of the hand (the terminal table), a move's text read
back (records: calls, late claims, draws, plays on a double), the change counter a mask cache keys on, and
``sample_hidden`` (the search, heuristic and analysis bots): the same world drawn with the same numbers.
Skips when the native module is not built (fails instead under CI=true: tests/conftest.py).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from muggins._accel import load_native
from muggins.core.chance import Chance
from muggins.core.errors import MugginsError
from muggins.dominoes.action_ids import free_places
from muggins.dominoes.state import DominoState

native, WHY = load_native("muggins.dominoes.native")
if native is None:
    pytest.skip(f"the native domino engine is not usable: {WHY}", allow_module_level=True)

from muggins.dominoes.fast import NativeDominoState  # noqa: E402 - after the skip
from tests.dominoes.test_native_events import CASES, OPTIONS, SPEC, choose  # noqa: E402
from tests.twins import count_twins  # noqa: E402

TEXTS = ("muggins", "muggins 3", "claim 2", "claim", "draw", "pass", "knock", "draw 2", "", "5-3 on 9-9 end",
         "6-6", "play", "lead 6-6 inline", 7, "muggins 999")


def answer(f: Any, *args: Any) -> Any:
    """What ``f(*args)`` gives, or the refusal (its type and words)."""
    try:
        return f(*args)
    except MugginsError as e:
        return type(e).__name__, str(e)


def same_answers(pure: DominoState, fast: NativeDominoState, rng: random.Random) -> None:
    assert fast.inventory() == pure.inventory()
    assert fast.hand_no == pure.hand_no
    assert free_places(fast) == free_places(pure)  # type: ignore[arg-type]
    for seat in range(pure.num_players):
        mask = pure.legal_action_mask(seat)
        assert fast.legal_action_mask(seat) == mask
        assert fast.legal_action_mask(seat, numpy=True).tolist() == pure.legal_action_mask(seat, numpy=True).tolist()
        ids = [i for i, x in enumerate(mask) if x]
        for i in ids[:40] + rng.sample(range(len(mask)), 3) + [-1, len(mask), True]:
            assert answer(fast.action_from_id, seat, i) == answer(pure.action_from_id, seat, i), (seat, i)
        for a in pure.legal_actions(seat):
            if a.kind == "play" and a.target is not None:
                for text in (f"{a.subject} on {a.target}", f"{a.subject} on {a.target} end",
                             f"{a.subject} on {a.target} side"):
                    assert answer(fast.parse_action, text, seat) == answer(pure.parse_action, text, seat), text
        for text in TEXTS:
            assert answer(fast.parse_action, text, seat) == answer(pure.parse_action, text, seat), text
    assert answer(fast.legal_action_mask, pure.num_players) == answer(pure.legal_action_mask, pure.num_players)


@pytest.mark.parametrize(("preset", "players"), CASES, ids=[f"{p}:{n}" for p, n in CASES])
def test_native_answers_equal_the_pure_answers_with_no_twin(preset: str, players: int,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    for seed in range(3):
        rng = random.Random(seed * 31 + players)
        options = dict(OPTIONS[(seed * 5 + players) % len(OPTIONS)], claims=rng.choice(["manual", "auto"]))
        rules = SPEC.rules(preset, options)
        fast = NativeDominoState.new(rules, players, Chance(seed))
        pure = DominoState.new(rules, players, Chance(seed))
        with count_twins(monkeypatch) as twins:
            seen = {fast._ver}
            moves = 0
            while not pure.is_over() and moves < 400:
                seat, action = choose(pure, rng, 0.5)
                pure.apply(seat, action)
                fast.apply(seat, action)
                assert fast._ver not in seen  # a cache keyed by it sees every move
                seen.add(fast._ver)
                moves += 1
                if moves % 4 == 0:
                    same_answers(pure, fast, rng)
            same_answers(pure, fast, rng)
        assert not twins, twins
