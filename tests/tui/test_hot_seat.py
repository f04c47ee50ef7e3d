"""Several people at one keyboard, through a pseudo-terminal: no screen shown while one person is at the
keyboard holds another person's hand.

The script plays like the people would: it answers every prompt, passes the keyboard when asked, and now
and then calls Muggins!. Who is at the keyboard is what the screens say: the person a "Pass the keyboard
to ..." screen names, or the person a prompt names. Every screen between two prompts is read for the
"Your hand:" lines; the tiles or cards on them belong to the person at the keyboard, so within one hand
they must never be tiles or cards another person was shown as his own."""

from __future__ import annotations

import os
import random
import re
import sys
from dataclasses import dataclass, field

import pexpect
import pytest

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
PROMPTS = [
    r"Pass the keyboard to (Player \d+); Enter when ready> ",  # 0
    r"(Player \d+), your move> ",  # 1
    r"(Player \d+): m \+ Enter to call Muggins!, Enter to go on> ",  # 2
    r"(Player \d+): claim N \+ Enter to claim your points, Enter to go on> ",  # 3
    r"m \+ Enter to call Muggins!, Enter to go on> ",  # 4: names nobody
    r"Enter for the next \w+> ",  # 5
    r"Hand over - Enter for the next hand> ",  # 6
    r"Stop the game",  # 7
    pexpect.EOF,  # 8
    pexpect.TIMEOUT,  # 9
]
TILE = re.compile(r"\[(\d+)\|(\d+)\]")
CARD = re.compile(r"(?<![\w-])(10|[2-9TJQKA])([SHDC])(?!\w)")
HAND_NUMBER = re.compile(r"Hand (\d+)   Boneyard|Round (\d+), dealer|--- Hand (\d+) ---")


def hand_pieces(screen: str) -> set[str]:
    """The tiles or cards on the screen's "Your hand:" lines (a long hand goes on over indented lines)."""
    pieces: set[str] = set()
    lines = screen.splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("Your hand:"):
            continue
        block = [line[len("Your hand:"):]]
        block += [x for x in lines[i + 1:i + 3] if x.startswith(" " * 11) and x.strip()]
        text = " ".join(block)
        pieces.update(f"{max(int(a), int(b))}-{min(int(a), int(b))}" for a, b in TILE.findall(text))
        pieces.update(rank + suit for rank, suit in CARD.findall(text))
    return pieces


@dataclass
class Watch:
    """What each person was shown as his own in each hand, and every leak found."""

    holder: str = "Player 1"
    number: int = 1
    seen: dict[tuple[str, int], set[str]] = field(default_factory=dict)
    leaks: list[str] = field(default_factory=list)
    screens: int = 0

    def screen(self, raw: str, asked: str | None, pass_screen: bool) -> None:
        text = ANSI.sub("", raw).replace("\r", "")
        for m in HAND_NUMBER.finditer(text):
            self.number = int(next(g for g in m.groups() if g))
        pieces = hand_pieces(text)
        self.screens += 1
        if pass_screen and pieces:
            self.leaks.append(f"a pass screen shows a hand: {sorted(pieces)}")
        who = asked or self.holder
        if pieces and who != self.holder:
            self.leaks.append(f"{who} is asked while {self.holder} holds the keyboard: {sorted(pieces)}")
        for (person, number), theirs in self.seen.items():
            if number == self.number and person != self.holder and pieces & theirs:
                self.leaks.append(f"hand {number}: {self.holder} at the keyboard is shown "
                                  f"{sorted(pieces & theirs)} of {person}'s hand")
        self.seen.setdefault((self.holder, self.number), set()).update(pieces)


def play(args: list[str], prompts: int, seed: int) -> Watch:
    """Answer up to ``prompts`` prompts of a hot-seat game (or until it ends) and watch every screen."""
    child = pexpect.spawn(sys.executable, ["-m", "muggins", "play", "--ascii", *args], encoding="utf-8",
                          timeout=30, dimensions=(24, 80), env={**os.environ, "NO_COLOR": "1"})
    rng = random.Random(seed)
    watch = Watch()
    for _ in range(prompts):
        i = child.expect(PROMPTS)
        if i >= 8:
            break
        named = child.match.group(1) if i in (0, 1, 2, 3) else None
        watch.screen(child.before or "", None if i == 0 else named, pass_screen=i == 0)
        if i == 0:
            watch.holder = named
            child.sendline("")
        elif i == 1:
            watch.holder = named or watch.holder
            child.sendline("1")
        elif i in (2, 4):
            child.sendline("m" if rng.random() < 0.3 else "")
        elif i == 7:
            child.sendline("")
        else:
            child.sendline("")
    child.close(force=True)
    return watch


CASES = [
    (["--seats", "you,human,casual", "--game", "dominoes"], 3),
    (["--seats", "you,human", "--game", "dominoes", "--preset", "seven-toed-pete"], 11),
    (["--seats", "you,human,casual", "--game", "card-muggins"], 2),
]


@pytest.mark.parametrize("args,seed", CASES)
def test_no_screen_shows_another_persons_hand(args: list[str], seed: int) -> None:
    watch = play([*args, "--seed", str(seed)], 120, seed)
    assert watch.screens > 20
    assert len({p for p, _ in watch.seen}) == 2, watch.seen.keys()  # both people were shown their hands
    assert not watch.leaks, watch.leaks[:5]


@pytest.mark.slow
@pytest.mark.parametrize("args", [c[0] for c in CASES])
@pytest.mark.parametrize("seed", [5, 8, 13])
def test_whole_hot_seat_games_never_show_another_persons_hand(args: list[str], seed: int) -> None:
    watch = play([*args, "--seed", str(seed)], 3000, seed)
    assert not watch.leaks, watch.leaks[:5]


def test_the_watch_sees_a_leak() -> None:
    """The check itself: a screen at Player 2's prompt with a tile Player 1 was shown is a leak."""
    watch = Watch()
    watch.screen("Hand 1   Boneyard: 9\nYour hand: [5|3] [6|6]\n", "Player 1", False)
    watch.holder = "Player 2"
    watch.screen("Pass the keyboard\n", None, True)
    watch.screen("Hand 1   Boneyard: 8\nYour hand: [1|0] [3|5]\n", "Player 2", False)
    assert watch.leaks and "5-3" in watch.leaks[0]
    clean = Watch()
    clean.screen("Round 1, dealer X\nYour hand: 10H KC\n", "Player 1", False)
    clean.holder = "Player 2"
    clean.screen("Round 1, dealer X\nYour hand: 2H 3C\n", "Player 2", False)
    clean.screen("Round 2, dealer X\nYour hand: 10H 4C\n", "Player 2", False)  # a new deal: cards come back
    assert not clean.leaks and hand_pieces("Your hand: 10H KC\n") == {"10H", "KC"}
