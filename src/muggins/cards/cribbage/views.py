"""What one seat of a cribbage game may see (:meth:`CribbageState.view`)."""

# No ``from __future__ import annotations``: TypedDict must see NotRequired[...] as a type, not a string.
from dataclasses import dataclass
from typing import ClassVar, Literal, NotRequired, TypedDict

from muggins.core.events import Loser
from muggins.core.views import ClaimMode, View, WindowView

__all__ = ["CribbageView", "PreviousHand", "ShowView"]


class Pegs(TypedDict):
    """A side's two pegs on the board: the front one (the score) and the one behind it."""

    front: int
    back: int


class PeggedCard(TypedDict):
    seat: int
    card: str


class ShowView(TypedDict):
    """A counted hand or crib. ``claim`` (manual claims) is what its owner announced; ``total`` and
    ``explain`` (the truth) are left out while a muggins window on the count is open."""

    seat: int
    what: Literal["hand", "crib"]
    cards: list[str]
    claim: NotRequired[int | None]
    total: NotRequired[int]
    explain: NotRequired[str]


class PreviousHand(TypedDict):
    """The shows of the hand just finished, kept in view while the next one is dealt."""

    hand: int
    dealer: int
    starter: str
    shows: list[ShowView]


class GameResult(TypedDict):
    """How the game was won: by which side, how each loser fared (skunks), and the game points."""

    winner_side: int
    losers: list[Loser]
    game_points: int


@dataclass(frozen=True, kw_only=True, slots=True, eq=False)
class CribbageView(View):
    """A cribbage game as ``seat`` sees it (None: a spectator). The crib's cards show from the moment it
    is to be counted (it is turned up for everyone first); ``previous_hand`` is there from the second hand
    on; ``my_hand``, ``my_kept``, ``my_discards`` and ``legal`` belong to a seated player's view."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset(("previous_hand", "my_hand", "my_kept", "my_discards",
                                                     "legal"))

    game: str
    preset: str
    seat: int | None
    players: int
    sides: list[int]
    scores: list[int]
    board: list[Pegs]
    target: int
    hand: int
    dealer: int
    phase: str
    turn: int | None
    to_act: list[int]
    waiting_for: list[int]
    hand_sizes: list[int]
    discarded: list[bool]
    crib_size: int
    crib: list[str] | None
    starter: str | None
    count: int
    pile: list[PeggedCard]
    series: list[list[PeggedCard]]
    gone: list[int]
    last_player: int | None
    shows: list[ShowView]
    claims: ClaimMode
    window: WindowView | None
    over: bool
    winners: list[int]
    result: GameResult | None
    previous_hand: PreviousHand | None = None
    my_hand: list[str] | None = None
    my_kept: list[str] | None = None
    my_discards: list[str] | None = None
    legal: list[str] | None = None
