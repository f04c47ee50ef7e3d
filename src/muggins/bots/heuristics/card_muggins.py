"""Card Muggins judgement: score now, and do not leave a total that the next player makes a multiple
of five (or the cap) with a ten-card - sixteen of the fifty-two cards count ten.

Totals climb in a chain (a five scored invites a ten, which invites a five…), so the lookahead follows
two greedy replies: the next player's best and then this seat's best answer to it. One reply alone
makes the bot shy of every score and loses to plain greed."""

from __future__ import annotations

import random

from muggins.bots.heuristics.generic import lookahead
from muggins.cards.deck import Card
from muggins.core.events import ActionKind
from muggins.core.protocol import Action, GameState

TEN_RISK = 16 / 52   # the chance that a random card counts ten
#: a level's search options here beside its own (options named with the level still win): the native search
#: weighing its worlds by the others' past plays and playing for points measured best (README, Bot strength)
LEVEL_SEARCH = {"expert": (("infer", 10.0), ("heavy", 3.0), ("points", 1))}
SAMPLES = 6
PLIES = 2


def ten_card_threat(total: int, cap: int) -> float:
    """What a ten-card would score on ``total`` (the cap bonus counted as 2)."""
    t = total + 10
    if t == cap:
        return 2.0
    if t < cap and t % 5 == 0:
        return float(t)
    return 0.0


def shed_weight(state: GameState, seat: int, action: Action) -> float:
    """High cards are the hard ones to place as the total nears the cap: shed them first."""
    c = action.subject
    return float(c.value) if action.kind == ActionKind.PLAY and isinstance(c, Card) else 0.0


def choose(state: GameState, seat: int, actions: list[Action], rng: random.Random) -> Action:
    plays = [a for a in actions if a.kind == ActionKind.PLAY]
    if len(plays) <= 1:
        return plays[0] if plays else actions[0]
    view = state.view(seat)
    total = view["total"]
    cap = view["cap"]
    values = lookahead(state, seat, plays, rng, SAMPLES, PLIES)
    best: list[Action] = []
    best_v = float("-inf")
    for a in plays:
        gain, reply = values[a]
        after = total + a.subject.value
        closes = after == cap
        v = gain - reply - (0.0 if closes else 0.5 * TEN_RISK * ten_card_threat(after, cap))
        v += 0.01 * shed_weight(state, seat, a)
        if v > best_v + 1e-9:
            best, best_v = [a], v
        elif abs(v - best_v) <= 1e-9:
            best.append(a)
    return best[0] if len(best) == 1 else rng.choice(best)
