"""The table's endpoints beyond playing: the hand's-end "next" message, leaving and resigning, moving a
seat to another device, the rematch, the replay, and the rules, the tutorial and the drills of the page."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse

from muggins.server import seating
from muggins.server.learn import Drills, LearnError, all_rules, drill_stats, tutorial
from muggins.server.replay import replay_steps
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
               bearer: Callable[[Request], str | None], same_site: Callable[[Request], None],
               page: Path) -> None:
    """Register the endpoints of this module on ``app``; ``page`` is the page's HTML file."""

    for path in ("/rules", "/tutorial", "/drills", "/t/{table_id}/replay"):
        app.add_api_route(path, lambda: FileResponse(page), methods=["GET"], include_in_schema=False)

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
        await t.writes_settled()
        outcome = seating.leave(t, seat)
        return {"table": t.summary(), "seat": seat, "outcome": outcome}

    @app.post("/api/tables/{table_id}/resign")
    async def resign(table_id: str, request: Request) -> dict[str, Any]:
        await body(request)
        t, seat = seat_of(table_id, request)
        await t.writes_settled()
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

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str, request: Request) -> dict[str, Any]:
        """The game step by step: an ended game as a spectator saw it; a game in play for one of its
        seats (its token given), through that seat's own views."""
        t = manager.get(table_id)
        token = bearer(request)
        seat = t.seat_of_token(token) if token else None
        if t.status in ("open", "playing") and seat is None:
            raise TableError("the game is in play: its replay is given when it has ended, or to a seated "
                             "player (with the seat token) for the game so far", 409)
        ended = t.status not in ("open", "playing")
        return replay_steps(t, None if ended else seat)

    drills = Drills()

    @app.exception_handler(LearnError)
    async def learn_error(_request: Request, exc: LearnError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=exc.status)

    @app.get("/api/rules")
    async def rules() -> dict[str, Any]:
        """Every game's presets in words and options, with worked examples from real positions."""
        return {"games": await asyncio.to_thread(all_rules)}

    @app.get("/api/tutorial")
    async def guided() -> dict[str, Any]:
        return await asyncio.to_thread(tutorial)

    @app.get("/api/drills")
    async def drill_list() -> dict[str, Any]:
        return {"drills": drills.listing(), "stats": drill_stats()}

    @app.post("/api/drills/{key}/sessions")
    async def drill_start(key: str, request: Request) -> dict[str, Any]:
        """A drill session: ``rounds`` questions; the record gains its line when it ends."""
        data = await body(request)
        rounds = data.get("rounds", 5) if isinstance(data, dict) else None
        return await asyncio.to_thread(drills.start, key, rounds)

    @app.post("/api/drills/sessions/{sid}/answer")
    async def drill_answer(sid: str, request: Request) -> dict[str, Any]:
        data = await body(request)
        given = data.get("given") if isinstance(data, dict) else None
        return await asyncio.to_thread(drills.answer, sid, given)

    @app.post("/api/drills/sessions/{sid}/stop")
    async def drill_stop(sid: str, request: Request) -> dict[str, Any]:
        await body(request)
        return drills.stop(sid)
