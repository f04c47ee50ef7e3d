"""A protocol-level heuristic for any game: one-ply lookahead over sampled hidden hands.

Each candidate move is tried in a few states drawn by ``sample_hidden`` (so the inference a game
builds into its sampler - who drew, who passed, who said go - is used). A move is worth what it nets
now (the seat's side score change, which includes bonuses for going out) minus the best immediate
score of the next player to decide (plus it, when that player is a partner or the seat itself).
"""

from __future__ import annotations

import random

from muggins.bots.base import HAND_END_KINDS, next_decision, true_points, with_true_claim
from muggins.core.protocol import Action, GameState

SAMPLES = 6
WIN = 1000.0


def net_gain(before: list[int], after: GameState, side: int) -> float:
    """The side's score change minus the best change of any other side."""
    now = after.side_scores()
    mine = now[side] - before[side]
    others = [now[s] - before[s] for s in range(len(now)) if s != side]
    return mine - (max(others) if others else 0)


def reply_value(state: GameState, side: int, log_start: int, plies: int = 1) -> float:
    """Points of the next ``plies`` decisions, everyone playing greedily, signed against ``side``
    (an opponent's points count positive, the side's own negative). Stops at the end of the hand or
    round (the next one starts afresh); a finished game counts as a win or loss."""
    total = 0.0
    for i in range(plies):
        if state.is_over():
            return total + (-WIN if any(state.side_of(s) == side for s in state.winners()) else WIN)
        if any(e.kind in HAND_END_KINDS for e in state.log[log_start:]):
            return total
        nd = next_decision(state)
        if nd is None:
            return total
        nxt, acts = nd
        pts = [true_points(state, nxt, a) for a in acts]
        best = max(pts)
        total += -float(best) if state.side_of(nxt) == side else float(best)
        if i + 1 < plies:
            move = acts[pts.index(best)]
            log_start = len(state.log)
            state.apply(nxt, with_true_claim(state, nxt, move))
    return total


def lookahead(state: GameState, seat: int, actions: list[Action], rng: random.Random,
              samples: int = SAMPLES, plies: int = 1) -> dict[Action, tuple[float, float]]:
    """For each action: (expected net gain now, expected signed points of the next ``plies`` greedy
    replies) over ``samples`` determinizations."""
    side = state.side_of(seat)
    before = state.side_scores()
    worlds = [state.sample_hidden(seat, rng) for _ in range(samples)]
    out: dict[Action, tuple[float, float]] = {}
    for a in actions:
        gain = reply = 0.0
        for w in worlds:
            c = w.clone()
            start = len(c.log)
            c.apply(seat, with_true_claim(c, seat, a))
            gain += WIN if c.is_over() and seat in c.winners() else net_gain(before, c, side)
            reply += reply_value(c, side, start, plies)
        out[a] = (gain / samples, reply / samples)
    return out


def choose(state: GameState, seat: int, actions: list[Action], rng: random.Random) -> Action:
    values = lookahead(state, seat, actions, rng)
    best: list[Action] = []
    best_v = float("-inf")
    for a, (gain, reply) in values.items():
        v = gain - reply
        if v > best_v + 1e-9:
            best, best_v = [a], v
        elif abs(v - best_v) <= 1e-9:
            best.append(a)
    if len(best) > 1:  # prefer moves that score now, then chance
        top = max(true_points(state, seat, a) for a in best)
        best = [a for a in best if true_points(state, seat, a) == top]
    return best[0] if len(best) == 1 else rng.choice(best)
