"""``muggins play`` and ``muggins replay --step`` driven through a pseudo-terminal, as a person would."""

from __future__ import annotations

import json
import os
import re
import signal
import sys
from pathlib import Path

import pexpect

from muggins.core.records import replay

MOVE = r"your move> "
WINDOW = r"to call Muggins!, Enter to go on> "
# a bot that almost always forgets to announce (so a person can steal) and always calls a person's miss
FORGETFUL = "casual:vigilance=1:forget=0.9:under_claim=0.1"


def _as_from_a_terminal() -> None:
    """The program starts as a person's shell starts it: Ctrl-C not ignored. A test run started in the
    background by a script (``cmd &`` in a non-interactive shell) inherits SIGINT ignored, and so would the
    program, which would never see the Ctrl-C the test sends."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(*args: str, env: dict[str, str] | None = None) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-m", "muggins", *args], encoding="utf-8", timeout=60,
                         dimensions=(24, 80), env={**os.environ, **(env or {})}, preexec_fn=_as_from_a_terminal)


def stop(child: pexpect.spawn) -> None:
    """Quit, confirming, and wait for the program to end."""
    child.sendline("q")
    child.expect("Stop the game")
    child.sendline("y")
    child.expect(pexpect.EOF)


def test_full_hand_with_a_muggins_call_each_way(tmp_path: Path) -> None:
    """A person plays a whole hand announcing nothing: the bot calls Muggins! on the person's points,
    and the person calls Muggins! on the bot's forgotten points and takes them."""
    save_to = tmp_path / "hand.json"
    child = spawn("play", "--seed", "3", "--hands", "1", "--seats", f"you,{FORGETFUL}", "--ascii",
                  "--save", str(save_to))
    stole = False
    seen = ""
    for _ in range(300):
        i = child.expect([MOVE, WINDOW, pexpect.EOF])
        seen += child.before or ""
        if i == 2:
            break
        moves = (child.before or "").split("Your hand:")[-1]
        if "muggins" in moves and not stole:
            child.sendline("m")
            stole = True
        else:
            child.sendline("1" if i == 0 else "")
    else:
        raise AssertionError("the hand did not end")
    assert stole
    assert "You called Muggins! on" in seen
    assert "Casual Otter called Muggins! on You" in seen
    assert "Not allowed" not in seen
    assert re.search(r"Hand 1 ends", seen)
    log = [e.to_dict() for e in replay(json.loads(save_to.read_text())).log]
    mine = [e for e in log if e["kind"] == "muggins" and e["seat"] == 0]
    theirs = [e for e in log if e["kind"] == "muggins" and e["seat"] == 1]
    assert any(e["outcome"] != "false_call" and e["points"] > 0 for e in mine)
    assert any(e["outcome"] != "false_call" and e["on"] == 0 for e in theirs)
    assert any(e["kind"] == "hand_end" for e in log)


def test_bad_keystrokes_reprompt_and_never_crash() -> None:
    child = spawn("play", "--seed", "5", "--ascii")
    for junk in ("zzz", "99", "", "1 2 3", "on on on", "\x1b[A", "help", "undo", "5-5 on 9-9"):
        child.expect(MOVE)
        child.sendline(junk)
    child.expect(MOVE)
    screen = child.before or ""
    assert "Not allowed" in screen or "Undo is off" in screen or "Type a move" in screen
    child.sendintr()  # Ctrl-C asks first; Enter plays on
    child.expect("Stop the game")
    child.sendline("")
    child.expect(MOVE)
    child.sendline("quit")
    child.expect("Stop the game")
    child.sendline("n")
    child.expect(MOVE)
    child.sendline("1")
    child.expect([MOVE, WINDOW])
    stop(child)
    assert "Game stopped." in (child.before or "")
    assert "Traceback" not in (child.before or "")


def _play_moves(child: pexpect.spawn, n: int) -> str:
    screen = ""
    for _ in range(n):
        i = child.expect([MOVE, WINDOW])
        screen = child.before or ""
        assert "Not allowed" not in screen
        child.sendline("1" if i == 0 else "")
    child.expect([MOVE, WINDOW])
    return child.before or ""


def test_card_muggins_plays_a_few_moves() -> None:
    child = spawn("play", "--game", "card-muggins", "--seed", "2", "--ascii")
    screen = _play_moves(child, 3)  # the bots may win quickly: the player never announces
    assert "Running total:" in screen and "Stock:" in screen and "Pile:" in screen
    stop(child)


def test_cribbage_plays_a_few_moves() -> None:
    child = spawn("play", "--game", "cribbage", "--seed", "2", "--ascii")
    screen = _play_moves(child, 5)
    assert "The play:" in screen and "starter" in screen
    stop(child)


