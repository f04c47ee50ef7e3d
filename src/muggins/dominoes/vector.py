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

from typing import Any

import numpy as np

from muggins.rl.compact import CompactActions
from muggins.rl.vector import NativeVectorEnv, native_module

__all__ = ["DominoVectorEnv"]


class DominoVectorEnv(NativeVectorEnv):
    """See the module docstring."""

    game_name = "dominoes"
    core_module = "muggins.dominoes.vector_native"

    def _check_rules(self, rules: Any, n: int) -> None:
        why = native_module("muggins.dominoes.native").unsupported(rules, n)
        if why is not None:
            raise NotImplementedError(f"the batched environment steps the native engine, which does not play {why}")

    def _check_opponents(self, native: Any, names: list[str], rules: Any, n: int) -> None:
        if "search" in names:
            why = native.search_unsupported(rules, n)
            if why is not None:
                raise NotImplementedError(f"the search opponent in C does not play {why}")

    def _make_core(self, native: Any, rules: Any, n: int, policies: list[int], learner: int, c: CompactActions,
                   win: bool, illegal_reward: float, arrays: dict[str, np.ndarray]) -> Any:
        manual = c.amounts > 1
        return native.VectorCore(rules, n, self.num_envs, policies, learner, c.moves + 1, c.amounts,
                                 c.move_start("draw"), c.move_start("muggins") if manual else c.moves,
                                 c.move_start("claim") if manual else -2, win, illegal_reward, self.same_step,
                                 arrays, self.search_iterations)
