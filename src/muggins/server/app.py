"""The FastAPI app: a small JSON API for the lobby, a WebSocket per player or spectator, and the page.

Only a seat token authorizes actions. Every incoming WebSocket message is bounded in size and rate;
anything malformed or illegal is answered with an error message and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from muggins.core.errors import MugginsError
from muggins.core.rules import get_game
from muggins.server.store import Store, default_url
from muggins.server.tables import (
    BOT_LEVELS,
    DEFAULT_BOT_DELAY,
    DEFAULT_GRACE,
    Connection,
    RateLimiter,
    TableError,
    TableManager,
)

log = logging.getLogger("muggins.server")
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
MAX_MESSAGE_BYTES = 4096
MAX_BODY_BYTES = 16384
MAX_CONNECTIONS_PER_TABLE = 64
RATE = 20.0
BURST = 40.0


def games_catalogue() -> list[dict[str, Any]]:
    out = []
    for name in ("dominoes", "card-muggins", "cribbage"):
        spec = get_game(name)
        out.append({"name": spec.name, "title": spec.title, "presets": list(spec.presets),
                    "default_preset": spec.default_preset, "min_players": spec.min_players,
                    "max_players": spec.max_players, "default_players": spec.default_players,
                    "descriptions": dict(spec.descriptions)})
    return out


def create_app(db_url: str | None = None, rate: float = RATE, burst: float = BURST,
               time_scale: float = 1.0) -> FastAPI:
    """The app, bound to one database (SQLite in the user's data directory when ``db_url`` is None)."""
    store = Store(db_url or default_url())
    manager = TableManager(store, time_scale)
    manager.load()

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        manager.start()
        yield
        manager.shutdown()
        store.close()

    app = FastAPI(title="muggins", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.manager = manager
    app.state.store = store

    async def body(request: Request) -> Any:
        raw = await request.body()
        if len(raw) > MAX_BODY_BYTES:
            raise TableError(f"request body over {MAX_BODY_BYTES} bytes", 413)
        if not raw:
            return {}
        try:
            return json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise TableError("the request body is not valid JSON", 400) from None

    @app.exception_handler(TableError)
    async def table_error(_request: Request, exc: TableError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=exc.status)

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        return {"games": games_catalogue(), "bots": list(BOT_LEVELS),
                "defaults": {"grace": DEFAULT_GRACE, "bot_delay": DEFAULT_BOT_DELAY}}

    @app.get("/api/tables")
    async def list_tables() -> dict[str, Any]:
        return {"tables": manager.listing()}

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> dict[str, Any]:
        data = await body(request)
        if not isinstance(data, dict):
            raise TableError("the request body must be a JSON object", 422)
        t = manager.create(data.get("game", "dominoes"), data.get("preset"), data.get("options"),
                           data.get("seats"), data.get("grace", DEFAULT_GRACE),
                           data.get("bot_delay", DEFAULT_BOT_DELAY))
        return t.summary()

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> dict[str, Any]:
        return manager.get(table_id).summary()

    @app.post("/api/tables/{table_id}/seats/{seat}")
    async def take_seat(table_id: str, seat: int, request: Request) -> dict[str, Any]:
        data = await body(request)
        name = data.get("name") if isinstance(data, dict) else None
        if not isinstance(name, str):
            raise TableError("give a 'name' to take a seat", 422)
        t = manager.get(table_id)
        token = t.take_seat(seat, name)
        return {"table": table_id, "seat": seat, "token": token}

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> Response:
        rec = manager.get(table_id).record()
        return Response(json.dumps(rec, indent=1), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="muggins-{table_id}.json"'})

    @app.websocket("/ws/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        token = ws.query_params.get("token")
        try:
            table = manager.get(table_id)
            seat = table.seat_of_token(token) if token else None
        except TableError as e:
            await ws.send_json({"type": "error", "message": str(e), "fatal": True})
            await ws.close(code=4404 if e.status == 404 else 4403)
            return
        if len(table.conns) >= MAX_CONNECTIONS_PER_TABLE:
            await ws.send_json({"type": "error", "message": "this table has too many connections", "fatal": True})
            await ws.close(code=1013)
            return
        conn = Connection(seat)
        limiter = RateLimiter(rate, burst)

        async def writer() -> None:
            while True:
                msg = await conn.queue.get()
                if msg is None or conn.closed:
                    with contextlib.suppress(Exception):
                        await ws.close(code=1013)
                    return
                await ws.send_text(json.dumps(msg, separators=(",", ":")))

        wtask = asyncio.create_task(writer())
        table.attach(conn)
        try:
            while not conn.closed:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                raw = frame.get("text")
                if raw is None:
                    conn.push({"type": "error", "message": "send JSON text frames, not binary ones"})
                    continue
                reply = handle_message(table, conn, raw, limiter)
                if reply is not None:
                    conn.push(reply)
        except WebSocketDisconnect:
            pass
        except RuntimeError:
            pass  # the socket closed under us (a slow client cut off)
        finally:
            table.detach(conn)
            conn.close()
            with contextlib.suppress(Exception):
                await wtask

    @app.get("/")
    async def index() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    @app.get("/t/{table_id}")
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    return app


def handle_message(table: Any, conn: Connection, raw: str, limiter: RateLimiter) -> dict[str, Any] | None:
    """One client message: the reply to send (an ack, an error, a pong) or None."""
    if len(raw) > MAX_MESSAGE_BYTES:
        return {"type": "error", "message": f"message over {MAX_MESSAGE_BYTES} bytes ignored"}
    try:
        msg = json.loads(raw)
    except json.JSONDecodeError:
        msg = None
    # every message is answered once, with its ref, so a client can tell which request failed
    ref = msg.get("ref") if isinstance(msg, dict) else None
    if not isinstance(ref, (int, str)) or isinstance(ref, bool) or len(str(ref)) > 40:
        ref = None
    if not limiter.allow():
        return {"type": "error", "ref": ref, "message": "too many messages; slow down"}
    if not isinstance(msg, dict):
        return {"type": "error", "message": "messages must be JSON objects"}
    kind = msg.get("type")
    if kind == "ping":
        return {"type": "pong", "ref": ref}
    if kind == "act":
        if conn.seat is None:
            return {"type": "error", "ref": ref, "message": "spectators cannot act; take a seat to play"}
        try:
            idx = table.act(conn.seat, msg.get("move"), msg.get("claim"))
        except TableError as e:
            return {"type": "error", "ref": ref, "message": str(e)}
        except MugginsError as e:
            return {"type": "error", "ref": ref, "message": str(e) or type(e).__name__}
        except Exception as e:  # a fault of the server must not cost the player his connection
            log.exception("action %r at table %s failed", msg.get("move"), table.id)
            return {"type": "error", "ref": ref,
                    "message": f"the server could not apply that move ({type(e).__name__})"}
        return {"type": "ack", "ref": ref, "index": idx}
    return {"type": "error", "ref": ref, "message": f"unknown message type {kind!r}; send 'act' or 'ping'"}