def test_save_then_resume_continues_the_same_game(tmp_path: Path) -> None:
    save_to = tmp_path / "g.json"
    child = spawn("play", "--seed", "8", "--ascii", "--save", str(save_to))
    before = _play_moves(child, 3)
    hand = re.findall(r"Your hand: ([^\r\n]*)", before)[-1]
    stop(child)
    first = json.loads(save_to.read_text())
    assert first["actions"]
    again = spawn("play", "--resume", str(save_to), "--ascii", "--save", str(save_to))
    again.expect([MOVE, WINDOW])
    assert re.findall(r"Your hand: ([^\r\n]*)", again.before or "")[-1] == hand
    again.sendline("1")
    again.expect([MOVE, WINDOW])
    stop(again)
    second = json.loads(save_to.read_text())
    assert second["actions"][: len(first["actions"])] == first["actions"]
    assert len(second["actions"]) > len(first["actions"])
    assert second["chance"][: len(first["chance"])] == first["chance"]


def test_replay_step_advances(tmp_path: Path) -> None:
    save_to = tmp_path / "g.json"
    child = spawn("play", "--seed", "4", "--ascii", "--save", str(save_to))
    _play_moves(child, 2)
    stop(child)
    n = len(json.loads(save_to.read_text())["actions"])
    viewer = spawn("replay", str(save_to), "--step", "--ascii")
    viewer.expect(f"action 0 of {n}")
    viewer.expect("next action")
    viewer.sendline("")
    viewer.expect(f"action 1 of {n}")
    viewer.expect("next action")
    screen = viewer.before or ""
    assert "You: [" in screen and "Casual Otter: [" in screen  # a record hides nothing: every hand shows
    assert " played " in screen
    viewer.sendline("q")
    viewer.expect(pexpect.EOF)


def test_no_color_output_has_no_colour_codes() -> None:
    colour = re.compile(r"\x1b\[[0-9;]*(?:3[0-9]|9[0-7]|4[0-9]|10[0-7])(?:;[0-9;]*)?m")
    plain = spawn("play", "--seed", "5", "--ascii", env={"NO_COLOR": "1", "TERM": "xterm-256color"})
    plain.expect(MOVE)
    plain.sendline("zzz")
    plain.expect(MOVE)
    assert "Not allowed" in (plain.before or "")
    assert not colour.search(plain.before or "")
    stop(plain)
    flag = spawn("play", "--seed", "5", "--ascii", "--no-color", env={"TERM": "xterm-256color"})
    flag.expect(MOVE)
    assert not colour.search(flag.before or "")
    stop(flag)
    coloured = spawn("play", "--seed", "5", "--ascii", env={"TERM": "xterm-256color"})
    coloured.expect(MOVE)
    assert colour.search(coloured.before or ""), "the control run should be in colour"
    stop(coloured)


def test_no_arguments_start_muggins_against_a_casual_bot() -> None:
    child = spawn("play")
    child.expect(MOVE)
    screen = child.before or ""
    assert "dominoes / muggins" in screen and "Casual Otter" in screen and "target 200" in screen
    assert "Count:" not in screen  # counting is the player's job without --hints
    stop(child)


def test_menu_chooses_game_preset_and_seats() -> None:
    child = spawn("play", "--menu", "--seed", "1", "--ascii")
    for answer in ("2", "", "2", "1", "", ""):  # card-muggins, default preset, 3 players, beginner bots
        child.expect("> ")
        child.sendline(answer)
    child.expect(MOVE)
    screen = child.before or ""
    assert "card-muggins / muggins" in screen and "Beginner Wren" in screen
    stop(child)


def test_a_terminal_without_utf8_gets_ascii_tiles() -> None:
    child = spawn("play", "--seed", "5", env={"PYTHONIOENCODING": "ascii", "LANG": "C", "LC_ALL": "C"})
    child.expect(MOVE)
    screen = child.before or ""
    assert "Your hand: [" in screen and "|" in screen
    assert all(ord(ch) < 128 for ch in screen)
    stop(child)


def test_undo_against_bots_restores_the_hand() -> None:
    child = spawn("play", "--seed", "5", "--ascii", "--undo")
    child.expect(MOVE)
    first = re.findall(r"Your hand: ([^\r\n]*)", child.before or "")[-1]
    child.sendline("1")
    child.expect([MOVE, WINDOW])
    assert re.findall(r"Your hand: ([^\r\n]*)", child.before or "")[-1] != first
    child.sendline("undo")
    child.expect(MOVE)
    assert "Took back your last move." in (child.before or "")
    assert re.findall(r"Your hand: ([^\r\n]*)", child.before or "")[-1] == first
    stop(child)
