"""Tournaments on Ray: the same :class:`~muggins.sim.tournament.Task` list, run as Ray tasks on a local Ray
or on a cluster, and summarized exactly as the local backend does.

Ray is imported only here and only when this backend is used, so the rest of the package works without it.

Chunks. One Ray task per game would cost as much in scheduling as in play (a Ray task round trip is a few
milliseconds; a game between quick bots about ten), so each Ray task plays a chunk of consecutive tasks:
about :data:`CHUNKS_PER_CPU` chunks per CPU of the cluster (enough to balance uneven games and keep the
progress bar moving), at least two games and at most :data:`MAX_CHUNK`, and always an even number, so both
orientations of a duplicate deal are played by the same Ray task. Results are put back in task order
before they are summarized, whatever order the chunks finish in.

What runs where. This process (the driver) plans the games, gathers the results and writes the report; the
games run in Ray's worker processes. A local Ray inherits this environment; on a cluster (``address``) the
workers get this process's own copy of the ``muggins`` package (a Ray ``py_modules`` runtime environment,
about a megabyte), so every node plays the same code as the driver whatever version it has installed; the
nodes need Python and Ray of the same versions as the driver.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from types import ModuleType
from typing import Any

import muggins
from muggins.bots.base import BotError
from muggins.core.engine import ENGINE_ENV
from muggins.core.errors import MugginsError
from muggins.sim.driver import GameResult
from muggins.sim.tournament import BackendError, Task, run_task

INSTALL_HINT = "pip install 'muggins[ray]'"
CHUNKS_PER_CPU = 4
MAX_CHUNK = 64
# Settings of the driver that the workers of a remote cluster must share (a locally started Ray inherits
# the whole environment): extra game modules, the choice of the pure-Python build and the engine behind
# ``spec.new`` (MUGGINS_ENGINE).
FORWARDED_ENV = ("MUGGINS_GAMES", "MUGGINS_PURE_PYTHON", ENGINE_ENV)


class RayRunError(MugginsError):
    """Ray failed while the games were being played (a worker or node lost, an object lost)."""


def import_ray() -> ModuleType:
    """The ``ray`` module, or a :class:`BackendError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise BackendError(f"--backend ray needs the ray package: {INSTALL_HINT}") from None
    return ray


def chunk_size(tasks: int, cpus: int) -> int:
    """Games per Ray task for ``tasks`` games on ``cpus`` CPUs (see the module's docstring)."""
    size = -(-tasks // (CHUNKS_PER_CPU * max(cpus, 1)))
    size = min(max(size, 2), MAX_CHUNK)
    return size + size % 2


def play_chunk(tasks: Sequence[Task]) -> list[GameResult]:
    """Play a chunk of tasks in order (the body of the Ray task)."""
    return [run_task(t) for t in tasks]


def init_kwargs(address: str | None, num_cpus: int | None) -> dict[str, Any]:
    """The arguments of ``ray.init``: a new local Ray of ``num_cpus`` CPUs (all when None) when no address is
    given, else a connection to the cluster at ``address``, which brings its own CPUs. Quiet either way: no
    dashboard, no worker logs copied to this terminal, only Ray's errors logged."""
    kwargs: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.ERROR}
    if address is None:
        # "local" starts a new instance even when RAY_ADDRESS points at a cluster
        kwargs.update(address="local", num_cpus=num_cpus, include_dashboard=False)
        return kwargs
    if num_cpus is not None:
        raise BackendError("--jobs sets the CPUs of a local Ray; a cluster given by --address brings its own")
    kwargs["address"] = address
    runtime_env: dict[str, Any] = {"py_modules": [os.path.dirname(muggins.__file__)]}
    env = {name: os.environ[name] for name in FORWARDED_ENV if name in os.environ}
    if env:
        runtime_env["env_vars"] = env
    kwargs["runtime_env"] = runtime_env
    return kwargs


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Refuse an address ``HOST:PORT`` or ``ray://HOST:PORT`` where nothing accepts a connection: Ray itself
    would retry such an address for minutes, logging every attempt. Other forms (``auto``) are left to Ray."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise BackendError(f"nothing answers at {address}: {e.strerror or e}") from None


@contextmanager
def ray_session(address: str | None = None, num_cpus: int | None = None) -> Iterator[ModuleType]:
    """Ray, started or connected for the duration of the block and shut down after; a Ray that is already
    initialized in this process is used as it is and left running."""
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    kwargs = init_kwargs(address, num_cpus)
    if address is not None:
        check_reachable(address)
    try:
        ray.init(**kwargs)
    except Exception as e:  # Ray raises ConnectionError, RuntimeError or ValueError, depending on the cause
        where = f"the Ray cluster at {address}" if address else "a local Ray"
        hint = ""
        if address not in (None, "auto") and "RAY_AUTH_MODE" not in os.environ:
            hint = " (a cluster with token authentication also needs RAY_AUTH_MODE=token and its token here)"
        raise BackendError(f"cannot start or reach {where}: {_first_line(e)}{hint}") from None
    try:
        yield ray
    finally:
        ray.shutdown()


def run_tasks_ray(tasks: Sequence[Task], on_result: Callable[[GameResult], None] | None = None, *,
                  address: str | None = None, num_cpus: int | None = None,
                  chunk: int | None = None) -> list[GameResult]:
    """Run every task on Ray, ``chunk`` games per Ray task (default: :func:`chunk_size`). Results come back in
    task order, as :func:`~muggins.sim.tournament.run_tasks` returns them; ``on_result`` sees each game of a
    chunk as soon as the chunk finishes. An error raised by a game is raised here as itself."""
    if chunk is not None and chunk < 1:
        raise BackendError("a chunk holds at least one game")
    with ray_session(address, num_cpus) as ray:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        size = chunk or chunk_size(len(tasks), cpus)
        remote = ray.remote(play_chunk)
        pending = {remote.remote(list(tasks[i:i + size])): i for i in range(0, len(tasks), size)}
        results: list[GameResult | None] = [None] * len(tasks)
        try:
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    start = pending.pop(ref)
                    for j, r in enumerate(_get(ray, ref)):
                        results[start + j] = r
                        if on_result is not None:
                            on_result(r)
        finally:  # on an error or an interrupt, the chunks not yet finished are not left running
            for ref in pending:
                with suppress(Exception):  # best effort: the error being raised is the one to report
                    ray.cancel(ref, force=True)
    return [r for r in results if r is not None]


def _get(ray: ModuleType, ref: Any) -> list[GameResult]:
    """The results of one chunk; a game's own error is raised as itself, not wrapped by Ray."""
    try:
        return list(ray.get(ref))
    except ray.exceptions.RayTaskError as e:
        cause = getattr(e, "cause", None)
        if isinstance(cause, MugginsError | BotError):
            raise cause from None
        raise RayRunError(f"a chunk of games failed on Ray: {_first_line(cause or e)}") from None
    except ray.exceptions.RayError as e:
        raise RayRunError(f"Ray lost a chunk of games: {_first_line(e)}") from None


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__
