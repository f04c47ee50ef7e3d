"""The muggins rule in the domino engine (RULES.md §2, §2.8): claims, the window, calls and penalties."""

from __future__ import annotations

import random
from typing import Any

import pytest

from muggins.core import Action, ClaimError, GameOver, IllegalAction, NotYourTurn
from muggins.core.records import replay, to_record
from muggins.dominoes import DominoState
from tests.helpers import domino_state, events_of, moves, play

MUGGINS = Action("muggins")

# Two players; the scoring play under test is seat 0's 6-4 lead (count 10) unless said otherwise.
TWO = [["6-4", "4-1", "0-0"], ["4-3", "1-1", "2-2"]]


def _lead_six_four(claim: int | None, **options: Any) -> DominoState:
    """Seat 0 leads 6-4 (count 10) announcing ``claim``."""
    st = domino_state("muggins", hands=TWO, **options)
    st.apply(0, st.parse_action("6-4").with_claim(claim))
    return st


def _frozen(st: DominoState) -> tuple[Any, ...]:
    return (to_record(st), [st.view(s) for s in range(st.num_players)], st.view(None), st.side_scores())


# --------------------------------------------------------------------------------- auto vs manual ----


def test_auto_mode_scores_without_claims_and_opens_no_window() -> None:
    st = domino_state("muggins", hands=TWO, claims="auto")
    st.apply(0, st.parse_action("6-4"))
    assert st.side_scores() == [10, 0]
    assert st.to_act() == frozenset({1})
    assert st.view(1)["window"] is None
    assert st.muggable(1) == 0
    assert all(a.kind != "muggins" for a in st.legal_actions(1))
    with pytest.raises(ClaimError):
        st.apply(1, MUGGINS)
    with pytest.raises(ClaimError):
        st.apply(1, st.parse_action("4-3 on 6-4").with_claim(5))


def test_manual_mode_silence_scores_nothing() -> None:
    st = _lead_six_four(None)
    assert st.side_scores() == [0, 0]
    assert st.muggable(1) == 10
    assert st.view(1)["window"] == {"scorer": 0, "claimed": None, "reason": "play", "scorer_may_claim": False}


def test_manual_true_claim_scores_and_leaves_nothing_to_mug() -> None:
    st = _lead_six_four(10)
    assert st.side_scores() == [10, 0]
    assert st.muggable(1) == 0


def test_legal_actions_carry_no_claim() -> None:
    st = domino_state("muggins", hands=TWO)
    assert all(a.claim is None for a in st.legal_actions(0))


def test_a_claim_on_a_draw_or_a_negative_claim_is_refused() -> None:
    st = _lead_six_four(10)
    before = _frozen(st)
    with pytest.raises(ClaimError):
        st.apply(1, st.parse_action("4-3 on 6-4").with_claim(-5))
    assert _frozen(st) == before
    st2 = domino_state("muggins", hands=[["6-6", "0-0"], ["5-5", "1-1"]])
    play(st2, "6-6")
    with pytest.raises(ClaimError):
        st2.apply(1, Action("draw", claim=5))


# -------------------------------------------------------------------------------------- the window ----


def test_window_lets_every_opponent_act_but_waits_for_the_turn() -> None:
    st = domino_state("muggins", hands=[["6-4", "0-0"], ["1-1", "2-2"], ["3-3", "5-5"]])
    st.apply(0, st.parse_action("6-4"))
    assert st.to_act() == frozenset({1, 2})
    assert st.waiting_for() == frozenset({1})
    assert "muggins" in [a.kind for a in st.legal_actions(2)]
    assert st.muggable(2) == 10 and st.muggable(1) == 10 and st.muggable(0) == 0


def test_window_closes_at_the_next_regular_action() -> None:
    st = _lead_six_four(None)
    play(st, moves(st)[0])                          # seat 1 acts
    assert st.muggable(1) == 0
    assert "muggins" not in [a.kind for a in st.legal_actions(1)]
    before = _frozen(st)
    with pytest.raises(ClaimError):
        st.apply(1, MUGGINS)
    assert _frozen(st) == before
    assert [e["points"] for e in events_of(st, "missed")] == [10]


