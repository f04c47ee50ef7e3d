"""Search: single-observer information-set Monte Carlo tree search (SO-ISMCTS).

Every iteration draws a full state consistent with what the seat knows (``sample_hidden``, which
already folds in what draws, passes and gos reveal), then walks one shared tree of moves, choosing
among the moves legal in that drawn state by UCB1 with availability counts (Cowling, Powley and
Whitehouse 2012), adds one node, and finishes with a fast rollout. Rollouts stop at the end of the
hand or round (or after ``horizon`` moves): the reward of each side is 1 for a won game, 0 for a lost
one, otherwise a squashed score difference since the root (``play_for_points``: that difference for a
finished game too). All players are assumed to claim their
points exactly inside the search; muggins calls are left to the attention model.

Where the game has a native engine that plays its rules (``muggins._accel.NATIVE``), the rollout runs
there: the drawn world, after the tree walk, is copied into C (``from_state``) and played to the end of
the hand with the same mixed policy (greedy with probability ``rollout_greedy``, else uniform; true
claims, no calls); the rewards come from the native scores exactly as from the Python ones. The pure
rollout stays the reference and the fallback (no build, a stale build, rules out of the native scope).

Where that module also offers ``search`` (and the seat's worlds are drawn by ``sample_hidden``), the whole
search runs there: the seat's constraints on the hidden pieces, derived once from its view, become masks
under which C draws each world, and the tree walk, expansion, rollout and back-propagation follow in C with
the same constants and rewards. The omniscient ceiling runs there too, every world being the true state. A
state or rules out of its scope (NotImplementedError) runs the search above; ``native_search=False`` keeps
only the native rollouts.

``omniscient`` is the same search on the true state (every hand and the stock known, only future
deals random): a ceiling to measure the others against, never offered as an opponent.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable
from types import ModuleType

from muggins.bots import heuristics
from muggins.bots.base import (
    HAND_END_KINDS,
    game_target,
    next_decision,
    true_points,
    with_true_claim,
)
from muggins.bots.policies import GreedyPolicy
from muggins.core.engine import ENGINE_ENV, engine_choice
from muggins.core.errors import RecordError, RulesError
from muggins.core.protocol import Action, GameState

Determinizer = Callable[[GameState, int, random.Random], GameState]


def sample_determinization(state: GameState, seat: int, rng: random.Random) -> GameState:
    """What the seat may imagine: its own knowledge, the rest drawn at random."""
    return state.sample_hidden(seat, rng)


def true_determinization(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The real state with only the future (deals not yet made) left to chance: omniscient play."""
    c = state.clone()
    c.chance = state.chance.fork(rng)
    return c


