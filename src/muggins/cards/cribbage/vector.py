"""The batched cribbage environment behind ``muggins.rl.vector_env("cribbage", ...)``.

A :class:`gymnasium.vector.VectorEnv` of ``num_envs`` cribbage games stepped together in C
(:mod:`muggins.cards.cribbage.vector_native`), for every preset and option (two to four players, five-card,
automatic scoring or the muggins rule). The API is the batched domino environment's
(:mod:`muggins.dominoes.vector`): the same arguments, spaces, rewards, autoreset modes, seeds, threads and
``copy``. What is the game's own:

* **Actions**: ``MultiDiscrete([moves + 1, amounts])``. The move head is the discards (the 1326 pairs of
  the pack for two players, numbered as the action ids number them; the 52 single cards for three or four),
  the 52 cards played in pack order (A♣ A♦ A♥ A♠ 2♣ ... K♠), go, count hand, count crib, then in a
  manual-claim game the muggins call and the late claim, and last "let it go"; the amounts are those of
  :mod:`muggins.rl.compact` (0 says nothing, ``c + 1`` announces ``c``; one amount, 0, in automatic scoring).
  A discard announces nothing: its amount is ignored.
* **Turns**: while several seats lay away at once, the lowest seat still to discard acts first (the
  PettingZoo environment's order); an open muggins window asks each seat that may call or claim late, from
  the scorer on, before the game goes on.
* **Rewards**: ``"points"`` is the change of the learner's side's score; ``"win"`` +1 to the winning side.
* **Observations**: :class:`muggins.cards.cribbage.observation.CribbageEncoder`'s vector (computed in C,
  equal number for number) and the mask of the moves the seat to act may make.
* **Opponents** ``"random"`` (a legal move at random), ``"greedy"`` (the registry's ``greedy`` bot's choice:
  the most points now, ties at random, so any discard, which scores nothing now, and the card pegging most)
  and ``"search"`` are played in C with perfect attention: each announces its move's true points and calls
  every missed point. ``search`` is the search bot's native SO-ISMCTS
  (:func:`muggins.cards.cribbage.native.search`, the bot's defaults) at ``search_iterations`` iterations a
  move (64; no clock, so a run replays), each world drawn from what its seat's view shows, read in C from the
  game (its own cards and discards, the cards laid and shown, the floors the other's gos set). Like the native
  search it plays the two-player six-card game with automatic scoring: elsewhere it is NotImplementedError.
* **Seeds**: the deals (and the first dealer) are the native engine's, not those of ``spec.new``; a seed
  replays a run exactly.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from muggins.rl.compact import CompactActions
from muggins.rl.vector import NativeVectorEnv, native_module

__all__ = ["CribbageVectorEnv"]


class CribbageVectorEnv(NativeVectorEnv):
    """See the module docstring."""

    game_name = "cribbage"
    core_module = "muggins.cards.cribbage.vector_native"

    def _check_rules(self, rules: Any, n: int) -> None:
        why = native_module("muggins.cards.cribbage.native").unsupported(rules, n)
        if why is not None:
            raise NotImplementedError(f"the batched environment steps the native engine: {why}")
        if rules.five_card and rules.target <= 3:
            raise NotImplementedError("five-card cribbage to 3 or less is won by the first pone's three for last "
                                      "before anyone moves: an episode would have no step")

    def _check_opponents(self, native: Any, names: list[str], rules: Any, n: int) -> None:
        if "search" in names:
            why = [w for w, out in ((f"{n} players", n != 2), ("five-card", rules.five_card),
                                    ("manual claims", rules.claims == "manual")) if out]
            if why:
                raise NotImplementedError("the search opponent in C plays the two-player six-card game with "
                                          f"automatic scoring, not {', '.join(why)}; use 'random' or 'greedy', or "
                                          "backend='python' for any bot")

    def _make_core(self, native: Any, rules: Any, n: int, policies: list[int], learner: int, c: CompactActions,
                   win: bool, illegal_reward: float, arrays: dict[str, np.ndarray]) -> Any:
        return native.VectorCore(rules, n, self.num_envs, policies, learner, c.moves + 1, c.amounts,
                                 c.move_start("play"), win, illegal_reward, self.same_step, arrays,
                                 self.search_iterations)
