"""Every registered game as an OpenSpiel game: ``pyspiel.load_game("python_muggins_<name>")``.

:func:`register_all` registers one Python game per game of the registry (its name with ``-`` turned into
``_``), so OpenSpiel's algorithms (CFR, IS-MCTS, its random simulation test, ...) play our engine through
``pyspiel``. Parameters: ``preset`` (text, the game's default preset), ``players`` (the game's default
number) and ``returns`` (``"points"``, the default, or ``"win"``).

**Actions.** A player's actions are our integer ids (``docs/actions.md``): ``0 ..
num_distinct_actions() - 1``. A game with the muggins rule (``claims = manual``) has one more id,
``num_distinct_actions()``: *let it go*.

**The muggins window, in turns.** OpenSpiel is sequential: one player acts at a time. Our engine lets
several seats act while a window is open (the opponents may call "Muggins!", the scorer may claim late)
besides the seat the game waits for. So while a window is open, each seat that *may* act but is not waited
for is asked in turn, in seat order after the last seat that moved (as ``muggins.sim.driver`` asks the
bots): it calls (or claims), or lets it go. Once every such seat has let it go, the seat the game waits for
moves (with several waited for, as in the cribbage discard, the lowest). A call or a claim changes the
position, and then every seat that may still act is asked again. A seat that lets it go is public
knowledge: every information state shows it.

**Chance nodes.** All randomness of our engine comes from its :class:`~muggins.core.chance.Chance`, one
outcome at a time (a deal, a draw for the lead, the starter). Here the engine's chance never draws: when
a step of the engine (starting the game, or a move) asks for an outcome, the step is put off, the state
becomes a chance node and the outcome is built from chance actions; the step then runs again on the
outcomes made so far, until it completes (a move that ends a hand asks for the next deal). How an outcome
is built:

* an outcome whose random parts are all pieces (probes of the game's own maker, with different seeds,
  differ only in which pieces are where: a deal, a draw for the lead, a cut for the deal) gets **one chance
  node per piece**, in the order the outcome lists them; the outcomes of a node are the pieces of the game
  not yet placed in this outcome, uniformly (chance action = the piece's index in the sorted set of every
  piece). A deal is thus a uniform permutation of the set, as our shuffles make it, and a draw a uniform
  draw without replacement from the whole set;
* any other outcome (the starter's cut, a position in the pack) is drawn by running the maker with a
  generator whose every integer draw (``randint``, ``randrange``, ``choice``, ...) is a chance node of
  that many uniform outcomes;
* a maker that wants floating-point numbers besides the pieces has no such form: one chance node of
  ``SEED_OUTCOMES`` seeds, each running the maker with its own generator (no built-in game needs it).

While a put-off step waits for its outcomes the state shows the position before it.

**Information.** ``observation_string`` is the seat's view (``state.view(seat)``, JSON), never a secret;
``information_state_string`` is what the seat has seen (its events, ``events_for(seat)``) and every
let-it-go, so it has perfect recall. Both tensors are the game's encoder
(:func:`muggins.rl.observation.encoder_for`): the seat's view as a vector, the same for both (not perfect
recall). A public observer (no private information) sees the spectator's view and events; it has no tensor.

**Returns**, at the end (0 before it). ``points``: each seat's side score (general sum); ``win``: 1 for
each winner and, so that they sum to zero, -winners/losers for each loser (0 for all when nobody won). A
game still going after ``MAX_MOVES`` moves of the engine ends there (nobody wins).

**Copies.** ``state.clone()`` deep-copies the Python state; the engine inside copies itself with its own
``clone()``. ``resample_from_infostate`` draws the hidden pieces with the engine's ``sample_hidden``.

:class:`EngineBot` seats one of our bots (``make_bot``) as an OpenSpiel bot. For IS-MCTS use OpenSpiel's
Python one (``open_spiel.python.algorithms.ismcts``): the C++ ``pyspiel.ISMCTSBot`` resamples through
``State::ResampleFromInfostate``, which OpenSpiel does not pass on to a Python state (it crashes).
OpenSpiel keeps what makes each registered game past the interpreter's end: each game is registered as
a class of its own (a class is never freed at exit; a plain function would be, and crash Python).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]  # a compiled module without type hints

from muggins.core.action_ids import space_of
from muggins.core.chance import Chance, Outcome
from muggins.core.errors import IllegalAction, MugginsError, RulesError, shown
from muggins.core.protocol import Action, GameState
from muggins.core.rules import GameSpec, all_games, get_game
from muggins.rl.observation import BaseEncoder, encoder_for

__all__ = [
    "MAX_MOVES",
    "EngineBot",
    "MugginsGame",
    "MugginsState",
    "OpenSpielError",
    "game_name",
    "register_all",
]

PREFIX = "python_muggins_"
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
MAX_MOVES = 5000        # moves of the engine after which a game ends unfinished (as muggins.sim.driver)
SEED_OUTCOMES = 256     # outcomes of a seed chance node (the last resort for an outcome)
RETURNS = ("points", "win")
_PROBES = 3             # makers run with this many seeds to see what an outcome is made of


class OpenSpielError(MugginsError):
    """A game that cannot be shown to OpenSpiel as asked (a bad parameter, an outcome too wide)."""


def game_name(game: str) -> str:
    """The OpenSpiel name of a registered game: ``python_muggins_`` and its name, ``-`` as ``_``."""
    return PREFIX + game.replace("-", "_")


# --- chance -------------------------------------------------------------------------------------------
class _NeedChance(Exception):
    """Raised out of the engine when it asks for an outcome nobody has made yet."""

    def __init__(self, kind: str, make: Callable[[random.Random], Outcome]) -> None:
        super().__init__(kind)
        self.kind = kind
        self.make = make


class _NeedInt(Exception):
    """Raised out of a maker when it asks a scripted generator for an integer not chosen yet."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.n = n


