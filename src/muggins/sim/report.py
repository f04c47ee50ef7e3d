"""Tournament reports: rich tables for the terminal and a PNG of the ratings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from muggins.core.errors import MugginsError


class PlotError(MugginsError):
    """The ratings plot cannot be written (matplotlib missing, or the file cannot be created)."""


def _pct(x: float) -> str:
    return f"{100 * x:.0f}"


def _rate(rate: float, ci: list[float] | tuple[float, float]) -> str:
    return f"{100 * rate:.1f} [{_pct(ci[0])}-{_pct(ci[1])}]"


def pair_table(report: dict[str, Any]) -> Table:
    t = Table(title=f"{report['game']} / {report['preset']}, {report['players']} players: "
                    f"{report['games_per_pair']} games per pair (duplicate deals)", title_justify="left")
    t.add_column("A")
    t.add_column("B")
    t.add_column("A-B-draw", justify="right")
    t.add_column("A win % [95% CI]", justify="right")
    t.add_column("pts/hand A : B", justify="right")
    for p in report["pairs"]:
        t.add_row(p["a"], p["b"], f"{p['a_wins']}-{p['b_wins']}-{p['draws']}", _rate(p["a_win_rate"], p["ci95"]),
                  f"{p['points_per_hand']['a']:.1f} : {p['points_per_hand']['b']:.1f}")
    return t


def bot_table(report: dict[str, Any]) -> Table:
    t = Table(title="bots (muggins figures per game)", title_justify="left")
    t.add_column("bot")
    for col in ("rating [95% CI]", "win % [95% CI]", "pts/hand", "unclaimed", "stolen", "false calls",
                "ms/move", "search it/s"):
        t.add_column(col, justify="right")
    ratings = {r["bot"]: r for r in report["ratings"]}
    for b in sorted(report["bots"], key=lambda b: -ratings[b["bot"]]["rating"]):
        r = ratings[b["bot"]]
        it = b["search_iterations_per_second"]
        t.add_row(b["bot"], f"{r['rating']:.0f} [{r['ci95'][0]:.0f}-{r['ci95'][1]:.0f}]",
                  _rate(b["win_rate"], b["ci95"]), f"{b['points_per_hand']:.1f}",
                  f"{b['unclaimed_per_game']:.1f}", f"{b['stolen_per_game']:.1f}",
                  f"{b['false_calls_per_game']:.2f}", f"{1000 * b['seconds_per_move']:.1f}",
                  f"{it:.0f}" if it else "-")
    return t


def print_report(report: dict[str, Any], console: Console | None = None) -> None:
    c = console or Console()
    c.print(pair_table(report))
    c.print(bot_table(report))


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
