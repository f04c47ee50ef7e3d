"""Every worked domino example of RULES.md §7.1-§7.2 (D1-D35), played through the engine.

Positions are dealt exactly with ``domino_state``; each play names the tile and the layout tile it
touches. Where an example starts from a score (58, 195 …) the target is moved instead, which is the same
arithmetic: the side is as far below the target as in the example.
"""

from __future__ import annotations

import random

import pytest

from muggins.core import Action, ClaimError, GameOver, IllegalAction, get_game
from muggins.core.chance import Chance
from muggins.core.records import to_record
from muggins.dominoes import DominoState, full_set
from muggins.dominoes.scoring import round_nearest, score_table
from tests.helpers import count_of, domino_state, events_of, moves, play, scores_logged

DOUBLE_SIX = [f"{a}-{b}" for a in range(7) for b in range(a + 1)]


def _last_hand_end(st: DominoState) -> dict[str, object]:
    ends = events_of(st, "hand_end")
    assert ends, "the hand has not ended"
    return ends[-1]


def _scores_since_hand_end(st: DominoState) -> list[tuple[int, int, str]]:
    """Score events logged at the end of the last finished hand (after its hand_end event)."""
    idx = max(i for i, e in enumerate(st.log) if e.kind == "hand_end")
    out = []
    for e in st.log[idx + 1:]:
        if e.kind == "hand_start":
            break
        if e.kind == "score":
            out.append((e.data["side"], e.data["points"], e.data["reason"]))
    return out


# --------------------------------------------------------------------------------- 7.1 play scoring ----


@pytest.mark.parametrize("tile", DOUBLE_SIX)
def test_d1_scoring_leads(tile: str) -> None:
    """A lead scores its own count: 6-4 and 5-5 make 10; 5-0, 4-1, 3-2 make 5; any other lead nothing."""
    expected = {"6-4": 10, "5-5": 10, "5-0": 5, "4-1": 5, "3-2": 5}.get(tile, 0)
    spare = "6-6" if tile != "6-6" else "0-0"
    other = [t for t in ("1-0", "2-0", "3-0") if t != tile][:2]
    st = domino_state("muggins", hands=[[tile, spare], other])
    before = len(st.log)
    assert play(st, tile) == [expected]
    a, b = (int(x) for x in tile.split("-"))
    assert count_of(st) == a + b
    assert scores_logged(st, before) == ([(0, expected, "play")] if expected else [])
    assert st.side_scores() == [expected, 0]


def test_d2_britannica_line() -> None:
    """Line 2|4: 4|3 on the 4 makes ends 2 and 3 (5 pts); 4|4 crosswise instead makes 2 + 8 = 10."""
    st = domino_state("muggins", hands=[["4-2", "0-0"], ["4-3", "4-4"]])
    assert play(st, "4-2") == [0]
    assert count_of(st) == 6
    seat = st.turn
    assert st.claim_for(seat, st.parse_action("4-3 on 4-2")) == 5
    assert st.claim_for(seat, st.parse_action("4-4 on 4-2")) == 10
    alt = st.clone()
    assert play(st, "4-3 on 4-2") == [5]
    assert count_of(st) == 5
    assert play(alt, "4-4 on 4-2") == [10]
    assert count_of(alt) == 10
    assert st.side_scores() == [0, 5] and alt.side_scores() == [0, 10]


def test_d3_fosters_sequence() -> None:
    """5-5 lead 10; 5-0 on a side 10; 0-0 on the blank 10; 5-6 on the free side 0 (count 6); 0-4 10."""
    st = domino_state("muggins", hands=[["5-5", "0-0", "0-4", "1-1"], ["5-0", "5-6", "2-2", "3-3"]])
    counts = []
    steps = [("5-5", 10), ("5-0 on 5-5", 10), ("0-0 on 5-0", 10), ("5-6 on 5-5", 0), ("0-4 on 0-0", 10)]
    for m, pts in steps:
        assert play(st, m) == [pts], m
        counts.append(count_of(st))
    assert counts == [10, 10, 10, 6, 10]
    assert st.side_scores() == [30, 10]
    assert sorted(e["value"] for e in st.open_ends()) == [4, 6]


def test_d4_largest_line_score() -> None:
    """Ends 6-6 crosswise (12) and 4-4 crosswise (8) make 20, the largest scoring line count."""
    st = domino_state("muggins", hands=[["6-4", "4-4", "0-0"], ["6-6", "1-1", "2-2"]])
    assert play(st, "6-4", "6-6 on 6-4", "4-4 on 6-4") == [10, 0, 20]
    assert count_of(st) == 20


def test_d5_covered_crosswise_double_stops_counting() -> None:
    """Line 3|5; 5-5 on the 5 gives 3 + 10 = 13; 5-1 past it gives 3 + 1 = 4."""
    st = domino_state("muggins", hands=[["5-3", "5-1", "0-0"], ["5-5", "2-2", "6-6"]])
    assert play(st, "5-3", "5-5 on 5-3") == [0, 0]
    assert count_of(st) == 13
    assert play(st, "5-1 on 5-5") == [0]
    assert count_of(st) == 4


def test_d6_spa_line() -> None:
    """6|2, 2|3, 3|4 make ends 6 and 4 (10 pts); 6|1 on the 6 then makes 1 + 4 = 5."""
    st = domino_state("muggins", hands=[["6-2", "3-4", "0-0"], ["2-3", "6-1", "5-5"]])
    assert play(st, "6-2", "2-3 on 6-2", "3-4 on 3-2") == [0, 0, 10]
    assert play(st, "6-1 on 6-2") == [5]
    assert count_of(st) == 5