class _NotScripted(Exception):
    """A maker asked a scripted generator for something that is not a choice among finitely many."""


class _Feed(Chance):
    """The engine's chance while it runs here: the outcomes already made (``ready``), else a signal."""

    __slots__ = ("ready",)

    def __init__(self, base: Chance | None, ready: list[Outcome]) -> None:
        self.outcomes = list(base.outcomes[: base.position]) if base is not None else []
        self._pos = len(self.outcomes)
        self.rng = None
        self.ready = list(ready)

    def next(self, kind: str, make: Callable[[random.Random], Outcome]) -> Outcome:
        if self._pos < len(self.outcomes):
            return super().next(kind, make)
        if not self.ready:
            raise _NeedChance(kind, make)
        out = self.ready.pop(0)
        if out.get("kind") != kind:
            raise OpenSpielError(f"the engine asked for a {kind!r} outcome where a {out.get('kind')!r} "
                                 "one was made")
        self.outcomes.append(out)
        self._pos += 1
        return out


class _Scripted(random.Random):
    """A generator whose integer draws are given (``picks``); the next one not given raises _NeedInt."""

    def __init__(self, picks: list[int]) -> None:
        super().__init__(0)
        self.picks = picks
        self.used = 0

    def _randbelow(self, n: int) -> int:  # every integer draw of random.Random comes here
        if self.used < len(self.picks):
            j = self.picks[self.used]
            self.used += 1
            return j
        raise _NeedInt(n)

    def random(self) -> float:
        raise _NotScripted("random()")

    def getrandbits(self, k: int) -> int:
        raise _NotScripted("getrandbits()")


def _leaves(obj: Any, path: tuple[Any, ...], pieces: set[str], slots: list[tuple[Any, ...]],
            fixed: list[tuple[tuple[Any, ...], Any]]) -> None:
    """Sort the leaves of an outcome into piece slots and fixed values, by path."""
    if isinstance(obj, dict):
        for k in obj:
            _leaves(obj[k], (*path, k), pieces, slots, fixed)
    elif isinstance(obj, list):
        fixed.append(((*path, "#"), len(obj)))
        for i, x in enumerate(obj):
            _leaves(x, (*path, i), pieces, slots, fixed)
    elif isinstance(obj, str) and obj in pieces:
        slots.append(path)
    else:
        fixed.append((path, obj))


