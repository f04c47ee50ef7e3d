"""``muggins serve``: the web table (lobby, play over WebSockets, stored games)."""

from __future__ import annotations

import gc
import ipaddress
import os
import socket
from typing import Any

import typer

FORWARDED_ENV = "MUGGINS_FORWARDED_ALLOW_IPS"
DB_ENV = "MUGGINS_DB_URL"
REDIS_ENV = "MUGGINS_REDIS_URL"


def database_problem(url: str) -> str | None:
    """Why ``url`` is not a database URL SQLAlchemy can use, or None."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    try:
        make_url(url).get_dialect()
    except (ArgumentError, NoSuchModuleError, ValueError) as e:
        return (f"{url!r} is not a database URL SQLAlchemy can use ({e}); write sqlite:///PATH or "
                f"postgresql+psycopg://USER:PASSWORD@HOST/NAME")
    except ImportError as e:
        return f"the database driver of {url!r} is not installed: {e}"
    return None


def trusted_proxies(value: str | None) -> str:
    """The proxies whose X-Forwarded-For and X-Forwarded-Proto headers are believed, as uvicorn takes
    them: addresses or networks, comma-separated ("" trusts none, "*" every client). ValueError names
    an item that is neither."""
    items = [x.strip() for x in (value or "").split(",") if x.strip()]
    for item in items:
        if item == "*":
            continue
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ValueError(f"{item!r} is not an IP address or network (like 10.0.0.5 or 10.0.0.0/8)") from None
    return ",".join(items)


def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: int = typer.Option(8000, "--port", help="Port to listen on."),
    db: str = typer.Option(None, "--db", envvar=DB_ENV,
                           help="SQLAlchemy database URL (default: SQLite in the user's data "
                                "directory; postgresql+psycopg://... for PostgreSQL)."),
    redis_url: str = typer.Option(
        None, "--redis", envvar=REDIS_ENV, metavar="URL",
        help="Scale-out mode: a Redis server (redis://HOST:PORT/DB) shared by several `muggins serve` processes "
             "on one --db; the per-address limits are counted there. Default: none, one process on its own. "
             "See docs/deploy.md."),
    allow_origin: list[str] = typer.Option(
        [], "--allow-origin", metavar="URL",
        help="A browser origin allowed to play besides the server's own address, like "
             "https://games.example.org when a proxy serves the page under another name; repeatable. "
             "MUGGINS_ALLOWED_ORIGINS adds more, comma-separated."),
    idle_minutes: float = typer.Option(
        60.0, "--idle-minutes", min=1.0, max=10080.0,
        help="A table where no seated player acts or is connected (for a game of bots alone: nobody watches) "
             "for this long is abandoned (kept in the archive)."),
    forwarded_allow_ips: str = typer.Option(
        None, "--forwarded-allow-ips", metavar="IPS",
        help="Proxies whose X-Forwarded-For / X-Forwarded-Proto headers are believed (comma-separated "
             f"addresses or networks; default: none, also from {FORWARDED_ENV}). Only then are the per-address "
             "limits counted by the address the proxy names; see docs/proxy.md."),
    api_docs: bool = typer.Option(
        False, "--api-docs", help="Serve the API's description: /openapi.json, /docs and /redoc (off by default)."),
    metrics: bool = typer.Option(
        True, "--metrics/--no-metrics",
        help="Serve the server's figures at /metrics in the Prometheus text format (on by default: totals only, "
             "no game's content; a public site blocks the path at its proxy, see docs/deploy.md)."),
) -> None:
    """Serve the lobby and the tables; open the printed address in a browser."""
    try:
        import uvicorn

        from muggins.server.app import create_app
        from muggins.server.guard import ORIGINS_ENV, parse_origins
        from muggins.server.store import default_url
    except ImportError as e:  # pragma: no cover - depends on the installation
        typer.echo(f"the web table needs its dependencies (fastapi, uvicorn, sqlalchemy): {e}", err=True)
        raise typer.Exit(2) from None
    try:
        parse_origins([*allow_origin, os.environ.get(ORIGINS_ENV, "")])
    except ValueError as e:
        typer.echo(f"--allow-origin / {ORIGINS_ENV}: {e}", err=True)
        raise typer.Exit(2) from None
    try:
        proxies = trusted_proxies(forwarded_allow_ips if forwarded_allow_ips is not None
                                  else os.environ.get(FORWARDED_ENV, ""))
    except ValueError as e:
        typer.echo(f"--forwarded-allow-ips / {FORWARDED_ENV}: {e}", err=True)
        raise typer.Exit(2) from None
    url = db or default_url()
    problem = database_problem(url)
    if problem is not None:
        typer.echo(f"--db / {DB_ENV}: {problem}", err=True)
        raise typer.Exit(2)
    if redis_url:
        from muggins.server.redis_limits import redis_problem

        problem = redis_problem(redis_url)
        if problem is not None:
            typer.echo(f"--redis / {REDIS_ENV}: {problem}", err=True)
            raise typer.Exit(2)
    try:
        app = create_app(url, allowed_origins=allow_origin, idle_timeout=idle_minutes * 60, address=(host, port),
                         api_docs=api_docs, redis_url=redis_url or None, metrics=metrics)
    except Exception as e:
        typer.echo(f"cannot open the database {url}: {e}", err=True)
        raise typer.Exit(2) from None
    # fewer, shorter collector pauses: the loaded tables are long-lived, and a pause delays every table
    gc.collect()
    gc.freeze()
    gc.set_threshold(20000, 20, 20)
    shown = "localhost" if host in ("0.0.0.0", "127.0.0.1", "::") else host
    shared = f"; Redis: {redis_url}" if redis_url else ""
    typer.echo(f"muggins: open http://{shown}:{port}/  (database: {url}{shared})", err=False)
    # small JSON messages: compressing each one costs more CPU than it saves on the wire
    # forwarded headers are believed from the named proxies only (uvicorn's own default trusts 127.0.0.1)
    run_handing_over(app, uvicorn.Config(app, host=host, port=port, log_level="warning", ws_max_size=65536,
                                         ws_per_message_deflate=False, proxy_headers=bool(proxies),
                                         forwarded_allow_ips=proxies))


def run_handing_over(app: Any, config: Any) -> None:
    """Run uvicorn's server; in scale-out mode, on SIGTERM the app's tables are handed over (their leases given
    back) before the sockets are closed, so that the pages reconnect to tables the other processes have
    taken over already."""
    import uvicorn

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            cluster = getattr(app.state, "cluster", None)
            if cluster is not None:
                await cluster.hand_over()
            await super().shutdown(sockets)

    Server(config).run()
