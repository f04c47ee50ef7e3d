"""Every option of DominoRules does what RULES.md (§1, §3, §6, §8) says, and every preset plays."""

from __future__ import annotations

import dataclasses
import random
import zlib
from typing import Any

import pytest

from muggins.core import ClaimError, IllegalAction, RulesError, get_game, with_options
from muggins.core.records import replay, to_record
from muggins.dominoes import DominoRules, DominoState, full_set
from muggins.dominoes.rules import PRESETS
from muggins.dominoes.scoring import score_table
from tests.helpers import (
    boneyard_starting,
    count_of,
    domino_state,
    events_of,
    moves,
    play,
    play_randomly,
    state_from_chance,
)

SPEC = get_game("dominoes")


def _deal(hands: list[list[str]], boneyard: list[str] | None = None) -> dict[str, Any]:
    if boneyard is None:
        boneyard = boneyard_starting(hands, [])
    return {"kind": "deal", "hands": hands, "boneyard": boneyard}


def _hand_starts(st: DominoState) -> list[dict[str, Any]]:
    return events_of(st, "hand_start")


def _scores_logged_all(st: DominoState) -> list[tuple[int, int, str]]:
    return [(e.data["side"], e.data["points"], e.data["reason"]) for e in st.log if e.kind == "score"]


def _end_scores(st: DominoState) -> list[tuple[int, int, str]]:
    """Score events after the last hand_end (up to the next hand_start)."""
    idx = max(i for i, e in enumerate(st.log) if e.kind == "hand_end")
    out = []
    for e in st.log[idx + 1:]:
        if e.kind == "hand_start":
            break
        if e.kind == "score":
            out.append((e.data["side"], e.data["points"], e.data["reason"]))
    return out


# ------------------------------------------------------------------------------------ first lead ----

SEVEN = [["6-6", "6-5", "6-4", "6-3", "0-0", "1-1", "2-2"], ["5-5", "4-4", "3-3", "5-4", "5-3", "4-3", "2-1"]]


@pytest.mark.parametrize(("first_lead", "leader"), [("lot_heaviest", 1), ("lot_lightest", 0)])
def test_first_lead_by_lot(first_lead: str, leader: int) -> None:
    """Each draws a tile: the heaviest (or, CASSELL, the lightest) leads; the lot is in the log."""
    lot = {"kind": "lot", "seats": [0, 1], "tiles": ["3-2", "6-5"]}
    st = state_from_chance("muggins", 2, [lot, _deal(SEVEN)], first_lead=first_lead)
    assert st.turn == leader
    assert _hand_starts(st)[0]["leader"] == leader
    assert events_of(st, "lot")[0]["tiles"] == ["3-2", "6-5"]


def test_lot_tie_is_redrawn_among_the_tied() -> None:
    """6-2 and 5-3 weigh the same: the tied players draw again (§8)."""
    lots = [{"kind": "lot", "seats": [0, 1, 2], "tiles": ["6-2", "5-3", "1-0"]},
            {"kind": "lot", "seats": [0, 1], "tiles": ["1-1", "4-4"]}]
    hands = [["0-0"], ["1-0"], ["2-0"]]
    st = state_from_chance("muggins", 3, [*lots, _deal(hands)], hand_size=1)
    assert st.turn == 1
    assert [e["seats"] for e in events_of(st, "lot")] == [[0, 1, 2], [0, 1]]


def test_lot_tie_broken_by_the_higher_end() -> None:
    """Option (GCAB): equal weights are ordered by the higher end, 6-2 before 5-3."""
    lot = {"kind": "lot", "seats": [0, 1], "tiles": ["5-3", "6-2"]}
    st = state_from_chance("muggins", 2, [lot, _deal(SEVEN)], lot_tie="high_end")
    assert st.turn == 1
    assert len(events_of(st, "lot")) == 1


def test_highest_double_leads_any_tile() -> None:
    st = domino_state("muggins", hands=[["5-4", "5-1", "2-0", "1-1"], ["5-3", "5-2", "6-2", "3-3"]],
                      first_lead="highest_double")
    assert st.turn == 1
    assert events_of(st, "lot") == []
    assert sorted(moves(st)) == ["3-3", "5-2", "5-3", "6-2"]


def test_highest_double_without_doubles_goes_to_the_heaviest_tile() -> None:
    """S1-W: with no double anywhere, the holder of the heaviest tile leads (5-4 outweighs 6-2)."""
    st = domino_state("muggins", hands=[["5-3", "5-1", "2-0", "3-1"], ["5-4", "5-2", "6-2", "3-0"]],
                      first_lead="highest_double")
    assert st.turn == 1


def test_highest_double_forced_without_doubles_goes_to_the_heavier_hand() -> None:
    """GAMBIT, the source of the forced rule: with no doubles, the heavier *hand* leads any tile (here
    seat 1's 36 pips against seat 0's 17, although seat 0 holds the heaviest single tile, 6-5)."""
    st = domino_state("muggins", hands=[["6-5", "1-0", "2-0", "3-0"], ["6-4", "5-4", "5-3", "6-3"]],
                      first_lead="highest_double_forced")
    assert st.turn == 1
    assert sorted(moves(st)) == ["5-3", "5-4", "6-3", "6-4"]


