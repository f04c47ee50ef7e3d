"""The table without a terminal: 80-column fit, the layout's geometry, undo, the menu, resume."""

from __future__ import annotations

import io
import itertools
import json
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest
from rich.console import Console

import muggins
from muggins.bots.registry import make_bot
from muggins.core.protocol import GameState
from muggins.core.rules import get_game
from muggins.tui.app import Options, Quit, Session, make_seats, resume
from muggins.tui.menu import run_menu
from muggins.tui.render_dominoes import UNICODE, LayoutDrawer, Placed, _key, draw_layout
from muggins.tui.table import render_table

NAMES = ["You", "Bot 1", "Bot 2", "Bot 3"]


def _positions(game: str, preset: str | None, players: int, seed: int, every: int = 3,
               options: dict[str, object] | None = None) -> Iterator[GameState]:
    """Positions of a greedy game (every few actions), for rendering checks."""
    spec = get_game(game)
    st = spec.new(spec.rules(preset, options or {}), players, seed=seed)
    bots = [make_bot("greedy", seed + i) for i in range(players)]
    n = 0
    while not st.is_over() and n < 400:
        s = min(st.waiting_for())
        a = bots[s].act(st, s) or next(x for x in st.legal_actions(s) if x.kind not in ("muggins", "claim"))
        st.apply(s, a)
        n += 1
        if n % every == 0:
            yield st


def _render(st: GameState, ascii_only: bool, color: bool = True) -> str:
    buf = io.StringIO()
    con = Console(file=buf, width=160, force_terminal=color, no_color=not color,
                  color_system="standard" if color else None)
    legal = [st.format_action(a) for a in st.legal_actions(0)]
    con.print(render_table(st, 0, NAMES[: st.num_players], hints=True, ascii_only=ascii_only, moves=legal,
                           message="Not allowed: a long message to show"))
    return buf.getvalue()


@pytest.mark.parametrize("game,preset,players,options", [
    ("dominoes", "muggins", 4, None), ("dominoes", "five-up", 4, None), ("dominoes", "muggins-spinner", 3, None),
    ("dominoes", "all-fives", 2, None), ("dominoes", "all-threes", 4, None),
    ("dominoes", "muggins-spinner", 4, {"tile_set": 15}), ("card-muggins", None, 3, None),
    ("cribbage", None, 2, None), ("cribbage", "four-hand", 4, None),
])
def test_table_fits_80_columns(game: str, preset: str | None, players: int,
                               options: dict[str, object] | None) -> None:
    """Rendered on a 160-column console, no line of the table is wider than 80 (long hands wrap,
    two-digit pips included)."""
    for st in _positions(game, preset, players, seed=11, options=options):
        for ascii_only in (False, True):
            out = _render(st, ascii_only, color=False)
            widest = max(len(line) for line in out.splitlines())
            assert widest <= 80, out
            if ascii_only:
                assert all(ord(ch) < 128 for ch in out), out


def test_no_color_render_has_no_colour_codes() -> None:
    st = next(_positions("dominoes", "muggins", 2, seed=3))
    assert "\x1b[3" in _render(st, False, color=True)
    assert "\x1b[3" not in _render(st, False, color=False)


def _tile_cells(lines: list[str]) -> int:
    return sum(line.count("[") + line.count("┌") + line.count("╔") for line in lines)


def test_every_tile_is_drawn_or_listed() -> None:
    """Each placed tile appears once: drawn on the canvas, or listed after it when it would overlap."""
    for preset in ("muggins", "five-up", "muggins-spinner", "merry-go-round"):
        for st in _positions("dominoes", preset, 4, seed=5, every=1):
            layout = st.view(0)["layout"]
            lines = draw_layout(layout, 76)
            drawn = [x for x in lines if not x.startswith("also: ")]
            listed = sum(x.count(" on ") for x in lines if x.startswith("also: "))
            assert _tile_cells(drawn) + listed == len(layout), "\n".join(lines)
            assert all(len(x) <= 76 for x in lines)


def test_spinner_arms_leave_at_right_angles() -> None:
    """A spinner set first, with tiles on all four faces: arms above and below, a line through it."""
    layout = [
        {"tile": "5-5", "on": None, "double": True, "spinner": True},
        {"tile": "5-1", "on": "5-5", "double": False, "part": "side", "slot": 0},
        {"tile": "5-2", "on": "5-5", "double": False, "part": "side", "slot": 1},
        {"tile": "5-3", "on": "5-5", "double": False, "part": "end", "slot": 2},
        {"tile": "5-4", "on": "5-5", "double": False, "part": "end", "slot": 3},
    ]
    lines = draw_layout(layout, 76, ascii_only=True)
    row = next(i for i, x in enumerate(lines) if "[1|5]|=|[5|2]" in x)  # the line through its middle
    col = lines[row].index("[1|5]") + 6
    assert lines[row - 1][col] == "5" and lines[row + 1][col] == "5"  # the spinner lies across
    assert [lines[row - k][col] for k in (2, 3, 4)] == ["5", "-", "3"]  # an arm straight up
    assert [lines[row + k][col] for k in (2, 3, 4)] == ["5", "-", "4"]  # and one straight down


