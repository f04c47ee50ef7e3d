"""Counting drills: positions from real games, a count to give, and a record of how well and how fast.

A game registers its drills by import path (``GameSpec.drills``); each is a class with a ``name``, a
``title`` and ``make(rng) -> Question``, built from a real position of the engine and drawn with the game's
own terminal pieces, so that what is trained is what the table shows. This module finds them through the
registry (it names no game), checks typed answers, and keeps the results, one JSON line per session, in the
user's data directory (``MUGGINS_DATA_DIR`` overrides it) for ``muggins train --stats``."""

from __future__ import annotations

import json
import os
import random
import statistics
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from muggins.bots.base import CLAIM_KINDS, with_true_claim
from muggins.core.errors import MugginsError
from muggins.core.protocol import Action, GameState
from muggins.core.rules import GameSpec, all_games, load_object

__all__ = ["Answer", "BadAnswer", "Drawn", "Drill", "Question", "RegisteredDrill", "Session", "TrainError",
           "append_session", "data_dir", "find_drill", "parse_answer", "random_play", "read_sessions",
           "registered_drills", "results_path"]

MAX_ANSWER = 999  # no count a drill asks for comes near this: a larger number is a typing slip


class TrainError(MugginsError):
    """A drill that is not registered, or a training record that cannot be written or read."""


class BadAnswer(MugginsError, ValueError):
    """A typed answer that is not a count (not a whole number, negative, too large): asked again."""


@dataclass(frozen=True)
class Drawn:
    """The position as the web table draws it: a view of the game (the spectator's, or the seat's whose
    pieces the drill shows, holding nothing the text drawing does not show) and the page renderer's name."""

    view: dict[str, Any]
    renderer: str

    @classmethod
    def of(cls, spec: GameSpec, view: dict[str, Any]) -> Drawn:
        return cls(view, spec.page_renderer or "generic")


@dataclass(frozen=True)
class Question:
    """One position to count: ``body`` is the position as the table draws it (plain text, at most 18 lines
    of 80 columns, so that it fits a 24-row terminal with the prompt and the verdict), ``answer`` the
    engine's count, ``why`` the lines that explain it when the game can say, ``limit`` the largest answer
    worth typing; ``drawn`` the same position for the page's board, when the drill has one."""

    body: str
    prompt: str
    answer: int
    why: tuple[str, ...] = ()
    limit: int = MAX_ANSWER
    drawn: Drawn | None = None


class Drill(Protocol):
    """What a game registers in ``GameSpec.drills`` (by the import path of the class, built with no
    arguments)."""

    name: str
    title: str

    def make(self, rng: random.Random) -> Question: ...


@dataclass(frozen=True)
class RegisteredDrill:
    """A drill as ``muggins train`` offers it: its key (the drill's name, or ``game:name`` when two games
    use the same name), the game's name and title, and the drill itself."""

    key: str
    game: str
    game_title: str
    drill: Drill

    @property
    def title(self) -> str:
        return self.drill.title


def registered_drills() -> dict[str, RegisteredDrill]:
    """Every drill of every registered game, by key, in the registry's order."""
    found: list[tuple[str, str, Drill]] = []
    for spec in all_games().values():
        for path in spec.drills:
            found.append((spec.name, spec.title, load_object(path)()))
    names = [d.name for _, _, d in found]
    out: dict[str, RegisteredDrill] = {}
    for game, title, d in found:
        key = d.name if names.count(d.name) == 1 else f"{game}:{d.name}"
        out[key] = RegisteredDrill(key, game, title, d)
    return out


def find_drill(name: str) -> RegisteredDrill:
    """The drill called ``name`` (its key, or ``game:name``), or TrainError naming the drills there are."""
    drills = registered_drills()
    if name in drills:
        return drills[name]
    for d in drills.values():
        if name == f"{d.game}:{d.drill.name}":
            return d
    known = ", ".join(drills) or "none"
    raise TrainError(f"unknown drill {name!r}; drills: {known}")


