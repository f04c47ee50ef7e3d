"""A false Muggins! call under ``false_call_penalty=award`` gives the accused what the caller named, at most
what the called step could have been worth: ``rules.max_points_of(reason)``, the most one step of that kind
scores in the game (a domino play, a card in the play, a go, a hand ...), never the game's largest step."""

from __future__ import annotations

import random
from typing import Any

import pytest

from muggins._accel import load_native
from muggins.core.protocol import Action, GameState
from muggins.core.rules import all_games, get_game, with_options
from tests.conformance.cases import sorted_legal


def _false_call_window(game: str, preset: str, players: int, seed: int, **options: Any) -> tuple[GameState, int]:
    """A position of a scripted game where a window is open on a step claimed in full (nothing missed) and
    a seat of another side may call: the game and that seat."""
    spec = get_game(game)
    rules = with_options(spec.presets[preset], {"claims": "manual", "false_call_penalty": "award", **options})
    state = spec.new(rules, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(2000):
        assert not state.is_over(), "no window with nothing missed was found"
        if state._window is not None and state._window.missed == 0:
            caller = next((s for s in range(players) if any(a.kind == "muggins" for a in state.legal_actions(s))),
                          None)
            if caller is not None:
                return state, caller
        seat = min(state.waiting_for())
        action = rng.choice([a for a in sorted_legal(state, seat) if a.kind not in ("muggins", "claim")])
        points = state.claim_for(seat, action)
        state.apply(seat, action.with_claim(points) if points else action)
    raise AssertionError("no window with nothing missed was found")


def _award_of(state: GameState, caller: int, named: int | None) -> int:
    """What the accused side gains from a call by ``caller`` naming ``named``."""
    w = state._window
    assert w is not None
    side = w.scorer_side
    before = state.side_scores()[side]
    state.apply(caller, Action("muggins", claim=named))
    assert any(e.kind == "muggins" and e.data["outcome"] == "false_call" for e in state.log[-3:])
    return state.side_scores()[side] - before


def test_a_false_call_naming_100_at_a_three_player_table_to_100_does_not_hand_over_the_game() -> None:
    state, caller = _false_call_window("dominoes", "muggins", 3, 5, target=100)
    w = state._window
    assert w is not None and w.reason == "play"
    cap = state.rules.max_points_of("play")
    assert cap == 20 < state.rules.max_step_points == 218  # the most a line play scores; the old bound
    before = state.side_scores()[w.scorer_side]
    assert _award_of(state, caller, 100) == cap
    assert not state.is_over() and state.side_scores()[w.scorer_side] == before + 20 < 100


@pytest.mark.parametrize(("game", "preset", "players"), [
    ("dominoes", "muggins", 3), ("dominoes", "five-up", 2), ("dominoes", "fives-and-threes", 2),
    ("card-muggins", "muggins", 2), ("card-muggins", "strict-21", 3), ("cribbage", "cribbage", 2),
    ("cribbage", "three-hand", 3),
])
def test_the_award_is_capped_by_what_the_called_step_could_be_worth(game: str, preset: str, players: int) -> None:
    state, caller = _false_call_window(game, preset, players, 11, target=1000)
    w = state._window
    assert w is not None
    cap = state.rules.max_points_of(w.reason)
    top = state.max_step_points()
    assert 0 < cap <= top
    for named, want in ((top, cap), (cap, cap), (1, 1), (None, min(state.rules.false_call_points, cap))):
        assert _award_of(state.clone(), caller, named) == want, (w.reason, named)


def test_every_game_bounds_each_step_kind_by_its_largest_step() -> None:
    for name, spec in all_games().items():
        for preset, rules in spec.presets.items():
            for reason in ("play", "go", "last", "his heels", "hand", "crib", "domino"):
                assert 0 < rules.max_points_of(reason) <= rules.max_step_points, (name, preset, reason)


def test_the_native_domino_engine_caps_the_award_alike() -> None:
    native, why = load_native("muggins.dominoes.native")
    if native is None:
        pytest.skip(f"the native domino engine is not usable: {why}")
    from muggins.dominoes.fast import NativeDominoState

    state, caller = _false_call_window("dominoes", "muggins", 3, 5, target=100)
    fast = NativeDominoState.from_pure(state)
    fast.apply(caller, Action("muggins", claim=100))
    state.apply(caller, Action("muggins", claim=100))
    assert fast.side_scores() == state.side_scores()


def test_the_native_cribbage_engine_caps_the_award_alike() -> None:
    native, why = load_native("muggins.cards.cribbage.native")
    if native is None:
        pytest.skip(f"the native cribbage engine is not usable: {why}")
    state, caller = _false_call_window("cribbage", "cribbage", 2, 11, target=1000)
    nat = native.NativeCribbage.from_state(state)
    call = Action("muggins", claim=29)
    nat.apply_id(caller, state.action_id(call))
    state.apply(caller, call)
    assert list(nat.side_scores()) == state.side_scores()


def test_muggins_rules_says_what_a_false_call_under_award_is_worth() -> None:
    from typer.testing import CliRunner

    from muggins.cli.main import app

    res = CliRunner().invoke(app, ["rules", "--game", "dominoes"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    text = " ".join(res.stdout.split())  # the note after the table, unwrapped (its first column is blank after)
    assert "false_call_penalty a call when nothing was missed" in text
    assert "award gives the accused what the caller named" in text
    assert "at most what the called step could have been worth" in text
