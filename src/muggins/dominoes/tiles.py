"""Domino tiles: small interned values. ``Tile.of(5, 3) is Tile.of(3, 5)``."""

from __future__ import annotations

from typing import Any

from muggins.core.errors import UnknownAction, shown


class Tile:
    """A tile ``hi-lo`` (hi >= lo). Interned: compare with ``is`` or ``==`` alike."""

    __slots__ = ("double", "hi", "index", "lo", "mask", "pips", "text", "touch")

    _cache: dict[tuple[int, int], Tile] = {}

    hi: int
    lo: int
    pips: int
    double: bool
    mask: int
    index: int
    text: str
    touch: dict[int, str]

    def __new__(cls, a: int, b: int) -> Tile:
        return cls.of(a, b)

    @classmethod
    def of(cls, a: int, b: int) -> Tile:
        hi, lo = (a, b) if a >= b else (b, a)
        t = cls._cache.get((hi, lo))
        if t is None:
            if lo < 0 or hi > 30:
                raise ValueError(f"no such tile {a}-{b}")
            t = object.__new__(cls)
            t.hi, t.lo = hi, lo
            t.pips = hi + lo
            t.double = hi == lo
            t.mask = (1 << hi) | (1 << lo)
            t.index = hi * (hi + 1) // 2 + lo
            t.text = f"{hi}-{lo}"
            t.touch = {hi: t.text, lo: f"{lo}-{hi}"}
            cls._cache[(hi, lo)] = t
        return t

    def other(self, v: int) -> int:
        """The half opposite to a half showing ``v``."""
        return self.lo if v == self.hi else self.hi

    def has(self, v: int) -> bool:
        return v == self.hi or v == self.lo

    def weight_key(self) -> tuple[int, int]:
        """Heaviest first ordering: pips, then the higher end (6-2 beats 5-3 beats 4-4)."""
        return (self.pips, self.hi)

    def __reduce__(self) -> tuple[Any, tuple[int, int]]:
        return (Tile.of, (self.hi, self.lo))

    def __repr__(self) -> str:
        return f"Tile({self.hi}, {self.lo})"

    def __str__(self) -> str:
        return self.text

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index

    def touching(self, v: int) -> str:
        """Text with the half touching ``v`` first (``5-3`` placed on a 5)."""
        return self.touch[v]


_SETS: dict[int, tuple[Tile, ...]] = {}


def full_set(top: int) -> list[Tile]:
    """Every tile of a double-``top`` set, in index order (a new list each call)."""
    tiles = _SETS.get(top)
    if tiles is None:
        tiles = _SETS[top] = tuple(Tile.of(a, b) for a in range(top + 1) for b in range(a + 1))
    return list(tiles)


_BY_TEXT: dict[str, Tile] = {}


def parse_tile(text: str, top: int = 30) -> Tile:
    if not isinstance(text, str):
        raise UnknownAction(f"{shown(text)} is not a tile; write it like 5-3")
    t = _BY_TEXT.get(text)
    if t is not None and t.hi <= top:
        return t
    s = text.strip().replace("|", "-").replace(":", "-")
    parts = s.split("-")
    if len(parts) != 2 or not all(p.strip().isascii() and p.strip().isdigit() and len(p.strip()) <= 2
                                  for p in parts):
        raise UnknownAction(f"{shown(text)} is not a tile; write it like 5-3")
    a, b = int(parts[0]), int(parts[1])
    if a > top or b > top:
        raise UnknownAction(f"{shown(text)} is not in a double-{top} set")
    t = Tile.of(a, b)
    if text == t.text or text == t.touch[a]:
        _BY_TEXT[text] = t
    return t


def pips(tiles: list[Tile], double_counts_once: bool = False) -> int:
    if double_counts_once:
        return sum(t.hi if t.double else t.pips for t in tiles)
    return sum(t.pips for t in tiles)


def tile_weight(tile: Tile, double_extra: float) -> float:
    """What holding ``tile`` weighs to a player about to shed it: its pips, and ``double_extra`` more for a
    double (a double fits one number only, so it is the hardest tile to place)."""
    return tile.pips + (double_extra if tile.double else 0.0)