def test_highest_double_forced() -> None:
    """GAMBIT: the holder of the highest double must lead it."""
    st = domino_state("muggins", hands=[["5-4", "5-1", "2-0", "1-1"], ["5-3", "5-2", "6-2", "3-3"]],
                      first_lead="highest_double_forced")
    assert st.turn == 1
    assert moves(st) == ["3-3"]
    with pytest.raises(Exception, match="3-3"):
        st.apply(1, st.parse_action("6-2"))


def test_must_set_double_draws_until_a_double() -> None:
    """Merry-Go-Round: the set tile must be a double; a leader without one draws until he gets one."""
    hands = [["5-4", "5-1", "2-0", "3-1"], ["5-3", "5-2", "6-2", "3-0"]]
    st = domino_state("merry-go-round", hands=hands, boneyard=boneyard_starting(hands, ["6-1", "4-1", "4-4"]))
    assert st.turn == 0
    assert moves(st) == ["draw"]
    play(st, "draw", "draw")
    assert st.turn == 0 and moves(st) == ["draw"]
    play(st, "draw")
    assert moves(st) == ["4-4"]
    assert play(st, "4-4") == [0]     # 8: nothing


# ------------------------------------------------------------------------------------- next lead ----


def _one_tile_hand(next_lead: str, players: int = 3, **options: Any) -> DominoState:
    """Seat 0 leads its only tile and goes out at once: hand 1 is over."""
    hands = [["1-0"], ["6-6"], ["5-4"], ["3-3"]][:players]
    st = domino_state("muggins", hands=hands, boneyard=[], next_lead=next_lead, **options)
    play(st, "1-0")
    assert st.hand_no == 2
    return st


def test_next_lead_winner() -> None:
    st = _one_tile_hand("winner_else_lot")
    assert _hand_starts(st)[1]["leader"] == 0
    assert len(events_of(st, "lot")) == 1


def test_next_lead_lot_after_a_blocked_hand() -> None:
    hands = [["0-0", "6-2"], ["6-6", "1-1"]]
    st = domino_state("muggins", hands=hands, boneyard=[])
    play(st, "0-0", "pass", "pass")
    assert st.hand_no == 2
    kinds = [e.kind for e in st.log]
    ended = kinds.index("hand_end")
    assert "lot" in kinds[ended:]
    last_lot = events_of(st, "lot")[-1]
    weights = [sum(int(x) for x in t.split("-")) for t in last_lot["tiles"]]
    assert _hand_starts(st)[1]["leader"] == last_lot["seats"][weights.index(max(weights))]


@pytest.mark.parametrize("next_lead", ["rotate_left", "alternate"])
def test_next_lead_rotates(next_lead: str) -> None:
    st = _one_tile_hand(next_lead)
    assert _hand_starts(st)[1]["leader"] == 1
    play_randomly(st, random.Random(1), until_hand_ends=True)
    if not st.is_over():
        assert _hand_starts(st)[2]["leader"] == 2


def test_next_lead_lowest_score() -> None:
    """S3: the lowest score leads; a tie for lowest is settled by lot among the tied (§8)."""
    st = _one_tile_hand("lowest_score", players=2)
    assert st.side_scores()[0] > 0
    assert _hand_starts(st)[1]["leader"] == 1
    st = _one_tile_hand("lowest_score", players=3)
    lots = events_of(st, "lot")
    assert lots[-1]["seats"] == [1, 2]
    assert _hand_starts(st)[1]["leader"] in (1, 2)


def test_next_lead_lowest_score_in_partnerships() -> None:
    """A team's score is each partner's score: the trailing team's two players draw for the lead."""
    st = _one_tile_hand("lowest_score", players=4, partnerships=True)
    assert st.side_scores() == [15, 0]                  # 6-6 and 3-3 → 10 + 5
    assert events_of(st, "lot")[-1]["seats"] == [1, 3]
    assert _hand_starts(st)[1]["leader"] in (1, 3)


# ---------------------------------------------------------------------------------- lead_must_be ----


def test_lead_must_be_double() -> None:
    st = domino_state("muggins", hands=[["5-4", "1-1", "2-0", "3-3"], ["5-3", "5-2", "6-2", "3-0"]],
                      lead_must_be="double")
    assert sorted(moves(st)) == ["1-1", "3-3"]


def test_lead_must_be_double_draws_when_none_held() -> None:
    hands = [["5-4", "5-1", "2-0", "3-1"], ["5-3", "5-2", "6-2", "3-0"]]
    st = domino_state("muggins", hands=hands, boneyard=boneyard_starting(hands, ["6-1", "2-2"]),
                      lead_must_be="double")
    assert moves(st) == ["draw"]
    play(st, "draw", "draw")
    assert moves(st) == ["2-2"]


def test_lead_must_be_double_or_scoring() -> None:
    """Seven-Toed Pete: a double or a tile that scores on its own (0-5, 1-4, 2-3, 4-6, 5-5)."""
    hand = ["5-0", "4-1", "3-2", "6-4", "6-5", "3-1", "2-2"]
    rest = [t.text for t in full_set(6) if t.text not in hand]
    hands = [hand, rest[:7], rest[7:14], rest[14:21]]
    st = domino_state("seven-toed-pete", hands=hands, leader=0)
    assert sorted(moves(st)) == sorted(["5-0", "4-1", "3-2", "6-4", "2-2"])


