"""What one seat of a game of card Muggins may see (:meth:`Muggins31State.view`)."""

from dataclasses import dataclass
from typing import ClassVar

from muggins.core.views import ClaimMode, View, WindowView

__all__ = ["Muggins31View"]


@dataclass(frozen=True, kw_only=True, slots=True, eq=False)
class Muggins31View(View):
    """A game of card Muggins as ``seat`` sees it (None: a spectator): the pile on the table, earlier
    piles of the round, who has passed; ``my_hand`` and ``legal`` belong to a seated player's view."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset(("my_hand", "legal"))

    game: str
    preset: str
    seat: int | None
    players: int
    scores: list[int]
    target: int
    cap: int
    round: int
    dealer: int
    turn: int | None
    to_act: list[int]
    total: int
    pile: list[str]
    earlier_piles: list[list[str]]
    passed: list[int]
    last_player: int | None
    hand_sizes: list[int]
    stock: int
    claims: ClaimMode
    window: WindowView | None
    over: bool
    winners: list[int]
    my_hand: list[str] | None = None
    legal: list[str] | None = None
