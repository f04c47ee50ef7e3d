"""``muggins play --hints`` through a pseudo-terminal: the count of the ends and the move the bot would
make, for the person at the keyboard only."""

from __future__ import annotations

import os
import re
import sys

import pexpect

from muggins.core.rules import get_game
from muggins.tui.app import hint_text
from tests.tui.test_hot_seat import ANSI, PROMPTS
from tests.tui.test_play_terminal import MOVE, spawn, stop

HINT = re.compile(r"Hint: the bot would (?:play )?(.+?), ([+-]\d+\.\d) points expected this hand\.")
LISTED = re.compile(r"\d+\) (.+?)(?=\s{2}\d+\)|\n|$)")


def test_the_hint_is_a_listed_move_and_the_same_as_computed_here() -> None:
    child = spawn("play", "--seed", "5", "--ascii", "--hints", env={"NO_COLOR": "1"})
    child.expect(MOVE)
    screen = ANSI.sub("", child.before or "")
    found = HINT.search(screen)
    assert found, screen
    listed = [m.strip() for m in LISTED.findall(screen.split("Your hand:")[-1])]
    assert found.group(1) in listed, (found.group(1), listed)
    assert "Count: 0" in screen
    # seat 0 leads the first hand of seed 5: the same position here gives the same hint
    spec = get_game("dominoes")
    st = spec.new(spec.rules(None, {}), 2, seed=5)
    assert hint_text(st, 0) == found.group(0)
    stop(child)


def test_no_hint_without_the_flag() -> None:
    child = spawn("play", "--seed", "5", "--ascii", env={"NO_COLOR": "1"})
    child.expect(MOVE)
    assert "Hint:" not in (child.before or "")
    stop(child)


def test_hot_seat_hints_only_for_the_person_at_the_keyboard_after_the_pass_screen() -> None:
    child = pexpect.spawn(sys.executable, ["-m", "muggins", "play", "--ascii", "--hints", "--seats", "you,human",
                                           "--seed", "4"], encoding="utf-8", timeout=30, dimensions=(24, 80),
                          env={**os.environ, "NO_COLOR": "1"})
    hinted: set[str] = set()
    passes = 0
    for _ in range(12):
        i = child.expect(PROMPTS)
        screen = ANSI.sub("", child.before or "")
        if i >= 7:
            break
        if i == 0:  # the pass screen: nothing of anybody's, no hint
            assert "Hint:" not in screen and "Your hand:" not in screen
            passes += 1
        elif i == 1:  # a person's move after the keyboard was passed: the hint is his
            assert HINT.search(screen), screen
            hinted.add(child.match.group(1))
        else:  # a muggins moment is no turn: no hint
            assert "Hint:" not in screen
        child.sendline("1" if i == 1 else "")
    child.close(force=True)
    assert hinted == {"Player 1", "Player 2"} and passes >= 2
