"""Card Muggins: the worked examples C1-C5 of RULES.md §7.5, every option of §4.3, every muggins outcome,
refused moves, notation, views and hidden-information sampling."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from muggins.cards.deck import full_deck, parse_card
from muggins.cards.muggins31 import CardMugginsRules, CardMugginsState
from muggins.core import (
    Action,
    Chance,
    ClaimError,
    GameOver,
    GameState,
    IllegalAction,
    NotYourTurn,
    RecordError,
    RulesError,
    UnknownAction,
    get_game,
    with_options,
)
from muggins.core.records import replay, to_record

pytestmark = pytest.mark.usefixtures("pure_engine")  # tests of the pure engine, the reference

SPEC = get_game("card-muggins")


def cm(state: GameState) -> CardMugginsState:
    """The state as a card Muggins state (the registry returns the protocol type)."""
    assert isinstance(state, CardMugginsState)
    return state


LOW_CUT = ["2C", "3C", "4C", "5C"]


def cut_outcome(n: int, dealer: int, rule: str = "high_card") -> dict[str, Any]:
    """A cut for the first deal that makes ``dealer`` deal."""
    cards = list(LOW_CUT[:n]) if rule == "high_card" else ["9C", "9D", "9H", "9S"][:n]
    cards[dealer] = "KS" if rule == "high_card" else "AS"
    return {"kind": "cut_for_deal", "seats": list(range(n)), "cards": cards}


def card_state(hands: list[list[str]], stock: list[str] | None = None, dealer: int | None = None,
               preset: str = "muggins", **options: Any) -> CardMugginsState:
    """A game whose first round deals ``hands`` (by seat) with ``stock`` on top of the stock (top first);
    the cards not named follow in pack order. ``dealer`` defaults to the last seat, so seat 0 leads.
    The hand size becomes ``hand_size``."""
    n = len(hands)
    size = len(hands[0])
    assert all(len(h) == size for h in hands)
    rules = SPEC.rules(preset, options) if options else SPEC.rules(preset)
    if rules.hand_size != size:
        rules = with_options(rules, {"hand_size": size})
    named = [parse_card(c).text for h in hands for c in h]
    top = [parse_card(c).text for c in (stock or [])]
    assert len(set(named + top)) == len(named) + len(top), "a card named twice"
    rest = [c.text for c in full_deck() if c.text not in named and c.text not in top]
    d = n - 1 if dealer is None else dealer
    outcomes = [cut_outcome(n, d, rules.first_dealer),
                {"kind": "deal", "hands": [[parse_card(c).text for c in h] for h in hands],
                 "stock": top + rest}]
    SPEC.check(rules, n)
    return CardMugginsState.new(rules, n, Chance(outcomes=outcomes, seed=7))  # the pure engine, the reference


def play(st: CardMugginsState, *moves: str, claim: bool = True) -> list[int]:
    """Play ``moves`` in turn (each by the seat to act), claiming the true points in manual mode.
    Returns what each move scored."""
    scored = []
    for m in moves:
        seat = st.turn
        a = st.parse_action(m, seat)
        pts = st.claim_for(seat, a)
        if claim and st.rules.claims == "manual" and a.kind == "play":
            a = a.with_claim(pts)
        st.apply(seat, a)
        scored.append(pts)
    return scored


def moves(st: CardMugginsState, seat: int) -> list[str]:
    """The regular moves of ``seat`` (muggins calls and late claims aside)."""
    return [st.format_action(a) for a in st.legal_actions(seat) if a.kind in ("play", "go")]


def snapshot(st: CardMugginsState) -> str:
    views = [st.view(None).to_json()] + [st.view(s).to_json() for s in range(st.num_players)]
    return json.dumps([views, to_record(st), st.events_for(None)], sort_keys=True)


def refused(st: CardMugginsState, seat: int, action: Action, exc: type[Exception] = IllegalAction) -> str:
    before = snapshot(st)
    with pytest.raises(exc) as info:
        st.apply(seat, action)
    assert snapshot(st) == before
    return str(info.value)


def reasons(st: CardMugginsState, kind: str = "score") -> list[tuple[int, int, str]]:
    return [(e.data["side"], e.data["points"], e.data["reason"]) for e in st.log if e.kind == kind]


# ------------------------------------------------------------------------------- RULES.md §7.5 ----
C1_HANDS = [["KH", "5D", "9C", "8C", "7C"], ["5H", "QS", "AS", "6C", "6D"]]
C1_STOCK = ["9D", "9H", "9S", "8D", "8H", "8S"]


def test_c1_typical_pile() -> None:
    st = card_state(C1_HANDS, C1_STOCK)
    assert st.turn == 0 and st.dealer == 1
    assert play(st, "KH", "5H", "5D", "QS") == [10, 15, 20, 30]
    assert moves(st, 0) == ["go"]  # A has no ace
    play(st, "go")
    assert len(st.hands[0]) == 6  # the go drew a card (A1)
    assert play(st, "AS") == [2]
    assert st.side_scores() == [30, 47]
    # 31 closed the pile at once; B played last, so A leads the next pile
    assert st.total == 0 and st.pile == [] and st.turn == 0
    assert [e.data["total"] for e in st.log if e.kind == "pile_end"] == [31]
    assert not any(r == "last" for _, _, r in reasons(st))


C2_HANDS = [["8C", "7C", "TC", "JC", "QC"], ["9C", "4C", "TD", "JD", "QD"]]
C2_STOCK = ["KC", "KD", "KH", "KS", "TH", "TS"]


def test_c2_closing_with_last() -> None:
    st = card_state(C2_HANDS, C2_STOCK)
    play(st, "8C", "9C", "7C", "4C")
    assert st.total == 28
    play(st, "go")
    assert st.total == 28 and st.turn == 1  # B, who laid the last card, must pass too (A3)
    play(st, "go")
    assert st.side_scores() == [0, 1]
    assert reasons(st) == [(1, 1, "last")]
    assert st.turn == 0 and st.total == 0  # A (left of B) leads
    assert len(st.hands[0]) == 6 and len(st.hands[1]) == 6


def test_c2_a_drawn_three_does_not_reopen_the_pile() -> None:
    st = card_state(C2_HANDS, ["KC", "KD", "KH", "KS", "3H", "TS"])
    play(st, "8C", "9C", "7C", "4C", "go")
    assert parse_card("3H") in st.hands[0]  # A could now play it, but B's go closes the pile first
    play(st, "go")
    assert st.side_scores() == [0, 1] and st.total == 0 and st.turn == 0


C3_HANDS = [["6C", "4C", "7C", "8C", "9C"], ["6D", "TD", "2D", "7D", "8D"]]
C3_STOCK = ["KC", "KD", "KH", "KS", "2H", "QC", "QD", "QH"]


def test_c3_a_go_draw_that_later_plays() -> None:
    st = card_state(C3_HANDS, C3_STOCK)
    play(st, "6C", "6D", "4C", "TD")
    assert st.total == 26
    assert moves(st, 0) == ["go"]
    play(st, "go")
    assert len(st.hands[0]) == 6 and parse_card("2H") in st.hands[0]
    play(st, "2D")
    assert st.total == 28
    assert play(st, "2H") == [30]
    assert len(st.hands[0]) == 5  # no refill: the hand is not below five
    play(st, "go", "go")
    assert st.side_scores() == [31, 0]
    assert reasons(st) == [(0, 30, "play"), (0, 1, "last")]
    assert st.turn == 1  # B, left of A, leads


def test_c3_go_is_final_for_pile() -> None:
    st = card_state(C3_HANDS, C3_STOCK, go_is_final_for_pile=True)
    play(st, "6C", "6D", "4C", "TD", "go", "2D")
    assert st.turn == 1  # A said go: he sits out the pile although he now holds the 2
    play(st, "go")
    assert st.side_scores() == [0, 1] and st.turn == 0 and st.total == 0


def test_c3_go_is_final_b_keeps_playing_while_he_can() -> None:
    hands = [C3_HANDS[0], ["6D", "TD", "2D", "AD", "8D"]]
    st = card_state(hands, C3_STOCK, go_is_final_for_pile=True)
    play(st, "6C", "6D", "4C", "TD", "go", "2D")
    play(st, "AD")
    assert st.total == 29 and st.turn == 1
    play(st, "go")
    assert st.side_scores() == [0, 1]


C4_HANDS = [["8C", "4C", "7C", "9C", "TC"], ["8D", "5D", "7D", "9D", "TD"]]
C4_STOCK = ["KC", "KD", "KH", "KS", "QC", "QD"]


def c4_position(**options: Any) -> CardMugginsState:
    """B has just laid a 5 making 25 and said nothing."""
    st = card_state(C4_HANDS, C4_STOCK, **options)
    play(st, "8C", "8D", "4C")
    assert st.side_scores() == [20, 0]
    play(st, "5D", claim=False)
    assert st.total == 25 and st.muggable(0) == 25 and st.muggable(1) == 0
    return st


def test_c4_muggins_in_the_card_game() -> None:
    st = c4_position()
    assert Action("muggins") in st.legal_actions(0)
    st.apply(0, Action("muggins"))
    assert st.side_scores() == [45, 0]
    assert reasons(st)[-1] == (0, 25, "muggins")
    assert st.turn == 0  # calling is not A's turn action


def test_c4_too_late_after_a_go() -> None:
    st = c4_position()
    play(st, "go")  # A holds nothing of 6 or less
    refused(st, 0, Action("muggins"), ClaimError)
    assert st.side_scores() == [20, 0]
    assert reasons(st, "missed") == [(1, 25, "play")]


def test_c4_too_late_after_a_play() -> None:
    st = card_state([["8C", "4C", "6C", "9C", "TC"], C4_HANDS[1]], C4_STOCK)
    play(st, "8C", "8D", "4C")
    play(st, "5D", claim=False)
    play(st, "6C")  # A plays first: 31
    assert reasons(st, "missed") == [(1, 25, "play")] and st.muggable(0) == 0
    refused(st, 0, Action("muggins"), ClaimError)  # the open window is now A's own
    assert st.side_scores() == [22, 0]


C5_HANDS = [["4C", "TC", "AC", "9C", "8C"], ["KC", "9D", "8D", "7D", "6D"], ["5C", "9H", "8H", "7H", "6H"]]
C5_STOCK = ["KD", "KH", "KS", "QC", "QD", "QH", "QS", "JC", "JD", "JH"]


def test_c5_three_players_and_the_next_leader() -> None:
    st = card_state(C5_HANDS, C5_STOCK)
    assert st.turn == 0
    play(st, "4C", "KC", "5C", "TC")
    assert st.total == 29
    play(st, "go", "go")
    assert st.turn == 0
    assert play(st, "AC") == [30]
    play(st, "go", "go")
    assert st.total == 30 and st.turn == 0  # P1 laid the last card and must pass as well
    play(st, "go")
    assert st.side_scores() == [31, 0, 0]
    assert st.turn == 1 and st.total == 0  # P2, left of the last card's player, leads
    assert len(st.hands[1]) == 7  # two go-draws: a hand can grow past five


# ------------------------------------------------------------------------------------ options ----
def test_default_rules_and_presets() -> None:
    r = SPEC.rules()
    assert isinstance(r, CardMugginsRules)
    assert (r.preset, r.cap, r.hand_size, r.target, r.go_draw, r.claims) == ("muggins", 31, 5, 61, "one", "manual")
    assert not (r.go_is_final_for_pile or r.close_after_others_pass or r.thirty_one_plus_last or r.mug_last)
    assert r.lead_scores and r.first_dealer == "high_card" and r.win_check == "immediate"
    assert SPEC.rules("deal-seven").hand_size == 7 and not SPEC.rules("deal-seven").draw_after_play
    assert SPEC.rules("deal-seven").go_draw == "none"
    assert SPEC.rules("no-muggins").claims == "auto"
    assert SPEC.rules("strict-21").cap == 21
    assert SPEC.rules(options={"target": 100}).target == 100
    assert set(SPEC.descriptions) == set(SPEC.presets)


@pytest.mark.parametrize("options", [{"cap": 30}, {"cap": 5}, {"hand_size": 0}, {"target": 0},
                                     {"go_draw": "two"}, {"window": "forever"}, {"cap_bonus": -1},
                                     {"no_such_rule": 1}])
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(RulesError):
        SPEC.rules(options=options)


@pytest.mark.parametrize("n", [1, 5])
def test_two_to_four_players(n: int) -> None:
    with pytest.raises(RulesError):
        SPEC.new(SPEC.rules(), n, seed=1)


def test_too_many_cards_for_the_pack() -> None:
    with pytest.raises(RulesError):
        SPEC.new(SPEC.rules(options={"hand_size": 14}), 4, seed=1)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_deal_sizes(n: int) -> None:
    st = cm(SPEC.new(SPEC.rules(), n, seed=3))
    assert [len(h) for h in st.hands] == [5] * n and len(st.stock) == 52 - 5 * n
    st4 = cm(SPEC.new(SPEC.rules(options={"hand_size": 4}), n, seed=3))
    assert [len(h) for h in st4.hands] == [4] * n


def test_go_draw_none() -> None:
    st = card_state(C2_HANDS, C2_STOCK, go_draw="none")
    play(st, "8C", "9C", "7C", "4C")
    stock = len(st.stock)
    play(st, "go", "go")
    assert len(st.stock) == stock and [len(h) for h in st.hands] == [5, 5]
    assert st.side_scores() == [0, 1]


def test_go_draw_only_if_below_hand_size() -> None:
    hands = [["8C", "7C", "TC", "JC", "QC"], ["9C", "4C", "TD", "JD", "QD"]]
    st = card_state(hands, C2_STOCK, go_draw="only_if_below_5", draw_after_play=False)
    play(st, "8C", "9C", "7C", "4C")
    play(st, "go", "go")  # both hold 3 cards now: each go draws one
    assert [len(h) for h in st.hands] == [4, 4]
    st = card_state(C2_HANDS, C2_STOCK, go_draw="only_if_below_5")
    play(st, "8C", "9C", "7C", "4C", "go", "go")  # refilled to 5: no go-draw
    assert [len(h) for h in st.hands] == [5, 5]


def test_draw_after_play_refills_only_below_hand_size() -> None:
    st = card_state(C2_HANDS, C2_STOCK)
    play(st, "8C")
    assert len(st.hands[0]) == 5 and st.hands[0][-1] == parse_card("KC")
    draws = [e for e in st.log if e.kind == "draw"]
    assert [(e.seat, e.data["why"]) for e in draws] == [(0, "refill")]


def test_close_after_others_pass() -> None:
    st = card_state(C2_HANDS, C2_STOCK, close_after_others_pass=True)
    play(st, "8C", "9C", "7C", "4C", "go")
    assert st.side_scores() == [0, 1]  # closed at A's go: B need not pass
    assert st.turn == 0 and len(st.hands[1]) == 5


def test_lead_after_last_passer() -> None:
    st = card_state(C2_HANDS, C2_STOCK, close_after_others_pass=True, lead_after_last_passer=True)
    play(st, "8C", "9C", "7C", "4C", "go")
    assert st.turn == 1  # A passed last, so B (on his left) leads
    st = card_state(C5_HANDS, C5_STOCK, lead_after_last_passer=True)
    play(st, "4C", "KC", "5C", "TC", "go", "go", "AC", "go", "go", "go")
    assert st.turn == 1  # with the default closing rule it is the same seat as A7's default


def test_pass_once_with_others_pass() -> None:
    st = card_state(C3_HANDS, C3_STOCK, go_is_final_for_pile=True, close_after_others_pass=True)
    play(st, "6C", "6D", "4C", "TD", "go")  # A's go ends the pile: B need not pass
    assert st.side_scores() == [0, 1] and st.total == 0 and st.turn == 0
    assert parse_card("2H") in st.hands[0]
    st = card_state(C3_HANDS, C3_STOCK, go_is_final_for_pile=True, close_after_others_pass=True,
                    lead_after_last_passer=True)
    play(st, "6C", "6D", "4C", "TD", "go")
    assert st.side_scores() == [0, 1] and st.turn == 1  # led from the left of A, the last passer


def test_thirty_one_plus_last() -> None:
    st = card_state(C1_HANDS, C1_STOCK, thirty_one_plus_last=True)
    play(st, "KH", "5H", "5D", "QS", "go", "AS")
    assert st.side_scores() == [30, 48]
    assert reasons(st)[-2:] == [(1, 2, "play"), (1, 1, "last")]


def test_lead_does_not_score_with_option() -> None:
    st = card_state(C1_HANDS, C1_STOCK, lead_scores=False)
    assert play(st, "KH", "5H", "5D", "QS", "go", "AS") == [0, 15, 20, 30, 0, 2]
    assert st.side_scores() == [20, 47]


def test_strict_21() -> None:
    st = card_state([["TC", "5C", "9C", "8C", "7C"], ["6D", "9D", "8D", "7D", "KD"]],
                    ["KC", "KH", "KS", "QC", "QD"], preset="strict-21")
    assert play(st, "TC", "6D", "5C") == [10, 0, 2]
    assert st.total == 0 and st.turn == 1  # 21 closed the pile
    play(st, "9D", "9C")  # 18
    assert moves(st, 1) == ["go"]  # nothing of 3 or less under the 21 cap


def last_card_position(**options: Any) -> CardMugginsState:
    return card_state([["5C"], ["KC"]], draw_after_play=False, go_draw="none", **options)


def test_last_card_of_the_round_scores_last() -> None:
    st = last_card_position()
    play(st, "5C", "KC")
    assert reasons(st) == [(0, 5, "play"), (1, 15, "play"), (1, 1, "last")]
    assert st.round_no == 2 and st.dealer == 0 and st.turn == 1  # A12: deal passes left
    assert st.side_scores() == [5, 16]  # scores carry into the new round


def test_mug_last_known_at_play_time_is_claimed_with_the_card() -> None:
    st = last_card_position(mug_last=True)
    play(st, "5C")
    assert st.claim_for(1, st.parse_action("KC")) == 16
    st.apply(1, st.parse_action("KC").with_claim(15))
    assert st.side_scores() == [5, 15] and st.muggable(0) == 1
    st.apply(0, Action("muggins"))
    assert st.side_scores() == [6, 15]


def test_mug_last_claimed_late() -> None:
    st = card_state(C2_HANDS, C2_STOCK, mug_last=True)
    play(st, "8C", "9C", "7C", "4C", "go", "go")
    assert st.side_scores() == [0, 0] and st.muggable(0) == 1
    assert "claim" in {a.kind for a in st.legal_actions(1)}
    st.apply(1, Action("claim", claim=2))  # an over-claim is void, not refused
    assert st.side_scores() == [0, 0] and st.muggable(0) == 1
    assert Action("claim") not in st.legal_actions(1)


def test_mug_last_claim_and_steal() -> None:
    st = card_state(C2_HANDS, C2_STOCK, mug_last=True)
    play(st, "8C", "9C", "7C", "4C", "go", "go")
    st.apply(1, Action("claim", claim=1))
    assert st.side_scores() == [0, 1] and st.muggable(0) == 0
    st = card_state(C2_HANDS, C2_STOCK, mug_last=True)
    play(st, "8C", "9C", "7C", "4C", "go", "go")
    st.apply(0, Action("muggins"))
    assert st.side_scores() == [1, 0]
    st = card_state(C2_HANDS, C2_STOCK, mug_last=True)
    play(st, "8C", "9C", "7C", "4C", "go", "go", "KC")
    assert st.side_scores() == [10, 0] and reasons(st, "missed") == [(1, 1, "last")]


def test_last_is_not_muggable_by_default() -> None:
    st = card_state(C2_HANDS, C2_STOCK)
    play(st, "8C", "9C", "7C", "4C", "go", "go")
    assert st.side_scores() == [0, 1] and st.muggable(0) == 0
    refused(st, 1, Action("claim", claim=1), ClaimError)


def test_window_until_next_play_survives_a_go() -> None:
    st = c4_position(window="until_next_play")
    play(st, "go")
    assert st.muggable(0) == 25
    st.apply(0, Action("muggins"))
    assert st.side_scores() == [45, 0]
    st = c4_position(window="until_next_play")
    play(st, "go", "go")  # B cannot play either: the pile closes, B scores last
    assert st.muggable(0) == 25 and st.turn == 0
    play(st, "7C")  # the next play ends the window
    refused(st, 0, Action("muggins"), ClaimError)
    assert st.side_scores() == [20, 1]


def test_target_reached_mid_round_wins_at_once() -> None:
    st = card_state(C1_HANDS, C1_STOCK, target=40)
    play(st, "KH", "5H", "5D", "QS")
    assert st.is_over() and st.winners() == frozenset({1}) and st.side_scores() == [30, 45]
    assert st.to_act() == frozenset() and st.legal_actions(0) == []
    refused(st, 0, st.parse_action("go"), GameOver)
    assert [e.kind for e in st.log][-1] == "game_end"


def test_win_checked_at_end_of_round() -> None:
    st = card_state(C1_HANDS, C1_STOCK, target=40, win_check="end_of_round")
    play(st, "KH", "5H", "5D", "QS", "go", "AS")
    assert not st.is_over() and st.side_scores() == [30, 47]
    rng = random.Random(5)
    while not st.is_over() and st.round_no == 1:
        seat = st.turn
        a = rng.choice(st.legal_actions(seat))
        st.apply(seat, a.with_claim(st.claim_for(seat, a)) if a.kind == "play" else a)
    ends = [e for e in st.log if e.kind == "round_end"]
    assert len(ends) == 1
    scores = ends[0].data["scores"]
    top = max(scores)
    if scores.count(top) == 1:
        assert st.is_over() and st.winners() == frozenset({scores.index(top)})
    else:
        assert not st.is_over() and st.round_no == 2


def test_first_dealer_by_high_card_with_ties_redrawn() -> None:
    deal = SPEC.new(SPEC.rules(), 3, seed=1).chance.outcomes[-1]
    out = [{"kind": "cut_for_deal", "seats": [0, 1, 2], "cards": ["KC", "KD", "2H"]},
           {"kind": "cut_for_deal", "seats": [0, 1], "cards": ["3C", "7D"]}]
    st = cm(SPEC.new(SPEC.rules(), 3, chance=Chance(outcomes=[*out, deal])))
    assert st.dealer == 1 and st.turn == 2
    assert [e.kind for e in st.log[:2]] == ["cut_for_deal", "cut_for_deal"]
    out = [{"kind": "cut_for_deal", "seats": [0, 1, 2], "cards": ["5C", "AD", "9H"]}]
    st = cm(SPEC.new(SPEC.rules(options={"first_dealer": "low_card"}), 3, chance=Chance(outcomes=[*out, deal])))
    assert st.dealer == 1 and st.turn == 2
    st = cm(SPEC.new(SPEC.rules(), 3, chance=Chance(outcomes=[*out, deal])))
    assert st.dealer == 2 and st.turn == 0


@pytest.mark.parametrize("outcomes", [
    [{"kind": "cut_for_deal", "seats": [0, 1], "cards": ["KC", "KC"]}],
    [{"kind": "cut_for_deal", "seats": [0], "cards": ["KC"]}],
    [{"kind": "cut_for_deal", "seats": [0, 1], "cards": ["KC", "XX"]}],
    [{"kind": "deal", "hands": [], "stock": []}],
    [cut_outcome(2, 1), {"kind": "deal", "hands": [["KC"] * 5, ["QC"] * 5], "stock": []}],
    [cut_outcome(2, 1), {"kind": "deal", "hands": [["KC"], ["QC"]], "stock": []}],
])
def test_bad_chance_outcomes_are_record_errors(outcomes: list[dict[str, Any]]) -> None:
    with pytest.raises(RecordError):
        SPEC.new(SPEC.rules(), 2, chance=Chance(outcomes=outcomes))


def test_deal_seven_never_draws() -> None:
    st = cm(SPEC.new(SPEC.rules("deal-seven"), 3, seed=11))
    first = next(e.data for e in st.log if e.kind == "round_start")
    assert [len(h) for h in st.hands] == [7, 7, 7]
    stock = len(st.stock)
    rng = random.Random(1)
    while st.round_no == 1 and not st.is_over():
        assert len(st.stock) == stock
        seat = st.turn
        st.apply(seat, rng.choice(st.legal_actions(seat)))
    assert not any(e.kind == "draw" for e in st.log)
    if not st.is_over():
        assert [len(h) for h in st.hands] == [7, 7, 7] and st.dealer == (first["dealer"] + 1) % 3


# ------------------------------------------------------------------------------------ muggins ----
def test_forfeit() -> None:
    st = c4_position(muggins="forfeit")
    st.apply(0, Action("muggins"))
    assert st.side_scores() == [20, 0]
    assert [e.data["outcome"] for e in st.log if e.kind == "muggins"] == ["forfeit"]


def test_steal_and_deduct() -> None:
    st = c4_position(muggins="steal_and_deduct")
    st.apply(0, Action("muggins"))
    assert st.side_scores() == [45, -25]


def test_named_amount_takes_the_lesser() -> None:
    st = c4_position()
    st.apply(0, Action("muggins", claim=10))
    assert st.side_scores() == [30, 0]
    assert reasons(st, "missed") == [(1, 15, "play")]
    st = c4_position()
    st.apply(0, Action("muggins", claim=30))  # more than the 25 missed (and at most the 32 a step can make)
    assert st.side_scores() == [45, 0]


def test_under_claim_difference_is_muggable() -> None:
    st = card_state(C4_HANDS, C4_STOCK)
    play(st, "8C", "8D", "4C")
    st.apply(1, st.parse_action("5D").with_claim(20))
    assert st.side_scores() == [20, 20] and st.muggable(0) == 5
    st.apply(0, Action("muggins"))
    assert st.side_scores() == [25, 20]


def test_over_claim_is_void_and_the_truth_stays_muggable() -> None:
    st = card_state(C4_HANDS, C4_STOCK)
    play(st, "8C", "8D", "4C")
    st.apply(1, st.parse_action("5D").with_claim(30))
    assert st.side_scores() == [20, 0] and st.muggable(0) == 25
    assert [e.data["points"] for e in st.log if e.kind == "over_claim"] == [30]
    st.apply(0, Action("muggins"))
    assert st.side_scores() == [45, 0]


def test_over_claim_opponent_scores() -> None:
    st = card_state(C4_HANDS, C4_STOCK, over_claim="opponent_scores")
    play(st, "8C", "8D", "4C")
    st.apply(1, st.parse_action("7D").with_claim(5))  # 27 scores nothing
    assert st.side_scores() == [25, 0]
    assert reasons(st)[-1] == (0, 5, "over-claim penalty")


@pytest.mark.parametrize(("penalty", "named", "scores"), [
    ("none", None, [20, 25]), ("deduct", None, [10, 25]), ("award", None, [20, 35]), ("award", 7, [20, 32]),
])
def test_false_calls(penalty: str, named: int | None, scores: list[int]) -> None:
    st = card_state(C4_HANDS, C4_STOCK, false_call_penalty=penalty)
    play(st, "8C", "8D", "4C", "5D")  # B claims his 25 correctly
    st.apply(0, Action("muggins", claim=named))
    assert st.side_scores() == scores
    assert [e.data["outcome"] for e in st.log if e.kind == "muggins"] == ["false_call"]


def test_first_caller_wins() -> None:
    st = card_state(C5_HANDS, C5_STOCK)
    play(st, "4C", "KC", "5C", "TC", "go", "go")
    play(st, "AC", claim=False)
    assert st.muggable(1) == 30 and st.muggable(2) == 30
    assert st.to_act() == frozenset({1, 2}) and st.waiting_for() == frozenset({1})
    st.apply(2, Action("muggins"))
    refused(st, 1, Action("muggins"), ClaimError)
    assert st.side_scores() == [0, 0, 30]


def test_no_muggins_on_yourself_or_without_a_window() -> None:
    st = c4_position()
    refused(st, 1, Action("muggins"), ClaimError)
    st = card_state(C4_HANDS, C4_STOCK)
    refused(st, 1, Action("muggins"), ClaimError)


def test_lenient_claim_timing() -> None:
    st = card_state(C4_HANDS, C4_STOCK, claim_timing="lenient")
    play(st, "8C", "8D", "4C")
    play(st, "5D", claim=False)
    assert st.to_act() == frozenset({0, 1})
    st.apply(1, Action("claim", claim=25))
    assert st.side_scores() == [20, 25] and st.muggable(0) == 0
    refused(st, 1, Action("claim", claim=25), ClaimError)  # once only
    st = card_state(C4_HANDS, C4_STOCK)  # strict: no late claim
    play(st, "8C", "8D", "4C")
    play(st, "5D", claim=False)
    refused(st, 1, Action("claim", claim=25), ClaimError)


def test_no_muggins_preset_scores_automatically() -> None:
    st = card_state(C4_HANDS, C4_STOCK, preset="no-muggins")
    play(st, "8C", "8D", "4C", "5D", claim=False)
    assert st.side_scores() == [20, 25] and st.view(0)["window"] is None
    refused(st, 0, Action("muggins"), ClaimError)
    assert "automatically" in refused(st, 0, Action("go", claim=2), ClaimError)


# --------------------------------------------------------------------------------- refusals ----
def test_illegal_moves_leave_the_state_unchanged() -> None:
    st = card_state(C3_HANDS, C3_STOCK)
    play(st, "6C", "6D", "4C", "TD")  # 26; A holds only 6 and higher
    assert "does not hold" in refused(st, 0, Action("play", parse_card("2D")))
    assert "over the cap" in refused(st, 0, Action("play", parse_card("9C")))
    refused(st, 1, Action("go"), NotYourTurn)
    refused(st, 7, Action("go"), NotYourTurn)
    refused(st, 0, Action("play", "9C"))
    assert "automatically" in refused(st, 0, Action("draw"))
    assert "unknown move" in refused(st, 0, Action("discard"))
    refused(st, 0, Action("go", claim=3), ClaimError)
    play(st, "go", "2D")
    assert "you can play" in refused(st, 0, Action("go"))
    refused(st, 0, Action("play", parse_card("2H"), claim=-1), ClaimError)
    refused(st, 0, Action("claim"), ClaimError)


def test_undo_replays_to_the_same_position() -> None:
    st = card_state(C1_HANDS, C1_STOCK)
    play(st, "KH", "5H", "5D")
    before = snapshot(st)
    play(st, "QS")
    st.undo()
    assert snapshot(st) == before


# --------------------------------------------------------------------------------- notation ----
def test_parse_and_format() -> None:
    st = card_state(C1_HANDS, C1_STOCK)
    kh = parse_card("KH")
    assert st.parse_action("play KH") == Action("play", kh) == st.parse_action("kh")
    assert st.parse_action("play 10d").subject == parse_card("TD")
    assert st.parse_action("go") == Action("go") == st.parse_action("pass")
    assert st.parse_action("muggins") == Action("muggins")
    assert st.parse_action("muggins 10") == Action("muggins", claim=10)
    assert st.parse_action("claim 1") == Action("claim", claim=1)
    assert st.format_action(Action("play", kh)) == "play KH"
    assert st.parse_action("claim") == Action("claim")  # a record keeps the amount apart
    for text in ("", "play", "play ZZ", "go now", "muggins ten", "play KH QH"):
        with pytest.raises(UnknownAction):
            st.parse_action(text)
    for a in st.legal_actions(0):
        assert st.parse_action(st.format_action(a)) == a
    rec = to_record(st)
    assert rec["game"] == "card-muggins" and rec["preset"] == "muggins"


def test_record_holds_claims_and_replays() -> None:
    st = c4_position()
    st.apply(0, Action("muggins", claim=20))
    rec = to_record(st)
    plain = [{k: v for k, v in a.items() if k not in ("kind", "id")} for a in rec["actions"]]
    assert plain[3] == {"seat": 1, "move": "play 5D"}
    assert plain[2] == {"seat": 0, "move": "play 4C", "claim": 20}
    assert plain[4] == {"seat": 0, "move": "muggins", "claim": 20}
    assert [a["kind"] for a in rec["actions"][2:5]] == ["play", "play", "muggins"]
    again = cm(replay(json.loads(json.dumps(rec))))
    assert snapshot(again) == snapshot(st)


# ------------------------------------------------------------------------------------ views ----
CARD = re.compile(r"\b[A2-9TJQK][CDHS]\b")


def test_views_hold_no_secret() -> None:
    st = card_state(C1_HANDS, C1_STOCK)
    play(st, "KH", "5H")
    v0 = st.view(0)
    assert v0["my_hand"] == sorted(v0["my_hand"], key=lambda t: parse_card(t).index)
    assert set(v0["my_hand"]) == {"5D", "9C", "8C", "7C", "9D"}
    assert v0["hand_sizes"] == [5, 5] and v0["stock"] == 52 - 12 and v0["total"] == 15
    assert v0["pile"] == ["KH", "5H"] and v0["legal"] == ["play 5D", "play 9C", "play 8C", "play 7C",
                                                           "play 9D", "muggins"]
    assert v0["window"] == {"scorer": 1, "claimed": 15, "reason": "play", "scorer_may_claim": False}
    b_cards = {c.text for c in st.hands[1]}
    assert not b_cards & set(CARD.findall(json.dumps(v0.to_json())))
    assert not b_cards & set(CARD.findall(json.dumps(st.events_for(0))))
    spectator = json.dumps([st.view(None).to_json(), st.events_for(None)])
    assert set(CARD.findall(spectator)) <= {"KH", "5H", *LOW_CUT, "KS"}
    assert "my_hand" not in st.view(None)


def test_secret_events() -> None:
    st = card_state(C1_HANDS, C1_STOCK)
    play(st, "KH")
    draw = next(e for e in st.log if e.kind == "draw")
    assert draw.to_dict(0)["card"] == "9D" and "card" not in draw.to_dict(1)
    dealt = [e for e in st.log if e.kind == "dealt"]
    assert dealt[1].to_dict(1)["cards"] == C1_HANDS[1] and "cards" not in dealt[1].to_dict(0)
    assert dealt[1].to_dict(0)["count"] == 5


# ---------------------------------------------------------------------------- sample_hidden ----
def test_sample_hidden_keeps_what_the_seat_knows() -> None:
    st = card_state(C5_HANDS, C5_STOCK)
    play(st, "4C", "KC", "5C", "TC", "go")
    for k in range(20):
        s = st.sample_hidden(0, random.Random(k))
        assert s.view(0) == st.view(0)
        assert [len(h) for h in s.hands] == [len(h) for h in st.hands] and len(s.stock) == len(st.stock)
        everything = [c for h in s.hands for c in h] + s.stock + s.pile + [c for p in s.piles for c in p]
        assert len(set(everything)) == len(everything) == 52
        assert s.hands[0] == st.hands[0]
        # P2 said go at 29: the five cards he held then are all worth 3 or more
        assert sum(c.value >= 3 for c in s.hands[1]) >= 5


def test_sample_hidden_go_constraint_on_aces() -> None:
    st = card_state(C1_HANDS, C1_STOCK)
    play(st, "KH", "5H", "5D", "QS", "go")  # A said go at 30: he held no ace then
    aces_with_a = 0
    for k in range(40):
        s = st.sample_hidden(1, random.Random(k))
        held = [c for c in s.hands[0] if c.rank == 1]
        assert len(held) <= 1  # only the card drawn on the go may be an ace
        aces_with_a += len(held)
        assert s.view(1) == st.view(1)
    assert aces_with_a < 40


def test_sampled_state_plays_on() -> None:
    st = cm(SPEC.new(SPEC.rules(), 3, seed=4))
    rng = random.Random(2)
    for _ in range(40):
        seat = st.turn
        st.apply(seat, rng.choice(st.legal_actions(seat)))
    s = st.sample_hidden(1, random.Random(9))
    for _ in range(200):
        if s.is_over():
            break
        seat = s.turn
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    assert snapshot(st) != snapshot(s) or st.is_over()


def test_clone_is_independent() -> None:
    st = card_state(C1_HANDS, C1_STOCK)
    c = st.clone()
    play(c, "KH", "5H")
    assert st.total == 0 and len(st.history) == 0 and st.side_scores() == [0, 0]
    assert c.total == 15 and c.side_scores() == [10, 15]
