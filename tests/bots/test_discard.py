"""The Cribbage discard: the exact expectations (the benchmark's reference and the bot's own) equal a
card-by-card enumeration, and the bots' discards come within 2% of the best expected hand-and-crib value."""

from __future__ import annotations

import random
from itertools import combinations
from math import comb

import pytest
from benchmarks.bench_discard import brute_force_evs, deal, deal_state, exact_discard_evs

from muggins.bots.heuristics import cribbage as crib_h
from muggins.bots.policies import HeuristicPolicy
from muggins.cards.cribbage.show import score_show
from muggins.cards.deck import Card, full_deck, parse_cards


def _close(a: dict[frozenset[Card], float], b: dict[frozenset[Card], float]) -> None:
    assert a.keys() == b.keys()
    for k in a:
        assert a[k] == pytest.approx(b[k], abs=1e-9), sorted(c.text for c in k)


def test_exact_ev_equals_enumeration_with_jacks_and_suits() -> None:
    """Two jacks (nobs in hand and in the crib), hearts to throw together (crib flush), fifteens."""
    six = parse_cards("JH 5H 5S 4H TC JD")
    _close(exact_discard_evs(six, True), brute_force_evs(six, True))


def test_exact_ev_equals_enumeration_on_random_deals() -> None:
    rng = random.Random(7)
    for _ in range(2):
        dealer_six, pone_six, _starter = deal(rng)
        _close(exact_discard_evs(dealer_six, True), brute_force_evs(dealer_six, True))
        _close(exact_discard_evs(pone_six, False), brute_force_evs(pone_six, False))


def test_bot_discard_values_equal_the_benchmark_reference() -> None:
    """Two separate exact counts (the bot's by 3-card rank multisets, the benchmark's by starter and
    pair of fills) give the same value to every discard."""
    rng = random.Random(21)
    for _ in range(20):
        for six, dealer in zip(deal(rng)[:2], (True, False), strict=True):
            unknown = [c for c in full_deck() if c not in six]
            ref = exact_discard_evs(six, dealer)
            for thrown in combinations(six, 2):
                kept = tuple(c for c in six if c not in thrown)
                v = crib_h.discard_value(kept, thrown, unknown, dealer)
                assert v == pytest.approx(ref[frozenset(thrown)], abs=1e-9)


def test_crib_expectation_of_one_thrown_card_equals_enumeration() -> None:
    """Three- and four-hand cribbage: one card thrown, three fills and the starter from 47 unseen."""
    five = parse_cards("JS 5H 6H 7C KD")
    unknown = [c for c in full_deck() if c not in five]
    jack = five[0]
    total = count = 0
    for starter in unknown:
        rest = [c for c in unknown if c is not starter]
        total += sum(score_show((jack, a, b, c), starter, True) for a, b, c in combinations(rest, 3))
        count += comb(len(rest), 3)
    assert crib_h.crib_expectation((jack,), unknown) == pytest.approx(total / count, abs=1e-9)


def test_bot_discards_reach_98_percent_of_the_best() -> None:
    rng, bot_rng = random.Random(11), random.Random(12)
    policy = HeuristicPolicy()
    chosen = best = 0.0
    for _ in range(30):
        dealer_six, pone_six, starter = deal(rng)
        state = deal_state(dealer_six, pone_six, starter)
        for seat, six in ((0, dealer_six), (1, pone_six)):
            evs = exact_discard_evs(six, seat == 0)
            a = policy.choose(state, seat, state.legal_actions(seat), bot_rng)
            chosen += evs[frozenset(a.subject)]
            best += max(evs.values())
    assert chosen / best >= 0.98, chosen / best


def test_search_discards_by_the_same_function() -> None:
    rng = random.Random(3)
    dealer_six, pone_six, starter = deal(rng)
    state = deal_state(dealer_six, pone_six, starter)
    for seat in (0, 1):
        actions = state.legal_actions(seat)
        via_search = crib_h.search_override(state, seat, actions, random.Random(5))
        assert via_search == crib_h.choose_discard(state, seat, actions, random.Random(5))
