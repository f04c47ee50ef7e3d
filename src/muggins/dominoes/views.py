"""What one seat of a domino game may see (:meth:`DominoState.view`)."""

# No ``from __future__ import annotations``: TypedDict must see NotRequired[...] as a type, not a string.
from dataclasses import dataclass
from typing import Any, ClassVar, NotRequired, TypedDict

from muggins.core.views import ClaimMode, View, WindowView

__all__ = ["DominoView", "LayoutTile", "OpenEnd", "move_text"]


def move_text(action: Any) -> str:
    """How a move is written (``DominoState.format_action``, the view's ``legal``): a play as its tile with
    the half it lays against first, ``on`` the tile it touches, and the part it takes (``6-5 on 5-5 end``)."""
    k = action.kind
    if k != "play":
        return str(k)
    t = action.subject
    target = action.target
    if target is None:
        text = str(t.text)
    else:
        v = target.hi if t.has(target.hi) else target.lo
        text = f"{t.touching(v)} on {target.text}"
    return f"{text} {action.part}" if action.part else text


class LayoutTile(TypedDict):
    """A placed tile, with where it sits: enough to draw the true geometry."""

    tile: str
    on: str | None
    double: bool
    part: NotRequired[str]
    slot: NotRequired[int]
    spinner: bool
    inline: bool
    stub: bool


class OpenEnd(TypedDict):
    """A free part of the layout a tile may be played on, and the value it shows."""

    on: str
    part: str
    value: int


@dataclass(frozen=True, kw_only=True, slots=True, eq=False)
class DominoView(View):
    """A domino game as ``seat`` sees it (None: a spectator). ``count`` is shown with automatic claims
    only (with the muggins rule, working out the count is the player's job); ``my_hand`` and ``legal``
    belong to a seated player's view."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset(("count", "my_hand", "legal"))

    game: str
    preset: str
    seat: int | None
    players: int
    sides: list[int]
    scores: list[int]
    target: int
    hand: int
    turn: int | None
    phase: str
    to_act: list[int]
    layout: list[LayoutTile]
    open_ends: list[OpenEnd]
    hand_sizes: list[int]
    boneyard: int
    drawable: int
    claims: ClaimMode
    window: WindowView | None
    over: bool
    winners: list[int]
    count: int | None = None
    my_hand: list[str] | None = None
    legal: list[str] | None = None
