"""What the other seats see of a move never depends on the mover's hand: a voluntary draw looks the same
whether or not the drawer could have played, and sampling the hidden tiles for another seat cannot tell
the two apart either. An over-claim is told with a message; its true figure only to the claimer."""

from __future__ import annotations

import random

import pytest

from muggins.dominoes import DominoState
from tests.helpers import boneyard_starting, domino_state, events_of, play


def drawn(seat1: list[str]) -> DominoState:
    """Voluntary drawing: seat 0 leads 6-4, seat 1 (holding ``seat1``) draws 0-0 from the boneyard."""
    hands = [["6-4", "5-5", "3-3"], seat1]
    st = domino_state("muggins", hands=hands, boneyard=boneyard_starting(hands, ["0-0", "1-1"]),
                      voluntary_draw=True)
    play(st, "6-4")
    assert "draw" in [st.format_action(a) for a in st.legal_actions(1)]
    st.apply(1, st.parse_action("draw"))
    return st


COULD_PLAY = ["4-1", "2-2", "5-2"]     # 4-1 fits the 4
COULD_NOT = ["3-1", "2-2", "5-2"]      # nothing fits 6 or 4


def test_a_voluntary_draw_looks_the_same_to_the_others_whether_or_not_the_drawer_could_play() -> None:
    """Reported: other seats saw "forced": false when the drawer held a playable tile."""
    able, unable = drawn(COULD_PLAY), drawn(COULD_NOT)
    for viewer in (0, None):
        assert able.events_for(viewer) == unable.events_for(viewer)
        assert able.view(viewer) == unable.view(viewer)
        last = able.events_for(viewer)[-1]
        assert last == {"kind": "draw", "seat": 1, "ends": [6, 4], "lead": False}
    # the drawer himself may know
    assert able.events_for(1)[-1]["forced"] is False and unable.events_for(1)[-1]["forced"] is True
    assert able.events_for(1)[-1]["tile"] == unable.events_for(1)[-1]["tile"] == "0-0"


def test_sampling_for_another_seat_cannot_tell_a_voluntary_draw_from_a_forced_one() -> None:
    """A bot sampling the hidden tiles sees only the public log, so its samples are the same draw for draw
    in both games; and some give the drawer a tile that fits (he may have drawn by choice)."""
    able, unable = drawn(COULD_PLAY), drawn(COULD_NOT)
    fits = 0
    for k in range(60):
        a, b = able.sample_hidden(0, random.Random(k)), unable.sample_hidden(0, random.Random(k))
        assert a.hands == b.hands and a.boneyard == b.boneyard
        fits += any(t.has(6) or t.has(4) for t in a.hands[1])
    assert fits > 0


def test_without_voluntary_drawing_a_draw_still_proves_the_drawer_could_not_play() -> None:
    hands = [["6-4", "5-5", "3-3"], COULD_NOT]
    st = domino_state("muggins", hands=hands, boneyard=boneyard_starting(hands, ["0-0", "1-1"]))
    play(st, "6-4", "draw")
    assert st.events_for(0)[-1] == {"kind": "draw", "seat": 1, "ends": [6, 4], "lead": False}
    for k in range(40):  # three tiles held before the draw cannot fit; only the unseen drawn one may
        sample = st.sample_hidden(0, random.Random(k))
        assert sum(t.has(6) or t.has(4) for t in sample.hands[1]) <= 1


def test_no_public_event_field_depends_on_a_hand() -> None:
    """The public form of every move event of a whole random game: the same kinds of keys for every seat,
    and no tile a viewer may not see."""
    rng = random.Random(5)
    st = domino_state("muggins", hands=[["6-4", "5-5", "3-3", "2-1"], ["3-1", "2-2", "5-2", "0-0"]],
                      voluntary_draw=True)
    while not st.is_over() and len(st.history) < 300:
        seat = st.turn
        st.apply(seat, rng.choice([a for a in st.legal_actions(seat) if a.kind not in ("muggins", "claim")]))
    public = {"draw": {"kind", "seat", "ends", "lead"}, "pass": {"kind", "seat", "ends", "lead"}}
    for viewer in (None, 0, 1):
        for e, raw in zip(st.events_for(viewer), st.log, strict=True):
            if e["kind"] in public and e.get("seat") != viewer:
                assert set(e) == public[e["kind"]], e
            if raw.kind == "draw" and raw.seat == viewer:
                assert {"tile", "forced"} <= set(e)


# ------------------------------------------------------------------------------------ over-claims ----

@pytest.mark.parametrize("over_claim", ["void", "opponent_scores"])
def test_an_over_claim_is_told_with_a_message_and_its_truth_only_to_the_claimer(over_claim: str) -> None:
    st = domino_state("muggins", hands=[["6-3", "0-0"], ["3-1", "2-2"]], over_claim=over_claim)
    st.apply(0, st.parse_action("6-3").with_claim(10))  # 6-3 makes 9: nothing
    others = [e for e in st.events_for(1) if e["kind"] == "over_claim"]
    mine = [e for e in st.events_for(0) if e["kind"] == "over_claim"]
    assert others and mine
    assert "true" not in others[0] and mine[0]["true"] == 0
    assert others[0]["points"] == 10 and others[0]["what"] == "play"
    if over_claim == "void":
        assert others[0]["message"] == "announced 10, more than the play is worth: the claim is void and scores nothing"
        assert st.side_scores() == [0, 0]
    else:
        assert others[0]["message"].endswith("the next opponent scores 10 as a penalty")
        assert st.side_scores() == [0, 10]
    assert [e["points"] for e in events_of(st, "over_claim")] == [10]
