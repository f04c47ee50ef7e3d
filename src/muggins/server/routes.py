"""The table's endpoints beyond playing: the hand's-end "next" message, leaving and resigning, moving a
seat to another device, the rematch, the replay, and the rules, the tutorial and the drills of the page."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request

from muggins.server import seating
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

    def seat_of(table_id: str, request: Request) -> tuple[Any, int]:
        token = bearer(request)
        if not token:
            raise TableError("give your seat token as Authorization: Bearer TOKEN", 401)
        t = manager.get(table_id)
        return t, t.seat_of_token(token)

    @app.post("/api/tables/{table_id}/leave")
    async def leave_seat(table_id: str, request: Request) -> dict[str, Any]:
        """Leave the seat: open again before the first move, resigned after it."""
        await body(request)
        t, seat = seat_of(table_id, request)
        outcome = seating.leave(t, seat)
        return {"table": t.summary(), "seat": seat, "outcome": outcome}

    @app.post("/api/tables/{table_id}/resign")
    async def resign(table_id: str, request: Request) -> dict[str, Any]:
        await body(request)
        t, seat = seat_of(table_id, request)
        seating.resign(t, seat)
        return {"table": t.summary(), "seat": seat}

    @app.post("/api/tables/{table_id}/handoff")
    async def handoff(table_id: str, request: Request) -> dict[str, Any]:
        """A one-time link that moves the seat to another device; the code is in the fragment."""
        await body(request)
        t, seat = seat_of(table_id, request)
        code = seating.handoff(t, seat)
        return {"seat": seat, "code": code, "link": f"/t/{t.id}#seat={code}",
                "expires_in": seating.HANDOFF_SECONDS}

    @app.delete("/api/tables/{table_id}/handoff")
    async def revoke_handoff(table_id: str, request: Request) -> dict[str, Any]:
        same_site(request)
        t, seat = seat_of(table_id, request)
        return {"seat": seat, "revoked": seating.revoke_handoff(t, seat)}

    @app.post("/api/tables/{table_id}/redeem")
    async def redeem(table_id: str, request: Request) -> dict[str, Any]:
        """A handoff code exchanged for the seat's new token (the old one stops working)."""
        data = await body(request)
        code = data.get("code") if isinstance(data, dict) else None
        if not isinstance(code, str) or not 8 <= len(code) <= 64:
            raise TableError("give the 'code' from the link (the part after #seat=)", 422)
        t = manager.get(table_id)
        seat, token = seating.redeem(t, code)
        return {"table": t.id, "seat": seat, "token": token}

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, request: Request) -> dict[str, Any]:
        """The rematch of an ended game, made by the first player who asks, joined by the others."""
        await body(request)
        token = bearer(request)
        if not token:
            raise TableError("give your seat token of this table as Authorization: Bearer TOKEN", 401)
        new, seat, new_token = seating.rematch(manager.get(table_id), token)
        return {"table": new.summary(), "seat": seat, "token": new_token, "link": f"/t/{new.id}"}