def test_lead_passes_when_nothing_may_be_led() -> None:
    """PAG-STP: with no double or scoring tile (and no drawing) the lead passes to the next player."""
    hand = ["6-5", "3-1", "6-2", "5-1", "4-3", "2-1", "6-1"]
    rest = [t.text for t in full_set(6) if t.text not in hand]
    hands = [hand, rest[:7], rest[7:14], rest[14:21]]
    st = domino_state("seven-toed-pete", hands=hands, leader=0)
    assert moves(st) == ["pass"]
    play(st, "pass")
    assert st.turn == 1
    assert st.view(1)["phase"] == "lead"


# --------------------------------------------------------------------------------------- spinners ----


def test_spinner_none_never_offers_ends() -> None:
    """Muggins: doubles are crosswise but never spinners; a line has at most two open ends."""
    rng = random.Random(3)
    for seed in range(20):
        st = SPEC.new(SPEC.rules("muggins", {"claims": "auto"}), 2 + seed % 3, seed=seed)
        for _ in range(60):
            if st.is_over():
                break
            play_randomly(st, rng, max_actions=1)
            assert len(st.open_ends()) <= 2
            assert not any(e["spinner"] for e in st.layout())
            assert all(e["part"] != "end" for e in st.open_ends())


def test_spinner_first_double_only() -> None:
    st = domino_state("all-fives", hands=[["3-3", "5-3", "0-0"], ["3-1", "1-1", "5-5"]])
    play(st, "3-3", "3-1 on 3-3", "5-3 on 3-3", "1-1 on 3-1")
    assert [e["spinner"] for e in st.layout()] == [True, False, False, False]
    assert sorted(e["part"] for e in st.open_ends() if e["on"] == "3-3") == ["end"]
    assert [e["part"] for e in st.open_ends() if e["on"] == "1-1"] == ["side"]


def test_spinner_all_doubles() -> None:
    st = domino_state("five-up", hands=[["3-3", "5-3", "0-0"], ["3-1", "1-1", "5-5"]])
    play(st, "3-3", "3-1 on 3-3", "5-3 on 3-3", "1-1 on 3-1")
    assert [e["spinner"] for e in st.layout()] == [True, False, False, True]


def test_sniff_stub_geometry_and_count() -> None:
    """UK Sniff: the sniff is laid in line; one stub per long side, never extended, its end always counts."""
    st = domino_state("sniff", hands=[["5-5", "5-1", "0-0", "1-1"], ["5-3", "5-2", "2-2", "3-3"]],
                      spinner="sniff_stub")
    play(st, "5-5")
    assert count_of(st) == 10                       # both ends of the inline sniff show 5
    assert st.layout()[0]["inline"] and st.layout()[0]["spinner"]
    assert sorted(moves(st)) == ["5-2 on 5-5", "5-2 on 5-5 side", "5-3 on 5-5", "5-3 on 5-5 side"]
    play(st, "5-3 on 5-5")
    assert count_of(st) == 8                        # one bare end (5) + 3
    play(st, "5-1 on 5-5 side")
    assert count_of(st) == 9                        # the stub's 1 counts
    assert st.layout()[2]["stub"]
    assert "1-1 on 5-1" not in moves(st)            # a stub is never extended
    play(st, "5-2 on 5-5 side")
    assert count_of(st) == 11
    assert not any(e["part"] == "side" for e in st.open_ends())   # only two stubs
    assert sorted(e["on"] for e in st.open_ends()) == ["5-3", "5-5"]


def test_sniff_option_inline_or_crosswise() -> None:
    """BRIT: the sniff is laid endwise or sidewise at the holder's option, then playable both ways."""
    hands = [["5-5", "5-1", "0-0", "1-1"], ["5-3", "5-2", "2-2", "3-3"]]
    st = domino_state("sniff", hands=hands, spinner="sniff_option")
    assert {"5-5", "5-5 inline"} <= set(moves(st))
    cross = st.clone()
    play(st, "5-5 inline")
    assert st.layout()[0]["inline"]
    play(st, "5-3 on 5-5", "5-1 on 5-5")            # both ends of the inline sniff first
    assert count_of(st) == 4
    assert "5-2 on 5-5 side" in moves(st)
    play(st, "5-2 on 5-5 side")
    assert count_of(st) == 6
    play(cross, "5-5")
    assert not cross.layout()[0]["inline"] and cross.layout()[0]["spinner"]
    play(cross, "5-3 on 5-5", "5-1 on 5-5")         # both sides of the crosswise sniff
    assert count_of(cross) == 14                    # Model S: both bare ends count
    assert "5-2 on 5-5 end" in moves(cross)


def test_sniff_option_only_for_the_first_double() -> None:
    st = domino_state("sniff", hands=[["5-5", "3-3", "0-0"], ["5-3", "1-1", "2-2"]], spinner="sniff_option")
    play(st, "5-5", "5-3 on 5-5")
    assert moves(st) == ["3-3 on 5-3"]
    with pytest.raises(IllegalAction):
        st.apply(0, st.parse_action("3-3 on 5-3 inline"))


