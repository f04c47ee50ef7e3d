"""Hostile input: ill-typed or unbounded seats, amounts and actions are refused by every game with a
MugginsError before anything changes, and the text notation refuses garbage the same way. Each game's
``max_step_points`` is an honest bound: no legal claim, late claim or muggins amount is above it.

These tests run against whichever build is active (compiled or pure Python; MUGGINS_PURE_PYTHON=1 forces
the sources), so both builds must behave alike."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from muggins.core import Action, GameState, IllegalAction, MugginsError, RulesError, UnknownAction, get_game
from muggins.core.errors import BadAmount, ClaimError, NoSuchSeat
from muggins.core.records import replay, to_record
from tests.helpers import domino_state, play

#: (game, preset, options, players): every game, several domino presets, the muggins rule on where the game
#: has it, and the options that make amounts matter (awards for false calls, penalties for over-claims).
GAMES: list[tuple[str, str, dict[str, Any], int]] = [
    ("dominoes", "muggins", {"false_call_penalty": "award"}, 2),
    ("dominoes", "all-fives", {"mug_bonus": True, "claim_timing": "lenient"}, 3),
    ("dominoes", "fives-and-threes", {"over_claim": "opponent_scores"}, 4),
    ("dominoes", "seven-rocks", {"false_call_penalty": "deduct"}, 4),
    ("dominoes", "sniff", {"claims": "manual", "voluntary_draw": True}, 2),
    ("dominoes", "five-up", {"tile_set": 9, "muggins": "steal_and_deduct"}, 3),
    ("card-muggins", "muggins", {"false_call_penalty": "award", "mug_last": True}, 3),
    ("card-muggins", "strict-21", {"window": "until_next_play", "claim_timing": "lenient"}, 2),
    ("cribbage", "cribbage-muggins", {}, 2),
    ("cribbage", "three-hand", {"claims": "manual", "mug_his_heels": True, "claim_timing": "lenient"}, 3),
    ("cribbage", "four-hand", {"claims": "manual", "over_claim": "opponent_scores"}, 4),
]
IDS = [f"{g}:{p}" for g, p, _, _ in GAMES]

BAD_AMOUNTS: list[Any] = [float("inf"), float("-inf"), float("nan"), 7.5, 1.0, 0.0, True, False, -1, -(2**70),
                          10**18, 2**70, 10**4000, "5", "10", b"5", [5], (5,), {"points": 5}, 5j]
BAD_SEATS: list[Any] = [True, False, 0.0, 1.0, 1.5, float("nan"), -1, 2**70, -(2**70), "0", "1", None, [0], b"\x00"]
NOT_ACTIONS: list[Any] = [None, "draw", "play 5H", ("play",), ("muggins", None, None, None, 5), 5, 2.5,
                          Action(5), Action(None), Action(("play",)), Action(["draw"]), Action("play", [1, 2]),
                          Action("play", "5-5", part=7), Action("play", None, [1]), Action("discard", "5H 6D"),
                          Action("discard", (1, 2)), Action("count", ["hand"]), Action("jump"),
                          Action("x" * 100_000)]


def claim_kinds(game: str) -> tuple[str, ...]:
    return ("play", "go", "count") if game == "cribbage" else ("play",)


def position(case: int, seed: int, steps: int) -> GameState:
    """A game of ``GAMES[case]`` after ``steps`` random moves: claims right, short or missing, and now and
    then a muggins call, so that windows with and without missed points occur."""
    game, preset, options, n = GAMES[case]
    spec = get_game(game)
    state = spec.new(spec.rules(preset, options), n, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        calls = [(s, a) for s in sorted(state.to_act()) for a in state.legal_actions(s) if a.kind == "muggins"]
        if calls and rng.random() < 0.15:
            state.apply(*rng.choice(calls))
            continue
        seat = rng.choice(sorted(state.waiting_for()))
        a = rng.choice([x for x in state.legal_actions(seat) if x.kind not in ("muggins", "claim")])
        if state.rules.claims == "manual" and a.kind in claim_kinds(game):
            true = state.claim_for(seat, a)
            a = a.with_claim(rng.choice([true, true, max(0, true - 2), None]))
        state.apply(seat, a)
    return state


def snapshot(state: GameState) -> str:
    """Everything anybody can learn from the state: its record, its log and every seat's view."""
    seats: list[int | None] = [None, *range(state.num_players)]
    return json.dumps({
        "record": to_record(state), "history": len(state.history), "log": len(state.log),
        "events": [state.events_for(s) for s in seats], "views": [state.view(s) for s in seats],
        "scores": state.side_scores(), "over": state.is_over(), "to_act": sorted(state.to_act()),
    }, sort_keys=True, default=str)


