"""What the page teaches with: every game's rules from the registry (with worked examples, positions of
real games), the counting drills of ``muggins train`` with the same stored record, and a guided first
game built from a real deal of the default game.

Nothing here names a game: the rules come from each preset's description and options, the examples
and the drills from the drills each game registers, the tutorial from the engine's moves and counts.
"""

from __future__ import annotations

import functools
import random
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from muggins.bots.base import CLAIM_KINDS, with_true_claim
from muggins.core.chance import Chance
from muggins.core.protocol import MUGGINS, Action, GameState
from muggins.core.rules import GameSpec, all_games, default_game, options_of
from muggins.train import (
    Answer,
    BadAnswer,
    Question,
    RegisteredDrill,
    Session,
    TrainError,
    append_session,
    parse_answer,
    read_sessions,
    registered_drills,
)

EXAMPLES_PER_DRILL = 2
MAX_SESSIONS = 500       # drill sessions kept in memory (the oldest are dropped)
MAX_ROUNDS = 50
TUTORIAL_SEEDS = 400     # deals tried for a tutorial position
LEARNER = 0


class LearnError(Exception):
    """A request about the rules, a drill or the tutorial that cannot be met; ``status`` fits HTTP."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


# ------------------------------------------------------------------------------------ the rules ----
_MUGGINS = {"steal": "take them for himself", "forfeit": "make them void: nobody scores them",
            "steal_and_deduct": "take them for himself, and they are taken off the scorer's total"}
_OVER = {"void": "an announcement above the true count scores nothing",
         "opponent_scores": "an announcement above the true count scores nothing, and the opponents score it"}
_FALSE = {"none": "a call on a count that was right costs nothing",
          "deduct": "a call on a count that was right costs the caller {n} points",
          "award": "a call on a count that was right gives {n} points to the player called on"}


def rule_sentences(options: dict[str, Any]) -> list[str]:
    """The scoring and muggins rules of a preset in words, from its options."""
    out = []
    if "target" in options:
        out.append(f"The first to reach {options['target']} points wins.")
    if options.get("claims") == "manual":
        out.append("You announce the points of each of your moves as you make it: points not announced are "
                   "not scored.")
        how = _MUGGINS.get(str(options.get("muggins")))
        if how:
            out.append(f"When a player announces less than his move made, an opponent may call Muggins! and "
                       f"{how}.")
        if options.get("over_claim") in _OVER:
            out.append(_OVER[str(options["over_claim"])].capitalize() + ".")
        false = _FALSE.get(str(options.get("false_call_penalty")))
        if false:
            out.append(false.format(n=options.get("false_call_points", 0)).capitalize() + ".")
    elif options.get("claims") == "auto":
        out.append("Every move's points are counted and scored for you: there is no muggins rule.")
    return out


@functools.cache
def examples_of(game: str) -> tuple[dict[str, Any], ...]:
    """Worked examples of ``game``: positions of real games from its drills, with the count and why, and
    the position as the table's board draws it (``view`` and ``renderer``; None for a drill without one)."""
    out = []
    for key, d in registered_drills().items():
        if d.game != game:
            continue
        for k in range(EXAMPLES_PER_DRILL):
            q = d.drill.make(random.Random(1000 + k))
            out.append({"drill": key, "title": d.title, "body": q.body, "prompt": q.prompt, "answer": q.answer,
                        "why": list(q.why), "view": q.drawn.view if q.drawn else None,
                        "renderer": q.drawn.renderer if q.drawn else None})
    return tuple(out)


def rules_of(spec: GameSpec) -> dict[str, Any]:
    """One game's rules: each preset's description, its rules in words, and the options where it differs
    from the default preset; the worked examples."""
    base = options_of(spec.presets[spec.default_preset])
    presets = []
    for name, rules in spec.presets.items():
        opts = options_of(rules)
        presets.append({"name": name, "default": name == spec.default_preset,
                        "description": spec.descriptions.get(name, ""), "rules": rule_sentences(opts),
                        "players": [n for n in range(spec.min_players, spec.max_players + 1)
                                    if _plays(spec, rules, n)],
                        "differs": {k: v for k, v in opts.items() if k != "preset" and v != base.get(k)},
                        "options": opts})
    return {"name": spec.name, "title": spec.title, "piece_noun": list(spec.piece_noun), "presets": presets,
            "examples": list(examples_of(spec.name))}


def _plays(spec: GameSpec, rules: Any, n: int) -> bool:
    try:
        spec.check(rules, n)
    except Exception:
        return False
    return True