@pytest.mark.parametrize("sides_first", [True, False])
def test_spinner_sides_first(sides_first: bool) -> None:
    """Ends open only once both sides are covered; without the rule the spinner counts 2v while at most
    one side is covered, whatever is on its ends (§8)."""
    st = domino_state("all-fives", hands=[["5-5", "5-1", "5-4", "0-0"], ["5-3", "5-2", "1-1", "2-2"]],
                      spinner_sides_first=sides_first)
    play(st, "5-5")
    has_end = any(m.endswith("end") for m in moves(st))
    assert has_end is not sides_first
    if sides_first:
        with pytest.raises(Exception, match="ends"):
            st.apply(1, st.parse_action("5-3 on 5-5 end"))
        return
    play(st, "5-3 on 5-5 end")
    assert count_of(st) == 13
    play(st, "5-1 on 5-5 end")
    assert count_of(st) == 14
    play(st, "5-2 on 5-5")
    assert count_of(st) == 16                       # one side covered: still 10
    play(st, "5-4 on 5-5")
    assert count_of(st) == 10                       # both sides covered: 3 + 1 + 2 + 4


def test_spinner_fill_first() -> None:
    """Merry-Go-Round: all four faces of the set double are played before anything else."""
    st = domino_state("merry-go-round", hands=[["5-5", "5-1", "0-0", "1-1"], ["5-3", "5-2", "2-2", "3-3"]])
    play(st, "5-5", "5-3 on 5-5")
    assert moves(st) == ["5-1 on 5-5"]
    play(st, "5-1 on 5-5")
    assert moves(st) == ["5-2 on 5-5 end"]          # not 3-3 on the 3
    play(st, "5-2 on 5-5 end")
    assert moves(st) == ["draw"]                    # 1-1 on the 1 must wait for the last face


# ------------------------------------------------------------------------------------------ draws ----

DRAW_HANDS = [["6-6", "6-5", "6-4", "6-3", "0-0", "1-1", "2-2"], ["5-5", "4-4", "3-3", "5-4", "5-3", "4-3", "2-1"]]
DRAW_BONE = boneyard_starting(DRAW_HANDS, ["1-0", "2-0", "6-2"])


def _draw_state(**options: Any) -> DominoState:
    st = domino_state("muggins", hands=DRAW_HANDS, boneyard=DRAW_BONE, **options)
    play(st, "6-6")
    assert st.turn == 1
    return st


def test_draw_until_playable() -> None:
    st = _draw_state()
    assert moves(st) == ["draw"]
    play(st, "draw", "draw")
    assert moves(st) == ["draw"]
    play(st, "draw")
    assert moves(st) == ["6-2 on 6-6"]              # a drawn playable tile is played at once


def test_draw_one_then_pass() -> None:
    st = _draw_state(draw="one_then_pass")
    play(st, "draw")
    assert moves(st) == ["pass"]
    play(st, "pass")
    assert st.turn == 0


def test_draw_at_most_n() -> None:
    st = _draw_state(draw="max_n", max_draws_per_turn=2)
    play(st, "draw")
    assert moves(st) == ["draw"]
    play(st, "draw")
    assert moves(st) == ["pass"]


def test_draw_none() -> None:
    st = _draw_state(draw="none")
    assert moves(st) == ["pass"]
    assert st.view(1)["drawable"] == 0


def test_no_drawing_while_able_to_play() -> None:
    st = domino_state("muggins", hands=DRAW_HANDS, boneyard=DRAW_BONE)
    play(st, "6-6", "draw", "draw", "draw", "6-2 on 6-6")
    assert "draw" not in moves(st)
    with pytest.raises(Exception, match="playable"):
        st.apply(0, st.parse_action("draw"))


def test_voluntary_draw() -> None:
    """PUZ, SPA, DIGI: a player may draw although he holds a playable tile; he still plays afterwards."""
    st = domino_state("muggins", hands=DRAW_HANDS, boneyard=DRAW_BONE, voluntary_draw=True)
    assert "draw" not in moves(st)                  # not at the lead
    play(st, "6-6", "draw", "draw", "draw", "6-2 on 6-6")
    assert "draw" in moves(st) and "6-5 on 6-6" in moves(st)
    play(st, "draw")
    assert st.turn == 0 and len(st.hands[0]) == 7
    play(st, "6-5 on 6-6")
    assert st.turn == 1


@pytest.mark.parametrize("reserve", [1, 2])
def test_boneyard_reserve_is_never_drawn(reserve: int) -> None:
    rng = random.Random(reserve)
    for seed in range(15):
        st = SPEC.new(SPEC.rules("muggins", {"boneyard_reserve": reserve, "claims": "auto"}), 2, seed=seed)
        while not st.is_over() and st.hand_no < 3:
            play_randomly(st, rng, max_actions=1)
            v = st.view(None)
            assert v["boneyard"] >= reserve
            assert v["drawable"] == v["boneyard"] - reserve
            if "draw" in moves(st):
                assert v["drawable"] > 0