def _put(obj: Any, path: tuple[Any, ...], value: Any) -> None:
    for k in path[:-1]:
        obj = obj[k]
    obj[path[-1]] = value


class _Plan:
    """How one outcome is being built, chance action by chance action."""

    kind: str
    done: Outcome | None = None   # the outcome, once built

    def options(self) -> list[int]:
        raise NotImplementedError

    def choose(self, a: int) -> None:
        raise NotImplementedError

    def label(self, a: int, table: _Table) -> str:
        return f"{self.kind} {a}"

    @property
    def step(self) -> int:
        """How many chance actions this outcome has taken so far."""
        raise NotImplementedError


class _PiecePlan(_Plan):
    """One chance node per piece slot of the outcome; each takes a piece not yet placed in it."""

    def __init__(self, kind: str, template: Outcome, slots: list[tuple[Any, ...]], table: _Table) -> None:
        self.kind = kind
        self.template = template
        self.slots = slots
        self.table = table
        self.chosen: list[int] = []
        self.free = list(range(len(table.pieces)))
        self.done = None

    def options(self) -> list[int]:
        return self.free

    def choose(self, a: int) -> None:
        self.chosen.append(a)
        self.free = [x for x in self.free if x != a]
        if len(self.chosen) == len(self.slots):
            out = json.loads(json.dumps(self.template))
            for path, i in zip(self.slots, self.chosen, strict=True):
                _put(out, path, self.table.pieces[i])
            self.done = {"kind": self.kind, **out}

    def label(self, a: int, table: _Table) -> str:
        return f"{self.kind} {table.pieces[a]}"

    @property
    def step(self) -> int:
        return len(self.chosen)

    def __deepcopy__(self, memo: dict[int, Any]) -> _PiecePlan:
        c = _PiecePlan.__new__(_PiecePlan)  # the template and the slots are never changed: shared
        c.__dict__.update(self.__dict__)
        c.chosen = list(self.chosen)
        c.free = list(self.free)
        return c


class _DrawPlan(_Plan):
    """The maker run on a scripted generator: each integer draw is a node of that many outcomes."""

    def __init__(self, kind: str, make: Callable[[random.Random], Outcome], bound: int) -> None:
        self.kind = kind
        self.make = make
        self.bound = bound
        self.picks: list[int] = []
        self.n = 0
        self.done = None
        self._advance()

    def _advance(self) -> None:
        try:
            out = self.make(_Scripted(self.picks))
        except _NeedInt as e:
            if not 0 < e.n <= self.bound:
                raise OpenSpielError(f"a {self.kind!r} outcome draws among {e.n} values; a chance node "
                                     f"here has at most {self.bound}") from None
            self.n = e.n
            return
        self.done = {"kind": self.kind, **out}

    def options(self) -> list[int]:
        return list(range(self.n))

    def choose(self, a: int) -> None:
        self.picks.append(a)
        self._advance()

    @property
    def step(self) -> int:
        return len(self.picks)

    def __deepcopy__(self, memo: dict[int, Any]) -> _DrawPlan:
        c = _DrawPlan.__new__(_DrawPlan)
        c.__dict__.update(self.__dict__)
        c.picks = list(self.picks)
        return c


class _SeedPlan(_Plan):
    """One node: a seed for the maker's own generator (for makers that draw floating-point numbers)."""

    def __init__(self, kind: str, make: Callable[[random.Random], Outcome]) -> None:
        self.kind = kind
        self.make = make
        self.done = None
        self.seed: int | None = None

    def options(self) -> list[int]:
        return list(range(SEED_OUTCOMES))

    def choose(self, a: int) -> None:
        self.seed = a
        self.done = {"kind": self.kind, **self.make(random.Random(f"{self.kind}:{a}"))}

    def label(self, a: int, table: _Table) -> str:
        return f"{self.kind} seed {a}"

    @property
    def step(self) -> int:
        return 0 if self.seed is None else 1

    def __deepcopy__(self, memo: dict[int, Any]) -> _SeedPlan:
        c = _SeedPlan.__new__(_SeedPlan)
        c.__dict__.update(self.__dict__)
        return c


