"""``muggins worker``: does the analyses and hints of scale-out servers (jobs on their Redis queue)."""

from __future__ import annotations

import logging

import typer

from muggins.cli.serve_cmd import DB_ENV, REDIS_ENV, database_problem


def worker_command(
    redis_url: str = typer.Option(
        ..., "--redis", envvar=REDIS_ENV, metavar="URL",
        help="The Redis server of the `muggins serve --redis` processes (redis://HOST:PORT/DB): their jobs are "
             "taken from its queue."),
    db: str = typer.Option(..., "--db", envvar=DB_ENV, metavar="URL",
                           help="The servers' database (postgresql+psycopg://...): the games are read from it."),
    jobs: int = typer.Option(2, "--jobs", min=1, max=64,
                             help="Jobs done at once (each one a thread: about one per core to spare)."),
) -> None:
    """Do the analyses and hints of scale-out servers, so that no table waits for one; see docs/deploy.md."""
    try:
        from muggins.server.jobs import make_worker
        from muggins.server.redis_limits import redis_problem
    except ImportError as e:  # pragma: no cover - depends on the installation
        typer.echo(f"the worker needs the scale extra (pip install 'muggins[scale]'): {e}", err=True)
        raise typer.Exit(2) from None
    problem = database_problem(db)
    if problem is not None:
        typer.echo(f"--db / {DB_ENV}: {problem}", err=True)
        raise typer.Exit(2)
    problem = redis_problem(redis_url)
    if problem is not None:
        typer.echo(f"--redis / {REDIS_ENV}: {problem}", err=True)
        raise typer.Exit(2)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    typer.echo(f"muggins worker: {jobs} at once, queue on {redis_url}, database {db}", err=True)
    make_worker(redis_url, db, jobs).run()
