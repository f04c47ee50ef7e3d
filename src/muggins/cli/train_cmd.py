"""``muggins train``: counting drills on positions of real games, timed, with a record of progress."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from muggins.cli.common import fail
from muggins.core.errors import MugginsError
from muggins.train import (
    Answer,
    BadAnswer,
    Question,
    RegisteredDrill,
    Session,
    TrainError,
    append_session,
    find_drill,
    parse_answer,
    read_sessions,
    registered_drills,
    results_path,
)

MAX_ROUNDS = 1000
LAST_SESSIONS = 10  # sessions per drill that --stats shows
BAR = 20  # columns of the accuracy bar
QUIT = ("q", "quit", "exit")


class _Quit(Exception):
    """``q`` typed, or the input ended (Ctrl-D): stop asking and keep what was answered."""


def _ask(console: Console, prompt: str) -> str:
    try:
        return console.input(prompt)
    except EOFError:
        console.print()
        raise _Quit from None


def _suits(text: str) -> Text:
    """The position as drawn, never read as markup (a tile ``[5│3]`` is not a style), red suits red."""
    t = Text(text)
    t.highlight_regex(r"\S*[♥♦]", "red")
    return t


def _choose(console: Console) -> RegisteredDrill:
    """The menu: the registered drills by number; a number or a name picks one."""
    drills = list(registered_drills().values())
    if not drills:
        fail("no game registers a drill")
    console.print(Text("Counting drills", style="bold"))
    for i, d in enumerate(drills, 1):
        console.print(Text(f"  {i}. {d.key:<10} {d.title}"))
    while True:
        text = _ask(console, f"Choose a drill (1-{len(drills)} or its name, q quits): ").strip()
        if text.lower() in QUIT:
            raise _Quit
        if text.isascii() and text.isdigit() and 1 <= int(text) <= len(drills):
            return drills[int(text) - 1]
        try:
            return find_drill(text)
        except TrainError:
            console.print(Text(f"No drill {text[:30]!r}: type 1 to {len(drills)} or a name shown above.",
                               style="yellow"))


def _one(console: Console, q: Question, number: int, rounds: int, title: str) -> Answer:
    """Ask ``q`` until a count is typed; the seconds run from the question shown to the count typed."""
    console.rule(Text(f"{title}: {number} of {rounds}"), style="dim")
    console.print(_suits(q.body))
    start = time.monotonic()
    while True:
        text = _ask(console, f"{q.prompt} ")
        if text.strip().lower() in QUIT:
            raise _Quit
        try:
            given = parse_answer(text, q.limit)
        except BadAnswer as e:
            console.print(Text(f"{str(e)[:1].upper()}{str(e)[1:]}.", style="yellow"))
            continue
        seconds = time.monotonic() - start
        answer = Answer(q.answer, given, seconds)
        if answer.right:
            console.print(Text.assemble(("Right", "bold green"), f": {q.answer}  ({seconds:.1f} s)"))
        else:
            console.print(Text.assemble(("Wrong", "bold red"), f": it is {q.answer}, not {given}  "
                                                                f"({seconds:.1f} s)"))
            for line in q.why:
                console.print(_suits(f"  {line}"))
        return answer


def _summary(s: Session) -> str:
    n = len(s.answers)
    if not n:
        return "No question answered."
    return (f"Score {s.right} of {n}" + (f" ({s.rounds} asked for)" if n < s.rounds else "")
            + f": accuracy {s.accuracy:.0%}, median {s.median_seconds:.1f} s a question.")


def _session(console: Console, d: RegisteredDrill, rounds: int, seed: int) -> Session:
    session = Session(d.key, d.game, seed, rounds)
    rng = random.Random(seed)
    try:
        for i in range(1, rounds + 1):
            session.answers.append(_one(console, d.drill.make(rng), i, rounds, d.title))
    except _Quit:
        pass
    except KeyboardInterrupt:
        console.print()
    return session


def _bar(fraction: float, width: int) -> str:
    full = round(max(0.0, min(1.0, fraction)) * width)
    return "█" * full + "·" * (width - full)


def _stats(console: Console, only: RegisteredDrill | None) -> None:
    """Per drill, the last sessions: a row each with the accuracy as a bar and the median seconds."""
    sessions, bad = read_sessions()
    path = results_path()
    if bad:
        console.print(Text(f"({bad} damaged line(s) of {path} skipped)", style="yellow"), soft_wrap=True)
    sessions = [s for s in sessions if s.answers and (only is None or s.drill == only.key)]
    if not sessions:
        console.print(f"No training recorded yet in {path}: run 'muggins train'.", soft_wrap=True)
        return
    titles = {d.key: d.title for d in registered_drills().values()}
    for key in dict.fromkeys(s.drill for s in sessions):
        mine = [s for s in sessions if s.drill == key]
        shown = mine[-LAST_SESSIONS:]
        right = sum(s.right for s in mine)
        answered = sum(len(s.answers) for s in mine)
        slowest = max(s.median_seconds for s in shown) or 1.0
        table = Table(title=Text(f"{key}: {titles.get(key, key)}  ({len(mine)} session(s), "
                                 f"{right}/{answered} right in all)", style="bold"),
                      title_justify="left", show_edge=False, pad_edge=False)
        table.add_column("session (UTC)")
        table.add_column("right", justify="right")
        table.add_column("accuracy")
        table.add_column("median s", justify="right")
        table.add_column("time")
        for s in shown:
            table.add_row(s.when[:16].replace("T", " "), f"{s.right}/{len(s.answers)}",
                          f"{_bar(s.accuracy, BAR)} {s.accuracy:4.0%}", f"{s.median_seconds:.1f}",
                          _bar(s.median_seconds / slowest, 10))
        console.print(table)
        console.print()


def _plot(only: RegisteredDrill | None, out: Path) -> int:
    """Accuracy and median seconds per session, one line per drill, as a PNG; the sessions drawn."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    sessions, _ = read_sessions()
    sessions = [s for s in sessions if s.answers and (only is None or s.drill == only.key)]
    if not sessions:
        raise TrainError(f"no training recorded yet in {results_path()}: nothing to plot")
    fig, (acc, speed) = plt.subplots(2, 1, figsize=(8, 6), sharex=False)
    for key in dict.fromkeys(s.drill for s in sessions):
        mine = [s for s in sessions if s.drill == key]
        xs = list(range(1, len(mine) + 1))
        acc.plot(xs, [100 * s.accuracy for s in mine], marker="o", label=key)
        speed.plot(xs, [s.median_seconds for s in mine], marker="o", label=key)
    acc.set_ylabel("accuracy (%)")
    acc.set_ylim(0, 105)
    speed.set_ylabel("median seconds")
    speed.set_ylim(bottom=0)
    for ax in (acc, speed):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    speed.set_xlabel("session (of each drill, oldest first)")
    acc.legend()
    acc.set_title("Counting drills")
    fig.tight_layout()
    try:
        fig.savefig(out, format="png")
    except (OSError, ValueError) as e:
        raise TrainError(f"cannot write the plot {out}: {getattr(e, 'strerror', None) or e}") from None
    finally:
        plt.close(fig)
    return len(sessions)


