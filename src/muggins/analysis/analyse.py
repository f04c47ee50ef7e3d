"""Post-game analysis of a record: where each seat lost points, to its choices, its counting and the
muggins rule.

:func:`analyse_record` replays the record. Before every *decision* (a regular move of a seat that had
two or more regular moves) it ranks the seat's moves with :func:`~muggins.analysis.evaluate.rank_moves`
(expected net points to the end of the hand over worlds drawn from the seat's information; the seed of
each decision is derived from ``seed`` and the action's index, so the analysis is deterministic). The
*loss* of a decision is the best move's expected points minus the made move's (0 when the made move is
the best found). From the events it collects the *slips* of the muggins rule:

* ``missed``: points of the seat's step that nobody was credited (not claimed, under-claimed, or left
  over after a call); lost to counting.
* ``mugged``: points an opponent's call took from the seat: what the caller gained (a steal), what the
  seat forfeited (a forfeit), twice the gain (steal and deduct: not scored and taken off); lost to muggins.
* ``over_claim``: an announcement above the truth; ``points`` is the penalty the opponents scored for it
  (0 when the claim is only void: its true points then show as missed or mugged); lost to counting.
* ``false_call``: a call on nothing; ``points`` is what it cost (deducted, or awarded to the accused).
* ``missed_call``: an opponent's window the seat could have called (``muggable`` was positive for it)
  that closed with nobody calling; ``points`` is what was there to take.

JSON form (:meth:`Analysis.to_json`), stable field names (figures rounded to 2 decimals)::

    {"format": "muggins-analysis", "version": 1, "game", "preset", "players": [names], "sides": [side of
     each seat], "samples", "seed", "rollout", "tolerance", "actions": count, "over", "scores": [by side],
     "decisions": [{"action", "seat", "move", "best", "made_points", "best_points", "loss", "error",
                    "accurate", "options": [{"move", "points"}]}],   # options best first
     "slips": [{"action", "seat", "kind", "points", "text"}],
     "seats": [{"seat", "name", "side", "decisions", "accurate", "accuracy", "mean_loss", "choices",
                "counting", "muggins", "missed_calls", "missed_call_points", "false_calls", "total",
                "turning": [moment]}],
     "moments": [moment],                                      # the largest losses of the game
     "race": [{"action", "sides"}]}                            # side scores after each score event

A *moment* is ``{"action", "seat", "kind", "points", "text"}`` with ``kind`` "choice" or a slip kind.
A decision's ``error`` is the standard error of its loss over the shared worlds; it is ``accurate`` when
its loss is at most ``tolerance`` (1 point) or at most 2 errors (the worlds drawn cannot tell the two moves
apart: the expected points of a move are noisy, the rest of a hand varies a lot). ``accuracy`` is the
share of the seat's decisions that are accurate (None with no decision). ``total`` adds choices, counting,
muggins and false calls (missed calls are points not won, listed apart). ``action`` is always the index of
an action in the record; a slip's is the action whose events revealed it.

The figures of choices are estimates: a loss of a few points on one decision may be noise (see ``error``);
the larger losses, and the sums over a game, are what to read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from muggins.analysis.evaluate import DEFAULT_ROLLOUT, AnalysisError, rank_moves
from muggins.analysis.wording import move_phrase
from muggins.bots.base import CLAIM_KINDS, regular_actions
from muggins.core.errors import RecordError
from muggins.core.events import EventKind
from muggins.core.protocol import Event, GameState
from muggins.core.records import apply_record_action, player_names, start_from_record

FORMAT = "muggins-analysis"
VERSION = 1
DEFAULT_SAMPLES = 64
TOLERANCE = 1.0  # a decision within this many points of the best counts as accurate
NOISE = 2.0  # ... and so does one whose loss is within this many standard errors (noise, not a mistake)
TURNING = 3  # moments kept per seat
MOMENTS = 6  # moments kept for the game

#: ``progress(done, total)`` after each action of the record.
Progress = Callable[[int, int], None]


def _r(x: float) -> float:
    return round(float(x), 2)


@dataclass
class Decision:
    action: int
    seat: int
    move: str
    best: str
    made_points: float
    best_points: float
    error: float
    options: list[tuple[str, float]]

    @property
    def loss(self) -> float:
        return max(0.0, self.best_points - self.made_points)

    @property
    def accurate(self) -> bool:
        """Within ``TOLERANCE`` of the best move found, or not told apart from it by the worlds drawn."""
        return self.loss <= max(TOLERANCE, NOISE * self.error)

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "seat": self.seat, "move": self.move, "best": self.best,
                "made_points": _r(self.made_points), "best_points": _r(self.best_points), "loss": _r(self.loss),
                "error": _r(self.error), "accurate": self.accurate,
                "options": [{"move": m, "points": _r(p)} for m, p in self.options]}


@dataclass
class Slip:
    action: int
    seat: int
    kind: str
    points: int
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "seat": self.seat, "kind": self.kind, "points": self.points,
                "text": self.text}


@dataclass
class SeatSummary:
    seat: int
    name: str
    side: int
    decisions: int = 0
    accurate: int = 0
    choices: float = 0.0
    counting: int = 0
    muggins: int = 0
    missed_calls: int = 0
    missed_call_points: int = 0
    false_calls: int = 0
    turning: list[dict[str, Any]] = field(default_factory=list)

    @property
    def accuracy(self) -> float | None:
        return self.accurate / self.decisions if self.decisions else None

    @property
    def total(self) -> float:
        return self.choices + self.counting + self.muggins + self.false_calls

    def to_json(self) -> dict[str, Any]:
        acc = self.accuracy
        return {"seat": self.seat, "name": self.name, "side": self.side, "decisions": self.decisions,
                "accurate": self.accurate, "accuracy": None if acc is None else _r(acc),
                "mean_loss": _r(self.choices / self.decisions) if self.decisions else 0.0,
                "choices": _r(self.choices), "counting": self.counting, "muggins": self.muggins,
                "missed_calls": self.missed_calls, "missed_call_points": self.missed_call_points,
                "false_calls": self.false_calls, "total": _r(self.total), "turning": self.turning}


@dataclass
class Analysis:
    """The analysis of one record; :meth:`to_json` is its stable form (see the module doc)."""

    game: str
    preset: str
    players: list[str]
    sides: list[int]
    samples: int
    seed: int
    rollout: str
    actions: int
    over: bool
    scores: list[int]
    decisions: list[Decision]
    slips: list[Slip]
    seats: list[SeatSummary]
    moments: list[dict[str, Any]]
    race: list[tuple[int, list[int]]]

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "game": self.game, "preset": self.preset,
                "players": self.players, "sides": self.sides, "samples": self.samples, "seed": self.seed,
                "rollout": self.rollout, "tolerance": TOLERANCE, "actions": self.actions, "over": self.over,
                "scores": self.scores, "decisions": [d.to_json() for d in self.decisions],
                "slips": [s.to_json() for s in self.slips], "seats": [s.to_json() for s in self.seats],
                "moments": self.moments, "race": [{"action": a, "sides": s} for a, s in self.race]}


def _moment(d: Decision | Slip) -> dict[str, Any]:
    if isinstance(d, Decision):
        return {"action": d.action, "seat": d.seat, "kind": "choice", "points": _r(d.loss),
                "text": f"{move_phrase(d.move, 'past')}; {move_phrase(d.best, 'gerund')} was worth {d.loss:.1f} more"}
    return {"action": d.action, "seat": d.seat, "kind": d.kind, "points": d.points, "text": d.text}


class _Slips:
    """Reads the events of each action into slips."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.out: list[Slip] = []

    def read(self, i: int, state: GameState, evs: list[Event], chances: dict[int, int]) -> None:
        names = self.names
        called = False
        for k, e in enumerate(evs):
            kind, seat, data = e.kind, e.seat, e.data
            if kind == EventKind.MUGGINS and isinstance(seat, int):
                called = True
                on = int(data["on"])
                if data["outcome"] == "false_call":
                    cost = self._false_call_cost(state, evs, seat)
                    self.out.append(Slip(i, seat, "false_call", cost,
                                         f"called muggins on {names[on]} with nothing missed (cost {cost})"))
                    continue
                gain = int(data["points"])
                lost = {"steal": gain, "forfeit": int(data["missed"]), "steal_and_deduct": 2 * gain}.get(
                    str(data["outcome"]), gain)
                self.out.append(Slip(i, on, "mugged", lost,
                                     f"{names[seat]} called muggins and took {gain} ({data['outcome']})"))
            elif kind == EventKind.MISSED and isinstance(seat, int):
                pts = int(data["points"])
                self.out.append(Slip(i, seat, "missed", pts, f"left {pts} points unclaimed ({data['reason']})"))
                if k == 0 and not called:  # the window this action closed, uncalled
                    for s, amount in sorted(chances.items()):
                        if state.side_of(s) != state.side_of(seat) and amount > 0:
                            self.out.append(Slip(i, s, "missed_call", amount,
                                                 f"did not call muggins on {names[seat]}'s {amount} missed points"))
            elif kind == EventKind.OVER_CLAIM and isinstance(seat, int):
                penalty = sum(int(x.data["points"]) for x in evs
                              if x.kind == EventKind.SCORE and x.data.get("reason") == "over-claim penalty")
                self.out.append(Slip(i, seat, "over_claim", penalty,
                                     f"claimed {data['points']}, the {data['what']} was worth {data['true']}"
                                     + (f"; the opponents scored {penalty}" if penalty else "; void")))

    @staticmethod
    def _false_call_cost(state: GameState, evs: list[Event], caller: int) -> int:
        side = state.side_of(caller)
        cost = 0
        for x in evs:
            if x.kind == EventKind.SCORE and x.data.get("reason") == "false call":
                pts = int(x.data["points"])
                cost += -pts if x.data["side"] == side else pts
        return cost