@pytest.mark.parametrize(("model", "expected", "counts"), [
    ("pagat", [0, 15, 5, 10], [12, 15, 5, 10]),        # D7 (BOLT's example, Model P)
    ("sniff_ends", [0, 15, 0, 0], [12, 15, 17, 16]),   # D8 (the same plays, Model S)
])
def test_d7_d8_spinner_led(model: str, expected: list[int], counts: list[int]) -> None:
    """Lead 6-6 spinner, 6-3 and 6-2 on its sides, 6-5 on its end: who scores depends on the model."""
    st = domino_state("all-fives", hands=[["6-6", "6-2", "1-1"], ["6-3", "6-5", "2-2"]], spinner_count=model)
    got = []
    for m in ["6-6", "6-3 on 6-6", "6-2 on 6-6", "6-5 on 6-6 end"]:
        got += play(st, m)
        assert count_of(st) == counts[len(got) - 1]
    assert got == expected


def test_d7_blank_on_the_end_instead() -> None:
    """D7 step 4 with 6-0 on the north end instead of 6-5: 3 + 2 + 0 = 5 pts."""
    st = domino_state("all-fives", hands=[["6-6", "6-2", "1-1"], ["6-3", "6-0", "2-2"]])
    assert play(st, "6-6", "6-3 on 6-6", "6-2 on 6-6", "6-0 on 6-6 end") == [0, 15, 5, 5]


@pytest.mark.parametrize(("preset", "model", "pts"), [("sniff", "sniff_ends", 15), ("sniff", "pagat", 0)])
def test_d9_pagat_sniff(preset: str, model: str, pts: int) -> None:
    """Lead 4-4 (8); 6-4 on a side (14); 1-4 on the other side: Model S 15, Model P 7 (no score)."""
    st = domino_state(preset, hands=[["4-4", "4-1", "0-0"], ["4-6", "2-2", "3-3"]], spinner_count=model)
    assert play(st, "4-4", "4-6 on 4-4") == [0, 0]
    assert count_of(st) == 14
    assert play(st, "4-1 on 4-4") == [pts]
    assert count_of(st) == (15 if model == "sniff_ends" else 7)


D10_PLAYS = ["5-5", "5-0 on 5-5", "5-3 on 5-5", "0-2 on 5-0", "5-4 on 5-5 end", "2-2 on 2-0", "2-5 on 2-2",
             "3-3 on 5-3"]


@pytest.mark.parametrize(("model", "counts"), [
    ("sniff_ends", [10, 10, 13, 15, 14, 16, 17, 20]),
    ("pagat", [10, 10, 3, 5, 9, 11, 12, 15]),
])
def test_d10_s3_sequence(model: str, counts: list[int]) -> None:
    """S3's sequence reproduces its stated counts 10, 10, 13, 15, 20 only under Model S."""
    st = domino_state("muggins-spinner", hands=[["5-5", "5-3", "5-4", "5-2", "1-1"],
                                                ["5-0", "2-0", "2-2", "3-3", "6-6"]], spinner_count=model)
    got = []
    for m in D10_PLAYS:
        pts = play(st, m)[0]
        got.append(count_of(st))
        assert pts == (got[-1] if got[-1] % 5 == 0 else 0), m
    assert got == counts
    # the 2-2 is covered on both sides and counts nothing
    assert not any(e["on"] == "2-2" for e in st.open_ends())


def test_d11_spinner_that_is_not_the_lead() -> None:
    """3|2 (5 pts); 2-2 on the 2 becomes the spinner (7); 2-5 (8); 2-6 on an end (14); 2-1 on the other
    end (15)."""
    st = domino_state("all-fives", hands=[["3-2", "2-5", "2-1", "0-0"], ["2-2", "2-6", "4-4", "3-3"]])
    assert play(st, "3-2") == [5]
    assert play(st, "2-2 on 3-2") == [0]
    assert count_of(st) == 7
    assert [e["spinner"] for e in st.layout()] == [False, True]
    assert play(st, "2-5 on 2-2") == [0]
    assert count_of(st) == 8
    assert play(st, "2-6 on 2-2 end") == [0]
    assert count_of(st) == 14
    assert play(st, "2-1 on 2-2 end") == [15]
    assert len(st.open_ends()) == 4


def test_d12_only_the_first_double_spins() -> None:
    """With 5-5 the spinner, a later 3-3 is an ordinary crosswise double: 1 + 6 = 7; only its far side
    opens."""
    st = domino_state("all-fives", hands=[["5-5", "5-1", "6-3", "4-4"], ["5-3", "3-3", "6-6", "1-1"]])
    assert play(st, "5-5", "5-3 on 5-5", "5-1 on 5-5") == [10, 0, 0]
    assert count_of(st) == 4
    assert play(st, "3-3 on 5-3") == [0]
    assert count_of(st) == 7
    assert [e["spinner"] for e in st.layout()] == [True, False, False, False]
    three = [e for e in st.open_ends() if e["on"] == "3-3"]
    assert [e["part"] for e in three] == ["side"]
    assert "3-6 on 3-3" in moves(st)
    assert not any(m.startswith("3-6 on 3-3 end") for m in moves(st))
    with pytest.raises(IllegalAction):
        st.apply(st.turn, st.parse_action("3-6 on 3-3 end"))