def test_reserve_counts_in_blocked_detection() -> None:
    """With the reserve reached nobody can draw: a hand blocks with the reserve left in the boneyard."""
    rng = random.Random(5)
    blocked = 0
    for seed in range(40):
        st = SPEC.new(SPEC.rules("muggins", {"boneyard_reserve": 2, "claims": "auto"}), 2, seed=seed)
        left = len(st.boneyard)
        while st.hand_no == 1:
            left = len(st.boneyard)
            play_randomly(st, rng, max_actions=1)
        if events_of(st, "hand_end")[0]["reason"] == "blocked":
            blocked += 1
            assert left == 2
    assert blocked > 0


# ------------------------------------------------------------------------------- end of the hand ----

# Seat 0 goes out with its only tile; seat 1 holds 6-6 (12 pips), seat 2 holds 4-3 (7 pips).
@pytest.mark.parametrize(("out_bonus", "awards"), [
    ("per_opponent_round5", [(0, 15, "domino")]),            # 10 + 5
    ("total_round5", [(0, 20, "domino")]),                   # 19 → 20
    ("raw", [(0, 19, "domino")]),
    ("per5", [(0, 3, "domino")]),                            # (10 + 5) / 5
    ("largest_hand_per5", [(0, 2, "domino")]),               # 12 → 10 → 2
    ("subtract_own", [(1, -10, "own pips"), (2, -5, "own pips")]),
    ("chip_out_1", [(0, 1, "domino")]),
    ("heaviest_tile_prime", [(0, 11, "domino")]),            # 6-6 = 12 → 11
    ("none", []),
])
def test_out_bonus(out_bonus: str, awards: list[tuple[int, int, str]]) -> None:
    st = domino_state("muggins", hands=[["1-0"], ["6-6"], ["4-3"]], boneyard=[], out_bonus=out_bonus)
    play(st, "1-0")
    assert _end_scores(st) == awards


@pytest.mark.parametrize(("round_to", "bonus"), [(5, 15), (3, 18), (1, 19)])
def test_round_to(round_to: int, bonus: int) -> None:
    """Bonuses round to the nearest five, three (All Threes) or not at all: 12 and 7 pips."""
    st = domino_state("muggins", hands=[["1-0"], ["6-6"], ["4-3"]], boneyard=[], round_to=round_to)
    play(st, "1-0")
    assert _end_scores(st) == [(0, bonus, "domino")]


def test_hand_double_counts_once() -> None:
    """MOBSEA option: a double left in hand counts one half (6-6 is 6, not 12)."""
    st = domino_state("muggins", hands=[["1-0"], ["6-6"]], boneyard=[], hand_double_counts_once=True)
    play(st, "1-0")
    assert events_of(st, "hand_end")[0]["pips"] == [0, 6]
    assert _end_scores(st) == [(0, 5, "domino")]


def test_blocked_none_scores_nothing() -> None:
    st = domino_state("muggins", hands=[["0-0", "6-2"], ["6-6", "1-1"]], boneyard=[], blocked="none")
    play(st, "0-0", "pass", "pass")
    assert events_of(st, "hand_end")[0]["reason"] == "blocked"
    assert _end_scores(st) == []


@pytest.mark.parametrize(("round_mode", "points"), [("per_hand", 35), ("net", 35), ("none", 36)])
def test_lightest_takes_opponents_rounding(round_mode: str, points: int) -> None:
    """§8: "lightest takes opponents" uses the same rounding mode as "lightest takes difference"."""
    st = domino_state("muggins", hands=[["0-0", "6-2"], ["5-5", "2-2"], ["6-6", "6-4"]], boneyard=[],
                      blocked="lightest_takes_opponents", round_mode=round_mode)
    play(st, "0-0", "pass", "pass", "pass")
    assert _end_scores(st) == [(0, points, "blocked")]


def test_blocked_partners_tied_for_lightest_score_for_their_team() -> None:
    """A tie between partners is no tie between sides: their team takes the difference to the opponents."""
    hands = [["0-0", "6-2"], ["6-6", "5-5"], ["3-1", "2-2"], ["6-5", "4-4"]]
    st = domino_state("muggins", hands=hands, boneyard=[], partnerships=True)
    play(st, "0-0", "pass", "pass", "pass", "pass")
    end = events_of(st, "hand_end")[0]
    assert end["reason"] == "blocked" and end["pips"] == [8, 22, 8, 19]
    assert [(s, r) for s, _, r in _end_scores(st)] == [(0, "blocked")]
    assert _end_scores(st)[0][1] == 20 + 20 - 10       # opponents 22 and 19 → 20 + 20, minus own 8 → 10


def test_blocked_hand_in_a_one_per_five_game_divides_the_award() -> None:
    st = domino_state("five-up", hands=[["0-0", "6-2"], ["5-5", "2-2"], ["6-6", "6-4"]], boneyard=[])
    play(st, "0-0", "pass", "pass", "pass")
    assert _end_scores(st) == [(0, 5, "blocked")]   # (15 + 20 - 10) / 5


def test_partnership_both_out() -> None:
    """Fives and Threes: a partnership hand ends only when both partners are out; the out player is
    skipped; the chip-out point comes when the second partner goes out."""
    hands = [["6-6", "5-5"], ["1-0", "1-1"], ["6-5", "5-4"], ["2-0", "2-2"]]
    st = domino_state("fives-and-threes", hands=hands, partnerships=True, boneyard=[])
    play(st, "6-6", "pass", "6-5 on 6-6", "pass", "5-5 on 6-5")
    assert st.hands[0] == [] and st.hand_no == 1
    play(st, "pass")
    assert st.turn == 2
    before = len(st.log)
    play(st, "5-4 on 5-5")
    assert events_of(st, "hand_end", before)[0]["reason"] == "domino"
    assert _end_scores(st) == [(0, 1, "domino")]