def analyse_record(record: Any, *, samples: int = DEFAULT_SAMPLES, seed: int = 0,
                   progress: Progress | None = None, rollout: str = DEFAULT_ROLLOUT) -> Analysis:
    """Analyse a game record (a parsed JSON document); RecordError if it does not replay, AnalysisError
    for a bad ``samples`` or ``rollout``. See the module doc for what is measured."""
    if type(samples) is not int or samples < 1:
        raise AnalysisError(f"samples is a whole number of worlds, at least 1; got {samples!r}")
    if type(seed) is not int:
        raise AnalysisError(f"the seed is a whole number; got {seed!r}")
    state = start_from_record(record)
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("'actions' must be a list")
    n = state.num_players
    names = player_names(record, n)
    slips = _Slips(names)
    decisions: list[Decision] = []
    race: list[tuple[int, list[int]]] = []
    running = [0] * state.num_sides
    total = len(actions)
    for i, entry in enumerate(actions):
        after = state.clone()
        apply_record_action(after, i, entry)
        if len(after.history) > len(state.history):
            seat, made = after.history[len(state.history)]
            if made.kind not in CLAIM_KINDS and seat in state.waiting_for() \
                    and len(regular_actions(state, seat)) >= 2:
                d = _decide(state, i, seat, made, samples, seed, rollout)
                if d is not None:
                    decisions.append(d)
        chances = {s: state.muggable(s) for s in range(n) if state.muggable(s) > 0}
        evs = after.log[len(state.log):]
        slips.read(i, after, evs, chances)
        for e in evs:
            if e.kind == EventKind.SCORE:
                running[int(e.data["side"])] += int(e.data["points"])
                race.append((i, list(running)))
        state = after
        if progress is not None:
            progress(i + 1, total)
    seats = [SeatSummary(s, names[s], state.side_of(s)) for s in range(n)]
    for d in decisions:
        ss = seats[d.seat]
        ss.decisions += 1
        ss.accurate += d.accurate
        ss.choices += d.loss
    for sl in slips.out:
        ss = seats[sl.seat]
        if sl.kind in ("missed", "over_claim"):
            ss.counting += sl.points
        elif sl.kind == "mugged":
            ss.muggins += sl.points
        elif sl.kind == "false_call":
            ss.false_calls += sl.points
        elif sl.kind == "missed_call":
            ss.missed_calls += 1
            ss.missed_call_points += sl.points
    found: list[Decision | Slip] = [*decisions, *slips.out]
    every = [_moment(x) for x in found if (x.loss if isinstance(x, Decision) else x.points) > 0]
    every.sort(key=lambda m: (-m["points"], m["action"], m["seat"]))
    for ss in seats:
        ss.turning = [m for m in every if m["seat"] == ss.seat][:TURNING]
    return Analysis(state.game, str(state.rules.preset), names, [state.side_of(s) for s in range(n)], samples,
                    seed, rollout, total, state.is_over(), state.side_scores(), decisions, slips.out, seats,
                    every[:MOMENTS], race)


def _decide(state: GameState, i: int, seat: int, made: Any, samples: int, seed: int,
            rollout: str) -> Decision | None:
    ranked = rank_moves(state, seat, samples=samples, seed=f"{seed}:{i}", rollout=rollout)
    bare = made._replace(claim=None)
    mine = next((m for m in ranked if m.action._replace(claim=None) == bare), None)
    if mine is None:  # not one of the regular moves (cannot happen for a move the game accepted)
        return None
    best = ranked[0]
    return Decision(i, seat, mine.text, best.text, mine.points, best.points, best.margin(mine),
                    [(m.text, m.points) for m in ranked])
