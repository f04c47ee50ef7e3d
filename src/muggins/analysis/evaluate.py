"""The expected points of each move a seat could make: the yardstick of the post-game analysis.

A move is priced by playing it out. ``samples`` worlds are drawn with ``state.sample_hidden(seat, rng)``
(what the seat could know, never the true hidden pieces); in each, the move is made and then every seat
plays a fixed rollout policy with true claims and no calls, to the end of the hand (round, deal) or of the
game. A world's value is the seat's side's net points over that stretch: its own gain minus the mean of
the other sides' gains. A move's expected points is the mean over the worlds.

Every candidate meets the same worlds with the same rollout seeds (common random numbers): two moves that
lead to the same position get the same value, and a difference between moves is a difference of the moves,
not of the luck of the draw. Everything comes from ``seed``: the same seed gives the same figures.

The rollout policy is ``greedy`` by default (the move that scores most now, ties to the heavier piece):
it costs a few hundred microseconds a move, where the per-game ``heuristic`` policy samples worlds of its
own at every move and is one to two orders of magnitude slower (``rollout="heuristic"`` is available).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from muggins.bots.base import HAND_END_KINDS, Policy, next_decision, regular_actions, with_true_claim
from muggins.bots.policies import GreedyPolicy, HeuristicPolicy
from muggins.core.errors import MugginsError
from muggins.core.protocol import Action, GameState

#: Rollout policies by name.
ROLLOUTS: dict[str, type[GreedyPolicy] | type[HeuristicPolicy]] = {
    "greedy": GreedyPolicy,
    "heuristic": HeuristicPolicy,
}
DEFAULT_ROLLOUT = "greedy"
MAX_PLIES = 400  # a hand never lasts this long; a guard against a game that would not end


class AnalysisError(MugginsError, ValueError):
    """An analysis that cannot be made: a seat with no move to rank, a bad number of samples, an unknown
    rollout policy."""


@dataclass(frozen=True)
class MoveValue:
    """One candidate move: ``action`` (carrying its true claim), its text, and ``points``, its expected net
    points for the seat's side to the end of the hand (``low``/``high``: the worst and best world;
    ``values``: each world's, in the order of the worlds, the same for every candidate)."""

    action: Action
    text: str
    points: float
    low: float
    high: float
    values: tuple[float, ...] = ()

    def margin(self, other: MoveValue) -> float:
        """The standard error of ``self.points - other.points`` over the shared worlds (0 with one world):
        the noise left in a difference between two moves."""
        d = [a - b for a, b in zip(self.values, other.values, strict=True)]
        n = len(d)
        if n < 2:
            return 0.0
        mean = sum(d) / n
        return math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1) / n)


def _policy(name: str) -> Policy:
    try:
        return ROLLOUTS[name]()
    except KeyError:
        raise AnalysisError(f"unknown rollout policy {name!r}; choose one of {', '.join(ROLLOUTS)}") from None


def _net(before: list[int], after: list[int], side: int) -> float:
    """The side's gain minus the mean gain of the other sides."""
    gains = [a - b for a, b in zip(after, before, strict=True)]
    others = [g for s, g in enumerate(gains) if s != side]
    return gains[side] - (sum(others) / len(others) if others else 0.0)


def playout(state: GameState, policy: Policy, rng: random.Random, start: int) -> None:
    """Play ``state`` on with ``policy`` for every seat (true claims, no calls) until an event from log
    index ``start`` on ends the hand, or the game ends."""
    scan = start
    for _ in range(MAX_PLIES):
        if state.is_over():
            return
        log = state.log
        for i in range(scan, len(log)):
            if log[i].kind in HAND_END_KINDS:
                return
        scan = len(log)
        nd = next_decision(state)
        if nd is None:
            return
        actor, acts = nd
        a = acts[0] if len(acts) == 1 else policy.choose(state, actor, acts, rng)
        state.apply(actor, with_true_claim(state, actor, a))


def rank_moves(state: GameState, seat: int, *, samples: int, seed: int | str,
               rollout: str = DEFAULT_ROLLOUT) -> list[MoveValue]:
    """The seat's regular legal moves, best first, each with its expected points (see the module doc).

    Ties keep the order of ``legal_actions``. ``state`` is not changed."""
    if type(samples) is not int or samples < 1:
        raise AnalysisError(f"samples is a whole number of worlds, at least 1; got {samples!r}")
    policy = _policy(rollout)
    actions = [with_true_claim(state, seat, a) for a in regular_actions(state, seat)]
    if not actions:
        raise AnalysisError(f"seat {seat} has no move to rank here")
    rng = random.Random(f"rank:{seed}")
    worlds = [state.sample_hidden(seat, rng) for _ in range(samples)]
    seeds = [rng.getrandbits(64) for _ in range(samples)]
    side = state.side_of(seat)
    before = state.side_scores()
    out: list[MoveValue] = []
    for a in actions:
        values: list[float] = []
        for world, s in zip(worlds, seeds, strict=True):
            c = world.clone()
            start = len(c.log)
            c.apply(seat, a)
            playout(c, policy, random.Random(s), start)
            values.append(_net(before, c.side_scores(), side))
        out.append(MoveValue(a, state.format_action(a), sum(values) / len(values), min(values), max(values),
                             tuple(values)))
    order = sorted(range(len(out)), key=lambda i: (-out[i].points, i))
    return [out[i] for i in order]
