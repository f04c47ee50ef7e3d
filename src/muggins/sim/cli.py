"""``muggins tournament``: a duplicate round robin between bots, with win rates, ratings and muggins
figures; ``--json`` for machines, ``--plot`` for a PNG of the ratings; ``--backend ray`` plays the games on
Ray (a local one, or a cluster given by ``--address``)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from muggins.bots.base import BotError
from muggins.cli.common import fail
from muggins.core.errors import MugginsError, RulesError
from muggins.core.rules import all_games, default_game, get_game
from muggins.sim.driver import GameResult
from muggins.sim.report import PlotError, plot_ratings, print_report
from muggins.sim.tournament import (
    BACKENDS,
    BackendError,
    Config,
    check_backend,
    parse_options,
    run_tournament,
    without_timing,
)


def tournament_command(
    game: str = typer.Option(None, "--game", "-g",
                             help=f"Game: {', '.join(all_games())} [default: {default_game().name}]."),
    preset: str = typer.Option(None, "--preset", "-p", help="Preset (default: the game's default)."),
    players: int = typer.Option(None, "--players", "-n", help="Players per game (seats alternate bots)."),
    bots: str = typer.Option("random,greedy", "--bots", "-b",
                             help="Comma-separated bots or levels, e.g. random,greedy,heuristic,search "
                                  "or beginner,club; options after colons: search:iterations=200:time=0.5"),
    games: int = typer.Option(20, "--games", help="Games per pair (each deal is played twice, seats rotated)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the deals."),
    jobs: int = typer.Option(None, "--jobs", "-j",
                             help="Worker processes, or the CPUs of a local Ray (0: one per core) "
                                  "[default: 1; with --backend ray: every core]."),
    backend: str = typer.Option("local", "--backend",
                                help=f"Where the games run: {' or '.join(BACKENDS)} (Ray, pip install "
                                     "'muggins[ray]')."),
    address: str = typer.Option(None, "--address",
                                help="With --backend ray: the cluster to use, 'auto' (the one started on this "
                                     "machine with ray start) or ray://HOST:10001 [default: a new local Ray]."),
    option: list[str] = typer.Option(None, "--option", "-o",
                                     help="Rule override key=value, e.g. target=200 (repeatable)."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as a JSON object."),
    timing: bool = typer.Option(True, "--timing/--no-timing",
                                help="Report the measured seconds per move and search speed; these clock "
                                     "figures differ from run to run, the rest of the report is the same for "
                                     "the same seed on any backend."),
    plot: Path = typer.Option(None, "--plot", help="Write a PNG of the ratings to this file."),
) -> None:
    """Play a duplicate round robin between bots and report win rates, ratings and muggins figures."""
    try:
        check_backend(backend, address)
    except BackendError as e:
        fail(str(e))
    try:
        spec = get_game(game) if game else default_game()
        game = spec.name
        names = tuple(b.strip() for b in bots.split(",") if b.strip())
        config = Config(game=game, preset=preset or spec.default_preset,
                        players=players if players is not None else spec.default_players,
                        bots=names, games=games, seed=seed, options=parse_options(option or []))
        config.validate()
    except RulesError as e:
        fail(str(e))
    if jobs is not None and jobs < 0:
        fail("--jobs must be 0 (one per core) or more")
    if jobs is not None and address is not None:
        fail("--jobs sets the CPUs of a local Ray; a cluster given by --address brings its own")
    if backend == "ray":
        workers = jobs or 0  # 0: every core of the local Ray (ignored with --address)
    else:
        workers = 1 if jobs is None else jobs or (os.cpu_count() or 1)
    total = len(config.pairs()) * config.games
    console = Console(stderr=True)
    with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=console, transient=True) as progress:
        bar = progress.add_task(f"{game} {config.preset}", total=total)

        def advance(_: GameResult) -> None:
            progress.advance(bar)

        try:
            report, _ = run_tournament(config, workers, advance, backend=backend, address=address)
        except BackendError as e:
            fail(str(e))
        except (BotError, MugginsError) as e:
            fail(str(e), code=1)
    if not timing:
        report = without_timing(report)
    if plot is not None:
        try:
            plot_ratings(report, plot)
        except PlotError as e:
            fail(str(e), code=1)
    if as_json:
        typer.echo(json.dumps(report, indent=1))
    else:
        print_report(report)
        if plot is not None:
            Console().print(f"ratings plot written to {plot}", markup=False, highlight=False)
