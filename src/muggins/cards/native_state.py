"""The card games through the protocol on their native engines: :class:`NativeCardState`, the base of
``NativeCardMugginsState`` (card Muggins) and ``NativeCribbageState`` (cribbage), and :class:`NativeBackedSpec`,
the game spec whose ``new`` gives them.

A native-backed state plays its moves in C (the game's native engine, ``muggins.cards.<game>.native``): the
integer protocol (``legal_action_ids``, ``apply_action_id``, ``waiting_for``, ``to_act``, ``is_over``) is the
engine's own methods, called with no Python frame between. Every random outcome is the one the pure engine
draws from the state's :class:`~muggins.core.chance.Chance` (the same outcome kinds, in the same order, the same
numbers of its generator), so a seed or a record's outcomes deal the same cards on both engines: recorded
outcomes are read in Python, new ones are drawn in C from the chance's generator itself (the engine holds a
copy of Python's Mersenne Twister, ``core/pyrandom.pxd``, and draws as the pure engine's code does), kept as
ints and made into the chance's outcome dicts only when :attr:`NativeCardState.chance` is read (which hands the
generator back to the chance). A new game from a fresh seed is started in C too (the cut for the deal and the
first deal); the pure state it started as is rebuilt from those outcomes when first asked for.

Python objects are made at the edge, only when asked for: the event log from the engine's int records, the
history from its (seat, id) list, ``Action`` objects from ids. A view is made from the engine's position and,
for what the position does not hold (closed piles, shows, back pegs), a *view tracker* fed the event log; the
notation is the pure state's own code run on a blank pure state of the same rules. What is rarely asked for -
the inventory, any other attribute of the pure state (``hands``, ``total``, ...) - comes from the pure *twin*:
the pure state of the same game, built from the same outcomes and moves when first asked for and brought up to
date (move by move) each time after; clones share it until one of them needs it again.
:meth:`NativeCardState.to_pure` gives a copy of it.

The pure engine stays the reference: ``MUGGINS_ENGINE=pure`` (:mod:`muggins.core.engine`), no build, a stale
build, or rules out of the engine's scope make ``spec.new`` give the pure state.
"""

from __future__ import annotations

import random
import sys
import weakref
from contextlib import suppress
from typing import Any, ClassVar, Self

from muggins.core.action_ids import ActionSpace, id_mask, space_of
from muggins.core.chance import Chance
from muggins.core.engine import refusing_type
from muggins.core.errors import GameOver, IllegalAction, shown
from muggins.core.protocol import MUGGINS, Action, Event, GameState, check_action, check_seat
from muggins.core.views import WindowView

#: the attributes a native-backed state keeps itself (never read from the twin)
_OWN = frozenset({"_nat", "_chance", "rules", "num_players", "_start", "_start_pos", "_start_len", "_log_cache",
                  "_hist_cache", "_twin_cache", "_space", "_action_cache", "_id_cache", "_table", "_fast_ids",
                  "_tracker_cache", "_log_records_cache"})


