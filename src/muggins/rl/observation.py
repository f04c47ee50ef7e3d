"""Observations: a seat's view of a game as a flat ``float32`` vector of fixed length.

An encoder is made once for a game, its rules and the number of players (:func:`encoder_for`), so its
:attr:`Encoder.size` is fixed for every position of that game: a learning library sizes its network from
it. It encodes only what :meth:`GameState.view` shows the seat, so an observation never holds a secret.
Each game registers its own encoder by import path (``GameSpec.observation``); a game that registers
none gets :class:`GenericEncoder`, which knows only what every game has.

Every encoder has ``fields``: the named slices of its vector, in order, which ``docs/rl.md`` lists and
:meth:`Encoder.describe` reports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from muggins.core.rules import get_game, load_object

if TYPE_CHECKING:
    from muggins.core.protocol import GameState

__all__ = ["Encoder", "GenericEncoder", "Layout", "encoder_for"]


class Layout:
    """Named slices of a flat vector, added in order: ``add("scores", 4)`` then ``slice_of("scores")``."""

    def __init__(self) -> None:
        self.fields: list[tuple[str, int, int]] = []  # (name, start, length)
        self.size = 0

    def add(self, name: str, length: int) -> int:
        """Append a field of ``length`` numbers; returns its start."""
        start = self.size
        self.fields.append((name, start, length))
        self.size += length
        return start

    def slice_of(self, name: str) -> slice:
        for n, start, length in self.fields:
            if n == name:
                return slice(start, start + length)
        raise KeyError(name)


class Encoder(Protocol):
    """Turns a seat's view into a vector of ``size`` float32 numbers, laid out as ``layout`` says."""

    layout: Layout

    @property
    def size(self) -> int: ...

    def encode(self, state: GameState, seat: int) -> np.ndarray: ...


class BaseEncoder:
    """Shared by the encoders: the fields every game has (whose seat, who acts, the scores, the window)
    at the head of the vector; a game's encoder adds its own fields after them in ``_add_fields`` and
    fills them in ``_fill``."""

    def __init__(self, rules: Any, num_players: int) -> None:
        self.rules = rules
        self.num_players = num_players
        self.target = float(getattr(rules, "target", 0) or 100)
        lay = self.layout = Layout()
        n = num_players
        lay.add("seat", n)            # one-hot: the observing seat
        lay.add("to_act", n)          # 1 for each seat that may act now
        lay.add("scores", n)          # each seat's side's score / target, from the observing seat on
        lay.add("window", 2 + n)      # open?, claimed?, one-hot scorer (relative to the observer)
        lay.add("over", 1)
        self._add_fields(lay)

    @property
    def size(self) -> int:
        return self.layout.size

    def _add_fields(self, lay: Layout) -> None:
        """Add the game's own fields to ``lay`` (none here)."""

    def _fill(self, out: np.ndarray, view: Any, state: GameState, seat: int) -> None:
        """Write the game's own fields of ``view`` into ``out`` (none here)."""

    def encode(self, state: GameState, seat: int) -> np.ndarray:
        """The observation of ``seat``: read from ``state.view(seat)`` only."""
        view = state.view(seat)
        n = self.num_players
        out = np.zeros(self.layout.size, dtype=np.float32)
        out[seat] = 1.0
        for s in view["to_act"]:
            out[n + (s - seat) % n] = 1.0
        scores = view["scores"]
        sides = view.get("sides") or list(range(n))
        for i in range(n):
            s = (seat + i) % n
            out[2 * n + i] = scores[sides[s]] / self.target
        w = view.get("window")
        if w:
            base = 3 * n
            out[base] = 1.0
            out[base + 1] = 1.0 if w.get("claimed") is not None else 0.0
            out[base + 2 + (w["scorer"] - seat) % n] = 1.0
        out[4 * n + 2] = 1.0 if view["over"] else 0.0
        self._fill(out, view, state, seat)
        return out

    def describe(self) -> list[dict[str, Any]]:
        """The layout as data: ``[{"name", "start", "length"}, ...]``."""
        return [{"name": n, "start": s, "length": k} for n, s, k in self.layout.fields]


class GenericEncoder(BaseEncoder):
    """What every game has, for a game that registers no encoder of its own."""


def encoder_for(game: str, rules: Any, num_players: int) -> BaseEncoder:
    """The encoder of ``game`` (a registered name) for ``rules`` and ``num_players``."""
    spec = get_game(game)
    path = getattr(spec, "observation", None)
    cls = load_object(path) if path else GenericEncoder
    enc: BaseEncoder = cls(rules, num_players)
    return enc