def test_partnership_both_out_blocked_gives_no_chip_out_point() -> None:
    hands = [["6-6", "5-5"], ["1-0", "1-1"], ["6-5", "4-4"], ["2-0", "2-2"]]
    st = domino_state("fives-and-threes", hands=hands, partnerships=True, boneyard=[])
    play(st, "6-6", "pass", "6-5 on 6-6", "pass", "5-5 on 6-5")
    for expected in (1, 2, 3):                      # seat 0 is out and skipped
        assert st.turn == expected
        play(st, "pass")
    assert events_of(st, "hand_end")[0]["reason"] == "blocked"
    assert _end_scores(st) == []


def test_without_partnership_both_out_the_first_out_ends_the_hand() -> None:
    hands = [["6-6", "5-5"], ["1-0", "1-1"], ["6-5", "4-4"], ["2-0", "2-2"]]
    st = domino_state("fives-and-threes", hands=hands, partnerships=True, boneyard=[],
                      partnership_both_out=False)
    play(st, "6-6", "pass", "6-5 on 6-6", "pass", "5-5 on 6-5")
    assert events_of(st, "hand_end")[0]["reason"] == "domino"


# ---------------------------------------------------------------------------- target and winning ----


def test_last_play_reaching_the_target_still_earns_its_bonus() -> None:
    """§8: going out, the play's points and the bonus are one scoring step: both are logged."""
    st = domino_state("muggins", hands=[["5-0"], ["6-6"]], boneyard=[], target=5)
    play(st, "5-0")
    assert st.is_over() and st.winners() == frozenset({0})
    assert [(s, p, r) for s, p, r in _scores_logged_all(st)] == [(0, 5, "play"), (0, 10, "domino")]
    assert st.side_scores() == [15, 0]


def test_cascade_checks_the_target_after_each_award() -> None:
    """§8: cascade awards go lightest first and the game ends on the award that reaches the target."""
    st = domino_state("muggins", hands=[["0-0", "6-2"], ["5-5", "2-2"], ["6-6", "6-4"]], boneyard=[],
                      blocked="cascade", target=10)
    play(st, "0-0", "pass", "pass", "pass")
    assert st.is_over() and st.winners() == frozenset({0})
    assert _end_scores(st) == [(0, 6, "blocked"), (0, 14, "blocked")]   # B's 8 never comes
    assert st.side_scores() == [20, 0, 0]


def test_exact_target_voids_an_overshooting_bonus() -> None:
    st = domino_state("muggins", hands=[["1-0"], ["6-6"]], boneyard=[], target=5, exact_target=True)
    play(st, "1-0")
    assert st.side_scores() == [0, 0] and not st.is_over()
    assert [e["points"] for e in events_of(st, "void")] == [10]


def test_win_check_end_of_hand() -> None:
    """ODG: passing the target mid-hand does not end the game; the highest total at the hand's end wins."""
    st = domino_state("muggins", hands=[["5-5", "0-0", "3-3"], ["5-0", "6-6", "2-2"]], target=15,
                      win_check="end_of_hand")
    assert play(st, "5-5", "5-0 on 5-5", "0-0 on 5-0") == [10, 10, 10]
    assert st.side_scores() == [20, 10]
    rng = random.Random(0)
    while not st.is_over() and st.hand_no == 1:
        assert events_of(st, "hand_end") == []
        play_randomly(st, rng, max_actions=1)
    assert st.is_over() and st.hand_no == 1
    assert len(events_of(st, "hand_end")) == 1
    top = max(st.side_scores())
    assert st.winners() == frozenset(s for s in range(2) if st.side_scores()[s] == top)
    kinds = [e.kind for e in st.log]
    assert kinds.index("game_end") > kinds.index("hand_end")


def _tied_at_hand_end(**options: Any) -> DominoState:
    """Both sides reach exactly 10 of 10 and seat 0 goes out: B's 2 pips round to nothing."""
    st = domino_state("muggins", hands=[["5-5", "0-1"], ["5-0", "2-0"]], target=10, win_check="end_of_hand",
                      **options)
    assert play(st, "5-5", "5-0 on 5-5", "0-1 on 5-0") == [10, 10, 0]
    assert st.side_scores() == [10, 10]
    return st


def test_tie_at_the_end_plays_extra_hands() -> None:
    """DR-COPY: an exact tie over the target is broken by extra hands (two for two players)."""
    st = _tied_at_hand_end()
    assert not st.is_over()
    assert events_of(st, "tie_break")[0]["hands"] == 2
    rng = random.Random(2)
    while not st.is_over():
        hand = st.hand_no
        play_randomly(st, rng, until_hand_ends=True)
        if not st.is_over():
            assert st.hand_no == hand + 1
    top = max(st.side_scores())
    assert st.winners() == frozenset(s for s in range(2) if st.side_scores()[s] == top)
    assert st.hand_no >= 3


