"""Per-game judgement for the ``heuristic`` bot (and the greedy bot's tie-break).

A game's module is ``muggins.bots.heuristics.<game>`` (hyphens become underscores) and may define

* ``choose(state, seat, actions, rng) -> Action`` - the heuristic move;
* ``shed_weight(state, seat, action) -> float`` - how much getting rid of the moved piece is worth
  (the greedy tie-break: heavy dominoes, high cards);
* ``search_override(state, seat, actions, rng) -> Action | None`` - a decision the search bot leaves to
  an exact calculation (the cribbage discard, valued over every starter), or None to search.

A game with no module plays the generic one-ply lookahead of :mod:`.generic`, written against the
protocol only, so a new game gets a heuristic bot for free.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from types import ModuleType

from muggins.core.protocol import Action, GameState

ChooseFn = Callable[[GameState, int, list[Action], random.Random], Action]
OverrideFn = Callable[[GameState, int, list[Action], random.Random], Action | None]
WeightFn = Callable[[GameState, int, Action], float]

_MODULES: dict[str, ModuleType | None] = {}


def module_for(game: str) -> ModuleType | None:
    """The heuristics module of ``game``, or None when the game has none."""
    if game not in _MODULES:
        name = f"{__name__}.{game.replace('-', '_')}"
        try:
            _MODULES[game] = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:
                raise
            _MODULES[game] = None
    return _MODULES[game]


def choose_fn(game: str) -> ChooseFn:
    mod = module_for(game)
    fn = getattr(mod, "choose", None) if mod is not None else None
    if fn is None:
        from muggins.bots.heuristics.generic import choose

        return choose
    return fn  # type: ignore[no-any-return]


def shed_weight_fn(game: str) -> WeightFn | None:
    mod = module_for(game)
    return getattr(mod, "shed_weight", None) if mod is not None else None


def search_override_fn(game: str) -> OverrideFn | None:
    mod = module_for(game)
    return getattr(mod, "search_override", None) if mod is not None else None
