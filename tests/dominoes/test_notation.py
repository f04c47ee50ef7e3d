"""Move notation: ``T on U [side|end] [inline]``, a lead is just the tile; the text of every legal action
parses back to the same action, and distinct actions never share a text."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as hs

from muggins.core import Action, UnknownAction, get_game
from muggins.dominoes import DominoState, Tile
from muggins.dominoes.rules import PRESETS
from tests.helpers import domino_state, play, play_randomly

SPEC = get_game("dominoes")

# Presets plus the geometry variants that add parts to the notation.
VARIANTS: list[tuple[str, dict[str, object]]] = [(p, {}) for p in sorted(PRESETS)] + [
    ("sniff", {"spinner": "sniff_option"}),
    ("sniff", {"spinner": "sniff_stub"}),
    ("all-fives", {"spinner_sides_first": False}),
    ("five-up", {"spinner_sides_first": False}),
    ("five-up", {"tile_set": 9}),
    ("muggins", {"tile_set": 12}),
]


def check_round_trip(st: DominoState) -> int:
    """Every legal action of every seat that may act: its text parses back to it; texts are distinct."""
    n = 0
    for seat in sorted(st.to_act()):
        acts = st.legal_actions(seat)
        texts = [st.format_action(a) for a in acts]
        assert len(set(texts)) == len(texts), f"ambiguous texts {texts}"
        for a, text in zip(acts, texts, strict=True):
            assert st.parse_action(text, seat) == a, text
            assert st.parse_action(text.upper(), seat) == a
            assert st.parse_action(f"  {text.replace('-', '|')}  ", seat) == a
            assert st.action_to_json(seat, a) == {"seat": seat, "move": text}
            assert st.action_to_json(seat, a.with_claim(5))["claim"] == 5
            n += 1
    return n


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_round_trips_through_whole_games(variant: int) -> None:
    """A deterministic sweep: 120 positions of each variant with 2, 3 and 4 players."""
    preset, options = VARIANTS[variant]
    checked = 0
    rules = SPEC.rules(preset, options) if options else SPEC.rules(preset)
    for players in [n for n in SPEC.players_for(rules) if n <= 4]:
        st = SPEC.new(rules, players, seed=variant)
        rng = random.Random(variant * 10 + players)
        for _ in range(120):
            if st.is_over():
                break
            checked += check_round_trip(st)
            play_randomly(st, rng, max_actions=1)
    assert checked > 200


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(variant=hs.sampled_from(range(len(VARIANTS))), players=hs.integers(2, 4), seed=hs.integers(0, 2**31 - 1),
       steps=hs.integers(10, 150))
def test_every_legal_action_round_trips(variant: int, players: int, seed: int, steps: int) -> None:
    preset, options = VARIANTS[variant]
    rules = SPEC.rules(preset, options) if options else SPEC.rules(preset)
    assume(players in SPEC.players_for(rules))  # a partnership preset is for four
    st = SPEC.new(rules, players, seed=seed)
    rng = random.Random(seed)
    checked = 0
    for _ in range(steps):
        if st.is_over():
            break
        checked += check_round_trip(st)
        play_randomly(st, rng, max_actions=1)
    assert checked > 0 or st.is_over() or steps == 0


def test_five_up_many_spinners() -> None:
    """D13's layout: three spinners with sides and ends; each position has its own text."""
    st = domino_state("five-up", hands=[["6-4", "4-1", "6-6", "3-2", "0-0"], ["4-4", "4-3", "6-2", "6-0", "1-1"]])
    seen = set()
    for m in ["6-4", "4-4 on 6-4", "4-1 on 4-4", "4-3 on 4-4 end", "6-6 on 6-4", "6-2 on 6-6", "3-2 on 4-3",
              "6-0 on 6-6 end"]:
        check_round_trip(st)
        a = st.parse_action(m)
        assert st.format_action(a) == m
        seen.add(a)
        play(st, m)
    assert len(seen) == 8
    check_round_trip(st)


def test_sniff_option_texts() -> None:
    st = domino_state("sniff", hands=[["5-5", "5-1", "0-0", "1-1"], ["5-3", "5-2", "2-2", "3-3"]],
                      spinner="sniff_option")
    assert st.parse_action("5-5 inline") == Action("play", Tile.of(5, 5), None, "inline")
    assert st.parse_action("5-5") == Action("play", Tile.of(5, 5), None, None)
    assert st.format_action(st.parse_action("5-5 inline")) == "5-5 inline"
    check_round_trip(st)
    st = domino_state("sniff", hands=[["3-0", "5-5", "0-0"], ["3-3", "5-2", "2-2"]], spinner="sniff_option")
    play(st, "3-0")
    texts = [st.format_action(a) for a in st.legal_actions(1)]
    assert {"3-3 on 3-0", "3-3 on 3-0 inline"} <= set(texts)
    check_round_trip(st)


def test_lead_and_play_words_and_orientation() -> None:
    st = domino_state("muggins", hands=[["5-5", "0-0"], ["5-3", "1-1"]])
    lead = st.parse_action("5-5")
    assert st.parse_action("lead 5-5") == lead == st.parse_action("play 5|5")
    play(st, "5-5")
    a = st.parse_action("5-3 on 5-5")
    assert st.parse_action("3-5 on 5-5") == a == st.parse_action("play 5:3 on 5-5")
    assert st.format_action(a) == "5-3 on 5-5"
    assert st.parse_action("5-3 on 5-5 side") == a            # a line double has sides only
    assert st.parse_action("5-3, on, 5-5") == a


def test_format_puts_the_touching_half_first() -> None:
    st = domino_state("muggins", hands=[["6-4", "0-0"], ["4-1", "1-1"]])
    play(st, "6-4")
    a = st.legal_actions(1)[0]
    assert st.format_action(a) == "4-1 on 6-4"
    st = domino_state("muggins", hands=[["6-1", "0-0"], ["4-1", "2-2"]])
    play(st, "6-1")
    assert st.format_action(st.legal_actions(1)[0]) == "1-4 on 6-1"


def test_other_moves() -> None:
    st = domino_state("muggins", hands=[["6-4", "0-0"], ["1-1", "2-2"]])
    for word in ("draw", "pass", "knock", "muggins", "claim"):
        assert st.parse_action(word) == Action(word)
        assert st.format_action(Action(word)) == word
    assert st.parse_action("muggins 10") == Action("muggins", claim=10)
    assert st.parse_action("claim 5") == Action("claim", claim=5)


@pytest.mark.parametrize("text", ["", "   ", "5-", "x on y", "5-3 on", "5-3 under 5-5", "5-3 on 5-5 corner",
                                  "7-7", "5-3 on 9-9", "draw 5 6", "muggins ten", "5-3 on 5-5 end end",
                                  "lead", "5-3-2"])
def test_unreadable_moves(text: str) -> None:
    st = domino_state("muggins", hands=[["5-5", "0-0"], ["5-3", "1-1"]])
    play(st, "5-5")
    with pytest.raises(UnknownAction) as err:
        st.parse_action(text)
    assert str(err.value)


def test_big_set_tiles() -> None:
    st = domino_state("muggins", hands=[["12-3", "0-0"], ["12-12", "1-1"]], tile_set=12)
    play(st, "12-3")
    a = st.parse_action("12-12 on 12-3")
    assert st.format_action(a) == "12-12 on 12-3"
    assert play(st, "12-12 on 12-3") == [0]                   # 24 + 3 = 27
    with pytest.raises(UnknownAction):
        st.parse_action("13-1")
