"""Rendering without a terminal: doubles across their line and framed apart from upright tiles, the open
ends by value, the event list keeping what matters, and every screen within 80 columns by 24 rows (the
prompt line included), big layouts too."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from rich.console import Console

from muggins.bots.registry import make_bot
from muggins.core.protocol import Event, GameState
from muggins.core.rules import get_game
from muggins.tui.app import OPTIONAL, Options, Session, make_seats
from muggins.tui.render_cards import cribbage_lines
from muggins.tui.render_dominoes import ASCII, UNICODE, LayoutDrawer, _key, draw_layout
from muggins.tui.table import make_hand_end, recent_events, render_hand_end, render_table

NAMES = ["You", "Bot 1", "Bot 2", "Bot 3", "Bot 4", "Bot 5"]
ARM_DOUBLE = [
    {"tile": "5-5", "on": None, "double": True, "spinner": True},
    {"tile": "5-1", "on": "5-5", "double": False, "part": "side", "slot": 0},
    {"tile": "5-2", "on": "5-5", "double": False, "part": "side", "slot": 1},
    {"tile": "5-3", "on": "5-5", "double": False, "part": "end", "slot": 2},
    {"tile": "3-3", "on": "3-5", "double": True, "part": "half", "slot": 1},
    {"tile": "3-6", "on": "3-3", "double": False, "part": "side", "slot": 1},
    {"tile": "6-2", "on": "6-3", "double": False, "part": "half", "slot": 1},
]


def _games(preset: str, players: int, seed: int, options: dict[str, object] | None = None,
           every: int = 1) -> Iterator[tuple[GameState, GameState, int, Any]]:
    """(state after, state before, seat, action) through a greedy game."""
    spec = get_game("dominoes")
    st = spec.new(spec.rules(preset, options or {}), players, seed=seed)
    bots = [make_bot("greedy", seed + i) for i in range(players)]
    n = 0
    while not st.is_over() and n < 500:
        s = min(st.waiting_for())
        a = bots[s].act(st, s) or next(x for x in st.legal_actions(s) if x.kind not in OPTIONAL)
        before = st.clone()
        st.apply(s, a)
        n += 1
        if n % every == 0:
            yield st, before, s, a


def test_a_double_on_a_vertical_arm_lies_across_it() -> None:
    lines = draw_layout(ARM_DOUBLE, 76, ascii_only=True)
    row = next(i for i, x in enumerate(lines) if "[3=3]" in x)
    col = lines[row].index("[3=3]") + 2  # the middle of the double
    assert [lines[row + k][col] for k in (1, 2, 3)] == ["3", "-", "5"]  # 5-3 standing under it
    assert [lines[row - k][col] for k in (3, 2, 1)] == ["6", "-", "3"]  # the arm goes on straight past it
    assert "[2|6]" in lines[row - 3] or "[6|2]" in lines[row - 3]  # and turns after the next tile


def test_doubles_are_framed_apart_from_upright_tiles() -> None:
    for preset in ("muggins-spinner", "five-up", "merry-go-round"):
        for st, _, _, _ in _games(preset, 4, 3, every=5):
            layout = st.view(None)["layout"]
            for glyphs in (UNICODE, ASCII):
                d = LayoutDrawer(layout, 76, glyphs)
                d.draw()
                double = glyphs.double
                assert double is not None
                for e in layout:
                    p = d.placed.get(_key(e["tile"]))
                    if p is None:
                        continue
                    divider = d.canvas.cells[(p.x + 1, p.y + 1)] if p.h == 3 else d.canvas.cells[(p.x + 2, p.y)]
                    if p.h == 1 and len(e["tile"]) > 3:
                        continue  # a two-digit tile lying flat: its divider is further in
                    mark = double.divider[1] if p.h == 3 else double.mid
                    assert (divider == mark) == bool(e["double"]), (e, divider)


def test_open_ends_are_listed_by_value_and_counted_only_with_hints() -> None:
    for st, _, _, _ in _games("muggins", 2, 4, every=4):
        v = st.view(0)
        values = [str(e["value"]) for e in v["open_ends"]]
        for hints in (False, True):
            buf = io.StringIO()
            Console(file=buf, width=80).print(render_table(st, 0, NAMES[:2], hints=hints))
            line = next(x for x in buf.getvalue().splitlines() if "Open ends:" in x)
            listed = line.split("Open ends:")[1].split("Count")[0].strip(" │").split()
            assert [x.split("-")[0] for x in listed] == values or (not values and listed == ["-"])
            assert ("Count:" in buf.getvalue()) == hints
            if hints:
                assert f"Count: {st.count}" in buf.getvalue()  # type: ignore[attr-defined]


def _rows(renderable: Any) -> list[str]:
    buf = io.StringIO()
    Console(file=buf, width=80).print(renderable)
    return buf.getvalue().rstrip("\n").split("\n")


@pytest.mark.parametrize("preset,players,options,seed", [
    ("muggins-spinner", 4, {"tile_set": 9}, 4), ("five-up", 6, {"tile_set": 12}, 4),
    ("muggins-spinner", 6, {"tile_set": 15}, 1), ("merry-go-round", 4, None, 2), ("seven-toed-pete", 4, None, 1),
    ("five-up", 2, {"tile_set": 9}, 8),
])
def test_big_layouts_keep_the_screen_within_24_rows(preset: str, players: int, options: dict[str, object] | None,
                                                     seed: int) -> None:
    """With the longest move list and a two-line message, every position of a game and every end of a
    hand fits 80 columns and 23 rows, leaving the 24th for the prompt; a cut drawing says so."""
    tallest = cut = ends = 0
    message = "Not allowed: a message as long as a whole line of the screen, more or less\nand a second line"
    for st, before, seat, action in _games(preset, players, seed, options):
        layout = st.view(None)["layout"]
        tallest = max(tallest, len(draw_layout(layout, 76)))
        for viewer in (0, None):
            moves = [st.format_action(a) for a in st.legal_actions(0)] if viewer == 0 else None
            rows = _rows(render_table(st, viewer, NAMES[:players], hints=True, moves=moves, message=message))
            assert len(rows) <= 23, "\n".join(rows)
            assert max(len(r) for r in rows) <= 80
            cut += any("not shown" in r for r in rows)
        if any(e.kind == "hand_end" for e in st.log[len(before.log):]):
            end = make_hand_end(st, before, seat, action, len(before.log), NAMES[:players], False)
            rows = _rows(render_hand_end(st, end, NAMES[:players], message=message))
            assert len(rows) <= 23 and max(len(r) for r in rows) <= 80, "\n".join(rows)
            ends += 1
    assert tallest > 14 and cut > 0 and ends > 0  # the layouts were big enough to need it


def test_the_event_list_keeps_scores_and_calls_before_draws() -> None:
    class Log:
        game = "dominoes"

        def __init__(self, events: list[Event]) -> None:
            self.log = events

        def events_for(self, viewer: int | None, start: int = 0) -> list[dict[str, Any]]:
            return [e.to_dict(viewer) for e in self.log[start:]]

    events = [Event("play", 0, {"tile": "5-5", "on": "5-0"}),
              Event("muggins", 1, {"on": 0, "outcome": "steal", "points": 10}),
              Event("score", 1, {"side": 1, "points": 10, "reason": "muggins"})]
    events += [Event("draw", 1, {"tile": f"{k}-0"}, ("tile",)) for k in range(1, 7)]
    events += [Event("play", 1, {"tile": "6-5", "on": "5-5"})]
    st = Log(events)
    shown = recent_events(st, 0, NAMES[:2], 3)  # type: ignore[arg-type]
    assert shown == ["Bot 1 called Muggins! on You: steal 10", "Bot 1 scored +10 (muggins)",
                     "Bot 1 played 6-5 on 5-5"]
    roomy = recent_events(st, 0, NAMES[:2], 5)  # type: ignore[arg-type]
    assert "Bot 1 drew 6 tiles" in roomy  # the draws are one line, their tiles hidden from seat 0
    assert "Bot 1 drew 1-0, 2-0, 3-0, 4-0, 5-0, 6-0" in recent_events(st, 1, NAMES[:2], 5)  # type: ignore[arg-type]


def test_cribbage_shows_say_your_hand_and_your_crib() -> None:
    spec = get_game("cribbage")
    st = spec.new(spec.rules(None), 2, seed=5)
    while st.view(None)["hand"] == 1:
        seat = min(st.waiting_for())
        st.apply(seat, next(a for a in st.legal_actions(seat) if a.kind not in OPTIONAL))
    text = "\n".join(cribbage_lines(st.view(0), True, ["You", "North"]))
    assert "Your hand" in text and ("Your crib" in text or "North's crib" in text) and "North's hand" in text
    assert "You hand" not in text and "You crib" not in text


def test_the_pass_screen_and_the_end_of_a_hand_hold_no_hand() -> None:
    """At a shared keyboard the screens drawn for nobody show no hand; a screen for the wrong person is
    refused outright."""
    spec = get_game("dominoes")
    st = spec.new(spec.rules("muggins"), 3, seed=6)
    out = io.StringIO()
    s = Session(st, make_seats(["you", "human", "beginner"], 6), Console(file=out, width=80), Options())
    s.holder = 0
    with pytest.raises(AssertionError):
        s.draw(1)
    s.holder = None
    s.draw(None)
    assert "Your hand" not in out.getvalue()
