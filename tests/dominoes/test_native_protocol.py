"""The native states ``spec.new`` gives against the pure ones, move for move, on many random games.

Two games are made from the same seed, one under ``MUGGINS_ENGINE=native`` (a ``NativeDominoState``) and
one under ``MUGGINS_ENGINE=pure`` (the reference ``DominoState``): they must deal the same tiles from the same
:class:`~muggins.core.chance.Chance`. Moves (Actions or ids, true, wrong and missing claims, calls and late
claims) go to both, and after each the two must agree on every seat's view and events, the scores, who may
act, the legal moves and ids; along the way copies, undos and sampled worlds must agree too, and at the end the
records, which replay alike on both backends. Skips when the native module is not built (fails instead
under CI=true).
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from muggins._accel import load_native
from muggins.core.chance import Chance
from muggins.core.engine import ENGINE_ENV
from muggins.core.errors import IllegalAction, RecordError
from muggins.core.records import replay, to_record
from muggins.core.rules import get_game
from muggins.dominoes.rules import PRESETS
from muggins.dominoes.state import DominoState

native, WHY = load_native("muggins.dominoes.native")
if native is None:
    pytest.skip(f"the native domino engine is not usable: {WHY}", allow_module_level=True)

from muggins.dominoes.fast import NativeDominoState  # noqa: E402 - after the skip
from tests.dominoes.test_native import FAMILY  # noqa: E402 - the lockstep tests' option families
from tests.dominoes.test_native_events import OPTIONS, choose  # noqa: E402

SPEC = get_game("dominoes")
CASES = [(p, n, {}) for p in PRESETS for n in (2, 3, 4)
         if n in SPEC.players_for(PRESETS[p]) and native.unsupported(PRESETS[p], n) is None]
CASES += [(p, n, dict(o)) for p, n, o, _ in FAMILY]


@contextmanager
def engine(choice: str) -> Iterator[None]:
    """``MUGGINS_ENGINE=choice`` for the duration (hypothesis tests cannot take pytest's monkeypatch)."""
    old = os.environ.get(ENGINE_ENV)
    os.environ[ENGINE_ENV] = choice
    try:
        yield
    finally:
        if old is None:
            del os.environ[ENGINE_ENV]
        else:
            os.environ[ENGINE_ENV] = old


def both(rules: Any, n: int, seed: int) -> tuple[Any, DominoState]:
    with engine("native"):
        fast = SPEC.new(rules, n, seed=seed)
    with engine("pure"):
        pure = SPEC.new(rules, n, seed=seed)
    assert type(fast) is NativeDominoState and type(pure) is DominoState
    return fast, pure


def agree(fast: Any, pure: DominoState, deep: bool = True) -> None:
    """Every seat sees the same (views, events), and both allow the same moves and keep the same scores."""
    n = pure.num_players
    assert fast.scores() == pure.scores() and fast.side_scores() == pure.side_scores()
    assert fast.is_over() == pure.is_over() and fast.winners() == pure.winners()
    assert fast.to_act() == pure.to_act() and fast.waiting_for() == pure.waiting_for()
    assert len(fast.log) == len(pure.log)
    for seat in range(n):
        assert fast.legal_action_ids(seat) == pure.legal_action_ids(seat)
        assert fast.legal_actions(seat) == pure.legal_actions(seat)
    if deep:
        for seat in (None, *range(n)):
            assert fast.view(seat).to_json() == pure.view(seat).to_json(), seat
        for viewer in ("all", None, *range(n)):
            assert fast.events_for(viewer) == pure.events_for(viewer), viewer
        assert fast.inventory() == pure.inventory()


def rules_of(case: tuple[str, int, dict[str, Any]], variant: int) -> Any:
    preset, _, options = case
    opts = dict(options) if options else dict(OPTIONS[variant % len(OPTIONS)])
    if variant % 3 and not options:
        opts["claims"] = "manual" if variant % 3 == 1 else "auto"
    return SPEC.rules(preset, opts)


def play_both(fast: Any, pure: DominoState, rng: random.Random, moves: int) -> None:
    """Up to ``moves`` moves of ``choose`` applied to both (Actions or ids), compared after each."""
    for k in range(moves):
        if pure.is_over():
            return
        seat, action = choose(pure, rng, rng.random())
        if rng.random() < 0.5:
            fast.apply(seat, action)
        else:
            fast.apply_action_id(seat, pure.action_id(action))
        pure.apply(seat, action)
        agree(fast, pure, deep=k % 11 == 0)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), variant=st.integers(0, 1000), seed=st.integers(0, 2**32),
       cut=st.integers(0, 400))
