"""The ``cribbage-muggins`` preset: two-player cribbage with the muggins rule of ACC Rule 10 (RULES.md §5.1,
§2): every player announces his own points, an opponent takes what he leaves out, an over-claim scores
nothing and a false call gives the named points to the accused. A whole game plays to its end."""

from __future__ import annotations

import json
import random

import pytest

from muggins.cards.cribbage import CribbageState
from muggins.core import Action, get_game
from muggins.core.records import replay, to_record

pytestmark = pytest.mark.usefixtures("pure_engine")  # tests of the pure engine, the reference

SPEC = get_game("cribbage")


def test_the_preset_turns_the_muggins_rule_on_and_says_so() -> None:
    r = SPEC.rules("cribbage-muggins")
    assert (r.claims, r.muggins, r.claim_timing, r.over_claim, r.false_call_penalty) == \
        ("manual", "steal", "strict", "void", "award")
    assert (r.players, r.target, r.five_card, r.mug_his_heels) == (2, 121, False, False)
    assert "muggins" in SPEC.descriptions["cribbage-muggins"] and "ACC Rule 10" in SPEC.descriptions["cribbage-muggins"]
    assert SPEC.players_for(r) == [2]
    assert SPEC.rules("cribbage").claims == "auto"  # the default preset is unchanged
    assert SPEC.describe()["presets"]["cribbage-muggins"]["muggins_rule"] is True


def play_game(seed: int) -> CribbageState:
    """A seeded random game: each player announces the truth most of the time and sometimes less (or
    nothing); an opponent who sees missed points calls muggins most of the time."""
    st = SPEC.new(SPEC.rules("cribbage-muggins"), 2, seed=seed)
    assert isinstance(st, CribbageState)
    rng = random.Random(seed)
    for _ in range(5000):
        if st.is_over():
            break
        callers = [s for s in range(2) if st.muggable(s) > 0]
        if callers and rng.random() < 0.8:
            st.apply(callers[0], Action("muggins"))
            continue
        seat = rng.choice(sorted(st.waiting_for()))
        a = rng.choice([x for x in st.legal_actions(seat) if x.kind not in ("muggins", "claim")])
        if a.kind in ("play", "go", "count"):
            true = st.claim_for(seat, a)
            a = a.with_claim(rng.choice([true, true, true, max(0, true - 2), None]))
        st.apply(seat, a)
    return st


def test_a_seeded_game_plays_to_the_end_with_announced_claims_and_muggins_calls() -> None:
    st = play_game(2024)
    assert st.is_over() and st.result is not None
    winner = st.result["winner_side"]
    assert st.side_scores()[winner] >= 121 and st.winners() == frozenset({winner})
    claims = [a for _, a in st.history if a.kind in ("play", "go", "count") and a.claim is not None]
    steals = [e for e in st.log if e.kind == "muggins" and e.data["outcome"] == "steal" and e.data["points"] > 0]
    assert len(claims) > 50 and len(steals) >= 1
    for side in range(2):  # the scores are the sum of the score events, muggins steals included
        assert st.side_scores()[side] == sum(e.data["points"] for e in st.log
                                             if e.kind == "score" and e.data["side"] == side)
    assert any(e.kind == "score" and e.data["reason"] == "muggins" for e in st.log)
    rec = json.loads(json.dumps(to_record(st)))
    again = replay(rec)
    assert again.side_scores() == st.side_scores() and again.is_over()
    assert [e.to_dict() for e in again.log] == [e.to_dict() for e in st.log]


def test_a_muggins_call_takes_the_points_a_hand_left_out() -> None:
    for seed in range(40):
        st = SPEC.new(SPEC.rules("cribbage-muggins"), 2, seed=seed)
        assert isinstance(st, CribbageState)
        while not st.is_over() and st.phase != "show":
            seat = next(iter(st.waiting_for()))
            a = st.legal_actions(seat)[0]
            st.apply(seat, a.with_claim(st.claim_for(seat, a)) if a.kind in ("play", "go") else a)
        if st.is_over():
            continue
        seat = st.turn
        count = st.legal_actions(seat)[0]
        true = st.claim_for(seat, count)
        if true < 4:
            continue
        before = st.side_scores()
        st.apply(seat, count.with_claim(true - 2))  # two points left out
        other = 1 - st.side_of(seat)
        st.apply(other, Action("muggins"))
        after = st.side_scores()
        assert after[st.side_of(seat)] - before[st.side_of(seat)] == true - 2
        assert after[other] - before[other] == 2
        return
    raise AssertionError("no hand worth four or more in 40 deals")
