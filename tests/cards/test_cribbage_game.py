"""The cribbage game around the play: presets and players, the cut and the deal, the discards, the show
(examples H1-H20 of RULES.md §7.3 through the engine), the end of the game and skunks, the muggins rule
(ACC Rule 10), records, views and notation."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from muggins.cards.cribbage import CribbageRules, CribbageState, stacked
from muggins.cards.cribbage.game import COUNT_CRIB, COUNT_HAND
from muggins.cards.cribbage.show import score_show
from muggins.cards.deck import parse_cards
from muggins.core import Action, Chance, ClaimError, GameOver, IllegalAction, NotYourTurn, RulesError, get_game
from muggins.core.records import replay, to_record
from tests.cards.test_cribbage_play import dealt_game, pegged, rules_of, run, snapshot, spare_cards

pytestmark = pytest.mark.usefixtures("pure_engine")  # tests of the pure engine, the reference

SPEC = get_game("cribbage")


def new(rules: Any, n: int, seed: int | None = None, chance: Chance | None = None) -> CribbageState:
    st = SPEC.new(rules, n, seed=seed, chance=chance)
    assert isinstance(st, CribbageState)
    return st


def play_out(st: CribbageState) -> None:
    """Finish the play with the first legal move each time (claiming the truth in manual mode)."""
    while st.phase == "play":
        seat = st.turn
        a = st.legal_actions(seat)[0]
        if st.rules.claims == "manual":
            a = a.with_claim(st.claim_for(seat, a))
        st.apply(seat, a)


def crib_game(pone_crib: str, dealer_crib: str, starter: str, **options: Any) -> CribbageState:
    """Two hands (seat 1 deals) whose discards are named: the crib is ``pone_crib`` + ``dealer_crib``."""
    rules = rules_of("cribbage", **options)
    away = [pone_crib.split(), dealer_crib.split()]
    named = {t for a in away for t in a} | {starter}
    spare = spare_cards(named, 8)
    st = stacked(rules, [spare[:4] + away[0], spare[4:] + away[1]], starter, dealer=1)
    st.apply(0, st.parse_action("discard " + pone_crib, 0))
    st.apply(1, st.parse_action("discard " + dealer_crib, 1))
    return st


def events(st: CribbageState, kind: str) -> list[dict[str, Any]]:
    return [e.to_dict() for e in st.log if e.kind == kind]


# ------------------------------------------------------------------------------ presets, players ----

def test_presets_and_player_counts() -> None:
    assert set(SPEC.presets) == {"cribbage", "cribbage-61", "three-hand", "four-hand", "five-card",
                                 "cribbage-muggins"}
    assert (SPEC.min_players, SPEC.max_players) == (2, 4)
    assert SPEC.rules("cribbage-61").target == 61
    assert SPEC.rules("four-hand").first_dealer_by == "high"
    assert SPEC.rules("five-card").hand_size == 3
    for preset, n in [("cribbage", 2), ("three-hand", 3), ("four-hand", 4), ("five-card", 2)]:
        st = new(SPEC.rules(preset), n, seed=1)
        assert [len(h) for h in st.hands] == [SPEC.rules(preset).cards_each] * n
    with pytest.raises(RulesError, match="three-hand"):
        new(SPEC.rules("cribbage"), 3, seed=1)
    with pytest.raises(RulesError):
        new(SPEC.rules("three-hand"), 2, seed=1)
    with pytest.raises(RulesError, match="two-player"):
        SPEC.rules("five-card", {"players": 3})
    assert SPEC.rules("cribbage", {"players": "3"}).players == 3
    with pytest.raises(RulesError):
        SPEC.rules("cribbage", {"skunk_margin": 0})


def test_skunk_levels_judge_the_winner_at_the_target() -> None:
    r121 = CribbageRules()
    assert [r121.skunk_level(x) for x in (91, 90, 61, 60, 0)] == [0, 1, 1, 2, 2]
    r61 = SPEC.rules("cribbage-61")
    assert [r61.skunk_level(x) for x in (31, 30, 1, 0)] == [0, 1, 1, 2]
    assert [r121.game_points(k) for k in range(3)] == [2, 3, 3]  # ACC Rule 12
    casual = SPEC.rules("cribbage", {"skunk_values": "casual-4"})
    assert [casual.game_points(k) for k in range(3)] == [1, 2, 4]


# ------------------------------------------------------------------------------ cut and deal ----

def test_the_lower_cut_deals_and_ties_cut_again() -> None:
    outcomes = [{"kind": "cut", "seats": [0, 1], "cards": ["5C", "5D"]},
                {"kind": "cut", "seats": [0, 1], "cards": ["9C", "3D"]}]
    st = new(SPEC.rules("cribbage"), 2, chance=Chance(outcomes=outcomes, seed=3))
    assert st.dealer == 1
    assert len(events(st, "cut")) == 2


def test_the_higher_cut_deals_in_four_hand() -> None:
    outcomes = [{"kind": "cut", "seats": [0, 1, 2, 3], "cards": ["5C", "KD", "KH", "2S"]},
                {"kind": "cut", "seats": [1, 2], "cards": ["4C", "TD"]}]
    st = new(SPEC.rules("four-hand"), 4, chance=Chance(outcomes=outcomes, seed=3))
    assert st.dealer == 2
    assert st.side_of(0) == st.side_of(2) != st.side_of(1) == st.side_of(3)


def test_random_first_dealers_follow_the_cut() -> None:
    for seed in range(20):
        st = new(SPEC.rules("cribbage"), 2, seed=seed)
        last = events(st, "cut")[-1]
        ranks = [parse_cards(c)[0].rank for c in last["cards"]]
        assert last["seats"][ranks.index(min(ranks))] == st.dealer


def test_discards_are_simultaneous_and_then_the_starter_is_cut() -> None:
    st = new(SPEC.rules("cribbage"), 2, seed=5)
    assert st.waiting_for() == {0, 1} and st.phase == "discard" and st.starter is None
    one = st.legal_actions(1)[3]
    assert len(st.legal_actions(1)) == 15  # six cards choose two
    st.apply(1, one)
    assert st.waiting_for() == {0}
    with pytest.raises(NotYourTurn):
        st.apply(1, st.legal_actions(0)[0])
    st.apply(0, st.legal_actions(0)[0])
    assert st.phase == "play" and st.starter is not None
    assert st.turn == (st.dealer + 1) % 2
    cut = events(st, "starter")[0]
    assert 4 <= cut["cut"] <= len(st.pack) - 4 and st.pack[cut["cut"]] is st.starter
    assert len(st.crib) == 4 and all(len(k) == 4 for k in st.kept)


def test_a_discard_names_the_right_number_of_held_cards() -> None:
    st = stacked(rules_of(), [["AC", "2C", "3C", "4C", "5C", "6C"], ["AD", "2D", "3D", "4D", "5D", "6D"]], "KS")
    before = snapshot(st)
    for text, why in [("discard AC", "exactly 2"), ("discard AC AD", "does not hold"),
                      ("discard AC AC", "once")]:
        with pytest.raises(IllegalAction, match=why):
            st.apply(0, st.parse_action(text, 0))
    assert snapshot(st) == before
    st.apply(0, st.parse_action("discard 2C AC", 0))  # any order
    assert st.discards[0] == parse_cards("AC 2C")


def test_the_deal_alternates() -> None:
    st = dealt_game(["4H 4D 7C 9S", "7D JS 5C 8H"])
    play_out(st)
    run(st, "count hand", "count hand", "count crib")
    assert st.hand_no == 2 and st.dealer == 0 and st.phase == "discard"
    assert events(st, "deal")[-1]["dealer"] == 0


# ------------------------------------------------------------------------------------ the show ----

@pytest.mark.parametrize(("name", "hand", "starter", "total"), [
    ("H1", "5H 5D 5C JS", "5S", 29),
    ("H3", "4H 5D 6C 6S", "QD", 14),
    ("H5", "3H 3D 3C 3S", "9D", 24),
    ("H6", "2H 4H 6H 8H", "KS", 4),
    ("H9", "JH 2C 4D 6S", "KH", 1),
    ("H11", "TS 6H 2D AC", "KD", 0),
    ("H12", "AH 2D 3C 4S", "5H", 7),
    ("H13", "4H 4D 5C 6S", "6D", 24),
    ("H15", "5D TD JD QD", "KD", 18),
    ("H20", "4C 5C 6C JC", "5D", 20),
])
def test_hand_counts_through_the_show(name: str, hand: str, starter: str, total: int) -> None:
    st = dealt_game([hand, " ".join(spare_cards(set(hand.split()) | {starter}, 8)[4:8])], starter=starter)
    play_out(st)
    assert st.phase == "show" and st.turn == 0  # the pone counts first
    assert st.claim_for(0, COUNT_HAND) == total
    before = st.side_scores()[0]
    run(st, "count hand")
    shown = events(st, "show")[-1]
    assert shown["cards"] == sorted(hand.split(), key=lambda t: parse_cards(t)[0].index)
    assert shown["points"] == total
    assert st.side_scores()[0] - before == total
    explained = events(st, "explain")[-1]
    assert explained["total"] == total and explained["explain"]


@pytest.mark.parametrize(("name", "starter", "total"), [("H7", "KS", 0), ("H8", "KH", 5)])
def test_crib_flush_needs_five_cards(name: str, starter: str, total: int) -> None:
    st = crib_game("2H 4H", "6H 8H", starter)
    play_out(st)
    run(st, "count hand", "count hand")
    assert st.turn == 1 and st.legal_actions(1) == [COUNT_CRIB]
    assert st.claim_for(1, COUNT_CRIB) == total
    run(st, "count crib")
    assert events(st, "show")[-1]["cards"] == ["2H", "4H", "6H", "8H"]
    assert events(st, "show")[-1]["points"] == total


def test_h10_jack_starter_is_his_heels_not_nobs() -> None:
    st = dealt_game(["JH 2C 4D 6S", "KC KD QC QD"], starter="JD")
    assert events(st, "score")[0] == {"kind": "score", "seat": 1, "side": 1, "points": 2, "reason": "his heels"}
    play_out(st)
    assert st.claim_for(0, COUNT_HAND) == 2  # a pair of jacks, no nobs


def test_show_order_for_three_hands_ends_with_the_crib() -> None:
    st = dealt_game(["KC 5C 6C 7C", "QD 2D 9D TD", "8H 9H TH QH"], preset="three-hand")
    play_out(st)
    assert [s for s, _ in st._show_order] == [0, 1, 2, 2]
    counts = [st.turn]
    run(st, "count hand")
    counts.append(st.turn)
    run(st, "count hand")
    counts.append(st.turn)
    run(st, "count hand")
    assert st.legal_actions(2) == [COUNT_CRIB] and counts == [0, 1, 2]
    with pytest.raises(IllegalAction):
        st.apply(2, COUNT_HAND)
    run(st, "count crib")
    assert st.hand_no == 2 and st.dealer == 0


def test_five_card_hands_count_three_cards() -> None:
    st = dealt_game(["5H 5D 5C", "KD QC JD"], preset="five-card", starter="5S")
    play_out(st)
    assert st.claim_for(0, COUNT_HAND) == score_show(parse_cards("5H 5D 5C"), parse_cards("5S")[0]) == 20


# ------------------------------------------------------------------------ the end of the game ----

def test_target_reached_mid_play_ends_the_game_at_once() -> None:
    st = dealt_game(["4H 4S 9C 9D", "4D 3C TC TD"], target=2, skunk_margin=1, double_skunk_margin=2)
    run(st, "4H", "4D")  # the dealer's pair reaches 2
    assert st.is_over() and st.winners() == {1}
    end = events(st, "game_end")[-1]
    assert end["winners"] == [1] and end["scores"] == [0, 2]
    assert end["losers"] == [{"side": 0, "score": 0, "result": "double skunk", "game_points": 3}]
    assert st.view(0)["result"]["losers"][0]["result"] == "double skunk"
    assert st.legal_actions(0) == [] and st.to_act() == set()
    with pytest.raises(GameOver):
        st.apply(0, st.parse_action("4S", 0))


def test_target_reached_mid_show_stops_before_the_dealer_counts() -> None:
    hand = "4H 4D 7C 9S"
    count = score_show(parse_cards(hand), parse_cards("2S")[0])
    st = dealt_game([hand, "7D JS 5C 8H"], target=6 + count)
    run(st, "4H", "7D", "4D", "JS", "go", "5C", "7C", "8H", "9S")
    assert pegged(st) == [6, 3] and not st.is_over()
    run(st, "count hand")
    assert st.is_over() and st.winners() == {0}
    assert [e["seat"] for e in events(st, "show")] == [0]  # neither the dealer's hand nor the crib
    assert events(st, "game_end")[-1]["losers"][0]["result"] == "win"


def test_skunk_reported_in_a_finished_game() -> None:
    st = dealt_game(["4H 4S 9C 9D", "4D 3C TC TD"], target=2, skunk_margin=2, double_skunk_margin=3)
    run(st, "4H", "4D")
    assert events(st, "game_end")[-1]["losers"][0]["result"] == "skunk"


def test_random_games_report_skunks_consistently() -> None:
    for seed in range(6):
        st = new(SPEC.rules("cribbage-61"), 2, seed=seed)
        moves = 0
        while not st.is_over():
            seat = min(st.waiting_for())
            st.apply(seat, st.legal_actions(seat)[seed % 3 if st.phase == "discard" else 0])
            moves += 1
        end = events(st, "game_end")[-1]
        w = end["winner_side"]
        assert st.side_scores()[w] >= 61
        for lost in end["losers"]:
            assert lost["result"] == ("win", "skunk", "double skunk")[st.rules.skunk_level(lost["score"])]


# ------------------------------------------------------------------------------ the muggins rule ----

def manual(**options: Any) -> CribbageState:
    """P2's deal in manual claim mode: pone 4, dealer 4 makes a pair (2)."""
    return dealt_game(["4H 4S 9C 9D", "4D 3C TC TD"], claims="manual", **options)


