"""A game the terminal has never heard of (count to 21, registered only by this test) played whole at
the terminal through a pseudo-terminal, with the generic renderer: the view's fields, the numbered
moves, announcements, Muggins! calls and the end of each round."""

from __future__ import annotations

import io
import os
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest
from rich.console import Console

from muggins.core.rules import GameSpec
from muggins.tui.renderer import TerminalRenderer, renderer_for
from muggins.tui.table import render_table
from tests.toy import NAME, toy_registered

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
PROMPTS = [
    r"your move> ",  # 0
    r"m \+ Enter to call Muggins!, Enter to go on> ",  # 1
    r"claim N \+ Enter to claim your points, Enter to go on> ",  # 2
    r"Enter for the next round> ",  # 3
    r"Stop the game",  # 4
    pexpect.EOF,  # 5
    pexpect.TIMEOUT,  # 6
    r"Analyse this game\? \[y/N\] ",  # 7: at the end of a game played at a terminal
]
TOTAL = re.compile(r"Total: (\d+)")
MOVE = re.compile(r"(\d+)\) add (\d)")
CALL = re.compile(r"(\d+)\) muggins")


@pytest.fixture
def toy() -> Iterator[GameSpec]:
    with toy_registered() as spec:
        yield spec


def test_the_toy_game_gets_the_generic_renderer(toy: GameSpec) -> None:
    st = toy.new(toy.rules("toy"), 2, seed=1)
    assert type(renderer_for(NAME)) is TerminalRenderer
    st.apply(st.turn, st.parse_action("add 3"))
    con = Console(file=io.StringIO(), width=80)
    con.print(render_table(st, 0, ["You", "North"], moves=["add 1", "add 2", "add 3"]), highlight=False)
    screen = con.file.getvalue()  # type: ignore[attr-defined]
    assert "Total: 3" in screen and "Round: 1" in screen and "1) add 1  2) add 2  3) add 3" in screen
    assert "played 3, total 3" in screen  # the play, in the log, as the sentence every play gets


def test_a_whole_toy_game_at_the_terminal(toy: GameSpec) -> None:
    # the command line in a child process finds the toy game (registered nowhere else) by MUGGINS_GAMES
    child = pexpect.spawn(sys.executable, ["-m", "muggins", "play", "--ascii", "--game", NAME, "--preset", "toy",
                                           "--seats", "you,casual", "--seed", "5"],
                          encoding="utf-8", timeout=30, dimensions=(24, 80), cwd=str(ROOT),
                          env={**os.environ, "NO_COLOR": "1", "MUGGINS_GAMES": "tests.toy",
                               "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}"})
    rng = random.Random(7)
    moves = calls = rounds = silent = 0
    seen_fields = False
    ended = ""  # the screen before the analysis is offered
    for _ in range(400):
        i = child.expect(PROMPTS)
        screen = ANSI.sub("", child.before or "").replace("\r", "")
        if i == 7:  # the analysis is offered: decline
            ended = screen
            child.sendline("")
            continue
        if i >= 4:
            break
        if i == 0:
            total = int(TOTAL.findall(screen)[-1])
            listed = {int(add): int(number) for number, add in MOVE.findall(screen)}
            assert sorted(listed) == [1, 2, 3], screen
            seen_fields = seen_fields or ("Round:" in screen and "target 10" in screen)
            call = CALL.search(screen)
            if call and rng.random() < 0.5:  # the bot's play scored: call Muggins! on it (its move number)
                calls += 1
                child.sendline(call.group(1))
                continue
            scoring = [a for a in listed if (total + a) % 5 == 0]
            add = scoring[0] if scoring else rng.choice(sorted(listed))
            points = (total + add) // 5 if scoring else 0
            if points and rng.random() < 0.3:  # say nothing now and then: the bot may mug it
                silent += 1
                child.sendline(str(listed[add]))
            else:
                child.sendline(f"{listed[add]} {points}" if points else str(listed[add]))
            moves += 1
        elif i == 1:
            call = rng.random() < 0.5
            calls += call
            child.sendline("m" if call else "")
        elif i == 2:
            child.sendline("")
        elif i == 3:
            rounds += 1
            assert "Round" in screen and "is over" in screen, screen
            child.sendline("")
    rest = ANSI.sub("", child.read() if child.isalive() else (child.before or ""))
    child.close()
    assert i == 5, f"the game stopped at prompt {i}"
    assert "Game over - won by" in ended, (ended, rest)
    assert moves >= 5 and rounds >= 1 and seen_fields
    assert calls >= 1  # a call was offered after a bot's scoring play and made
