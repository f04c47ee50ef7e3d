"""``muggins bot connect``: the reference client of the bot API (see docs/bot-api.md)."""

from __future__ import annotations

import typer

from muggins.cli.common import Command, Group

bot_app = typer.Typer(cls=Group, no_args_is_help=True, add_completion=False,
                      help="Play a bot account's games on a server through the bot API.")


@bot_app.command("connect", cls=Command)
def connect_command(
    url: str = typer.Argument(..., help="The server, like http://127.0.0.1:8000."),
    token: str = typer.Option(..., "--token", envvar="MUGGINS_BOT_TOKEN",
                              help="The bot account's token (or the environment variable MUGGINS_BOT_TOKEN)."),
    bot: str = typer.Option("expert", "--bot", help="Which of this package's bots plays: a level (beginner, "
                                                    "casual, club, expert) or a skill with options."),
    accept: str = typer.Option("all", "--accept", help="Which challenges to accept: all, rated, casual or none "
                                                       "(the others are declined)."),
    games: str = typer.Option("", "--games", help="Accept challenges only for these games (comma-separated; "
                                                  "empty: every game)."),
    max_games: int = typer.Option(0, "--max-games", min=0, help="Stop after this many games have ended "
                                                                "(0: run until Ctrl-C)."),
    seed: int = typer.Option(None, "--seed", help="Seed the bot's choices (default: a fresh one)."),
) -> None:
    """Follow the bot's events, accept challenges, and play every game with one of this package's bots;
    Ctrl-C stops it, a dropped stream is opened again."""
    from muggins.botclient import ACCEPT, Policy, connect
    from muggins.core.errors import RulesError
    from muggins.core.rules import all_games

    if accept not in ACCEPT:
        raise typer.BadParameter(f"one of {', '.join(ACCEPT)}", param_hint="--accept")
    wanted = frozenset(g.strip() for g in games.split(",") if g.strip())
    unknown = wanted - set(all_games())
    if unknown:
        raise typer.BadParameter(f"unknown game(s) {', '.join(sorted(unknown))}; games: "
                                 f"{', '.join(all_games())}", param_hint="--games")
    try:
        code = connect(url, token, bot, Policy(accept, wanted), max_games or None, seed)
    except RulesError as e:
        raise typer.BadParameter(str(e), param_hint="--bot") from None
    raise typer.Exit(code)