def test_native_and_pure_states_agree_move_for_move(case: tuple[str, int, dict[str, Any]], variant: int,
                                                     seed: int, cut: int) -> None:
    rules = rules_of(case, variant)
    n = case[1]
    fast, pure = both(rules, n, seed)
    agree(fast, pure)
    rng = random.Random(seed ^ variant)
    play_both(fast, pure, rng, cut)
    agree(fast, pure)
    # a copy goes its own way; the original is untouched
    twin_fast, twin_pure = fast.clone(), pure.clone()
    play_both(twin_fast, twin_pure, random.Random(variant), 15)
    agree(fast, pure)
    # undo: the same position again, and the same future deals
    made = len(pure.history)
    steps = min(made, variant % 5)
    fast.undo(steps)
    pure.undo(steps)
    agree(fast, pure)
    play_both(fast, pure, rng, 2000)
    agree(fast, pure)
    rec = to_record(fast)
    assert rec == to_record(pure)
    for choice in ("native", "pure"):
        with engine(choice):
            again = replay(rec)
        assert to_record(again) == rec and type(again) is (NativeDominoState if choice == "native" else DominoState)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), variant=st.integers(0, 1000), seed=st.integers(0, 2**32),
       cut=st.integers(0, 120), world=st.integers(0, 2**32))
def test_sampled_worlds_agree_and_play_on_alike(case: tuple[str, int, dict[str, Any]], variant: int, seed: int,
                                                 cut: int, world: int) -> None:
    rules = rules_of(case, variant)
    fast, pure = both(rules, case[1], seed)
    rng = random.Random(seed)
    play_both(fast, pure, rng, cut)
    if pure.is_over():
        return
    seat = min(pure.waiting_for())
    try:
        b = pure.sample_hidden(seat, random.Random(world))
    except RecordError as e:  # the reference finds no world here (some option families): neither does the native
        with pytest.raises(RecordError, match=str(e)):
            fast.sample_hidden(seat, random.Random(world))
        return
    a = fast.sample_hidden(seat, random.Random(world))
    assert type(a) is NativeDominoState
    agree(a, b)
    assert a.view(seat).to_json() == fast.view(seat).to_json()
    play_both(a, b, random.Random(world), 2000)  # the next hands dealt from the world's chance alike
    agree(a, b)


def test_a_recorded_game_replays_alike_on_both_backends() -> None:
    """A record written by the pure engine replays natively to the same record, and the reverse."""
    rules = SPEC.rules("muggins", {"claim_timing": "lenient"})
    for seed in range(6):
        fast, pure = both(rules, 2 + seed % 3, seed)
        play_both(fast, pure, random.Random(seed), 5000)
        for rec in (to_record(pure), to_record(fast)):
            with engine("native"):
                a = replay(rec)
            with engine("pure"):
                b = replay(rec)
            assert type(a) is NativeDominoState and to_record(a) == to_record(b) == rec
            agree(a, b)


def test_a_deal_is_drawn_from_the_chance_given() -> None:
    """Recorded outcomes are dealt as recorded; without a generator, running out of them is a
    RecordError, as on the pure engine."""
    rules = PRESETS["muggins"]
    fast, pure = both(rules, 2, 11)
    outcomes = pure.chance.outcomes[:pure.chance.position]
    with engine("native"):
        again = SPEC.new(rules, 2, chance=Chance(outcomes=outcomes))
    assert again.view(0).to_json() == pure.view(0).to_json() == fast.view(0).to_json()
    assert type(again) is NativeDominoState
    rng = random.Random(3)
    while again.hand_no == 1 and not again.is_over():
        seat = min(again.waiting_for())
        ids = again.legal_action_ids(seat)
        try:
            again.apply_action_id(seat, rng.choice(ids))
        except RecordError as e:  # the hand ended: the next deal is not recorded
            assert "no chance outcome" in str(e)
            return
    pytest.fail("the game went on with no deal recorded")


