"""Tournament reports: rich tables for the terminal and a PNG of the ratings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from muggins.core.errors import MugginsError


class PlotError(MugginsError):
    """The ratings plot cannot be written (matplotlib missing, or the file cannot be created)."""


LABEL_WIDTH = 10  # bot names longer than this are shown by a short label and listed under the tables


def _pct(x: float) -> str:
    return f"{100 * x:.0f}"


def _ci(ci: list[float] | tuple[float, float]) -> str:
    return f"[{_pct(ci[0])}-{_pct(ci[1])}]"


def bot_labels(report: dict[str, Any]) -> dict[str, str]:
    """Each bot's name in the tables: the name itself, or, for a long one such as
    ``search:iterations=200:time=0.5``, its kind and a number (``search[1]``) explained by ``bot_key``."""
    labels: dict[str, str] = {}
    for b in report["bots"]:
        name = b["bot"]
        if len(name) <= LABEL_WIDTH:
            labels[name] = name
        else:
            mark = f"[{sum(len(n) > LABEL_WIDTH for n in labels) + 1}]"
            labels[name] = name.split(":")[0][: LABEL_WIDTH - len(mark)] + mark
    return labels


def bot_key(report: dict[str, Any]) -> list[str]:
    """``search[1] = search:iterations=200:time=0.5`` for every bot shown by a label."""
    return [f"{label} = {name}" for name, label in bot_labels(report).items() if label != name]


def _table(title: str) -> Table:
    return Table(title=title, title_justify="left")


def _name_column(t: Table, header: str) -> None:
    t.add_column(header, overflow="fold")


def _number_column(t: Table, header: str) -> None:
    t.add_column(header, justify="right", overflow="fold")


def pair_table(report: dict[str, Any]) -> Table:
    """Every pair: games won by each, the first bot's win rate with its 95% interval, points per hand."""
    label = bot_labels(report)
    t = _table(f"{report['game']} / {report['preset']}, {report['players']} players: "
               f"{report['games_per_pair']} games per pair (duplicate deals)")
    _name_column(t, "A")
    _name_column(t, "B")
    for header in ("A-B-draw", "A win %", "95% CI", "pts/hand A : B"):
        _number_column(t, header)
    for p in report["pairs"]:
        t.add_row(Text(label[p["a"]]), Text(label[p["b"]]), f"{p['a_wins']}-{p['b_wins']}-{p['draws']}",
                  f"{100 * p['a_win_rate']:.1f}", _ci(p["ci95"]),
                  f"{p['points_per_hand']['a']:.1f} : {p['points_per_hand']['b']:.1f}")
    return t


def _by_rating(report: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    ratings = {r["bot"]: r for r in report["ratings"]}
    return sorted(((b, ratings[b["bot"]]) for b in report["bots"]), key=lambda br: -br[1]["rating"])


def rating_table(report: dict[str, Any]) -> Table:
    """Each bot, best first: its rating and win rate with their 95% intervals, and points per hand."""
    label = bot_labels(report)
    t = _table("bots: ratings (Elo scale) and win rates")
    _name_column(t, "bot")
    for header in ("rating", "95% CI", "win %", "95% CI", "pts/hand"):
        _number_column(t, header)
    for b, r in _by_rating(report):
        t.add_row(Text(label[b["bot"]]), f"{r['rating']:.0f}", f"[{r['ci95'][0]:.0f}-{r['ci95'][1]:.0f}]",
                  f"{100 * b['win_rate']:.1f}", _ci(b["ci95"]), f"{b['points_per_hand']:.1f}")
    return t


def muggins_table(report: dict[str, Any]) -> Table:
    """Each bot's muggins figures per game (points left unclaimed, points stolen, false calls) and speed."""
    label = bot_labels(report)
    t = _table("bots: muggins figures per game, and speed")
    _name_column(t, "bot")
    for header in ("unclaimed", "stolen", "false calls", "ms/move", "search it/s"):
        _number_column(t, header)
    for b, _ in _by_rating(report):
        it = b.get("search_iterations_per_second")  # the clock figures are left out by --no-timing
        spm = b.get("seconds_per_move")
        t.add_row(Text(label[b["bot"]]), f"{b['unclaimed_per_game']:.1f}", f"{b['stolen_per_game']:.1f}",
                  f"{b['false_calls_per_game']:.2f}", "-" if spm is None else f"{1000 * spm:.1f}",
                  f"{it:.0f}" if it else "-")
    return t


def print_report(report: dict[str, Any], console: Console | None = None) -> None:
    """The three tables, each at most 80 columns wide, then the names behind any short labels."""
    c = console or Console()
    c.print(pair_table(report))
    c.print(rating_table(report))
    c.print(muggins_table(report))
    for line in bot_key(report):
        c.print(Text(line))


def plot_ratings(report: dict[str, Any], path: str | Path) -> None:
    """Write a PNG of the ratings with their 95% intervals."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotError("--plot needs matplotlib: pip install matplotlib") from None
    ratings = list(reversed(report["ratings"]))
    names = [r["bot"] for r in ratings]
    values = [r["rating"] for r in ratings]
    lows = [r["rating"] - r["ci95"][0] for r in ratings]
    highs = [r["ci95"][1] - r["rating"] for r in ratings]
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.5 * len(names)))
    ax.errorbar(values, range(len(names)), xerr=[lows, highs], fmt="o", capsize=4)
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("rating (Bradley-Terry, Elo scale) with 95% interval")
    ax.set_title(f"{report['game']} ({report['preset']}, {report['players']} players)")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    try:
        fig.savefig(path, format="png")
    except OSError as e:
        raise PlotError(f"cannot write {path}: {e.strerror}") from None
    finally:
        plt.close(fig)
