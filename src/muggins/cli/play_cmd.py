"""``muggins play``: a game at the terminal against bots (and other people at the same keyboard).

With no arguments: a 2-player game of the default game's default preset against a casual bot. ``--menu``
asks for the game, preset, seats and hints instead. The table is redrawn with rich; moves are typed at a prompt line."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import typer
from rich.console import Console

from muggins.cli.common import fail, parse_options
from muggins.core.errors import MugginsError
from muggins.core.protocol import GameState
from muggins.core.rules import all_games, default_game, get_game
from muggins.tui.app import Options, Seat, Session, make_seats, new_seed, resume
from muggins.tui.menu import run_menu


def make_console(no_color: bool) -> Console:
    """A console that honours --no-color and NO_COLOR."""
    return Console(no_color=no_color or bool(os.environ.get("NO_COLOR")), highlight=False)


def at_terminal(console: Console) -> bool:
    """Both ends are a person's terminal: only then is a question beyond the game worth asking."""
    return sys.stdin.isatty() and console.is_terminal


def _counts(allowed: list[int]) -> str:
    """``[2, 3, 4]`` -> ``"2-4"``; ``[2, 4]`` -> ``"2 or 4"``."""
    if len(allowed) > 2 and allowed == list(range(allowed[0], allowed[-1] + 1)):
        return f"{allowed[0]}-{allowed[-1]}"
    return " or ".join(map(str, allowed))


def _resumed(path: Path, seed: int, game: str | None, preset: str | None,
             fixed: dict[str, object]) -> tuple[GameState, list[Seat]]:
    """The saved game, refusing a --game or --preset that is not the record's, and the options that only
    start a new game (the record holds its seats and rules)."""
    given = [flag for flag, value in fixed.items() if value]
    if given:
        fail(f"{', '.join(given)} cannot be used with --resume: the record holds the seats and the rules "
             "(--hints, --ascii, --no-color, --undo, --save and --hands apply)")
    st, seats = resume(path, seed)
    if game is not None and get_game(game).name != st.game:
        fail(f"{path} is a game of {st.game}, not {game}; leave out --game to resume it")
    if preset is not None and preset != st.rules.preset:
        fail(f"{path} is played with the {st.rules.preset} preset, not {preset}; leave out --preset to resume it")
    return st, seats


def play_command(
    game: str = typer.Option(None, "--game", "-g",
                             help=f"{' or '.join(all_games())} [default: {default_game().name}]."),
    preset: str = typer.Option(None, "--preset", "-p", help="Preset (see 'muggins rules')."),
    players: int = typer.Option(None, "--players", "-n",
                                help="Number of players, you at seat 0 [default: 2, or what the preset needs]."),
    seed: int = typer.Option(None, "--seed", help="Seed for the deal (random if omitted)."),
    option: list[str] = typer.Option(None, "--option", "-o", help="Rule override key=value (repeatable)."),
    bot: str = typer.Option(None, "--bot", "-b",
                            help="Level of the bots: beginner, casual, club, expert [default: casual]."),
    seats: str = typer.Option(None, "--seats",
                              help="Every seat in order, comma separated: you, human (another person at "
                                   "this keyboard) or a bot level; e.g. 'you,expert,human'."),
    names: str = typer.Option(None, "--names",
                              help="The names of the people at this keyboard, in seat order, comma separated; "
                                   "e.g. 'Ann,Bob' with --seats you,human,casual [default: You, or Player N]."),
    hints: bool = typer.Option(False, "--hints", help="Show the count of the open ends, and the move the bot "
                                                      "would make with its expected points."),
    undo: bool = typer.Option(False, "--undo", help="Allow 'undo' (back to your previous move; bots only)."),
    save_to: Path = typer.Option(None, "--save", help="Write the game record here ('save', quit, or the end)."),
    resume_from: Path = typer.Option(None, "--resume",
                                     help="Continue a game saved with --save (with the display flags given now); "
                                          "it goes on being saved to the same file unless --save names another."),
    hands: int = typer.Option(0, "--hands",
                              help="Stop after this many hands (a resumed game: from the one it is in; 0: play on)."),
    ascii_only: bool = typer.Option(False, "--ascii", help="Plain ASCII tiles and cards."),
    no_color: bool = typer.Option(False, "--no-color", help="No colour (NO_COLOR=1 does the same)."),
    menu: bool = typer.Option(False, "--menu", help="Choose the game, preset, seats and hints from a menu."),
) -> None:
    """Play at the terminal against bots. Type 'help' at the prompt."""
    console = make_console(no_color)
    ascii_only = ascii_only or not (console.encoding or "").lower().startswith("utf")
    base_seed = seed if seed is not None else new_seed()
    if hands < 0:
        fail(f"--hands is a number of hands, 0 or more; got {hands}")
    try:
        if resume_from is not None:
            st, seat_list = _resumed(resume_from, base_seed, game, preset,
                                     {"--players": players is not None, "--seats": seats, "--bot": bot,
                                      "--option": option, "--menu": menu, "--names": names})
            save_to = save_to or resume_from
        else:
            opts = parse_options(option)
            if menu:
                try:
                    choice = run_menu(console)
                except (EOFError, KeyboardInterrupt):
                    raise typer.Exit(0) from None
                game, preset, players, words, hints = (choice.game, choice.preset, choice.players,
                                                       choice.seats, choice.hints)
                names = ",".join(choice.names) if choice.names else names
            spec = get_game(game) if game else default_game()
            rules = spec.rules(preset, opts)
            allowed = spec.players_for(rules)
            if not menu:
                if seats:
                    words = [w for w in seats.split(",") if w.strip()]
                    if players is not None and players != len(words):
                        fail(f"--players {players} but --seats names {len(words)} seats; give one of them")
                else:
                    if players is None:
                        players = spec.default_players if spec.default_players in allowed else allowed[0]
                    if players not in allowed:
                        fail(f"--players: {spec.name} / {rules.preset} is for {_counts(allowed)} players; "
                             f"got {players}")
                    words = ["you"] + [bot or "casual"] * (players - 1)
            if len(words) not in allowed:
                fail(f"--seats: {spec.name} / {rules.preset} is for {_counts(allowed)} players; "
                     f"got {len(words)} seats")
            st = spec.new(rules, len(words), seed=base_seed)
            seat_list = make_seats(words, base_seed, names.split(",") if names is not None else None)
    except MugginsError as e:
        fail(str(e))
    session = Session(st, seat_list, console,
                      Options(hints=hints, ascii_only=ascii_only, undo=undo, save_to=save_to, hands=hands,
                              offer_analysis=at_terminal(console)))
    if resume_from is not None:
        session.say(f"Resumed from {resume_from}; the game is saved to {save_to} when it stops.")
    session.run()
