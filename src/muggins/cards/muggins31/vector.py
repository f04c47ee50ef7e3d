"""The batched card Muggins environment behind ``muggins.rl.vector_env("card-muggins", ...)``.

A :class:`gymnasium.vector.VectorEnv` of ``num_envs`` card Muggins games stepped together in C
(:mod:`muggins.cards.muggins31.vector_native`), for every preset and option (two to four players). The API
is the batched domino environment's (:mod:`muggins.dominoes.vector`): the same arguments, spaces, rewards,
autoreset modes, seeds, threads and ``copy``. What is the game's own:

* **Actions**: ``MultiDiscrete([moves + 1, amounts])``. The move head is the 52 cards in pack order (A♣ A♦
  A♥ A♠ 2♣ ... K♠), go, then in a manual-claim game the muggins call and the late claim, and last "let it
  go" (56 values in ``muggins``, 54 in ``no-muggins``); 34 amounts in 2-player ``muggins`` (0 says
  nothing, ``c + 1`` announces ``c``: a play, a muggins call naming its points or 0 for all that was
  missed, a late claim of 1 or more).
* **Observations**: :class:`muggins.cards.muggins31.observation.CardMugginsEncoder`'s vector (computed in C,
  equal number for number) and the mask of the moves the seat to act may make.
* **Opponents** ``"random"``, ``"greedy"`` (the native engine's policies: a fitting card at random; the
  most points now, ties at random) and ``"search"`` are played in C with perfect attention: each claims its
  play's true points and calls every missed point. ``search`` is the search bot's native SO-ISMCTS
  (:func:`muggins.cards.muggins31.native.search`, the bot's defaults) at ``search_iterations`` iterations a
  move (64; no clock, so a run replays), each world drawn from what its seat knows, read in C from the game
  and the round's events (its own hand, the cards laid, the others' hand sizes, what their gos ruled out):
  the worlds the protocol state's search would draw.
* **Seeds**: the deals (the cut for the first deal included) are the native engine's, not those of
  ``spec.new``; a seed replays a run exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from muggins.rl.compact import CompactActions
from muggins.rl.vector import NativeVectorEnv, native_module

__all__ = ["CardMugginsVectorEnv"]


class CardMugginsVectorEnv(NativeVectorEnv):
    """See the module docstring."""

    game_name = "card-muggins"
    core_module = "muggins.cards.muggins31.vector_native"

    @classmethod
    def play_amounts(cls, preset: str, players: int) -> Callable[[np.ndarray, np.ndarray], np.ndarray] | None:
        """:class:`muggins.cards.muggins31.train.PlayAmounts` (None for rules with a muggable "last")."""
        from muggins.cards.muggins31.train import PlayAmounts

        try:
            return PlayAmounts(preset, players)
        except ValueError:
            return None

    def _check_rules(self, rules: Any, n: int) -> None:
        why = native_module("muggins.cards.muggins31.native").unsupported(rules, n)
        if why is not None:
            raise NotImplementedError(f"the batched environment steps the native engine: {why}")

    def _make_core(self, native: Any, rules: Any, n: int, policies: list[int], learner: int, c: CompactActions,
                   win: bool, illegal_reward: float, arrays: dict[str, np.ndarray]) -> Any:
        manual = c.amounts > 1
        return native.VectorCore(rules, n, self.num_envs, policies, learner, c.moves + 1, c.amounts,
                                 c.move_start("go"), c.move_start("muggins") if manual else -2,
                                 c.move_start("claim") if manual else -2, win, illegal_reward, self.same_step,
                                 arrays, self.search_iterations)