class NativeCardState:
    """A card game played by its native engine, spoken to through the protocol (see the module docstring).

    A subclass names its pure state class, its engine module and class, and says how to draw a deal (and
    a cut) through the chance and how to read the engine's winners and window."""

    game: ClassVar[str]
    action_ids: ClassVar[str]
    pure_type: ClassVar[type[GameState]]
    engine: ClassVar[str]  # the native module, e.g. "muggins.cards.muggins31.native"
    engine_class: ClassVar[str]  # its game class, e.g. "NativeCardMuggins"

    rules: Any
    num_players: int
    _nat: Any  # the engine's game
    _start: Any = None  # the pure state this game started from (never changed; None: not built yet, see _start_state)
    _start_pos: int  # the chance position of the start
    _start_len: int = 0  # the outcomes the start drew, when the engine drew them (0: made in Python)
    _log_cache: list[Event] | None = None  # the engine's events made so far (None: none made yet)
    _hist_cache: list[tuple[int, Action]] | None = None  # the engine's moves made into Actions so far (None: none)
    _twin_cache: list[Any] | None = None  # [pure twin, moves it has, whether this state owns it]
    _space: ActionSpace
    _action_cache: dict[int, Action]  # the Action of each id met (shared by every game of these rules)
    _id_cache: dict[Action, int]  # the id of each Action met that numbers it whatever the position
    _table: tuple[Action, ...]  # the Action of each of the engine's internal move ids (see regular_actions)
    _fast_ids: dict[int, int]  # the id of each Action of the table, by the object's identity
    #: what a view needs that the engine's position does not hold (closed piles, shows, ...), kept up to date
    #: from the event log (see _tracked); None: not made yet
    _tracker_cache: Any = None
    _log_records_cache: int = 0  # the engine's event records when _log_cache was last brought up to date

    # --- making one -----------------------------------------------------------------------------------
    @classmethod
    def unsupported(cls, rules: Any, num_players: int) -> str | None:
        """Why the native engine cannot play ``rules`` with ``num_players`` (not built, a stale build, rules
        outside its scope), or None: it can (see :func:`muggins.core.engine.native_state_type`)."""
        try:
            mod = _engine(cls.engine)
        except RuntimeError as e:
            return str(e)
        why: str | None = mod.unsupported(rules, num_players)
        return why

    @classmethod
    def new(cls, rules: Any, num_players: int, chance: Chance) -> Self:
        """Start a game with the very outcomes of ``pure_type.new`` (the cut for the deal, the first deal):
        drawn by the engine when ``chance`` has none recorded ahead and a generator, else by the pure engine
        (the native engine plays on from there)."""
        if type(chance) is Chance:  # (the usual case, a chance made for this game: its fields read directly)
            pos = chance._pos
            seed = chance._seed if pos == len(chance.outcomes) else None
        else:
            pos = chance.position
            seed = chance.fresh_seed if pos == len(chance.outcomes) else None
        if seed is not None:
            try:
                nat = cls._start_native(rules, num_players, seed, None)
            except (ValueError, NotImplementedError):  # a seed too wide, a game the pure engine refuses
                pass
            else:
                s = cls.__new__(cls)
                s._nat = nat
                s._start_len = drawn = nat.num_drawn()
                s._start_pos = pos + drawn
                nat.chance = chance  # (the _chance property, set without its frame)
                chance._seed = None  # the engine holds the generator (its stand-in made when handed back)
                s.rules = rules
                s.num_players = num_players
                s._setup(nat)
                return s
        return cls._own(cls.pure_type.new(rules, num_players, chance))

    @classmethod
    def _start_native(cls, rules: Any, num_players: int, seed: int | None, state: Any) -> Any:
        """The engine's new game (``start``), its cut for the deal and first deal drawn from ``random.Random(seed)``
        or the generator state ``state``."""
        raise NotImplementedError

    @classmethod
    def from_pure(cls, state: GameState) -> Self:
        """The game of the pure ``state`` from here on (a copy: ``state`` stays as it is); its log, history
        and chance are kept."""
        return cls._own(state.clone())

    @classmethod
    def _own(cls, start: GameState) -> Self:
        """Play on from ``start`` (a pure state nobody else changes: it becomes the start of this game)."""
        nat = getattr(_engine(cls.engine), cls.engine_class).from_state(start)
        s = cls.__new__(cls)
        s._nat = nat
        s._start = start
        s._start_pos = start.chance.position
        s._start_len = 0
        s._chance = start.chance
        s.rules = start.rules
        s.num_players = start.num_players
        s._setup(nat)
        return s

    #: the prepared data (see _setup) of the rules and players of this class's last new game
    _last_prepared: tuple[Any, ...] = (None, 0)

    def _setup(self, nat: Any) -> None:
        self._nat = nat
        rules, n = self.rules, self.num_players
        hit = self._last_prepared
        if hit[0] is not rules or hit[1] != n:
            key = (type(self), id(rules), n)
            made = _PREPARED.get(key)
            if made is None or made[0] is not rules:  # what every game of these rules shares, made once
                space = space_of(self.action_ids, rules, n)
                table = self._table_for(rules)
                if len(_PREPARED) > 64:
                    _PREPARED.clear()
                made = _PREPARED[key] = (rules, n, space, *_decoded(space), table, _fast_ids(space, table, self))
            hit = type(self)._last_prepared = made
        _, _, self._space, self._action_cache, self._id_cache, self._table, self._fast_ids = hit
        # the engine calls this state back (_window_actions, _apply, _draw_deal, _draw_cut) through a weak
        # reference: the engine and its state make no reference cycle, so a state dropped is freed at once
        nat.bind_owner(weakref.ref(self), self._table, self._fast_ids)

    @classmethod
    def _table_for(cls, rules: Any) -> tuple[Action, ...]:
        """The Action of each internal move id of the engine (``regular_actions``)."""
        raise NotImplementedError

    # --- the chance ---------------------------------------------------------------------------------
    # The Chance as far as the engine's drawn outcomes were taken into it (its generator stale while the
    # engine holds it): kept by the engine, with the generator state it belongs with.
    _chance = property(lambda self: self._nat.chance, lambda self, chance: setattr(self._nat, "chance", chance))

    @property
    def chance(self) -> Chance:
        """The chance of this game: every outcome drawn so far (the engine's made into outcome dicts) and the
        generator in the state the engine left it (handed back: later outcomes are drawn through this
        Chance, whatever is done with it meanwhile)."""
        return self._sync_chance(True)

    @chance.setter
    def chance(self, chance: Chance) -> None:
        """Draw later outcomes from ``chance`` (the engine's own drawn ones are forgotten)."""
        self._nat.take_drawn()
        self._nat.release_rng()
        self._chance = chance

    def _sync_chance(self, release: bool) -> Chance:
        """The chance with the engine's drawn outcomes added; with ``release`` the generator's state handed
        back to it too."""
        ch: Chance = self._chance
        drawn = self._nat.take_drawn()
        if drawn:
            made = self._outcomes(drawn)
            ch.outcomes.extend(made)
            ch._pos += len(made)
        if release:
            state = self._nat.release_rng()
            if state is not None:
                rng = ch.rng
                if rng is None:
                    rng = ch.rng = _stand_in()
                rng.setstate(state)
        return ch

    def _outcomes(self, drawn: list[tuple[int, int, int, list[int]]]) -> list[dict[str, Any]]:
        """The outcome dicts of the engine's drawn records (``take_drawn``), as the pure engine makes them."""
        raise NotImplementedError

    def _hand_over(self) -> bool:
        """Let the engine draw the next outcomes itself when the chance has none recorded ahead and its
        generator is a seed's not made yet (nobody else can hold it: a generator made or given may be drawn
        from elsewhere between two deals, so those are drawn here); False: they are read or drawn here."""
        ch = self._chance
        seed = ch.fresh_seed
        if seed is None or ch.position != len(ch.outcomes):
            return False
        try:
            self._nat.take_rng(seed=seed)
        except ValueError:  # a seed too wide for the engine
            return False
        ch.rng = _stand_in()
        return True

    def _start_state(self) -> Any:
        """The pure state this game started as (rebuilt from its outcomes when the engine drew them)."""
        start = self._start
        if start is None:
            outs = self._sync_chance(False).outcomes[self._start_pos - self._start_len:self._start_pos]
            start = self._start = self.pure_type.new(self.rules, self.num_players, Chance(outcomes=outs))
            self._start_len = 0  # (it counts the outcomes of a start not built yet)
        return start

    @property
    def native(self) -> Any:
        """The native engine's game underneath."""
        return self._nat

    @property
    def _as_state(self) -> Any:
        """This state where a pure state is expected (an action space reads it through the protocol)."""
        return self

    # The integer protocol: the engine's own methods (a caller that keeps one, as a playing loop does, calls
    # C with no Python frame between). Their semantics are the pure state's (NoSuchSeat, GameOver,
    # UnknownAction, IllegalAction; one legal id per legal action).
    legal_action_ids = property(lambda self: self._nat.legal_action_ids)
    apply_action_id = property(lambda self: self._nat.apply_action_id)
    waiting_for = property(lambda self: self._nat.waiting_for)
    to_act = property(lambda self: self._nat.to_act)
    is_over = property(lambda self: self._nat.is_over)

    @property
    def _ver(self) -> int:
        """A number that changes with every move (each logs an event): what a cache of answers about the
        position is keyed by (``GameState._ver``)."""
        return int(self._nat.num_events())

    # --- the protocol -------------------------------------------------------------------------------
    def winners(self) -> frozenset[int]:
        return frozenset(self._nat.winners())

    def side_scores(self) -> list[int]:
        return list(self._nat.side_scores())

    def side_of(self, seat: int) -> int:
        return seat

    @property
    def num_sides(self) -> int:
        return len(self._nat.side_scores())

    def scores(self) -> list[int]:
        """Score of each seat (a partner shows the team's score)."""
        s = self._nat.side_scores()
        return [s[self.side_of(i)] for i in range(self.num_players)]

    def max_step_points(self) -> int:
        return int(self.rules.max_step_points)

    def num_distinct_actions(self) -> int:
        return int(self._space.size)

    @property
    def log(self) -> list[Event]:
        """The event log: the start's, then the native engine's records made into Events (each once)."""
        evs = self._events_made()
        start: list[Event] = self._start_state().log
        return start + evs

    def events_for(self, seat: int | str | None, start: int = 0) -> list[dict[str, Any]]:
        return [e.to_dict(seat) for e in self.log[start:]]

    @property
    def history(self) -> list[tuple[int, Action]]:
        """Every action applied, as ``(seat, Action)``: the start's, then the native engine's ids made into
        the Actions they number."""
        hist = self._hist_cache
        if hist is None:
            hist = self._hist_cache = []
        nat = self._nat
        if nat.num_moves() > len(hist):
            decoded = self._action_cache
            hist.extend((seat, decoded.get(i) or _decode(self._space, decoded, i))
                        for seat, i in nat.history_ids(len(hist)))
        start: list[tuple[int, Action]] = [] if self._start is None else self._start.history
        return start + hist

    # Actions: the engine's methods too (bind_actions): the game's own moves from a table of Actions made once,
    # an Action of that table applied by its id; anything else through _apply.
    legal_actions = property(lambda self: self._nat.legal_actions)
    apply = property(lambda self: self._nat.apply_action)

    def _window_actions(self, seat: int) -> list[Action]:
        """What an open muggins window adds to ``seat``'s legal actions (as the pure state): a muggins call, or
        the scorer's late claim."""
        w = self._nat.window()
        if w is None:
            return []
        scorer, missed, _, _, may, late = w[:6]
        if self.side_of(seat) != self.side_of(scorer):
            return [MUGGINS]
        if seat == scorer and may:
            return [Action("claim", claim=min(missed, late))]
        return []

    def _regular(self, seat: int) -> list[Action]:
        """The game's own moves of ``seat`` now (``legal_actions`` without a muggins call or late claim)."""
        regular: list[Action] = self._nat.regular_actions(seat, self._table)
        return regular

    def legal_action_mask(self, seat: object, numpy: bool = False) -> Any:
        """One byte per action id, 1 where ``seat`` may take that action now (every claim included)."""
        return id_mask(self._space.size, self._nat.legal_ids(check_seat(seat, self.num_players)), numpy)

    def action_id(self, action: Action) -> int:
        return int(self._space.action_id(self._as_state, check_action(action)))

    def action_from_id(self, seat: object, i: object) -> Action:
        seat = check_seat(seat, self.num_players)
        action: Action = self._space.action_from_id(self._as_state, seat, i)
        return action

    def _apply(self, seat: object, action: object) -> None:
        """Validate and apply natively; a move the engine refuses gets the pure engine's refusal (its
        exception type and words), the state unchanged."""
        nat = self._nat
        if nat.is_over():
            raise GameOver("the game is over")
        if not isinstance(action, Action) or not isinstance(action.kind, str):
            action = check_action(action)
        if type(seat) is not int or not 0 <= seat < self.num_players:
            seat = check_seat(seat, self.num_players)
        try:
            i = None
            if action.claim is None or type(action.claim) is int:  # True == 1 but is no amount
                with suppress(TypeError):  # a field that cannot be hashed: no move, the space says why
                    i = self._id_cache.get(action)
            if i is None:
                i = self._space.action_id(self._as_state, action)
                if (self._action_cache.get(i) or _decode(self._space, self._action_cache, i)) == action:
                    self._id_cache[action] = i  # its id in any position
            nat.apply_id(seat, i)
        except IllegalAction as e:
            why = self._refusal(seat, action)
            if why is not None:
                raise why from None
            self._synced().clone().apply(seat, action)  # the reference engine's words for the refusal
            raise e from None  # (both engines refuse the same moves: the lockstep tests hold them to it)

    def _refusal(self, seat: object, action: Action) -> IllegalAction | None:
        """The pure engine's refusal of ``action`` (its ``apply``: the same checks, the same words), run on a
        pure state holding what those checks read of this position (``_refusing``), its legal moves this
        engine's; None for a call or a late claim (that code reads the window). A move refused with a window
        open is refused by the same checks, after the window's closing, which they do not read."""
        if action.kind in ("muggins", "claim"):
            return None
        blank = self._notation_of(refusing_type(self.pure_type))
        blank._over = False
        blank._manual = self.rules.claims == "manual"
        blank._window = None
        blank.log = []
        blank.history = []
        blank._ver = 0
        blank.legal = self._regular
        self._refusing(blank)
        try:
            blank.apply(seat, action)
        except IllegalAction as e:
            return e
        except Exception:  # it read what it was not given: the twin says it
            return None
        return None

    def _refusing(self, blank: Any) -> None:
        """Set on ``blank`` what the pure engine's checks of a move read of this position."""
        raise NotImplementedError

    def claim_for(self, seat: int, action: Action) -> int:
        """The points ``action`` would score for ``seat`` now (what a perfect player announces with it)."""
        if self._nat.is_over():
            return 0
        if action.kind == "claim":
            w = self._nat.window()
            return min(w[1], w[5]) if w is not None and w[0] == seat and w[4] else 0
        return self._points_of(seat, action)

    def _points_of(self, seat: int, action: Action) -> int:
        return int(self._synced()._points_of(seat, action))

    def muggable(self, seat: int) -> int:
        """Points ``seat`` could take by calling muggins now (0 when there is nothing to take)."""
        w = self._nat.window()
        if w is None or self._nat.is_over() or self.side_of(seat) == self.side_of(w[0]):
            return 0
        return int(w[1])

    # --- what comes from the pure twin ----------------------------------------------------------------
    def _synced(self) -> Any:
        """The pure twin, brought up to date (built on first use; copied first when a clone shares it)."""
        twin = self._twin_cache
        ch = self._sync_chance(False)
        if twin is None:
            start = self._start_state()
            t = start.clone()
            c = Chance(outcomes=ch.outcomes[: ch.position])
            c._pos = self._start_pos  # replays the outcomes drawn so far, from where the start was
            t.chance = c
            twin = self._twin_cache = [t, len(start.history), True]
        elif not twin[2]:
            twin = self._twin_cache = [twin[0].clone(), twin[1], True]
        hist = self.history
        if twin[1] < len(hist):
            t = twin[0]
            have, pos = t.chance.outcomes, ch.position
            if len(have) < pos:
                have.extend(ch.outcomes[len(have):pos])
            for seat, action in hist[twin[1]:]:
                t.apply(seat, action)
            twin[1] = len(hist)
        return twin[0]

    def to_pure(self) -> Any:
        """The equal pure state (a copy of the twin: the same deals, the same moves)."""
        return self._synced().clone()

    def view(self, seat: object) -> Any:
        """What ``seat`` may see (None: a spectator), made from the engine's data: equal to the pure state's
        view of the same game."""
        return self._view(None if seat is None else check_seat(seat, self.num_players))

    def _view(self, seat: int | None) -> Any:
        raise NotImplementedError

    def _events_made(self) -> list[Event]:
        """The engine's events, each made into an Event once (``_log_cache``, brought up to date)."""
        evs = self._log_cache
        if evs is None:
            evs = self._log_cache = []
        records = self._nat.num_events()  # (a list of cards may take records of its own)
        if records != self._log_records_cache:
            evs.extend(self._nat.events(len(evs)))
            self._log_records_cache = records
        return evs

    def _tracked(self) -> Any:
        """The view tracker (``_new_tracker``) fed every event logged so far."""
        t = self._tracker_cache
        if t is None:
            t = self._tracker_cache = self._new_tracker(self._start_state())
        evs = self._events_made()
        if t.pos < len(evs):
            for e in evs[t.pos:]:
                t.feed(e)
            t.pos = len(evs)
        return t

    def _new_tracker(self, start: Any) -> Any:
        """A view tracker at the pure position ``start`` (this game's start), fed nothing yet."""
        raise NotImplementedError

    def sample_hidden(self, seat: int, rng: random.Random) -> Self:
        """As the pure state's (the same draw from ``rng``), played on natively."""
        return self._own(self._synced().sample_hidden(seat, rng))

    def _replayed_with(self, outcomes: list[dict[str, Any]], history: list[tuple[int, Action]]) -> Self:
        """A native game of these rules dealt from ``outcomes`` with the moves of ``history`` applied: a
        sampled world (its record with the hidden cards drawn afresh) played to this point."""
        sample = type(self).new(self.rules, self.num_players, Chance(outcomes=outcomes))
        for who, action in history:
            sample.apply(who, action)
        return sample

    def inventory(self) -> dict[str, list[str]]:
        """Every card by where it lies, as the pure state names and orders them (``GameState.inventory``),
        from the engine's data and the record."""
        raise NotImplementedError

    # The notation: the pure state's own code, run on a blank pure state of these rules holding only what that
    # code reads of the position (see _notation).
    def _notation(self) -> Any:
        """A pure state of these rules with no position: its ``format_action``, ``action_to_json`` and
        ``parse_action`` read the rules alone (a subclass sets what else its parsing reads)."""
        return self._notation_of(self.pure_type)

    def _notation_of(self, kind: Any) -> Any:
        """A state of the pure class ``kind`` with these rules and players and no position."""
        blank = kind.__new__(kind)
        blank.rules = self.rules
        blank.num_players = self.num_players
        return blank

    def format_action(self, action: Action) -> str:
        return str(_NOTATION[self.pure_type].format_action(action))

    def parse_action(self, text: object, seat: int | None = None) -> Action:
        action: Action = self._notation().parse_action(text, seat)
        return action

    def action_to_json(self, seat: int, action: Action) -> dict[str, Any]:
        d: dict[str, Any] = {"seat": seat, "move": self.format_action(action)}
        if action.claim is not None:
            d["claim"] = action.claim
        return d

    def __getattr__(self, name: str) -> Any:
        """Anything else of the pure state (``hands``, ``total``, ``result()``, ...): read from the twin."""
        pure = self.pure_type
        if name in _OWN or name.startswith("__") or not (hasattr(pure, name) or name in _fields(pure)):
            raise AttributeError(name)  # (what the pure state does not have either: no twin built to say so)
        return getattr(self._synced(), name)

    # --- copies -------------------------------------------------------------------------------------
    def clone(self) -> Self:
        c = type(self).__new__(type(self))
        c._start = self._start
        c._start_pos = self._start_pos
        c._start_len = self._start_len
        c._nat = self._nat.clone()
        if self._nat.holds_rng():  # the engine's drawn outcomes and generator go with its clone
            c._chance = Chance(outcomes=self._chance.outcomes)
            c._chance._pos = self._chance.position
            c._chance.rng = _stand_in()
        else:
            c._chance = self._chance.copy()
        c.rules = self.rules
        c.num_players = self.num_players
        if self._log_cache is not None:
            c._log_cache = self._log_cache[:]
            c._log_records_cache = self._log_records_cache
        if self._hist_cache is not None:
            c._hist_cache = self._hist_cache[:]
        if self._tracker_cache is not None:
            c._tracker_cache = self._tracker_cache.copy()
        twin = self._twin_cache
        if twin is not None:
            twin[2] = False  # shared: whoever needs it next copies it first
            c._twin_cache = [twin[0], twin[1], False]
        else:
            c._twin_cache = None
        c._setup(c._nat)
        return c

    def undo(self, steps: object = 1) -> None:
        """Take back the last ``steps`` actions (replays the game from its record with the same chance)."""
        hist = self.history
        if type(steps) is not int or not 0 <= steps <= len(hist):
            raise IllegalAction(f"cannot undo {shown(steps)} action(s); {len(hist)} made")
        fresh = type(self).new(self.rules, self.num_players, self.chance.rewound())
        for seat, action in hist[: len(hist) - steps]:
            fresh.apply(seat, action)
        self.__dict__.clear()
        self.__dict__.update(fresh.__dict__)
        self._setup(self._nat)  # the engine's chance is this state's now

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.rules.preset!r}, {self.num_players} players)"


