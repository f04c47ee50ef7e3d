"""``muggins rules``: the games, their presets and every option value."""

from __future__ import annotations

import json

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from muggins.cli.common import fail
from muggins.core.claims import OPTION_HELP
from muggins.core.errors import RulesError
from muggins.core.rules import GameSpec, all_games, get_game, options_of


def rules_command(
    game: str = typer.Option(None, "--game", "-g", help="Only this game."),
    as_json: bool = typer.Option(False, "--json", help="An object mapping each game to its presets by name."),
) -> None:
    """List the games and their presets with every option value."""
    try:
        games = {game: get_game(game)} if game else all_games()
    except RulesError as e:
        fail(str(e))
    if as_json:
        out = {name: {p: options_of(r) for p, r in spec.presets.items()} for name, spec in games.items()}
        typer.echo(json.dumps(out, indent=1))
        return
    console = Console()
    for name, spec in games.items():
        console.print(Text.assemble((name, "bold"), f": {spec.title} ({spec.min_players}-{spec.max_players} "
                                                    "players)"))
        console.print(preset_table(spec))
        console.print(option_table(spec))
        console.print(option_notes(spec))
        console.print()


def preset_table(spec: GameSpec) -> Table:
    """Each preset with its description and, after the default, the options where it differs from it."""
    base = spec.default_preset
    opts = {p: options_of(r) for p, r in spec.presets.items()}
    grid = Table(box=None, show_header=False, padding=(0, 1, 0, 2))
    grid.add_column(no_wrap=True, style="bold")
    grid.add_column(overflow="fold")
    for p in spec.presets:
        about = Text(spec.descriptions.get(p, ""))
        if p != base:
            diffs = [f"{k}={show_value(v)}" for k, v in opts[p].items() if k != "preset" and v != opts[base].get(k)]
            about.append(f"\ndiffers from {base}: " + (", ".join(diffs) if diffs else "nothing"), style="dim")
        grid.add_row(f"{p} (default)" if p == base else p, about)
    return grid


def option_table(spec: GameSpec) -> Table:
    """Every option of the default preset with its value."""
    base = spec.default_preset
    table = Table(title=f"options of {base}, the default", title_justify="left", box=box.SIMPLE_HEAD,
                  padding=(0, 1, 0, 2))
    table.add_column("option", style="bold", no_wrap=True)
    table.add_column("value", overflow="fold")
    for key, value in options_of(spec.presets[base]).items():
        if key != "preset":
            table.add_row(key, Text(show_value(value)))
    return table


def option_notes(spec: GameSpec) -> Table:
    """What the options that need a word mean (the muggins rule's false calls)."""
    options = options_of(spec.presets[spec.default_preset])
    grid = Table(box=None, show_header=False, padding=(0, 1, 0, 2))
    grid.add_column(no_wrap=True, style="bold")
    grid.add_column(style="dim")
    for key, text in OPTION_HELP.items():
        if key in options:
            grid.add_row(key, text)
    return grid


def show_value(value: object) -> str:
    """An option value as one word: a list such as the deal sizes is written [7,5,5], so a line never
    breaks inside it."""
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(map(show_value, value)) + "]"
    return str(value)
