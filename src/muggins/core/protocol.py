"""The protocol every game speaks.

Bots, records, the terminal, the server and the learning adapters see games only through
:class:`GameState`: who may act now, the legal actions of a seat, ``apply``, the event log, per-seat views,
``clone``/``undo`` and sampling of the hidden information consistent with one seat's view.

A turn-based game usually waits for one seat; during a muggins window other seats *may* act (call
"Muggins!") without being waited for, and in a simultaneous phase (the cribbage discard) several seats
are waited for at once. Hence two sets: :meth:`GameState.to_act` (may act) and
:meth:`GameState.waiting_for` (the game cannot go on until one of them acts).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, Self

from muggins.core.chance import Chance
from muggins.core.errors import IllegalAction, NoSuchSeat, UnknownAction, shown


class Action(NamedTuple):
    """A move. Immutable and hashable; its meaning is the game's.

    ``kind`` names the move ("play", "draw", "pass", "knock", "go", "discard", "muggins", "claim", …);
    ``subject`` is what is moved (a tile, a card, a tuple of cards, or a muggins amount);
    ``target`` and ``part`` say where (a domino's layout tile and which free part of it);
    ``claim`` is the points the player announces with the move in manual claim mode (None: says nothing).
    """

    kind: str
    subject: Any = None
    target: Any = None
    part: str | None = None
    claim: int | None = None

    def with_claim(self, claim: Any) -> Action:
        # untyped on purpose: a compiled build would coerce 7.5 or True to an int before the engine sees it
        return self._replace(claim=claim)


def check_seat(seat: object, num_players: int) -> int:
    """``seat`` if it is a plain whole number from 0 to ``num_players`` - 1, else :class:`NoSuchSeat`
    (a bool or a float is not a seat, in both builds alike)."""
    if type(seat) is not int or not 0 <= seat < num_players:
        raise NoSuchSeat(f"there is no seat {shown(seat)}; seats are 0 to {num_players - 1}")
    return seat


def check_action(action: object) -> Action:
    """``action`` if it is an :class:`Action` whose kind is text, else :class:`UnknownAction`."""
    if not isinstance(action, Action) or not isinstance(action[0], str):
        raise UnknownAction(f"{shown(action)} is not a move of this game")
    return action


class Event:
    """One entry of the event log. ``secret`` names the keys of ``data`` that only ``seat`` may see."""

    __slots__ = ("data", "kind", "seat", "secret")

    def __init__(self, kind: str, seat: int | None, data: dict[str, Any] | None = None,
                 secret: tuple[str, ...] = ()) -> None:
        self.kind = kind
        self.seat = seat
        self.data = data if data is not None else {}
        self.secret = secret

    def to_dict(self, viewer: int | str | None = "all") -> dict[str, Any]:
        """The event as a JSON-able dict, as ``viewer`` may see it ("all": unredacted)."""
        d: dict[str, Any] = {"kind": self.kind}
        if self.seat is not None:
            d["seat"] = self.seat
        if self.secret and viewer != "all" and viewer != self.seat:
            d.update((k, v) for k, v in self.data.items() if k not in self.secret)
        else:
            d.update(self.data)
        return d

    @property
    def points(self) -> int:
        return int(self.data.get("points", 0)) if self.kind == "score" else 0

    def __repr__(self) -> str:
        return f"Event({self.kind!r}, {self.seat!r}, {self.data!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]


# The fields of GameState (protocol.pxd declares them for the compiled build).
_BASE_FIELDS = ("rules", "num_players", "chance", "history", "log", "_over", "_winners", "_scores", "_side")


class GameState:
    """One position of one game, mutable in :meth:`apply`, cheap to :meth:`clone`.

    Scores are kept per *side*: a side is a seat, or a partnership in the team games
    (:meth:`side_of`). A "score" event's ``data`` holds ``side`` and ``points``; the side scores always
    equal the sums of those events.

    A compiled build makes this an extension type (``protocol.pxd``) so that a game may be one too; the
    attributes are declared by each game.
    """

    if TYPE_CHECKING:
        game: ClassVar[str]

        rules: Any
        num_players: int
        chance: Chance
        history: list[tuple[int, Action]]
        log: list[Event]

    # --- who acts -----------------------------------------------------------------------------------
    def to_act(self) -> frozenset[int]:
        """Seats that may act now (empty once the game is over)."""
        raise NotImplementedError

    def waiting_for(self) -> frozenset[int]:
        """Seats the game waits for; a subset of :meth:`to_act`. Others may act but need not."""
        raise NotImplementedError

    def legal_actions(self, seat: int) -> list[Action]:
        """Every legal action of ``seat``. In manual claim mode a scoring move carries its true claim;
        any other claim is legal too (an under- or over-claim is a mistake, not an illegal move)."""
        raise NotImplementedError

    def apply(self, seat: int, action: Action) -> None:
        """Validate and apply, or raise :class:`IllegalAction` (a subclass) leaving the state unchanged."""
        raise NotImplementedError

    # --- outcome ------------------------------------------------------------------------------------
    # A game keeps ``_over``, ``_winners``, ``_scores`` (one per side) and ``_side`` (the side of each seat).
    if TYPE_CHECKING:
        _over: bool
        _winners: frozenset[int]
        _scores: list[int]
        _side: list[int]

    def is_over(self) -> bool:
        return self._over

    def winners(self) -> frozenset[int]:
        """Seats that won (partners both), empty while the game goes on."""
        return self._winners

    def side_of(self, seat: int) -> int:
        return self._side[seat]

    @property
    def num_sides(self) -> int:
        return len(self._scores)

    def side_scores(self) -> list[int]:
        return list(self._scores)

    def scores(self) -> list[int]:
        """Score of each seat (a partner shows the team's score)."""
        s = self.side_scores()
        return [s[self.side_of(i)] for i in range(self.num_players)]

    # --- information --------------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator), as JSON-able data. Never holds a secret."""
        raise NotImplementedError

    def events_for(self, seat: int | None, start: int = 0) -> list[dict[str, Any]]:
        """The event log from ``start`` as ``seat`` may see it."""
        return [e.to_dict(seat) for e in self.log[start:]]

    def sample_hidden(self, seat: int, rng: random.Random) -> Self:
        """A full state consistent with everything ``seat`` has seen, hidden parts drawn from ``rng``."""
        raise NotImplementedError

    def _award(self, side: int, points: int, seat: int | None, reason: str, /) -> object:
        """Credit ``points`` to ``side`` as one scoring step (each game applies its target rules)."""
        raise NotImplementedError

    def max_step_points(self) -> int:
        """The most one scoring step of this game can make under its rules: the bound of every claim,
        late claim and muggins amount (larger ones are refused with BadAmount before anything changes)."""
        return int(self.rules.max_step_points)

    def _over_claim(self, seat: int, amount: int, true_points: int, what: str) -> None:
        """An over-claim is void; with ``over_claim=opponent_scores`` the next opponent in seat order scores
        the claimed amount as a penalty.

        The event tells everybody the announced figure and what follows from it; the true figure goes to the
        claimer alone (``true``, a secret field): the others learn what was missed when the window closes."""
        penalty = self.rules.over_claim == "opponent_scores"
        message = (f"announced {amount}, more than the {what} is worth: the claim is void and "
                   + (f"the next opponent scores {amount} as a penalty" if penalty else "scores nothing"))
        self.log.append(Event("over_claim", seat, {"points": amount, "true": true_points, "what": what,
                                                   "message": message}, ("true",)))
        if penalty:
            n = self.num_players
            for k in range(1, n):
                o = (seat + k) % n
                if self.side_of(o) != self.side_of(seat):
                    self._award(self.side_of(o), amount, o, "over-claim penalty")
                    return

    def claim_for(self, seat: int, action: Action) -> int:
        """The points ``action`` would score for ``seat`` now: what a perfect player announces with it
        (for a late "claim", what the seat may still claim). 0 for a move that scores nothing."""
        return 0

    def muggable(self, seat: int) -> int:
        """Points ``seat`` could take by calling muggins now (0 when there is nothing to take).

        Derived from public information only (an attentive player can see it); interfaces must not
        show it, it is for bots and statistics."""
        return 0

    # --- copies -------------------------------------------------------------------------------------
    def clone(self) -> Self:
        raise NotImplementedError

    def undo(self, steps: object = 1) -> None:
        """Take back the last ``steps`` actions (replays the game from its record with the same chance)."""
        if type(steps) is not int or not 0 <= steps <= len(self.history):
            raise IllegalAction(f"cannot undo {shown(steps)} action(s); {len(self.history)} made")
        fresh = type(self).new(self.rules, self.num_players, self.chance.rewound())
        for seat, action in self.history[: len(self.history) - steps]:
            fresh.apply(seat, action)
        self._become(fresh)

    def _become(self, other: Self) -> None:
        """Take every field of ``other`` (a state of the same game) as this state's own."""
        for name in _BASE_FIELDS:
            setattr(self, name, getattr(other, name))
        self.__dict__.clear()
        self.__dict__.update(other.__dict__)

    def _clone_base(self, c: Self) -> None:
        """Give ``c`` the fields every game keeps: shared where never changed in place, else copied."""
        c.rules = self.rules
        c.num_players = self.num_players
        c.chance = self.chance.copy()
        c.history = self.history[:]
        c.log = self.log[:]
        c._over = self._over
        c._winners = self._winners
        c._scores = self._scores[:]
        c._side = self._side

    @classmethod
    def new(cls, rules: Any, num_players: int, chance: Chance) -> Self:
        """Start a game. All randomness comes from ``chance``."""
        raise NotImplementedError

    def inventory(self) -> dict[str, list[str]]:
        """Every piece of the game by where it lies now, as text: ``"hand N"`` for seat N's hand, ``"stock"``
        for the pieces nobody has seen (a boneyard, a stock, the undealt pack), other names for the rest
        (a layout, a pile, a crib, a starter). Together they always hold the full set, each piece once:
        the conformance suite checks that nothing is lost or made up."""
        raise NotImplementedError

    # --- notation -----------------------------------------------------------------------------------
    def format_action(self, action: Action) -> str:
        """Readable, unambiguous text of the move (without its claim)."""
        raise NotImplementedError

    def parse_action(self, text: str, seat: int | None = None) -> Action:
        """Parse the text of a move (no claim) in the current position; raises UnknownAction."""
        raise NotImplementedError

    def action_to_json(self, seat: int, action: Action) -> dict[str, Any]:
        d: dict[str, Any] = {"seat": seat, "move": self.format_action(action)}
        if action.claim is not None:
            d["claim"] = action.claim
        return d
