"""The closed vocabulary of the protocol: every action kind, every event kind and its data fields.

Games still build events with plain strings; :class:`EventKind` and :class:`ActionKind` are ``StrEnum``
members, so they compare equal to those strings and consumers can switch on the closed set.

Each event kind declares its data once, here: one ``TypedDict`` per shape (a kind that differs between
games has one shape per game), the fields only its seat may see, and whether the event names a seat.
:func:`check_event` validates an event against that declaration (tests call it on every event of every
game; :class:`~muggins.core.protocol.Event` itself stays unchecked on the hot path), and
:mod:`muggins.core.schemas` derives the JSON Schema of events from the same table.
"""

# No ``from __future__ import annotations``: TypedDict must see NotRequired[...] as a type, not a string.
import types
import typing
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any, Literal, NotRequired, Self, TypedDict, get_args, get_origin

from muggins.core.errors import MugginsError

__all__ = ["EVENTS", "ActionKind", "EventError", "EventKind", "EventSpec", "check_event", "check_value", "fields_of"]


class _Documented(StrEnum):
    """A string enum whose members carry their description (``member.__doc__``), for the generated docs
    and schemas."""

    def __new__(cls, value: str, doc: str = "") -> Self:
        member = str.__new__(cls, value)
        member._value_ = value
        member.__doc__ = doc
        return member


class ActionKind(_Documented):
    """What a move does (``Action.kind``)."""

    PLAY = ("play", "Place a tile or a card (in the play of a card game); ``subject`` is the piece.")
    DRAW = "draw", "Take a tile from the boneyard."
    PASS = "pass", "Let the turn go by: the boneyard is closed or empty and nothing fits."
    KNOCK = "knock", "Ask the partner to play instead of drawing (the knocking partnership option)."
    GO = "go", "Cannot play without passing 31: say \"go\" (the card games)."
    DISCARD = "discard", "Lay cards away to the crib; ``subject`` is the tuple of cards."
    COUNT = "count", "Count a hand or the crib in the show; ``subject`` is \"hand\" or \"crib\"."
    MUGGINS = ("muggins", "Call \"Muggins!\" on an opponent's unclaimed points; ``claim`` is the amount named (or "
                          "None).")
    CLAIM = ("claim", "Announce points after the move (lenient timing, a claimable bonus); ``claim`` is the amount.")


