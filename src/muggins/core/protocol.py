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
from muggins.core.claims import Window, check_points, parse_points, resolve_call, settle_claim
from muggins.core.errors import ClaimError, GameOver, IllegalAction, NoSuchSeat, UnknownAction, shown
from muggins.core.events import EventKind
from muggins.core.fields import COPY, LIST, SHARED, StateField
from muggins.core.views import View

# Plain ints under other names: a compiled build (protocol.pxd, a game's .pxd) keeps the arguments they
# annotate Python objects in the methods it declares, where ``int`` would not match the declaration.
Seat = int
Points = int


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
    if not isinstance(action, Action) or not isinstance(action.kind, str):
        raise UnknownAction(f"{shown(action)} is not a move of this game")
    return action


_HOOKS: dict[type[GameState], tuple[bool, bool]] = {}


def _hooks_of(cls: type[GameState]) -> tuple[bool, bool]:
    """Whether the game ``cls`` overrides ``_closes_window`` and ``_on_window_closed``: the defaults need
    no call, and these run on nearly every move in manual mode."""
    h = _HOOKS[cls] = (cls._closes_window is not GameState._closes_window,
                       cls._on_window_closed is not GameState._on_window_closed)
    return h


class Event:
    """One entry of the event log. ``secret`` names the keys of ``data`` that only ``seat`` may see."""

    __slots__ = ("data", "kind", "seat", "secret")

    def __init__(self, kind: str | EventKind, seat: int | None, data: dict[str, Any] | None = None,
                 secret: tuple[str, ...] = ()) -> None:
        # ``kind`` untyped for a compiled build, which refuses a str subclass (an EventKind) where str is declared
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
        return int(self.data.get("points", 0)) if self.kind == EventKind.SCORE else 0

    def __repr__(self) -> str:
        return f"Event({self.kind!r}, {self.seat!r}, {self.data!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]


MUGGINS = Action("muggins")
_EMPTY: frozenset[int] = frozenset()
_MAX_MOVE_TEXT = 200  # no move is longer; longer text is refused before it is read

# The fields every game keeps: the one declaration of each (see muggins.core.fields, which generates from
# it the hints of GameState, _BASE_FIELDS, protocol.pxd and every game's clone of these fields).
# fields-target: GameState BASE_FIELDS _BASE_FIELDS pxd="GameState, typed"
BASE_FIELDS = (
    StateField("rules", "object", "Any", SHARED),
    StateField("num_players", "long", "int", SHARED),
    StateField("chance", "object", "Chance", COPY),
    StateField("history", "list", "list[tuple[int, Action]]", LIST),
    StateField("log", "list", "list[Event]", LIST),
    StateField("_over", "bint", "bool", SHARED),
    StateField("_winners", "object", "frozenset[int]", SHARED),
    StateField("_scores", "list", "list[int]", LIST, "one per side"),
    StateField("_side", "list", "list[int]", SHARED, "the side of each seat"),
    StateField("_manual", "bint", "bool", SHARED, "claims are announced (the muggins rule is on)"),
    StateField("_window", "object", "Window | None", COPY, "the open muggins window"),
    StateField("_ver", "long", "int", SHARED, "bumped on every change"),
)

# >>> generated by python -m muggins.core.fields from BASE_FIELDS: do not edit (names)
_BASE_FIELDS = (
    "rules", "num_players", "chance", "history", "log", "_over", "_winners", "_scores", "_side", "_manual",
    "_window", "_ver",
)
# <<< end of generated names

# called on every move: C calls in a compiled game (a game in Python still overrides them)
PXD_METHODS = """
cpdef list _regular(self, long seat)
cpdef _apply_move(self, long seat, action)
cpdef _clone_base(self, GameState c)
cpdef _score_step(self, long seat, long points, claim, str reason, str what=*, bint muggable=*, late_limit=*,
                  bint extend=*)
"""