@pytest.mark.parametrize("action", ["draw", "pass"])
def test_a_draw_or_pass_closes_the_window_too(action: str) -> None:
    hands = [["6-4", "0-0"], ["1-1", "2-2"]]
    st = domino_state("muggins", hands=hands, boneyard=[] if action == "pass" else None)
    st.apply(0, st.parse_action("6-4"))
    assert moves(st) == [action]
    play(st, action)
    with pytest.raises(ClaimError):
        st.apply(1, MUGGINS)


def test_call_with_no_window_is_refused() -> None:
    st = domino_state("muggins", hands=TWO)
    with pytest.raises(ClaimError):
        st.apply(1, MUGGINS)
    with pytest.raises(ClaimError):
        st.apply(0, Action("claim", claim=5))


def test_scorer_and_partner_cannot_call() -> None:
    hands = [["6-4", "0-0"], ["1-1", "2-2"], ["3-3", "5-5"], ["6-6", "5-0"]]
    st = domino_state("muggins", hands=hands, partnerships=True)
    st.apply(0, st.parse_action("6-4"))
    assert st.to_act() == frozenset({1, 3})
    assert st.muggable(2) == 0
    assert "muggins" not in [a.kind for a in st.legal_actions(2)]
    before = _frozen(st)
    for seat in (0, 2):
        with pytest.raises(ClaimError):
            st.apply(seat, MUGGINS)
    assert _frozen(st) == before
    st.apply(3, MUGGINS)
    assert st.side_scores() == [0, 10]


def test_first_caller_wins() -> None:
    st = domino_state("muggins", hands=[["6-4", "0-0"], ["1-1", "2-2"], ["3-3", "5-5"]])
    st.apply(0, st.parse_action("6-4"))
    st.apply(2, MUGGINS)
    assert st.side_scores() == [0, 0, 10]
    assert st.muggable(1) == 0
    with pytest.raises(ClaimError):
        st.apply(1, MUGGINS)
    assert st.side_scores() == [0, 0, 10]


def test_a_call_does_not_take_the_turn() -> None:
    st = _lead_six_four(None)
    st.apply(1, MUGGINS)
    assert st.turn == 1
    assert st.to_act() == frozenset({1})
    with pytest.raises(NotYourTurn):
        st.apply(0, st.parse_action("4-1 on 6-4"))


def test_window_survives_the_end_of_a_hand() -> None:
    """A silent last play can still be mugged before the next hand's first action."""
    st = domino_state("muggins", hands=[["5-0"], ["6-6"]], boneyard=[])
    st.apply(0, st.parse_action("5-0"))             # 5 for the play (unclaimed) and 10 bonus for 6-6
    assert st.hand_no == 2
    assert st.side_scores() == [10, 0]
    assert st.muggable(1) == 5
    st.apply(1, MUGGINS)
    assert st.side_scores() == [10, 5]


# ------------------------------------------------------------------------------------- outcomes ----


@pytest.mark.parametrize(("rule", "scores"), [("steal", [0, 10]), ("forfeit", [0, 0]),
                                              ("steal_and_deduct", [-10, 10])])
def test_outcomes(rule: str, scores: list[int]) -> None:
    st = _lead_six_four(None, muggins=rule)
    st.apply(1, MUGGINS)
    assert st.side_scores() == scores
    call = events_of(st, "muggins")[0]
    assert call["outcome"] == rule and call["missed"] == 10
    assert sum(e.points for e in st.log if e.kind == "score" and e.data["side"] == 0) == scores[0]


def test_a_steal_that_passes_an_exact_target_is_void() -> None:
    st = _lead_six_four(None, target=5, exact_target=True)
    st.apply(1, MUGGINS)
    assert st.side_scores() == [0, 0] and not st.is_over()
    assert [(e["seat"], e["points"]) for e in events_of(st, "void")] == [(1, 10)]


def test_a_steal_can_win_the_game() -> None:
    st = _lead_six_four(None, target=10)
    st.apply(1, MUGGINS)
    assert st.is_over() and st.winners() == frozenset({1})