class EventKind(_Documented):
    """What happened (``Event.kind``). The data fields of each are declared in :data:`EVENTS`."""

    # --- chance and deals
    LOT = "lot", "Dominoes: tiles drawn to decide who leads first (``seats``, ``tiles``); repeated on a tie."
    CUT_FOR_DEAL = "cut_for_deal", "Card Muggins: cards cut to decide the first dealer (``seats``, ``cards``)."
    CUT = "cut", "Cribbage: cards cut to decide the first dealer (``seats``, ``cards``)."
    HAND_START = "hand_start", "Dominoes: a hand begins (``hand`` number, ``leader``, ``boneyard`` size)."
    ROUND_START = "round_start", "Card Muggins: a round begins (``round``, ``dealer``, ``leader``, ``stock`` size)."
    DEAL = "deal", "Cribbage: the dealer deals (``hand``, ``dealer``, ``cards_each``, ``crib_dealt``)."
    DEALT = "dealt", "A seat's hand as dealt (secret ``tiles``/``cards``; public ``count``)."
    STARTER = "starter", "Cribbage: the starter card is cut (``card``, ``cut`` depth)."
    HIS_HEELS = "his_heels", "Cribbage, manual claims: the starter is a jack and the dealer may claim 2 (``card``)."
    # --- moves
    PLAY = ("play", "A tile or card is played: a tile game ``tile``, ``on``, ``part``, ``count`` (auto "
                    "claims); the card game to 31 ``card``, ``total``; a game with a crib ``card``, ``count`` and, "
                    "with automatic claims, ``points``, ``items``.")
    DRAW = ("draw", "A tile or card is drawn: a tile game secret ``tile``, ``forced``, public ``ends``, "
                    "``lead``; the card game to 31 secret ``card``, public ``why`` (\"refill\" or \"go\").")
    PASS = "pass", "Dominoes: a seat passes (``ends`` open, ``lead``: during the lead)."
    KNOCK = "knock", "Dominoes: a seat knocks (``ends``, ``partner``: answering a partner's knock)."
    GO = ("go", "A seat says go: the card game to 31 ``total``; a game with a crib ``count`` and ``takes`` when it "
                "scores.")
    DISCARD = "discard", "Cribbage: a seat lays cards away (secret ``cards``, public ``count``)."
    RESET = "reset", "Cribbage: the pegging count goes back to 0 (``count`` reached, ``last`` player)."
    PILE_START = "pile_start", "Card Muggins: a new pile is led by the event's seat (no data)."
    PILE_END = "pile_end", "Card Muggins: a pile is closed (``total``, ``cards``)."
    SHOW_START = "show_start", "Cribbage: the show begins (``order``: [seat, \"hand\"|\"crib\"] pairs)."
    SHOW = ("show", "Cribbage: a hand or crib is shown (``what``, ``cards``, ``starter``; ``points`` with auto "
                    "claims).")
    EXPLAIN = ("explain", "Cribbage: the true count of a shown hand, item by item (``what``, ``cards``, ``starter``, "
                          "``total``, ``explain`` text, ``items`` [name, points] pairs); once nobody can mug it any "
                          "more.")
    # --- points and the muggins rule
    CLAIM = "claim", "A seat announces ``points`` with its move, or afterwards (``late``: true)."
    OVER_CLAIM = ("over_claim", "An announcement above the truth: void (``points`` announced, ``what``, ``message``; "
                                "secret ``true``, the real figure).")
    SCORE = "score", "Points credited to a ``side`` (``points``, possibly negative; ``reason``)."
    VOID = "void", "Dominoes: points that do not count (``side``, ``points``, ``reason``, ``why``)."
    MISSED = "missed", "Points left unclaimed that nobody took (``side``, ``points``, ``reason``)."
    MUGGINS = ("muggins", "A muggins call (``on`` the scorer, ``outcome``, ``points`` gained, ``named`` amount, "
                          "``missed``, ``reason``).")
    # --- ends
    HAND_END = ("hand_end", "Dominoes: a hand ends (``hand``, ``reason`` domino|blocked, every ``hands`` revealed, "
                            "``pips``).")
    ROUND_END = "round_end", "Card Muggins: a round ends (``round``, ``scores``)."
    TIE_BREAK = "tie_break", "Leaders tied at the target play on: ``hands`` more (tiles) or the ``seats`` tied (cards)."
    GAME_END = ("game_end", "The game is over (``winners`` seats, ``scores`` by side; a game with skunks adds "
                            "``winner_side``, ``losers`` and ``game_points``).")


# --------------------------------------------------------------------------------- data shapes ----
# One TypedDict per shape of an event's data (the unredacted form). Secret fields are declared in EVENTS.

class LotData(TypedDict):
    seats: list[int]
    tiles: list[str]


class CutData(TypedDict):
    seats: list[int]
    cards: list[str]


class HandStartData(TypedDict):
    hand: int
    leader: int
    boneyard: int


class RoundStartData(TypedDict):
    round: int
    dealer: int
    leader: int
    stock: int


class DealData(TypedDict):
    hand: int
    dealer: int
    cards_each: int
    crib_dealt: int


class DealtTilesData(TypedDict):
    tiles: list[str]
    count: int


class DealtCardsData(TypedDict):
    cards: list[str]
    count: int


class StarterData(TypedDict):
    card: str
    cut: int


class CardData(TypedDict):
    card: str


class DominoPlayData(TypedDict):
    tile: str
    on: str | None
    part: NotRequired[str]
    count: NotRequired[int]


class CardPlayData(TypedDict):
    card: str
    total: int


class PeggingPlayData(TypedDict):
    card: str
    count: int
    points: NotRequired[int]
    items: NotRequired[list[tuple[str, int]]]


class DominoDrawData(TypedDict):
    tile: str
    ends: list[int]
    forced: bool
    lead: bool


class CardDrawData(TypedDict):
    card: str
    why: Literal["refill", "go"]


class EndsData(TypedDict):
    ends: list[int]
    lead: bool


