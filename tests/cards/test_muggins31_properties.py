"""Card Muggins invariants under random play (hypothesis): cards conserved, every legal action applies,
illegal ones are refused with the state unchanged, records replay, scores are the sum of score events,
no view leaks a card, sampling keeps what a seat knows, and random games finish."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from muggins.cards.deck import full_deck
from muggins.cards.muggins31 import CardMugginsState
from muggins.core import Action, GameState, IllegalAction, get_game
from muggins.core.records import replay, to_record

pytestmark = pytest.mark.usefixtures("pure_engine")  # tests of the pure engine, the reference

SPEC = get_game("card-muggins")


def cm(state: GameState) -> CardMugginsState:
    """The state as a card Muggins state (the registry returns the protocol type)."""
    assert isinstance(state, CardMugginsState)
    return state


DECK = full_deck()
CARD = re.compile(r"\b[A2-9TJQK][CDHS]\b")

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("muggins", {}),
    ("deal-seven", {}),
    ("no-muggins", {}),
    ("strict-21", {}),
    ("muggins", {"go_draw": "none"}),
    ("muggins", {"go_draw": "only_if_below_5", "draw_after_play": False}),
    ("muggins", {"go_is_final_for_pile": True}),
    ("muggins", {"close_after_others_pass": True, "lead_after_last_passer": True}),
    ("muggins", {"thirty_one_plus_last": True, "mug_last": True}),
    ("muggins", {"lead_scores": False, "window": "until_next_play"}),
    ("muggins", {"claim_timing": "lenient", "muggins": "steal_and_deduct"}),
    ("muggins", {"muggins": "forfeit", "over_claim": "opponent_scores", "false_call_penalty": "deduct"}),
    ("muggins", {"false_call_penalty": "award", "win_check": "end_of_round", "first_dealer": "low_card"}),
    ("strict-21", {"go_is_final_for_pile": True, "close_after_others_pass": True, "mug_last": True,
                   "window": "until_next_play", "target": 100}),
]
MAX_ACTIONS = 6000


def new_game(variant: int, n: int, seed: int) -> CardMugginsState:
    preset, options = VARIANTS[variant]
    st = SPEC.new(SPEC.rules(preset, options), n, seed=seed)
    assert isinstance(st, CardMugginsState)
    return st


def choose(st: CardMugginsState, rng: random.Random) -> tuple[int, Action]:
    """A random but plausible action: mostly the turn, sometimes a call or a late claim; claims are
    true, missing, too small or too large."""
    w = st.view(None)["window"]
    if w is not None and rng.random() < 0.2:
        seats = sorted(st.to_act() - {st.turn}) or [st.turn]
        seat = rng.choice(seats)
        extra = [a for a in st.legal_actions(seat) if a.kind in ("muggins", "claim")]
        if extra:
            a = rng.choice(extra)
            top = st.max_step_points()  # the engine refuses larger amounts
            if a.kind == "claim":
                return seat, a.with_claim(min(top, rng.choice([1, 2, 5, 25])))
            named = rng.choice([None, None, 0, 5, 30])
            return seat, a.with_claim(None if named is None else min(named, top))
    seat = st.turn
    a = rng.choice([a for a in st.legal_actions(seat) if a.kind in ("play", "go")])
    if a.kind == "play" and st.rules.claims == "manual":
        true = st.claim_for(seat, a)
        r = rng.random()
        if r < 0.6:
            a = a.with_claim(true)
        elif r < 0.75:
            a = a.with_claim(None)
        elif r < 0.9:
            a = a.with_claim(max(0, true - rng.choice([1, 5, 10])))
        else:
            a = a.with_claim(min(true + rng.choice([1, 5]), st.max_step_points()))
    return seat, a


def snapshot(st: CardMugginsState) -> str:
    views = [st.view(None).to_json()] + [st.view(s).to_json() for s in range(st.num_players)]
    return json.dumps([views, st.events_for(None), st.side_scores(), [st.format_action(a) for _, a in st.history],
                       [a.claim for _, a in st.history]], sort_keys=True)


def check_cards(st: CardMugginsState) -> None:
    cards = [c for h in st.hands for c in h] + st.stock + st.pile + [c for p in st.piles for c in p]
    assert len(cards) == 52 and set(cards) == set(DECK)
    assert st.total == sum(c.value for c in st.pile) <= st.rules.cap


def check_scores(st: CardMugginsState) -> None:
    sums = [0] * st.num_players
    for e in st.log:
        if e.kind == "score":
            sums[e.data["side"]] += e.data["points"]
    assert sums == st.side_scores()


def check_no_leak(st: CardMugginsState) -> None:
    public = {c for e in st.log if e.kind == "cut_for_deal" for c in e.data["cards"]}
    public |= {e.data["card"] for e in st.log if e.kind == "play"}
    for s in range(st.num_players):
        own = {c for e in st.log if e.seat == s and e.kind == "dealt" for c in e.data["cards"]}
        own |= {e.data["card"] for e in st.log if e.seat == s and e.kind == "draw"}
        seen = set(CARD.findall(json.dumps([st.view(s).to_json(), st.events_for(s)])))
        assert seen <= public | own, f"seat {s} sees {sorted(seen - public - own)}"
        assert st.view(s)["my_hand"] == [c.text for c in sorted(st.hands[s], key=lambda c: c.index)]
    seen = set(CARD.findall(json.dumps([st.view(None).to_json(), st.events_for(None)])))
    assert seen <= public


def check_legal_apply(st: CardMugginsState) -> None:
    for seat in st.to_act():
        for a in st.legal_actions(seat):
            c = st.clone()
            if a.kind == "claim":
                a = a.with_claim(1)
            elif a.kind == "play" and st.rules.claims == "manual":
                a = a.with_claim(st.claim_for(seat, a))
            c.apply(seat, a)
            assert len(c.history) == len(st.history) + 1


def illegal_candidates(st: CardMugginsState, rng: random.Random) -> list[tuple[int, Action]]:
    out: list[tuple[int, Action]] = []
    turn = st.turn
    legal = set(st.legal_actions(turn))
    out += [(turn, Action("play", c)) for c in rng.sample(DECK, 6) if Action("play", c) not in legal]
    if Action("go") not in legal:
        out.append((turn, Action("go")))
    other = (turn + 1) % st.num_players
    out.append((other, Action("go")))
    out += [(other, Action("play", c)) for c in st.hands[other][:1]]
    w = st.view(None)["window"]
    if w is None:
        out.append((other, Action("muggins")))
    else:
        out.append((w["scorer"], Action("muggins")))
        if not w["scorer_may_claim"]:
            out.append((w["scorer"], Action("claim", claim=1)))
    out.append((turn, Action("go", claim=3)))
    out.append((turn, Action("draw")))
    return out


def check_illegal(st: CardMugginsState, rng: random.Random) -> None:
    before = snapshot(st)
    n_hist, n_log = len(st.history), len(st.log)
    for seat, a in illegal_candidates(st, rng):
        try:
            st.apply(seat, a)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"seat {seat} could apply illegal {a}")
        assert len(st.history) == n_hist and len(st.log) == n_log
    assert snapshot(st) == before


def check_sample(st: CardMugginsState, rng: random.Random) -> None:
    seat = rng.randrange(st.num_players)
    s = st.sample_hidden(seat, random.Random(rng.random()))
    assert s.view(seat) == st.view(seat)
    check_cards(s)
    assert [len(h) for h in s.hands] == [len(h) for h in st.hands] and s.hands[seat] == st.hands[seat]
    played = set(st.pile) | {c for p in st.piles for c in p}
    assert not played & {c for o in range(st.num_players) if o != seat for c in s.hands[o]}


def run(st: CardMugginsState, rng: random.Random, deep: bool) -> None:
    steps = 0
    while not st.is_over():
        if deep:
            check_legal_apply(st)
            if steps % 3 == 0:
                check_illegal(st, rng)
            if steps % 15 == 0:
                check_no_leak(st)
                check_sample(st, rng)
        seat, a = choose(st, rng)
        st.apply(seat, a)
        check_cards(st)
        check_scores(st)
        steps += 1
        assert steps < MAX_ACTIONS, "the game does not finish"
    assert st.winners() and all(st.side_scores()[w] >= st.rules.target for w in st.winners())
    assert st.to_act() == frozenset() and st.waiting_for() == frozenset()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st_.integers(0, 2**32 - 1), n=st_.sampled_from([2, 3, 4]),
       variant=st_.integers(0, len(VARIANTS) - 1))
def test_random_games_keep_every_invariant(seed: int, n: int, variant: int) -> None:
    st = new_game(variant, n, seed)
    rng = random.Random(seed)
    run(st, rng, deep=True)
    check_no_leak(st)
    again = cm(replay(json.loads(json.dumps(to_record(st)))))
    assert snapshot(again) == snapshot(st)
    assert [e.to_dict() for e in again.log] == [e.to_dict() for e in st.log]


@settings(max_examples=40, deadline=None)
@given(seed=st_.integers(0, 2**32 - 1), n=st_.sampled_from([2, 3, 4]),
       variant=st_.integers(0, len(VARIANTS) - 1), cut=st_.integers(1, 80))
def test_replay_and_undo_mid_game(seed: int, n: int, variant: int, cut: int) -> None:
    st = new_game(variant, n, seed)
    rng = random.Random(seed)
    for _ in range(cut):
        if st.is_over():
            break
        st.apply(*choose(st, rng))
    rec = to_record(st)
    again = cm(replay(json.loads(json.dumps(rec))))
    assert snapshot(again) == snapshot(st)
    assert to_record(again) == rec
    if st.history:
        before = snapshot(st)
        c = st.clone()
        seat, a = c.history[-1]
        c.undo()
        c.apply(seat, a)
        assert snapshot(c) == before


@settings(max_examples=45, deadline=None)
@given(seed=st_.integers(0, 2**32 - 1), n=st_.sampled_from([2, 3, 4]),
       variant=st_.integers(0, len(VARIANTS) - 1))
def test_random_games_finish(seed: int, n: int, variant: int) -> None:
    st = new_game(variant, n, seed)
    run(st, random.Random(seed), deep=False)