def train_command(
    drill: Annotated[str | None, typer.Argument(
        help="The drill (see the menu when none is given): each game registers its own.",
        show_default=False)] = None,
    rounds: Annotated[int, typer.Option("--rounds", "-n", help=f"Questions to ask (1-{MAX_ROUNDS}).")] = 10,
    seed: Annotated[int | None, typer.Option(
        "--seed", help="Seed of the positions: the same seed asks the same questions (default: a new one, "
                       "recorded).")] = None,
    stats: Annotated[bool, typer.Option(
        "--stats", help="Show the accuracy and speed of the last sessions of each drill (or of DRILL), "
                        "and exit.")] = False,
    plot: Annotated[Path | None, typer.Option(
        "--plot", help="Write a PNG chart of accuracy and speed per session to this file, and exit.",
        dir_okay=False)] = None,
) -> None:
    """Counting drills on positions of real games: answer, see the true count and why, and keep a record.

    Type the count and Enter; q quits (what was answered is kept), as does Ctrl-D.

    The record is one JSON line per session in the user's data directory (MUGGINS_DATA_DIR overrides it)."""
    if not 1 <= rounds <= MAX_ROUNDS:
        fail(f"--rounds must be from 1 to {MAX_ROUNDS}; got {rounds}")
    if seed is not None and seed < 0:
        fail(f"--seed must be a whole number from 0; got {seed}")
    console = Console(highlight=False)
    try:
        chosen = find_drill(drill) if drill is not None else None
        if stats or plot is not None:
            if stats:
                _stats(console, chosen)
            if plot is not None:
                n = _plot(chosen, plot)
                console.print(f"Wrote {plot} ({n} session(s)).", soft_wrap=True)
            return
        if chosen is None:
            try:
                chosen = _choose(console)
            except _Quit:
                return
        used = seed if seed is not None else random.SystemRandom().randrange(2**32)
        session = _session(console, chosen, rounds, used)
        console.print(Text(_summary(session), style="bold"))
        if session.answers:
            path = append_session(session)
            console.print(f"Saved to {path} (seed {used}).", soft_wrap=True)
    except MugginsError as e:
        fail(str(e))
