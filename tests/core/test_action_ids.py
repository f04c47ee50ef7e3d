"""Integer actions (docs/actions.md): for every game, preset, claim mode and player count, every legal action
of every seat round-trips through its id, ids are distinct and in range, the mask sets exactly the legal
ids, bad ids are refused with the state unchanged; a golden table pins the numbering."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from muggins.cards.deck import parse_card
from muggins.core import Action, all_games, get_game
from muggins.core.errors import BadAmount, ClaimError, IllegalAction, NoSuchSeat, UnknownAction
from muggins.core.records import to_record
from tests.helpers import domino_state, play

CLAIMED = {"dominoes": {"play"}, "card-muggins": {"play"}, "cribbage": {"play", "go", "count"}}


def cases() -> list[tuple[str, str, str, int]]:
    """(game, preset, claims, players) for every preset in each claim mode it can be played in."""
    out = []
    for name, spec in sorted(all_games().items()):
        for preset in spec.presets:
            modes = ["manual", "auto"] if preset != "no-muggins" else ["auto"]
            for claims in modes:
                for n in spec.players_for(spec.rules(preset, {"claims": claims})):
                    out.append((name, preset, claims, n))
    return out


CASES = cases()


def new_state(game: str, preset: str, claims: str, players: int, seed: int) -> Any:
    spec = get_game(game)
    return spec.new(spec.rules(preset, {"claims": claims}), players, seed=seed)


def snapshot(state: Any) -> Any:
    return (to_record(state), [state.view(s) for s in range(state.num_players)], state.legal_actions(0))


def width(state: Any, action: Action) -> int:
    """How many ids a legal move takes: one per claim it may carry."""
    if state.rules.claims != "manual":
        return 1
    top = state.max_step_points()
    if action.kind == "claim":
        return top + 1
    if action.kind == "muggins" or action.kind in CLAIMED[state.game]:
        return top + 2
    return 1


def variants(state: Any, seat: int, action: Action, every: bool) -> list[Action]:
    """The legal forms of ``action``: with every claim it may carry (``every``), or a sample of them
    (none, the truth, an under- and an over-claim, 0 and the bound)."""
    if width(state, action) == 1:
        return [action]
    top = state.max_step_points()
    if every:
        amounts: list[int | None] = list(range(top + 1))
    else:
        true = state.claim_for(seat, action)
        amounts = sorted({0, top, true, max(true - 1, 0), min(true + 1, top)})
    if action.kind != "claim":
        amounts = [None, *amounts]
    return [action.with_claim(c) for c in amounts]


def check_position(state: Any, every: bool) -> None:
    n = state.num_distinct_actions()
    for seat in range(state.num_players):
        legal = state.legal_actions(seat)
        mask = state.legal_action_mask(seat)
        assert isinstance(mask, bytes) and len(mask) == n
        if seat not in state.to_act():
            assert legal == [] and not any(mask)
            continue
        bases = [state.action_id(a.with_claim(0 if a.kind == "claim" else None)) for a in legal]
        assert len(set(bases)) == len(bases), "two legal moves share an id"
        seen = set()
        for a in legal:
            for v in variants(state, seat, a, every):
                i = state.action_id(v)
                assert 0 <= i < n and mask[i] == 1, (v, i)
                assert state.action_from_id(seat, i) == v
                seen.add(i)
        # the mask holds exactly the ids of the legal moves with every claim they may carry
        assert sum(mask) == sum(width(state, a) for a in legal)
        if every:
            assert seen == {i for i, b in enumerate(mask) if b}


def random_step(state: Any, rng: random.Random) -> None:
    """A random legal id of a random seat that may act, applied (calls and late claims now and then)."""
    seats = sorted(state.to_act())
    seat = rng.choice(seats)
    ids = [i for i, b in enumerate(state.legal_action_mask(seat)) if b]
    action = state.action_from_id(seat, rng.choice(ids))
    if action.kind in ("muggins", "claim") and rng.random() < 0.6:
        seat = rng.choice(sorted(state.waiting_for()))
        action = rng.choice([a for a in state.legal_actions(seat) if a.kind not in ("muggins", "claim")])
        if width(state, action) > 1 and rng.random() < 0.8:
            action = action.with_claim(state.claim_for(seat, action))
    state.apply(seat, action)


@pytest.mark.parametrize(("game", "preset", "claims", "players"), CASES,
                         ids=[f"{g}:{p}:{c}:{n}" for g, p, c, n in CASES])
def test_every_legal_action_round_trips_and_the_mask_is_exact(game: str, preset: str, claims: str,
                                                              players: int) -> None:
    state = new_state(game, preset, claims, players, seed=players)
    rng = random.Random(players)
    kinds = set()
    for step in range(150):
        if state.is_over():
            break
        check_position(state, every=step % 25 == 0)
        kinds |= {a.kind for s in state.to_act() for a in state.legal_actions(s)}
        random_step(state, rng)
    assert kinds & {"play", "discard"}
    if claims == "manual":
        assert "muggins" in kinds


DOMINO_VARIANTS: list[tuple[str, int, dict[str, Any], set[str | None]]] = [
    ("sniff", 3, {"spinner": "sniff_option"}, {"inline", "side", "end", None}),
    ("sniff", 2, {"spinner": "sniff_stub"}, {"side"}),
    ("five-up", 4, {"spinner_sides_first": False}, {"end"}),
    ("muggins", 4, {"partnerships": True, "knocking": True}, {None}),
    ("muggins", 6, {"tile_set": 9}, {None}),
    ("merry-go-round", 5, {"tile_set": 12, "claims": "auto"}, {"end"}),
]


@pytest.mark.parametrize(("preset", "players", "options", "parts"), DOMINO_VARIANTS,
                         ids=[f"{p}:{n}:{','.join(o)}" for p, n, o, _ in DOMINO_VARIANTS])
def test_domino_rule_variants(preset: str, players: int, options: dict[str, Any], parts: set[str | None]) -> None:
    """Inline doubles, stubs, spinners open from the start, knocks and big sets number the same way."""
    spec = get_game("dominoes")
    seen: set[str | None] = set()
    for seed in range(3):
        state = spec.new(spec.rules(preset, {"claims": "manual", **options}), players, seed=seed)
        rng = random.Random(seed)
        for step in range(120):
            if state.is_over():
                break
            check_position(state, every=step == 60)
            seen |= {a.part for a in state.legal_actions(state.turn) if a.kind == "play" and a.target is not None}
            seen |= {a.part for a in state.legal_actions(state.turn) if a.kind == "play" and a.part == "inline"}
            random_step(state, rng)
    assert parts <= seen


@settings(max_examples=30, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 300))
def test_any_position_has_an_exact_mask(case: tuple[str, str, str, int], seed: int, steps: int) -> None:
    state = new_state(*case, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        random_step(state, rng)
    check_position(state, every=True)


def test_numpy_mask_is_the_byte_mask() -> None:
    state = new_state("dominoes", "all-fives", "manual", 3, seed=4)
    for seat in range(3):
        m = state.legal_action_mask(seat, numpy=True)
        assert m.dtype == np.bool_ and m.shape == (state.num_distinct_actions(),)
        assert bytes(m.astype(np.uint8)) == state.legal_action_mask(seat)


def test_the_size_depends_only_on_game_rules_and_players() -> None:
    for game, preset, claims, players in CASES:
        sizes = {new_state(game, preset, claims, players, seed=s).num_distinct_actions() for s in (1, 2)}
        assert len(sizes) == 1
    assert max(new_state(*c, seed=0).num_distinct_actions() for c in CASES) < 300_000


# ---------------------------------------------------------------------------------- bad ids ----
@pytest.mark.parametrize("game", ["dominoes", "card-muggins", "cribbage"])
def test_bad_ids_are_refused_and_change_nothing(game: str) -> None:
    preset = {"dominoes": "all-fives", "card-muggins": "muggins", "cribbage": "cribbage-muggins"}[game]
    state = new_state(game, preset, "manual", 2, seed=11)
    rng = random.Random(3)
    for _ in range(6):
        random_step(state, rng)
    seat = min(state.waiting_for())
    n = state.num_distinct_actions()
    before = snapshot(state)
    for bad, message in [(True, "got True"), (1.0, "got 1.0"), ("3", "got '3'"), (None, "got None"),
                         (-1, "there is no action id -1"), (n, f"there is no action id {n}"),
                         (10**40, "a number of about 41 digits")]:
        with pytest.raises(UnknownAction, match=message):
            state.action_from_id(seat, bad)
    mask = state.legal_action_mask(seat)
    illegal = [i for i in range(0, n, 7) if not mask[i]]
    assert illegal
    for i in illegal[:40]:
        with pytest.raises(IllegalAction):
            state.action_from_id(seat, i)
    other = 1 - seat
    if other not in state.to_act():
        legal_id = mask.index(1)
        with pytest.raises(IllegalAction, match=f"not a legal move of seat {other} now"):
            state.action_from_id(other, legal_id)
    with pytest.raises(NoSuchSeat):
        state.action_from_id(2, 0)
    with pytest.raises(NoSuchSeat):
        state.legal_action_mask(True)
    assert snapshot(state) == before


def test_a_claim_outside_the_numbering_is_refused() -> None:
    state = domino_state("muggins", hands=[["5-5", "0-0"], ["5-0", "6-5"]])
    lead = state.parse_action("5-5", 0)
    top = state.max_step_points()
    assert state.action_id(lead.with_claim(top)) - state.action_id(lead) == top + 1
    for bad in (top + 1, -1, True, 2.0, "10"):
        with pytest.raises(BadAmount):
            state.action_id(lead.with_claim(bad))
    with pytest.raises(ClaimError, match="a late claim names its points"):
        state.action_id(Action("claim"))
    with pytest.raises(ClaimError, match="carries no claim"):
        state.action_id(Action("draw", claim=0))
    auto = domino_state("sniff", hands=[["5-5", "0-0"], ["5-0", "6-5"]])
    with pytest.raises(ClaimError, match="scored automatically"):
        auto.action_id(auto.parse_action("5-5", 0).with_claim(10))
    with pytest.raises(UnknownAction, match="scored automatically"):
        auto.action_id(Action("muggins"))


def test_an_action_that_is_no_move_has_no_id() -> None:
    state = domino_state("muggins", hands=[["5-5", "0-0"], ["5-0", "6-5"]])
    for bad in [Action("fly"), Action("play", "5-5"), Action("play", state.parse_action("5-5").subject, None, "up"),
                Action("draw", "5-5"), Action("muggins", "x")]:
        with pytest.raises(UnknownAction):
            state.action_id(bad)
    with pytest.raises(UnknownAction):
        state.action_id(("play", "5-5"))  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="has no free place on 6-6"):
        state.action_id(state.parse_action("6-5 on 6-6"))


# ----------------------------------------------------------------------------- golden numbers ----
SIZES = {
    ("dominoes", "muggins", "manual"): 18922, ("dominoes", "all-fives", "manual"): 36922,
    ("dominoes", "sniff", "auto"): 143, ("dominoes", "five-up", "manual"): 35374,
    ("dominoes", "fives-and-threes", "manual"): 948, ("dominoes", "merry-go-round", "manual"): 7528,
    ("card-muggins", "muggins", "manual"): 1836, ("card-muggins", "no-muggins", "auto"): 53,
    ("card-muggins", "strict-21", "manual"): 1296,
    ("cribbage", "cribbage", "auto"): 1381, ("cribbage", "cribbage-muggins", "manual"): 3092,
    ("cribbage", "three-hand", "auto"): 107, ("cribbage", "four-hand", "manual"): 1818,
}


@pytest.mark.parametrize(("key", "size"), SIZES.items(), ids=[":".join(k) for k in SIZES])
def test_golden_sizes(key: tuple[str, str, str], size: int) -> None:
    game, preset, claims = key
    spec = get_game(game)
    rules = spec.rules(preset, {"claims": claims})
    assert new_state(game, preset, claims, spec.players_for(rules)[0], seed=1).num_distinct_actions() == size


def test_golden_domino_ids() -> None:
    """Muggins (3 slots a tile: the lead, two free places; 220 claim codes) and All Fives (5 slots)."""
    state = domino_state("muggins", hands=[["6-4", "0-0"], ["4-1", "2-2"]])
    ids = {"6-4 claim 10": 16511, "6-4": 16500}
    assert {k: state.action_id(state.parse_action(k.split(" claim")[0]).with_claim(
        int(k.split()[-1]) if "claim" in k else None)) for k in ids} == ids
    play(state, "6-4")  # the lead's two halves are free places 0 (the 6) and 1 (the 4)
    assert state.action_id(state.parse_action("4-1 on 6-4")) == (11 * 3 + 2) * 220 == 7700
    assert state.action_id(Action("muggins")) == 28 * 3 * 220 + 3 == 18483
    assert state.action_id(Action("muggins", claim=0)) == 18484
    assert state.action_id(Action("claim", claim=5)) == 18483 + 220 + 5
    with pytest.raises(IllegalAction, match=r"action id 18480 \(draw\) is not a legal move of seat 1"):
        state.action_from_id(1, 18480)  # seat 1 can play the 4-1: no draw
    five = domino_state("all-fives", hands=[["5-5", "5-3", "5-4"], ["5-0", "2-2", "5-1"]])
    assert five.action_id(five.parse_action("5-5")) == (20 * 5) * 260
    play(five, "5-5", "5-0 on 5-5", "5-3 on 5-5")
    # free places, in the order their tiles were laid: the 5-5's ends (place 0), the 5-0's 0, the 5-3's 3
    end = five.parse_action("5-1 on 5-5 end")
    assert five.action_id(end) == (16 * 5 + 1 + 0) * 260
    assert five.action_from_id(1, (16 * 5 + 1 + 0) * 260 + 11) == end.with_claim(10)
    with pytest.raises(IllegalAction, match=r"free place 1 of the layout \(5-0 showing 0\): it does not match"):
        five.action_from_id(1, (16 * 5 + 1 + 1) * 260)


def test_golden_card_ids() -> None:
    cm = new_state("card-muggins", "muggins", "manual", 2, seed=1)
    five_h = parse_card("5H")
    assert five_h.index == 18
    assert cm.action_id(Action("play", parse_card("AC"))) == 0
    assert cm.action_id(Action("play", five_h, claim=10)) == 18 * 34 + 11 == 623
    assert cm.action_id(Action("go")) == 52 * 34 == 1768
    assert cm.action_id(Action("muggins")) == 1769
    assert cm.action_id(Action("claim", claim=3)) == 1769 + 34 + 3
    crib = new_state("cribbage", "cribbage", "auto", 2, seed=1)
    pair = [parse_card("AC"), parse_card("AD"), parse_card("AH"), parse_card("AS"), parse_card("6D")]
    assert crib.action_id(Action("discard", (pair[0], pair[1]))) == 0
    assert crib.action_id(Action("discard", (pair[0], pair[2]))) == 1
    assert crib.action_id(Action("discard", (pair[1], pair[2]))) == 2
    assert crib.action_id(Action("discard", (pair[0], pair[3]))) == 3
    assert crib.action_id(Action("discard", (pair[4], five_h))) == 18 + 21 * 20 // 2 == 228  # any order
    assert crib.action_id(Action("play", five_h)) == 1326 + 18
    assert [crib.action_id(Action(*a)) for a in (("go",), ("count", "hand"), ("count", "crib"))] == [1378, 1379,
                                                                                                     1380]
    mug = new_state("cribbage", "cribbage-muggins", "manual", 2, seed=1)
    assert mug.action_id(Action("play", five_h, claim=2)) == 1326 + 18 * 31 + 3
    three = new_state("cribbage", "three-hand", "auto", 3, seed=1)
    assert three.action_id(Action("discard", (five_h,))) == 18
    assert three.action_id(Action("play", five_h)) == 52 + 18
