"""What the tests of the batched environments share: random legal actions, a recorded run, determinism by
seed and threads, and one game of a vector as a plain Gymnasium environment for ``check_env``."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import data_equivalence

from muggins.rl import vector_env


def legal_rows(obs: dict[str, Any], rng: np.random.Generator, env: Any) -> Any:
    """A random legal (move, amount) per game: a move of the mask and an amount, half the time small (0
    says nothing), else any (a late claim names its points: 1 or more; a move that announces nothing
    ignores it)."""
    mask = obs["action_mask"]
    moves = (rng.random(mask.shape) * mask).argmax(1)
    c = env.compact
    if c.amounts == 1:
        return np.stack([moves, np.zeros(len(moves), np.int64)], 1)
    amount = rng.integers(0, c.amounts, size=len(moves))
    low = rng.random(len(moves)) < 0.5
    amount[low] = rng.integers(0, 3, size=int(low.sum()))
    amount[(moves == c.move_start("claim")) & (amount == 0)] = 1
    return np.stack([moves, amount], 1)


def run(env: Any, seed: int, steps: int) -> list[Any]:
    """Everything ``env`` returns over ``steps`` random legal steps after ``reset(seed=seed)``."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = [obs, info]
    for _ in range(steps):
        obs, rew, term, trunc, info = env.step(legal_rows(obs, rng, env))
        out += [obs, rew, term, trunc, info]
    return out


def check_determinism(game: str, preset: str, players: int, opponents: str | None,
                      two: tuple[str, int] = ("muggins", 2)) -> None:
    """A seed replays a run exactly, on one thread or two; another seed deals otherwise; ``reset(seed=)``
    deals again what the constructor's seed dealt (in a game of preset and players ``two``), and a list of
    seeds (one per game) replays too."""
    a = run(vector_env(game, preset, players, num_envs=5, opponents=opponents), 11, 300)
    b = run(vector_env(game, preset, players, num_envs=5, opponents=opponents, threads=2), 11, 300)
    c = run(vector_env(game, preset, players, num_envs=5, opponents=opponents), 12, 300)
    assert data_equivalence(a, b, exact=True)
    assert not data_equivalence(a[:1], c[:1])
    env = vector_env(game, *two, num_envs=4, seed=3)
    first, _ = env.reset()
    env.step(legal_rows(first, np.random.default_rng(0), env))
    again, _ = env.reset(seed=3)
    assert data_equivalence(first, again, exact=True)
    listed, _ = env.reset(seed=[1, 2, 3, 4])
    assert data_equivalence(listed, env.reset(seed=[1, 2, 3, 4])[0], exact=True)


class OneGame(gymnasium.Env):  # type: ignore[misc]
    """One game of a vector (2-player ``preset`` of ``game`` against ``greedy``) as a plain Gymnasium
    environment, for ``check_env``."""

    def __init__(self, game: str, preset: str = "muggins") -> None:
        self.vec = vector_env(game, preset, 2, num_envs=1, opponents="greedy")
        self.observation_space = self.vec.single_observation_space
        self.action_space = self.vec.single_action_space

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        super().reset(seed=seed)
        obs, _ = self.vec.reset(seed=seed if seed is not None else int(self.np_random.integers(2**31)))
        return {k: v[0] for k, v in obs.items()}, {}

    def step(self, action: Any) -> Any:
        obs, rew, term, trunc, _ = self.vec.step(np.asarray(action).reshape(1, 2))
        return {k: v[0] for k, v in obs.items()}, float(rew[0]), bool(term[0]), bool(trunc[0]), {}