D13 = [("6-4", [6, 4], 10, 2), ("4-4 on 6-4", None, 14, 0), ("4-1 on 4-4", None, 7, 0),
       ("4-3 on 4-4 end", None, 10, 2), ("6-6 on 6-4", None, 16, 0), ("6-2 on 6-6", None, 6, 0),
       ("3-2 on 4-3", None, 5, 1), ("6-0 on 6-6 end", None, 5, 1)]


def test_d13_five_up() -> None:
    """Every double spins and one point per five: 2, 0, 0, 2, 0, 0, 1, 1; six ends open at the end."""
    st = domino_state("five-up", hands=[["6-4", "4-1", "6-6", "3-2", "0-0"],
                                        ["4-4", "4-3", "6-2", "6-0", "1-1"]])
    for m, _, count, pts in D13:
        assert play(st, m) == [pts], m
        assert count_of(st) == count, m
    assert st.side_scores() == [3, 3]
    assert all(e["spinner"] for e in st.layout() if e["double"])
    ends = sorted((e["on"], e["part"], e["value"]) for e in st.open_ends())
    assert ends == sorted([("4-4", "end", 4), ("4-1", "half", 1), ("6-6", "end", 6), ("6-2", "half", 2),
                           ("3-2", "half", 2), ("6-0", "half", 0)])


def test_d14_fives_and_threes_eb11() -> None:
    """6|5 (11: 0); 6|1 on the 6 (6: 2); 1|5 on the 1 (10: 2); 5-5 crosswise on a 5 (15: 8)."""
    st = domino_state("fives-and-threes", hands=[["6-5", "1-5", "0-0"], ["6-1", "5-5", "2-2"]])
    assert play(st, "6-5", "6-1 on 6-5", "1-5 on 6-1", "5-5 on 5-1") == [0, 2, 2, 8]
    assert count_of(st) == 15
    assert st.side_scores() == [2, 10]


def test_d15_fives_and_threes_through_a_double() -> None:
    """Lead 3|6 (9: 3 pts); 6-6 crosswise on the 6 (3 + 12 = 15: 8 pts)."""
    st = domino_state("fives-and-threes", hands=[["6-3", "0-0"], ["6-6", "1-1"]])
    assert play(st, "6-3", "6-6 on 6-3") == [3, 8]


def test_d16_fives_and_threes_table() -> None:
    """Count → points: 3→1, 5→1, 6→2, 9→3, 10→2, 12→4, 15→8, 18→6, 20→4, 22→0."""
    table = score_table("fives_and_threes")
    expected = {3: 1, 5: 1, 6: 2, 9: 3, 10: 2, 12: 4, 15: 8, 18: 6, 20: 4, 22: 0, 0: 0, 1: 0, 7: 0}
    assert {c: table[c] for c in expected} == expected


def test_d16_twenty_two_scores_nothing() -> None:
    """6-6 at one end and 5-5 at the other: count 22, no score."""
    st = domino_state("fives-and-threes", hands=[["6-5", "5-5", "0-0"], ["6-6", "1-1", "2-2"]])
    assert play(st, "6-5", "6-6 on 6-5", "5-5 on 6-5") == [0, 0, 0]
    assert count_of(st) == 22


def test_d16_no_count_of_21_on_a_double_six_line() -> None:
    """A two-ended double-six line never shows 21 (nor more than 22), whatever is played."""
    rng = random.Random(16)
    spec = get_game("dominoes")
    for game in range(60):
        st = spec.new(spec.rules("fives-and-threes", {"claims": "auto"}), 2 + game % 3, seed=game)
        hand = st.hand_no
        while not st.is_over() and st.hand_no == hand:
            acts = st.legal_actions(st.turn)
            st.apply(st.turn, rng.choice(acts))
            assert count_of(st) != 21 and count_of(st) <= 22


@pytest.mark.parametrize(("score_fn", "pts"), [("threes_count", [6, 9]), ("threes_per3", [2, 3])])
def test_d17_all_threes(score_fn: str, pts: list[int]) -> None:
    """Lead 4|2 (6) and 2|5 on the 2 (4 + 5 = 9): 6 and 9 points, or 2 and 3 one per three."""
    st = domino_state("all-threes", hands=[["4-2", "0-0"], ["2-5", "1-1"]], score_fn=score_fn)
    assert play(st, "4-2", "2-5 on 4-2") == pts


def test_d18_odd_primes() -> None:
    """Lead 3|4 → 7 → 1; 4-4 on the 4 → 11 → 1; counts 14 → 2, 15 → 8, 22 → 2, 10 → 2, 4 → 0."""
    st = domino_state("odd-primes", hands=[["4-3", "0-0"], ["4-4", "1-1"]])
    assert play(st, "4-3", "4-4 on 4-3") == [1, 1]
    assert count_of(st) == 11
    table = score_table("odd_primes")
    assert [table[c] for c in (7, 11, 14, 15, 22, 10, 4)] == [1, 1, 2, 8, 2, 2, 0]


def test_d19_muggins_double_nine() -> None:
    """Lead 9|6 (15); 9-9 on the 9 (24: 0); 6-6 on the 6 (30); 9|1 past the 9-9 (13: 0)."""
    st = domino_state("muggins", hands=[["9-6", "6-6", "0-0"], ["9-9", "9-1", "1-1"]], tile_set=9)
    assert play(st, "9-6", "9-9 on 9-6", "6-6 on 9-6", "9-1 on 9-9") == [15, 0, 30, 0]
    assert count_of(st) == 13


