"""Per-game judgement for the ``heuristic`` bot (and the greedy bot's tie-break).

A game names its module in its registry entry (``GameSpec.heuristics``, an import path); the module may
define

* ``choose(state, seat, actions, rng) -> Action`` - the heuristic move;
* ``shed_weight(state, seat, action) -> float`` - how much getting rid of the moved piece is worth
  (the greedy tie-break: heavy dominoes, high cards);
* ``search_override(state, seat, actions, rng) -> Action | None`` - a decision the search bot leaves to
  an exact calculation (the cribbage discard, valued over every starter), or None to search;
* ``LEVEL_SEARCH`` - per level, the search options it plays this game with beside its own
  (``registry.level_game_options``).

A game with no module plays the generic one-ply lookahead of :mod:`.generic`, written against the
protocol only, so a new game gets a heuristic bot for free.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType

from muggins.core.errors import RulesError
from muggins.core.protocol import Action, GameState
from muggins.core.rules import get_game, load_object

ChooseFn = Callable[[GameState, int, list[Action], random.Random], Action]
OverrideFn = Callable[[GameState, int, list[Action], random.Random], Action | None]
WeightFn = Callable[[GameState, int, Action], float]

_MODULES: dict[str, ModuleType] = {}  # by import path


def module_for(game: str) -> ModuleType | None:
    """The heuristics module ``game`` registers, or None when it registers none (or is not registered)."""
    try:
        path = get_game(game).heuristics
    except RulesError:
        return None
    if path is None:
        return None
    if path not in _MODULES:
        _MODULES[path] = load_object(path)
    return _MODULES[path]


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
