"""The attention model: its rates match its settings (within binomial bounds), and the expert level
never misses a claim and never lets a miss go."""

from __future__ import annotations

import math
import random

import pytest

from muggins.bots import Attention, AttentiveBot, RandomPolicy, make_bot
from muggins.bots.attention import LEVEL_ATTENTION, under_amount
from muggins.core import RulesError, get_game
from muggins.sim.driver import DealChance, run
from tests.helpers import domino_state, play

N = 4000


def within(count: int, n: int, p: float, sigmas: float = 4.5) -> bool:
    """``count`` successes in ``n`` trials is plausible for rate ``p`` (normal bound, 4.5 sigma)."""
    sd = math.sqrt(n * p * (1 - p))
    return abs(count - n * p) <= sigmas * sd + 1


@pytest.mark.parametrize(("forget", "under"), [(0.0, 0.0), (0.2, 0.1), (0.5, 0.3), (1.0, 0.0)])
def test_announce_rates(forget: float, under: float) -> None:
    att = Attention(forget=forget, under_claim=under)
    rng = random.Random(1)
    said = [att.announce(15, rng) for _ in range(N)]
    assert within(sum(1 for x in said if x is None), N, forget)
    unders = [x for x in said if x is not None and x < 15]
    assert within(len(unders), N, under)
    assert all(x in (5, 10) for x in unders)  # a smaller count of fives
    assert all(x is None or x <= 15 for x in said)


def test_nothing_to_announce_is_silence() -> None:
    att = Attention(forget=0.0)
    assert att.announce(0, random.Random(0)) is None


def test_under_amounts_are_smaller() -> None:
    rng = random.Random(3)
    for true in (2, 3, 7, 10, 15, 20, 29, 30):
        for _ in range(50):
            u = under_amount(true, rng)
            assert u is not None and 0 < u < true
    assert under_amount(5, rng) is None  # no smaller count of fives: nothing is said
    assert under_amount(1, rng) is None


@pytest.mark.parametrize(("vigilance", "false_call"), [(0.0, 0.0), (0.35, 0.05), (0.9, 0.2), (1.0, 0.0)])
def test_call_rates(vigilance: float, false_call: float) -> None:
    att = Attention(vigilance=vigilance, false_call=false_call)
    rng = random.Random(2)
    assert within(sum(att.calls_muggins(10, rng) for _ in range(N)), N, vigilance)
    assert within(sum(att.calls_muggins(0, rng) for _ in range(N)), N, false_call)


def test_reaction_delay_is_never_negative_and_centred() -> None:
    att = Attention(reaction=1.0, reaction_spread=0.3)
    rng = random.Random(4)
    xs = [att.delay(rng) for _ in range(N)]
    assert min(xs) >= 0
    assert abs(sum(xs) / N - 1.0) < 0.05
    assert Attention(reaction=0.7).delay(rng) == 0.7


@pytest.mark.parametrize("bad", [{"forget": -0.1}, {"vigilance": 1.5}, {"forget": 0.7, "under_claim": 0.5},
                                 {"reaction": -1.0}])
def test_invalid_rates_are_refused(bad: dict[str, float]) -> None:
    with pytest.raises(RulesError):
        Attention(**bad)


def _missed_window() -> tuple[object, int]:
    """A domino position where seat 0 just scored 10 and said nothing: seat 1 may mug 10."""
    st = domino_state("muggins", hands=[["5-5", "0-0", "0-4", "1-1"], ["5-0", "5-6", "2-2", "3-3"]])
    play(st, "5-5", claim=False)
    assert st.muggable(1) == 10
    return st, 1


def test_bot_calls_at_its_vigilance_rate() -> None:
    st, seat = _missed_window()
    n = 1500
    calls = 0
    for i in range(n):
        bot = AttentiveBot("t", RandomPolicy(), Attention(vigilance=0.3))
        a = bot.act(st, seat, random.Random(i))  # type: ignore[arg-type]
        assert a is not None
        if a.kind == "muggins":
            assert a.claim == 10
            calls += 1
    assert within(calls, n, 0.3)


def test_bot_asked_twice_about_one_window_answers_the_same() -> None:
    st, seat = _missed_window()
    bot = AttentiveBot("t", RandomPolicy(), Attention(vigilance=0.5))
    first = [bot.act(st, seat, random.Random(i)).kind for i in range(1)]  # type: ignore[arg-type, union-attr]
    again = {bot.act(st, seat, random.Random(99 + i)).kind for i in range(20)}  # type: ignore[arg-type, union-attr]
    assert again == set(first)


def test_bot_claims_at_its_rates_in_manual_mode() -> None:
    st = domino_state("muggins", hands=[["5-5", "0-0", "0-4", "1-1"], ["5-0", "5-6", "2-2", "3-3"]])
    n = 2000
    scoring = silent = under = 0
    for i in range(n):
        bot = AttentiveBot("t", RandomPolicy(), Attention(forget=0.25, under_claim=0.15))
        a = bot.act(st, 0, random.Random(i))
        assert a is not None and a.kind == "play"
        true = st.claim_for(0, a._replace(claim=None))
        if true == 0:  # only the lead 5-5 scores (10); the other leads say nothing
            assert a.claim is None
            continue
        scoring += 1
        if a.claim is None:
            silent += 1
        elif a.claim < true:
            under += 1
    assert scoring > n // 8
    assert within(silent, scoring, 0.25)
    assert within(under, scoring, 0.15)


def test_expert_never_misses_and_never_lets_a_miss_go() -> None:
    assert LEVEL_ATTENTION["expert"].perfect
    spec = get_game("dominoes")
    rules = spec.rules("muggins", {"target": 100})
    missed_by_beginner = 0
    for seed in range(3):
        state = spec.new(rules, 2, chance=DealChance(seed))
        res = run(state, [make_bot("expert:iterations=10", seed), make_bot("beginner", seed)], seed)
        expert, beginner = res.seats
        assert expert.unclaimed == 0 and expert.claims_made == expert.claims_true
        # every miss was mugged by the expert, except on a play that ended the game: no call can follow it
        last_play = max(i for i, e in enumerate(state.log) if e.kind == "play")
        final = sum(e.data["points"] for e in state.log[last_play:] if e.kind == "missed" and e.seat == 1)
        assert beginner.missed == final
        assert final == 0 or (state.is_over() and state.log[last_play].seat == 1)
        assert beginner.mugged == expert.stolen
        missed_by_beginner += beginner.mugged
    assert missed_by_beginner > 0  # the beginner did miss something to be caught


def test_lenient_timing_lets_a_forgetful_bot_claim_late() -> None:
    spec = get_game("dominoes")
    rules = spec.rules("muggins", {"claim_timing": "lenient", "target": 100})
    state = spec.new(rules, 2, chance=DealChance(5))
    res = run(state, [make_bot("greedy:forget=0.5:vigilance=0", 1), make_bot("greedy:vigilance=0", 2)], 5)
    a = res.seats[0]
    assert a.late_claims > 0
    assert a.claims_true - a.claims_made - a.late_claims == a.unclaimed
