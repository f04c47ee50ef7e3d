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
    __slots__ = ("_pos", "_rng", "_seed", "outcomes")

    def __init__(self, seed: int | None = None, outcomes: list[Outcome] | None = None,
                 rng: random.Random | None = None) -> None:
        self.outcomes: list[Outcome] = list(outcomes) if outcomes else []
        self._pos = 0
        self._seed: int | None = None
        self._rng: random.Random | None
        if rng is not None:
            self._rng = rng
        elif type(seed) is int:
            self._rng = None  # random.Random(seed), made when first used (a native engine may draw it itself)
            self._seed = seed
        elif seed is not None or outcomes is None:
            self._rng = random.Random(seed)
        else:
            self._rng = None  # pure replay: running out of outcomes is an error

    @property
    def rng(self) -> random.Random | None:
        """The generator new outcomes are drawn from (None: a pure replay)."""
        if self._seed is not None:
            self._rng = random.Random(self._seed)
            self._seed = None
        return self._rng

    @rng.setter
    def rng(self, rng: random.Random | None) -> None:
        self._rng = rng
        self._seed = None

    @property
    def fresh_seed(self) -> int | None:
        """The int seed of a generator not made yet (nothing drawn from it), else None (also for a chance
        that draws its own way: see :attr:`drawn_here`)."""
        return self._seed if self.drawn_here else None

    @property
    def drawn_here(self) -> bool:
        """Whether new outcomes are drawn by :meth:`next` as defined here, from :attr:`rng`: only then may a
        native engine draw them itself with the same draws (a subclass with its own ``next`` is asked)."""
        return type(self).next is Chance.next

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
        c._seed = None
        if rng is not None:
            c._rng = rng
        else:
            c._copy_generator(self)
        return c

    def copy(self) -> Chance:
        c = Chance.__new__(Chance)
        c.outcomes = list(self.outcomes)
        c._pos = self._pos
        c._copy_generator(self)
        return c

    def _copy_generator(self, other: Chance) -> None:
        self._seed = other._seed
        if other._rng is not None:
            self._rng = random.Random()
            self._rng.setstate(other._rng.getstate())
        else:
            self._rng = None

    def rewound(self) -> Chance:
        """The same outcomes, from the start, with the generator state continuing afterwards."""
        c = self.copy()
        c._pos = 0
        return c