def test_under_claim_leaves_the_difference_muggable() -> None:
    st = _lead_six_four(5)
    assert st.side_scores() == [5, 0]
    assert st.muggable(1) == 5
    st.apply(1, MUGGINS)
    assert st.side_scores() == [5, 5]


@pytest.mark.parametrize(("named", "gain"), [(5, 5), (10, 10), (25, 10), (None, 10)])
def test_named_amount_gets_the_lesser_of_named_and_shortfall(named: int | None, gain: int) -> None:
    """ACC 10.4.a: the caller receives the lesser of what he names and what was really missed."""
    st = _lead_six_four(None)
    st.apply(1, Action("muggins", claim=named))
    assert st.side_scores() == [0, gain]
    assert st.muggable(1) == 0


def test_named_amount_against_an_under_claim() -> None:
    st = _lead_six_four(5)
    st.apply(1, Action("muggins", claim=10))
    assert st.side_scores() == [5, 5]


def test_over_claim_is_void_and_the_true_points_stay_muggable() -> None:
    st = _lead_six_four(15)
    assert st.side_scores() == [0, 0]
    assert [e["points"] for e in events_of(st, "over_claim")] == [15]
    assert st.muggable(1) == 10
    st.apply(1, MUGGINS)
    assert st.side_scores() == [0, 10]


def test_over_claim_opponent_scores_it() -> None:
    """FOSTER: an erroneous score is taken down and the adversary scores it as a penalty."""
    st = _lead_six_four(15, over_claim="opponent_scores")
    assert st.side_scores() == [0, 15]
    assert st.muggable(1) == 10


def test_claim_on_a_play_that_scores_nothing_is_an_over_claim() -> None:
    st = domino_state("muggins", hands=[["6-3", "0-0"], ["1-1", "2-2"]], over_claim="opponent_scores")
    st.apply(0, st.parse_action("6-3").with_claim(5))
    assert st.side_scores() == [0, 5]
    assert st.muggable(1) == 0


@pytest.mark.parametrize(("penalty", "named", "scores"), [
    ("none", None, [10, 0]),
    ("deduct", None, [10, -10]),       # S1-G: the caller loses false_call_points
    ("award", 10, [20, 0]),            # ACC 10.4.a: the accused gets what the caller tried to take
    ("award", None, [20, 0]),          # nothing named: false_call_points
])
def test_false_call_penalties(penalty: str, named: int | None, scores: list[int]) -> None:
    st = _lead_six_four(10, false_call_penalty=penalty)
    st.apply(1, Action("muggins", claim=named))
    assert st.side_scores() == scores
    assert events_of(st, "muggins")[0]["outcome"] == "false_call"


def test_false_call_points_option() -> None:
    st = _lead_six_four(10, false_call_penalty="deduct", false_call_points=3)
    st.apply(1, MUGGINS)
    assert st.side_scores() == [10, -3]


def test_calling_zero_is_a_false_call() -> None:
    st = _lead_six_four(None, false_call_penalty="deduct")
    st.apply(1, Action("muggins", claim=0))
    assert st.side_scores() == [0, -10]


def test_negative_call_is_refused() -> None:
    st = _lead_six_four(None)
    before = _frozen(st)
    with pytest.raises(ClaimError):
        st.apply(1, Action("muggins", claim=-1))
    assert _frozen(st) == before


# --------------------------------------------------------------------------------- lenient timing ----


def test_lenient_timing_lets_the_scorer_claim_until_the_next_action() -> None:
    st = _lead_six_four(None, claim_timing="lenient")
    assert 0 in st.to_act()
    assert "claim" in [a.kind for a in st.legal_actions(0)]
    assert st.view(1)["window"]["scorer_may_claim"] is True
    st.apply(0, Action("claim", claim=10))
    assert st.side_scores() == [10, 0]
    assert st.muggable(1) == 0
    with pytest.raises(ClaimError):
        st.apply(0, Action("claim", claim=10))


