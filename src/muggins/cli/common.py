"""Helpers shared by the commands: option parsing, clean errors, and the help layout."""

from __future__ import annotations

from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperCommand, TyperGroup, TyperOption

err = Console(stderr=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` on standard error (as written: no markup, no wrapping) and exit."""
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def parse_options(items: list[str] | None) -> dict[str, Any]:
    """``key=value`` pairs from repeated ``--option`` flags."""
    out: dict[str, Any] = {}
    for item in items or []:
        if "=" not in item:
            fail(f"--option takes key=value, got {item!r}")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def _bare_flags(params: list[Any]) -> list[Any]:
    """Typer's help writes a value type after every option, ``<bool>`` even after a flag such as --json
    that takes no value; an empty metavar leaves a flag's row with its name and help only."""
    for p in params:
        if isinstance(p, TyperOption) and p.is_flag and p.metavar is None:
            p.metavar = ""
    return params


class Command(TyperCommand):
    """A command whose help lists flags without a value type (``cls=Command``)."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _bare_flags(super().get_params(ctx))


class Group(TyperGroup):
    """A command group whose help lists flags without a value type (``cls=Group``)."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _bare_flags(super().get_params(ctx))
