"""``muggins replay``: validate a record action by action and report the scores and scoring events."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from muggins.cli.common import fail
from muggins.core import GameState
from muggins.core.errors import RecordError
from muggins.core.records import apply_record_action, load, player_names, replay, start_from_record


def replay_command(
    file: Path = typer.Argument(..., help="A game record (JSON)."),
    as_json: bool = typer.Option(False, "--json", help="Print an object with scores and events."),
    step: bool = typer.Option(False, "--step", help="Show the table after each action (Enter or n: next, "
                                                    "b: back, q: quit)."),
    ascii_only: bool = typer.Option(False, "--ascii", help="With --step: plain ASCII tiles and cards."),
) -> None:
    """Replay a game record, validating every action; print the final scores and the scoring events."""
    if step:
        _step(file, ascii_only)
        return
    try:
        rec = load(file)
        state = replay(rec)
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
    names = player_names(rec, state.num_players)
    sides = state.num_sides != state.num_players
    console = Console()
    table = Table(title=f"{file.name}: {state.game} / {state.rules.preset}, {len(state.history)} actions")
    for col in ("#", "player", *(("side",) if sides else ()), "points", "why"):
        table.add_column(col)
    for i, ev in enumerate(scoring, 1):
        seat = ev["seat"]
        who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "-"
        table.add_row(str(i), Text(who), *((Text(side_name(state, names, ev["side"])),) if sides else ()),
                      f"{ev['points']:+d}", Text(str(ev["reason"])))
    console.print(table)
    scores = ", ".join(f"{names[seat]} {points}" for seat, points in enumerate(state.scores()))
    console.print(Text(f"Final scores: {scores}"))
    if sides:
        console.print(Text("Sides: " + ", ".join(f"{side_name(state, names, side)} {points}"
                                                 for side, points in enumerate(state.side_scores()))))
    console.print(Text("Game over, won by " + " and ".join(names[w] for w in sorted(state.winners()))
                       if state.is_over() else "The game is not finished."))


def side_name(state: GameState, names: list[str], side: object) -> str:
    """A partnership by its players' names: "North & South"."""
    members = [names[seat] for seat in range(state.num_players) if state.side_of(seat) == side]
    return " & ".join(members) or str(side)


FORWARD = ("", "n", "next", "f")
BACK = ("b", "p", "back", "prev")
QUIT = ("q", "quit")


def _step(file: Path, ascii_only: bool) -> None:
    """Watch a record play by play, as a spectator sees the table: forward (Enter or n) and back (b or p)."""
    from muggins.tui.table import render_table

    console = Console(highlight=False)
    try:
        rec = load(file)
        state = start_from_record(rec)
    except RecordError as e:
        fail(f"{file}: {e}")
    names = player_names(rec, state.num_players)
    actions = rec.get("actions") or []
    ascii_only = ascii_only or not (console.encoding or "").lower().startswith("utf")
    states = [state.clone()]  # the table after each action seen so far: stepping back redraws one of them
    i = 0
    note = ""
    while True:
        console.clear()
        console.print(render_table(states[i], None, names, ascii_only=ascii_only, open_hands=True,
                                   title=f"{file.name}: action {i} of {len(actions)}"))
        if note:
            console.print(note)
        end = i == len(actions)
        prompt = ("End of the record. b: back, Enter or q: quit> " if end
                  else "Enter or n: next action, b: back, q: quit> ")
        try:
            text = console.input(prompt).strip().lower()
        except (EOFError, KeyboardInterrupt):
            return
        note = ""
        if text in QUIT or (end and text in FORWARD):
            return
        if text in BACK:
            if i == 0:
                note = "This is the start of the record."
            i = max(0, i - 1)
        elif text in FORWARD:
            if i + 1 == len(states):
                nxt = states[i].clone()
                try:
                    apply_record_action(nxt, i, actions[i])
                except RecordError as e:
                    fail(f"{file}: {e}")
                states.append(nxt)
            i += 1
        else:
            note = "Enter or n: the next action; b: the one before; q: quit."
