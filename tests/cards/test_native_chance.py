"""The native card engines draw from the chance's own generator (core/pyrandom.pxd, Python's Mersenne Twister in
C): the same deals and cuts as the pure engine from the same seed, the generator handed back in the state Python
would have left it, a new game from a fresh seed started in C (its pure start rebuilt on demand), and recorded
outcomes still read before any are drawn.

Skips when the native modules are not built (fails instead under CI=true: tests/conftest.py).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from muggins._accel import load_native
from muggins.cards.cribbage.fast import NativeCribbageState
from muggins.cards.cribbage.game import CribbageState
from muggins.cards.muggins31.fast import NativeCardMugginsState
from muggins.cards.muggins31.state import CardMugginsState
from muggins.core.chance import Chance
from muggins.core.rules import get_game, with_options

BUILT = all(load_native(m)[0] is not None for m in ("muggins.cards.muggins31.native", "muggins.cards.cribbage.native"))
pytestmark = pytest.mark.skipif(not BUILT, reason="the native card engines are not built")

SEEDS = (0, 1, 7, 2**32 - 1, 2**32, 2**64 + 12345, -5, 10**40)
GAMES = (("cribbage", NativeCribbageState, CribbageState), ("card-muggins", NativeCardMugginsState, CardMugginsState))


def _play(state: Any, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        if state.is_over():
            return
        seat = min(state.waiting_for())
        state.apply_action_id(seat, rng.choice(state.legal_action_ids(seat)))


@pytest.mark.parametrize(("game", "native", "pure"), GAMES, ids=[g[0] for g in GAMES])
@pytest.mark.parametrize("seed", SEEDS)
def test_fresh_seed_deals_and_generator_match_python(game: str, native: Any, pure: Any, seed: int) -> None:
    """Every outcome of a whole game, and the generator's state at the end, are Python's."""
    spec = get_game(game)
    for preset in spec.presets:
        rules = with_options(spec.presets[preset], {"claims": "auto"})
        n = spec.players_for(rules)[-1]
        nat, ref = native.new(rules, n, Chance(seed)), pure.new(rules, n, Chance(seed))
        assert nat.native.num_drawn() >= 2  # the cut for the deal and the first deal came from C
        _play(nat, random.Random(seed), 400)
        _play(ref, random.Random(seed), 400)
        assert nat.history == ref.history, preset
        assert [e.to_dict("all") for e in nat.log] == [e.to_dict("all") for e in ref.log], preset
        ch = nat.chance
        assert ch.outcomes == ref.chance.outcomes and ch.position == ref.chance.position, preset
        assert ch.rng.getstate() == ref.chance.rng.getstate(), preset
        assert not nat.native.holds_rng()


@pytest.mark.parametrize(("game", "native", "pure"), GAMES, ids=[g[0] for g in GAMES])
def test_generator_given_back_and_a_shared_one_drawn_in_python(game: str, native: Any, pure: Any) -> None:
    """Reading the chance mid-game hands the generator back (a draw from it then moves both engines' next deal
    alike); a generator given to the chance, which its owner may draw from between two deals, is drawn in
    Python: the same deals as the pure engine's."""
    spec = get_game(game)
    rules = with_options(spec.rules(), {"claims": "auto"})
    nat, ref = native.new(rules, 2, Chance(99)), pure.new(rules, 2, Chance(99))
    rng_n, rng_r = random.Random(3), random.Random(3)
    for step in range(6):
        _play(nat, rng_n, 15)
        _play(ref, rng_r, 15)
        nat.chance.rng.random()  # someone draws from the chance itself
        ref.chance.rng.random()
        assert nat.chance.outcomes == ref.chance.outcomes, step
    assert nat.history == ref.history
    shared_n, shared_r = random.Random(42), random.Random(42)
    nat = native.new(rules, 2, Chance(rng=shared_n))
    ref = pure.new(rules, 2, Chance(rng=shared_r))
    for _ in range(8):
        _play(nat, rng_n, 12)
        _play(ref, rng_r, 12)
        shared_n.random()  # the owner draws between deals
        shared_r.random()
    assert nat.history == ref.history and nat.chance.outcomes == ref.chance.outcomes


@pytest.mark.parametrize(("game", "native", "pure"), GAMES, ids=[g[0] for g in GAMES])
def test_recorded_outcomes_are_read_then_drawn(game: str, native: Any, pure: Any) -> None:
    """A chance with outcomes recorded ahead (a rewound one) is read in Python, then drawn on from its
    generator: the same game as the pure engine's."""
    spec = get_game(game)
    rules = with_options(spec.rules(), {"claims": "auto"})
    ref = pure.new(rules, 2, Chance(11))
    _play(ref, random.Random(5), 30)
    nat = native.new(rules, 2, ref.chance.rewound())
    assert nat.native.num_drawn() == 0  # its start came from the record
    again = pure.new(rules, 2, ref.chance.rewound())
    _play(nat, random.Random(5), 300)
    _play(again, random.Random(5), 300)
    assert nat.history == again.history
    assert nat.chance.outcomes == again.chance.outcomes
