"""``muggins play``: a game at the terminal against bots (and other people at the same keyboard).

With no arguments: a 2-player Muggins dominoes game against a casual bot. ``--menu`` asks for the game,
preset, seats and hints instead. The table is redrawn with rich; moves are typed at a prompt line."""

from __future__ import annotations

import os
from pathlib import Path

import typer
from rich.console import Console

from muggins.cli.common import fail, parse_options
from muggins.core.errors import MugginsError, RecordError, RulesError
from muggins.core.rules import get_game
from muggins.tui.app import Options, Session, make_seats, new_seed, resume
from muggins.tui.menu import run_menu


def make_console(no_color: bool) -> Console:
    """A console that honours --no-color and NO_COLOR."""
    return Console(no_color=no_color or bool(os.environ.get("NO_COLOR")), highlight=False)


def play_command(
    game: str = typer.Option("dominoes", "--game", "-g", help="dominoes, card-muggins or cribbage."),
    preset: str = typer.Option(None, "--preset", "-p", help="Preset (see 'muggins rules')."),
    players: int = typer.Option(2, "--players", "-n", help="Number of players (you are seat 0)."),
    seed: int = typer.Option(None, "--seed", help="Seed for the deal (random if omitted)."),
    option: list[str] = typer.Option(None, "--option", "-o", help="Rule override key=value (repeatable)."),
    bot: str = typer.Option("casual", "--bot", "-b", help="Level of the bots: beginner, casual, club, expert."),
    seats: str = typer.Option(None, "--seats",
                              help="Every seat in order, comma separated: you, human (another person at "
                                   "this keyboard) or a bot level; e.g. 'you,expert,human'."),
    hints: bool = typer.Option(False, "--hints", help="Show the count of the open ends."),
    undo: bool = typer.Option(False, "--undo", help="Allow 'undo' (back to your previous move; bots only)."),
    save_to: Path = typer.Option(None, "--save", help="Write the game record here ('save', quit, or the end)."),
    resume_from: Path = typer.Option(None, "--resume", help="Continue a game saved with --save."),
    hands: int = typer.Option(0, "--hands", help="Stop after this many hands (0: play the game out)."),
    ascii_only: bool = typer.Option(False, "--ascii", help="Plain ASCII tiles and cards."),
    no_color: bool = typer.Option(False, "--no-color", help="No colour (NO_COLOR=1 does the same)."),
    menu: bool = typer.Option(False, "--menu", help="Choose the game, preset, seats and hints from a menu."),
) -> None:
    """Play at the terminal against bots. Type 'help' at the prompt."""
    console = make_console(no_color)
    ascii_only = ascii_only or not (console.encoding or "").lower().startswith("utf")
    base_seed = seed if seed is not None else new_seed()
    try:
        if resume_from is not None:
            st, seat_list = resume(resume_from, base_seed)
        else:
            opts = parse_options(option)
            if menu:
                try:
                    choice = run_menu(console)
                except (EOFError, KeyboardInterrupt):
                    raise typer.Exit(0) from None
                game, preset, players, words, hints = (choice.game, choice.preset, choice.players,
                                                       choice.seats, choice.hints)
            else:
                words = [w for w in seats.split(",") if w.strip()] if seats else \
                    ["you"] + [bot] * (players - 1)
            spec = get_game(game)
            rules = spec.rules(preset, opts)
            st = spec.new(rules, len(words), seed=base_seed)
            seat_list = make_seats(words, base_seed)
    except (RulesError, RecordError) as e:
        fail(str(e))
    except MugginsError as e:
        fail(str(e))
    session = Session(st, seat_list, console,
                      Options(hints=hints, ascii_only=ascii_only, undo=undo, save_to=save_to, hands=hands))
    session.run()