def parse_answer(text: str, limit: int = MAX_ANSWER) -> int:
    """A typed count: a whole number from 0 to ``limit``, or BadAnswer saying what to type."""
    t = text.strip()
    want = f"type a whole number from 0 to {limit} (q quits)"
    if not t:
        raise BadAnswer(want)
    digits = t[1:] if t[0] in "+-" else t
    if not (digits.isascii() and digits.isdigit()):
        raise BadAnswer(f"{t[:20]!r} is not a number: {want}")
    if t[0] == "-" and int(digits) != 0:
        raise BadAnswer(f"a count is never negative: {want}")
    if len(digits) > 6 or int(digits) > limit:
        raise BadAnswer(f"{t[:20]} is more than any count here: {want}")
    return int(digits)


def random_play(state: GameState, rng: random.Random) -> Iterator[tuple[GameState, int, Action]]:
    """Play ``state`` on by random legal moves, each with its true claim (so that no muggins call is ever
    due), yielding (the state before the move, the seat, the move) after each; ends with the game. The
    drills stop it where a position worth counting comes up."""
    while not state.is_over():
        seats = sorted(state.waiting_for()) or sorted(state.to_act())
        seat = seats[0]
        actions = [a for a in state.legal_actions(seat) if a.kind not in CLAIM_KINDS]
        action = with_true_claim(state, seat, rng.choice(actions))
        before = state.clone()
        state.apply(seat, action)
        yield before, seat, action


# ------------------------------------------------------------------------------------ the record ----
@dataclass(frozen=True)
class Answer:
    """One answered question: the true count, what was typed, and the seconds it took."""

    answer: int
    given: int
    seconds: float

    @property
    def right(self) -> bool:
        return self.answer == self.given


@dataclass
class Session:
    """One run of one drill: when it started, its seed (the same seed asks the same questions), how many
    questions were asked for, and the answers given."""

    drill: str
    game: str
    seed: int
    rounds: int
    when: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    answers: list[Answer] = field(default_factory=list)

    @property
    def right(self) -> int:
        return sum(a.right for a in self.answers)

    @property
    def accuracy(self) -> float:
        return self.right / len(self.answers) if self.answers else 0.0

    @property
    def median_seconds(self) -> float:
        return statistics.median(a.seconds for a in self.answers) if self.answers else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"when": self.when, "drill": self.drill, "game": self.game, "seed": self.seed,
                "rounds": self.rounds, "right": self.right, "answered": len(self.answers),
                "median_seconds": round(self.median_seconds, 3),
                "answers": [{"answer": a.answer, "given": a.given, "seconds": round(a.seconds, 3)}
                            for a in self.answers]}

    @classmethod
    def from_json(cls, data: Any) -> Session:
        """A session read back; ValueError (KeyError, TypeError) when the line is not one."""
        if not isinstance(data, dict):
            raise ValueError("not an object")
        answers = [Answer(int(a["answer"]), int(a["given"]), float(a["seconds"])) for a in data["answers"]]
        return cls(str(data["drill"]), str(data["game"]), int(data["seed"]), int(data["rounds"]),
                   str(data["when"]), answers)


def data_dir() -> Path:
    """Where the training record lives: ``MUGGINS_DATA_DIR`` when set, else the user's data directory."""
    env = os.environ.get("MUGGINS_DATA_DIR")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("muggins"))


def results_path() -> Path:
    return data_dir() / "training.jsonl"


def append_session(session: Session) -> Path:
    """Add ``session`` to the record (one JSON line); the path written, or TrainError saying why not."""
    path = results_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(session.to_json(), separators=(",", ":")) + "\n")
    except OSError as e:
        raise TrainError(f"cannot write the training record {path}: {e.strerror or e}") from None
    return path


def read_sessions() -> tuple[list[Session], int]:
    """Every session recorded, oldest first, and the number of lines that could not be read (skipped:
    a damaged line must not hide the rest). No record yet is no sessions."""
    path = results_path()
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return [], 0
    except OSError as e:
        raise TrainError(f"cannot read the training record {path}: {e.strerror or e}") from None
    sessions, bad = [], 0
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            sessions.append(Session.from_json(json.loads(line)))
        except (ValueError, KeyError, TypeError):
            bad += 1
    return sessions, bad