# --- the game -----------------------------------------------------------------------------------------
@dataclass(eq=False)
class _Table:
    """What every state of one loaded game shares (never copied with a state)."""

    spec: GameSpec
    rules: Any
    players: int
    returns: str
    encoder: BaseEncoder
    pieces: list[str]          # every piece of the game, sorted: the chance actions of a piece slot
    piece_set: set[str]
    num_ids: int               # the engine's action ids
    let_go: int | None         # the id of "let it go" (None without the muggins rule)
    max_chance: int
    initial: _Pending | None = None  # the first chance node of every game, built once
    shapes: dict[tuple[str, str, str], bool] = field(default_factory=dict)  # outcome shape: made of pieces?

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        return self

    def plan(self, kind: str, make: Callable[[random.Random], Outcome]) -> _Plan:
        """How to build the outcome ``kind`` that ``make`` draws (see the module docstring). Whether an
        outcome of that shape is made of pieces is worked out once (probes with other seeds)."""
        shapes = []
        for k in range(_PROBES):
            slots: list[tuple[Any, ...]] = []
            fixed: list[tuple[tuple[Any, ...], Any]] = []
            probe = make(random.Random(f"probe:{k}"))
            _leaves(probe, (), self.piece_set, slots, fixed)
            shapes.append((probe, slots, fixed))
            if k == 0:
                if len(self.shapes) > 4096:  # shapes that keep changing (a position in them): keep it small
                    self.shapes.clear()
                key = (kind, repr(slots), repr(fixed))
                known = self.shapes.get(key)
                if known is not None:
                    break
        probe, slots, fixed = shapes[0]
        if known is None:
            known = self.shapes[key] = bool(slots) and all(s == slots and f == fixed for _, s, f in shapes[1:])
        if known:
            return _PiecePlan(kind, probe, slots, self)
        try:
            return _DrawPlan(kind, make, self.max_chance)
        except _NotScripted:
            return _SeedPlan(kind, make)


def _pieces(spec: GameSpec, rules: Any, players: int) -> list[str]:
    """Every piece of the game as text (from a state's inventory, which always holds the full set)."""
    state = spec.new(rules, players, seed=0)
    return sorted({p for where in state.inventory().values() for p in where})