def test_under_claim_is_stolen_by_the_caller() -> None:
    st = manual()
    st.apply(0, st.parse_action("4H", 0).with_claim(0))
    st.apply(1, st.parse_action("4D", 1))  # says nothing about the pair
    assert st.muggable(0) == 2 and st.muggable(1) == 0
    assert Action("muggins") in st.legal_actions(0)
    st.apply(0, Action("muggins"))
    assert st.side_scores() == [2, 0]
    assert events(st, "muggins")[-1]["outcome"] == "steal"


@pytest.mark.parametrize(("named", "gain", "left"), [(None, 2, 0), (5, 2, 0), (1, 1, 1)])
def test_caller_gets_the_lesser_of_named_and_true_shortfall(named: int | None, gain: int, left: int) -> None:
    st = manual()
    run(st, "4H")
    st.apply(1, st.parse_action("4D", 1).with_claim(0))
    st.apply(0, Action("muggins", claim=named))
    assert st.side_scores() == [gain, 0]
    missed = [e["points"] for e in events(st, "missed")]
    assert missed == ([left] if left else [])


def test_a_partial_claim_keeps_what_was_announced() -> None:
    st = dealt_game(["5H 6C 5S 9S", "KD 5D TC TD"], claims="manual")
    run(st, "5H", "KD", "6C", "5D")
    st.apply(0, st.parse_action("5S", 0).with_claim(2))  # 31 with a pair is 4
    assert st.side_scores() == [2, 2] and st.muggable(1) == 2
    st.apply(1, Action("muggins", claim=2))
    assert st.side_scores() == [2, 4]


