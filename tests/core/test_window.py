"""The muggins window of GameState (core/protocol.py), tested on each game in the same situation: a player
makes a scoring step and announces some of it (or nothing); an opponent may call "Muggins!" until the next
move. Every game reaches the window through the same code, so every assertion runs on all three."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from muggins.cards.cribbage import CribbageState
from muggins.cards.cribbage.game import COUNT_CRIB, COUNT_HAND
from muggins.core import Action, ClaimError, GameState, IllegalAction
from tests.cards.test_cribbage_play import dealt_game, run
from tests.cards.test_muggins31 import C4_HANDS, C4_STOCK, card_state, play
from tests.helpers import domino_state

MUGGINS = Action("muggins")
CLAIM = Action("claim")
WINDOW_EVENTS = ("claim", "over_claim", "muggins", "missed", "score")


def _dominoes(**options: Any) -> GameState:
    return domino_state("muggins", hands=[["6-4", "4-1", "0-0"], ["4-3", "1-1", "2-2"]], **options)


def _card_muggins(**options: Any) -> GameState:
    st = card_state(C4_HANDS, C4_STOCK, **options)
    play(st, "8C", "8D", "4C")  # seat 0 makes 20, claimed in full
    return st


def _cribbage(**options: Any) -> GameState:
    st = dealt_game(["4H 4S 9C 9D", "4D 3C TC TD"], **{"claims": "manual", **options})
    run(st, "4H", "4D")  # the dealer's pair, claimed in full
    return st


@dataclass(frozen=True)
class Case:
    """A game just before ``scorer`` makes ``move``, worth ``points``; ``caller`` is his opponent.
    ``end`` names options and a claim with which that move wins the game."""

    game: str
    make: Callable[..., GameState]
    scorer: int
    caller: int
    move: str
    points: int
    end: tuple[dict[str, Any], int]

    def before(self, **options: Any) -> GameState:
        return self.make(**options)

    def scored(self, claim: int | None, **options: Any) -> GameState:
        """The state right after the scoring move, announced as ``claim``."""
        st = self.make(**options)
        st.apply(self.scorer, self.action(st).with_claim(claim))
        return st

    def action(self, st: GameState) -> Action:
        return st.parse_action(self.move, self.scorer)


CASES = [
    Case("dominoes", _dominoes, 0, 1, "6-4", 10, ({"target": 5}, 5)),  # a lead counting 10
    Case("card-muggins", _card_muggins, 1, 0, "5D", 25, ({"target": 21}, 22)),  # 25 on the pile
    Case("cribbage", _cribbage, 0, 1, "4S", 6, ({"target": 5}, 5)),  # a pair royal
]


@pytest.fixture(params=CASES, ids=[c.game for c in CASES])
def case(request: pytest.FixtureRequest) -> Case:
    return request.param  # type: ignore[no-any-return]


def frozen(st: GameState) -> str:
    """Everything observable about a state, to check that a refused action changed nothing."""
    return json.dumps([st.events_for(None), [st.view(s).to_json() for s in [None, *range(st.num_players)]],
                       [st.action_to_json(s, a) for s, a in st.history], st.side_scores(), sorted(st.to_act()),
                       [st.muggable(s) for s in range(st.num_players)]], sort_keys=True)


def events(st: GameState, kind: str, start: int = 0) -> list[dict[str, Any]]:
    return [e for e in st.events_for(None, start) if e["kind"] == kind]


def next_move(st: GameState) -> tuple[int, Action]:
    """The first regular move of the seat the game waits for."""
    seat = min(st.waiting_for())
    return seat, next(a for a in st.legal_actions(seat) if a.kind not in ("muggins", "claim"))


def refused(st: GameState, seat: int, action: Action, exc: type[Exception] = ClaimError) -> str:
    before = frozen(st)
    with pytest.raises(exc) as info:
        st.apply(seat, action)
    assert frozen(st) == before
    return str(info.value)


# ------------------------------------------------------------------------------ auto and manual ----
def test_auto_mode_awards_everything_and_opens_no_window(case: Case) -> None:
    st = case.before(claims="auto")
    gained = st.side_scores()[st.side_of(case.scorer)]
    refused(st, case.scorer, case.action(st).with_claim(case.points))  # nothing is announced in auto mode
    st.apply(case.scorer, case.action(st))
    assert st.side_scores()[st.side_of(case.scorer)] - gained == case.points
    assert st.muggable(case.caller) == 0 and MUGGINS not in st.legal_actions(case.caller)
    assert case.caller not in st.to_act() or case.caller in st.waiting_for()
    assert "points are scored automatically" in refused(st, case.caller, MUGGINS)


def test_a_true_claim_leaves_nothing_to_mug(case: Case) -> None:
    st = case.scored(case.points)
    assert st.muggable(case.caller) == 0
    assert events(st, "claim")[-1] == {"kind": "claim", "seat": case.scorer, "points": case.points}


def test_an_under_claim_leaves_the_rest_muggable(case: Case) -> None:
    before = case.before().side_scores()
    st = case.scored(1)
    side = st.side_of(case.scorer)
    assert st.side_scores()[side] - before[side] == 1
    assert st.muggable(case.caller) == case.points - 1
    assert st.muggable(case.scorer) == 0  # nobody mugs his own side


def test_an_over_claim_is_void_or_penalised(case: Case) -> None:
    before = case.before().side_scores()
    st = case.scored(case.points + 1)
    assert st.side_scores() == before
    assert st.muggable(case.caller) == case.points
    over = next(e for e in st.log if e.kind == "over_claim")
    assert over.data["true"] == case.points and over.seat == case.scorer
    assert over.to_dict(case.scorer)["true"] == case.points
    assert "true" not in over.to_dict(case.caller)  # the truth is the claimer's secret
    st = case.scored(case.points + 1, over_claim="opponent_scores")
    caller_side = st.side_of(case.caller)
    assert st.side_scores()[caller_side] - before[caller_side] == case.points + 1
    assert events(st, "score")[-1]["reason"] == "over-claim penalty"


# ----------------------------------------------------------------------------------- the window ----
def test_who_may_act_while_the_window_is_open(case: Case) -> None:
    st = case.scored(None)
    assert st.to_act() == st.waiting_for() | {case.caller}
    assert st.legal_actions(case.caller)[-1] == MUGGINS
    assert MUGGINS not in st.legal_actions(case.scorer)
    assert "claim" not in {a.kind for a in st.legal_actions(case.scorer)}
    assert "own side" in refused(st, case.scorer, MUGGINS)
    assert "nothing for you to claim" in refused(st, case.scorer, Action("claim", claim=1))
    lenient = case.scored(None, claim_timing="lenient")
    assert lenient.to_act() == lenient.waiting_for() | {case.caller, case.scorer}
    late = lenient.legal_actions(case.scorer)[-1]
    assert late.kind == "claim" and late.claim == lenient.claim_for(case.scorer, late) > 0  # its true amount


def test_the_next_move_closes_the_window_and_logs_the_missed_points(case: Case) -> None:
    st = case.scored(2)
    mark = len(st.log)
    st.apply(*next_move(st))
    assert events(st, "missed", mark)[0] == {"kind": "missed", "seat": case.scorer,
                                              "side": st.side_of(case.scorer), "points": case.points - 2,
                                              "reason": "play"}
    window = st.view(None)["window"]
    assert window is None or window["scorer"] != case.scorer  # at most the mover's own window now
    assert st.muggable(case.caller) == 0


def test_a_refused_move_leaves_the_window_open(case: Case) -> None:
    st = case.scored(None)
    seat, _ = next_move(st)
    refused(st, seat, Action("play", "not a tile or card"), IllegalAction)
    assert st.muggable(case.caller) == case.points and not events(st, "missed")


@pytest.mark.parametrize(("rule", "caller_gain", "scorer_loss", "missed_after"),
                         [("steal", 3, 0, 1), ("forfeit", 0, 0, None), ("steal_and_deduct", 3, 3, 1)])
def test_what_a_call_does(case: Case, rule: str, caller_gain: int, scorer_loss: int,
                          missed_after: int | None) -> None:
    st = case.scored(case.points - 4, muggins=rule)  # 4 left out; the caller names 3 of them
    before = st.side_scores()
    mark = len(st.log)
    st.apply(case.caller, Action("muggins", claim=3))
    cs, ss = st.side_of(case.caller), st.side_of(case.scorer)
    assert st.side_scores()[cs] - before[cs] == caller_gain
    assert before[ss] - st.side_scores()[ss] == scorer_loss
    assert events(st, "muggins", mark)[0] == {"kind": "muggins", "seat": case.caller, "on": case.scorer,
                                               "outcome": rule, "points": caller_gain, "named": 3, "missed": 4,
                                               "reason": "play"}
    missed = events(st, "missed", mark)
    assert [m["points"] for m in missed] == ([] if missed_after is None else [missed_after])


def test_the_first_caller_settles_the_window(case: Case) -> None:
    st = case.scored(None)
    st.apply(case.caller, MUGGINS)
    assert st.muggable(case.caller) == 0 and MUGGINS not in st.legal_actions(case.caller)
    refused(st, case.caller, MUGGINS)


def test_the_first_of_two_opponents_wins() -> None:
    hands = [["6-4", "0-0"], ["4-3", "1-1"], ["5-5", "2-2"]]
    st = domino_state("muggins", hands=hands)
    st.apply(0, st.parse_action("6-4"))
    assert st.to_act() == {0, 1, 2} - {0} | st.waiting_for()
    st.apply(2, MUGGINS)
    refused(st, 1, MUGGINS)
    assert st.side_scores() == [0, 0, 10]


@pytest.mark.parametrize(("penalty", "named", "caller_delta", "scorer_delta"),
                         [("none", None, 0, 0), ("deduct", None, -10, 0), ("award", None, 10, None),
                          ("award", 3, 0, 3)])
def test_false_calls(case: Case, penalty: str, named: int | None, caller_delta: int,
                     scorer_delta: int | None) -> None:
    st = case.scored(case.points, false_call_penalty=penalty)
    before = st.side_scores()
    st.apply(case.caller, Action("muggins", claim=named))
    assert events(st, "muggins")[-1]["outcome"] == "false_call"
    cs, ss = st.side_of(case.caller), st.side_of(case.scorer)
    if scorer_delta is None:  # 'award' naming nothing: the accused side gets the false-call points
        assert (st.side_scores()[cs] - before[cs], st.side_scores()[ss] - before[ss]) == (0, 10)
    else:
        assert (st.side_scores()[cs] - before[cs], st.side_scores()[ss] - before[ss]) == \
            (caller_delta, scorer_delta)


# ---------------------------------------------------------------------------------- late claims ----
def test_a_late_claim_with_lenient_timing(case: Case) -> None:
    st = case.scored(None, claim_timing="lenient")
    before = st.side_scores()
    assert st.claim_for(case.scorer, CLAIM) == case.points
    assert st.claim_for(case.caller, CLAIM) == 0
    assert "names its points" in refused(st, case.scorer, CLAIM)
    st.apply(case.scorer, Action("claim", claim=case.points - 1))
    ss = st.side_of(case.scorer)
    assert st.side_scores()[ss] - before[ss] == case.points - 1
    assert st.log[-2].to_dict() == {"kind": "claim", "seat": case.scorer, "points": case.points - 1,
                                    "late": True}
    assert st.muggable(case.caller) == 1 and CLAIM not in st.legal_actions(case.scorer)
    refused(st, case.scorer, Action("claim", claim=1))  # once only
    st.apply(case.caller, MUGGINS)
    assert st.side_scores()[st.side_of(case.caller)] - before[st.side_of(case.caller)] == 1


def test_a_late_over_claim_is_void(case: Case) -> None:
    st = case.scored(None, claim_timing="lenient")
    before = st.side_scores()
    st.apply(case.scorer, Action("claim", claim=case.points + 1))
    assert st.side_scores() == before and events(st, "over_claim")[-1]["points"] == case.points + 1
    assert st.muggable(case.caller) == case.points


def test_strict_timing_has_no_late_claim(case: Case) -> None:
    st = case.scored(None)
    assert st.claim_for(case.scorer, CLAIM) == 0
    refused(st, case.scorer, Action("claim", claim=case.points))


# ----------------------------------------------------------------------------- the end of a game ----
def test_points_unclaimed_when_the_game_ends_are_logged_as_missed(case: Case) -> None:
    options, claim = case.end
    st = case.scored(claim, **options)
    assert st.is_over() and st.winners() == {s for s in range(st.num_players)
                                             if st.side_of(s) == st.side_of(case.scorer)}
    kinds = [e["kind"] for e in st.events_for(None)]
    assert kinds[kinds.index("game_end") + 1:] == ["missed"]
    assert st.log[-1].data == {"side": st.side_of(case.scorer), "points": case.points - claim, "reason": "play"}
    assert st.to_act() == frozenset() and st.legal_actions(case.caller) == [] and st.muggable(case.caller) == 0


def test_no_call_or_claim_after_the_game_is_over(case: Case) -> None:
    options, claim = case.end
    st = case.scored(claim, claim_timing="lenient", **options)
    refused(st, case.caller, MUGGINS, IllegalAction)
    refused(st, case.scorer, Action("claim", claim=1), IllegalAction)
    assert st.claim_for(case.scorer, CLAIM) == 0


# ------------------------------------------------------------------------- the same in every game ----
def _window_events(case: Case) -> list[tuple[str, tuple[str, ...]]]:
    """The kinds and fields of the window's events over one script: an under-claim, a call naming part
    of it, an over-claim penalised, a late claim and an over-claimed late claim."""
    out: list[tuple[str, tuple[str, ...]]] = []

    def keep(st: GameState, start: int) -> None:
        out.extend((e["kind"], tuple(sorted(e))) for e in st.events_for(None, start) if e["kind"] in WINDOW_EVENTS)

    st = case.scored(case.points - 4)
    mark = len(st.log)
    st.apply(case.caller, Action("muggins", claim=3))
    keep(st, 0)
    st = case.scored(case.points + 1, over_claim="opponent_scores")
    keep(st, mark - 1)
    for amount in (1, case.points + 1):
        st = case.scored(None, claim_timing="lenient")
        mark = len(st.log)
        st.apply(case.scorer, Action("claim", claim=amount))
        st.apply(*next_move(st))
        keep(st, mark)
    return out


def test_the_window_events_have_the_same_fields_in_every_game() -> None:
    seen = {c.game: _window_events(c) for c in CASES}
    first = seen["dominoes"]
    assert {k for k, _ in first} == set(WINDOW_EVENTS)
    for game, evs in seen.items():
        assert {k: f for k, f in evs} == {k: f for k, f in first}, game


# ------------------------------------------------------------------------ what the games bring in ----
def test_card_muggins_last_extends_the_window_of_the_same_scorer() -> None:
    """window=until_next_play: a go leaves B's play window open; when the pile closes, B's "last" point
    joins it, and B may claim that point late (up to it alone), strict timing or not."""
    st = card_state(C4_HANDS, C4_STOCK, window="until_next_play", mug_last=True)
    play(st, "8C", "8D", "4C")
    play(st, "5D", claim=False)
    play(st, "go", "go")
    assert st.muggable(0) == 26 and st.claim_for(1, CLAIM) == 1
    assert st.view(0)["window"] == {"scorer": 1, "claimed": None, "reason": "last", "scorer_may_claim": True}
    st.apply(1, Action("claim", claim=2))  # more than the last point: void
    assert st.log[-1].kind == "over_claim" and st.log[-1].data["true"] == 1
    assert st.side_scores() == [20, 0] and st.muggable(0) == 26
    st = card_state(C4_HANDS, C4_STOCK, window="until_next_play", mug_last=True)
    play(st, "8C", "8D", "4C")
    play(st, "5D", claim=False)
    play(st, "go", "go")
    st.apply(1, Action("claim", claim=1))
    assert st.side_scores() == [20, 1] and st.muggable(0) == 25
    play(st, "7C")
    assert events(st, "missed")[-1]["points"] == 25


def test_cribbage_tells_a_show_once_its_window_closes_even_after_a_refused_move() -> None:
    st = dealt_game(["5H 5D 5C JS", "KC KD QC QD"], starter="5S", claims="manual")
    while st.phase == "play":
        seat = st.turn
        a = st.legal_actions(seat)[0]
        st.apply(seat, a.with_claim(st.claim_for(seat, a)))
    st.apply(0, COUNT_HAND.with_claim(20))  # 29 is true
    assert isinstance(st, CribbageState)
    refused(st, 0, COUNT_CRIB, IllegalAction)  # not his count: the window stays, the truth untold
    assert not events(st, "explain") and "total" not in st.view(1)["shows"][0]
    st.apply(1, COUNT_HAND.with_claim(st.claim_for(1, COUNT_HAND)))
    assert events(st, "missed")[0]["points"] == 9
    assert events(st, "explain")[0]["total"] == 29
