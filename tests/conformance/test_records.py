"""A game record replays to the same game: ``to_record`` -> ``replay`` gives the same state (all but the
chance's generator and undrawn future), the same events and the same views, through JSON too."""

from __future__ import annotations

import pytest

from muggins.core.protocol import GameState
from muggins.core.records import replay, to_record
from tests.conformance.cases import Case, differences, json_round_trip, params, positions, snapshot

SEED = 23


def assert_same_game(replayed: GameState, state: GameState, what: str) -> None:
    a, b = snapshot(state, full_chance=False), snapshot(replayed, full_chance=False)
    assert a == b, f"{what}: the replayed game differs in {differences(a, b)}"
    assert replayed.events_for(None) == state.events_for(None), what
    for seat in [None, *range(state.num_players)]:
        assert replayed.view(seat) == state.view(seat), f"{what}: view of seat {seat}"
        assert replayed.events_for(seat) == state.events_for(seat), f"{what}: events of seat {seat}"


@pytest.mark.parametrize("case", params())
def test_a_record_replays_to_the_same_game(case: Case) -> None:
    for k, state in enumerate(positions(case, SEED)):
        if k % 25 and not state.is_over():
            continue
        rec = to_record(state)
        assert_same_game(replay(rec), state, f"after {len(state.history)} actions")
        text = json_round_trip(rec)
        assert text == rec, "a record is not plain JSON"
        assert_same_game(replay(text), state, f"after {len(state.history)} actions, through JSON")
        assert rec["result"]["over"] == state.is_over()