class KnockData(TypedDict):
    ends: list[int]
    partner: bool


class CardGoData(TypedDict):
    total: int


class PeggingGoData(TypedDict):
    count: int
    takes: NotRequired[Literal["go", "last card"]]


class DiscardData(TypedDict):
    cards: list[str]
    count: int


class ResetData(TypedDict):
    count: int
    last: int


class NoData(TypedDict):
    pass


class PileEndData(TypedDict):
    total: int
    cards: list[str]


class ShowStartData(TypedDict):
    order: list[tuple[int, Literal["hand", "crib"]]]


class ShowData(TypedDict):
    what: Literal["hand", "crib"]
    cards: list[str]
    starter: str
    points: NotRequired[int]


class ExplainData(TypedDict):
    what: Literal["hand", "crib"]
    cards: list[str]
    starter: str
    total: int
    explain: str
    items: list[tuple[str, int]]


class ClaimData(TypedDict):
    points: int
    late: NotRequired[Literal[True]]


class OverClaimData(TypedDict):
    points: int
    true: int
    what: str
    message: str


class SideData(TypedDict):
    side: int
    points: int
    reason: str


class VoidData(TypedDict):
    side: int
    points: int
    reason: str
    why: str


class MugginsData(TypedDict):
    on: int
    outcome: Literal["steal", "forfeit", "steal_and_deduct", "false_call"]
    points: int
    named: int | None
    missed: int
    reason: NotRequired[str]


class HandEndData(TypedDict):
    hand: int
    reason: Literal["domino", "blocked"]
    hands: list[list[str]]
    pips: list[int]


class RoundEndData(TypedDict):
    round: int
    scores: list[int]


class TieBreakHandsData(TypedDict):
    hands: int


class TieBreakSeatsData(TypedDict):
    seats: list[int]


class Loser(TypedDict):
    side: int
    score: int
    result: str
    game_points: int


class GameEndData(TypedDict):
    winners: list[int]
    scores: list[int]


class CribbageGameEndData(TypedDict):
    winners: list[int]
    scores: list[int]
    winner_side: int
    losers: list[Loser]
    game_points: int


# ------------------------------------------------------------------------------------ the table ----
SeatRule = Literal["always", "never", "maybe"]


@dataclass(frozen=True)
class EventSpec:
    """An event kind's declaration: its data shapes (one per game where they differ), the fields only
    the event's seat may see, and whether the event names a seat."""

    shapes: tuple[type, ...]
    secret: frozenset[str] = frozenset()
    seat: SeatRule = "always"


def _spec(*shapes: type, secret: tuple[str, ...] = (), seat: SeatRule = "always") -> EventSpec:
    return EventSpec(shapes, frozenset(secret), seat)


EVENTS: dict[EventKind, EventSpec] = {
    EventKind.LOT: _spec(LotData, seat="never"),
    EventKind.CUT_FOR_DEAL: _spec(CutData, seat="never"),
    EventKind.CUT: _spec(CutData, seat="never"),
    EventKind.HAND_START: _spec(HandStartData, seat="never"),
    EventKind.ROUND_START: _spec(RoundStartData, seat="never"),
    EventKind.DEAL: _spec(DealData),
    EventKind.DEALT: _spec(DealtTilesData, DealtCardsData, secret=("tiles", "cards")),
    EventKind.STARTER: _spec(StarterData, seat="never"),
    EventKind.HIS_HEELS: _spec(CardData),
    EventKind.PLAY: _spec(DominoPlayData, CardPlayData, PeggingPlayData),
    EventKind.DRAW: _spec(DominoDrawData, CardDrawData, secret=("tile", "forced", "card")),
    EventKind.PASS: _spec(EndsData),
    EventKind.KNOCK: _spec(KnockData),
    EventKind.GO: _spec(CardGoData, PeggingGoData),
    EventKind.DISCARD: _spec(DiscardData, secret=("cards",)),
    EventKind.RESET: _spec(ResetData, seat="never"),
    EventKind.PILE_START: _spec(NoData),
    EventKind.PILE_END: _spec(PileEndData),
    EventKind.SHOW_START: _spec(ShowStartData, seat="never"),
    EventKind.SHOW: _spec(ShowData),
    EventKind.EXPLAIN: _spec(ExplainData),
    EventKind.CLAIM: _spec(ClaimData),
    EventKind.OVER_CLAIM: _spec(OverClaimData, secret=("true",)),
    EventKind.SCORE: _spec(SideData, seat="maybe"),
    EventKind.VOID: _spec(VoidData),
    EventKind.MISSED: _spec(SideData),
    EventKind.MUGGINS: _spec(MugginsData),
    EventKind.HAND_END: _spec(HandEndData, seat="maybe"),
    EventKind.ROUND_END: _spec(RoundEndData, seat="never"),
    EventKind.TIE_BREAK: _spec(TieBreakHandsData, TieBreakSeatsData, seat="never"),
    EventKind.GAME_END: _spec(GameEndData, CribbageGameEndData, seat="never"),
}


