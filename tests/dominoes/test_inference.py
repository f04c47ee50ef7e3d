"""What a seat infers of the hidden pieces always holds of the truth, and a world is always found under it.

Property: at random reachable positions of every dominoes preset and option family (partnerships and
knocking, every draw rule, a reserve, a voluntary draw, extra turns, the lead rules, bigger sets), the
true hidden tiles keep every constraint each seat derives (``DominoState.sampling_frame``: a pass or a
knock and the ends then, a partner's knock, a lost extra turn, a draw, a lead rule), and ``sample_hidden``
gives each seat a world it cannot tell from the true one; for card Muggins and cribbage, through the
protocol, the same of ``sample_hidden``.

Regressions: three stored positions of the knocking partnership game (found by
``benchmarks/audit_sampling.py``) where a partner had knocked; the sampler once learned that knock's
inference only after replaying it, and no world it drew before knew it could replay the knock.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from muggins.core.chance import Chance
from muggins.core.protocol import GameState
from muggins.core.records import load, replay
from muggins.core.rules import all_games, with_options
from muggins.dominoes.state import DominoState
from tests.conformance.cases import all_cases, choose
from tests.dominoes.inference import DOMINO_FAMILIES, frame_violation, sample_violation

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sampling"


def _domino_cases() -> list[tuple[str, Any, int]]:
    spec = all_games()["dominoes"]
    out: list[tuple[str, Any, int]] = [(f"{preset}/{n}p", rules, n) for preset, rules in spec.presets.items()
                                       for n in (2, 3, 4) if n in spec.players_for(rules)]
    for name, (preset, options, counts) in DOMINO_FAMILIES.items():
        rules = with_options(spec.presets[preset], options)
        out.extend((f"{name}/{n}p", rules, n) for n in counts)
    return out


DOMINO_CASES = _domino_cases()
CARD_CASES = [c for c in all_cases() if c.game != "dominoes"]


def _reach(game: str, rules: Any, players: int, seed: int, steps: int) -> GameState:
    """The position after up to ``steps`` actions of a scripted game (its end when it ends sooner)."""
    spec = all_games()[game]
    state = spec.new(rules, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        state.apply(*choose(state, rng))
    return state


def _sample_ok(state: GameState, seed: int) -> None:
    for seat in range(state.num_players):
        why = sample_violation(state, seat, random.Random(seed * 31 + seat))
        assert why is None, f"seat {seat} after {len(state.history)} actions: {why}"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(DOMINO_CASES), seed=st.integers(0, 2**31 - 1), steps=st.integers(0, 400))
def test_the_truth_keeps_what_every_seat_infers_and_a_world_is_found(case: tuple[str, Any, int], seed: int,
                                                                     steps: int) -> None:
    _, rules, players = case
    state = _reach("dominoes", rules, players, seed, steps)
    if not state.is_over():  # an ended game has shown every hand: nothing is hidden
        for seat in range(players):
            why = frame_violation(state, seat)
            assert why is None, f"after {len(state.history)} actions: {why}"
    _sample_ok(state, seed)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CARD_CASES), seed=st.integers(0, 2**31 - 1), steps=st.integers(0, 300))
def test_card_games_always_find_a_world_the_seat_cannot_tell_apart(case: Any, seed: int, steps: int) -> None:
    _sample_ok(_reach(case.game, case.rules, case.players, seed, steps), seed)


def test_every_family_has_a_knock_or_a_kept_turn_somewhere_in_its_cases() -> None:
    """The families do reach the inferences they are there for: a partner's knock and a lost extra turn
    each become a mask in some position of a few scripted games."""
    spec = all_games()["dominoes"]
    seen = set()
    for name in ("knocking", "extra-draw"):
        preset, options, counts = DOMINO_FAMILIES[name]
        rules = with_options(spec.presets[preset], options)
        for seed in range(6):
            state = DominoState.new(rules, counts[0], Chance(seed))  # the reference engine's sampling
            rng = random.Random(seed)
            while not state.is_over() and name not in seen:
                start = max(i for i, e in enumerate(state.log) if e.kind == "hand_start")
                segment = [(i, state.log[i].to_dict(0)) for i in range(start, len(state.log))]
                assert isinstance(state, DominoState)
                if state._layout_inferences(segment):
                    seen.add(name)
                state.apply(*choose(state, rng))
    assert seen == {"knocking", "extra-draw"}


STORED = sorted(FIXTURES.glob("*.json"))


def test_three_stored_positions() -> None:
    assert len(STORED) == 3


@pytest.mark.parametrize("path", STORED, ids=[p.stem for p in STORED])
def test_a_stored_knocking_position_samples_for_every_seat_and_seed(path: Path) -> None:
    rec = load(path)
    state = replay(rec)
    if not isinstance(state, DominoState):  # a native state: its sampling is the pure twin's
        state = state.to_pure().clone()
    assert isinstance(state, DominoState)
    assert not state.is_over() and state.rules.knocking and state.rules.partnerships
    failing = rec["meta"]["seat"]
    # the hand has a partner's knock, and what it shows is a mask of the frame (the tiles that would have
    # scored), there before any world is drawn
    start = max(i for i, e in enumerate(state.log) if e.kind == "hand_start")
    segment = [(i, state.log[i].to_dict(failing)) for i in range(start, len(state.log))]
    knocks = [i for i, d in segment if d["kind"] == "knock" and d.get("partner")]
    inferred = state._layout_inferences(segment)
    assert knocks and all(inferred.get(i) for i in knocks)
    for seat in range(state.num_players):
        assert frame_violation(state, seat) is None
        for seed in range(5):
            assert sample_violation(state, seat, random.Random(seed)) is None, (seat, seed)


def test_a_search_with_no_world_to_draw_plays_the_greedy_move() -> None:
    """Should the sampler ever find no world, the search bot still moves (the greedy move), and says so."""
    from muggins.bots.search import SearchPolicy
    from muggins.core.errors import RecordError

    def nothing(state: GameState, seat: int, rng: random.Random) -> GameState:
        raise RecordError("no world consistent with what the seat has seen")

    spec = all_games()["dominoes"]
    state = spec.new(with_options(spec.presets["muggins"], {"partnerships": True, "knocking": True}), 4, seed=3)
    rng = random.Random(3)
    while True:
        seat = min(state.waiting_for())
        actions = state.legal_actions(seat)
        if len(actions) > 1 and len({state.claim_for(seat, a) for a in actions}) > 1:
            break
        state.apply(*choose(state, rng))
    bot = SearchPolicy(iterations=20, determinize=nothing)
    picked = bot.choose(state, seat, actions, random.Random(0))
    assert picked in actions and bot.sampling_failures == 1
    assert state.claim_for(seat, picked) == max(state.claim_for(seat, a) for a in actions)  # greedy's
