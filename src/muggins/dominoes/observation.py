"""The observation of a domino game: what one seat sees, as numbers (see :mod:`muggins.rl.observation`).

After the fields every game has (:class:`~muggins.rl.observation.BaseEncoder`) come, read from
``state.view(seat)`` only:

* ``hand``: one bit per tile of the set (set order: 0-0, 1-0, 1-1, 2-0, ...), the seat's own tiles;
* ``layout``: one bit per tile of the set, the tiles laid;
* ``open_ends``: for each free place of the layout, in the view's order, up to the most the rules allow
  (2 on a line, 4 with one spinner, 2 + 2 x doubles when every double spins), three numbers: present,
  its value / the set's top value, and whether it lies on a double (which counts both halves);
* ``end_values``: for each value 0..top, how many free places show it (/ 4, at most 1);
* ``count``: the count of the ends / the largest count a layout can make, where the view shows it
  (automatic scoring only: under the muggins rule adding up the ends is the player's job, so it is 0);
* ``hand_sizes``: each seat's tiles, from the observer on, / the most one hand can hold;
* ``boneyard`` and ``drawable``: tiles in the boneyard, and of them those that may still be drawn, / the
  boneyard after the deal;
* ``partners``: 1 for each seat of the observer's side, from the observer on;
* ``lead``: 1 while the hand waits for its first tile.

What a seat could infer from the others' passes and draws is not encoded: the view does not show it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from muggins.dominoes.tiles import full_set, parse_tile
from muggins.rl.observation import BaseEncoder, Layout

if TYPE_CHECKING:
    import numpy as np

    from muggins.core.protocol import GameState

__all__ = ["DominoEncoder"]


class DominoEncoder(BaseEncoder):
    """A domino seat's view: hand and layout as bits of the set, the open ends, counts of pieces."""

    def _add_fields(self, lay: Layout) -> None:
        r = self.rules
        n = self.num_players
        self.top = int(r.tile_set)
        tiles = full_set(self.top)
        self.tiles = len(tiles)
        # every tile by its text either way round (the layout writes a tile as it touches its neighbour)
        self.index_of = {text: t.index for t in tiles for text in (t.text, *t.touch.values())}
        self.places = 2 if r.spinner == "none" else 2 * self.top + 4 if r.spinner == "all_doubles" else 4
        each = int(r.tiles_each(n))
        self.most_in_hand = max(1, self.tiles - (n - 1) * each)  # one hand can draw the whole boneyard
        self.boneyard0 = max(1, self.tiles - n * each)
        set_pips = self.top * (self.top + 1) * (self.top + 2) // 2
        self.most_count = max(1, {"none": 4 * self.top, "all_doubles": set_pips}.get(r.spinner, 10 * self.top))
        self.s_hand = lay.add("hand", self.tiles)
        self.s_layout = lay.add("layout", self.tiles)
        self.s_ends = lay.add("open_ends", 3 * self.places)
        self.s_values = lay.add("end_values", self.top + 1)
        self.s_count = lay.add("count", 1)
        self.s_sizes = lay.add("hand_sizes", n)
        self.s_boneyard = lay.add("boneyard", 1)
        self.s_drawable = lay.add("drawable", 1)
        self.s_partners = lay.add("partners", n)
        self.s_lead = lay.add("lead", 1)

    def _index(self, text: str) -> int:
        i = self.index_of.get(text)
        return int(parse_tile(text, self.top).index) if i is None else i

    def _fill(self, out: np.ndarray, view: Any, state: GameState, seat: int) -> None:
        n = self.num_players
        for text in view.get("my_hand") or ():
            out[self.s_hand + self._index(text)] = 1.0
        for e in view["layout"]:
            out[self.s_layout + self._index(e["tile"])] = 1.0
        values = [0] * (self.top + 1)
        for k, e in enumerate(view["open_ends"]):
            v = int(e["value"])
            values[v] += 1
            if k < self.places:
                base = self.s_ends + 3 * k
                out[base] = 1.0
                out[base + 1] = v / self.top
                a, _, b = str(e["on"]).partition("-")
                out[base + 2] = 1.0 if a == b else 0.0
        for v, c in enumerate(values):
            out[self.s_values + v] = min(1.0, c / 4)
        count = view.get("count")
        if count is not None:
            out[self.s_count] = min(1.0, count / self.most_count)
        sizes = view["hand_sizes"]
        sides = view["sides"]
        for i in range(n):
            s = (seat + i) % n
            out[self.s_sizes + i] = min(1.0, sizes[s] / self.most_in_hand)
            out[self.s_partners + i] = 1.0 if sides[s] == sides[seat] else 0.0
        out[self.s_boneyard] = min(1.0, view["boneyard"] / self.boneyard0)
        out[self.s_drawable] = min(1.0, view["drawable"] / self.boneyard0)
        out[self.s_lead] = 1.0 if view["phase"] == "lead" else 0.0