def test_forfeit_and_steal_and_deduct() -> None:
    st = manual(muggins="forfeit")
    run(st, "4H")
    st.apply(1, st.parse_action("4D", 1))
    st.apply(0, Action("muggins"))
    assert st.side_scores() == [0, 0] and events(st, "muggins")[-1]["outcome"] == "forfeit"
    st = manual(muggins="steal_and_deduct")
    run(st, "4H")
    st.apply(1, st.parse_action("4D", 1).with_claim(1))
    st.apply(0, Action("muggins"))
    assert st.side_scores() == [1, 0]  # the dealer keeps 1, loses the missed 1; the pone takes it


def test_over_claim_is_void_and_optionally_scored_by_the_opponent() -> None:
    st = manual()
    run(st, "4H")
    st.apply(1, st.parse_action("4D", 1).with_claim(3))
    assert st.side_scores() == [0, 0] and st.muggable(0) == 2
    assert events(st, "over_claim")[-1]["points"] == 3
    st = manual(over_claim="opponent_scores")
    run(st, "4H")
    st.apply(1, st.parse_action("4D", 1).with_claim(3))
    assert st.side_scores() == [3, 0]


@pytest.mark.parametrize(("penalty", "scores"), [("none", [0, 2]), ("deduct", [-10, 2]), ("award", [0, 5])])
def test_false_calls(penalty: str, scores: list[int]) -> None:
    st = manual(false_call_penalty=penalty)
    run(st, "4H", "4D")  # claimed in full
    st.apply(0, Action("muggins", claim=3))
    assert events(st, "muggins")[-1]["outcome"] == "false_call"
    assert st.side_scores() == scores


