"""Batched learning environments: ``muggins.rl.vector_env(game, preset, players, num_envs, opponents=..., seed=...)``.

A game that has one registers the import path of its batched environment class (``GameSpec.vector``): a
:class:`gymnasium.vector.VectorEnv` of ``num_envs`` games stepped together natively, whose actions are the
compact pairs of :mod:`muggins.rl.compact` (with "let it go" as the move head's last value) and whose
observations are ``{"observation", "action_mask"}`` as in the PettingZoo environment. Dominoes has one
(``muggins.dominoes.vector``, whose docstring says all: opponents, rewards, autoreset, seeds, threads); for
a game without, wrap :func:`muggins.rl.gym_env` in ``gymnasium.vector.SyncVectorEnv``. See docs/rl.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from muggins.core.rules import default_game, get_game, load_object

__all__ = ["vector_env"]


def vector_env(game: str | None = None, preset: str | None = None, players: int | None = None,
               num_envs: int = 8, opponents: str | Sequence[str] | None = "random", seed: int | None = None,
               **kwargs: Any) -> Any:
    """``num_envs`` games of ``game`` (the registry's default when None) as one Gymnasium vector
    environment: ``opponents`` a bot name for every other seat, one per other seat, or None for every seat
    learning; ``seed`` used by the first ``reset``. Other keyword arguments are the environment class's
    (``seat``, ``reward``, ``threads``, ``autoreset``, ``illegal_reward``, ``copy``) and the game's rule
    options. NotImplementedError for a game that registers no batched environment."""
    spec = get_game(game) if game is not None else default_game()
    path = getattr(spec, "vector", None)
    if path is None:
        raise NotImplementedError(f"{spec.title} has no batched environment; wrap muggins.rl.gym_env in "
                                  "gymnasium.vector.SyncVectorEnv")
    cls = load_object(path)
    return cls(preset=preset, players=players, num_envs=num_envs, opponents=opponents, seed=seed, **kwargs)
