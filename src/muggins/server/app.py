"""The FastAPI app: a small JSON API for the lobby, a WebSocket per player or spectator, and the page.

Only a seat token authorizes actions. A browser's request that changes anything (every POST and
DELETE, and every WebSocket) must come from the server's own page or an allowed origin; a POST body is
JSON, read up to a cap and parsed to a bounded depth; creating tables and taking seats are limited per
client address. Every incoming WebSocket message is bounded in size, depth and rate; anything malformed
or illegal is answered with an error message and changes nothing.

Messages a client sends: ``{"type": "ping", "ref"}`` (answered ``pong``) and ``{"type": "act", "move",
"claim", "at", "ref"}``, where ``at`` is the position the move was chosen in: the table's ``actions`` in
the state it was chosen from. A move whose position has passed is refused, so a move sent twice is applied
once; an applied move is answered ``{"type": "ack", "ref", "index"}`` with ``index`` equal to its ``at``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from muggins.core.errors import MugginsError
from muggins.core.rules import GameSpec, all_games, default_game, options_of
from muggins.server.accounts import Accounts, add_account_routes
from muggins.server.daily import Daily, add_daily_routes
from muggins.server.guard import (
    ORIGINS_ENV,
    AllOf,
    BadRequest,
    ClientLimits,
    OriginPolicy,
    RateLimiter,
    SharedLimiters,
    SocketGate,
    host_port,
    own_addresses,
    parse_json,
    settle,
)
from muggins.server.handend import HAND_PAUSE
from muggins.server.insight import ANALYSIS_SAMPLES, Insight
from muggins.server.matchmaking import add_play_routes
from muggins.server.metrics import Metrics
from muggins.server.profiles import add_profile_routes, rated_meta
from muggins.server.routes import add_routes, next_hand
from muggins.server.store import Store, default_url
from muggins.server.tables import (
    BOT_LEVELS,
    DEFAULT_BOT_DELAY,
    DEFAULT_GRACE,
    DEFAULT_IDLE,
    LIST_LIMIT,
    Connection,
    GameTable,
    TableError,
    TableManager,
    hash_token,
    page_renderer,
)

log = logging.getLogger("muggins.server")
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
MAX_MESSAGE_BYTES = 4096
MAX_BODY_BYTES = 16384
MAX_SPECTATORS_PER_TABLE = 64   # sockets without a seat token at one table
MAX_SOCKETS_PER_SEAT = 16       # a seat's own sockets; a new one past this closes that seat's oldest
SOCKETS_PER_CLIENT = 32         # sockets open at once from one client address
CONNECTS_PER_MINUTE = 60.0      # new sockets from one client address: 30 at once, then one a second
CONNECTS_BURST = 30.0
HELLO_SECONDS = 10.0            # a socket says who it is (its hello) within this time, or is closed
RATE = 20.0
BURST = 40.0
SLOW_DOWN = "too many messages; slow down"
ADDRESS_SHARE = 2               # all the sockets of one address: twice one socket's message rate
MAX_REFUSED = 100               # messages refused in a row by the rate limit before the socket is closed
TABLES_PER_MINUTE = 10.0   # new tables from one address: 10 at once, then one every 6 s
TABLES_BURST = 10.0
SEATS_PER_MINUTE = 30.0
SEATS_BURST = 20.0
# the options a lobby shows beside a preset's description (the schema has every option)
MAIN_OPTIONS = ("target", "claims", "claim_timing", "muggins", "over_claim", "false_call_penalty", "tile_set")


def describe_game(spec: GameSpec) -> dict[str, Any]:
    """Each preset's description, whether it has the muggins rule, its player counts and main options
    (``preset_details``); and every option's type, choices and bounds (``options``)."""
    describe = getattr(spec, "describe", None)
    if describe is not None:
        d = describe()
        presets: dict[str, dict[str, Any]] = {p: dict(info) for p, info in d["presets"].items()}
        schema: dict[str, Any] = d["options"]
    else:  # a game that publishes no schema: its values alone
        presets = {p: {"description": spec.descriptions.get(p, ""), "options": options_of(r),
                       "muggins_rule": getattr(r, "claims", "auto") == "manual"} for p, r in spec.presets.items()}
        schema = {}
    for info in presets.values():
        info["main_options"] = {k: info["options"][k] for k in MAIN_OPTIONS if k in info["options"]}
    return {"preset_details": presets, "options": schema}


