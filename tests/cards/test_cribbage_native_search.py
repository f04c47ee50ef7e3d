"""The native cribbage search (``native.search``) and the worlds it draws (``native.sample_world``).

Worlds: drawn from the pure sampler's frame (``CribbageState.sampling_frame``), they must keep what the
seat knows (its cards, the played cards, the starter, the scores and the count), respect a go (the player
held nothing that fitted), hold every card once, and depend on nothing the seat has not seen. The search:
a legal move, the same result for the same seed, an obvious pegging score taken.

Skips when the native module is not built (fails instead under CI=true: tests/conftest.py).
"""

from __future__ import annotations

import random

import pytest

from muggins._accel import load_native
from muggins.bots.base import next_decision
from muggins.cards.cribbage.game import CribbageState, discard_action, play_action, stacked
from muggins.cards.cribbage.rules import PRESETS
from muggins.cards.dealing import CARD_BY_TEXT
from muggins.core.chance import Chance
from muggins.core.errors import GameOver

native, WHY = load_native("muggins.cards.cribbage.native")
pytestmark = pytest.mark.skipif(native is None, reason=f"the native cribbage module: {WHY}")


def _positions(preset: str, games: int, seed: int) -> list[tuple[CribbageState, int]]:
    """Pegging positions with a choice, along games of random play."""
    out: list[tuple[CribbageState, int]] = []
    rng = random.Random(seed)
    for g in range(games):
        state = CribbageState.new(PRESETS[preset], 2, Chance(seed=seed * 100 + g))
        while not state.is_over():
            nd = next_decision(state)
            assert nd is not None
            seat, acts = nd
            if state.phase == "play" and len(acts) > 1:
                out.append((state.clone(), seat))
            state.apply(seat, rng.choice(acts))
    return out


def _idx(cards: list) -> list[int]:
    return sorted(c.index for c in cards)


def test_worlds_keep_what_the_seat_knows_and_respect_every_go() -> None:
    floored = 0
    for state, seat in _positions("cribbage-61", 6, 1):
        o = 1 - seat
        played = {s: sorted(c.index for t, c in state._played if t == s) for s in (0, 1)}
        floor = state._go_floor[o]
        for k in range(4):
            w = native.sample_world(state, seat, k)
            hands, kept = w["hands"], w["kept"]
            assert hands[seat] == _idx(state.hands[seat])
            assert kept[seat] == _idx(state.kept[seat])
            assert len(hands[o]) == len(state.hands[o])
            assert kept[o] == sorted(played[o] + hands[o])
            assert all(CARD_BY_TEXT_INDEX[c].value > floor for c in hands[o])
            assert w["starter"] == state.starter.index and w["pack"][state._cut] == state.starter.index
            assert len(w["crib"]) == 4 and set(_idx(state.discards[seat])) <= set(w["crib"])
            assert (w["scores"], w["phase"], w["turn"], w["count"]) == (
                state.side_scores(), state.phase, state.turn, state.count)
            everything = hands[0] + hands[1] + played[0] + played[1] + w["crib"] + w["pack"]
            assert sorted(everything) == list(range(52))
        if floor > 0 and state.hands[o]:
            floored += 1
    assert floored > 5  # the go floor was really put to the test


CARD_BY_TEXT_INDEX = {c.index: c for c in CARD_BY_TEXT.values()}


def test_worlds_and_searches_in_the_discard_and_the_show() -> None:
    rng = random.Random(8)
    phases = set()
    for g in range(3):
        state = CribbageState.new(PRESETS["cribbage"], 2, Chance(seed=50 + g))
        while not state.is_over() and state.hand_no < 3:
            seat, acts = next_decision(state)
            if state.phase in ("discard", "show"):
                phases.add(state.phase)
                w = native.sample_world(state, seat, g)
                assert w["hands"][seat] == _idx(state.hands[seat])
                assert [len(h) for h in w["hands"]] == [len(h) for h in state.hands]
                assert len(w["crib"]) == len(state.crib)
                assert set(_idx(state.discards[seat])) <= set(w["crib"])
                if state.phase == "show":  # every card of both hands was played: the kept hands are known
                    assert w["kept"] == [_idx(k) for k in state.kept]
                cards = w["hands"][0] + w["hands"][1] + w["crib"] + w["pack"] + \
                    [c.index for _, c in state._played]
                assert sorted(cards) == list(range(52))
                r = native.search(state, seat, 50, 60.0, 0.7, 120, 0.8, g)
                assert r["action"] in {state.action_id(a) for a in state.legal_actions(seat)}
            state.apply(seat, rng.choice(acts))
    assert phases == {"discard", "show"}


