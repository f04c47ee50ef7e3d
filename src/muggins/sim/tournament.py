"""Round-robin duplicate tournaments between bots.

Every pair of bots plays the same deals: deal ``d`` of the tournament is started from one seed and
played twice, the second time with the seats rotated, so both bots get both sides of every deal
(:class:`~muggins.sim.driver.DealChance` makes the n-th deal of each game depend only on the seed).
With N players the seats are filled alternately (a b a b …; the rotation gives b a b a …), so in a
four-hand partnership game each bot is one partnership.

The work is a flat list of picklable :class:`Task` values, each run by the top-level :func:`run_task`:
any executor (a local process pool with ``jobs`` workers here) can run them, and so can Ray
(:mod:`muggins.sim.ray_backend`, ``backend="ray"``); the report does not depend on which ran them.
"""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from muggins.bots.registry import make_bot, parse_bot_name
from muggins.core.errors import MugginsError, RulesError
from muggins.core.rules import GameSpec, get_game
from muggins.sim.driver import MAX_ACTIONS, GameResult, play_game
from muggins.sim.stats import rating_intervals, wilson

BACKENDS = ("local", "ray")


class BackendError(MugginsError):
    """A backend that cannot be used: an unknown name, an address without Ray, Ray missing or unreachable."""


@dataclass(frozen=True)
class Task:
    """One game to play: everything a worker needs, and nothing that cannot be pickled."""

    game: str
    preset: str
    options: tuple[tuple[str, Any], ...]
    players: int
    seats: tuple[str, ...]     # bot name of each seat
    seed: int                  # the deal seed (shared by both orientations and by every pair)
    pair: int                  # index of the pairing
    orientation: int           # 0: a in seat 0; 1: seats rotated
    max_actions: int = MAX_ACTIONS


def run_task(task: Task) -> GameResult:
    """Play one task (top level, so a process pool can pickle it)."""
    spec = get_game(task.game)
    rules = spec.rules(task.preset, dict(task.options))
    bots = [make_bot(name, seed=task.seed * 31 + seat) for seat, name in enumerate(task.seats)]
    return play_game(spec, rules, task.players, bots, task.seed, task.max_actions)


def seat_bots(a: str, b: str, players: int, orientation: int) -> tuple[str, ...]:
    """Alternate seats between the two bots, starting with ``a`` (or ``b`` when rotated)."""
    first, second = (a, b) if orientation == 0 else (b, a)
    return tuple(first if s % 2 == 0 else second for s in range(players))


def deal_seed(seed: int, deal: int) -> int:
    return seed * 1_000_003 + deal