def test_a_long_line_turns_at_the_edge() -> None:
    """A line longer than the screen steps down at the edge and comes back the other way."""
    chain = ["0-1", "1-2", "2-3", "3-4", "4-5", "5-6", "6-0", "0-2", "2-4", "4-6", "6-1", "1-3", "3-5", "5-0"]
    layout = [{"tile": chain[0], "on": None, "double": False}]
    for prev, t in itertools.pairwise(chain):
        layout.append({"tile": t, "on": "-".join(sorted(prev.split("-"), reverse=True)), "double": False,
                       "part": "half", "slot": 1})
    lines = draw_layout(layout, 40, ascii_only=True)
    assert len(lines) > 1 and all(len(x) <= 40 for x in lines)
    assert not any(x.startswith("also:") for x in lines)
    assert sum(x.count("[") for x in lines) + sum(x.count(".") for x in lines) // 2 == len(chain)


class Script:
    """Answers prompts from a list; the end of the list ends the input."""

    def __init__(self, answers: list[str]) -> None:
        self.answers = list(answers)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)


def _session(answers: list[str], undo: bool, save_to: Path | None = None) -> tuple[Session, Script]:
    spec = get_game("dominoes")
    st = spec.new(spec.rules("muggins"), 2, seed=21)
    script = Script(answers)
    con = Console(file=io.StringIO(), width=80)
    return Session(st, make_seats(["you", "beginner"], 21), con, Options(undo=undo, save_to=save_to),
                   ask=script), script


def test_undo_takes_back_to_the_persons_previous_move() -> None:
    s, _ = _session(["1", "1"], undo=True)
    with pytest.raises(Quit):
        s._loop()
    mine = [i for i, (seat, a) in enumerate(s.st.history) if seat == 0 and a.kind == "play"]
    assert len(mine) == 2
    s.ask = Script(["undo"])
    s._human_turn(0)
    assert len([1 for seat, a in s.st.history if seat == 0 and a.kind == "play"]) == 1
    assert len(s.st.history) == mine[1]


def test_undo_is_refused_unless_enabled() -> None:
    s, _ = _session(["1", "undo"], undo=False)
    with pytest.raises(Quit):
        s._loop()
    assert "Undo is off" in s.console.file.getvalue()  # type: ignore[attr-defined]
    assert sum(1 for seat, a in s.st.history if seat == 0 and a.kind == "play") == 1


def test_menu_builds_the_seats() -> None:
    con = Console(file=io.StringIO(), width=80)
    script = Script(["3", "x", "", "", "4", "", "2"])
    choice = run_menu(con, ask=script)
    assert choice.game == "cribbage" and choice.preset == "cribbage" and choice.players == 2
    assert choice.seats == ["you", "expert"] and choice.hints is True
    assert "Please type a number" in con.file.getvalue()  # type: ignore[attr-defined]