def assert_refused(state: GameState, seat: Any, action: Any) -> MugginsError:
    before = snapshot(state)
    with pytest.raises(MugginsError) as info:
        state.apply(seat, action)
    assert isinstance(info.value, IllegalAction)
    assert snapshot(state) == before, f"{action!r} by {seat!r} changed the state before it was refused"
    assert len(str(info.value)) < 400  # a refusal names its reason without echoing a huge input
    return info.value


@st.composite
def hostile(draw: st.DrawFn, state: GameState, game: str) -> tuple[Any, Any]:
    """An ill-typed move for ``state``: a legal move with a bad amount, a call or late claim naming a bad
    amount, a legal move by something that is not a seat, or something that is not a move at all."""
    seats = sorted(state.to_act()) or [0]
    seat = draw(st.sampled_from(seats))
    legal = state.legal_actions(seat) or [Action("muggins")]
    bound = state.max_step_points()
    amount = draw(st.sampled_from([*BAD_AMOUNTS, bound + 1, -bound]))
    kind = draw(st.sampled_from(["claim-on-move", "named", "seat", "object"]))
    if kind == "claim-on-move":
        return seat, draw(st.sampled_from(legal)).with_claim(amount)
    if kind == "named":
        return draw(st.sampled_from(list(range(state.num_players)))), \
            Action(draw(st.sampled_from(["muggins", "claim"])), claim=amount)
    if kind == "seat":
        return draw(st.sampled_from([*BAD_SEATS, state.num_players])), draw(st.sampled_from(legal))
    return seat, draw(st.sampled_from(NOT_ACTIONS))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(range(len(GAMES))), seed=st.integers(0, 2**16), steps=st.integers(0, 90),
       data=st.data())
def test_ill_typed_actions_are_refused_and_change_nothing(case: int, seed: int, steps: int,
                                                          data: st.DataObject) -> None:
    state = position(case, seed, steps)
    for _ in range(3):
        seat, action = data.draw(hostile(state, GAMES[case][0]))
        assert_refused(state, seat, action)


@pytest.mark.parametrize("case", range(len(GAMES)), ids=IDS)
def test_every_bad_amount_seat_and_object_is_refused(case: int) -> None:
    """The whole list, deterministically, on a position with an open window where the game has one."""
    game = GAMES[case][0]
    state = next(s for s in (position(case, seed, 9) for seed in range(50))
                 if not s.is_over() and (s.rules.claims == "auto" or s.view(None)["window"] is not None))
    n = state.num_players
    for amount in [*BAD_AMOUNTS, state.max_step_points() + 1]:
        for seat in sorted(state.to_act()):
            for a in state.legal_actions(seat):
                if a.kind in claim_kinds(game) or a.kind in ("muggins", "claim"):
                    err = assert_refused(state, seat, a.with_claim(amount))
                    assert isinstance(err, ClaimError)
        for s in range(n):
            for kind in ("muggins", "claim"):
                assert isinstance(assert_refused(state, s, Action(kind, claim=amount)), ClaimError)
    for seat in [*BAD_SEATS, n, -n]:
        for a in state.legal_actions(next(iter(state.waiting_for()))):
            assert isinstance(assert_refused(state, seat, a), NoSuchSeat)
        assert isinstance(assert_refused(state, seat, Action("muggins")), NoSuchSeat)
    for obj in NOT_ACTIONS:
        assert_refused(state, next(iter(state.waiting_for())), obj)


# --------------------------------------------------------------------------- the reported cases ----

def window_after_an_under_claim() -> Any:
    """Muggins: seat 0 leads 6-4 (10) announcing 5; the window is open on the 5 he left."""
    st_ = domino_state("muggins", hands=[["6-4", "0-0"], ["6-1", "2-2"]])
    st_.apply(0, st_.parse_action("6-4").with_claim(5))
    assert st_.muggable(1) == 5
    return st_


def test_claim_inf_leaves_the_window_open_and_the_tile_in_hand() -> None:
    """Reported: ``claim=inf`` closed the window and grew the history before the claim was read."""
    st_ = window_after_an_under_claim()
    a = st_.parse_action("6-1 on 6-4")
    err = assert_refused(st_, 1, a.with_claim(float("inf")))
    assert isinstance(err, BadAmount) and "whole number of points from 0 to" in str(err)
    assert st_.view(None)["window"] is not None and st_.muggable(1) == 5
    assert len(st_.history) == 1 and "6-1" in st_.view(1)["my_hand"]
    st_.apply(1, a.with_claim(5))  # the same move with a plain claim still plays
    assert st_.side_scores() == [5, 5]


