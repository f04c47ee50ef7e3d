"""Batched learning environments: ``muggins.rl.vector_env(game, preset, players, num_envs, opponents=..., seed=...)``.

A game that has one registers the import path of its batched environment class (``GameSpec.vector``): a
:class:`gymnasium.vector.VectorEnv` of ``num_envs`` games stepped together natively, whose actions are the
compact pairs of :mod:`muggins.rl.compact` (with "let it go" as the move head's last value) and whose
observations are ``{"observation", "action_mask"}`` as in the PettingZoo environment. Dominoes has one
(``muggins.dominoes.vector``, whose docstring says all: opponents, rewards, autoreset, seeds, threads), and so
have card Muggins (``muggins.cards.muggins31.vector``) and cribbage (``muggins.cards.cribbage.vector``); all
are :class:`NativeVectorEnv`, the Python half they share over their game's C core.

``backend="python"`` (and every game that registers none) gets the same spaces from Python instead: a
``gymnasium.vector.SyncVectorEnv`` of :class:`CompactGymEnv`, one :func:`muggins.rl.gym_env` each (any bot
of the registry as opponents, the deals of ``spec.new``, one learning seat), about a thousand times slower.
See docs/rl.md.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.vector.utils import batch_space

from muggins._accel import load_native
from muggins.core.errors import ClaimError, RulesError, UnknownAction, shown
from muggins.core.rules import default_game, get_game, load_object
from muggins.rl.compact import CompactActions, compact_actions_of, resolve_game
from muggins.rl.gymnasium_env import MugginsGymEnv
from muggins.rl.observation import encoder_for

__all__ = ["CompactGymEnv", "NativeVectorEnv", "SeededSyncVectorEnv", "check_search_iterations", "native_module",
           "vector_env"]

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


def check_search_iterations(iterations: object) -> None:
    """RulesError unless ``iterations`` (a search opponent's iterations a move) is a whole number from 1 to
    100000."""
    if type(iterations) is not int or not 1 <= iterations <= 100_000:
        raise RulesError(f"search_iterations is a whole number from 1 to 100000; got {shown(iterations)}")


def native_module(name: str) -> Any:
    """The compiled module ``name``; RuntimeError saying why when it cannot be used (not built, stale)."""
    mod, why = load_native(name)
    if mod is None:
        raise RuntimeError(f"the batched environment needs the native module {name}, which is {why}")
    return mod


class NativeVectorEnv(gymnasium.vector.VectorEnv[dict[str, np.ndarray], np.ndarray, np.ndarray]):
    """A :class:`gymnasium.vector.VectorEnv` of ``num_envs`` games of :attr:`game_name` stepped together by the
    ``VectorCore`` of its C module :attr:`core_module`: the arguments, spaces, arrays, seeding, threads and
    the Gymnasium API every native batched environment shares (``muggins.dominoes.vector`` documents them).
    A game's class says which rules its engine plays (:meth:`_check_rules`), which opponents it plays in C
    (:meth:`_check_opponents`) and how its core is made (:meth:`_make_core`)."""

    game_name: ClassVar[str]
    core_module: ClassVar[str]

    def __init__(self, preset: str | None = None, players: int | None = None, num_envs: int = 8,
                 opponents: str | Sequence[str] | None = "random", seed: int | None = None,
                 search_iterations: int = 64, seat: int = 0, reward: str = "points", threads: int = 1,
                 autoreset: str = "next_step", illegal_reward: float = -1.0, copy: bool = True,
                 **options: Any) -> None:
        self.search_iterations = search_iterations  # a move of a search opponent
        native = native_module(self.core_module)
        spec, rules, n = resolve_game(self.game_name, preset, players, options)
        self._check_rules(rules, n)
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
            if len(names) != n - 1 or any(not isinstance(x, str) or x not in self._opponent_names(known)
                                          for x in names):
                raise RulesError(f"opponents is None (every seat learns), one of "
                                 f"{', '.join(self._opponent_names(known))}, or a list of {n - 1} of them (one per "
                                 f"other seat); got {shown(opponents)}")
            if "search" in names:
                check_search_iterations(search_iterations)
            self._check_opponents(native, names, rules, n)
            learner = seat
            others = iter(names)
            policies = [-1 if s == seat else known[next(others)] for s in range(n)]
        self.rules = rules
        self.num_players = n
        self.num_envs = num_envs
        self.learner = learner
        self.copy = copy
        self.compact = c = compact_actions_of(spec.new(rules, n, seed=0))
        moves = c.moves + 1  # and "let it go"
        self.let_go = c.moves
        size = encoder_for(self.game_name, rules, n).size
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
        self._core = self._make_core(native, rules, n, policies, learner, c, reward == "win", float(illegal_reward),
                                     arrays)
        bounds = np.linspace(0, num_envs, threads + 1).astype(int)
        self._chunks = [(int(a), int(b)) for a, b in itertools.pairwise(bounds)]
        self._pool = ThreadPoolExecutor(threads) if threads > 1 else None
        self._seed = seed
        self._ready = False

    # --- what each game says ------------------------------------------------------------------------------
    @classmethod
    def play_amounts(cls, preset: str, players: int) -> Callable[[np.ndarray, np.ndarray], np.ndarray] | None:
        """A function (observation rows, chosen moves) -> the amount announcing each move's true points, for a
        learner that announces them (:class:`muggins.rl.learn.Task`); None where the game offers none."""
        return None

    def _check_rules(self, rules: Any, n: int) -> None:
        """NotImplementedError when the native engine does not play ``rules`` for ``n`` players."""

    def _opponent_names(self, known: dict[str, int]) -> tuple[str, ...]:
        """The opponent names accepted (those the core plays, and any a game refuses in its own words)."""
        return tuple(known)

    def _check_opponents(self, native: Any, names: list[str], rules: Any, n: int) -> None:
        """Refuse (RulesError, NotImplementedError) opponents ``names`` that the core cannot play here."""

    def _make_core(self, native: Any, rules: Any, n: int, policies: list[int], learner: int, c: CompactActions,
                   win: bool, illegal_reward: float, arrays: dict[str, np.ndarray]) -> Any:
        """The game's ``VectorCore`` writing into ``arrays``."""
        raise NotImplementedError

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
        """A copy of game ``i`` as its native engine's game object (no event log)."""
        return self._core.game(i)

    def declined(self, i: int) -> int:
        """The seats (a bit each) of game ``i`` that let its open muggins window go."""
        return int(self._core.declined(i))