@pytest.mark.parametrize(("model", "pts"), [("pagat", [0, 0, 0, 15, 20]), ("sniff_ends", [0, 0, 25, 0, 20])])
def test_d20_double_nine_all_fives(model: str, pts: list[int]) -> None:
    """8-8 spinner, 8-7 and 8-2 on its sides, 8-6 north, 8-5 south: P scores 15 then 20, S 25 then 20."""
    st = domino_state("all-fives", hands=[["8-8", "8-2", "8-5", "0-0"], ["8-7", "8-6", "1-1", "2-2"]],
                      tile_set=9, spinner_count=model)
    assert play(st, "8-8", "8-7 on 8-8", "8-2 on 8-8", "8-6 on 8-8 end", "8-5 on 8-8 end") == pts
    assert count_of(st) == 20


def test_d21_seven_toed_pete_extra_plays() -> None:
    """5-5 lead (10: 2) and 5-0 (10: 2) each earn another play; 5-4 (4, not a double) ends the turn."""
    hands = [["5-5", "5-0", "5-4", "1-1", "2-2", "3-3", "6-6"],
             ["6-0", "6-1", "6-2", "6-3", "6-4", "6-5", "1-0"],
             ["2-0", "2-1", "3-0", "3-1", "3-2", "4-0", "4-1"],
             ["4-2", "4-3", "4-4", "5-1", "5-2", "5-3", "0-0"]]
    st = domino_state("seven-toed-pete", hands=hands)
    assert play(st, "5-5") == [2]
    assert st.turn == 0
    assert play(st, "5-0 on 5-5") == [2]
    assert st.turn == 0
    assert play(st, "5-4 on 5-5") == [0]
    assert count_of(st) == 4
    assert st.turn == 1
    assert st.side_scores() == [4, 0, 0, 0]


# ----------------------------------------------------------------------------- 7.2 end of the hand ----


@pytest.mark.parametrize(("pips", "rounded"), [(27, 25), (28, 30), (2, 0), (3, 5), (12, 10), (13, 15), (7, 5),
                                               (8, 10)])
def test_d22_rounding_to_nearest_five(pips: int, rounded: int) -> None:
    assert round_nearest(pips, 5) == rounded


