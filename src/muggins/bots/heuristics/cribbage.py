"""Cribbage judgement: discard for the best expected hand plus (own crib) or minus (opponent's crib)
crib value, both counted exactly over every starter and every way the crib can be filled; in the play,
the one-ply lookahead over sampled hands, which avoids leaving the next player a fifteen, a pair or a
thirty-one."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache, lru_cache
from math import comb

from muggins.bots.heuristics import generic
from muggins.cards.cribbage.show import score_parts, score_show
from muggins.cards.deck import SUITS, Card, full_deck, parse_card
from muggins.core.events import ActionKind
from muggins.core.protocol import Action, GameState

CRIB_SIZE = 4
_WEIGHT: dict[Card, int] = {c: 5 ** (c.rank - 1) for c in full_deck()}  # a rank multiset as a base-5 number


@cache
def _rank_points() -> dict[int, int]:
    """Fifteens + pairs + runs of every multiset of five ranks (they ignore suits), by base-5 key: counted
    once by the show scorer on one set of cards per multiset."""
    table: dict[int, int] = {}

    def walk(ranks: list[int]) -> None:
        if len(ranks) == 5:
            cards = [Card.of(r, SUITS[ranks[:i].count(r)]) for i, r in enumerate(ranks)]
            _, fifteens, pairs, runs, _, _ = score_parts(cards[:4], cards[4], True)
            table[sum(5 ** (r - 1) for r in ranks)] = fifteens + pairs + runs
            return
        for r in range(ranks[-1] if ranks else 1, 14):
            if ranks.count(r) < 4:
                walk([*ranks, r])

    walk([])
    return table


@lru_cache(maxsize=1024)
def _rank_groups(counts: tuple[int, ...], size: int) -> tuple[tuple[int, int], ...]:
    """Every rank multiset of ``size`` cards drawn from unseen cards with ``counts`` per rank (ace
    first), as (base-5 key, number of card sets with those ranks)."""
    out: list[tuple[int, int]] = []

    def walk(r: int, left: int, key: int, ways: int) -> None:
        if left == 0:
            out.append((key, ways))
            return
        if r == 13:
            return
        for k in range(min(left, counts[r]) + 1):
            walk(r + 1, left - k, key + k * 5 ** r, ways * comb(counts[r], k))

    walk(0, size, 0, 1)
    return tuple(out)


def crib_expectation(thrown: Sequence[Card], unknown: Sequence[Card]) -> float:
    """Exact mean show of a crib holding ``thrown`` when the starter and the rest of the crib are drawn
    uniformly from ``unknown`` (what the others throw is not known, so every fill counts alike).

    Fifteens, pairs and runs depend only on ranks, so the draws are grouped by rank multiset; the crib
    flush and his nobs are counted from the suits."""
    fills = CRIB_SIZE - len(thrown)
    drawn = fills + 1                                   # the fills and the starter
    n = len(unknown)
    counts = [0] * 13
    by_suit = dict.fromkeys(SUITS, 0)
    for c in unknown:
        counts[c.rank - 1] += 1
        by_suit[c.suit] += 1
    points = _rank_points()
    kt = sum(_WEIGHT[c] for c in thrown)
    total = comb(n, drawn)
    value = sum(ways * points[kt + key] for key, ways in _rank_groups(tuple(counts), drawn)) / total
    suit = thrown[0].suit
    if all(c.suit == suit for c in thrown):             # a crib flush needs all five cards of one suit
        value += 5 * comb(by_suit[suit], drawn) / total
    unseen = set(unknown)
    nobs = 0.0
    for s in SUITS:                                     # the jack of the starter's suit among the four
        jack = Card.of(11, s)
        if jack in thrown:
            nobs += by_suit[s]
        elif jack in unseen:                            # a starter of that suit but not the jack itself
            nobs += (by_suit[s] - 1) * fills / (n - 1)
    return value + nobs / n


def discard_value(kept: tuple[Card, ...], thrown: tuple[Card, ...], unknown: list[Card], own_crib: bool,
                  crib_fills: list[tuple[tuple[Card, ...], Card]] | None = None) -> float:
    """Expected show value of ``kept`` over every starter, plus or minus the expected crib of ``thrown``:
    exact (``crib_expectation``) unless ``crib_fills`` gives random (fill, starter) draws to average over
    instead, the same draws for every candidate."""
    hand = sum(score_show(kept, s) for s in unknown) / len(unknown)
    if crib_fills is None:
        crib = crib_expectation(thrown, unknown)
    elif crib_fills:
        crib = sum(score_show((*thrown, *fill[: CRIB_SIZE - len(thrown)]), starter, True)
                   for fill, starter in crib_fills) / len(crib_fills)
    else:
        crib = 0.0
    return hand + crib if own_crib else hand - crib


def choose_discard(state: GameState, seat: int, actions: list[Action], rng: random.Random) -> Action:
    """The discard of the best exact expectation; ``rng`` breaks exact ties (cards alike but for suit)."""
    view = state.view(seat)
    hand = [parse_card(t) for t in view["my_hand"]]
    dealer = view["dealer"]
    own_crib = isinstance(dealer, int) and state.side_of(dealer) == state.side_of(seat)
    held = set(hand)
    unknown = [c for c in full_deck() if c not in held]
    best: list[Action] = []
    best_v = float("-inf")
    for a in actions:
        thrown = tuple(a.subject)
        kept = tuple(c for c in hand if c not in thrown)
        v = discard_value(kept, thrown, unknown, own_crib)
        if v > best_v + 1e-9:
            best, best_v = [a], v
        elif abs(v - best_v) <= 1e-9:
            best.append(a)
    return best[0] if len(best) == 1 else rng.choice(best)


def shed_weight(state: GameState, seat: int, action: Action) -> float:
    """In the play, lead off high cards and keep low ones for the end of a series (they fit under 31)."""
    c = action.subject
    return float(c.value) if action.kind == ActionKind.PLAY and isinstance(c, Card) else 0.0


def search_override(state: GameState, seat: int, actions: list[Action], rng: random.Random) -> Action | None:
    """The search bot discards by the same exact expectation: sampling fifteen discards against random
    opponents' discards is far noisier than counting every starter and crib."""
    return choose_discard(state, seat, actions, rng) if actions[0].kind == ActionKind.DISCARD else None


def choose(state: GameState, seat: int, actions: list[Action], rng: random.Random) -> Action:
    if actions[0].kind == ActionKind.DISCARD:
        return choose_discard(state, seat, actions, rng)
    return generic.choose(state, seat, actions, rng)