class _Node:
    __slots__ = ("actor", "avail", "children", "reward", "visits")

    def __init__(self, actor: int) -> None:
        self.actor = actor
        self.children: dict[tuple[int, Action], _Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0


def _ended_hand(state: GameState, start: int) -> int:
    """-1 when an event from ``start`` on ends the hand, else the log length (the next start)."""
    log = state.log
    for i in range(start, len(log)):
        if log[i].kind in HAND_END_KINDS:
            return -1
    return len(log)


class SearchPolicy:
    """IS-MCTS with an iteration and a time budget (whichever runs out first)."""

    def __init__(self, iterations: int = 400, time_limit: float = 1.0, exploration: float = 0.7,
                 horizon: int = 120, rollout_greedy: float = 0.8,
                 determinize: Determinizer = sample_determinization, name: str = "search",
                 reward_scale: float | None = None,
                 native: bool = True, native_search: bool = True, hands_known: bool = False,
                 infer: float = 0.0, heavy: float = 0.0, model: bool = False, defend: bool = False,
                 play_for_points: bool = False) -> None:
        if iterations < 1 or time_limit <= 0:
            raise ValueError("a search needs at least one iteration and a positive time limit")
        if not (0.0 <= infer <= 10.0 and 0.0 <= heavy <= 10.0):
            raise ValueError(f"infer and heavy are between 0 and 10, not {infer!r} and {heavy!r}")
        if reward_scale is not None and not reward_scale > 0:
            raise ValueError(f"the reward scale is a positive number of points, not {reward_scale!r}")
        self.name = name
        self.reward_scale = reward_scale  # None: a tenth of the game's target, at least 5 points
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.horizon = horizon
        self.rollout_greedy = rollout_greedy
        self.determinize = determinize
        self.native = native
        self.native_search = native_search
        self.hands_known = hands_known  # a measuring ceiling: every hand seen, the stock's order not
        self.infer = infer  # > 0: worlds weighed by the others' past choices (native dominoes search)
        self.model = model  # the others move in the tree as in the rollouts (native dominoes search)
        self.heavy = heavy  # with infer: how much the others are taken to prefer shedding heavy tiles
        self.defend = defend  # its own rollout moves weigh the next seat's best reply (native dominoes search)
        self.play_for_points = play_for_points  # a finished game rewarded by its points too, not 1 or 0
        self.native_rollouts = 0
        self.native_searches = 0
        self._engines: dict[tuple[str, int], tuple[object, ModuleType | None, str | None]] = {}
        #: the search played in a game named here instead of this one (a level's settings tuned for that game)
        self.per_game: dict[str, SearchPolicy] = {}
        self.total_iterations = 0
        self.total_seconds = 0.0
        self.searches = 0
        self.sampling_failures = 0  # searches cut short because no world could be drawn

    @property
    def iterations_per_second(self) -> float:
        return self.total_iterations / self.total_seconds if self.total_seconds > 0 else 0.0

    def native_engine(self, state: GameState) -> tuple[ModuleType | None, str | None]:
        """The native module that runs this game's rollouts and None, or None and why the pure rollout runs
        (turned off, no native engine, not built or stale, rules or players out of its scope)."""
        if not self.native:
            return None, "native rollouts turned off"
        if os.environ.get("MUGGINS_PURE_PYTHON", "") not in ("", "0"):
            return None, "MUGGINS_PURE_PYTHON is set: the sources alone run"
        if engine_choice() == "pure":
            return None, f"{ENGINE_ENV}=pure: the reference engine alone runs"
        key = (state.game, state.num_players)
        hit = self._engines.get(key)
        if hit is not None and hit[0] is state.rules:
            return hit[1], hit[2]
        from muggins.perf import native_module

        found, why = native_module(state.game, state.rules, state.num_players)
        mod: ModuleType | None = found
        if found is not None and not hasattr(found, "from_state"):
            mod, why = None, f"{found.__name__} cannot take a state (rebuild it)"
        self._engines[key] = (state.rules, mod, why)
        return mod, why

    def choose(self, state: GameState, seat: int, actions: list[Action], rng: random.Random) -> Action:
        if len(actions) == 1:
            return actions[0]
        tuned = self.per_game.get(state.game)
        if tuned is not None:  # its counters count here too
            before = (tuned.total_iterations, tuned.total_seconds, tuned.searches, tuned.native_rollouts,
                      tuned.native_searches)
            move = tuned.choose(state, seat, actions, rng)
            self.total_iterations += tuned.total_iterations - before[0]
            self.total_seconds += tuned.total_seconds - before[1]
            self.searches += tuned.searches - before[2]
            self.native_rollouts += tuned.native_rollouts - before[3]
            self.native_searches += tuned.native_searches - before[4]
            return move
        override = heuristics.search_override_fn(state.game)
        if override is not None:
            decided = override(state, seat, actions, rng)
            if decided is not None:
                return decided
        t0 = time.perf_counter()
        deadline = t0 + self.time_limit
        root = _Node(-1)
        scale = self.reward_scale or max(5.0, game_target(state) / 10.0)
        engine = self.native_engine(state)[0]
        picked = self._search_natively(engine, state, seat, actions, rng, deadline)
        if picked is not None:
            self.total_seconds += time.perf_counter() - t0
            self.searches += 1
            return picked
        done = 0
        while done < self.iterations:
            try:
                world = self.determinize(state, seat, rng)
            except RecordError:
                # no world fits what the seat has seen (a fault of the sampler): search no further, and
                # with nothing searched play the greedy move rather than fail the turn
                self.sampling_failures += 1
                if done == 0:
                    self.total_seconds += time.perf_counter() - t0
                    return GreedyPolicy().choose(state, seat, actions, rng)
                break
            self._iterate(root, world, rng, scale, engine)
            done += 1
            if time.perf_counter() >= deadline:
                break
        self.total_iterations += done
        self.total_seconds += time.perf_counter() - t0
        self.searches += 1
        allowed = set(actions)
        best: Action | None = None
        best_key = (-1, -1.0)
        for (actor, a), ch in root.children.items():
            if actor == seat and a in allowed:
                key = (ch.visits, ch.reward)
                if key > best_key:
                    best, best_key = a, key
        return best if best is not None else rng.choice(actions)

    def _search_natively(self, engine: ModuleType | None, state: GameState, seat: int, actions: list[Action],
                         rng: random.Random, deadline: float) -> Action | None:
        """The move of ``actions`` the native search picks (the one its action id numbers, with or without
        its true claim), or None when it cannot run here: no native search, a determinization other than the
        seat's own (``sample_determinization``) or the true state's (``true_determinization``, the omniscient
        ceiling), a state or rules out of its scope."""
        search = getattr(engine, "search", None)
        omniscient = self.determinize is true_determinization
        fair = self.determinize is sample_determinization
        # the options beyond the common ones that this engine's search takes (SEARCH_OPTIONS)
        offered: frozenset[str] = getattr(engine, "SEARCH_OPTIONS", frozenset())
        if self.hands_known and (search is None or not self.native_search or "hands_known" not in offered):
            # the Python search would see the boneyard too: a different ceiling, never a quiet substitute
            raise RulesError(f"{self.name}: hands=1 needs a native search that can show the hands alone; "
                             f"none is available for this game here")
        if search is None or not self.native_search or not (omniscient or fair):
            return None
        wanted: dict[str, object] = {"infer": self.infer if fair else 0.0, "infer_heavy": self.heavy if fair else 0.0,
                                     "opponent_model": self.model, "hands_known": self.hands_known,
                                     "defend": self.defend}
        extra = {k: v for k, v in wanted.items() if v and k in offered}
        try:
            res = search(state, seat, self.iterations, max(deadline - time.perf_counter(), 1e-6),
                         self.exploration, self.horizon, self.rollout_greedy, rng.getrandbits(64),
                         omniscient=omniscient and not self.hands_known, reward_scale=self.reward_scale or 0.0,
                         play_for_points=self.play_for_points, **extra)
        except NotImplementedError:
            if self.hands_known:
                raise RulesError(f"{self.name}: hands=1 needs the native search, which cannot play here") from None
            return None
        chosen = res["action"]
        picked = None
        for a in actions:
            if state.action_id(a) == chosen or state.action_id(with_true_claim(state, seat, a)) == chosen:
                picked = a
                break
        if picked is None:
            return None
        done = int(res["iterations"])
        self.total_iterations += done
        self.native_rollouts += int(res.get("rollouts", done))
        self.native_searches += 1
        return picked

    # ----------------------------------------------------------------------------------------------
    def _iterate(self, root: _Node, d: GameState, rng: random.Random, scale: float,
                 engine: ModuleType | None = None) -> None:
        before = d.side_scores()
        scan = len(d.log)
        node = root
        path: list[_Node] = []
        plies = 0
        c = self.exploration
        while plies < self.horizon and not d.is_over():
            nd = next_decision(d)
            if nd is None:
                break
            actor, acts = nd
            children = node.children
            untried: list[tuple[int, Action]] = []
            best: _Node | None = None
            best_key: tuple[int, Action] | None = None
            best_v = -1.0
            for a in acts:
                key = (actor, a)
                ch = children.get(key)
                if ch is None:
                    untried.append(key)
                    continue
                ch.avail += 1
                v = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if v > best_v:
                    best, best_key, best_v = ch, key, v
            if untried:
                key = untried[0] if len(untried) == 1 else rng.choice(untried)
                ch = children[key] = _Node(actor)
                path.append(ch)
                d.apply(actor, with_true_claim(d, actor, key[1]))
                plies += 1
                break
            assert best is not None and best_key is not None
            path.append(best)
            d.apply(actor, with_true_claim(d, actor, best_key[1]))
            plies += 1
            node = best
            scan = _ended_hand(d, scan)
            if scan < 0:
                break
        rewards = None
        if scan >= 0 and plies < self.horizon and not d.is_over():
            if engine is not None:
                rewards = self._native_rollout(engine, d, rng, plies, before, scale)
            if rewards is None:
                self._rollout(d, rng, scan, plies)
        if rewards is None:
            rewards = self._rewards(d, before, scale)
        for ch in path:
            ch.visits += 1
            ch.reward += rewards[d.side_of(ch.actor)]

    def _rollout(self, d: GameState, rng: random.Random, scan: int, plies: int) -> None:
        greedy = self.rollout_greedy
        while plies < self.horizon and not d.is_over():
            scan = _ended_hand(d, scan)
            if scan < 0:
                return
            nd = next_decision(d)
            if nd is None:
                return
            actor, acts = nd
            if len(acts) == 1:
                a = acts[0]
            elif rng.random() < greedy:
                pts = [true_points(d, actor, x) for x in acts]
                top = max(pts)
                best = [x for x, p in zip(acts, pts, strict=True) if p == top]
                a = best[0] if len(best) == 1 else rng.choice(best)
            else:
                a = rng.choice(acts)
            d.apply(actor, with_true_claim(d, actor, a))
            plies += 1

    def _native_rollout(self, engine: ModuleType, d: GameState, rng: random.Random, plies: int,
                        before: list[int], scale: float) -> list[float] | None:
        """The rollout of ``_rollout`` played in C from the world ``d`` (left as it is) and its rewards; None
        when the engine cannot take this state (the pure rollout then runs)."""
        # a native state whose engine game plays out as it is (the domino one): that game copied, no pure copy read
        own = getattr(d, "native", None) if getattr(type(d), "plays_out_its_game", False) else None
        try:
            nat = own.clone() if own is not None else engine.from_state(d)
        except NotImplementedError:
            return None
        nat.playout(0, rng.getrandbits(64), self.horizon - plies, True, self.rollout_greedy)
        self.native_rollouts += 1
        won = {d.side_of(s) for s in nat.winners()}  # the engine names winning seats; rewards are per side
        return _score_rewards(d.num_sides, nat.is_over(), won, list(nat.side_scores()), before, scale,
                              self.play_for_points)

    def _rewards(self, d: GameState, before: list[int], scale: float) -> list[float]:
        won = {d.side_of(s) for s in d.winners()} if d.is_over() else set()
        return _score_rewards(d.num_sides, d.is_over(), won, list(d.side_scores()), before, scale,
                              self.play_for_points)


def _score_rewards(n: int, over: bool, won: set[int], now: list[int], before: list[int],
                   scale: float, points: bool = False) -> list[float]:
    """Each side's reward: 1 or 0 for a finished game (``won``: the winning sides), else (and always when
    playing for ``points``) the squashed gain over the others' since the root."""
    if over and not points:
        return [1.0 if s in won else 0.0 for s in range(n)]
    gain = [now[s] - before[s] for s in range(n)]
    total = sum(gain)
    out = []
    for s in range(n):
        others = (total - gain[s]) / (n - 1) if n > 1 else 0.0
        out.append(0.5 + 0.5 * math.tanh((gain[s] - others) / scale))
    return out
