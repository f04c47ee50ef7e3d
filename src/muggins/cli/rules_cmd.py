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
        table = Table(title=f"{name}: {spec.title} (default preset {spec.default_preset}, "
                            f"{spec.min_players}-{spec.max_players} players)", show_lines=False)
        presets = list(spec.presets)
        table.add_column("option", style="bold")
        for p in presets:
            table.add_column(p, overflow="fold")
        opts = {p: options_of(spec.presets[p]) for p in presets}
        for key in opts[presets[0]]:
            if key == "preset":
                continue
            table.add_row(key, *[str(opts[p][key]) for p in presets])
        console.print(table)
        for p in presets:
            if p in spec.descriptions:
                console.print(f"  [bold]{p}[/]: {spec.descriptions[p]}", highlight=False)
        console.print()
