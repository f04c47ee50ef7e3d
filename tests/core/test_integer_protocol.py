"""The integer protocol (docs/actions.md): ``legal_action_ids`` lists the ids of ``legal_actions``,
ascending with the optional moves last; ``apply_action_id`` plays any id the mask sets exactly as ``apply``
plays its action, and refuses bad input with ``action_from_id``'s errors, the state unchanged. For every
game, preset, claim mode and player count."""

from __future__ import annotations

import random
from typing import Any

import pytest

from muggins.core import all_games, get_game
from muggins.core.errors import GameOver, IllegalAction, NoSuchSeat, UnknownAction
from muggins.core.records import to_record


def cases() -> list[tuple[str, str, str, int]]:
    out = []
    for name, spec in sorted(all_games().items()):
        for preset in spec.presets:
            for claims in (["manual", "auto"] if preset != "no-muggins" else ["auto"]):
                n = min(spec.players_for(spec.rules(preset, {"claims": claims})))
                out.append((name, preset, claims, n))
    return out


CASES = cases()


def new_state(game: str, preset: str, claims: str, players: int, seed: int) -> Any:
    spec = get_game(game)
    return spec.new(spec.rules(preset, {"claims": claims}), players, seed=seed)


def snapshot(state: Any) -> Any:
    return to_record(state), [e.to_dict() for e in state.log], state.side_scores()


@pytest.mark.parametrize(("game", "preset", "claims", "players"), CASES,
                         ids=[f"{g}:{p}:{c}:{n}" for g, p, c, n in CASES])
def test_ids_are_the_legal_actions_and_apply_as_they_do(game: str, preset: str, claims: str, players: int) -> None:
    state = new_state(game, preset, claims, players, seed=players + 5)
    twin = state.clone()
    rng = random.Random(len(preset))
    calls = 0
    for _ in range(120):
        if state.is_over():
            break
        muggins = state._action_space().by_kind.get("muggins")
        for seat in range(players):
            ids = state.legal_action_ids(seat)
            assert ids == sorted(state.action_id(a) for a in state.legal_actions(seat))
            assert ids == sorted(set(ids))
            if muggins is not None:  # the optional moves come last
                regular = [i for i in ids if i < muggins.start]
                assert ids[:len(regular)] == regular
        seat = rng.choice(sorted(state.to_act()))
        mask = state.legal_action_mask(seat)
        i = rng.choice([j for j, b in enumerate(mask) if b])  # any claim a legal move may carry
        action = state.action_from_id(seat, i)
        calls += action.kind in ("muggins", "claim")
        state.apply_action_id(seat, i)
        twin.apply(seat, action)
        assert snapshot(state) == snapshot(twin)
    if state.is_over():
        with pytest.raises(GameOver):
            state.apply_action_id(0, 0)
        assert state.legal_action_ids(0) == []


@pytest.mark.parametrize("game", sorted(all_games()))
def test_bad_ids_are_refused_and_change_nothing(game: str) -> None:
    spec = get_game(game)
    state = spec.new(spec.rules(spec.default_preset, {}), spec.default_players, seed=3)
    rng = random.Random(1)
    for _ in range(5):
        seat = min(state.waiting_for())
        state.apply_action_id(seat, rng.choice(state.legal_action_ids(seat)))
    seat = min(state.waiting_for())
    n = state.num_distinct_actions()
    before = snapshot(state)
    for bad in (True, 1.0, "3", None, -1, n):
        with pytest.raises(UnknownAction):
            state.apply_action_id(seat, bad)
    mask = state.legal_action_mask(seat)
    for i in [i for i in range(n) if not mask[i]][:: max(1, n // 40)]:
        with pytest.raises(IllegalAction) as by_id:
            state.action_from_id(seat, i)
        with pytest.raises(type(by_id.value)):
            state.apply_action_id(seat, i)
    for bad_seat in (True, -1, state.num_players, 0.0):
        with pytest.raises(NoSuchSeat):
            state.apply_action_id(bad_seat, 0)
        with pytest.raises(NoSuchSeat):
            state.legal_action_ids(bad_seat)
    assert snapshot(state) == before
