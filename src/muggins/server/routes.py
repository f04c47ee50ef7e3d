"""The table's endpoints beyond playing: the hand's-end "next" message, leaving and resigning, moving a
seat to another device, the rematch, the replay, and the rules, the tutorial and the drills of the page."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request

from muggins.server.tables import Connection, TableError, TableManager


def next_hand(table: Any, conn: Connection, ref: Any) -> dict[str, Any]:
    """The ``next`` message: this seat is ready for the next hand."""
    if conn.seat is None:
        return {"type": "error", "ref": ref, "message": "spectators do not deal: the seated players press Next hand"}
    try:
        table.press_next(conn.seat)
    except TableError as e:
        return {"type": "error", "ref": ref, "message": str(e)}
    return {"type": "ack", "ref": ref}


def add_routes(app: FastAPI, manager: TableManager, body: Callable[..., Awaitable[Any]],
               bearer: Callable[[Request], str | None], same_site: Callable[[Request], None]) -> None:
    """Register the endpoints of this module on ``app``."""
