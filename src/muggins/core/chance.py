"""Explicit chance: every random outcome comes from one seeded generator and is recorded.

A game asks its :class:`Chance` for an outcome with a kind and a maker. When recording, the maker is
called with the seeded generator and the result is appended to ``outcomes``. When replaying, the next
recorded outcome is returned instead (its kind must match), so a record replays with no generator at all.
Once the recorded outcomes run out, new ones are drawn from the generator (if any), which lets an undone
game continue with the very same future deals.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from muggins.core.errors import RecordError

Outcome = dict[str, Any]


def shuffle(items: list[Any], rng: random.Random) -> None:
    """Shuffle ``items`` in place (Fisher-Yates on ``rng.random()``: one C call a step, where
    ``random.shuffle`` draws bits through Python code; the bias for a deck-sized list is below 2**-40)."""
    rand = rng.random
    i = len(items) - 1
    while i > 0:
        j = int(rand() * (i + 1))
        items[i], items[j] = items[j], items[i]
        i -= 1


class Chance:
    __slots__ = ("_pos", "outcomes", "rng")

    def __init__(self, seed: int | None = None, outcomes: list[Outcome] | None = None,
                 rng: random.Random | None = None) -> None:
        self.outcomes: list[Outcome] = list(outcomes) if outcomes else []
        self._pos = 0
        if rng is not None:
            self.rng: random.Random | None = rng
        elif seed is not None or outcomes is None:
            self.rng = random.Random(seed)
        else:
            self.rng = None  # pure replay: running out of outcomes is an error

    @property
    def position(self) -> int:
        return self._pos

    def next(self, kind: str, make: Callable[[random.Random], Outcome]) -> Outcome:
        """Return the next outcome of ``kind``: recorded if there is one, otherwise freshly drawn."""
        if self._pos < len(self.outcomes):
            out = self.outcomes[self._pos]
            if out.get("kind") != kind:
                raise RecordError(f"chance outcome {self._pos} is {out.get('kind')!r}, expected {kind!r}")
            self._pos += 1
            return out
        if self.rng is None:
            raise RecordError(f"the record has no chance outcome {self._pos} ({kind!r}) and no seed")
        out = make(self.rng)
        out = {"kind": kind, **out}
        self.outcomes.append(out)
        self._pos += 1
        return out

    def fork(self, rng: random.Random | None = None) -> Chance:
        """A copy that shares the recorded past but owns its own future."""
        c = Chance.__new__(Chance)
        c.outcomes = self.outcomes[: self._pos]
        c._pos = self._pos
        if rng is not None:
            c.rng = rng
        elif self.rng is not None:
            c.rng = random.Random()
            c.rng.setstate(self.rng.getstate())
        else:
            c.rng = None
        return c

    def copy(self) -> Chance:
        c = Chance.__new__(Chance)
        c.outcomes = list(self.outcomes)
        c._pos = self._pos
        if self.rng is not None:
            c.rng = random.Random()
            c.rng.setstate(self.rng.getstate())
        else:
            c.rng = None
        return c

    def rewound(self) -> Chance:
        """The same outcomes, from the start, with the generator state continuing afterwards."""
        c = self.copy()
        c._pos = 0
        return c
