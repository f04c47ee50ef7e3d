"""Reinforcement-learning adapters: what a learning library needs of a game, as numpy arrays.

:mod:`muggins.rl.observation` encodes a seat's view as a flat float32 vector (each game registers its own
encoder in its :class:`~muggins.core.rules.GameSpec`; a game that registers none gets the generic one).
:mod:`muggins.rl.compact` splits an action id into a move and the amount it announces, and
:mod:`muggins.rl.vector` steps many domino games at once in C. The environments of PettingZoo, Gymnasium and
OpenSpiel are built on it and need their extras installed
(``pip install muggins[rl]``, ``muggins[openspiel]``)."""

from __future__ import annotations

from typing import Any

__all__ = ["compact_actions", "env", "gym_env", "raw_env", "vector_env"]

_LAZY = {"env": "muggins.rl.pettingzoo_env", "raw_env": "muggins.rl.pettingzoo_env",
         "gym_env": "muggins.rl.gymnasium_env", "vector_env": "muggins.rl.vector",
         "compact_actions": "muggins.rl.compact"}


def __getattr__(name: str) -> Any:
    """``env``, ``raw_env``, ``gym_env``, ``vector_env`` and ``compact_actions``, imported on first use:
    importing :mod:`muggins.rl` needs neither pettingzoo nor gymnasium."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