def all_rules() -> list[dict[str, Any]]:
    return [rules_of(spec) for spec in all_games().values()]


# ----------------------------------------------------------------------------------- the drills ----
@dataclass
class DrillRun:
    """A drill session of the page: the record it adds to ``muggins train --stats``, the question asked
    and when it was shown."""

    drill: RegisteredDrill
    session: Session
    rng: random.Random
    question: Question | None = None
    asked: float = 0.0
    done: bool = False
    stored: bool = False


@dataclass
class Drills:
    """The drill sessions in progress (in memory; each is written to the record when it ends)."""

    clock: Any = time.monotonic
    runs: OrderedDict[str, DrillRun] = field(default_factory=OrderedDict)

    def listing(self) -> list[dict[str, Any]]:
        return [{"key": k, "game": d.game, "game_title": d.game_title, "title": d.title}
                for k, d in registered_drills().items()]

    def start(self, key: str, rounds: Any) -> dict[str, Any]:
        drills = registered_drills()
        if key not in drills:
            raise LearnError(f"no drill {key[:40]!r}; drills: {', '.join(drills)}", 404)
        if type(rounds) is not int or not 1 <= rounds <= MAX_ROUNDS:
            raise LearnError(f"'rounds' must be a whole number from 1 to {MAX_ROUNDS}", 422)
        seed = secrets.randbits(32)
        run = DrillRun(drills[key], Session(key, drills[key].game, seed, rounds), random.Random(seed))
        sid = secrets.token_urlsafe(12)
        self.runs[sid] = run
        while len(self.runs) > MAX_SESSIONS:
            self.runs.popitem(last=False)
        return {"session": sid, "drill": key, "title": run.drill.title, "rounds": rounds,
                "question": self._ask(run)}

    def _ask(self, run: DrillRun) -> dict[str, Any]:
        q = run.question = run.drill.drill.make(run.rng)
        run.asked = self.clock()
        return {"number": len(run.session.answers) + 1, "rounds": run.session.rounds, "body": q.body,
                "prompt": q.prompt, "limit": q.limit}

    def _run(self, sid: Any) -> DrillRun:
        run = self.runs.get(sid) if isinstance(sid, str) else None
        if run is None:
            raise LearnError("no such drill session (it ended, or the server restarted): start the drill again",
                             404)
        return run

    def answer(self, sid: Any, given: Any) -> dict[str, Any]:
        """Check a typed answer; a bad one is refused (422) and the question stays."""
        run = self._run(sid)
        if run.done or run.question is None:
            raise LearnError("this drill session has ended", 409)
        if isinstance(given, int) and not isinstance(given, bool):
            given = str(given)
        if not isinstance(given, str) or len(given) > 20:
            raise LearnError("'given' is the count you typed", 422)
        q = run.question
        try:
            value = parse_answer(given, q.limit)
        except BadAnswer as e:
            raise LearnError(str(e).replace(" (q quits)", ""), 422) from None
        seconds = max(0.0, self.clock() - run.asked)
        run.session.answers.append(Answer(q.answer, value, seconds))
        out: dict[str, Any] = {"right": value == q.answer, "answer": q.answer, "given": value, "why": list(q.why),
                               "seconds": round(seconds, 3), "score": [run.session.right, len(run.session.answers)]}
        if len(run.session.answers) >= run.session.rounds:
            out.update(self._finish(run))
        else:
            out["next"] = self._ask(run)
        return out

    def stop(self, sid: Any) -> dict[str, Any]:
        run = self._run(sid)
        return self._finish(run) if not run.done else {"done": True, "stored": run.stored}

    def _finish(self, run: DrillRun) -> dict[str, Any]:
        """The session ends: written to the record when anything was answered."""
        run.done, run.question = True, None
        if run.session.answers:
            try:
                append_session(run.session)
            except TrainError as e:
                raise LearnError(str(e), 500) from None
            run.stored = True
        return {"done": True, "stored": run.stored, "right": run.session.right,
                "answered": len(run.session.answers)}


def drill_stats() -> dict[str, Any]:
    """The record's sessions summed by drill, as ``muggins train --stats`` reads them."""
    sessions, bad = read_sessions()
    by: dict[str, dict[str, Any]] = {}
    for s in sessions:
        d = by.setdefault(s.drill, {"drill": s.drill, "game": s.game, "sessions": 0, "answered": 0, "right": 0})
        d["sessions"] += 1
        d["answered"] += len(s.answers)
        d["right"] += s.right
    return {"drills": list(by.values()), "unreadable": bad}