def test_bad_moves_are_refused_alike_and_change_nothing() -> None:
    rules = SPEC.rules("muggins", {"claims": "manual"})
    fast, pure = both(rules, 3, 5)
    rng = random.Random(5)
    refused = 0
    for _ in range(300):
        if pure.is_over():
            break
        seat = rng.randrange(3)
        i = rng.randrange(pure.num_distinct_actions())
        error = refusal(fast, seat, i)
        assert error is refusal(pure, seat, i)
        refused += error is not None
        agree(fast, pure, deep=False)
    assert refused > 100


def refusal(state: Any, seat: int, move: Any) -> type[IllegalAction] | None:
    """Apply ``move`` for ``seat`` (an id or an Action): the type of the refusal, or None when applied."""
    try:
        if type(move) is int:
            state.apply_action_id(seat, move)
        else:
            state.apply(seat, move)
    except IllegalAction as e:
        return type(e)
    return None


@pytest.mark.parametrize("case", CASES[::3], ids=lambda c: f"{c[0]}-{c[1]}-{sorted(c[2])}")
def test_offered_actions_are_shared_and_applied_as_offered(case: tuple[str, int, dict[str, Any]]) -> None:
    """The Actions a native state offers are the pure engine's, in its order, each made once and shared (the
    same objects again); applying the very object offered plays the move the pure engine plays, and an
    object offered before a move is judged afresh after it (refused alike when no longer legal)."""
    for variant in range(3):
        rules = rules_of(case, variant)
        fast, pure = both(rules, case[1], variant)
        rng = random.Random(variant)
        moves = stale_refused = 0
        while not pure.is_over() and moves < 400:
            seat = rng.choice(sorted(pure.to_act())) if rng.random() < 0.3 else min(pure.waiting_for())
            acts = fast.legal_actions(seat)
            assert acts == pure.legal_actions(seat)
            assert all(a is b for a, b in zip(acts, fast.legal_actions(seat), strict=True))
            if not acts:
                continue
            k = rng.randrange(len(acts))
            fast.apply(seat, acts[k])
            pure.apply(seat, pure.legal_actions(seat)[k])
            moves += 1
            agree(fast, pure, deep=moves % 37 == 0)
            old = acts[rng.randrange(len(acts))]  # offered before this move: judged afresh now
            if pure.is_over():
                break
            error = refusal(pure.clone(), seat, old)
            if error is None:
                fast.apply(seat, old)
                pure.apply(seat, old)
            else:
                with pytest.raises(error):
                    fast.apply(seat, old)
                stale_refused += 1
            agree(fast, pure, deep=False)
        assert moves > 20 and stale_refused > 0
        assert to_record(fast) == to_record(pure)


@pytest.mark.parametrize("options", [{}, {"first_lead": "lot_lightest"}, {"lot_tie": "high_end"},
                                     {"next_lead": "lowest_score"}, {"tile_set": 9}])
def test_fresh_deals_drawn_natively_record_the_pure_engines_outcomes(options: dict[str, Any]) -> None:
    """Lots and deals a native state draws from a seeded Chance are those the pure engine draws from the same
    seed, hand after hand (the same outcomes recorded, ties of the lots drawn again alike)."""
    rules = SPEC.rules("muggins", options)
    lots = 0
    for seed in range(8):
        fast, pure = both(rules, 2 + seed % 3, seed)
        rng = random.Random(seed)
        while not pure.is_over():
            seat = min(pure.waiting_for())
            i = rng.choice(pure.legal_action_ids(seat))
            fast.apply_action_id(seat, i)
            pure.apply_action_id(seat, i)
        assert fast.chance.outcomes == pure.chance.outcomes
        assert fast.hand_no == pure.hand_no > 1
        lots += sum(o["kind"] == "lot" for o in pure.chance.outcomes)
    assert lots > 8