def test_the_window_closes_at_the_next_move() -> None:
    st = manual()
    run(st, "4H")
    st.apply(1, st.parse_action("4D", 1))
    run(st, "4S")  # the pone plays on instead of calling (and claims his pair royal)
    assert events(st, "missed")[-1] == {"kind": "missed", "seat": 1, "side": 1, "points": 2, "reason": "play"}
    st.apply(1, Action("muggins"))  # the dealer may call on the pone's play, which was claimed in full
    assert events(st, "muggins")[-1]["outcome"] == "false_call"
    with pytest.raises(ClaimError):
        st.apply(0, Action("muggins"))  # the first caller settled the window


def test_no_calls_on_your_own_side_or_without_a_window() -> None:
    st = dealt_game(["5C AC 2C 3C", "5D KD QD JD", "5H 9H 8H 7H", "5S 4S 6S KS"], preset="four-hand",
                    claims="manual")
    run(st, "5C")
    st.apply(1, st.parse_action("5D", 1))
    before = snapshot(st)
    with pytest.raises(ClaimError, match="own side"):
        st.apply(3, Action("muggins"))
    assert snapshot(st) == before
    st.apply(2, Action("muggins"))  # seat 0's partner may call on seat 1
    assert st.side_scores() == [2, 0]
    with pytest.raises(ClaimError):
        st.apply(0, Action("muggins"))


