"""Batched learning environments: ``muggins.rl.vector_env(game, preset, players, num_envs, opponents=..., seed=...)``.

A game that has one registers the import path of its batched environment class (``GameSpec.vector``): a
:class:`gymnasium.vector.VectorEnv` of ``num_envs`` games stepped together natively, whose actions are the
compact pairs of :mod:`muggins.rl.compact` (with "let it go" as the move head's last value) and whose
observations are ``{"observation", "action_mask"}`` as in the PettingZoo environment. Dominoes has one
(``muggins.dominoes.vector``, whose docstring says all: opponents, rewards, autoreset, seeds, threads).

``backend="python"`` (and every game that registers none) gets the same spaces from Python instead: a
``gymnasium.vector.SyncVectorEnv`` of :class:`CompactGymEnv`, one :func:`muggins.rl.gym_env` each (any bot
of the registry as opponents, the deals of ``spec.new``, one learning seat), about a thousand times slower.
See docs/rl.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, SyncVectorEnv

from muggins.core.errors import ClaimError, RulesError, UnknownAction, shown
from muggins.core.rules import default_game, get_game, load_object
from muggins.rl.compact import compact_actions_of
from muggins.rl.gymnasium_env import MugginsGymEnv

__all__ = ["CompactGymEnv", "SeededSyncVectorEnv", "vector_env"]

BACKENDS = ("auto", "native", "python")
AUTORESET = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP}


def vector_env(game: str | None = None, preset: str | None = None, players: int | None = None,
               num_envs: int = 8, opponents: str | Sequence[str] | None = "random", seed: int | None = None,
               backend: str = "auto", **kwargs: Any) -> Any:
    """``num_envs`` games of ``game`` (the registry's default when None) as one Gymnasium vector
    environment: ``opponents`` a bot name for every other seat, one per other seat, or None for every seat
    learning; ``seed`` used by the first ``reset``. Other keyword arguments are the environment class's
    (``seat``, ``reward``, ``threads``, ``autoreset``, ``illegal_reward``, ``copy``) and the game's rule
    options. ``backend``: "native" (the game's registered batched environment; NotImplementedError for a
    game without), "python" (see the module docstring) or "auto" (native where the game has it)."""
    if backend not in BACKENDS:
        raise RulesError(f"backend is one of {', '.join(BACKENDS)}; got {shown(backend)}")
    spec = get_game(game) if game is not None else default_game()
    path = getattr(spec, "vector", None)
    if backend == "python" or (backend == "auto" and path is None):
        return _python_vector(spec.name, preset, players, num_envs, opponents, seed, **kwargs)
    if path is None:
        raise NotImplementedError(f"{spec.title} has no native batched environment; use backend='python'")
    cls = load_object(path)
    return cls(preset=preset, players=players, num_envs=num_envs, opponents=opponents, seed=seed, **kwargs)


def _python_vector(game: str, preset: str | None, players: int | None, num_envs: int,
                   opponents: str | Sequence[str] | None, seed: int | None, seat: int = 0,
                   reward: str = "points", autoreset: str = "next_step", illegal_reward: float = -1.0,
                   copy: bool = True, **options: Any) -> SeededSyncVectorEnv:
    from muggins.rl.gymnasium_env import gym_env

    if opponents is None:
        raise NotImplementedError("every seat learning needs a native batched environment")
    if type(num_envs) is not int or num_envs < 1:
        raise RulesError(f"num_envs is a whole number above 0; got {shown(num_envs)}")
    if autoreset not in AUTORESET:
        raise RulesError(f"autoreset is 'next_step' or 'same_step'; got {shown(autoreset)}")

    def make() -> CompactGymEnv:
        return CompactGymEnv(gym_env(game, preset, players, seat=seat, opponents=opponents, reward=reward,
                                     illegal_reward=illegal_reward, **options))

    make()  # bad arguments fail here, once, with the environment's own error
    return SeededSyncVectorEnv([make] * num_envs, seed, copy=copy, autoreset_mode=AUTORESET[autoreset])


class SeededSyncVectorEnv(SyncVectorEnv):
    """Gymnasium's ``SyncVectorEnv`` whose first ``reset`` without a seed uses the one it was made with."""

    def __init__(self, env_fns: Sequence[Callable[[], gymnasium.Env[Any, Any]]], seed: int | None,
                 **kwargs: Any) -> None:
        super().__init__(env_fns, **kwargs)
        self._first_seed = seed

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        if seed is None:
            seed = self._first_seed
        self._first_seed = None
        return super().reset(seed=seed, options=options)


class CompactGymEnv(gymnasium.Wrapper[dict[str, Any], np.ndarray, dict[str, Any], np.int64]):
    """A :class:`~muggins.rl.gymnasium_env.MugginsGymEnv` spoken to in the compact action space: actions
    ``(move, amount)`` with "let it go" the last move, the observation's mask over the moves. An amount that
    does not go with its move (a late claim naming nothing) ends the episode as an illegal action does."""

    def __init__(self, env: MugginsGymEnv) -> None:
        super().__init__(env)  # type: ignore[arg-type]  # Wrapper.__init__ is typed with the outer spaces
        self.illegal_reward = env.illegal_reward
        c = self.compact = compact_actions_of(env.game_state)
        self.let_go_id = env.aec.let_go
        self.observation_space = spaces.Dict({
            "observation": env.aec.observation_space(env.agent)["observation"],
            "action_mask": spaces.Box(0, 1, (c.moves + 1,), np.int8)})
        self.action_space = spaces.MultiDiscrete([c.moves + 1, c.amounts])
        self._last: dict[str, Any] = {}

    def _convert(self, obs: dict[str, Any]) -> dict[str, Any]:
        mask = np.zeros(self.compact.moves + 1, np.int8)
        for i in np.flatnonzero(obs["action_mask"]).tolist():
            mask[-1 if i == self.let_go_id else self.compact.pair(i)[0]] = 1
        self._last = {"observation": obs["observation"], "action_mask": mask}
        return self._last

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        return self._convert(obs), info

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        c = self.compact
        move, amount = int(action[0]), int(action[1])
        if move == c.moves:
            i = self.let_go_id
        else:
            try:
                announces = 0 <= move < c.moves and len(c.amount_codes(move)) > 1
                i = c.id(move, amount if announces else 0)  # a move that announces nothing ignores it
            except (ClaimError, UnknownAction) as e:
                if self.illegal_reward is None:
                    raise
                return self._last, float(self.illegal_reward), True, False, {"illegal_action": str(e)}
        obs, reward, term, trunc, info = self.env.step(np.int64(i))  # type: ignore[arg-type]  # (the same)
        return self._convert(obs), float(reward), term, trunc, info
