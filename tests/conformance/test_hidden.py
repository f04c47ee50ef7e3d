"""Sampling the hidden information: ``sample_hidden(seat, rng)`` is a full, playable state that the seat
cannot tell from the true one. Its view and events for the seat (and the spectator's view) are the true
ones, every piece is still there, the seat's own hand is unchanged, and its legal actions apply. Over a
game the samples do move hidden pieces (a sampler that returned the truth would leak it to a bot)."""

from __future__ import annotations

import random

import pytest

from tests.conformance.cases import HAND_PREFIX, Case, params, pieces, play, positions, with_amount

SEED = 43


@pytest.mark.parametrize("case", params())
def test_sample_hidden_is_consistent_with_the_seat_view_and_playable(case: Case) -> None:
    rng = random.Random(SEED)
    moved = 0
    hidden = False  # whether the game hides anything from a seat (another seat's hand)
    for k, state in enumerate(positions(case, SEED)):
        if k % 7 or state.is_over():
            continue
        full = pieces(state)
        truth = state.inventory()
        for seat in range(state.num_players):
            sample = state.sample_hidden(seat, random.Random(rng.random()))
            where = f"seat {seat} after {len(state.history)} actions"
            assert sample.view(seat) == state.view(seat), f"{where}: the sample's view differs"
            assert sample.view(None) == state.view(None), f"{where}: the sample's spectator view differs"
            assert sample.events_for(seat) == state.events_for(seat), f"{where}: the sample's events differ"
            inv = sample.inventory()
            assert pieces(sample) == full, f"{where}: the sample lost or made up pieces"
            own = f"{HAND_PREFIX}{seat}"
            assert sorted(inv.get(own, [])) == sorted(truth.get(own, [])), \
                f"{where}: the sample changed the seat's own hand"
            moved += any(sorted(inv[name]) != sorted(truth[name]) for name in truth)
            hidden = hidden or any(name.startswith(HAND_PREFIX) and name != own for name in truth)
            for s in sorted(sample.to_act()):
                for action in sample.legal_actions(s):
                    child = sample.clone()
                    child.apply(s, with_amount(child, s, action, rng))
        if k % 21 == 0:
            play(state.sample_hidden(0, random.Random(k)), random.Random(k))
    assert moved or not hidden, "no sample ever moved a hidden piece"
