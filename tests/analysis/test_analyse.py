"""Post-game analysis on records with planted mistakes: points left unclaimed or under-claimed, a miss
not called, an over-claim, a false call, a steal, and a move that hands the next seat 15 when a safe
move existed; each is found and priced. Also: determinism, every example record, and ``rank_moves``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from muggins.analysis import AnalysisError, analyse_record, rank_moves
from muggins.bots.base import regular_actions, true_points, with_true_claim
from muggins.cards.cribbage import CribbageState
from muggins.cards.cribbage.fast import NativeCribbageState
from muggins.cards.cribbage.game import COUNT_CRIB
from muggins.cards.cribbage.show import score_show
from muggins.core import get_game
from muggins.core.errors import RecordError
from muggins.core.protocol import Action
from muggins.core.records import load, to_record
from muggins.dominoes import DominoState
from tests.helpers import domino_state, play

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "docs" / "examples").glob("*.json"))
HANDS = [["5-5", "0-0", "4-0", "1-1", "6-2", "3-2", "6-3"], ["5-0", "6-5", "2-2", "3-3", "4-1", "6-6", "2-1"]]

# Every tile dealt (14 each, no boneyard): each seat knows the other's hand, so the worlds are exact.
# After the greedy moves of PREFIX (seat 0 passes last), seat 1 has two plays, neither scoring: BAD leaves
# ends that seat 0 turns into 15 at once, SAFE leaves him nothing.
FULL = [["4-0", "1-1", "2-2", "5-4", "5-2", "5-0", "2-0", "0-0", "6-0", "4-3", "2-1", "6-3", "5-1", "6-6"],
        ["3-1", "3-2", "3-3", "4-1", "4-2", "4-4", "6-1", "1-0", "6-4", "5-5", "6-2", "6-5", "3-0", "5-3"]]
PREFIX = ["5-0", "5-5 on 5-0", "0-0 on 5-0", "0-1 on 0-0", "1-5 on 1-0", "5-6 on 5-5", "5-4 on 5-1",
          "6-1 on 6-5", "4-0 on 5-4", "1-3 on 6-1", "0-2 on 4-0", "2-3 on 2-0", "3-4 on 3-2", "3-3 on 3-1",
          "3-6 on 3-3", "4-1 on 4-3", "1-1 on 4-1", "6-4 on 6-3", "1-2 on 1-1", "4-4 on 6-4", "2-2 on 2-1",
          "4-2 on 4-4", "2-5 on 2-2", "5-3 on 5-2", "pass"]
BAD, SAFE = "2-6 on 4-2", "3-0 on 5-3"


def _analyse(st: DominoState, samples: int = 3, seed: int = 0) -> dict[str, Any]:
    return analyse_record(to_record(st), samples=samples, seed=seed).to_json()


def _slips(a: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [s for s in a["slips"] if s["kind"] == kind]


def _move(st: DominoState, text: str, claim: int | None = None) -> None:
    seat = st.turn
    a = st.parse_action(text, seat)
    st.apply(seat, a if claim is None else a.with_claim(claim))


def test_points_left_unclaimed_and_a_miss_not_called_are_priced_exactly() -> None:
    st = domino_state("muggins", hands=HANDS)
    _move(st, "5-5", 0)            # seat 0 scores 10 and claims nothing
    _move(st, "5-0 on 5-5")        # seat 1 does not call, plays on (his play scores 10, said nothing)
    _move(st, "0-0 on 5-0", 10)    # seat 0 does not call either
    a = _analyse(st)
    missed = _slips(a, "missed")
    assert [(s["seat"], s["points"], s["action"]) for s in missed] == [(0, 10, 1), (1, 10, 2)]
    calls = _slips(a, "missed_call")
    assert [(s["seat"], s["points"], s["action"]) for s in calls] == [(1, 10, 1), (0, 10, 2)]
    seats = a["seats"]
    assert seats[0]["counting"] == 10 and seats[1]["counting"] == 10
    assert seats[0]["missed_call_points"] == 10 and seats[0]["missed_calls"] == 1
    assert seats[1]["missed_call_points"] == 10 and seats[0]["muggins"] == 0


def test_an_under_claim_leaves_the_difference_and_a_steal_takes_it() -> None:
    st = domino_state("muggins", hands=HANDS)
    _move(st, "5-5", 10)
    _move(st, "5-0 on 5-5", 5)     # worth 10: under-claimed by 5
    st.apply(0, Action("muggins"))  # seat 0 takes the 5
    _move(st, "0-0 on 5-0", 10)
    a = _analyse(st)
    assert _slips(a, "mugged") == [{"action": 2, "seat": 1, "kind": "mugged", "points": 5,
                                    "text": "Seat 1 called muggins and took 5 (steal)"}]
    assert not _slips(a, "missed") and not _slips(a, "missed_call")
    assert a["seats"][1]["muggins"] == 5 and a["seats"][1]["counting"] == 0


def test_an_over_claim_penalty_and_a_false_call_are_priced() -> None:
    st = domino_state("muggins", hands=HANDS, over_claim="opponent_scores", false_call_penalty="deduct",
                      false_call_points=10)
    _move(st, "5-5", 15)           # worth 10: void, and seat 1 scores 15
    _move(st, "5-0 on 5-5", 10)    # seat 1 does not call the 10 left
    _move(st, "0-0 on 5-0", 10)
    st.apply(1, Action("muggins"))  # nothing was missed: costs seat 1 10 points
    a = _analyse(st)
    over = _slips(a, "over_claim")
    assert [(s["seat"], s["points"]) for s in over] == [(0, 15)]
    assert [(s["seat"], s["points"]) for s in _slips(a, "false_call")] == [(1, 10)]
    assert a["seats"][0]["counting"] == 15 + 10  # the penalty and the true 10 nobody took
    assert a["seats"][1]["false_calls"] == 10 and a["seats"][1]["missed_call_points"] == 10


def _full_position() -> DominoState:
    st = domino_state("muggins", hands=FULL)
    play(st, *PREFIX)
    return st


def test_the_planted_position_is_what_it_claims() -> None:
    st = _full_position()
    assert st.turn == 1 and sorted(st.format_action(a) for a in regular_actions(st, 1)) == sorted([BAD, SAFE])
    for text, reply in ((BAD, 15), (SAFE, 0)):
        c = st.clone()
        a = c.parse_action(text, 1)
        assert true_points(c, 1, a) == 0
        c.apply(1, with_true_claim(c, 1, a))
        assert c.turn == 0 and max(true_points(c, 0, b) for b in regular_actions(c, 0)) == reply


def test_a_move_that_hands_the_next_seat_15_is_a_costly_choice() -> None:
    st = _full_position()
    ranked = rank_moves(st, 1, samples=4, seed=7)
    assert [m.text for m in ranked] == [SAFE, BAD]
    assert ranked[0].points - ranked[1].points >= 10
    index = len(st.history)
    _move(st, BAD)
    a = _analyse(st, samples=4)
    d = next(d for d in a["decisions"] if d["action"] == index)
    assert d["seat"] == 1 and d["move"] == BAD and d["best"] == SAFE
    assert d["loss"] >= 10 and d["loss"] == pytest.approx(d["best_points"] - d["made_points"], abs=0.02)
    assert d["accurate"] is False and d["loss"] > 2 * d["error"]
    # the same game with the safe move: no loss at that decision
    st2 = _full_position()
    _move(st2, SAFE)
    d2 = next(d for d in _analyse(st2, samples=4)["decisions"] if d["action"] == index)
    assert d2["loss"] == 0 and d2["move"] == SAFE


def test_rank_moves_uses_common_worlds_and_leaves_the_state_alone() -> None:
    st = domino_state("muggins", hands=HANDS)
    before = (len(st.log), st.side_scores(), st.hands[0][:])
    ranked = rank_moves(st, 0, samples=5, seed=3)
    assert (len(st.log), st.side_scores(), st.hands[0][:]) == before
    assert len(ranked) == len(regular_actions(st, 0))
    assert [m.points for m in ranked] == sorted((m.points for m in ranked), reverse=True)
    assert all(m.low <= m.points <= m.high for m in ranked)
    assert ranked == rank_moves(st, 0, samples=5, seed=3)
    with pytest.raises(AnalysisError):
        rank_moves(st, 0, samples=0, seed=3)
    with pytest.raises(AnalysisError):
        rank_moves(st, 1, samples=2, seed=3)  # seat 1 has no move now


def test_the_same_seed_gives_the_same_json() -> None:
    rec = load(EXAMPLES[0])
    first = json.dumps(analyse_record(rec, samples=2, seed=5).to_json())
    assert first == json.dumps(analyse_record(rec, samples=2, seed=5).to_json())


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_record_analyses(path: Path) -> None:
    rec = load(path)
    seen: list[tuple[int, int]] = []
    a = analyse_record(rec, samples=2, seed=1, progress=lambda done, total: seen.append((done, total)))
    j = a.to_json()
    assert j["actions"] == len(rec["actions"]) and seen[-1] == (len(rec["actions"]),) * 2
    assert j["scores"] == (j["race"][-1]["sides"] if j["race"] else [0] * len(j["scores"]))
    assert all(d["loss"] >= 0 and d["best_points"] >= d["made_points"] for d in j["decisions"])
    assert sum(s["decisions"] for s in j["seats"]) == len(j["decisions"])
    json.dumps(j)


def test_a_record_that_does_not_replay_is_a_record_error() -> None:
    rec = load(EXAMPLES[0])
    rec["actions"] = rec["actions"][:3] + [{"seat": 0, "move": "9-9"}]
    with pytest.raises(RecordError, match="action 3"):
        analyse_record(rec, samples=1)
    with pytest.raises(AnalysisError):
        analyse_record(load(EXAMPLES[0]), samples=0)


def test_the_crib_count_is_priced_with_the_crib_turned_up() -> None:
    """At "count crib" the crib lies face up: every world drawn for the dealer holds the true crib, so
    counting it is worth exactly its true points, and a dealer who claims them all is not blamed."""
    spec = get_game("cribbage")
    for seed in range(4):
        st = spec.new(spec.rules("cribbage-muggins"), 2, seed=seed)
        assert isinstance(st, (CribbageState, NativeCribbageState))  # the pure or the native-backed state
        while not (st.phase == "show" and st.legal_actions(st.turn) == [COUNT_CRIB]):
            seat = min(st.waiting_for())
            a = regular_actions(st, seat)[0]
            st.apply(seat, with_true_claim(st, seat, a))
        assert st.starter is not None
        crib = score_show(st.crib, st.starter, True)
        [only] = rank_moves(st, st.turn, samples=6, seed=seed)
        assert only.text == "count crib" and only.action.claim == crib
        assert only.low == only.high == only.points  # the same crib in every world
        if not st.is_over():
            st.apply(st.turn, with_true_claim(st, st.turn, COUNT_CRIB))
        a = analyse_record(to_record(st), samples=2, seed=0).to_json()
        assert not [s for s in a["slips"] if "crib" in s["text"]]