class GameState:
    """One position of one game, mutable in :meth:`apply`, cheap to :meth:`clone`.

    Scores are kept per *side*: a side is a seat, or a partnership in the team games
    (:meth:`side_of`). A "score" event's ``data`` holds ``side`` and ``points``; the side scores always
    equal the sums of those events.

    A compiled build makes this an extension type (``protocol.pxd``) so that a game may be one too; its
    fields are declared once, in ``BASE_FIELDS``, and each game's in its own table.
    """

    if TYPE_CHECKING:
        game: ClassVar[str]

        # >>> generated by python -m muggins.core.fields from BASE_FIELDS: do not edit (hints)
        rules: Any
        num_players: int
        chance: Chance
        history: list[tuple[int, Action]]
        log: list[Event]
        _over: bool
        _winners: frozenset[int]
        _scores: list[int]      # one per side
        _side: list[int]        # the side of each seat
        _manual: bool           # claims are announced (the muggins rule is on)
        _window: Window | None  # the open muggins window
        _ver: int               # bumped on every change
        # <<< end of generated hints

    # --- who acts -----------------------------------------------------------------------------------
    # GameState owns the muggins rule (RULES.md §2.8): the window, calls, late claims and who may act while
    # a window is open. A game keeps only its own moves (_regular, _apply_move, waiting_for) and reports
    # each scoring step with _score_step.
    claim_kinds: ClassVar[tuple[str, ...]] = ("play",)  # the moves that may carry a claim
    _call_deadline: ClassVar[str] = "before the next player acts"  # when a window closes, in words

    def to_act(self) -> frozenset[int]:
        """Seats that may act now (empty once the game is over): those the game waits for, and while a
        window is open every opponent of the scorer (a call) and the scorer himself if he may claim late."""
        if self._over:
            return _EMPTY
        base = self.waiting_for()
        w = self._window
        if w is None:
            return base
        side = self._side
        seats = {s for s in range(self.num_players) if side[s] != w.scorer_side}
        seats.update(base)
        if w.may_claim:
            seats.add(w.scorer)
        return frozenset(seats)

    def waiting_for(self) -> frozenset[int]:
        """Seats the game waits for; a subset of :meth:`to_act`. Others may act but need not."""
        raise NotImplementedError

    def legal_actions(self, seat: object) -> list[Action]:
        """Every legal action of ``seat``: the game's own moves, then "muggins" or "claim" while a window
        lets this seat call or claim late. Any claim on a scoring move is legal (an under- or over-claim is
        a mistake, not an illegal move). A seat the game does not have is refused (:class:`NoSuchSeat`)."""
        if type(seat) is not int or not 0 <= seat < self.num_players:
            seat = check_seat(seat, self.num_players)
        if self._over:
            return []
        out = list(self._regular(seat))
        w = self._window
        if w is not None:
            if self._side[seat] != w.scorer_side:
                out.append(MUGGINS)
            elif seat == w.scorer and w.may_claim:
                out.append(tuple.__new__(Action, ("claim", None, None, None, w.late_claimable())))  # its true amount
        return out

    def _regular(self, seat: Seat) -> list[Action]:
        """The game's own legal moves of ``seat`` (no calls, no late claims); may be a cached list."""
        raise NotImplementedError

    def apply(self, seat: object, action: object) -> None:
        """Validate and apply, or raise :class:`IllegalAction` (a subclass) leaving the state unchanged.

        Calls and late claims are settled here; any other move has its claim checked, closes the open
        window (when :meth:`_closes_window` says so) and goes to the game's :meth:`_apply_move`."""
        # ``seat`` and amounts are checked here, untyped: a compiled build must not coerce 1.0 or True first
        if self._over:
            raise GameOver("the game is over")
        # check_action and check_seat, inline: a call each costs more than the checks on every move
        if not isinstance(action, Action) or not isinstance(action.kind, str):
            action = check_action(action)
        if type(seat) is not int or not 0 <= seat < self.num_players:
            seat = check_seat(seat, self.num_players)
        kind = action.kind  # a field by name: indexing a tuple subclass is several times slower compiled
        claim = action.claim
        if kind == "muggins" or kind == "claim":
            if claim is not None:
                check_points(claim, self.max_step_points(), "a muggins call" if kind == "muggins" else "a claim")
            if kind == "muggins":
                self._call(seat, claim)
            else:
                self._late_claim(seat, claim)
            return
        if claim is not None:
            if not self._manual:
                raise ClaimError("points are scored automatically in this game; do not announce them "
                                 "(the option claims=manual turns the muggins rule on)")
            if kind not in self.claim_kinds:
                kinds = " or ".join(f"a {k}" for k in self.claim_kinds)
                raise ClaimError(f"only {kinds} can carry a claim, not {shown(kind)}")
            check_points(claim, self.max_step_points(), "a claim")
        w = self._window
        if w is None:
            self._apply_move(seat, action)
            return
        closes, told = _HOOKS.get(type(self)) or _hooks_of(type(self))
        if closes and not self._closes_window(seat, action):
            self._apply_move(seat, action)
            return
        mark = len(self.log)
        self._window = None  # _end_window, inline: it runs on nearly every move in manual mode
        if w.missed > 0:
            self.log.append(Event("missed", w.scorer, {"side": w.scorer_side, "points": w.missed,
                                                       "reason": w.reason}))
        if told:
            self._on_window_closed()
        try:
            self._apply_move(seat, action)
        except IllegalAction:  # the move was refused before it changed anything: reopen the window
            self._reopen_window(w, mark)
            raise

    def _apply_move(self, seat: Seat, action: Action) -> None:
        """Check that ``action`` is legal for ``seat`` (else raise an IllegalAction subclass, changing
        nothing), append ``(seat, action)`` to ``history`` and make the move."""
        raise NotImplementedError

    def _closes_window(self, seat: int, action: Action) -> bool:
        """Whether ``action`` closes the open window (by default every move does)."""
        return True

    def _on_window_closed(self) -> None:
        """Runs whenever a window closes and when the game ends (cribbage tells the true count of a show)."""

    def _reopen_window(self, window: Window, mark: int) -> None:
        """Undo the closing of ``window`` for a move refused after it: the log loses what closing wrote.
        A game whose :meth:`_on_window_closed` changes its own fields puts them back too."""
        del self.log[mark:]
        self._window = window

    # --- the muggins window -------------------------------------------------------------------------
    def _score_step(self, seat: Seat, points: Points, claim: Points | None, reason: str, what: str | None = None,
                    muggable: bool = True, late_limit: Points | None = None, extend: bool = False) -> None:
        """Credit one scoring step of ``seat``: ``points`` true points, ``claim`` announced with the move.

        In auto mode (or for a step the rules do not let anybody mug) the points are awarded. In manual mode
        the claim is settled (:meth:`_settle_step`), what was announced is awarded, and a window opens on
        what was missed (:meth:`_open_window`); if the game ended meanwhile, that is logged as missed."""
        if not self._manual or not muggable:
            if points:
                self._award(self._side[seat], points, seat, reason)
            return
        if claim is None:
            awarded, missed = 0, points
        else:
            awarded, missed = self._settle_step(seat, points, claim, reason if what is None else what)
            if awarded and not self._over:
                self._award(self._side[seat], awarded, seat, reason)
        if self._window is None and late_limit is None and not self._over:
            # the common case of _open_window, inline: every scoring step in manual mode comes here
            may = claim is None and self.rules.claim_timing == "lenient"
            self._window = Window(seat, self._side[seat], missed, claim, reason, may, what, missed if may else 0)
        else:
            self._open_window(seat, missed, claim, reason, what, late_limit, extend)

    def _settle_step(self, seat: int, points: int, claim: int | None, what: str) -> tuple[int, int]:
        """(awarded, missed) of a step worth ``points`` announced as ``claim``; logs the claim, and an
        over-claim (void, or penalised per ``over_claim``). Saying nothing claims 0."""
        if claim is None:
            return 0, points
        awarded, missed, over = settle_claim(points, claim)
        self.log.append(Event("claim", seat, {"points": claim}))
        if over:
            self._over_claim(seat, claim, points, what)
        return awarded, missed

    def _open_window(self, seat: int, missed: int, claim: int | None, reason: str, what: str | None = None,
                     late_limit: int | None = None, extend: bool = False) -> None:
        """Open the window on ``missed`` points of ``seat``'s step (after closing any other), or with
        ``extend`` add them to ``seat``'s still-open window. With lenient timing a scorer who said nothing
        may claim late; with ``late_limit`` he may claim up to that much whatever the timing (a bonus).
        Once the game is over nothing can be claimed any more: the points are logged as missed."""
        if self._over:
            if missed:
                self.log.append(Event("missed", seat, {"side": self._side[seat], "points": missed,
                                                       "reason": reason}))
            return
        if late_limit is not None:
            may, late = True, late_limit
        elif claim is None and self.rules.claim_timing == "lenient":
            may, late = True, missed
        else:
            may, late = False, 0
        w = self._window
        if w is not None:
            if extend and w.scorer == seat:
                w.missed += missed
                w.reason = reason
                w.what = reason if what is None else what
                if may:
                    w.may_claim = True
                    w.late += late
                return
            self._end_window()
        self._window = Window(seat, self._side[seat], missed, claim, reason, may, what, late)

    def _end_window(self) -> None:
        """Close the open window: what is still unclaimed is missed for good. A game's ``_finish`` calls
        this, so points unclaimed when the game ends are logged as missed."""
        w = self._window
        if w is not None:
            self._window = None
            if w.missed > 0:
                self.log.append(Event("missed", w.scorer, {"side": w.scorer_side, "points": w.missed,
                                                           "reason": w.reason}))
        if (_HOOKS.get(type(self)) or _hooks_of(type(self)))[1]:
            self._on_window_closed()

    def _call(self, seat: int, amount: int | None) -> None:
        """A muggins call by ``seat``, naming ``amount`` (None: all that was missed). The first caller
        settles the window."""
        if not self._manual:
            raise ClaimError("there is no muggins in this game: points are scored automatically")
        w = self._window
        if w is None:
            raise ClaimError(f"no muggins window is open: a call must come {self._call_deadline}")
        if self._side[seat] == w.scorer_side:
            raise ClaimError("you cannot call muggins on your own side")
        r = self.rules
        res = resolve_call(w, amount, r.muggins, r.false_call_penalty, r.false_call_points,
                           r.max_points_of(w.reason))
        self.history.append((seat, Action("muggins", claim=amount)))
        self._ver += 1
        self._window = None
        self.log.append(Event("muggins", seat, {"on": w.scorer, "outcome": res.outcome,
                                                "points": res.caller_gain, "named": amount,
                                                "missed": w.missed, "reason": w.reason}))
        if (_HOOKS.get(type(self)) or _hooks_of(type(self)))[1]:
            self._on_window_closed()
        cside = self._side[seat]
        if res.scorer_loss:
            self._award(w.scorer_side, -res.scorer_loss, w.scorer, "mugged")
        if res.caller_penalty:
            self._award(cside, -res.caller_penalty, seat, "false call")
        if res.scorer_award and not self._over:
            self._award(w.scorer_side, res.scorer_award, w.scorer, "false call")
        if res.caller_gain and not self._over:
            self._award(cside, res.caller_gain, seat, "muggins")
        if (res.outcome == "steal" or res.outcome == "steal_and_deduct") and w.missed > res.caller_gain:
            self.log.append(Event("missed", w.scorer, {"side": w.scorer_side,
                                                       "points": w.missed - res.caller_gain,
                                                       "reason": w.reason}))

    def _late_claim(self, seat: int, amount: int | None) -> None:
        """The scorer announces late what he left out (lenient timing, or a bonus the rules let him claim)."""
        w = self._window
        if w is None or seat != w.scorer or not w.may_claim:
            raise ClaimError("there is nothing for you to claim now")
        if amount is None:
            raise ClaimError("a claim names its points, like 'claim 2'")
        self.history.append((seat, Action("claim", claim=amount)))
        self._ver += 1
        may = w.late_claimable()
        w.may_claim = False
        w.late = 0
        w.claimed = amount
        self.log.append(Event("claim", seat, {"points": amount, "late": True}))
        if amount <= may:
            w.missed -= amount
            self._award(w.scorer_side, amount, seat, w.reason)
        else:
            self._over_claim(seat, amount, may, w.what)

    # --- outcome ------------------------------------------------------------------------------------
    # A game keeps ``_over``, ``_winners``, ``_scores`` (one per side) and ``_side`` (the side of each seat).
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
    def view(self, seat: int | None) -> View:
        """What ``seat`` may see (``None``: a spectator): the game's typed view, a read-only mapping over
        its JSON form (``to_json()``). Never holds a secret."""
        raise NotImplementedError

    def events_for(self, seat: int | str | None, start: int = 0) -> list[dict[str, Any]]:
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
        if self._over:
            return 0
        if action.kind == "claim":
            w = self._window
            return w.late_claimable() if w is not None and w.scorer == seat else 0
        return self._points_of(seat, action)

    def _points_of(self, seat: int, action: Action) -> int:
        """The points one of the game's own moves makes for ``seat`` now (0 if it scores nothing)."""
        return 0

    def muggable(self, seat: int) -> int:
        """Points ``seat`` could take by calling muggins now (0 when there is nothing to take).

        Derived from public information only (an attentive player can see it); interfaces must not
        show it, it is for bots and statistics."""
        w = self._window
        if w is None or self._over or self._side[seat] == w.scorer_side:
            return 0
        return w.missed

    # --- copies -------------------------------------------------------------------------------------
    def clone(self) -> Self:
        """A copy to change freely; each game's clone is generated from its table of fields."""
        raise NotImplementedError

    def undo(self, steps: object = 1) -> None:
        """Take back the last ``steps`` actions (replays the game from its record with the same chance)."""
        if type(steps) is not int or not 0 <= steps <= len(self.history):
            raise IllegalAction(f"cannot undo {shown(steps)} action(s); {len(self.history)} made")
        fresh = type(self).new(self.rules, self.num_players, self.chance.rewound())
        for seat, action in self.history[: len(self.history) - steps]:
            fresh.apply(seat, action)
        self._become(fresh)

    def _clone_base(self, c: GameState) -> None:
        """Give ``c`` the fields every game keeps; each game's clone calls it first, then copies its own."""
        # >>> generated by python -m muggins.core.fields from BASE_FIELDS: do not edit (clone)
        c.rules = self.rules
        c.num_players = self.num_players
        c.chance = self.chance.copy()
        c.history = self.history[:]
        c.log = self.log[:]
        c._over = self._over
        c._winners = self._winners
        c._scores = self._scores[:]
        c._side = self._side
        c._manual = self._manual
        c._window = self._window.copy() if self._window is not None else None
        c._ver = self._ver
        # <<< end of generated clone

    def _become(self, other: Self) -> None:
        """Take every field of ``other`` (a state of the same game) as this state's own."""
        for name in _BASE_FIELDS:
            setattr(self, name, getattr(other, name))
        self.__dict__.clear()
        self.__dict__.update(other.__dict__)

    @classmethod
    def new(cls, rules: Any, num_players: int, chance: Chance) -> Self:
        """Start a game. All randomness comes from ``chance``."""
        raise NotImplementedError

    @classmethod
    def _blank(cls, rules: Any, num_players: int, chance: Chance, sides: list[int]) -> Self:
        """A state of ``cls`` before anything happened, for ``new``: the fields every game keeps, with
        ``sides`` the side of each seat (every side at 0 points)."""
        s = cls.__new__(cls)
        s.rules = rules
        s.num_players = num_players
        s.chance = chance
        s.history = []
        s.log = []
        s._over = False
        s._winners = frozenset()
        s._side = sides
        s._scores = [0] * (max(sides) + 1)
        s._manual = rules.claims == "manual"
        s._window = None
        s._ver = 0
        return s

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

    def _words(self, text: object, empty: str = "empty move") -> list[str]:
        """The words of a move's text (commas count as spaces); UnknownAction for text that is no move,
        ``empty`` saying what to write instead of nothing."""
        if not isinstance(text, str) or len(text) > _MAX_MOVE_TEXT:
            raise UnknownAction(f"a move is text of at most {_MAX_MOVE_TEXT} characters; got {shown(text)}")
        words = text.strip().replace(",", " ").split()
        if not words:
            raise UnknownAction(empty)
        return words

    def _parse_call(self, words: list[str], text: object, example: int) -> Action:
        """The call or late claim written as ``words``: "muggins", "muggins 10" or "claim 10"."""
        head = words[0]
        claim = None
        if len(words) == 2:
            claim = parse_points(head, words[1], self.max_step_points())
        elif len(words) != 1:
            raise UnknownAction(f"cannot read {text!r}; write '{head}' or '{head} {example}'")
        return Action(head, claim=claim)

    def action_to_json(self, seat: int, action: Action) -> dict[str, Any]:
        d: dict[str, Any] = {"seat": seat, "move": self.format_action(action)}
        if action.claim is not None:
            d["claim"] = action.claim
        return d

    # --- integer actions (docs/actions.md) -----------------------------------------------------------
    # A fixed numbering of every action a seat can ever take, for learning libraries and fast paths. Each
    # game names the module that numbers its moves (``action_ids = "muggins.<game>.action_ids"``).
    if TYPE_CHECKING:
        action_ids: ClassVar[str]

    def _action_space(self) -> Any:
        from muggins.core.action_ids import space_of

        return space_of(type(self).action_ids, self.rules, self.num_players)

    def num_distinct_actions(self) -> int:
        """How many action ids this game has: they run from 0 to this - 1. Depends only on the game, its
        rules and the number of players."""
        return int(self._action_space().size)

    def action_id(self, action: Action) -> int:
        """The id of ``action`` (a move legal now for some seat; the claim it carries is part of the id).
        UnknownAction if it is no move of this game, IllegalAction if it has no place in this position."""
        return int(self._action_space().action_id(self, check_action(action)))

    def action_from_id(self, seat: object, i: object) -> Action:  # untyped: a compiled build coerces True
        """The action numbered ``i``, if ``seat`` may take it now; else UnknownAction (no such id) or
        IllegalAction (the id names no legal move of ``seat`` in this position). Changes nothing."""
        seat = check_seat(seat, self.num_players)
        action: Action = self._action_space().action_from_id(self, seat, i)
        return action

    def legal_action_ids(self, seat: object) -> list[int]:  # untyped, as action_from_id
        """The ids of the actions :meth:`legal_actions` lists, ascending: each move claiming nothing, a
        muggins call naming nothing, a late claim of its true amount (one id per legal action; the mask
        has every claim besides). NoSuchSeat for a bad seat. Optional moves (calls, late claims) have the
        highest ids, so they come last."""
        seat = check_seat(seat, self.num_players)
        space = self._action_space()
        ctx = space.context(self)
        out = []
        for a in self.legal_actions(seat):
            block, base = space._base(self, a, ctx)
            out.append(block.start + base * block.width + space._code(block, a.claim))
        out.sort()
        return out

    def apply_action_id(self, seat: object, i: object) -> None:  # untyped, as action_from_id
        """Apply the action numbered ``i`` (any id the mask sets, claims included) for ``seat``: NoSuchSeat,
        GameOver, then as :meth:`action_from_id` (UnknownAction: no such id; IllegalAction: not legal for
        ``seat`` now), the state unchanged."""
        seat = check_seat(seat, self.num_players)
        if self._over:
            raise GameOver("the game is over")
        self.apply(seat, self.action_from_id(seat, i))

    def legal_action_mask(self, seat: object, numpy: bool = False) -> Any:  # untyped, as action_from_id
        """One byte per action id, 1 where ``seat`` may take that action now (every claim a legal move may
        carry included). With ``numpy=True``, a numpy array of bools (numpy must be installed)."""
        seat = check_seat(seat, self.num_players)
        mask = self._action_space().mask(self, seat)
        if numpy:
            import numpy as np

            return np.frombuffer(mask, dtype=np.bool_)  # shares the fresh bytearray: writable, no copy
        return bytes(mask)
