"""Count to 21, a game registered only in the tests (:func:`toy_registered`): it proves that adding a game
touches no consumer of the protocol."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from muggins.core.rules import REGISTRY, GameSpec, register, unregister
from tests.toy.state import DESCRIPTIONS, NAME, PRESETS, ToyRules, ToyState

__all__ = ["NAME", "SPEC", "ToyRules", "ToyState", "toy_registered"]

SPEC = GameSpec(name=NAME, title="Count to 21", state_type=ToyState, presets=PRESETS, default_preset="toy",
                min_players=2, max_players=3, descriptions=DESCRIPTIONS)


@contextmanager
def toy_registered() -> Iterator[GameSpec]:
    """Count to 21 in the registry for the duration (it is never registered outside the tests); a nested use
    leaves it registered until the outermost one ends."""
    already = REGISTRY.get(NAME) is SPEC
    register(SPEC)
    try:
        yield SPEC
    finally:
        if not already:
            unregister(NAME)