@pytest.mark.parametrize("case", range(len(GAMES)), ids=IDS)
def test_a_float_claim_is_refused_not_scored_or_truncated(case: int) -> None:
    """Reported: a 7.5 claim scored [7.5, 0] in pure Python and was cut to 7 in the compiled build."""
    game = GAMES[case][0]
    state = next(s for s in (position(case, seed, 6) for seed in range(50)) if not s.is_over()
                 and any(a.kind in claim_kinds(game) for w in s.waiting_for() for a in s.legal_actions(w)))
    seat = next(iter(state.waiting_for()))
    for a in state.legal_actions(seat):
        if a.kind in claim_kinds(game):
            for amount in (7.5, 7.0, float(state.claim_for(seat, a))):
                err = assert_refused(state, seat, a.with_claim(amount))
                assert isinstance(err, BadAmount) and repr(amount) in str(err)
    assert all(type(x) is int for x in state.side_scores())


def test_bool_seats_and_claims_are_refused() -> None:
    st_ = window_after_an_under_claim()
    for seat in (True, False):
        assert isinstance(assert_refused(st_, seat, Action("muggins")), NoSuchSeat)
        assert isinstance(assert_refused(st_, seat, st_.parse_action("6-1 on 6-4")), NoSuchSeat)
    for amount in (True, False):
        assert isinstance(assert_refused(st_, 1, Action("muggins", claim=amount)), BadAmount)
        assert isinstance(assert_refused(st_, 1, st_.parse_action("6-1 on 6-4").with_claim(amount)), BadAmount)


def false_call_position(game: str) -> GameState:
    """A game with ``false_call_penalty=award`` and an open window where nothing was missed."""
    if game == "dominoes":
        st_ = domino_state("muggins", hands=[["6-4", "0-0"], ["4-1", "2-2"]], false_call_penalty="award")
        play(st_, "6-4")
        return st_
    spec = get_game(game)
    preset = "muggins" if game == "card-muggins" else "cribbage-muggins"
    rules = spec.rules(preset, {"false_call_penalty": "award"})
    for seed in range(200):
        state = spec.new(rules, 2, seed=seed)
        rng = random.Random(seed)
        for _ in range(40):
            seat = next(iter(state.waiting_for()))
            a = rng.choice([x for x in state.legal_actions(seat) if x.kind not in ("muggins", "claim")])
            if a.kind in claim_kinds(game):
                a = a.with_claim(state.claim_for(seat, a))
            state.apply(seat, a)
            if state.is_over():
                break
            w = state.view(None)["window"]
            if w is not None and not any(state.muggable(s) for s in range(state.num_players)):
                return state
    raise AssertionError("no position found")


@pytest.mark.parametrize("game", ["dominoes", "card-muggins", "cribbage"])
@pytest.mark.parametrize("amount", [10**18, 2**70, 10**4000])
def test_a_false_call_cannot_hand_out_an_unbounded_award(game: str, amount: int) -> None:
    """Reported: a false call naming 10**18 with false_call_penalty=award gave the accused 10**18 points."""
    state = false_call_position(game)
    w = state.view(None)["window"]
    caller = next(s for s in range(state.num_players) if state.side_of(s) != state.side_of(w["scorer"]))
    err = assert_refused(state, caller, Action("muggins", claim=amount))
    assert isinstance(err, BadAmount) and str(state.max_step_points()) in str(err)
    before = state.side_scores()
    top = state.max_step_points()
    state.apply(caller, Action("muggins", claim=top))  # the largest amount allowed: the called step's most
    cap = state.rules.max_points_of(w["reason"])
    assert cap <= top
    gained = [a - b for a, b in zip(state.side_scores(), before, strict=True)]
    assert gained[state.side_of(w["scorer"])] == cap or state.is_over()
    assert max(gained) <= cap


def test_the_engine_checks_the_seat_before_the_turn() -> None:
    st_ = domino_state("muggins", hands=[["6-4", "0-0"], ["4-1", "2-2"]])
    err = assert_refused(st_, 1.0, st_.parse_action("6-4"))
    assert isinstance(err, NoSuchSeat) and "seats are 0 to 1" in str(err)
    assert isinstance(assert_refused(st_, 2, st_.parse_action("6-4")), NoSuchSeat)


# ------------------------------------------------------------------------------- the notation ----

GARBAGE = ["", "   ", "claim ²", "claim 1e9", "claim 10.5", "claim -3", "claim 0x10", "claim ١٢", "claim 5 5",
           "muggins 99999999999999999999", "muggins " + "9" * 5000, "muggins ten", "claim", "x" * 100_000,
           "play " + "5" * 10_000 + "-3", "²-3", "5-²", "5-3 on ²-5", "play 5H " * 1000, "\x00", "draw 5",
           "discard", "discard ² ³", "count 29", "play ⑤H", "go 5", "🂡", "5" * 5000 + "H", "-1-2", "5--3"]