def test_d22_rounding_table_of_section_1_9() -> None:
    """The §1.9 table and its formula 5·⌊(p+2)/5⌋; thirds are 3·⌊(p+1)/3⌋."""
    table = {0: 0, 1: 0, 2: 0, 3: 5, 4: 5, 5: 5, 6: 5, 7: 5, 8: 10, 9: 10, 10: 10, 11: 10, 12: 10, 13: 15,
             17: 15, 18: 20, 22: 20, 23: 25, 27: 25, 28: 30}
    assert {p: round_nearest(p, 5) for p in table} == table
    assert all(round_nearest(p, 5) == 5 * ((p + 2) // 5) for p in range(200))
    assert all(round_nearest(p, 3) == 3 * ((p + 1) // 3) for p in range(200))


@pytest.mark.parametrize(("opponent", "bonus"), [
    (["3-2", "2-2"], 10),   # 9
    (["6-2", "2-2"], 10),   # 12
    (["5-4", "2-2"], 15),   # 13
    (["6-6", "5-5"], 20),   # 22
    (["6-6", "6-5"], 25),   # 23
])
def test_d22_rounded_bonus_through_the_engine(opponent: list[str], bonus: int) -> None:
    """Going out against a hand scores its pips rounded to the nearest five."""
    st = domino_state("muggins", hands=[["1-0", "1-1"], opponent], boneyard=[])
    assert play(st, "1-0", "pass", "1-1 on 1-0") == [0, 0, 0]
    assert _last_hand_end(st)["reason"] == "domino"
    assert _scores_since_hand_end(st) == [(0, bonus, "domino")]


@pytest.mark.parametrize(("options", "play_pts", "bonus"), [
    ({}, [0, 5, 0], 20),                                       # count-scoring games: 21 → 20
    ({"out_bonus": "raw"}, [0, 5, 0], 21),                     # PUZ / S2
    ({"out_bonus": "per5", "score_fn": "fives_per5"}, [0, 1, 0], 4),  # one per five
])
def test_d23_two_player_out_bonus(options: dict[str, str], play_pts: list[int], bonus: int) -> None:
    """A dominoes; B holds 6|5, 4|4, 2|0 = 21 pips."""
    st = domino_state("muggins", hands=[["1-1", "1-3", "3-3"], ["6-5", "4-4", "2-0"]], boneyard=[], **options)
    got = play(st, "1-1")
    assert moves(st) == ["pass"]
    got += play(st, "pass", "1-3 on 1-1", "pass", "3-3 on 3-1")
    assert [g for g in got] == [play_pts[0], 0, play_pts[1], 0, play_pts[2]]
    end = _last_hand_end(st)
    assert end["reason"] == "domino" and end["pips"] == [0, 21]
    assert _scores_since_hand_end(st) == [(0, bonus, "domino")]
    assert st.side_scores() == [sum(play_pts) + bonus, 0]


def test_d23_five_up_preset_bonus() -> None:
    """The Five Up preset divides the rounded bonus by five: 21 → 20 → 4."""
    st = domino_state("five-up", hands=[["1-1", "1-3", "3-3"], ["6-5", "4-4", "2-0"]], boneyard=[])
    play(st, "1-1", "pass", "1-3 on 1-1", "pass", "3-3 on 3-1")
    assert _scores_since_hand_end(st) == [(0, 4, "domino")]


@pytest.mark.parametrize(("b", "c", "out_bonus", "bonus"), [
    ("5-2", "6-1", "per_opponent_round5", 10),   # 7 and 7: 5 + 5
    ("5-2", "6-1", "total_round5", 15),          # 14 → 15
    ("6-2", "5-4", "per_opponent_round5", 20),   # 8 and 9: 10 + 10
    ("6-2", "5-4", "total_round5", 15),          # 17 → 15
])
def test_d24_per_opponent_vs_total_rounding(b: str, c: str, out_bonus: str, bonus: int) -> None:
    st = domino_state("muggins", hands=[["3-3"], [b], [c]], boneyard=[], out_bonus=out_bonus)
    play(st, "3-3")
    assert _last_hand_end(st)["reason"] == "domino"
    assert _scores_since_hand_end(st) == [(0, bonus, "domino")]


D25_HANDS = [["0-0", "6-2"], ["6-6", "1-1"]]   # after the 0-0 lead: A 8 pips, B 14, nothing plays


def _blocked(preset: str, hands: list[list[str]], **options: object) -> DominoState:
    st = domino_state(preset, hands=hands, boneyard=[], **options)
    play(st, hands[0][0])
    for _ in range(len(hands)):
        assert moves(st) == ["pass"]
        play(st, "pass")
    assert _last_hand_end(st)["reason"] == "blocked"
    return st


@pytest.mark.parametrize(("options", "awards"), [
    ({"blocked": "lightest_takes_opponents"}, [(0, 15, "blocked")]),                 # B1
    ({}, [(0, 5, "blocked")]),                                                        # B2, per hand: 15 - 10
    ({"round_mode": "net"}, [(0, 5, "blocked")]),                                     # round5(6)
    ({"round_mode": "none"}, [(0, 6, "blocked")]),                                    # raw
    ({"blocked": "cascade"}, [(0, 6, "blocked")]),                                    # B3
    ({"blocked": "no_winner"}, []),                                                   # B4
    ({"blocked": "subtract_own"}, [(0, -10, "own pips"), (1, -15, "own pips")]),      # B5
])
def test_d25_blocked_two_players(options: dict[str, str], awards: list[tuple[int, int, str]]) -> None:
    """A 8 pips, B 14."""
    st = _blocked("muggins", D25_HANDS, **options)
    assert _last_hand_end(st)["pips"] == [8, 14]
    assert _scores_since_hand_end(st) == awards


def test_d25_blocked_one_per_five() -> None:
    """One-per-five games with B2: 5/5 → A +1."""
    st = _blocked("five-up", D25_HANDS)
    assert _scores_since_hand_end(st) == [(0, 1, "blocked")]


def test_d25_muggins_spinner_preset_blocked_scores_nothing() -> None:
    st = _blocked("muggins-spinner", D25_HANDS)
    assert _scores_since_hand_end(st) == []


D26_HANDS = [["0-0", "6-2"], ["5-5", "2-2"], ["6-6", "6-4"]]   # A 8, B 14, C 22


@pytest.mark.parametrize(("options", "totals"), [
    ({}, [25, 0, 0]),                                     # 15 + 20 - 10
    ({"round_mode": "net"}, [30, 0, 0]),                  # 36 - 8 = 28 → 30
    ({"round_mode": "none"}, [28, 0, 0]),                 # RARE-SG
    ({"blocked": "lightest_takes_opponents"}, [35, 0, 0]),
    ({"blocked": "cascade"}, [20, 8, 0]),                 # A 6 + 14, B 8
    ({"blocked": "no_winner"}, [0, 0, 0]),
])
def test_d26_blocked_three_players(options: dict[str, str], totals: list[int]) -> None:
    st = _blocked("muggins", D26_HANDS, **options)
    assert _last_hand_end(st)["pips"] == [8, 14, 22]
    got = [0, 0, 0]
    for side, pts, reason in _scores_since_hand_end(st):
        assert reason == "blocked"
        got[side] += pts
    assert got == totals
    assert st.side_scores() == totals


D27_HANDS = [["0-0", "5-4"], ["4-3", "1-1"], ["6-6", "2-1"]]   # A 9, B 9, C 15


def test_d27_tie_for_lightest_nobody_scores_and_lot_leads() -> None:
    st = _blocked("muggins", D27_HANDS)
    assert _last_hand_end(st)["pips"] == [9, 9, 15]
    assert _scores_since_hand_end(st) == []
    assert st.side_scores() == [0, 0, 0]
    idx = max(i for i, e in enumerate(st.log) if e.kind == "hand_end")
    assert [e.kind for e in st.log[idx + 1:]][:2] == ["lot", "hand_start"]


def test_d27_tie_options() -> None:
    """Option: each tied player scores the difference to the heavier hands (15 - 10 = 5), or they split it."""
    st = _blocked("muggins", D27_HANDS, blocked_tie="all_tied_score")
    assert _scores_since_hand_end(st) == [(0, 5, "blocked"), (1, 5, "blocked")]
    st = _blocked("muggins", D27_HANDS, blocked_tie="split")
    shares = _scores_since_hand_end(st)
    assert [s for s, _, _ in shares] == [0, 1]
    assert shares[0][1] == shares[1][1] and 4 <= 2 * shares[0][1] <= 5


@pytest.mark.parametrize(("round_mode", "bonus"), [("per_hand", 15), ("none", 14)])
def test_d28_partner_pips_deducted(round_mode: str, bonus: int) -> None:
    """Opponents hold 12 and 9 (10 + 10), A's partner 6: +14 unrounded, +15 with the 6 rounded to 5."""
    st = domino_state("muggins", hands=[["1-0"], ["6-6"], ["3-3"], ["5-4"]], boneyard=[],
                      partnerships=True, partner_pips_deducted=True, round_mode=round_mode)
    play(st, "1-0")
    assert _last_hand_end(st)["pips"] == [0, 12, 6, 9]
    assert sum(p for s, p, _ in _scores_since_hand_end(st) if s == 0) == bonus
    assert st.side_scores() == [bonus, 0]


def test_d28_without_deduction() -> None:
    st = domino_state("muggins", hands=[["1-0"], ["6-6"], ["3-3"], ["5-4"]], boneyard=[], partnerships=True)
    play(st, "1-0")
    assert st.side_scores() == [20, 0]


def test_d29_largest_hand_only() -> None:
    """The heaviest remaining hand holds 13 pips → 15 → 3 pts to the winner."""
    st = domino_state("muggins", hands=[["3-3", "5-3"], ["6-6", "1-0"], ["2-1", "1-1"]], boneyard=[],
                      out_bonus="largest_hand_per5")
    assert play(st, "3-3", "pass", "pass", "5-3 on 3-3") == [0, 0, 0, 0]
    assert _last_hand_end(st)["pips"] == [0, 13, 5]
    assert _scores_since_hand_end(st) == [(0, 3, "domino")]


# D30: Fives and Threes to exactly 61. A's score before the decisive play is as far below the target as
# in the example (58 → target 3 above, 59 → 2 above, 60 → 1 above).
D30_HANDS = [["6-3", "6-2", "3-1", "0-0"], ["3-2", "6-1", "5-5", "4-4"]]


def test_d30_overshoot_is_ignored_then_exact_target_wins() -> None:
    """At 58 a count of 12 (4) would make 62: ignored; later a count of 9 (3) makes exactly 61 and wins."""
    st = domino_state("fives-and-threes", hands=D30_HANDS, target=6)   # A at 3 = 6 - 3, like 58 of 61
    assert play(st, "6-3") == [3]
    assert play(st, "3-2 on 6-3") == [0]
    before = len(st.log)
    assert play(st, "2-6 on 3-2") == [4]          # ends 6 and 6: 12
    assert count_of(st) == 12
    assert st.side_scores() == [3, 0]
    assert scores_logged(st, before) == []
    assert [e["points"] for e in events_of(st, "void", before)] == [4]
    play(st, "6-1 on 6-3")
    assert not st.is_over()
    assert play(st, "1-3 on 6-1") == [3]          # ends 3 and 6: 9
    assert st.side_scores() == [6, 0]
    assert st.is_over() and st.winners() == frozenset({0})


def test_d30_chip_out_point_counts_with_the_play() -> None:
    """At 59 the last tile makes a count of 6: 2 + 1 for chipping out = 3 → 62: the whole 3 is ignored."""
    st = domino_state("fives-and-threes", hands=[["6-3", "6-4"], ["3-2", "5-5"]], target=5)   # A at 3 = 5 - 2
    assert play(st, "6-3", "3-2 on 6-3") == [3, 0]
    before = len(st.log)
    assert play(st, "6-4 on 6-3") == [2]       # ends 4 and 2: 6
    assert _last_hand_end(st)["reason"] == "domino"
    assert scores_logged(st, before) == []
    assert [e["points"] for e in events_of(st, "void", before)] == [3]
    assert st.side_scores() == [3, 0]
    assert not st.is_over()


def test_d30_chip_out_reaching_the_target_exactly() -> None:
    """The same last play one point further from the target: 2 + 1 = 3 lands exactly and wins."""
    st = domino_state("fives-and-threes", hands=[["6-3", "6-4"], ["3-2", "5-5"]], target=6)
    play(st, "6-3", "3-2 on 6-3", "6-4 on 6-3")
    assert st.side_scores() == [6, 0]
    assert st.is_over() and st.winners() == frozenset({0})
    assert sorted(r for s, _, r in scores_logged(st) if s == 0) == ["domino", "play", "play"]


def test_d30_no_win_on_the_down() -> None:
    """TEES: a team one short of the target cannot win by leading 2|1 (count 3, 1 pt)."""
    st = domino_state("fives-and-threes", hands=[["2-1", "0-0"], ["6-6", "5-5"]], target=1,
                      no_win_on_down=True)
    assert play(st, "2-1") == [1]
    assert st.side_scores() == [0, 0]
    assert not st.is_over()
    assert [e["points"] for e in events_of(st, "void")] == [1]
    plain = domino_state("fives-and-threes", hands=[["2-1", "0-0"], ["6-6", "5-5"]], target=1)
    play(plain, "2-1")
    assert plain.is_over() and plain.winners() == frozenset({0})


def test_d31_winning_mid_hand() -> None:
    """At 195 of 200 a count of 10 ends the game at once; tiles still in hands are not counted."""
    st = domino_state("muggins", hands=[["5-5", "3-0", "1-1"], ["5-3", "6-6", "2-2"]], target=15)
    assert play(st, "5-5", "5-3 on 5-5") == [10, 0]     # A at 10, five short (195 of 200)
    assert count_of(st) == 13
    assert not st.is_over()
    assert play(st, "3-0 on 5-3") == [10]              # 5-5 side (10) + 0
    assert st.is_over() and st.winners() == frozenset({0})
    assert st.side_scores() == [20, 0]
    assert events_of(st, "hand_end") == []
    assert [r for _, _, r in scores_logged(st)] == ["play", "play"]
    assert st.to_act() == frozenset() and st.legal_actions(1) == []
    with pytest.raises(GameOver):
        st.apply(1, st.parse_action("6-6"))


# D32: seats A = 0, C = 1 (next to act after A), B = 2. A lead 6-5, C 6-1, B 1-5 (10, claimed), then A lays
# 5-5 crosswise on a 5: ends 5-5 (10) and 5, count 15.
D32_HANDS = [["6-5", "5-5", "0-0"], ["6-1", "2-2", "3-3"], ["5-1", "4-4", "6-6"]]
A, C, B = 0, 1, 2


def _d32(claim: int | None, **options: object) -> DominoState:
    st = domino_state("muggins", hands=D32_HANDS, **options)
    assert play(st, "6-5", "6-1 on 6-5", "1-5 on 6-1") == [0, 0, 10]
    a = st.parse_action("5-5 on 6-5")
    assert st.claim_for(A, a) == 15
    st.apply(A, a.with_claim(claim))
    assert count_of(st) == 15
    return st


@pytest.mark.parametrize(("outcome", "scores"), [
    ("steal", [0, 0, 25]),              # B +15 (on top of his 10)
    ("forfeit", [0, 0, 10]),            # nobody scores the 15
    ("steal_and_deduct", [-15, 0, 25]),  # S1-G: B +15 and A -15
])
def test_d32_silent_scorer_is_mugged(outcome: str, scores: list[int]) -> None:
    st = _d32(None, muggins=outcome)
    assert st.side_scores() == [0, 0, 10]
    assert st.to_act() == frozenset({B, C})
    assert st.muggable(B) == 15 and st.muggable(C) == 15 and st.muggable(A) == 0
    st.apply(B, Action("muggins"))
    assert st.side_scores() == scores
    assert st.muggable(C) == 0
    assert sum(e.points for e in st.log if e.kind == "score" and e.data["side"] == B) == scores[B]


def test_d32_under_claim_keeps_what_was_announced() -> None:
    """A announces "ten": A +10 and B may mug the missing 5."""
    st = _d32(10)
    assert st.side_scores() == [10, 0, 10]
    assert st.muggable(B) == 5
    st.apply(B, Action("muggins"))
    assert st.side_scores() == [10, 0, 15]


@pytest.mark.parametrize(("over_claim", "scores"), [("void", [0, 0]), ("opponent_scores", [0, 10])])
def test_d32_over_claim(over_claim: str, scores: list[int]) -> None:
    """Ends 6 and 3 (count 9) and A announces "ten": the claim is void; FOSTER's option gives B the 10."""
    st = domino_state("muggins", hands=[["6-3", "0-0"], ["5-5", "1-1"]], over_claim=over_claim)
    st.apply(A, st.parse_action("6-3").with_claim(10))
    assert count_of(st) == 9
    assert st.side_scores() == scores
    assert [e["points"] for e in events_of(st, "over_claim")] == [10]
    assert st.muggable(1) == 0


def test_d32_late_call_is_refused() -> None:
    """B calls only after C has played: too late, nothing changes."""
    st = _d32(None)
    assert st.turn == C
    play(st, moves(st)[0])
    before = (to_record(st), st.view(B), st.side_scores())
    assert st.muggable(B) == 0
    with pytest.raises(ClaimError):
        st.apply(B, Action("muggins"))
    assert (to_record(st), st.view(B), st.side_scores()) == before
    assert st.side_scores()[A] == 0 and st.side_scores()[B] == 10


def _d33_state(first_draw: str) -> DominoState:
    """Double-nine, two players: B (seat 1) holds every 8 and 9 and leads 9-8; A holds none; three left."""
    tiles = [t.text for t in full_set(9)]
    high = [t for t in tiles if "8" in t or "9" in t]
    low = [t for t in tiles if t not in high]
    if first_draw in high:
        high.remove(first_draw)
        low_for_b = low[:8]
    else:
        low.remove(first_draw)
        low_for_b = low[:7]
    rest = [t for t in low if t not in low_for_b]
    hand_b = high + low_for_b
    hand_a = rest[:26]
    bone = [first_draw, *rest[26:]]
    assert len(hand_a) == len(hand_b) == 26 and len(bone) == 3
    hand_b.remove("9-8")
    hand_b.insert(0, "9-8")
    return domino_state("muggins", hands=[hand_a, hand_b], boneyard=bone, leader=1, tile_set=9,
                        boneyard_reserve=2)


def test_d33_boneyard_reserve_draw_one_then_pass() -> None:
    """Three tiles left and a reserve of two: A may draw only one; when it does not play, A passes."""
    st = _d33_state("7-0")
    play(st, "9-8")
    assert st.turn == A
    assert moves(st) == ["draw"]
    assert st.view(A)["drawable"] == 1
    play(st, "draw")
    assert "7-0" in st.view(A)["my_hand"]
    assert moves(st) == ["pass"]
    assert st.view(A)["boneyard"] == 2 and st.view(A)["drawable"] == 0
    play(st, "pass")
    assert st.turn == 1
    assert len(st.boneyard) == 2


def test_d33_reserve_drawn_tile_that_plays() -> None:
    st = _d33_state("9-0")
    play(st, "9-8", "draw")
    assert moves(st) == ["9-0 on 9-8"]
    play(st, "9-0 on 9-8")
    assert st.turn == 1 and len(st.boneyard) == 2


# D34: seats N 0, E 1, S 2, W 3; N-S partners. W leads 6-1: ends 6 and 1 (count 7), N cannot match.
D34_N = ["0-0", "2-0", "2-2", "3-0", "3-3"]
D34_W = ["6-1", "5-3", "5-4", "4-3", "2-1"]
D34_BONE = ["3-2", "6-0", "1-0", "1-1", "4-1", "5-1", "6-2", "6-6"]


def _d34(south: list[str], east: list[str]) -> DominoState:
    st = domino_state("muggins", hands=[D34_N, east, south, D34_W], boneyard=D34_BONE, leader=3,
                      partnerships=True, knocking=True)
    play(st, "6-1")
    assert st.turn == 0 and count_of(st) == 7
    assert sorted(moves(st)) == ["draw", "knock"]
    return st


def test_d34_knock_partner_must_score() -> None:
    """S holds 6-4: laid on the 6 it makes 4 + 1 = 5, so S must play it; E's turn is lost, W plays next."""
    st = _d34(["6-4", "4-4", "5-0", "5-2", "5-5"], ["6-5", "6-3", "3-1", "4-0", "4-2"])
    play(st, "knock")
    assert st.turn == 2
    assert moves(st) == ["6-4 on 6-1"]
    assert play(st, "6-4 on 6-1") == [5]
    assert st.side_scores() == [5, 0]
    assert st.turn == 3
    assert len(st.hands[1]) == 5


def test_d34_partner_knocks_too_and_knocker_draws() -> None:
    """S holds only 1|3 (no score): S knocks too; N draws until he can play; then E, S, W in order."""
    st = _d34(["3-1", "4-4", "5-0", "5-2", "5-5"], ["6-5", "6-3", "6-4", "4-0", "4-2"])
    play(st, "knock")
    assert st.turn == 2
    assert moves(st) == ["knock"]
    play(st, "knock")
    assert st.turn == 0
    assert moves(st) == ["draw"]
    play(st, "draw")
    assert moves(st) == ["draw"]            # 3-2 does not play: he keeps drawing
    play(st, "draw")
    assert moves(st) == ["6-0 on 6-1"]
    play(st, "6-0 on 6-1")
    order = []
    for _ in range(3):
        order.append(st.turn)
        play(st, moves(st)[0])
    assert order == [1, 2, 3]


@pytest.mark.parametrize(("options", "bonus"), [
    ({"score_fn": "threes_per3", "round_mode": "net"}, 4),   # S1-G: (14 - 3) = 11 → 12 → ÷3
])
def test_d35_all_threes_blocked_bonus_s1g(options: dict[str, str], bonus: int) -> None:
    """Opponent 14 pips, lightest 3: 14 - 3 = 11 → 12 → ÷3 → 4 pts."""
    st = _blocked("all-threes", [["0-0", "2-1"], ["6-6", "1-1"]], **options)
    assert _last_hand_end(st)["pips"] == [3, 14]
    assert _scores_since_hand_end(st) == [(0, bonus, "blocked")]


def test_d35_all_threes_out_bonus_dgt3() -> None:
    """DGT3: each opponent rounded to the nearest three: 14 → 15."""
    st = domino_state("all-threes", hands=[["0-0", "2-0"], ["6-6", "1-1"]], boneyard=[])
    assert play(st, "0-0", "pass", "2-0 on 0-0") == [0, 0, 0]
    assert _last_hand_end(st)["pips"] == [0, 14]
    assert _scores_since_hand_end(st) == [(0, 15, "domino")]


def test_d35_rounding_to_threes() -> None:
    assert [round_nearest(p, 3) for p in (11, 14, 3, 4, 5)] == [12, 15, 3, 3, 6]


def test_d33_a_hand_blocks_with_the_reserve_left() -> None:
    """With a reserve of two the last two tiles are never drawn: a hand can block with them still in the
    boneyard; they are nobody's pips and the lightest hand takes the difference as usual."""
    spec = get_game("dominoes")
    rng = random.Random(33)
    blocked = 0
    for seed in range(60):
        st = DominoState.new(spec.rules("muggins", {"boneyard_reserve": 2, "claims": "auto"}), 2, Chance(seed))
        prev = st.clone()
        while st.hand_no == 1 and not st.is_over():
            prev = st.clone()
            acts = st.legal_actions(st.turn)
            st.apply(st.turn, rng.choice(acts))
        end = _last_hand_end(st)
        if end["reason"] != "blocked":
            continue
        blocked += 1
        assert len(prev.boneyard) == 2
        pips = [sum(t.pips for t in h) for h in prev.hands]
        assert end["pips"] == pips
        low = min(pips)
        awards = _scores_since_hand_end(st)
        if pips.count(low) == 1:
            s = pips.index(low)
            diff = round_nearest(pips[1 - s], 5) - round_nearest(low, 5)
            assert awards == ([(s, diff, "blocked")] if diff > 0 else [])
        else:
            assert awards == []
    assert blocked >= 3
