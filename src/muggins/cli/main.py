"""The ``muggins`` command line."""

from __future__ import annotations

import gc

import typer

from muggins.core.errors import RulesError
from muggins.core.rules import all_games

try:  # the registry first: a game named in MUGGINS_GAMES that cannot be loaded is a plain error, not a traceback
    all_games()
except RulesError as _e:
    typer.echo(f"Error: {_e}", err=True)
    raise SystemExit(2) from None

from muggins.cli.analyse_cmd import analyse_command
from muggins.cli.bench_cmd import bench_command
from muggins.cli.bot_cmd import bot_app
from muggins.cli.common import Command, Group
from muggins.cli.play_cmd import play_command
from muggins.cli.replay_cmd import replay_command
from muggins.cli.rules_cmd import rules_command
from muggins.cli.serve_cmd import serve_command
from muggins.cli.train_cmd import train_command
from muggins.cli.worker_cmd import worker_command
from muggins.core.rules import all_games, load_object
from muggins.sim.cli import tournament_command

app = typer.Typer(cls=Group, no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                  help="The Muggins family of games: Fives dominoes, card Muggins and Cribbage, "
                       "with the muggins rule.")


@app.callback(invoke_without_command=True)
def _root(
    version: bool = typer.Option(False, "--version", is_eager=True,
                                 help="Print the version, the build and each game's engine in use, and exit."),
) -> None:
    if version:
        from muggins import __version__
        from muggins._accel import describe_build
        from muggins.core.engine import describe_engines

        typer.echo(f"muggins {__version__} ({describe_build()}; {describe_engines()})")
        raise typer.Exit()
    # What is loaded by now (modules, tables, the registry) lives as long as the process: frozen, it is no
    # longer walked by every full collection, which a long game, a tournament or a benchmark makes often.
    gc.freeze()


app.command("rules", cls=Command)(rules_command)
app.command("replay", cls=Command)(replay_command)
app.command("analyse", cls=Command)(analyse_command)
app.command("play", cls=Command)(play_command)
app.command("bench", cls=Command)(bench_command)
app.command("serve", cls=Command)(serve_command)
app.command("tournament", cls=Command)(tournament_command)
app.command("train", cls=Command)(train_command)
app.add_typer(bot_app, name="bot")
app.command("worker", cls=Command)(worker_command)
for _spec in all_games().values():  # each game's own command groups
    for _cmd in _spec.commands:
        app.add_typer(load_object(_cmd.app), name=_cmd.name, help=_cmd.help)


def main() -> None:  # pragma: no cover - entry point
    app()
