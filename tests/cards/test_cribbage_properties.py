"""Invariants of the cribbage state machine over random play (hypothesis): cards are conserved, every
legal action applies and illegal ones change nothing, records replay, scores are the sum of score events,
no view or event stream shows a seat a card it may not see, samples of the hidden cards are consistent
games, and random games for two, three and four players finish."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from muggins.cards.cribbage import CribbageState
from muggins.cards.cribbage.game import DECK, play_action
from muggins.core import Action, IllegalAction, get_game
from muggins.core.records import replay, to_record
from tests.cards.test_cribbage_play import snapshot

pytestmark = pytest.mark.usefixtures("pure_engine")  # tests of the pure engine, the reference

SPEC = get_game("cribbage")
FORMS = [("cribbage", 2), ("three-hand", 3), ("four-hand", 4), ("five-card", 2)]
CARD_TEXTS = {c.text for c in DECK}


def new_game(form: int, seed: int, manual: bool) -> CribbageState:
    preset, n = FORMS[form]
    rules = SPEC.rules(preset, {"claims": "manual"} if manual else None)
    st = SPEC.new(rules, n, seed=seed)
    assert isinstance(st, CribbageState)
    return st


def random_move(st: CribbageState, rng: random.Random) -> tuple[int, Action]:
    """Any seat that may act, any of its legal actions; in manual mode a claim that is right, short,
    too high or missing."""
    seat = rng.choice(sorted(st.to_act()))
    a = rng.choice(st.legal_actions(seat))
    if st.rules.claims == "manual" and a.kind in ("play", "go", "count", "claim", "muggins"):
        truth = st.claim_for(seat, a) if a.kind != "muggins" else st.muggable(seat)
        options: list[int | None] = [truth, truth, truth, max(0, truth - 1), min(truth + 2, st.max_step_points())]
        if a.kind != "claim":  # a late claim must name its points
            options.append(None)
        a = a.with_claim(rng.choice(options))
    return seat, a


def hidden_from(st: CribbageState, seat: int) -> set[str]:
    """Cards of this hand that ``seat`` may not see, worked out from the public record of the hand."""
    v = st.view(None)
    shown = {x["seat"] for x in v["shows"] if x["what"] == "hand"}
    crib_shown = v["crib"] is not None
    out = {c.text for c in st.pack} - ({st.starter.text} if st.starter is not None else set())
    for s in range(st.num_players):
        if s != seat:
            if s not in shown:
                out.update(c.text for c in st.hands[s])
            if not crib_shown:
                out.update(c.text for c in st.discards[s])
    if not crib_shown:
        discarded = {c for d in st.discards for c in d}
        out.update(c.text for c in st.crib if c not in discarded)
    return out


def tokens(data: Any) -> set[str]:
    """Every word of every string in ``data``."""
    text = json.dumps(data)
    return {w.strip('",[]{}:') for w in text.replace(",", " ").split()}


def check_invariants(st: CribbageState) -> None:
    # cards conserved
    played = [c for _, c in st._played]
    everything = [c for h in st.hands for c in h] + played + st.crib + st.pack
    assert len(everything) == 52 and set(everything) == set(DECK)
    for s in range(st.num_players):
        if st.kept[s]:
            assert sorted(st.kept[s], key=lambda c: c.index) == sorted(
                [c for t, c in st._played if t == s] + st.hands[s], key=lambda c: c.index)
    # scores are the sum of the score events
    sums = [0] * st.num_sides
    for e in st.log:
        if e.kind == "score":
            sums[e.data["side"]] += e.data["points"]
    assert sums == st.side_scores()
    assert st.waiting_for() <= st.to_act()
    # no view leaks a hidden card of this hand (earlier hands' shows may name the same cards)
    start = st._hand_log_start
    for seat in range(st.num_players):
        secret = hidden_from(st, seat)
        v = st.view(seat).to_json()
        v.pop("previous_hand", None)
        assert not tokens(v) & secret, f"view of seat {seat} leaks {tokens(v) & secret}"
        current = [e for e in st.events_for(seat, start) if e["kind"] != "explain"]
        assert not tokens(current) & secret
    json.dumps(st.view(None).to_json())


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(form=hs.integers(0, 3), seed=hs.integers(0, 10**6), manual=hs.booleans(), steps=hs.integers(5, 90))
def test_random_play_keeps_every_invariant(form: int, seed: int, manual: bool, steps: int) -> None:
    st = new_game(form, seed, manual)
    rng = random.Random(seed)
    for i in range(steps):
        if st.is_over():
            break
        check_invariants(st)
        if i % 7 == 0:  # every legal action applies to a copy; the original is untouched
            before = snapshot(st)
            for seat in sorted(st.to_act()):
                for a in st.legal_actions(seat):
                    c = st.clone()
                    c.apply(seat, a)
            assert snapshot(st) == before
        seat, a = random_move(st, rng)
        st.apply(seat, a)
    check_invariants(st)
    rec = json.loads(json.dumps(to_record(st)))
    again = replay(rec)
    assert [e.to_dict() for e in again.log] == [e.to_dict() for e in st.log]
    assert [again.view(s) for s in range(st.num_players)] == [st.view(s) for s in range(st.num_players)]
    assert again.side_scores() == st.side_scores() and again.history == st.history


@settings(max_examples=30, deadline=None)
@given(form=hs.integers(0, 3), seed=hs.integers(0, 10**6), steps=hs.integers(0, 60),
       pick=hs.integers(0, 10**6))
def test_illegal_actions_are_refused_and_change_nothing(form: int, seed: int, steps: int, pick: int) -> None:
    st = new_game(form, seed, manual=pick % 2 == 0)
    rng = random.Random(seed)
    for _ in range(steps):
        if st.is_over():
            return
        st.apply(*random_move(st, rng))
    if st.is_over():
        return
    prng = random.Random(pick)
    seat = prng.randrange(st.num_players)
    legal = set(st.legal_actions(seat))
    candidates = [play_action(c) for c in DECK] + [Action("go"), Action("count", "hand"), Action("count", "crib"),
                                                  Action("discard", (DECK[pick % 52],)), Action("muggins"),
                                                  Action("claim", claim=1)]
    illegal = [a for a in candidates if a not in legal]
    before = snapshot(st)
    for a in prng.sample(illegal, min(6, len(illegal))):
        with pytest.raises(IllegalAction):
            st.apply(seat, a)
        assert snapshot(st) == before


@settings(max_examples=25, deadline=None)
@given(form=hs.integers(0, 3), seed=hs.integers(0, 10**6), steps=hs.integers(0, 70), manual=hs.booleans())
def test_sampled_hidden_cards_are_a_consistent_game(form: int, seed: int, steps: int, manual: bool) -> None:
    st = new_game(form, seed, manual)
    rng = random.Random(seed)
    for _ in range(steps):
        if st.is_over():
            return
        st.apply(*random_move(st, rng))
    if st.is_over():
        return
    seat = rng.randrange(st.num_players)
    before = snapshot(st)
    sample = st.sample_hidden(seat, random.Random(seed + 1))
    assert snapshot(st) == before
    assert sample.view(seat) == st.view(seat)
    assert sample.events_for(seat) == st.events_for(seat)
    check_invariants(sample)
    for s in range(st.num_players):  # a player who said go held nothing that fitted then
        if s != seat:
            assert all(c.value > st._go_floor[s] for c in sample.hands[s])
    again = replay(json.loads(json.dumps(to_record(sample))))
    assert [e.to_dict() for e in again.log] == [e.to_dict() for e in sample.log]
    for _ in range(20):  # and it plays on
        if sample.is_over():
            break
        sample.apply(*random_move(sample, rng))


@settings(max_examples=15, deadline=None)
@given(form=hs.integers(0, 3), seed=hs.integers(0, 10**6), steps=hs.integers(1, 60))
def test_undo_takes_back_the_last_action(form: int, seed: int, steps: int) -> None:
    st = new_game(form, seed, manual=True)
    rng = random.Random(seed)
    for _ in range(steps):
        if st.is_over():
            return
        before = snapshot(st)
        st.apply(*random_move(st, rng))
    st.undo()
    assert snapshot(st) == before


@pytest.mark.parametrize("form", range(4))
def test_random_games_finish(form: int) -> None:
    for seed in range(3):
        st = new_game(form, seed, manual=False)
        rng = random.Random(seed)
        moves = 0
        while not st.is_over():
            seat = min(st.waiting_for())
            st.apply(seat, rng.choice(st.legal_actions(seat)))
            moves += 1
            assert moves < 5000
        assert max(st.side_scores()) >= st.rules.target
        assert st.result is not None
        assert st.winners() == {s for s in range(st.num_players) if st.side_of(s) == st.result["winner_side"]}
        check_invariants(st)


def test_a_manual_game_with_honest_claims_finishes_like_an_auto_game() -> None:
    """Claiming the truth every time gives the same scores as automatic scoring."""
    auto = new_game(0, 7, manual=False)
    hand = new_game(0, 7, manual=True)
    rng = random.Random(7)
    while not auto.is_over():
        seat = min(auto.waiting_for())
        a = rng.choice(auto.legal_actions(seat))
        auto.apply(seat, a)
        hand.apply(seat, a.with_claim(hand.claim_for(seat, a)) if a.kind in ("play", "go", "count") else a)
        assert hand.side_scores() == auto.side_scores()
    assert hand.is_over() and hand.winners() == auto.winners()