class MugginsGame(pyspiel.Game):  # type: ignore[misc]
    """One registered game of ours, with its preset and number of players, as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None, *, game: str) -> None:
        params = dict(params or {})
        spec = get_game(game)
        preset = params.get("preset", spec.default_preset)
        if not isinstance(preset, str):
            raise OpenSpielError(f"parameter 'preset' is text; got {shown(preset)}")
        rules = spec.rules(preset)
        players = spec.check(rules, params.get("players", spec.default_players))
        returns = params.get("returns", "points")
        if returns not in RETURNS:
            raise OpenSpielError(f"parameter 'returns' is one of {', '.join(RETURNS)}; got {shown(returns)}")
        state = spec.new(rules, players, seed=0)
        num_ids = state.num_distinct_actions()
        manual = rules.claims == "manual"
        pieces = _pieces(spec, rules, players)
        table = _Table(spec, rules, players, returns, encoder_for(spec.name, rules, players), pieces,
                       set(pieces), num_ids, num_ids if manual else None, max(len(pieces), SEED_OUTCOMES))
        target = getattr(rules, "target", None) or 0
        bound = float(max(target, 1) + int(rules.max_step_points) * 2)
        hands = MAX_MOVES  # every hand takes at least one move
        info = pyspiel.GameInfo(
            num_distinct_actions=num_ids + (1 if manual else 0),
            max_chance_outcomes=table.max_chance,
            num_players=players,
            min_utility=-float(players - 1) if returns == "win" else -bound,
            max_utility=1.0 if returns == "win" else bound,
            utility_sum=0.0 if returns == "win" else None,
            max_game_length=MAX_MOVES * players + hands * 2 * len(pieces))
        super().__init__(_game_type(spec, returns), info, params)
        self.table = table

    def new_initial_state(self) -> MugginsState:
        return MugginsState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        if params:
            raise OpenSpielError(f"this game's observers take no parameters; got {shown(params)}")
        return _Observer(self.table, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


def _game_type(spec: GameSpec, returns: str) -> pyspiel.GameType:
    players = [n for r in spec.presets.values() for n in spec.players_for(r)]
    return pyspiel.GameType(
        short_name=game_name(spec.name),
        long_name=f"Muggins engine: {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if returns == "win"
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(players, default=spec.max_players),
        min_num_players=min(players, default=spec.min_players),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"preset": spec.default_preset, "players": spec.default_players,
                                 "returns": "points"})


class _Box:
    """Holds the engine's state; copying the box clones the state (the engine's own fast copy)."""

    __slots__ = ("state",)

    def __init__(self, state: GameState) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return _Box(self.state.clone())


@dataclass
class _Pending:
    """A step of the engine put off until its chance outcomes are made: ``op`` None starts the game,
    else (seat, action); ``made`` the outcomes already built; ``plan`` the one being built."""

    op: tuple[int, Action] | None
    made: list[Outcome]
    plan: _Plan

    def __deepcopy__(self, memo: dict[int, Any]) -> _Pending:
        return _Pending(self.op, list(self.made), copy.deepcopy(self.plan, memo))  # outcomes never change


class MugginsState(pyspiel.State):  # type: ignore[misc]
    """A position of one of our games as OpenSpiel sees it (see the module docstring)."""

    def __init__(self, game: MugginsGame) -> None:
        super().__init__(game)
        self._t: _Table = game.table
        self._box: _Box | None = None
        self._pending: _Pending | None = None
        self._passed: list[int] = []            # seats that let the open window go since the last change
        self._lets: list[tuple[int, int]] = []  # (engine moves made, seat) of every let-it-go
        self._moves = 0
        self._cur = _CHANCE                     # who acts now (OpenSpiel's id), kept by _settle
        t = self._t
        if t.initial is None:  # OpenSpiel makes an initial state for every clone: build it once
            self._step(None, [])
            if self._pending is not None:
                t.initial = copy.deepcopy(self._pending)
        else:
            self._pending = copy.deepcopy(t.initial)

    # --- the engine -----------------------------------------------------------------------------------
    @property
    def engine(self) -> GameState | None:
        """Our state inside (None until the first deal is made). Do not change it."""
        return self._box.state if self._box is not None else None

    def _step(self, op: tuple[int, Action] | None, made: list[Outcome]) -> None:
        """Run ``op`` on a copy of the engine with the outcomes ``made``: keep the copy if it completes,
        else put the step off until the outcome it asked for is built."""
        t = self._t
        while True:
            feed = _Feed(self._box.state.chance if self._box is not None else None, made)
            try:
                if op is None:
                    trial = t.spec.new(t.rules, t.players, chance=feed)
                else:
                    trial = self._box.state.clone()  # type: ignore[union-attr]
                    trial.chance = feed
                    trial.apply(*op)
            except _NeedChance as need:
                plan = t.plan(need.kind, need.make)
                if plan.done is not None:  # an outcome with nothing random in it
                    made = [*made, plan.done]
                    continue
                self._pending = _Pending(op, list(made), plan)
                self._cur = _CHANCE
                return
            self._box = _Box(trial)
            self._pending = None
            self._passed = []
            if op is not None:
                self._moves += 1
            self._settle()
            return

    def _optional(self) -> list[int]:
        """Seats that may act but are not waited for and have not let the window go, in asking order."""
        eng = self._box.state  # type: ignore[union-attr]
        seats = eng.to_act() - eng.waiting_for()
        if not seats:
            return []
        n = self._t.players
        last = eng.history[-1][0] if eng.history else -1
        return sorted((s for s in seats if s not in self._passed), key=lambda s: (s - last - 1) % n)

    def _settle(self) -> None:
        """Work out who acts now, after a change at a decision (not at a chance node)."""
        eng = self._box.state  # type: ignore[union-attr]
        if eng.is_over() or self._moves >= MAX_MOVES:
            self._cur = _TERMINAL
            return
        optional = self._optional()
        if optional:
            self._cur = optional[0]
            return
        waiting = eng.waiting_for()
        if not waiting:
            raise OpenSpielError("the engine waits for nobody and nobody may act, yet the game is not over")
        self._cur = min(waiting)

    def chance_key(self) -> tuple[str, int, int]:
        """At a chance node: (kind of the outcome being built, how many outcomes of that kind came
        before it in this game, how many chance actions it has taken): what a driver needs to deal the
        same cards in two games whose play differs (duplicate deals)."""
        p = self._pending
        if p is None:
            raise OpenSpielError("this is not a chance node")
        before = self._box.state.chance.outcomes if self._box is not None else []
        count = sum(1 for o in (*before, *p.made) if o.get("kind") == p.plan.kind)
        return p.plan.kind, count, p.plan.step

    # --- OpenSpiel ------------------------------------------------------------------------------------
    def current_player(self) -> int:
        return self._cur

    def is_terminal(self) -> bool:
        return self._cur == _TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._cur or player < 0:
            return []
        eng = self._box.state  # type: ignore[union-attr]
        # the ranges behind legal_action_mask, without a mask as long as every id of the game
        ranges = space_of(type(eng).action_ids, eng.rules, eng.num_players).legal_ranges(eng, player)
        ids = [i for start, stop in ranges for i in range(start, stop)]
        ids.sort()
        if player not in eng.waiting_for():
            ids.append(self._t.let_go)  # type: ignore[arg-type]  # only with a window open: manual claims
        return ids

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._pending is None:
            raise OpenSpielError("this is not a chance node")
        opts = self._pending.plan.options()
        p = 1.0 / len(opts)
        return [(a, p) for a in opts]

    def _apply_action(self, action: int) -> None:
        p = self._pending
        if p is not None:
            if action not in p.plan.options():
                raise IllegalAction(f"{action} is not an outcome of this chance node")
            p.plan.choose(action)
            if p.plan.done is not None:
                self._step(p.op, [*p.made, p.plan.done])
            return
        seat = self._cur
        if seat < 0:
            raise IllegalAction("the game is over")
        eng = self._box.state  # type: ignore[union-attr]
        if action == self._t.let_go:
            if seat in eng.waiting_for():
                raise IllegalAction(f"seat {seat} is waited for: it cannot let it go")
            self._passed.append(seat)
            self._lets.append((self._moves, seat))
            self._settle()
            return
        self._step((seat, eng.action_from_id(seat, action)), [])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._pending is None:
                return f"chance {action}"
            return self._pending.plan.label(action, self._t)
        if action == self._t.let_go:
            return "let it go"
        eng = self.engine
        if eng is None:
            return str(action)
        try:
            a = eng.action_from_id(player, action)
        except IllegalAction:
            return f"action {action}"
        text = eng.format_action(a)
        return text if a.claim is None else f"{text}, claim {a.claim}"

    def returns(self) -> list[float]:
        t = self._t
        eng = self.engine
        if eng is None or not self.is_terminal():  # rewards come at the end only
            return [0.0] * t.players
        if t.returns == "points":
            return [float(s) for s in eng.scores()]
        won = eng.winners()
        if not won or len(won) == t.players:
            return [0.0] * t.players
        lose = -len(won) / (t.players - len(won))
        return [1.0 if s in won else lose for s in range(t.players)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MugginsState:
        """A state that ``player_id`` cannot tell from this one: the hidden pieces drawn again
        (``sample_hidden``, seeded from ``probability_sampler``)."""
        eng = self.engine
        if eng is None or self._pending is not None:
            raise OpenSpielError("a state is resampled at a decision, not while chance deals")
        u = float(probability_sampler()) if callable(probability_sampler) else random.random()
        c: MugginsState = self.clone()
        c._box = _Box(eng.sample_hidden(player_id, random.Random(int(u * 2**53))))
        return c

    def information_state_string(self, player: int | None = None) -> str:
        return _info_string(self, self.current_player() if player is None else player, True)

    def observation_string(self, player: int | None = None) -> str:
        return _info_string(self, self.current_player() if player is None else player, False)

    def __str__(self) -> str:
        eng = self.engine
        head = "" if self._pending is None else f"(dealing: {self._pending.plan.kind}) "
        if eng is None:
            return head.strip() or "(before the deal)"
        return head + json.dumps(eng.view(None).to_json(), separators=(",", ":"), default=str)


def _info_string(state: MugginsState, seat: int | None, recall: bool) -> str:
    """The seat's information (``None``: public only) as text: its events and the let-it-goes with
    ``recall``, else its view."""
    eng = state.engine
    if eng is None:
        return "" if seat is None else f"seat {seat}"
    if recall:
        data: Any = {"seat": seat, "events": eng.events_for(seat), "let_go": state._lets}
    else:
        data = {"seat": seat, "passed": state._passed, "view": eng.view(seat).to_json()}
    return json.dumps(data, separators=(",", ":"), default=str)


class _Observer:
    """OpenSpiel's observer of one seat: the encoder's vector, and the view or the events as text."""

    def __init__(self, table: _Table, iig_obs_type: Any) -> None:
        self.table = table
        self.recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise OpenSpielError("an observer sees one seat's information (or only the public part), "
                                 "never every seat's")
        size = table.encoder.size if self.private else 0
        self.tensor = np.zeros(size, np.float32)
        self.dict = {name: self.tensor[start:start + length] for name, start, length in
                     table.encoder.layout.fields} if self.private else {}

    def set_from(self, state: MugginsState, player: int) -> None:
        if not self.private:
            return
        eng = state.engine
        if eng is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self.table.encoder.encode(eng, player)

    def string_from(self, state: MugginsState, player: int) -> str:
        return _info_string(state, player if self.private else None, self.recall)


# --- bots ---------------------------------------------------------------------------------------------
class EngineBot(pyspiel.Bot):  # type: ignore[misc]
    """One of our bots (anything with ``act(state, seat, rng)``, e.g. ``make_bot("search")``) as an
    OpenSpiel bot for a ``python_muggins_*`` game: it is asked at every decision of its seat, a
    let-it-go included (a bot that does nothing there lets it go)."""

    def __init__(self, bot: Any, player: int, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot
        self.player = player
        self.rng = random.Random(f"bot:{seed}:{player}")

    def step(self, state: MugginsState) -> int:
        eng = state.engine
        seat = state.current_player()
        if eng is None or seat != self.player:
            raise OpenSpielError(f"seat {self.player}'s bot was asked to move for {seat}")
        a = self.bot.act(eng, seat, self.rng)
        if a is None:
            let_go = state._t.let_go
            if let_go is None or seat in eng.waiting_for():
                raise OpenSpielError(f"bot {getattr(self.bot, 'name', '?')!r} did nothing while the game "
                                     f"waited for seat {seat}")
            return let_go
        return int(eng.action_id(a))

    def restart_at(self, state: MugginsState) -> None:
        pass

    def inform_action(self, state: MugginsState, player_id: int, action: int) -> None:
        pass


# OpenSpiel keeps what makes each game in a C++ table that is destroyed after the interpreter. A plain
# function there would be freed then, when the interpreter is gone (a crash at exit: clearing the modules
# drops every reference Python had). A class refers to itself (its method resolution order), so it is never
# freed at exit: each game is registered as a class of its own, as OpenSpiel's Python games are.
_CLASSES: dict[str, type[MugginsGame]] = {}


def _game_class(game: str) -> type[MugginsGame]:
    """A subclass of :class:`MugginsGame` made for ``game``, the form OpenSpiel calls with the parameters."""

    def __init__(self: MugginsGame, params: dict[str, Any] | None = None) -> None:
        try:
            MugginsGame.__init__(self, params, game=game)
        except RulesError as e:
            raise OpenSpielError(str(e)) from None

    return type(f"MugginsGame_{game_name(game)}", (MugginsGame,), {"__init__": __init__})


def register_all() -> list[str]:
    """Register every game of the registry with OpenSpiel (again: nothing new); their names."""
    known = set(pyspiel.registered_names())
    names = []
    for spec in all_games().values():
        name = game_name(spec.name)
        names.append(name)
        if name in known:
            continue
        cls = _CLASSES[name] = _game_class(spec.name)
        pyspiel.register_game(_game_type(spec, "points"), cls)
    return names