def test_show_window_lasts_until_the_next_count() -> None:
    st = dealt_game(["5H 5D 5C JS", "KC KD QC QD"], starter="5S", claims="manual")
    play_out(st)
    st.apply(0, COUNT_HAND.with_claim(20))  # 29 is true
    assert st.muggable(1) == 9
    assert not events(st, "explain")  # the truth waits for the window to close
    v = st.view(1)
    assert v["window"]["reason"] == "hand" and "total" not in v["shows"][0]
    st.apply(1, Action("muggins", claim=9))
    assert st.side_scores()[1] - pegged(st)[1] == 9
    assert events(st, "explain")[-1]["total"] == 29
    assert st.view(1)["shows"][0]["total"] == 29
    truth = st.claim_for(1, COUNT_HAND)
    st.apply(1, COUNT_HAND.with_claim(truth))
    with pytest.raises(NotYourTurn):
        st.apply(0, COUNT_CRIB)


def test_pone_may_mug_the_dealer_before_the_crib_is_counted() -> None:
    st = dealt_game(["KC KD QC QD", "5H 5D 5C JS"], starter="5S", claims="manual")
    play_out(st)
    run(st, "count hand")
    st.apply(1, COUNT_HAND.with_claim(28))
    st.apply(0, Action("muggins"))
    assert events(st, "muggins")[-1]["points"] == 1
    crib_truth = st.claim_for(1, COUNT_CRIB)
    assert crib_truth == score_show(st.crib, st.starter, True)
    st.apply(1, COUNT_CRIB)  # says nothing about the crib
    assert st.muggable(0) == crib_truth
    assert st.phase == "discard" and st.hand_no == 2  # the crib's window outlives its hand
    assert st.view(0)["previous_hand"]["shows"][-1]["what"] == "crib"


def test_lenient_timing_allows_a_late_claim() -> None:
    st = manual(claim_timing="lenient")
    run(st, "4H")
    st.apply(1, st.parse_action("4D", 1))
    assert "claim" in {a.kind for a in st.legal_actions(1)}
    st.apply(1, Action("claim", claim=2))
    assert st.side_scores() == [0, 2] and st.muggable(0) == 0
    with pytest.raises(ClaimError):
        st.apply(1, Action("claim", claim=1))


def test_claim_for_names_the_true_points() -> None:
    st = manual()
    assert st.claim_for(0, st.parse_action("4H", 0)) == 0
    run(st, "4H")
    assert st.claim_for(1, st.parse_action("4D", 1)) == 2
    assert st.claim_for(0, st.parse_action("4S", 0)) == 0  # not his turn
    assert st.claim_for(1, st.parse_action("QS", 1)) == 0  # not held


# ------------------------------------------------------------------------- records and views ----

def test_record_replays_to_the_same_state() -> None:
    st = manual(false_call_penalty="deduct")
    run(st, "4H")
    st.apply(1, st.parse_action("4D", 1))
    st.apply(0, Action("muggins", claim=1))
    play_out(st)
    run(st, "count hand", "count hand", "count crib")
    rec = json.loads(json.dumps(to_record(st)))
    again = replay(rec)
    assert [e.to_dict() for e in again.log] == [e.to_dict() for e in st.log]
    assert again.view(0) == st.view(0) and again.side_scores() == st.side_scores()