def test_resume_restores_seats_and_position(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    s, _ = _session(["1", "1", "q"], undo=False, save_to=path)
    s.run()
    schema = json.loads((Path(muggins.__file__).parent / "schemas" / "record.schema.json").read_text())
    jsonschema.validate(json.loads(path.read_text()), schema)
    st, seats = resume(path, seed=99)
    assert [x.level for x in seats] == [None, "beginner"]
    assert st.view(0)["my_hand"] == s.st.view(0)["my_hand"]
    assert st.history == s.st.history


def test_count_shown_only_with_hints() -> None:
    for st in _positions("dominoes", "muggins", 2, seed=4):
        buf = io.StringIO()
        con = Console(file=buf, width=80)
        con.print(render_table(st, 0, NAMES[:2], hints=False))
        con.print(render_table(st, 0, NAMES[:2], hints=True))
        plain, hinted = buf.getvalue().split("target", 2)[1], buf.getvalue().split("target", 2)[2]
        assert "Count:" not in plain
        assert f"Count: {st.count}" in hinted  # type: ignore[attr-defined]


def test_the_person_reads_the_hand_result_before_the_next_deal() -> None:
    s, script = _session(["1"] * 400, undo=False)
    s.run()
    assert "Enter for the next hand> " in script.prompts
    assert any(e.kind == "hand_end" for e in s.st.log)


@pytest.mark.parametrize("preset,players", [("muggins", 2), ("muggins", 4), ("muggins-spinner", 2),
                                            ("five-up", 4)])
def test_table_and_prompt_fit_24_rows(preset: str, players: int) -> None:
    """Every position of a whole game leaves room for the prompt line on a 24-row terminal."""
    for st in _positions("dominoes", preset, players, seed=7, every=1):
        buf = io.StringIO()
        Console(file=buf, width=80).print(render_table(
            st, 0, NAMES[:players], moves=[st.format_action(a) for a in st.legal_actions(0)]))
        assert buf.getvalue().count("\n") + 1 <= 24, buf.getvalue()


FORGETFUL = "casual:vigilance=1:forget=0.9:under_claim=0.1"


def test_a_person_calls_muggins_before_the_next_bot_acts() -> None:
    """Three players: after bot 1's forgotten points the person is asked before bot 2 moves, and
    'm' takes the points."""
    spec = get_game("dominoes")
    st = spec.new(spec.rules("muggins"), 3, seed=2)
    prompts: list[str] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > 300 or prompt.startswith("Enter for the next hand"):
            raise EOFError
        return "m" if "call Muggins!" in prompt else "1"

    s = Session(st, make_seats(["you", FORGETFUL, FORGETFUL], 2), Console(file=io.StringIO(), width=80),
                Options(), ask=answer)
    s.run()
    window = [p for p in prompts if "call Muggins!" in p]
    assert window, "the person was never offered a call"
    calls = [e.to_dict() for e in st.log if e.kind == "muggins" and e.seat == 0]
    assert calls and any(c["outcome"] != "false_call" and c["points"] > 0 for c in calls)
    # every call by the person came in a window opened by a bot, before the next regular action
    for i, (seat, a) in enumerate(st.history):
        if seat == 0 and a.kind == "muggins":
            assert st.history[i - 1][0] != 0


def test_two_people_share_the_keyboard() -> None:
    spec = get_game("dominoes")
    st = spec.new(spec.rules("muggins"), 3, seed=6)
    prompts: list[str] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > 40:
            raise EOFError
        return "" if "call Muggins!" in prompt or "Pass the keyboard" in prompt else "1"

    seats = make_seats(["you", "human", "beginner"], 6)
    assert [x.name for x in seats[:2]] == ["Player 1", "Player 2"]
    Session(st, seats, Console(file=io.StringIO(), width=80), Options(), ask=answer).run()
    assert any(p.startswith("Pass the keyboard to Player 2") for p in prompts)
    assert any(p.startswith("Player 1, your move") for p in prompts)
    assert {seat for seat, _ in st.history} == {0, 1, 2}


@pytest.mark.parametrize("args,message", [
    (["--players", "9"], "is for 2-4 players; got 9"),
    (["--bot", "wizard"], "unknown bot"),
    (["--seats", "casual,expert"], "at least one seat must be a person"),
    (["--seats", "you,omniscient"], "for measuring"),
    (["--resume", "/nonexistent/game.json"], "cannot read"),
    (["--game", "chess"], "chess"),
])
def test_play_rejects_bad_setups_with_a_clear_message(args: list[str], message: str) -> None:
    from typer.testing import CliRunner

    from muggins.cli.main import app

    res = CliRunner().invoke(app, ["play", *args], input="")
    assert res.exit_code == 2
    assert message in " ".join(res.output.split()), res.output


def _touch(a: Placed, b: Placed) -> bool:
    """Two boxes share part of an edge (neither overlapping nor apart)."""
    ox = min(a.x + a.w, b.x + b.w) - max(a.x, b.x)
    oy = min(a.y + a.h, b.y + b.h) - max(a.y, b.y)
    return (ox == 0 and oy > 0) or (oy == 0 and ox > 0)


@pytest.mark.parametrize("preset", ["muggins", "muggins-spinner", "five-up", "sniff", "merry-go-round"])
def test_every_tile_touches_the_tile_it_was_played_on(preset: str) -> None:
    """The drawing is the true layout: each tile's box shares an edge with its parent's box. A tile with
    no room left (a crowded spinner at the edge of the screen) is listed after the drawing, never lost,
    and that stays rare."""
    crowded = positions = 0
    for st in _positions("dominoes", preset, 4, seed=1, every=1):
        layout = st.view(0)["layout"]
        drawer = LayoutDrawer(layout, 76, UNICODE)
        drawer.draw()
        listed = {x.split(" on ")[0] for x in drawer.unplaced}
        positions += 1
        crowded += bool(listed)
        assert len(listed) == len(drawer.unplaced)
        for e in layout:
            if e["tile"] in listed:
                assert _key(e["tile"]) not in drawer.placed
            elif e.get("on"):
                child, parent = drawer.placed[_key(e["tile"])], drawer.placed[_key(e["on"])]
                assert _touch(child, parent), (e, child, parent)
            else:
                assert _key(e["tile"]) in drawer.placed  # the set tile is always drawn
    assert crowded <= 0.05 * positions, (crowded, positions)