def public_window(w: tuple[Any, ...] | None) -> WindowView | None:
    """The engine's open window (``window()``) as everybody may see it (``Window.public``)."""
    if w is None:
        return None
    return {"scorer": w[0], "claimed": w[2], "reason": w[3], "scorer_may_claim": w[4]}


class _Notation(dict[type, Any]):
    """A blank state of each pure card state type, whose ``format_action`` reads nothing but the action."""

    def __missing__(self, kind: Any) -> Any:
        blank: Any = kind.__new__(kind)
        self[kind] = blank
        return blank


_NOTATION = _Notation()


_DECODED: dict[int, tuple[ActionSpace, dict[int, Action], dict[Action, int]]] = {}


def _decoded(space: ActionSpace) -> tuple[dict[int, Action], dict[Action, int]]:
    """The Actions already made from ids of ``space`` and the reverse (ids of the card games do not depend on
    the position)."""
    hit = _DECODED.get(id(space))
    if hit is None or hit[0] is not space:
        if len(_DECODED) > 64:
            _DECODED.clear()
        hit = _DECODED[id(space)] = (space, {}, {})
    return hit[1], hit[2]


def _fields(kind: type) -> tuple[str, ...]:
    """The fields of the pure state class ``kind`` (its module's generated ``_FIELDS``)."""
    return tuple(getattr(sys.modules[kind.__module__], "_FIELDS", ()))


