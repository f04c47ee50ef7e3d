"""What one seat of count to 21 may see (:meth:`ToyState.view`)."""

from dataclasses import dataclass
from typing import ClassVar

from muggins.core.views import ClaimMode, View, WindowView

__all__ = ["ToyView"]


@dataclass(frozen=True, kw_only=True, slots=True, eq=False)
class ToyView(View):
    """A game of count to 21 as ``seat`` sees it (None: a spectator). Nothing is hidden; ``legal`` belongs to
    a seated player's view only."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset(("legal",))

    game: str
    preset: str
    seat: int | None
    players: int
    scores: list[int]
    target: int
    total: int
    round: int
    turn: int | None
    to_act: list[int]
    claims: ClaimMode
    window: WindowView | None
    over: bool
    winners: list[int]
    legal: list[str] | None = None
