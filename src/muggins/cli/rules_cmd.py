"""``muggins rules``: the games, their presets and every option value."""

from __future__ import annotations

import json

import typer
from rich.console import Console
from rich.table import Table

from muggins.core.rules import all_games, get_game, options_of


def rules_command(
    game: str = typer.Option(None, "--game", "-g", help="Only this game."),
    as_json: bool = typer.Option(False, "--json", help="An object mapping each game to its presets by name."),
) -> None:
    """List the games and their presets with every option value."""
    from muggins.cli.common import fail
    from muggins.core.errors import RulesError

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
        presets = list(spec.presets)
        base = spec.default_preset
        opts = {p: options_of(spec.presets[p]) for p in presets}
        console.print(f"[bold]{name}[/]: {spec.title} ({spec.min_players}-{spec.max_players} players)",
                      highlight=False)
        for p in presets:
            console.print(f"  [bold]{p}[/]{' (default)' if p == base else ''}: {spec.descriptions.get(p, '')}",
                          highlight=False)
        table = Table(show_lines=False)
        table.add_column("option", style="bold", no_wrap=True)
        table.add_column(f"{base}", overflow="fold")
        table.add_column("other presets where it differs", overflow="fold")
        for key, value in opts[base].items():
            if key == "preset":
                continue
            diffs = [f"{p}={opts[p][key]}" for p in presets if opts[p][key] != value]
            table.add_row(key, str(value), ", ".join(diffs))
        console.print(table)
        console.print()
