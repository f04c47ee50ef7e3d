"""The analysis as people read it: a rich table per seat and the moments that cost most, and a PNG of
the score race with each decision's loss (matplotlib, imported only when a plot is asked for)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from muggins.analysis.analyse import DEFAULT_SAMPLES, TOLERANCE, Analysis, analyse_record


def run_analysis(record: Any, samples: int = DEFAULT_SAMPLES, seed: int = 0,
                 console: Console | None = None) -> Analysis:
    """:func:`analyse_record` with a progress bar on ``console`` (standard error by default; it is gone
    when the analysis is done)."""
    with Progress(TextColumn("analysing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console or Console(stderr=True), transient=True) as progress:
        bar = progress.add_task("analysing", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(bar, completed=done, total=total)

        return analyse_record(record, samples=samples, seed=seed, progress=advance)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def render(analysis: Analysis) -> Group:
    """A table per seat (its losses by cause), then the turning moments of the game."""
    a = analysis
    head = Text(f"{a.game} / {a.preset}: {a.actions} actions, {len(a.decisions)} decisions analysed "
                f"({a.samples} worlds each, seed {a.seed}); final scores "
                + ", ".join(map(str, a.scores)))
    parts: list[Text | Table] = [head]
    for s in a.seats:
        t = Table(title=f"{s.name} (seat {s.seat})", title_justify="left", box=box.SIMPLE_HEAD,
                  pad_edge=False, show_header=False)
        t.add_column("what")
        t.add_column("points", justify="right")
        mean = s.choices / s.decisions if s.decisions else 0.0
        t.add_row("decisions analysed", str(s.decisions))
        t.add_row(f"accurate (within {TOLERANCE:g} point of the best, or noise)", _pct(s.accuracy))
        t.add_row("points lost to choices", f"{s.choices:.1f} ({mean:.1f} a decision)")
        t.add_row("points lost to counting (unclaimed, over-claims)", str(s.counting))
        t.add_row("points lost to muggins calls", str(s.muggins))
        t.add_row("points lost to false calls", str(s.false_calls))
        t.add_row("total lost", f"{s.total:.1f}")
        t.add_row("opponents' misses not called", f"{s.missed_call_points} points in {s.missed_calls}")
        parts.append(t)
    moments = Table(title="Turning moments", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    for col in ("action", "seat", "lost", "what"):
        moments.add_column(col, justify="right" if col in ("action", "lost") else "left", no_wrap=col != "what")
    for m in a.moments:
        moments.add_row(str(m["action"] + 1), Text(a.players[m["seat"]]), f"{m['points']:.1f}", Text(m["text"]))
    if a.moments:
        parts.append(moments)
    else:
        parts.append(Text("No point was lost anywhere the analysis could see."))
    return Group(*parts)


def show(analysis: Analysis, console: Console) -> None:
    console.print(render(analysis))


def plot(analysis: Analysis, path: str | Path) -> None:
    """Write a PNG: the side scores after each score event (top), each decision's loss (bottom)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    a = analysis
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 6), sharex=True,
                                      gridspec_kw={"height_ratios": [3, 2]})
    sides = len(a.scores)
    label = [" & ".join(a.players[s] for s in range(len(a.players)) if a.sides[s] == side) for side in range(sides)]
    xs = [0] + [i + 1 for i, _ in a.race]
    for side in range(sides):
        ys = [0] + [sc[side] for _, sc in a.race]
        top.step(xs, ys, where="post", label=label[side])
    top.set_ylabel("score")
    top.set_title(f"{a.game} / {a.preset}")
    top.legend(loc="upper left")
    colours = [f"C{a.sides[d.seat] % 10}" for d in a.decisions]
    bottom.bar([d.action + 1 for d in a.decisions], [d.loss for d in a.decisions], color=colours, width=0.8)
    bottom.set_ylabel("points lost")
    bottom.set_xlabel("action")
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)