def test_views_hide_other_hands_and_the_crib() -> None:
    st = new(SPEC.rules("cribbage"), 2, seed=11)
    v0, v1, spectator = st.view(0), st.view(1), st.view(None)
    assert v0["my_hand"] == [c.text for c in st.hands[0]]
    assert "my_hand" not in spectator and "legal" not in spectator
    assert not set(v0["my_hand"]) & set(json.dumps(v1.to_json()).replace('"', " ").split())
    st.apply(0, st.legal_actions(0)[0])
    st.apply(1, st.legal_actions(1)[0])
    v0 = st.view(0)
    assert st.starter is not None
    assert v0["crib"] is None and v0["crib_size"] == 4 and v0["starter"] == st.starter.text
    assert v0["my_discards"] == [c.text for c in st.discards[0]]
    assert not {c.text for c in st.discards[1]} & set(json.dumps(v0.to_json()).replace('"', " ").split())
    assert all(e.get("cards") is None for e in st.events_for(0) if e["kind"] == "discard" and e["seat"] == 1)


def _claims(preset: str) -> list[str]:
    return ["auto", "manual"] if SPEC.rules(preset).claims == "auto" else ["manual"]


@pytest.mark.parametrize(("preset", "claims", "n"), [
    (p, c, n) for p in SPEC.presets for c in _claims(p) for n in SPEC.players_for(SPEC.rules(p))])
def test_the_crib_is_turned_up_for_every_seat_when_it_is_to_be_counted(preset: str, claims: str, n: int) -> None:
    """At the show the crib is turned up before the dealer counts it: every seat's view (and a
    spectator's) holds it at "count crib"; before that moment nobody's does."""
    rules = SPEC.rules(preset, {"claims": claims})
    for seed in range(3):
        st = new(rules, n, seed=seed)
        crib_turns = 0
        while not st.is_over() and crib_turns < 2:
            at_crib = st.phase == "show" and st.legal_actions(st.turn) == [COUNT_CRIB]
            views = [st.view(s) for s in (*range(n), None)]
            if at_crib:
                crib_turns += 1
                truth = sorted(c.text for c in st.crib)
                assert all(v["crib"] is not None and sorted(v["crib"]) == truth for v in views)
                assert len(truth) == views[0]["crib_size"] == 4
                # the sampler keeps the turned-up crib: every world drawn for a seat holds the same crib
                for seat in range(n):
                    world = st.sample_hidden(seat, random.Random(seed))
                    assert sorted(c.text for c in world.crib) == truth
            else:
                assert all(v["crib"] is None for v in views)
                if st.hand_no == 1:  # later hands show the last hand's cards, drawn from another deal
                    secret = {c.text for c in st.crib} - {c.text for d in st.discards for c in d}
                    for seat, v in enumerate(views[:n]):
                        others = {c.text for s, d in enumerate(st.discards) if s != seat for c in d}
                        words = set(json.dumps(v.to_json()).replace('"', " ").split())
                        assert not (others | secret) & words - set(v.get("my_hand") or ()) \
                            - {x["card"] for p in [v["pile"], *v["series"]] for x in p}
            seat = min(st.waiting_for())
            a = st.legal_actions(seat)[0]
            if a.kind in ("muggins", "claim"):
                a = next(x for x in st.legal_actions(seat) if x.kind not in ("muggins", "claim"))
            if claims == "manual" and a.kind in ("play", "go", "count"):
                a = a.with_claim(st.claim_for(seat, a))
            st.apply(seat, a)
        assert crib_turns >= 1


def test_notation_round_trips() -> None:
    st = dealt_game(["4H 4D 7C 9S", "7D JS 5C 8H"])
    for a in st.legal_actions(0):
        assert st.parse_action(st.format_action(a), 0) == a
    assert st.parse_action("4h", 0) == st.parse_action("play 4H", 0)
    assert st.parse_action("muggins 3", 0) == Action("muggins", claim=3)
    for bad in ("", "play", "play 4H 2", "discard", "count nothing", "go 1", "fly"):
        with pytest.raises(IllegalAction):
            st.parse_action(bad, 0)
    assert st.format_action(COUNT_CRIB) == "count crib"


def test_three_for_last_can_end_a_tiny_game_before_the_first_discard() -> None:
    st = new(SPEC.rules("five-card", {"target": 3}), 2, seed=1)
    pone = (st.dealer + 1) % 2
    assert st.is_over() and st.winners() == {pone} and st.phase == "over"
    assert st.legal_actions(pone) == [] and st.waiting_for() == set()