def test_lenient_late_claim_can_under_claim() -> None:
    st = _lead_six_four(None, claim_timing="lenient")
    st.apply(0, Action("claim", claim=5))
    assert st.side_scores() == [5, 0]
    assert st.muggable(1) == 5


def test_lenient_late_over_claim_is_void() -> None:
    st = _lead_six_four(None, claim_timing="lenient")
    st.apply(0, Action("claim", claim=20))
    assert st.side_scores() == [0, 0]
    assert events_of(st, "over_claim")


def test_lenient_claim_after_the_next_action_is_refused() -> None:
    st = _lead_six_four(None, claim_timing="lenient")
    play(st, moves(st)[0])
    with pytest.raises(ClaimError):
        st.apply(0, Action("claim", claim=10))


def test_lenient_claim_needs_an_amount_and_silence() -> None:
    st = _lead_six_four(None, claim_timing="lenient")
    with pytest.raises(ClaimError):
        st.apply(0, Action("claim"))
    st = _lead_six_four(5, claim_timing="lenient")   # he spoke with the move: nothing left to claim
    with pytest.raises(ClaimError):
        st.apply(0, Action("claim", claim=5))


def test_strict_timing_has_no_late_claim() -> None:
    st = _lead_six_four(None)
    assert "claim" not in [a.kind for a in st.legal_actions(0)]
    with pytest.raises(ClaimError):
        st.apply(0, Action("claim", claim=10))


# ------------------------------------------------------------------------------------- the bonus ----


def test_bonus_is_automatic_by_default() -> None:
    st = domino_state("muggins", hands=[["1-0"], ["6-6"]], boneyard=[])
    st.apply(0, st.parse_action("1-0"))
    assert st.side_scores() == [10, 0]
    assert st.muggable(1) == 0


def test_mug_bonus_must_be_claimed() -> None:
    st = domino_state("muggins", hands=[["1-0"], ["6-6"]], boneyard=[], mug_bonus=True)
    st.apply(0, st.parse_action("1-0"))
    assert st.side_scores() == [0, 0]
    assert st.muggable(1) == 10
    assert st.view(1)["window"]["reason"] == "domino"
    keep = st.clone()
    st.apply(1, MUGGINS)
    assert st.side_scores() == [0, 10]
    keep.apply(0, Action("claim", claim=10))
    assert keep.side_scores() == [10, 0] and keep.muggable(1) == 0


# ------------------------------------------------------------------------------------ records ----


def test_claims_and_calls_replay_from_the_record() -> None:
    """Random games with silent plays, under- and over-claims and calls replay to the same scores."""
    rng = random.Random(11)
    for seed in range(6):
        st = domino_state("muggins", hands=[["6-4", "4-1", "0-0"], ["4-3", "1-1", "2-2"]],
                          claim_timing="lenient" if seed % 2 else "strict")
        for _ in range(120):
            if st.is_over():
                break
            seat = st.turn
            acts = [a for a in st.legal_actions(seat) if a.kind not in ("muggins", "claim")]
            a = rng.choice(acts)
            if a.kind == "play":
                true = st.claim_for(seat, a)
                a = a.with_claim(rng.choice([None, true, max(0, true - 5), true + 5]))
            st.apply(seat, a)
            for s in sorted(st.to_act()):
                extra = [x for x in st.legal_actions(s) if x.kind in ("muggins", "claim")]
                if extra and rng.random() < 0.5:
                    x = rng.choice(extra)
                    st.apply(s, x.with_claim(rng.choice([None, 5, 10])) if x.kind == "muggins"
                             else x.with_claim(rng.choice([5, 10])))
                    break
        again = replay(to_record(st))
        assert again.side_scores() == st.side_scores()
        assert [e.to_dict() for e in again.log] == [e.to_dict() for e in st.log]


def test_a_call_after_the_game_is_over_is_refused() -> None:
    st = domino_state("muggins", hands=[["6-4", "0-0"], ["1-1", "2-2"]], target=5)
    st.apply(0, st.parse_action("6-4").with_claim(10))
    assert st.is_over()
    with pytest.raises(GameOver):
        st.apply(1, MUGGINS)
    assert isinstance(GameOver("x"), IllegalAction)