@dataclass(frozen=True)
class Config:
    """A tournament: the game, its rules, the field of bots and how many games each pair plays."""

    game: str
    preset: str
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    options: tuple[tuple[str, Any], ...] = ()
    max_actions: int = MAX_ACTIONS

    def spec(self) -> GameSpec:
        return get_game(self.game)

    def validate(self) -> None:
        """Raise :class:`RulesError` naming what is wrong, before any game is played."""
        spec = self.spec()
        rules = spec.rules(self.preset, dict(self.options))
        if not spec.min_players <= self.players <= spec.max_players:
            raise RulesError(f"{self.game} is for {spec.min_players}-{spec.max_players} players; "
                             f"got {self.players}")
        if spec.check_players is not None:
            spec.check_players(rules, self.players)
        if len(self.bots) < 2:
            raise RulesError("a tournament needs at least two bots, like --bots random,greedy")
        if len(set(self.bots)) != len(self.bots):
            raise RulesError("each bot may be named only once")
        for b in self.bots:
            parse_bot_name(b)
        if self.games < 1:
            raise RulesError("each pair must play at least one game")

    def pairs(self) -> list[tuple[str, str]]:
        return list(combinations(self.bots, 2))

    def tasks(self) -> list[Task]:
        out = []
        for p, (a, b) in enumerate(self.pairs()):
            for g in range(self.games):
                orientation = g % 2
                out.append(Task(self.game, self.preset, self.options, self.players,
                                seat_bots(a, b, self.players, orientation), deal_seed(self.seed, g // 2),
                                p, orientation, self.max_actions))
        return out


def run_tasks(tasks: Sequence[Task], jobs: int = 1, on_result: Callable[[GameResult], None] | None = None,
              executor: cf.Executor | None = None) -> list[GameResult]:
    """Run every task, in this process (``jobs`` 1), in a local process pool, or on ``executor``.
    Results come back in task order; ``on_result`` sees each as it finishes."""
    results: list[GameResult | None] = [None] * len(tasks)
    if executor is None and jobs <= 1:
        for i, t in enumerate(tasks):
            results[i] = r = run_task(t)
            if on_result is not None:
                on_result(r)
        return [r for r in results if r is not None]
    own = executor is None
    ex = executor if executor is not None else cf.ProcessPoolExecutor(max_workers=jobs)
    try:
        futures = {ex.submit(run_task, t): i for i, t in enumerate(tasks)}
        for fut in cf.as_completed(futures):
            r = fut.result()
            results[futures[fut]] = r
            if on_result is not None:
                on_result(r)
    finally:
        if own:
            ex.shutdown(cancel_futures=True)
    return [r for r in results if r is not None]


# ------------------------------------------------------------------------------------ summaries ----
@dataclass
class BotFigures:
    """Totals of one bot over the seats it held."""

    games: int = 0
    seat_games: int = 0
    wins: float = 0.0
    points: int = 0
    hands: int = 0
    claims_true: int = 0
    missed: int = 0
    mugged: int = 0
    stolen: int = 0
    calls: int = 0
    false_calls: int = 0
    decisions: int = 0
    seconds: float = 0.0
    search_iterations: int = 0

    def add(self, result: GameResult, bot: str) -> None:
        seats = [s for s in result.seats if s.bot == bot]
        if not seats:
            return
        self.games += 1
        self.seat_games += len(seats)
        for s in seats:
            self.points += s.score
            self.hands += result.hands
            self.claims_true += s.claims_true
            self.missed += s.missed
            self.mugged += s.mugged
            self.stolen += s.stolen
            self.calls += s.calls
            self.false_calls += s.false_calls
            self.decisions += s.decisions
            self.seconds += s.seconds
            self.search_iterations += s.search_iterations

    def summary(self) -> dict[str, Any]:
        g = max(self.games, 1)
        return {
            "games": self.games,
            "points_per_hand": self.points / self.hands if self.hands else 0.0,
            "unclaimed_per_game": (self.missed + self.mugged) / g,
            "mugged_per_game": self.mugged / g,
            "stolen_per_game": self.stolen / g,
            "calls_per_game": self.calls / g,
            "false_calls_per_game": self.false_calls / g,
            "seconds_per_move": self.seconds / self.decisions if self.decisions else 0.0,
            "search_iterations_per_second": (self.search_iterations / self.seconds
                                             if self.search_iterations and self.seconds > 0 else 0.0),
        }


def game_score(result: GameResult, a: str, b: str) -> float | None:
    """1 when ``a`` won, 0 when ``b`` won, None for a draw (both, neither, or an unfinished game)."""
    won = result.winning_bots() if result.finished else set()
    if won == {a}:
        return 1.0
    if won == {b}:
        return 0.0
    return None


@dataclass
class PairFigures:
    a: str
    b: str
    games: int = 0
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    unfinished: int = 0
    fig_a: BotFigures = field(default_factory=BotFigures)
    fig_b: BotFigures = field(default_factory=BotFigures)

    def add(self, r: GameResult) -> None:
        self.games += 1
        s = game_score(r, self.a, self.b)
        if s is None:
            self.draws += 1
        elif s == 1.0:
            self.a_wins += 1
        else:
            self.b_wins += 1
        if not r.finished:
            self.unfinished += 1
        self.fig_a.add(r, self.a)
        self.fig_b.add(r, self.b)

    @property
    def a_score(self) -> float:
        return self.a_wins + 0.5 * self.draws

    def summary(self) -> dict[str, Any]:
        lo, hi = wilson(self.a_score, self.games)
        sa, sb = self.fig_a.summary(), self.fig_b.summary()
        return {
            "a": self.a, "b": self.b, "games": self.games, "a_wins": self.a_wins, "b_wins": self.b_wins,
            "draws": self.draws, "unfinished": self.unfinished,
            "a_win_rate": self.a_score / self.games if self.games else 0.0, "ci95": [lo, hi],
            "points_per_hand": {"a": sa["points_per_hand"], "b": sb["points_per_hand"]},
            "muggins": {
                "a": {k: sa[k] for k in ("unclaimed_per_game", "stolen_per_game", "false_calls_per_game")},
                "b": {k: sb[k] for k in ("unclaimed_per_game", "stolen_per_game", "false_calls_per_game")},
            },
        }


def duplicate_margins(results: Iterable[GameResult], bot: str, other: str) -> dict[int, float]:
    """Per deal seed (both orientations of the deal together): ``bot``'s points per hand minus ``other``'s.
    Duplicate deals cancel the luck of the cards; what is left is skill, one sample a deal."""
    per_deal: dict[int, list[int]] = {}
    for r in results:
        mine = sum(s.score for s in r.seats if s.bot == bot)
        theirs = sum(s.score for s in r.seats if s.bot == other)
        if bot == other or not any(s.bot == bot for s in r.seats) or not any(s.bot == other for s in r.seats):
            continue
        acc = per_deal.setdefault(r.seed, [0, 0])
        acc[0] += mine - theirs
        acc[1] += r.hands
    return {k: d / h for k, (d, h) in sorted(per_deal.items()) if h > 0}


def summarize(config: Config, results: Iterable[GameResult], rating_rounds: int = 200) -> dict[str, Any]:
    """The JSON-able report of a tournament: pairs, ratings and per-bot figures."""
    pairs = {(a, b): PairFigures(a, b) for a, b in config.pairs()}
    index = {name: i for i, name in enumerate(config.bots)}
    per_bot = {name: BotFigures() for name in config.bots}
    wins: dict[str, float] = dict.fromkeys(config.bots, 0.0)
    for r in results:
        names = sorted(set(r.bots), key=index.__getitem__)
        if len(names) != 2:
            continue
        a, b = names
        pairs[(a, b)].add(r)
        s = game_score(r, a, b)
        wins[a] += 0.5 if s is None else s
        wins[b] += 0.5 if s is None else 1.0 - s
        per_bot[a].add(r, a)
        per_bot[b].add(r, b)
    table = {(index[p.a], index[p.b]): (p.a_score, p.games) for p in pairs.values()}
    ratings, intervals = rating_intervals(len(config.bots), table, rounds=rating_rounds, seed=config.seed)
    bots = []
    for name in config.bots:
        f = per_bot[name]
        bots.append({"bot": name, "win_rate": wins[name] / f.games if f.games else 0.0,
                     "ci95": list(wilson(wins[name], f.games)), **f.summary()})
    return {
        "game": config.game, "preset": config.preset, "players": config.players,
        "options": dict(config.options), "games_per_pair": config.games, "seed": config.seed,
        "bots": bots,
        "pairs": [p.summary() for p in pairs.values()],
        "ratings": sorted(({"bot": name, "rating": ratings[i], "ci95": [intervals[i][0], intervals[i][1]]}
                           for i, name in enumerate(config.bots)), key=lambda x: -x["rating"]),
    }


TIMING_FIELDS = ("seconds_per_move", "search_iterations_per_second")  # clock figures: they vary run to run


def without_timing(report: dict[str, Any]) -> dict[str, Any]:
    """``report`` less its clock figures (:data:`TIMING_FIELDS` of each bot): what remains depends only on
    the configuration and the seed, the same on every backend and every run."""
    out = dict(report)
    out["bots"] = [{k: v for k, v in b.items() if k not in TIMING_FIELDS} for b in report["bots"]]
    return out


def check_backend(backend: str, address: str | None = None) -> None:
    """Raise :class:`BackendError` for an unknown backend, or an address given to the local one."""
    if backend not in BACKENDS:
        raise BackendError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise BackendError("--address names a Ray cluster; use it with --backend ray")


def run_tournament(config: Config, jobs: int = 1, on_result: Callable[[GameResult], None] | None = None,
                   executor: cf.Executor | None = None, *, backend: str = "local",
                   address: str | None = None) -> tuple[dict[str, Any], list[GameResult]]:
    """Validate, play every game and summarize. ``backend="ray"`` plays them on a new local Ray of ``jobs``
    CPUs (0: every core), or on the Ray cluster at ``address``; the report is the same either way."""
    check_backend(backend, address)
    config.validate()
    if backend == "ray":
        from muggins.sim.ray_backend import run_tasks_ray  # imports ray only when asked for

        results = run_tasks_ray(config.tasks(), on_result, address=address,
                                num_cpus=None if address is not None or jobs == 0 else jobs)
    else:
        results = run_tasks(config.tasks(), jobs, on_result, executor)
    return summarize(config, results), results


def parse_options(items: Iterable[str]) -> tuple[tuple[str, Any], ...]:
    """``["target=200", "claims=auto"]`` -> (("target", "200"), ("claims", "auto")); values are
    checked and coerced by the game's rules."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise RulesError(f"option {item!r} must look like key=value, like target=200")
        out[key.strip()] = value.strip()
    return tuple(out.items())