@pytest.mark.parametrize("case", range(len(GAMES)), ids=IDS)
def test_garbage_text_is_a_parse_error(case: int) -> None:
    state = position(case, 1, 3)
    for text in GARBAGE:
        try:
            a = state.parse_action(text)
        except MugginsError as e:
            assert isinstance(e, IllegalAction) and len(str(e)) < 400
        else:
            assert text == "claim" and a == Action("claim"), f"{text[:40]!r} parsed as {a!r}"
    for head in ("muggins", "claim"):
        with pytest.raises(BadAmount):
            state.parse_action(f"{head} {state.max_step_points() + 1}")
        with pytest.raises(UnknownAction):
            state.parse_action(f"{head} ²")
        assert state.parse_action(f"{head} {state.max_step_points()}").claim == state.max_step_points()
    with pytest.raises(UnknownAction):
        state.parse_action(123)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(case=st.sampled_from(range(len(GAMES))), text=st.text(max_size=60) | st.from_regex(
    r"(play |muggins |claim |discard |count )?[0-9²³¹٣\-|: a-zA-Z♠♥]{0,30}", fullmatch=True))
def test_parse_action_never_raises_anything_but_a_refusal(case: int, text: str) -> None:
    state = position(case, 2, 4)
    try:
        a = state.parse_action(text)
    except MugginsError as e:
        assert isinstance(e, IllegalAction)
    else:
        assert isinstance(a, Action)
        assert a.claim is None or (type(a.claim) is int and 0 <= a.claim <= state.max_step_points())


# ------------------------------------------------------------------------- max_step_points is honest ----

HONEST = [("dominoes", p, {}) for p in get_game("dominoes").presets] + [
    ("dominoes", "five-up", {"tile_set": 12, "mug_bonus": True}),
    ("dominoes", "muggins", {"tile_set": 15, "out_bonus": "raw", "mug_bonus": True}),
    ("dominoes", "sniff", {"claims": "manual", "spinner": "sniff_stub"}),
    ("dominoes", "sniff", {"claims": "manual", "spinner": "sniff_option", "spinner_sides_first": False}),
    ("dominoes", "all-fives", {"score_fn": "threes_and_fives_pips", "tile_set": 9}),
    ("card-muggins", "muggins", {"mug_last": True, "window": "until_next_play", "claim_timing": "lenient"}),
    ("card-muggins", "strict-21", {"mug_last": True, "thirty_one_plus_last": True}),
    ("cribbage", "cribbage-muggins", {"claim_timing": "lenient"}),
    ("cribbage", "five-card", {"claims": "manual", "mug_his_heels": True}),
]


@pytest.mark.parametrize(("game", "preset", "options"), HONEST, ids=[f"{g}:{p}:{len(o)}" for g, p, o in HONEST])
def test_no_claim_or_muggins_amount_is_above_max_step_points(game: str, preset: str,
                                                              options: dict[str, Any]) -> None:
    """Random games with everything left unclaimed: every true claim and every muggable amount fits the
    bound, so the bound never refuses an honest figure."""
    spec = get_game(game)
    rules = spec.rules(preset, {"claims": "manual", **options})
    top = rules.max_step_points
    seen = 0
    for seed in range(6):
        players = spec.players_for(rules)
        state = spec.new(rules, players[seed % len(players)], seed=seed)
        assert state.max_step_points() == top
        rng = random.Random(seed)
        for _ in range(700):
            if state.is_over():
                break
            for s in sorted(state.to_act()):
                assert state.muggable(s) <= top
                for a in state.legal_actions(s):
                    pts = state.claim_for(s, a)
                    assert 0 <= pts <= top, f"{state.format_action(a)} scores {pts} > {top}"
                    seen = max(seen, pts)
            seat = rng.choice(sorted(state.waiting_for()))
            a = rng.choice([x for x in state.legal_actions(seat) if x.kind not in ("muggins", "claim")])
            state.apply(seat, a)  # no claim: the whole step stays muggable
    assert seen > 0


def test_max_step_points_per_game() -> None:
    assert get_game("cribbage").rules("cribbage-muggins").max_step_points == 29
    assert get_game("card-muggins").rules().max_step_points == 32  # a play to 30, and "last" twice over
    fives = get_game("dominoes").rules("fives-and-threes")
    assert fives.max_step_points == 8 + 1  # 15 or 24 on a line scores 8; chipping out 1
    with pytest.raises(RulesError):
        get_game("dominoes").rules("muggins", {"target": 10**9})


def test_a_refused_record_action_names_the_bound() -> None:
    st_ = window_after_an_under_claim()
    rec = to_record(st_)
    rec["actions"].append({"seat": 1, "move": "muggins", "claim": 10**18})
    with pytest.raises(MugginsError, match="from 0 to 218"):
        replay(rec)