def test_worlds_vary_with_the_seed() -> None:
    state, seat = _positions("cribbage", 1, 2)[0]
    seen = {tuple(native.sample_world(state, seat, k)["hands"][1 - seat]) for k in range(20)}
    assert len(seen) > 10


def test_states_the_seat_cannot_tell_apart_give_the_same_worlds_and_search() -> None:
    rng = random.Random(3)
    differed = 0
    for state, seat in _positions("cribbage-61", 3, 4)[::3]:
        other = state.sample_hidden(seat, rng)  # a true state just as consistent with what seat saw
        o = 1 - seat
        if _idx(other.hands[o]) != _idx(state.hands[o]) or _idx(other.crib) != _idx(state.crib):
            differed += 1
        for k in range(3):
            assert native.sample_world(state, seat, k) == native.sample_world(other, seat, k)
        a = native.search(state, seat, 300, 60.0, 0.7, 120, 0.8, 9)
        b = native.search(other, seat, 300, 60.0, 0.7, 120, 0.8, 9)
        assert a == b
    assert differed > 3


def test_search_is_legal_and_deterministic() -> None:
    for state, seat in _positions("cribbage", 2, 5)[::4]:
        legal = {state.action_id(a) for a in next_decision(state)[1]}
        r = native.search(state, seat, 400, 60.0, 0.7, 120, 0.8, 11)
        assert r["action"] in legal
        assert r["iterations"] == 400
        assert {a for a, _, _ in r["children"]} <= legal
        assert sum(v for _, v, _ in r["children"]) == 400
        best = max(r["children"], key=lambda x: (x[1], x[2]))
        assert best[0] == r["action"]
        assert native.search(state, seat, 400, 60.0, 0.7, 120, 0.8, 11) == r


def _pegging(hand0: list[str], hand1: list[str], lay1: list[str], lead: str) -> CribbageState:
    """Seat 0 deals; both lay away two cards and seat 1 (the pone) leads ``lead``."""
    s = stacked(PRESETS["cribbage"], [hand0, hand1], "KH", dealer=0)
    s.apply(0, discard_action([CARD_BY_TEXT[t] for t in hand0[4:]]))
    s.apply(1, discard_action([CARD_BY_TEXT[t] for t in lay1]))
    s.apply(1, play_action(CARD_BY_TEXT[lead]))
    return s


@pytest.mark.parametrize(("hand0", "lead", "want"), [
    (["5C", "2D", "8S", "KC", "4H", "AS"], "TH", "5C"),    # fifteen
    (["9C", "2D", "3S", "KC", "4H", "AS"], "6H", "9C"),    # fifteen
    (["7S", "2D", "QC", "KC", "4H", "AS"], "7H", "7S"),    # a pair
])
def test_search_takes_an_obvious_pegging_score(hand0: list[str], lead: str, want: str) -> None:
    hand1 = ["TH", "6H", "7H", "JD", "3C", "9H"]
    hand1 = [lead] + [t for t in hand1 if t != lead][:5]
    state = _pegging(hand0, hand1, hand1[4:], lead)
    assert state.turn == 0
    for seed in range(3):
        r = native.search(state, 0, 3000, 60.0, 0.7, 120, 0.8, seed)
        assert r["action"] == state.action_id(play_action(CARD_BY_TEXT[want])), (seed, r)


def test_out_of_scope_and_bad_arguments_are_refused() -> None:
    state, seat = _positions("cribbage", 1, 6)[0]
    with pytest.raises(ValueError):
        native.search(state, seat, 0, 1.0, 0.7, 120, 0.8, 0)
    with pytest.raises(ValueError):
        native.search(state, seat, 10, 0.0, 0.7, 120, 0.8, 0)
    with pytest.raises(ValueError):
        native.sample_world(state, 2, 0)
    manual = CribbageState.new(PRESETS["cribbage-muggins"], 2, Chance(seed=1))
    with pytest.raises(NotImplementedError, match="manual claims"):
        native.search(manual, 0, 10, 1.0, 0.7, 120, 0.8, 0)
    three = CribbageState.new(PRESETS["three-hand"], 3, Chance(seed=1))
    with pytest.raises(NotImplementedError):
        native.sample_world(three, 0, 0)
    over = CribbageState.new(PRESETS["cribbage-61"], 2, Chance(seed=2))
    rng = random.Random(0)
    while not over.is_over():
        seat, acts = next_decision(over)
        over.apply(seat, rng.choice(acts))
    with pytest.raises(GameOver):
        native.search(over, 0, 10, 1.0, 0.7, 120, 0.8, 0)