def _stand_in() -> random.Random:
    """The chance's generator object while the engine holds the generator's state (set from it when handed
    back): made without seeding it."""
    rng = random.Random.__new__(random.Random)
    rng.gauss_next = None  # type: ignore[attr-defined]  # (what seeding sets)
    return rng


_PREPARED: dict[tuple[type, int, int], tuple[Any, int, ActionSpace, dict[int, Action], dict[Action, int],
                                             tuple[Action, ...], dict[int, int]]] = {}
_FAST: dict[int, tuple[ActionSpace, tuple[Action, ...], dict[int, int]]] = {}


def _fast_ids(space: ActionSpace, table: tuple[Action, ...], state: Any) -> dict[int, int]:
    """The id in ``space`` of each Action of ``table`` (a table lives as long as its module: an object's
    identity names it), made once per space."""
    hit = _FAST.get(id(space))
    if hit is None or hit[0] is not space or hit[1] is not table:
        if len(_FAST) > 64:
            _FAST.clear()
        ids = {}
        for action in table:
            with suppress(IllegalAction):
                ids[id(action)] = int(space.action_id(state, action))
        hit = _FAST[id(space)] = (space, table, ids)
    return hit[2]


def _decode(space: ActionSpace, cache: dict[int, Action], i: int) -> Action:
    """The Action id ``i`` numbers (its claim included), whatever the position."""
    block = next(b for b in space.blocks if i < b.stop)
    base, code = divmod(i - block.start, block.width)
    claim = None if block.claims == "none" else (None if code == 0 else code - 1) \
        if block.claims == "optional" else code
    action = Action(block.kind) if block.kind in ("muggins", "claim") else space.action_of(None, block.kind, base)  # type: ignore[arg-type]
    if claim is not None:
        action = action._replace(claim=claim)
    cache[i] = action
    return action


_ENGINES: dict[str, Any] = {}


def _engine(name: str) -> Any:
    """The native engine module ``name`` (looked at once per process), or RuntimeError saying why it cannot
    be used (not built, stale)."""
    mod = _ENGINES.get(name)
    if mod is None:
        from muggins._accel import load_native

        mod, why = load_native(name)
        if mod is None:
            raise RuntimeError(f"the native engine {name} is not usable: {why}")
        _ENGINES[name] = mod
    return mod