def test_tie_without_extra_hands_shares_the_win() -> None:
    st = _tied_at_hand_end(tie_break_hands=False)
    assert st.is_over() and st.winners() == frozenset({0, 1})


def test_entry_threshold() -> None:
    """BIG6 "ten to get in": a first score below 10 is void; once in, every score counts."""
    st = domino_state("muggins", hands=[["3-2", "5-5", "0-0"], ["2-0", "1-1", "4-4"]], entry_threshold=10)
    assert play(st, "3-2") == [5]
    assert st.side_scores() == [0, 0]
    assert [e["points"] for e in events_of(st, "void")] == [5]
    st = domino_state("muggins", hands=[["6-4", "6-2", "0-0"], ["4-3", "1-1", "5-5"]], entry_threshold=10)
    assert play(st, "6-4", "4-3 on 6-4", "6-2 on 6-4") == [10, 0, 5]
    assert st.side_scores() == [15, 0]                      # in with 10, then 5 counts


def test_extra_turn_needs_a_double_or_a_score() -> None:
    """With extra_turn a double or a scoring play earns another play; without it the turn passes."""
    hands = [["5-5", "5-0", "5-4", "1-1", "2-2", "3-3", "6-6"], ["6-0", "6-1", "6-2", "6-3", "6-4", "6-5", "1-0"],
             ["2-0", "2-1", "3-0", "3-1", "3-2", "4-0", "4-1"], ["4-2", "4-3", "4-4", "5-1", "5-2", "5-3", "0-0"]]
    st = domino_state("seven-toed-pete", hands=hands, extra_turn="none")
    play(st, "5-5")
    assert st.turn == 1
    st = domino_state("seven-toed-pete", hands=hands)
    play(st, "5-5", "5-4 on 5-5")                   # 10 + 4 = 14: no score, not a double
    assert st.turn == 1


def test_extra_turn_ends_when_the_player_cannot_play() -> None:
    hands = [["5-5", "1-1", "2-2", "3-3", "6-6", "6-0", "6-1"], ["5-0", "5-4", "6-2", "6-3", "6-4", "6-5", "1-0"],
             ["2-0", "2-1", "3-0", "3-1", "3-2", "4-0", "4-1"], ["4-2", "4-3", "4-4", "5-1", "5-2", "5-3", "0-0"]]
    st = domino_state("seven-toed-pete", hands=hands)
    play(st, "5-5")                                 # a double and 2 points, but nothing else fits a 5
    assert st.turn == 1


# --------------------------------------------------------------------------------------- scoring ----


@pytest.mark.parametrize(("score_fn", "expected"), [
    ("fives_count", {5: 5, 10: 10, 15: 15, 7: 0, 0: 0}),
    ("fives_per5", {5: 1, 10: 2, 15: 3, 7: 0}),
    ("threes_count", {3: 3, 6: 6, 9: 9, 10: 0}),
    ("threes_per3", {3: 1, 6: 2, 9: 3, 10: 0}),
    ("fives_and_threes", {15: 8, 30: 16, 10: 2, 9: 3, 7: 0}),
    ("threes_and_fives_pips", {30: 60, 15: 30, 9: 9, 10: 10, 7: 0}),
    ("odd_primes", {7: 1, 21: 10, 15: 8, 4: 0, 49: 7}),
])
def test_score_functions(score_fn: str, expected: dict[int, int]) -> None:
    """§1.7: points for a count under each scoring rule (DR-35: 30 → 60; Odd Primes Σ c/p)."""
    table = score_table(score_fn)  # type: ignore[arg-type]
    assert {c: table[c] for c in expected} == expected


def test_threes_and_fives_pips_through_the_engine() -> None:
    """Lead 6-3 (9: 9 pts); 6-6 on the 6 makes 15, a multiple of both: 15 + 15 = 30."""
    st = domino_state("muggins", hands=[["6-3", "0-0"], ["6-6", "1-1"]], score_fn="threes_and_fives_pips")
    assert play(st, "6-3", "6-6 on 6-3") == [9, 30]


# ------------------------------------------------------------------------------ claims and knocks ----


def test_auto_claims_refuse_an_announcement() -> None:
    st = domino_state("sniff", hands=[["5-5", "0-0"], ["5-0", "1-1"]])
    assert st.rules.claims == "auto"
    with pytest.raises(ClaimError):
        st.apply(0, st.parse_action("5-5").with_claim(10))
    st.apply(0, st.parse_action("5-5"))
    assert st.side_scores() == [10, 0]
    assert st.to_act() == frozenset({1})
    assert "muggins" not in [a.kind for a in st.legal_actions(0)]


def test_knocking_needs_the_option_and_a_partnership() -> None:
    hands = [["0-0", "2-0", "2-2", "3-0", "3-3"], ["6-5", "6-3", "3-1", "4-0", "4-2"],
             ["6-4", "4-4", "5-0", "5-2", "5-5"], ["6-1", "5-3", "5-4", "4-3", "2-1"]]
    for opts in ({"partnerships": True}, {"knocking": True}):
        st = domino_state("muggins", hands=hands, leader=3, **opts)
        play(st, "6-1")
        assert moves(st) == ["draw"]


# ---------------------------------------------------------------------------- sets and players ----