# --------------------------------------------------------------------------------- the tutorial ----
def _regular(st: GameState, seat: int) -> list[Action]:
    return [a for a in st.legal_actions(seat) if a.kind not in CLAIM_KINDS]


def _scoring(st: GameState, seat: int) -> list[tuple[Action, int]]:
    return [(a, p) for a in _regular(st, seat) if (p := st.claim_for(seat, a)) > 0]


def _actor(st: GameState) -> int:
    return min(st.waiting_for() or st.to_act())


def _find_lesson(spec: GameSpec) -> tuple[int, list[tuple[int, Action]]] | None:
    """A deal (its seed) and the moves that lead, in a few plays, to a scoring move of the learner
    followed by a scoring move of the opponent: the two moments the tutorial teaches."""
    rules = spec.rules(None)
    if getattr(rules, "claims", "auto") != "manual":
        return None
    for seed in range(1, TUTORIAL_SEEDS):
        st = spec.new(rules, 2, chance=Chance(seed=seed))
        rng = random.Random(seed)
        moves: list[tuple[int, Action]] = []
        for _ in range(8):
            if st.is_over():
                break
            seat = _actor(st)
            if seat == LEARNER and _scoring(st, seat):
                action, points = max(_scoring(st, seat), key=lambda x: x[1])
                after = st.clone()
                after.apply(seat, action.with_claim(points))
                if not after.is_over() and _actor(after) != LEARNER and _scoring(after, _actor(after)):
                    return seed, moves
            quiet = [a for a in _regular(st, seat) if st.claim_for(seat, a) == 0] or _regular(st, seat)
            action = with_true_claim(st, seat, rng.choice(quiet))
            st.apply(seat, action)
            moves.append((seat, action))
    return None


@functools.cache
def tutorial() -> dict[str, Any]:
    """The guided first game: steps of a real deal of the default game, seen by the learner (seat 0),
    each with what to do. ``expect`` is what the step waits for: ``next`` (read on), ``play`` (one of the
    ``accept`` moves with its right announcement) or ``muggins`` (call Muggins!)."""
    spec = default_game()
    found = _find_lesson(spec)
    if found is None:
        raise LearnError("the default game has no muggins rule to teach", 404)
    seed, moves = found
    st = spec.new(spec.rules(None), 2, chance=Chance(seed=seed))
    names = ["You", "Teacher"]
    noun = spec.piece_noun
    steps: list[dict[str, Any]] = []
    logged = [0]

    def step(text: str, expect: str, **more: Any) -> None:
        """A step: the learner's view, and the events logged since the step before (the learner's log)."""
        steps.append({"text": text, "expect": expect, "view": st.view(LEARNER).to_json(),
                      "events": st.events_for(LEARNER, logged[0]), "actions": len(st.history), **more})
        logged[0] = len(st.log)

    step(f"This is a game of {spec.title} against the Teacher. Your {noun[1]} are at the bottom; the "
         f"board is in the middle. Under these rules you score by announcing the points your own moves "
         f"make, and you may catch the points your opponent forgets.", "next")
    for seat, action in moves:
        st.apply(seat, action)
        who = "You" if seat == LEARNER else "The Teacher"
        step(f"{who} played {st.format_action(action.with_claim(None))}. It scored nothing, so there was "
             f"nothing to announce.", "next")
    scoring = sorted(_scoring(st, LEARNER), key=lambda x: -x[1])
    best, points = scoring[0]
    step(f"Your turn. Playing {st.format_action(best)} makes {points} points. Choose it, type {points} in the "
         f"Announce box, and play it.", "play",
         accept=[{"move": st.format_action(a), "claim": p} for a, p in scoring])
    st.apply(LEARNER, best.with_claim(points))
    step(f"You announced {points} and scored them. Now watch the Teacher's move.", "next")
    teacher = 1 - LEARNER
    t_action, t_points = max(_scoring(st, teacher), key=lambda x: x[1])
    st.apply(teacher, t_action.with_claim(None))
    step(f"The Teacher played {st.format_action(t_action.with_claim(None))}, which made {t_points} points, "
         f"and announced nothing. Points not announced can be taken: press Muggins!", "muggins")
    st.apply(LEARNER, MUGGINS)
    step(f"Muggins! You took the {t_points} points the Teacher forgot. Announce every point you make, "
         f"and watch what your opponents announce. You have finished the tutorial.", "done")
    return {"game": spec.name, "title": spec.title, "renderer": spec.page_renderer or "generic",
            "piece_noun": list(noun), "names": names, "seed": seed, "steps": steps}
