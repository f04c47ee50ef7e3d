"""Sizes and text helpers every part of the terminal table shares (the table, the generic renderer and
each game's renderer): kept apart so that a game's renderer needs nothing of the table itself."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from muggins.core.protocol import GameState

WIDTH = 80
ROWS = 24


def scores_text(scores: list[int], names: list[str]) -> str:
    """``"You 30, North 61"``."""
    return ", ".join(f"{names[s]} {sc}" for s, sc in enumerate(scores))


def seat_name(names: list[str], s: object) -> str:
    return names[s] if isinstance(s, int) and 0 <= s < len(names) else "Someone"


def wrap_words(words: list[str], width: int, first: str = "", indent: str = "") -> list[str]:
    """Words joined by spaces into lines no wider than ``width`` (a long hand takes two lines)."""
    lines = [first]
    for w in words:
        if len(lines[-1]) + 1 + len(w) > width and lines[-1].strip():
            lines.append(indent + w)
        else:
            lines[-1] = f"{lines[-1]} {w}" if lines[-1].strip() else lines[-1] + w
    return lines


def rows_of(lines: list[str], width: int = WIDTH) -> int:
    """Terminal rows taken by ``lines`` printed ``width`` wide."""
    return sum(max(1, -(-len(line) // width)) for line in lines)


def fit_body(body: list[str], width: int, rows: int) -> list[str]:
    """``body`` cut to its first lines that fill ``rows`` terminal rows (at least one line)."""
    out: list[str] = []
    for line in body:
        if out and rows_of([*out, line], width) > rows:
            break
        out.append(line)
    return out


@dataclass
class HandEnd:
    """A hand (a round) that has just ended, as everybody may see it: its number, the table as the last
    action left it (the final layout of dominoes, and the lines under it: what each seat still held; the
    last piles; the shows) and where the events of that last action start in the log."""

    number: int
    word: str
    lines: list[str]
    start: int
    layout: list[dict[str, Any]] | None = None


def hand_event(st: GameState, start: int, kind: str) -> dict[str, Any] | None:
    """The first event of ``kind`` from ``start``, as everybody may see it."""
    return next((e.to_dict(None) for e in st.log[start:] if e.kind == kind), None)


def hand_start(st: GameState, start: int) -> int:
    """Where in the log the hand whose last action's events begin at ``start`` was dealt."""
    return next((i for i in range(start - 1, -1, -1) if st.log[i].kind in ("hand_start", "round_start", "deal")),
                0)