@pytest.mark.parametrize(("tile_set", "players"), [(9, 5), (9, 6), (12, 4), (12, 6), (15, 4), (15, 6)])
def test_big_sets_and_more_players(tile_set: int, players: int) -> None:
    rules = SPEC.rules("all-fives", {"tile_set": tile_set, "claims": "auto"})
    st = SPEC.new(rules, players, seed=tile_set * 10 + players)
    assert [len(h) for h in st.hands] == [rules.tiles_each(players)] * players
    assert len(st.boneyard) + sum(map(len, st.hands)) == (tile_set + 1) * (tile_set + 2) // 2
    play_randomly(st, random.Random(players), max_actions=400)
    assert st.hand_no >= 2 or st.is_over()
    rec = to_record(st)
    assert replay(rec).side_scores() == st.side_scores()


def test_five_players_need_a_bigger_set() -> None:
    with pytest.raises(RulesError, match="double-6"):
        SPEC.new(SPEC.rules("muggins"), 5, seed=1)
    with pytest.raises(RulesError):
        SPEC.new(SPEC.rules("muggins"), 7, seed=1)


@pytest.mark.parametrize(("preset", "sizes"), [
    ("muggins", (7, 5, 5)), ("all-fives", (9, 7, 5)), ("sniff", (7, 6, 5)), ("five-up", (5, 5, 5)),
    ("fives-and-threes", (7, 5, 5)), ("seven-toed-pete", (7, 7, 7)), ("merry-go-round", (7, 7, 7)),
])
def test_deal_sizes(preset: str, sizes: tuple[int, int, int]) -> None:
    """§1.3 / §3: tiles each for 2, 3 and 4 players; ``hand_size`` overrides."""
    for players, size in zip((2, 3, 4), sizes, strict=True):
        st = SPEC.new(SPEC.rules(preset), players, seed=players)
        assert [len(h) for h in st.hands] == [size] * players
    st = SPEC.new(SPEC.rules(preset, {"hand_size": 3}), 2, seed=1)
    assert [len(h) for h in st.hands] == [3, 3]


def test_invalid_options_raise_rules_errors() -> None:
    rules = SPEC.rules()
    for bad in ({"boneyard_reserve": 3}, {"target": 0}, {"tile_set": 7}, {"spinner": "sideways"},
                {"no_such_option": 1}, {"hand_size": 0}, {"max_draws_per_turn": 0}):
        with pytest.raises(RulesError):
            with_options(rules, bad)
    with pytest.raises(RulesError):
        SPEC.new(SPEC.rules("muggins", {"hand_size": 15}), 2, seed=1)


def test_options_come_from_strings() -> None:
    """Options given as text (the command line) are coerced to their types."""
    r = with_options(SPEC.rules(), {"target": "150", "exact-target": "yes", "tile_set": "9"})
    assert (r.target, r.exact_target, r.tile_set) == (150, True, 9)


# --------------------------------------------------------------------------------------- presets ----


def test_presets_hold_their_documented_rules() -> None:
    """§3 / §6 / §8 defaults per preset."""
    p = PRESETS
    assert p["muggins"].spinner == "none" and p["muggins"].target == 200
    assert p["all-fives"].spinner == "first_double" and p["all-fives"].spinner_count == "pagat"
    assert p["sniff"].spinner_count == "sniff_ends" and p["sniff"].claims == "auto"
    assert (p["five-up"].spinner, p["five-up"].score_fn, p["five-up"].target, p["five-up"].exact_target) == \
        ("all_doubles", "fives_per5", 61, False)
    assert (p["fives-and-threes"].draw, p["fives-and-threes"].exact_target, p["fives-and-threes"].target) == \
        ("none", True, 61)
    assert p["all-threes"].round_to == 3 and p["all-threes"].target == 200
    assert p["muggins-spinner"].blocked == "no_winner" and p["muggins-spinner"].next_lead == "lowest_score"
    assert p["muggins-spinner"].spinner_sides_first and p["muggins-spinner"].out_bonus == "per_opponent_round5"
    assert p["block-muggins"].draw == "none" and p["block-muggins"].target == 200
    assert p["merry-go-round"].exact_target and p["merry-go-round"].lead_must_be == "double"
    assert all(isinstance(r, DominoRules) and r.preset == name for name, r in p.items())
    assert dataclasses.replace(p["muggins"], preset="muggins") == DominoRules()


@pytest.mark.parametrize(("preset", "players"), [(p, n) for p in sorted(PRESETS) for n in (2, 3, 4)
                                                  if n in SPEC.players_for(PRESETS[p])])
def test_every_preset_starts_and_plays(preset: str, players: int) -> None:
    """Random games of every preset run to their end (or through several hands); the winner's side
    holds the top score, at least the target."""
    rng = random.Random(zlib.crc32(f"{preset}/{players}".encode()))
    for seed in range(2):
        st = SPEC.new(SPEC.rules(preset), players, seed=seed)
        assert st.to_act() and not st.is_over()
        play_randomly(st, rng, max_actions=1500)
        assert st.is_over() or st.hand_no >= 3
        if st.is_over():
            scores = st.side_scores()
            assert st.winners()
            assert all(scores[st.side_of(s)] == max(scores) >= st.rules.target for s in st.winners())
