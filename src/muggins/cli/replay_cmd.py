"""``muggins replay``: validate a record action by action and report the scores and scoring events."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from muggins.cli.common import fail
from muggins.core.errors import RecordError
from muggins.core.records import load, replay


def replay_command(
    file: Path = typer.Argument(..., help="A game record (JSON)."),
    as_json: bool = typer.Option(False, "--json", help="Print an object with scores and events."),
) -> None:
    """Replay a game record, validating every action; print the final scores and the scoring events."""
    try:
        state = replay(load(file))
    except RecordError as e:
        fail(f"{file}: {e}")
    events = [ev.to_dict() for ev in state.log if ev.kind in ("score", "muggins", "void", "missed", "game_end",
                                                           "hand_end")]
    scoring = [{"seat": ev.get("seat"), "side": ev["side"], "points": ev["points"], "reason": ev["reason"]}
               for ev in events if ev["kind"] == "score"]
    if as_json:
        out = {"game": state.game, "preset": state.rules.preset, "actions": len(state.history),
               "scores": state.scores(), "side_scores": state.side_scores(), "over": state.is_over(),
               "winners": sorted(state.winners()), "events": scoring,
               "log": [ev for ev in events if ev["kind"] != "score"]}
        typer.echo(json.dumps(out, indent=1))
        return
    console = Console()
    table = Table(title=f"{file.name}: {state.game} / {state.rules.preset}, {len(state.history)} actions")
    for col in ("#", "seat", "side", "points", "why"):
        table.add_column(col)
    for i, ev in enumerate(scoring, 1):
        table.add_row(str(i), str(ev["seat"]), str(ev["side"]), f"{ev['points']:+d}", str(ev["reason"]))
    console.print(table)
    result = "game over, won by seat(s) " + ", ".join(map(str, sorted(state.winners()))) \
        if state.is_over() else "game not finished"
    console.print(f"Final scores by seat: {state.scores()}  ({result})", highlight=False)
