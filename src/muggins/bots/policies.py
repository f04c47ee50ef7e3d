"""The simple skill levels: random, greedy and the per-game heuristic."""

from __future__ import annotations

import random

from muggins.bots import heuristics
from muggins.bots.base import true_points
from muggins.core.protocol import Action, GameState


class RandomPolicy:
    """Any legal move, uniformly: the floor every other bot must beat."""

    name = "random"

    def choose(self, state: GameState, seat: int, actions: list[Action], rng: random.Random) -> Action:
        return actions[0] if len(actions) == 1 else rng.choice(actions)


class GreedyPolicy:
    """The move that scores most now; ties go to the move that sheds most weight (the game's
    ``shed_weight`` feature, when it has one), then to chance."""

    name = "greedy"

    def choose(self, state: GameState, seat: int, actions: list[Action], rng: random.Random) -> Action:
        if len(actions) == 1:
            return actions[0]
        weight = heuristics.shed_weight_fn(state.game)
        best: list[Action] = []
        best_key: tuple[float, float] | None = None
        for a in actions:
            key = (float(true_points(state, seat, a)), weight(state, seat, a) if weight else 0.0)
            if best_key is None or key > best_key:
                best, best_key = [a], key
            elif key == best_key:
                best.append(a)
        return best[0] if len(best) == 1 else rng.choice(best)


class HeuristicPolicy:
    """Game-specific judgement from :mod:`muggins.bots.heuristics`, chosen by ``state.game``; a game
    without its own module gets the generic one-ply lookahead."""

    name = "heuristic"

    def choose(self, state: GameState, seat: int, actions: list[Action], rng: random.Random) -> Action:
        if len(actions) == 1:
            return actions[0]
        return heuristics.choose_fn(state.game)(state, seat, actions, rng)
