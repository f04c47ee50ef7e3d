"""Helpers shared by the commands: option parsing and clean errors."""

from __future__ import annotations

from typing import Any, NoReturn

import typer
from rich.console import Console

err = Console(stderr=True)


def fail(message: str, code: int = 2) -> NoReturn:
    err.print(f"[bold red]error:[/] {message}", highlight=False)
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
