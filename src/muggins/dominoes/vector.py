"""The batched domino environment behind ``muggins.rl.vector_env("dominoes", ...)``.

A :class:`gymnasium.vector.VectorEnv` of ``num_envs`` domino games stepped together in C
(:mod:`muggins.dominoes.vector_native`), for the presets the native engine plays (``muggins.dominoes.native
.unsupported`` says which do not). See docs/rl.md, "The batched environment".

* **Actions** are the compact pairs of :mod:`muggins.rl.compact`, one row ``(move, amount)`` per game:
  ``MultiDiscrete([moves + 1, amounts])``; the move head's last value is "let it go" (decline to call or claim
  late on an open muggins window, as in the PettingZoo environment). The amount is read for a play (0 says
  nothing, ``c + 1`` announces ``c``), a muggins call (0 names no amount) and a late claim (1 or more);
  other moves ignore it.
* **Observations** are a dict of batched arrays: ``"observation"`` (``num_envs`` x the encoder's size,
  float32, the PettingZoo environment's vector) and ``"action_mask"`` (``num_envs`` x ``moves + 1``, int8:
  the moves the seat to act may make). The masks are in the observation, not in ``infos``.
* **Opponents** (``opponents="random"``, ``"greedy"`` or ``"search"``, or one name per other seat) are played
  in C with perfect attention: each claims its move's true points and calls every missed point. ``search`` is
  the search bot's native SO-ISMCTS at ``search_iterations`` iterations a move (64; no clock, so a run
  replays), its worlds drawn from every tile the seat has not seen (not narrowed by passes and draws), for the
  rules the native search plays (no partnerships, knocking, extra turns, lead rules; NotImplementedError).
  ``opponents=None``: every seat learns; each step is the action of the seat to act in each game,
  ``infos["seat"]`` says whose observation is returned and ``infos["rewards"]`` holds every seat's reward.
* **Rewards**: ``reward="points"``: the change in the learner's side's score since its last action (every
  seat learning: the change in each side's score during the step, ``rewards`` that of the seat that acted);
  ``reward="win"``: +1 / -1 / 0 at the end. An illegal action ends the episode with ``illegal_reward``
  (``infos["illegal"]``).
* **Autoreset**: Gymnasium's ``next_step`` by default (the step after an episode's end deals a new game and
  ignores its action; the last observation's mask is all zeros), or ``autoreset="same_step"`` (the new game's
  first observation is returned at once, the last one of the old in ``infos["final_obs"]``, valid where
  ``infos["_final_obs"]``).
* **Seeds**: ``reset(seed=s)`` (or ``seed=`` here, used by the first ``reset``) fixes every deal of every
  game: a run replays exactly. Deals are the native engine's, not those of ``spec.new``.
* **Threads**: ``threads=k`` steps ``k`` chunks of the games on ``k`` Python threads at once; the C loop runs
  without the GIL, so they run on separate cores.
* **Arrays**: with ``copy=False`` the returned arrays are the ones the next step overwrites (fastest).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import batch_space

from muggins._accel import load_native
from muggins.core.errors import RulesError, shown
from muggins.rl.compact import compact_actions_of, resolve_game
from muggins.rl.observation import encoder_for
from muggins.rl.vector import AUTORESET

__all__ = ["DominoVectorEnv"]


def _native(name: str = "muggins.dominoes.vector_native") -> Any:
    mod, why = load_native(name)
    if mod is None:
        raise RuntimeError(f"the batched environment needs the native module {name}, which is {why}")
    return mod


class DominoVectorEnv(gymnasium.vector.VectorEnv[dict[str, np.ndarray], np.ndarray, np.ndarray]):
    """See the module docstring."""

    def __init__(self, preset: str | None = None, players: int | None = None, num_envs: int = 8,
                 opponents: str | Sequence[str] | None = "random", seed: int | None = None, seat: int = 0,
                 reward: str = "points", threads: int = 1, autoreset: str = "next_step",
                 illegal_reward: float = -1.0, copy: bool = True, search_iterations: int = 64,
                 **options: Any) -> None:
        native = _native()
        spec, rules, n = resolve_game("dominoes", preset, players, options)
        why = _native("muggins.dominoes.native").unsupported(rules, n)
        if why is not None:
            raise NotImplementedError(f"the batched environment steps the native engine, which does not play {why}")
        if type(num_envs) is not int or num_envs < 1:
            raise RulesError(f"num_envs is a whole number above 0; got {shown(num_envs)}")
        if reward not in ("points", "win"):
            raise RulesError(f"reward is 'points' or 'win'; got {shown(reward)}")
        if autoreset not in AUTORESET:
            raise RulesError(f"autoreset is 'next_step' or 'same_step'; got {shown(autoreset)}")
        if type(threads) is not int or not 1 <= threads <= num_envs:
            raise RulesError(f"threads is a whole number from 1 to num_envs ({num_envs}); got {shown(threads)}")
        if opponents is None:
            learner = -1
            policies = [-1] * n
        else:
            if type(seat) is not int or not 0 <= seat < n:
                raise RulesError(f"seat is a whole number from 0 to {n - 1}; got {shown(seat)}")
            names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
            known = native.POLICIES
            if len(names) != n - 1 or any(not isinstance(x, str) or x not in known for x in names):
                raise RulesError(f"opponents is None (every seat learns), one of {', '.join(known)}, or a list of "
                                 f"{n - 1} of them (one per other seat); got {shown(opponents)}")
            if "search" in names:
                if type(search_iterations) is not int or not 1 <= search_iterations <= 100_000:
                    raise RulesError(f"search_iterations is a whole number from 1 to 100000; got "
                                     f"{shown(search_iterations)}")
                why = native.search_unsupported(rules, n)
                if why is not None:
                    raise NotImplementedError(f"the search opponent in C does not play {why}")
            learner = seat
            others = iter(names)
            policies = [-1 if s == seat else known[next(others)] for s in range(n)]
        self.rules = rules
        self.num_players = n
        self.num_envs = num_envs
        self.learner = learner
        self.copy = copy
        self.compact = compact_actions_of(spec.new(rules, n, seed=0))
        c = self.compact
        moves = c.moves + 1  # and "let it go"
        self.let_go = c.moves
        size = encoder_for("dominoes", rules, n).size
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(-1.0, 1.0, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (moves,), np.int8),
        })
        self.single_action_space = spaces.MultiDiscrete([moves, c.amounts])
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.metadata = {"autoreset_mode": AUTORESET[autoreset]}
        self.same_step = autoreset == "same_step"
        arrays: dict[str, np.ndarray] = {
            "observation": np.zeros((num_envs, size), np.float32),
            "action_mask": np.zeros((num_envs, moves), np.int8),
            "reward": np.zeros(num_envs, np.float64),
            "terminated": np.zeros(num_envs, np.bool_),
            "illegal": np.zeros(num_envs, np.bool_),
            "seat": np.zeros(num_envs, np.int32),
        }
        if learner < 0:
            arrays["rewards"] = np.zeros((num_envs, n), np.float32)
        if self.same_step:
            arrays["final_observation"] = np.zeros((num_envs, size), np.float32)
            arrays["final_action_mask"] = np.zeros((num_envs, moves), np.int8)
        self._arrays = arrays
        self._truncated = np.zeros(num_envs, np.bool_)
        manual = c.amounts > 1
        self._core = native.VectorCore(rules, n, num_envs, policies, learner, moves, c.amounts,
                                       c.move_start("draw"), c.move_start("muggins") if manual else c.moves,
                                       c.move_start("claim") if manual else -2, reward == "win",
                                       float(illegal_reward), self.same_step, arrays, search_iterations)
        bounds = np.linspace(0, num_envs, threads + 1).astype(int)
        self._chunks = [(int(a), int(b)) for a, b in itertools.pairwise(bounds)]
        self._pool = ThreadPoolExecutor(threads) if threads > 1 else None
        self._seed = seed
        self._ready = False

    # --- the Gymnasium API ------------------------------------------------------------------------------
    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal a new game in every slot. ``seed``: an int (every deal of the run follows from it), a list
        of one per game, or None (the seed given to the constructor the first time, else fresh entropy)."""
        if seed is None and not self._ready:
            seed = self._seed
        if isinstance(seed, Sequence):
            if len(seed) != self.num_envs:
                raise RulesError(f"seed is an int or a list of {self.num_envs} ints; got {len(seed)} of them")
            seeds = np.array([np.random.SeedSequence(int(s)).generate_state(1, np.uint64)[0] for s in seed],
                             dtype=np.uint64)
            super().reset(seed=int(seed[0]))
        else:
            super().reset(seed=seed)
            seeds = self.np_random.integers(0, 2**63, size=self.num_envs, dtype=np.int64).astype(np.uint64)
        self._ready = True
        self._run(self._core.reset, seeds)
        return self._observation(), self._infos(reset=True)

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """Step every game with its row of ``actions`` (``num_envs`` x 2: move, amount)."""
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        act = np.ascontiguousarray(actions, dtype=np.int64)
        if act.shape != (self.num_envs, 2):
            raise ValueError(f"actions has shape {act.shape}; expected ({self.num_envs}, 2): a (move, amount) "
                             f"row per game")
        self._run(self._core.step, act)
        a = self._arrays
        rew, term = a["reward"], a["terminated"]
        if self.copy:
            rew, term = rew.copy(), term.copy()
        return self._observation(), rew, term, self._truncated.copy() if self.copy else self._truncated, \
            self._infos()

    def close_extras(self, **kwargs: Any) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    # --- helpers ------------------------------------------------------------------------------------------
    def _run(self, fn: Any, data: np.ndarray) -> None:
        pool = self._pool
        if pool is None:
            fn(data, 0, self.num_envs)
            return
        for f in [pool.submit(fn, data, lo, hi) for lo, hi in self._chunks]:
            f.result()

    def _observation(self) -> dict[str, np.ndarray]:
        a = self._arrays
        if self.copy:
            return {"observation": a["observation"].copy(), "action_mask": a["action_mask"].copy()}
        return {"observation": a["observation"], "action_mask": a["action_mask"]}

    def _infos(self, reset: bool = False) -> dict[str, Any]:
        a = self._arrays
        def cp(x: np.ndarray) -> np.ndarray:
            return x.copy() if self.copy else x

        infos: dict[str, Any] = {"seat": cp(a["seat"])}
        if reset:
            return infos
        infos["illegal"] = cp(a["illegal"])
        if self.learner < 0:
            infos["rewards"] = cp(a["rewards"])
        if self.same_step:
            infos["final_obs"] = {"observation": cp(a["final_observation"]),
                                  "action_mask": cp(a["final_action_mask"])}
            infos["_final_obs"] = cp(a["terminated"])
        return infos

    def game(self, i: int) -> Any:
        """A copy of game ``i`` as a :class:`~muggins.dominoes.native.NativeDominoes`."""
        return self._core.game(i)

    def declined(self, i: int) -> int:
        """The seats (a bit each) of game ``i`` that let its open muggins window go."""
        return int(self._core.declined(i))