# ------------------------------------------------------------------------------------ checking ----
class EventError(MugginsError, ValueError):
    """An event does not fit the declared vocabulary (a bug in a game, never a user error)."""


@cache
def fields_of(shape: type) -> tuple[dict[str, Any], frozenset[str]]:
    """The field types of a TypedDict shape and the names it requires (read once per shape)."""
    hints = typing.get_type_hints(shape)
    return hints, frozenset(getattr(shape, "__required_keys__", hints))


def check_value(value: object, tp: Any) -> bool:
    """Whether the JSON-able ``value`` has the declared type ``tp`` (a bool is not an int; a tuple type is
    a JSON array of that length)."""
    origin = get_origin(tp)
    if tp is Any:
        return True
    if tp is None or tp is type(None):
        return value is None
    if tp is bool:
        return type(value) is bool
    if tp is int:
        return type(value) is int
    if tp is str:
        return isinstance(value, str)
    if origin is Literal:
        return any(type(value) is type(a) and value == a for a in get_args(tp))
    if origin in (types.UnionType, typing.Union):
        return any(check_value(value, a) for a in get_args(tp))
    if origin is list:
        (inner,) = get_args(tp)
        return isinstance(value, (list, tuple)) and all(check_value(v, inner) for v in value)
    if origin is tuple:
        args = get_args(tp)
        return (isinstance(value, (list, tuple)) and len(value) == len(args)
                and all(check_value(v, a) for v, a in zip(value, args, strict=True)))
    if isinstance(tp, type) and hasattr(tp, "__required_keys__"):
        return isinstance(value, dict) and _fits(value, tp, frozenset())
    raise TypeError(f"no check for the declared type {tp!r}")


def _fits(data: dict[str, Any], shape: type, optional: frozenset[str]) -> bool:
    hints, required = fields_of(shape)
    if not set(data) <= set(hints) or not required - optional <= set(data):
        return False
    return all(check_value(v, hints[k]) for k, v in data.items())


def check_event(event: Any, viewer: int | str | None = "all") -> None:
    """Raise :class:`EventError` unless ``event`` (an :class:`~muggins.core.protocol.Event`) is of a declared
    kind, names a seat as its kind says, marks exactly its kind's secret fields as secret, and its data (as
    ``viewer`` sees it: "all" is unredacted) fits one of the kind's shapes."""
    try:
        kind = EventKind(event.kind)
    except ValueError:
        raise EventError(f"{event.kind!r} is not an event kind") from None
    spec = EVENTS[kind]
    seat = event.seat
    named = type(seat) is int
    if (seat is not None and not named) or (spec.seat == "always" and not named) \
            or (spec.seat == "never" and seat is not None):
        raise EventError(f"a {kind} event names the seat {seat!r}; its kind says {spec.seat}")
    data = event.to_dict(viewer)
    data.pop("kind")
    data.pop("seat", None)
    if set(event.secret) != spec.secret & set(event.data):
        raise EventError(f"a {kind} event hides {sorted(event.secret)}; its kind hides "
                         f"{sorted(spec.secret & set(event.data))}")
    hidden = spec.secret if viewer != "all" and viewer != seat else frozenset()
    if not any(_fits(data, shape, hidden) for shape in spec.shapes):
        raise EventError(f"the data of a {kind} event does not fit its declaration: {data!r}")
