"""The integer numbering of domino moves (docs/actions.md, "Dominoes").

A play is numbered by its tile and a *slot*. The slots of a tile are: the lead (and, under
``spinner = sniff_option``, the lead laid inline), then one slot per *free place* of the layout (two under
``sniff_option``: crosswise, then inline). The free places are the playable parts of the layout tiles, in
the order those tiles were laid; on one tile its line (a free half, or a double's sides or inline ends)
comes before its branch (a spinner's ends, an inline double's sides). So "5-3 on 5-5" has one id in a
given position, and an id names one play there; the id of the same play may differ in another position.

How many free places a layout can have bounds the slots: 2 on a line (no spinner), 4 with one spinner
(``first_double``, ``sniff_stub``, ``sniff_option``), and 2 + 2 x the doubles of the set when every
double is a spinner (``all_doubles``: each spinner turns one arm into three).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from muggins.core.action_ids import ActionSpace
from muggins.core.errors import IllegalAction, UnknownAction, shown
from muggins.core.protocol import Action
from muggins.dominoes.tiles import Tile, full_set

if TYPE_CHECKING:
    from muggins.core.protocol import GameState
    from muggins.dominoes.rules import DominoRules
    from muggins.dominoes.state import DominoState

_PARTS = (None, "end", "side", "inline", "end inline", "side inline")
#: (layout tile, part, value shown) of every free place, in numbering order
Places = list[tuple[Tile, "str | None", int]]


def free_places(state: DominoState) -> Places:
    """The free places of the layout in numbering order: by the order their tiles were laid, then by slot
    (a double's line slots 1, 2 before its branch slots 4, 8)."""
    return [(x[0], x[1], x[2]) for x in sorted(state._posall, key=lambda x: (x[4], x[5]))]


class DominoActionSpace(ActionSpace):
    """Blocks: play (tiles x slots), draw, pass, knock; muggins and claim in a manual-claim game."""

    def __init__(self, rules: DominoRules, num_players: int) -> None:
        self.tiles = full_set(rules.tile_set)
        self.tile_no = {t: i for i, t in enumerate(self.tiles)}
        self.inline = rules.spinner == "sniff_option"
        spinner = rules.spinner
        self.places = 2 if spinner == "none" else 2 * rules.tile_set + 4 if spinner == "all_doubles" else 4
        self.leads = 2 if self.inline else 1
        self.per_place = 2 if self.inline else 1
        self.slots = self.leads + self.places * self.per_place
        super().__init__(rules, num_players, [("play", len(self.tiles) * self.slots, True), ("draw", 1, False),
                                              ("pass", 1, False), ("knock", 1, False)])

    def context(self, state: GameState) -> dict[tuple[Tile, str | None, int], int]:
        places = free_places(state)  # type: ignore[arg-type]
        if len(places) > self.places:  # the bound of the numbering is wrong: never silently reuse an id
            raise RuntimeError(f"the layout has {len(places)} free places; the numbering allows {self.places}")
        return {(t, p, v): k for k, (t, p, v) in enumerate(places)}

    def base_of(self, state: GameState, action: Action, ctx: Any) -> tuple[str, int]:
        kind, tile, target, part, _ = action
        if kind in ("draw", "pass", "knock"):
            if tile is not None or target is not None or part is not None:
                raise UnknownAction(f"{kind!r} names no tile")
            return kind, 0
        if kind != "play":
            raise UnknownAction(f"{shown(kind)} is not a domino move")
        if tile.__class__ is not Tile or tile not in self.tile_no:
            raise UnknownAction(f"a play names a tile of the double-{self.rules.tile_set} set; got {shown(tile)}")
        if part not in _PARTS or not (target is None or target.__class__ is Tile):
            raise UnknownAction(f"a play goes on a layout tile and a part of it; got {shown(target)} "
                                f"{shown(part)}")
        inline = part is not None and part.endswith("inline")
        if inline and not (self.inline and tile.double):
            raise UnknownAction("only a double is laid inline, and only where the sniff may lie either way")
        if target is None:
            if part not in (None, "inline"):
                raise UnknownAction("a lead names no part")
            slot = int(inline)
        else:
            spart = None if part in (None, "inline") else part.split()[0]
            k = ctx.get((target, spart, tile.hi))
            if k is None:
                k = ctx.get((target, spart, tile.lo))
            if k is None:
                where = f"{target} {spart}" if spart else str(target)
                raise IllegalAction(f"{tile} has no free place on {where} in this layout")
            slot = self.leads + k * self.per_place + int(inline)
        return "play", self.tile_no[tile] * self.slots + slot

    def action_of(self, state: GameState, kind: str, base: int) -> Action:
        if kind != "play":
            return Action(kind)
        ti, slot = divmod(base, self.slots)
        tile = self.tiles[ti]
        if slot < self.leads:
            return Action("play", tile, None, "inline" if slot else None)
        k, inline = divmod(slot - self.leads, self.per_place)
        places = free_places(state)  # type: ignore[arg-type]
        if k >= len(places):
            raise IllegalAction(f"the id plays {tile} on free place {k} of the layout, which has "
                                f"{len(places)} free place(s)")
        target, part, value = places[k]
        if not tile.has(value):
            raise IllegalAction(f"the id plays {tile} on free place {k} of the layout ({target} showing "
                                f"{value}): it does not match")
        if inline:
            part = "inline" if part is None else part + " inline"
        return Action("play", tile, target, part)


def numbering(rules: DominoRules, num_players: int) -> DominoActionSpace:
    return DominoActionSpace(rules, num_players)
