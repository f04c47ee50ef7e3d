"""The ``muggins`` command line."""

from __future__ import annotations

import typer

app = typer.Typer(no_args_is_help=True, add_completion=False,
                  help="The Muggins family of games: Fives dominoes, card Muggins and Cribbage, "
                       "with the muggins rule.")


def main() -> None:  # pragma: no cover - entry point
    app()
