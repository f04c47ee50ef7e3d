"""The native-backed card states (cards/native_state.py) against the pure ones, move for move.

Lockstep: a pure state and a native-backed one start from the same seed (so the same Chance); a scripted player
(the conformance suite's: any seat that may act, true, under-, over- or no claims, muggins calls and late
claims) chooses from the pure state, and the same move goes to both. After every move the seats to act, every
seat's legal actions (in order) and legal ids, the scores and the event log (every field, secrets included)
must agree; every few moves every seat's view and events too; at the end the records, and a replay of the
native record, and what a sampled world, a clone, an undo and the integer protocol give. Every preset of both
games is played with every number of players it allows, in both claim modes, and the option variants of the
engines' differential tests.

Skips when the native modules are not built (fails instead under CI=true: tests/conftest.py).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from muggins._accel import load_native
from muggins.cards.cribbage.fast import NativeCribbageState
from muggins.cards.muggins31.fast import NativeCardMugginsState
from muggins.cards.native_state import NativeCardState
from muggins.core.chance import Chance
from muggins.core.engine import ENGINE_ENV
from muggins.core.errors import IllegalAction
from muggins.core.protocol import MUGGINS, Action
from muggins.core.records import replay, to_record
from muggins.core.rules import get_game, with_options
from tests.cards.test_cribbage_native_events import MANUAL_OPTIONS
from tests.cards.test_muggins31_native import OPTIONS
from tests.conformance.cases import choose

BUILT = all(load_native(m)[0] is not None for m in ("muggins.cards.muggins31.native", "muggins.cards.cribbage.native"))
pytestmark = pytest.mark.skipif(not BUILT, reason="the native card engines are not built")

NATIVE: dict[str, type[NativeCardState]] = {"card-muggins": NativeCardMugginsState, "cribbage": NativeCribbageState}


def _cases() -> list[tuple[str, str, dict[str, Any], int]]:
    """(game, preset, options, players): every preset in both claim modes with each number of players it
    allows, and the option variants."""
    out = []
    for game in NATIVE:
        spec = get_game(game)
        for preset in spec.presets:
            for claims in ("manual", "auto"):
                rules = with_options(spec.presets[preset], {"claims": claims})
                out += [(game, preset, {"claims": claims}, n) for n in spec.players_for(rules)]
    out += [("card-muggins", "muggins", o, n) for o in OPTIONS for n in (2, 3)]
    out += [("cribbage", "cribbage", {"claims": "manual", **o}, 2) for o in MANUAL_OPTIONS]
    return out


CASES = _cases()


def _pair(game: str, preset: str, options: dict[str, Any], n: int, seed: int) -> tuple[Any, Any]:
    spec = get_game(game)
    rules = with_options(spec.presets[preset], options)
    return spec.state_type.new(rules, n, Chance(seed)), NATIVE[game].new(rules, n, Chance(seed))


def _log(state: Any) -> list[dict[str, Any]]:
    return [e.to_dict("all") for e in state.log]


def _same_now(pure: Any, nat: Any, where: str) -> None:
    assert nat.is_over() == pure.is_over(), where
    assert nat.side_scores() == pure.side_scores(), where
    assert nat.scores() == pure.scores(), where
    assert nat.winners() == pure.winners(), where
    assert nat.to_act() == pure.to_act(), where
    assert nat.waiting_for() == pure.waiting_for(), where
    for s in range(pure.num_players):
        assert nat.legal_actions(s) == pure.legal_actions(s), f"{where}: seat {s}"
        assert nat.legal_action_ids(s) == pure.legal_action_ids(s), f"{where}: seat {s}"
        assert nat.muggable(s) == pure.muggable(s), f"{where}: seat {s}"
        for a in pure.legal_actions(s):
            assert nat.claim_for(s, a) == pure.claim_for(s, a), f"{where}: seat {s} {a}"
    assert nat.chance.position == pure.chance.position, where


def _same_seen(pure: Any, nat: Any, where: str) -> None:
    for s in (None, *range(pure.num_players)):
        assert nat.view(s).to_json() == pure.view(s).to_json(), f"{where}: view of {s}"
        assert nat.events_for(s) == pure.events_for(s), f"{where}: events of {s}"
    assert nat.inventory() == pure.inventory(), where


def lockstep(game: str, preset: str, options: dict[str, Any], n: int, seed: int, every: int = 7,
             limit: int = 400) -> tuple[Any, Any]:
    """Play one scripted game (at most ``limit`` moves) on both engines, checking as the module docstring says."""
    pure, nat = _pair(game, preset, options, n, seed)
    rng = random.Random(seed)
    where = f"{game}/{preset}/{options}/{n}p seed {seed}"
    _same_now(pure, nat, where)
    assert _log(nat) == _log(pure), where
    steps = 0
    while not pure.is_over() and steps < limit:
        seat, action = choose(pure, rng)
        seen = len(pure.log)
        pure.apply(seat, action)
        nat.apply(seat, action)
        steps += 1
        at = f"{where}, move {steps} ({seat}, {action})"
        _same_now(pure, nat, at)
        assert len(nat.log) == len(pure.log), at
        assert [e.to_dict("all") for e in nat.log[seen:]] == [e.to_dict("all") for e in pure.log[seen:]], at
        if steps % every == 0:
            _same_seen(pure, nat, at)
    assert _log(nat) == _log(pure), where
    _same_seen(pure, nat, where)
    assert nat.history == pure.history, where
    assert to_record(nat) == to_record(pure), where
    return pure, nat


@pytest.mark.parametrize(("game", "preset", "options", "n"), CASES,
                         ids=[f"{g}-{p}-{'-'.join(f'{k}={v}' for k, v in o.items())}-{n}p" for g, p, o, n in CASES])
def test_lockstep_every_case(game: str, preset: str, options: dict[str, Any], n: int) -> None:
    lockstep(game, preset, options, n, seed=n * 1000 + len(options))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32))
def test_lockstep_random_games(case: tuple[str, str, dict[str, Any], int], seed: int) -> None:
    lockstep(*case, seed=seed, every=50, limit=250)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32), cut=st.floats(0.1, 0.9))
def test_clone_undo_sample_and_records_mid_game(case: tuple[str, str, dict[str, Any], int], seed: int,
                                                cut: float) -> None:
    """Mid-game: a sampled world (the same draw), a clone played on apart, an undo, a record replayed, and
    the integer protocol all agree with the pure engine."""
    game, preset, options, n = case
    pure, nat = _pair(game, preset, options, n, seed)
    rng = random.Random(seed)
    moves = []
    while not pure.is_over():
        seat, action = choose(pure, rng)
        moves.append((seat, action))
        pure.apply(seat, action)
    stop = int(len(moves) * cut)
    pure, nat = _pair(game, preset, options, n, seed)
    for seat, action in moves[:stop]:
        pure.apply(seat, action)
        nat.apply(seat, action)
    seat = rng.randrange(n)
    w_pure, w_nat = pure.sample_hidden(seat, random.Random(seed)), nat.sample_hidden(seat, random.Random(seed))
    assert isinstance(w_nat, NATIVE[game])
    assert _log(w_nat) == _log(w_pure) and w_nat.inventory() == w_pure.inventory()
    assert to_record(w_nat) == to_record(w_pure)
    twin = nat.clone()
    for s, a in moves[stop:stop + 5]:  # the clone moves on; the original stays where it was
        twin.apply(s, a)
    _same_now(pure, nat, "after a clone moved on")
    assert _log(nat) == _log(pure)
    if stop:
        before = pure.clone()
        pure.undo(1)
        nat.undo(1)
        _same_now(pure, nat, "after an undo")
        assert _log(nat) == _log(pure)
        seat, action = moves[stop - 1]
        pure.apply(seat, action)
        nat.apply(seat, action)
        assert _log(nat) == _log(before)
    rec = to_record(nat)
    assert rec == to_record(pure)
    again = replay(rec)
    assert _log(again) == _log(pure) and again.history == pure.history
    if not pure.is_over():  # the integer protocol: a legal id of the seat to move, on both
        seat = sorted(pure.waiting_for())[0]
        i = pure.legal_action_ids(seat)[-1]
        pure.apply_action_id(seat, i)
        nat.apply_action_id(seat, i)
        _same_now(pure, nat, "after an id")
        assert _log(nat) == _log(pure)


@pytest.mark.parametrize("game", sorted(NATIVE))
def test_refusals_are_the_pure_engines_and_change_nothing(game: str) -> None:
    pure, nat = _pair(game, get_game(game).default_preset, {"claims": "manual"}, 2, 7)
    rng = random.Random(3)
    for _ in range(12):
        seat, action = choose(pure, rng)
        pure.apply(seat, action)
        nat.apply(seat, action)
    idle = next(s for s in range(2) if s not in pure.waiting_for()) if len(pure.waiting_for()) < 2 else None
    bad: list[tuple[Any, Any]] = [(5, pure.legal_actions(sorted(pure.waiting_for())[0])[0]), (0, "play"),
                                  (True, pure.legal_actions(sorted(pure.waiting_for())[0])[0])]
    if idle is not None:
        bad.append((idle, pure.legal_actions(sorted(pure.waiting_for())[0])[0]))
    mover = sorted(pure.waiting_for())[0]
    bad += [(mover, MUGGINS.with_claim(True)), (mover, pure.legal_actions(mover)[0].with_claim(True)),
            (mover, Action("play", [1, 2]))]  # True is no amount; a list is no card
    before = _log(nat), nat.history
    for seat, action in bad:
        with pytest.raises(IllegalAction) as p:
            pure.apply(seat, action)
        with pytest.raises(IllegalAction) as q:
            nat.apply(seat, action)
        assert type(q.value) is type(p.value) and str(q.value) == str(p.value)
    for seat, i in ((0, -1), (0, 10**9), (9, 0)):
        with pytest.raises(IllegalAction) as p:
            pure.apply_action_id(seat, i)
        with pytest.raises(IllegalAction) as q:
            nat.apply_action_id(seat, i)
        assert isinstance(q.value, type(p.value))
    assert (_log(nat), nat.history) == before
    _same_now(pure, nat, "after refusals")


@pytest.mark.parametrize("game", sorted(NATIVE))
def test_spec_new_gives_the_native_state_unless_told_pure(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = get_game(game)
    monkeypatch.setenv(ENGINE_ENV, "native")
    assert isinstance(spec.new(spec.rules(), 2, seed=1), NATIVE[game])
    monkeypatch.setenv(ENGINE_ENV, "pure")
    st_pure = spec.new(spec.rules(), 2, seed=1)
    assert type(st_pure) is spec.state_type
    monkeypatch.delenv(ENGINE_ENV)
    assert isinstance(spec.new(spec.rules(), 2, seed=1), NATIVE[game])