def games_catalogue() -> list[dict[str, Any]]:
    out = []
    for spec in all_games().values():
        out.append({"name": spec.name, "title": spec.title, "presets": list(spec.presets),
                    "default_preset": spec.default_preset, "min_players": spec.min_players,
                    "max_players": spec.max_players, "default_players": spec.default_players,
                    "descriptions": dict(spec.descriptions), "renderer": page_renderer(spec),
                    "piece_noun": list(spec.piece_noun), "ranked": list(spec.ranked), **describe_game(spec)})
    return out


def _is_json(content_type: str) -> bool:
    return content_type.split(";")[0].strip().lower() == "application/json"


def create_app(db_url: str | None = None, rate: float = RATE, burst: float = BURST, time_scale: float = 1.0,
               allowed_origins: Iterable[str] | None = None, idle_timeout: float = DEFAULT_IDLE,
               tables_per_minute: float = TABLES_PER_MINUTE, tables_burst: float = TABLES_BURST,
               seats_per_minute: float = SEATS_PER_MINUTE, seats_burst: float = SEATS_BURST,
               analysis_samples: int = ANALYSIS_SAMPLES, sockets_per_client: int = SOCKETS_PER_CLIENT,
               connects_per_minute: float = CONNECTS_PER_MINUTE, connects_burst: float = CONNECTS_BURST,
               address: tuple[str, int] | None = None, api_docs: bool = False,
               hand_pause: float = HAND_PAUSE, redis_url: str | None = None, metrics: bool = True,
               worker_patience: float | None = None) -> FastAPI:
    """The app, bound to one database (SQLite in the user's data directory when ``db_url`` is None).

    ``allowed_origins`` (and the comma-separated environment variable MUGGINS_ALLOWED_ORIGINS) name the
    browser origins allowed besides the server's own, like ``https://games.example.org`` for a server
    behind a proxy; ValueError names one that is not an origin. The server's own origins are those of
    ``address`` (the host and port it listens on, with localhost's other names) and of the address each
    connection reached, never the request's Host header. ``api_docs`` serves the API's description
    (/openapi.json, /docs, /redoc); it is off by default. A table nobody acts at or watches for
    ``idle_timeout`` seconds is abandoned. One client address keeps at most ``sockets_per_client``
    WebSockets open and opens ``connects_per_minute`` a minute (bursts of ``connects_burst``); the
    sockets of one seat share one message rate limit (``rate`` a second, bursts of ``burst``), and all the
    sockets of one address share twice that. The end of each hand stays on screen until every seated person
    has pressed Next hand, or for ``hand_pause`` seconds (times ``time_scale``) at most. With ``redis_url``
    (scale-out mode) the per-address limits are counted in that Redis, shared by every process using it, and the
    analyses and hints are jobs for `muggins worker` processes (a request waits ``worker_patience`` seconds for
    a worker to take its job, then gets 503).
    ``metrics`` serves the server's figures at /metrics (Prometheus text format; see docs/deploy.md)."""
    policy = OriginPolicy([*(allowed_origins or ()), os.environ.get(ORIGINS_ENV, "")],
                          own_addresses(*address) if address is not None else ())
    store = Store(db_url or default_url())
    manager = TableManager(store, time_scale, idle_timeout, hand_pause=hand_pause)
    if redis_url is None:
        manager.load()  # in scale-out mode each process takes the tables without an owner (cluster.py)
    accounts = Accounts(store, manager)
    insight = Insight(analysis_samples)
    if redis_url is not None:  # scale-out mode: analyses and hints are done by the workers (jobs.py)
        from muggins.server.jobs import PATIENCE, QueuedInsight
        insight = QueuedInsight(redis_url, analysis_samples, worker_patience or PATIENCE)
    figures = Metrics(manager, insight)
    manager.metrics = figures
    catalogue = {"games": games_catalogue(), "bots": list(BOT_LEVELS),
                 "defaults": {"grace": DEFAULT_GRACE, "bot_delay": DEFAULT_BOT_DELAY}}
    new_tables: Any = ClientLimits("new tables", tables_per_minute, tables_burst)
    seat_takers: Any = ClientLimits("seats taken", seats_per_minute, seats_burst)
    sockets: Any = SocketGate(sockets_per_client, connects_per_minute, connects_burst)
    shared = None
    if redis_url is not None:  # scale-out mode: the limits hold across the processes
        from muggins.server.redis_limits import SharedRedis
        shared = SharedRedis(redis_url)
        new_tables, seat_takers, sockets = shared.limits(new_tables, seat_takers, sockets)
        accounts.share(shared.redis)
    cluster: Any = None  # scale-out mode: a cluster.Cluster, made below
    seat_limits = SharedLimiters(rate, burst)
    client_limits = SharedLimiters(ADDRESS_SHARE * rate, ADDRESS_SHARE * burst)

    async def sweeper() -> None:
        while True:
            await asyncio.sleep(max(1.0, min(60.0, idle_timeout / 4)))
            try:
                manager.sweep()
            except Exception:
                log.exception("the sweep of idle tables failed")

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        manager.start()
        if cluster is not None:
            await cluster.start()
        await insight.open()
        sweep = asyncio.create_task(sweeper())
        yield
        sweep.cancel()
        if cluster is not None:
            await cluster.stop()
        insight.cancel()
        await insight.close()
        manager.shutdown()
        store.close()
        if shared is not None:
            await shared.close()

    app = FastAPI(title="muggins", lifespan=lifespan, openapi_url="/openapi.json" if api_docs else None,
                  docs_url="/docs" if api_docs else None, redoc_url="/redoc" if api_docs else None)
    app.state.manager = manager
    app.state.insight = insight
    app.state.store = store
    app.state.accounts = accounts
    app.state.origins = policy

    def client_of(request: Request | WebSocket) -> str:
        return request.client.host if request.client is not None else "unknown"

    def served_at(conn: Request | WebSocket) -> str | None:
        """The ``host:port`` the connection reached, as the ASGI server reports it."""
        server = conn.scope.get("server")
        return host_port(str(server[0]), server[1]) if server else None

    def same_site(request: Request) -> None:
        policy.check(request.headers.get("origin"), request.url.scheme, served_at(request))

    async def body(request: Request, limits: Any = None) -> Any:
        """The JSON body of a POST, after its origin, its type and its size are checked; the request
        is counted against ``limits`` before the body is read."""
        same_site(request)
        ctype = request.headers.get("content-type")
        length = request.headers.get("content-length")
        has_body = length not in (None, "0") or "transfer-encoding" in request.headers
        if (ctype is not None or has_body) and not _is_json(ctype or ""):
            raise BadRequest("send the body as JSON, with the header Content-Type: application/json", 415)
        if length is not None:
            if not (length.isascii() and length.isdigit()):
                raise BadRequest("the Content-Length header is not a number")
            if int(length) > MAX_BODY_BYTES:  # refused before a byte of it is read
                raise BadRequest(f"request body over {MAX_BODY_BYTES} bytes", 413)
        if limits is not None:
            await settle(limits.charge(client_of(request)))
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY_BYTES:  # a body sent in chunks: reading stops at the cap
                raise BadRequest(f"request body over {MAX_BODY_BYTES} bytes", 413)
            chunks.append(chunk)
        raw = b"".join(chunks)
        return parse_json(raw) if raw else {}

    @app.exception_handler(TableError)
    async def table_error(_request: Request, exc: TableError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=exc.status)

    @app.exception_handler(BadRequest)
    async def bad_request(_request: Request, exc: BadRequest) -> JSONResponse:
        headers = {"Retry-After": str(int(exc.retry_after))} if exc.retry_after is not None else None
        return JSONResponse({"error": str(exc)}, status_code=exc.status, headers=headers)

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        return catalogue

    @app.get("/api/tables")
    async def list_tables(request: Request) -> dict[str, Any]:
        qp = request.query_params

        def number(name: str, default: int) -> Any:
            value = qp.get(name)
            if value is None:
                return default
            return int(value) if value.isascii() and value.isdigit() and len(value) <= 7 else value

        return manager.listing(qp.get("status", "active"), number("page", 1), number("limit", LIST_LIMIT),
                               qp.get("q"))

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> dict[str, Any]:
        data = await body(request, new_tables)
        if not isinstance(data, dict):
            raise TableError("the request body must be a JSON object", 422)
        token = secrets.token_urlsafe(24)
        meta = rated_meta(data, accounts.account_of(request) if data.get("rated") is True else None)
        t = manager.create(data.get("game", default_game().name), data.get("preset"), data.get("options"),
                           data.get("seats"), data.get("grace", DEFAULT_GRACE),
                           data.get("bot_delay", DEFAULT_BOT_DELAY), creator_hash=hash_token(token),
                           hints=data.get("hints", False), meta=meta)
        if cluster is not None:
            await cluster.adopt(t.id)
        # the creator's token removes the table (DELETE); it is given here once and stored hashed
        return {**t.summary(), "creator_token": token}

    def bearer(request: Request) -> str | None:
        auth = request.headers.get("authorization", "")
        return auth[7:].strip() if auth[:7].lower() == "bearer " else request.query_params.get("token")

    def watcher(table_id: str, request: Request) -> GameTable:
        """The table, for a seated player (a seat token given) or a spectator (no token, as anybody may
        watch a table); a token that is not one of this table's seats is refused."""
        t = manager.get(table_id)
        token = bearer(request)
        if token:
            t.seat_of_token(token)
        return t

    @app.get("/api/tables/{table_id}/analysis", response_model=None)
    async def analysis(table_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        """The analysis of a finished game, once it is done; with ``wait=0`` a running one is answered
        at once with 202 and how far it is (the page polls, showing the progress)."""
        t = watcher(table_id, request)
        if request.query_params.get("wait") == "0" and insight.start(t) is not None:
            return JSONResponse(insight.status(table_id), status_code=202)
        done = await insight.analysis(t)
        return {**done.data, "plot": f"/api/tables/{table_id}/analysis.png",
                "record": f"/api/tables/{table_id}/record"}

    @app.get("/api/tables/{table_id}/analysis.png")
    async def analysis_plot(table_id: str, request: Request) -> Response:
        done = await insight.analysis(watcher(table_id, request))
        return Response(done.png, media_type="image/png")

    @app.get("/api/tables/{table_id}/hint")
    async def hint(table_id: str, request: Request) -> dict[str, Any]:
        token = bearer(request)
        if not token:
            raise TableError("a hint is for a seated player: give the seat token as Authorization: Bearer TOKEN",
                             401)
        t = manager.get(table_id)
        return await insight.hint(t, t.seat_of_token(token))

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> dict[str, Any]:
        return manager.get(table_id).summary()

    @app.delete("/api/tables/{table_id}")
    async def remove_table(table_id: str, request: Request) -> dict[str, Any]:
        same_site(request)
        auth = request.headers.get("authorization", "")
        token = auth[7:].strip() if auth[:7].lower() == "bearer " else request.query_params.get("token")
        if not token:
            raise TableError("give the table's creator token or a seat token, as Authorization: Bearer TOKEN",
                             401)
        t = manager.get(table_id)
        if not t.may_remove(token):
            raise TableError("this token may not remove this table: only its creator or a seated player may", 403)
        if t.status == "finished":
            raise TableError("a finished game is kept in the archive; it cannot be removed", 409)
        t.abandon("removed by its creator or a player")
        return t.summary()

    @app.post("/api/tables/{table_id}/seats/{seat}")
    async def take_seat(table_id: str, seat: int, request: Request) -> dict[str, Any]:
        data = await body(request, seat_takers)
        account = accounts.account_of(request)
        if account is not None:  # logged in: the seat is taken under the account's name, or given back to it
            return {"table": table_id, "seat": seat, "token": accounts.take_seat(manager.get(table_id), seat, account)}
        name = data.get("name") if isinstance(data, dict) else None
        if not isinstance(name, str):
            raise TableError("give a 'name' to take a seat", 422)
        t = manager.get(table_id)
        if t.meta.get("rated"):
            raise TableError("this game is rated: log in to take a seat (guests play unrated tables)", 401)
        token = t.take_seat(seat, name)
        accounts.release(table_id, seat)
        return {"table": table_id, "seat": seat, "token": token}

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> Response:
        rec = manager.get(table_id).record()
        return Response(json.dumps(rec, indent=1), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="muggins-{table_id}.json"'})

    async def refuse(ws: WebSocket, message: str, code: int) -> None:
        await ws.send_json({"type": "error", "message": message, "fatal": True})
        await ws.close(code=code)

    @app.websocket("/ws/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        if not policy.allows(ws.headers.get("origin"), ws.url.scheme, served_at(ws)):
            await ws.close(code=1008)  # before the handshake is answered: the browser sees a 403
            return
        client = client_of(ws)
        try:
            await settle(sockets.enter(client))
        except BadRequest as e:
            if e.retry_after is not None:  # too many attempts: refused before the handshake (an HTTP 403),
                await ws.close(code=1008)  # so that a flood of reconnections costs no more than its requests
                return
            await ws.accept()  # too many open: the page is told why
            await refuse(ws, str(e), 1013)
            return
        figures.sockets.inc()
        try:
            await ws.accept()
            await serve_socket(ws, table_id, client)
        finally:
            figures.sockets.dec()
            sockets.leave(client)

    async def serve_socket(ws: WebSocket, table_id: str, client: str) -> None:
        # who is there comes in the first message, {"type": "hello", "token": TOKEN} (no token: a spectator),
        # never in the address, which servers and proxies write in their logs
        try:
            if "token" in ws.query_params:
                raise TableError("send the seat token in the first message, {\"type\": \"hello\", \"token\": ...}, "
                                 "never in the address")
            try:
                hello = parse_json(await asyncio.wait_for(ws.receive_text(), HELLO_SECONDS), "the hello")
            except (TimeoutError, BadRequest, KeyError):
                hello = None
            token = hello.get("token") if isinstance(hello, dict) else None
            if not isinstance(hello, dict) or hello.get("type") != "hello" or not isinstance(token, (str, type(None))):
                raise TableError("the first message must be {\"type\": \"hello\", \"token\": TOKEN} "
                                 "(token null to watch)")
            if cluster is not None and not cluster.owns(table_id) and await cluster.relay(ws, table_id, token):
                return  # the table is played on another process: this socket was relayed to it
            table = manager.get(table_id)
            seat = table.seat_of_token(token) if token else None
        except WebSocketDisconnect:
            return
        except TableError as e:
            await refuse(ws, str(e), 4404 if e.status == 404 else 4403)
            return
        if seat is None and table.spectators() >= MAX_SPECTATORS_PER_TABLE:
            await refuse(ws, "this table has too many spectators; try again later", 1013)
            return
        if seat is not None:
            table.make_room_for_seat(seat, MAX_SOCKETS_PER_SEAT)
        conn = Connection(seat)
        key = (table.id, seat)
        own = seat_limits.take(key) if seat is not None else RateLimiter(rate, burst)
        limiter = AllOf(own, client_limits.take(client))  # what its own limit refuses costs the address nothing

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
        refused = 0  # messages refused in a row by the rate limit
        try:
            while not conn.closed:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                raw = frame.get("text")
                reply: dict[str, Any] | None
                if raw is None:  # a binary frame: counted like any other message
                    reply = {"type": "error", "message": SLOW_DOWN if not limiter.allow()
                             else "send JSON text frames, not binary ones"}
                else:
                    arrived = time.perf_counter()
                    reply = await handle_message(table, conn, raw, limiter)
                    if reply is not None and reply["type"] == "ack":  # applied and broadcast
                        figures.latency.observe(time.perf_counter() - arrived)
                if reply is not None:
                    conn.push(reply)
                refused = refused + 1 if reply is not None and reply.get("message") == SLOW_DOWN else 0
                if refused > MAX_REFUSED:  # a client that ignores the limit costs the others: it is cut off
                    conn.push({"type": "error", "fatal": True,
                               "message": f"over {MAX_REFUSED} messages in a row past the rate limit; "
                                          f"this connection is closed"})
                    with contextlib.suppress(asyncio.QueueFull):
                        conn.queue.put_nowait(None)  # the writer sends what is queued, then closes
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(wtask, 5)
                    break
        except WebSocketDisconnect:
            pass
        except RuntimeError:
            pass  # the socket closed under us (a slow client cut off)
        finally:
            table.detach(conn)
            conn.close()
            if seat is not None:
                seat_limits.give_back(key)
            client_limits.give_back(client)
            with contextlib.suppress(Exception):
                await wtask

    add_routes(app, manager, body, bearer, same_site, WEB_DIR / "index.html")
    add_account_routes(app, accounts, body, same_site)
    add_profile_routes(app, store, manager, WEB_DIR / "index.html")
    add_daily_routes(app, Daily(store, manager, accounts), body)
    add_play_routes(app, manager, accounts, body, same_site, seat_takers)
    from muggins.server.botapi import BotApi, add_bot_routes
    app.state.bots = BotApi(accounts, manager)
    add_bot_routes(app, app.state.bots, body, same_site)
    if shared is not None:  # scale-out mode: the tables' leases and relays
        from muggins.server.cluster import Cluster, RelayRequests
        cluster = Cluster(shared.redis, shared.url, manager, handle_message, lambda: RateLimiter(rate, burst), figures,
                          MAX_SOCKETS_PER_SEAT, MAX_SPECTATORS_PER_TABLE)
        manager.shared = True
        app.add_middleware(RelayRequests, cluster=cluster)  # requests that change a table run at its owner
        cluster.app = app
        app.state.cluster = cluster
        app.state.bots.publish = cluster.tell_bot  # the bots' events reach their streams on every process
        cluster.on_bot_event = app.state.bots.deliver
        cluster.table_of = app.state.bots.table_of  # a bot seated at an open table is seated by its owner
        app.state.matchmaker.redis = shared.redis  # the play queue's tickets outlive the process holding it
        cluster.on_queue = app.state.matchmaker.take_over

    if metrics:
        @app.get("/metrics", include_in_schema=False)
        async def metrics_page() -> Response:
            await insight.refresh()
            return Response(figures.render(), media_type=figures.content_type)

    @app.get("/")
    async def index() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    @app.get("/t/{table_id}")
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    return app


async def handle_message(table: Any, conn: Connection, raw: str,
                         limiter: RateLimiter | AllOf) -> dict[str, Any] | None:
    """One client message: the reply to send (an ack, an error, a pong) or None. Every message counts
    against the rate limit, the refused ones too. An action is acknowledged once it is stored; meanwhile
    the event loop serves the other tables."""
    allowed = limiter.allow()
    if len(raw) > MAX_MESSAGE_BYTES:
        return {"type": "error", "message": f"message over {MAX_MESSAGE_BYTES} bytes ignored"}
    try:
        msg = parse_json(raw, "the message")
    except BadRequest as e:
        msg = e
    # every message is answered once, with its ref, so a client can tell which request failed
    ref = msg.get("ref") if isinstance(msg, dict) else None
    if not isinstance(ref, (int, str)) or isinstance(ref, bool) or len(str(ref)) > 40:
        ref = None
    if not allowed:
        return {"type": "error", "ref": ref, "message": SLOW_DOWN}
    if isinstance(msg, BadRequest):
        return {"type": "error", "message": f"{msg}; messages are JSON objects"}
    if not isinstance(msg, dict):
        return {"type": "error", "message": "messages must be JSON objects"}
    kind = msg.get("type")
    if kind == "ping":
        return {"type": "pong", "ref": ref}
    if kind == "act":
        if conn.seat is None:
            return {"type": "error", "ref": ref, "message": "spectators cannot act; take a seat to play"}
        at = msg.get("at")
        stale = table.position_error(at)
        if stale is not None:
            return {"type": "error", "ref": ref, "message": stale}
        try:  # the position is checked again when the table's writes before it are done
            idx = await table.act_async(conn.seat, msg.get("move"), msg.get("claim"), at)
        except TableError as e:
            return {"type": "error", "ref": ref, "message": str(e)}
        except MugginsError as e:
            return {"type": "error", "ref": ref, "message": str(e) or type(e).__name__}
        except Exception as e:  # a fault of the server must not cost the player his connection
            log.exception("action %r at table %s failed", msg.get("move"), table.id)
            return {"type": "error", "ref": ref,
                    "message": f"the server could not apply that move ({type(e).__name__})"}
        return {"type": "ack", "ref": ref, "index": idx}
    if kind == "next":
        return next_hand(table, conn, ref)
    kind_text = kind if isinstance(kind, str) and len(kind) <= 40 else "that"
    return {"type": "error", "ref": ref, "message": f"unknown message type {kind_text!r}; send 'act', 'next' or 'ping'"}
