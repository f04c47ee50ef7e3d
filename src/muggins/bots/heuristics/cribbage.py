"""Cribbage judgement: discard for the best expected hand plus (own crib) or minus (opponent's crib)
crib value over every possible starter; in the play, the one-ply lookahead over sampled hands, which
avoids leaving the next player a fifteen, a pair or a thirty-one."""

from __future__ import annotations

import random

from muggins.bots.heuristics import generic
from muggins.cards.cribbage.show import score_show
from muggins.cards.deck import Card, full_deck, parse_card
from muggins.core.protocol import Action, GameState

CRIB_SAMPLES = 60
CRIB_SIZE = 4


def discard_value(kept: tuple[Card, ...], thrown: tuple[Card, ...], unknown: list[Card], own_crib: bool,
                  crib_fills: list[tuple[tuple[Card, ...], Card]]) -> float:
    """Expected show value of ``kept`` over every starter, plus or minus the expected crib that
    ``thrown`` makes with random cards (the same random fills for every candidate)."""
    hand = sum(score_show(kept, s) for s in unknown) / len(unknown)
    crib = 0.0
    if crib_fills:
        for fill, starter in crib_fills:
            crib += score_show((*thrown, *fill[: CRIB_SIZE - len(thrown)]), starter, True)
        crib /= len(crib_fills)
    return hand + crib if own_crib else hand - crib


def choose_discard(state: GameState, seat: int, actions: list[Action], rng: random.Random) -> Action:
    view = state.view(seat)
    hand = [parse_card(t) for t in view["my_hand"]]
    dealer = view["dealer"]
    own_crib = isinstance(dealer, int) and state.side_of(dealer) == state.side_of(seat)
    held = set(hand)
    unknown = [c for c in full_deck() if c not in held]
    fills: list[tuple[tuple[Card, ...], Card]] = []
    for _ in range(CRIB_SAMPLES):
        cards = rng.sample(unknown, CRIB_SIZE + 1)
        fills.append((tuple(cards[:CRIB_SIZE]), cards[CRIB_SIZE]))
    best: list[Action] = []
    best_v = float("-inf")
    for a in actions:
        thrown = tuple(a.subject)
        kept = tuple(c for c in hand if c not in thrown)
        v = discard_value(kept, thrown, unknown, own_crib, fills)
        if v > best_v + 1e-9:
            best, best_v = [a], v
        elif abs(v - best_v) <= 1e-9:
            best.append(a)
    return best[0] if len(best) == 1 else rng.choice(best)


def shed_weight(state: GameState, seat: int, action: Action) -> float:
    """In the play, lead off high cards and keep low ones for the end of a series (they fit under 31)."""
    c = action.subject
    return float(c.value) if action.kind == "play" and isinstance(c, Card) else 0.0


def search_override(state: GameState, seat: int, actions: list[Action], rng: random.Random) -> Action | None:
    """The search bot discards by the same expectation: sampling fifteen discards against random
    opponents' discards is far noisier than counting every starter."""
    return choose_discard(state, seat, actions, rng) if actions[0].kind == "discard" else None


def choose(state: GameState, seat: int, actions: list[Action], rng: random.Random) -> Action:
    if actions[0].kind == "discard":
        return choose_discard(state, seat, actions, rng)
    return generic.choose(state, seat, actions, rng)
