"""One seat of any registered game as a Gymnasium environment, the other seats played by bots:
``muggins.rl.gym_env(game=None, preset=None, players=None, seat=0, opponents="greedy", reward="points")``.

It drives :class:`muggins.rl.pettingzoo_env.MugginsAECEnv` (see its docstring for the observation, the
action ids with the extra "let it go", the muggins window and the rewards) and plays every other seat with
:func:`muggins.bots.make_bot` (``opponents``: one bot name or level for all, or a list, one per other seat in
seat order). ``step`` returns once it is the learner's turn again or the game is over, so the reward is the
change in the learner's side's score since its last action (``reward="points"``) or, at the end, +1 / -1 /
0 (``reward="win"``). The observation is the same dict, ``{"observation", "action_mask"}``.

**Illegal actions** follow Gymnasium's usual convention by default: an id outside the mask ends the
episode (``terminated=True``) with ``illegal_reward`` (-1) and ``info["illegal_action"]`` holding the
engine's reason; the game itself is left unchanged. With ``illegal_reward=None`` the step raises
:class:`~muggins.core.errors.IllegalAction` instead. There is no truncation unless ``max_steps`` is given.

``reset(seed=s)`` plays the deal of ``spec.new(rules, n, seed=s)`` and seeds the bots from ``s`` too, so a
seeded episode replays exactly. Other keyword arguments are the game's rule options.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from muggins.bots.registry import make_bot
from muggins.core.errors import IllegalAction, RulesError, shown
from muggins.rl.pettingzoo_env import MugginsAECEnv

__all__ = ["MugginsGymEnv", "gym_env"]


class MugginsGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """See the module docstring."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: str | None = None, preset: str | None = None, players: int | None = None,
                 seat: int = 0, opponents: str | Sequence[str] = "greedy", reward: str = "points",
                 render_mode: str | None = None, max_steps: int | None = None,
                 illegal_reward: float | None = -1.0, **options: Any) -> None:
        self.aec = MugginsAECEnv(game=game, preset=preset, players=players, reward=reward,
                                 render_mode=render_mode, max_steps=max_steps, **options)
        n = self.aec.num_players
        if type(seat) is not int or not 0 <= seat < n:
            raise RulesError(f"seat is a whole number from 0 to {n - 1}; got {shown(seat)}")
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1 or not all(isinstance(x, str) for x in names):
            raise RulesError(f"opponents is one bot name, or a list of {n - 1} (one per other seat); "
                             f"got {shown(opponents)}")
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        self.opponent_names = names
        others = [s for s in range(n) if s != seat]
        self.bots = {s: make_bot(name) for s, name in zip(others, names, strict=True)}
        self._bot_rngs = {s: random.Random(s) for s in others}
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self._done = True

    @property
    def game_state(self) -> Any:
        """The engine's state of the game being played."""
        return self.aec.game_state

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(2**63 - 1))
        self.aec.reset(seed=game_seed)
        self._bot_rngs = {s: random.Random(f"{game_seed}:{s}") for s in self.bots}
        self._done = False
        self._play_bots()
        aec = self.aec
        return aec.observe(self.agent), dict(aec.infos.get(self.agent, {}))

    def _play_bots(self) -> None:
        """Let the bots act until the learner is to act or the game is over."""
        aec = self.aec
        while not (aec.terminations[self.agent] or aec.truncations[self.agent]):
            seat = aec._seat[aec.agent_selection]
            if seat == self.seat:
                return
            bot = self.bots[seat]
            action = bot.act(aec.game_state, seat, self._bot_rngs[seat])
            if action is None:
                aec.let_it_go(seat)
            else:
                aec.apply_action(seat, action)
            aec._cumulative_rewards[aec.agent_selection] = 0.0
            aec._after_action()

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self._done:
            raise IllegalAction("the episode is over: call reset() first")
        aec = self.aec
        try:
            aec.apply_id(self.seat, action)
        except IllegalAction as e:
            if self.illegal_reward is None:
                raise
            self._done = True
            info = {"illegal_action": str(e)}
            return aec.observe(self.agent), float(self.illegal_reward), True, False, info
        aec._cumulative_rewards[self.agent] = 0.0
        aec._after_action()
        self._play_bots()
        terminated = aec.terminations[self.agent]
        truncated = aec.truncations[self.agent]
        self._done = terminated or truncated
        reward = float(aec._cumulative_rewards[self.agent])
        return aec.observe(self.agent), reward, terminated, truncated, dict(aec.infos.get(self.agent, {}))

    def action_masks(self) -> np.ndarray:
        """The learner's mask now, as bools (the name sb3-contrib's maskable algorithms look for)."""
        return self.aec.action_mask(self.agent).astype(bool)

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


def gym_env(game: str | None = None, preset: str | None = None, players: int | None = None, seat: int = 0,
            opponents: str | Sequence[str] = "greedy", reward: str = "points", **kwargs: Any) -> MugginsGymEnv:
    """A :class:`MugginsGymEnv` (see the module docstring)."""
    return MugginsGymEnv(game=game, preset=preset, players=players, seat=seat, opponents=opponents,
                         reward=reward, **kwargs)
