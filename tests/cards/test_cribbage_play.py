"""The cribbage play (pegging): examples P1-P10 of RULES.md §7.4 through the engine, his heels, the go
rules for two, three and four hands, five-card cribbage, and refused moves.

Positions are dealt with ``stacked``: seat 1 deals and seat 0 (the pone) leads unless a test says
otherwise. Each helper move is made by the seat whose turn it is.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from muggins.cards.cribbage import CribbageState, stacked
from muggins.cards.cribbage.game import GO, play_action
from muggins.cards.cribbage.pegging import peg_items, peg_parts, peg_points
from muggins.cards.deck import full_deck, parse_card
from muggins.core import Action, ClaimError, IllegalAction, NotYourTurn, get_game

RANK = {r: i + 1 for i, r in enumerate("A23456789TJQK")}


def rules_of(preset: str = "cribbage", **options: Any) -> Any:
    spec = get_game("cribbage")
    return spec.rules(preset, options) if options else spec.rules(preset)


def spare_cards(named: set[str], k: int) -> list[str]:
    """``k`` cards nobody named (kings and queens first), to fill the discards."""
    out = [c.text for c in reversed(full_deck()) if c.text not in named and c.rank != 11]
    return out[:k]


def dealt_game(keeps: list[str], starter: str = "2S", dealer: int | None = None, preset: str = "cribbage",
               **options: Any) -> CribbageState:
    """A game whose seats keep ``keeps`` (space-separated cards, by seat) after discarding spare cards;
    the discards are made, so the play is about to start. The last seat deals unless ``dealer`` says."""
    rules = rules_of(preset, **options)
    n = rules.players
    kept = [k.split() for k in keeps]
    assert len(kept) == n
    named = {t for k in kept for t in k} | {starter}
    per = rules.discard_each
    spare = spare_cards(named, per * n + rules.crib_dealt)
    hands = [kept[s] + spare[s * per:(s + 1) * per] for s in range(n)]
    crib = spare[n * per:]
    st = stacked(rules, hands, starter, dealer=n - 1 if dealer is None else dealer, crib=crib)
    for s in range(n):
        st.apply(s, st.parse_action("discard " + " ".join(spare[s * per:(s + 1) * per]), s))
    return st


def run(st: CribbageState, *moves: str, claim: bool = True) -> list[int]:
    """Make ``moves`` in turn ("4H", "go", "count hand"), each by the seat whose turn it is, claiming the
    true points in manual mode. Returns the points of each move."""
    out = []
    for m in moves:
        seat = st.turn
        a = st.parse_action(m, seat)
        pts = st.claim_for(seat, a)
        if claim and st.rules.claims == "manual":
            a = a.with_claim(pts)
        st.apply(seat, a)
        out.append(pts)
    return out


def pegged(st: CribbageState) -> list[int]:
    """Points each side pegged in the play ("play" and "go" score events)."""
    total = [0] * st.num_sides
    for e in st.log:
        if e.kind == "score" and e.data["reason"] in ("play", "go"):
            total[e.data["side"]] += e.data["points"]
    return total


def snapshot(st: CribbageState) -> str:
    """Everything observable about a state, to check that a refused move changed nothing."""
    views = [st.view(s).to_json() for s in [None, *range(st.num_players)]]
    return json.dumps([views, [e.to_dict() for e in st.log], [st.action_to_json(s, a) for s, a in st.history],
                       st.side_scores(), sorted(st.to_act())], sort_keys=True)


# --------------------------------------------------------------------------------- P1-P10 (§7.4) ----

def test_p1_go_and_last_card() -> None:
    st = dealt_game(["4H 4D 7C 9S", "7D JS 5C 8H"])
    assert run(st, "4H", "7D", "4D", "JS") == [0, 0, 2, 0]
    assert st.count == 25
    assert [st.format_action(a) for a in st.legal_actions(0)] == ["go"]  # 7 and 9 both pass 31
    assert run(st, "go") == [0]
    assert st.turn == 1  # Bob plays on alone
    assert run(st, "5C") == [1]  # 30, and Alice still cannot play: one for the go with the card
    assert st.count == 0 and st.turn == 0  # the count resets and Alice leads
    assert run(st, "7C", "8H", "9S") == [0, 2, 4]  # 15 for 2; run 7-8-9 for 3 and 1 for last
    assert st.phase == "show"
    assert pegged(st) == [6, 3]
    last = [e.data for e in st.log if e.kind == "play"][-1]
    assert last["items"] == [["run of 3", 3], ["last card", 1]]


def test_p2_pair_royal() -> None:
    st = dealt_game(["4H 4S 9C 9D", "4D 3C TC TD"])
    assert run(st, "4H", "4D", "4S", "3C") == [0, 2, 6, 2]
    assert st.count == 15


def test_p3_run_in_any_order() -> None:
    st = dealt_game(["7H 6C AD 9S", "9D 8C TC TD"])
    assert run(st, "7H", "9D", "6C", "8C") == [0, 0, 0, 4]
    assert st.count == 30 and st.turn == 0  # the ace still fits, so no go point yet


def test_p4_pair_plus_31() -> None:
    st = dealt_game(["5H 6C 5S 9S", "KD 5D TC TD"])
    assert run(st, "5H", "KD", "6C", "5D", "5S") == [0, 2, 0, 0, 4]  # pair 2 + 31 for 2, no go on top
    assert st.count == 0  # 31 ends the series


def test_p5_only_the_tail_forms_the_run() -> None:
    st = dealt_game(["3H 3C 9S 9D", "4D 5C TC TD"])
    assert run(st, "3H", "4D", "3C", "5C") == [0, 0, 0, 5]  # 4-3-5 run 3 and fifteen 2; 3-4-3-5 no run of 4


def test_p6_growing_run() -> None:
    st = dealt_game(["2H 3C 6S 9D", "4D 5C TC TD"])
    assert run(st, "2H", "4D", "3C", "5C", "6S") == [0, 0, 3, 4, 5]
    assert st.count == 20


def test_p7_double_pair_royal() -> None:
    st = dealt_game(["2H 2C 7S 9D", "2D 2S TC TD"], starter="9H")
    assert run(st, "2H", "2D", "2C", "2S", "7S") == [0, 2, 6, 12, 2]


def test_p8_fifteen_plus_run() -> None:
    st = dealt_game(["4H 5C 9S 9D", "6D 8C TC TD"])
    assert run(st, "4H", "6D", "5C") == [0, 0, 5]


def test_p9_face_cards_in_runs() -> None:
    st = dealt_game(["9H JC 8S 8D", "TD 2C 7C 7D"])
    assert run(st, "9H", "TD", "JC") == [0, 0, 3]  # J counts 10 for the total, rank 11 for the run
    assert st.count == 29 and st.turn == 1  # the dealer's 2 still fits


def test_p10_no_carry_over_after_a_reset() -> None:
    st = dealt_game(["TH 9C 8S 7D", "KD 9D 8C 6C"])
    assert run(st, "TH", "KD", "9C") == [0, 0, 0]
    assert st.count == 29
    assert run(st, "go") == [0]  # the dealer cannot play
    assert st.turn == 0 and st.legal_actions(0) == [GO]  # the pone laid the last card and cannot follow
    assert run(st, "go") == [1]  # ... so his go takes the point
    assert st.count == 0 and st.turn == 1
    assert run(st, "9D") == [0]  # no pair with the 9 of the closed series


# ------------------------------------------------------------------------------ pegging tables ----

def test_peg_parts_tail_rules() -> None:
    def pts(text: str) -> int:
        ranks = [RANK[t] for t in text.split()]
        return peg_points(ranks, sum(min(r, 10) for r in ranks))

    assert pts("Q K A") == 0  # the ace is low: no run
    assert pts("A 2 3") == 3 + 0
    assert pts("5 6 5 6") == 0  # 22: alternating ranks are neither pairs nor runs
    assert pts("3 4 5 3") == 2 + 3  # 15, and the tail 4-5-3 is a run
    assert peg_parts([3, 4, 5, 3], 15) == (2, 0, 3)
    assert peg_parts([7, 7, 7], 21) == (0, 6, 0)
    assert peg_items([5, 10], 15) == [["fifteen", 2]]
    assert peg_items([6, 6, 9, 10], 31, 0) == [["thirty-one", 2]]


# ---------------------------------------------------------------------------------- his heels ----

def test_his_heels_scores_two_for_the_dealer_at_the_cut() -> None:
    st = dealt_game(["4H 4D 7C 9S", "7D 5S 5C 8H"], starter="JD")
    heels = [e.data for e in st.log if e.kind == "score"]
    assert heels == [{"side": 1, "points": 2, "reason": "his heels"}]
    assert st.side_scores() == [0, 2]
    assert st.view(0)["starter"] == "JD"


def test_his_heels_is_not_muggable_by_default() -> None:
    st = dealt_game(["4H 4D 7C 9S", "7D 5S 5C 8H"], starter="JD", claims="manual")
    assert st.side_scores() == [0, 2]  # scored automatically even in manual mode
    assert st.view(0)["window"] is None and st.muggable(0) == 0
    with pytest.raises(ClaimError):
        st.apply(0, Action("muggins"))


def test_his_heels_can_be_mugged_by_option() -> None:
    st = dealt_game(["4H 4D 7C 9S", "7D 5S 5C 8H"], starter="JD", claims="manual", mug_his_heels=True)
    assert st.side_scores() == [0, 0]
    assert st.muggable(0) == 2
    assert "claim" in {a.kind for a in st.legal_actions(1)}
    st.apply(0, Action("muggins"))
    assert st.side_scores() == [2, 0]


def test_his_heels_claimed_in_time_by_the_dealer() -> None:
    st = dealt_game(["4H 4D 7C 9S", "7D 5S 5C 8H"], starter="JD", claims="manual", mug_his_heels=True)
    st.apply(1, Action("claim", claim=2))
    assert st.side_scores() == [0, 2] and st.muggable(0) == 0


def test_his_heels_lost_once_the_pone_leads() -> None:
    st = dealt_game(["4H 4D 7C 9S", "7D 5S 5C 8H"], starter="JD", claims="manual", mug_his_heels=True)
    run(st, "4H")
    assert st.side_scores() == [0, 0]
    assert any(e.kind == "missed" and e.data["reason"] == "his heels" for e in st.log)
    with pytest.raises(ClaimError):
        st.apply(1, Action("claim", claim=2))


# ------------------------------------------------------------------------------ the go rules ----

def test_a_go_is_refused_while_a_card_fits() -> None:
    st = dealt_game(["4H 4D 7C 9S", "7D JS 5C 8H"])
    before = snapshot(st)
    with pytest.raises(IllegalAction, match="must play"):
        st.apply(0, GO)
    assert snapshot(st) == before


def test_last_card_player_takes_the_point_with_his_own_go() -> None:
    st = dealt_game(["KH QH 5C 7C", "TD 8D 9C TC"])
    run(st, "KH", "TD", "5C")  # 25
    assert run(st, "go") == [0]  # dealer holds 8, 9, 10
    assert st.turn == 0 and st.legal_actions(0) == [GO]  # the pone's 7 passes 31 too
    assert st.claim_for(0, GO) == 1
    run(st, "go")
    assert pegged(st) == [1, 0]
    assert st.turn == 1  # the dealer did not play last: he leads


def test_a_player_without_cards_is_skipped_and_last_card_scores() -> None:
    st = dealt_game(["AH 2H 3H 4H", "KD QD JC TC"])
    # pone: A, dealer K (11), 2 (13), Q (23), 3 (26), dealer cannot (J, 10) → go, 4 (30) → one for the go
    assert run(st, "AH", "KD", "2H", "QD", "3H", "go", "4H") == [0, 0, 0, 0, 0, 0, 1]
    assert st.turn == 1  # the pone has no cards: the dealer plays the rest alone
    assert run(st, "JC", "TC") == [0, 1]  # 20 with the last card of all: one for last
    assert st.phase == "show"


def test_three_hand_go_passes_round_and_the_point_goes_to_the_last_card() -> None:
    st = dealt_game(["KC 5C 6C 7C", "QD 2D 9D TD", "8H 9H TH QH"], preset="three-hand")
    assert st.dealer == 2 and st.turn == 0
    run(st, "KC", "QD", "8H")  # 28
    assert run(st, "go") == [0]  # seat 0 holds 5, 6, 7
    assert st.turn == 1  # the next player must continue if able
    run(st, "2D")  # 30
    assert st.turn == 2
    run(st, "go")
    assert st.turn == 1 and st.legal_actions(1) == [GO]  # seat 0 already said go: skipped
    assert run(st, "go") == [1]
    assert pegged(st) == [0, 1, 0]
    assert st.count == 0 and st.turn == 2  # first seat after the last card's player


def test_three_hand_crib_has_a_dealt_card_and_one_discard_each() -> None:
    st = dealt_game(["KC 5C 6C 7C", "QD 2D 9D TD", "8H 9H TH QH"], preset="three-hand")
    assert len(st.crib) == 4 and len(st.pack) == 52 - 15 - 1
    assert [len(h) for h in st.hands] == [4, 4, 4]


def test_four_hand_partners_share_a_score_and_play_in_turn() -> None:
    st = dealt_game(["5C AC 2C 3C", "5D KD QD JD", "5H 9H 8H 7H", "5S 4S 6S KS"], preset="four-hand")
    assert st.dealer == 3 and st.turn == 0
    assert run(st, "5C", "5D", "5H", "5S") == [0, 2, 6 + 2, 12]  # the third five also makes 15
    assert pegged(st) == [8, 14]
    assert st.scores() == [8, 14, 8, 14]
    run(st, "AC")  # 21
    assert st.turn == 1
    assert run(st, "KD") == [2]  # 31
    assert pegged(st) == [8, 16]
    assert st.count == 0 and st.turn == 2


def test_four_hand_go_rule_skips_gone_partners() -> None:
    st = dealt_game(["KC QC 2C 3C", "KD QD JD TD", "KH 9H 8H 7H", "KS 4S 6S 9S"], preset="four-hand")
    run(st, "KC", "KD", "KH")  # 30 with a pair royal for seat 2's side
    assert pegged(st) == [6, 2]
    # seat 3 holds nothing of 1: go; seat 0 holds 2 and 3: go; seat 1: go; seat 2 laid the last card
    assert run(st, "go", "go", "go") == [0, 0, 0]
    assert st.turn == 2 and st.legal_actions(2) == [GO]
    assert run(st, "go") == [1]
    assert st.turn == 3


def test_five_card_play_stops_at_the_first_go() -> None:
    st = dealt_game(["KH 9C 8C", "QD 6D 7D"], preset="five-card")
    assert st.side_scores() == [3, 0]  # the pone's three for last at the start
    run(st, "KH", "QD", "9C")  # 29
    run(st, "go")
    assert run(st, "go") == [1]
    assert st.phase == "show"
    assert st.hands[0] and st.hands[1]  # the cards left are not played


def test_five_card_three_for_last_only_at_the_start_of_the_game() -> None:
    st = dealt_game(["KH 9C 8C", "QD 6D 7D"], preset="five-card")
    starts = [e for e in st.log if e.kind == "score" and e.data["reason"] == "three for last"]
    assert len(starts) == 1 and starts[0].seat == 0
    run(st, "KH", "QD", "9C", "go", "go", "count hand", "count hand", "count crib")
    assert st.hand_no == 2 and st.dealer == 0
    starts = [e for e in st.log if e.kind == "score" and e.data["reason"] == "three for last"]
    assert len(starts) == 1


# ---------------------------------------------------------------------------- refused moves ----

@pytest.mark.parametrize(("seat", "move", "error"), [
    (0, "play 5C", IllegalAction),    # not held
    (1, "play 7D", NotYourTurn),      # the pone leads
    (0, "count hand", IllegalAction),
    (0, "discard 4H 4D", IllegalAction),
    (5, "play 4H", NotYourTurn),
])
def test_illegal_moves_are_refused_and_change_nothing(seat: int, move: str, error: type[Exception]) -> None:
    st = dealt_game(["4H 4D 7C 9S", "7D JS 5C 8H"])
    before = snapshot(st)
    with pytest.raises(error):
        st.apply(seat, st.parse_action(move, seat))
    assert snapshot(st) == before


def test_a_card_past_31_is_refused() -> None:
    st = dealt_game(["KH QH 5C 7C", "TD 8D 9C TC"])
    run(st, "KH", "TD", "5C")
    before = snapshot(st)
    with pytest.raises(IllegalAction, match="past 31"):
        st.apply(1, play_action(parse_card("8D")))
    assert snapshot(st) == before


def test_claims_in_auto_mode_are_refused() -> None:
    st = dealt_game(["4H 4D 7C 9S", "7D JS 5C 8H"])
    before = snapshot(st)
    with pytest.raises(ClaimError):
        st.apply(0, play_action(parse_card("4H")).with_claim(0))
    assert snapshot(st) == before


def test_malformed_actions_are_refused() -> None:
    st = dealt_game(["4H 4D 7C 9S", "7D JS 5C 8H"])
    before = snapshot(st)
    for bad in (Action("play", "4H"), Action("play", parse_card("4H"), target=1), Action("go", 3),
                Action("fly")):
        with pytest.raises(IllegalAction):
            st.apply(0, bad)
    assert snapshot(st) == before
