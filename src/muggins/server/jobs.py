"""Scale-out mode's analyses and hints: jobs on a Redis queue (arq), done by ``muggins worker`` processes.

A server with ``--redis`` computes no analysis and no hint itself: it puts a job on the queue ``muggins:jobs``
and waits for its result, so that a long computation never holds the event loop that plays its tables. A job
names its table, and the worker reads the table from the store (``--db``, the servers' own database): the
finished game's record for an analysis; the game as it stood at the position asked about for a hint (the
seat's own view is what the hint samples from, exactly as in-process). Each job has an id made of what it
computes (``analysis:TABLE:SAMPLES``, ``hint:TABLE:SEAT:INDEX:SAMPLES``): the same question asked on two
processes, or twice, is one job, and its result is kept for an hour.

When no worker takes a job within the server's patience, the request is answered 503 with Retry-After (the job
stays queued: a worker that starts later does it). How many jobs wait is at /metrics
(``muggins_worker_queue``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from muggins.core.chance import Chance
from muggins.core.records import apply_record_action
from muggins.core.rules import get_game
from muggins.server.guard import BadRequest
from muggins.server.insight import Done, Insight, _analyse, hint_of
from muggins.server.store import Store
from muggins.server.tables import TableError, TableManager

log = logging.getLogger("muggins.worker")

QUEUE = "muggins:jobs"
PROGRESS = "muggins:progress:"   # an analysis's progress, "DONE TOTAL", written by its worker
PATIENCE = 10.0                  # seconds a job may wait for a worker to take it before the request gets 503
ANALYSIS_LIMIT = 600.0           # seconds an analysis may take at most (the worker's job timeout too)
HINT_LIMIT = 60.0
HINT_EXPIRES = 120.0             # a hint nobody took by then is not computed (its position has passed)
RETRY_AFTER = 5                  # what the 503 tells a client to wait
POLL = 0.1                       # seconds between looks at a job's state


class NoWorker(BadRequest):
    """No worker took (or finished) a job in time: the request is answered 503 with Retry-After."""

    def __init__(self, what: str) -> None:
        super().__init__(f"no worker answers: {what}; try again in a moment", 503, RETRY_AFTER)


def redis_settings(url: str) -> Any:
    from arq.connections import RedisSettings

    return RedisSettings.from_dsn(url)


class QueuedInsight(Insight):
    """The analyses and hints of a scale-out server, each one a job on the queue done by a worker; what is done
    is kept as in-process (see :class:`~muggins.server.insight.Insight`)."""

    def __init__(self, redis_url: str, samples: int, patience: float = PATIENCE) -> None:
        super().__init__(samples)
        self.redis_url = redis_url
        self.patience = patience
        self.pool: Any = None
        self.queued = 0  # jobs waiting for a worker, at the last look (for /metrics)

    async def open(self) -> None:
        from arq import create_pool

        self.pool = await create_pool(redis_settings(self.redis_url))

    async def close(self) -> None:
        if self.pool is not None:
            with contextlib.suppress(Exception):
                await self.pool.aclose()

    async def refresh(self) -> None:
        if self.pool is not None:
            with contextlib.suppress(Exception):
                self.queued = int(await self.pool.zcard(QUEUE))

    async def _run(self, table_id: str, record: dict[str, Any]) -> Done:
        def progress(done: int, total: int) -> None:
            self.progress[table_id] = (done, total)

        result = await self.job("analyse", f"analysis:{table_id}:{self.samples}:{self.seed}",
                                (table_id, self.samples, self.seed), ANALYSIS_LIMIT, None,
                                self._progress(table_id, progress))
        return Done(result["data"], result["png"])

    def _progress(self, table_id: str, report: Callable[[int, int], None]) -> Callable[[], Any]:
        async def look() -> None:
            got = await self.pool.get(PROGRESS + table_id)
            if got:
                done, total = (int(x) for x in got.split())
                report(done, total)
        return look

    async def _hint(self, table_id: str, seat: int, state: Any) -> dict[str, Any]:
        index = len(state.history)
        return dict(await self.job("hint", f"hint:{table_id}:{seat}:{index}:{self.hint_samples}",
                                   (table_id, seat, index, self.hint_samples), HINT_LIMIT, HINT_EXPIRES, None))

    async def job(self, function: str, job_id: str, args: tuple[Any, ...], limit: float, expires: float | None,
                  look: Callable[[], Any] | None) -> Any:
        """Queue ``function(*args)`` as ``job_id`` (or find it queued, running or done) and give its result; the
        job's own exception when it failed; NoWorker when no worker takes it within the patience or it runs
        past ``limit``."""
        from arq.jobs import Job, JobStatus

        if self.pool is None:
            raise NoWorker("the job queue is not open")
        job = await self.pool.enqueue_job(function, *args, _job_id=job_id, _queue_name=QUEUE, _expires=expires)
        if job is None:  # asked already (here or on another process): the same job
            job = Job(job_id, self.pool, _queue_name=QUEUE)
        asked = time.monotonic()
        taken: float | None = None
        while True:
            status = await job.status()
            if status == JobStatus.complete:
                return await job.result(timeout=limit)
            now = time.monotonic()
            if status == JobStatus.in_progress:
                taken = taken or now
                if look is not None:
                    with contextlib.suppress(Exception):
                        await look()
                if now - taken > limit:
                    raise NoWorker(f"the {function} job ran past {limit:g} s")
            elif status == JobStatus.not_found:  # expired unstarted, or its result dropped: asked again
                job = await self.pool.enqueue_job(function, *args, _job_id=job_id, _queue_name=QUEUE,
                                                  _expires=expires) or job
            elif now - asked > self.patience:
                raise NoWorker(f"no worker took the {function} job within {self.patience:g} s")
            await asyncio.sleep(POLL)


# --- the worker's side ------------------------------------------------------------------------------------
def position(store: Store, table_id: str, index: int) -> Any:
    """The game of ``table_id`` as it stood after its first ``index`` actions (None when the store holds fewer
    yet)."""
    stored = store.load_one(table_id)
    if stored is None:
        raise TableError(f"no table {table_id!r}", 404)
    if len(stored.actions) < index:
        return None
    spec = get_game(stored.game)
    state = spec.new(spec.rules(stored.preset, stored.options), stored.num_players, chance=Chance(seed=stored.seed))
    for i, entry in enumerate(stored.actions[:index]):
        apply_record_action(state, i, entry)
    return state


async def analyse(ctx: dict[str, Any], table_id: str, samples: int, seed: int) -> dict[str, Any]:
    """The job: the analysis of a finished game, its JSON and its plot."""
    manager: TableManager = ctx["manager"]
    redis = ctx["redis"]
    stored = await asyncio.to_thread(manager.store.load_one, table_id)
    if stored is None:
        raise TableError(f"no table {table_id!r}", 404)
    record = manager._rebuild(stored).record()
    now = [0, 0]

    def progress(done: int, total: int) -> None:
        now[:] = [done, total]

    work = asyncio.ensure_future(asyncio.to_thread(_analyse, record, samples, seed, progress))
    while not work.done():  # the thread works; its progress is told to the servers meanwhile
        await asyncio.wait([work], timeout=0.3)
        with contextlib.suppress(Exception):
            await redis.set(PROGRESS + table_id, f"{now[0]} {now[1]}", ex=60)
    done = work.result()
    log.info("table %s analysed (%d actions)", table_id, len(record["actions"]))
    return {"data": done.data, "png": done.png}


async def hint(ctx: dict[str, Any], table_id: str, seat: int, index: int, samples: int) -> dict[str, Any]:
    """The job: the hint of ``seat`` at position ``index`` of a table in play."""
    from arq import Retry

    manager: TableManager = ctx["manager"]
    state = await asyncio.to_thread(position, manager.store, table_id, index)
    if state is None:  # the server's last write is not visible here yet
        raise Retry(defer=0.2)
    return await asyncio.to_thread(hint_of, state, seat, samples)


def make_worker(redis_url: str, db_url: str, jobs: int = 2) -> Any:
    """An arq worker doing the analyses and hints of the servers on ``redis_url``, reading ``db_url``; ``jobs``
    at once."""
    from arq.worker import Worker, func

    async def startup(ctx: dict[str, Any]) -> None:
        ctx["manager"] = TableManager(Store(db_url))

    async def shutdown(ctx: dict[str, Any]) -> None:
        manager = ctx.get("manager")
        if manager is not None:
            manager.store.close()

    return Worker(functions=[func(analyse, name="analyse", timeout=ANALYSIS_LIMIT),
                             func(hint, name="hint", timeout=HINT_LIMIT, max_tries=20)],
                  redis_settings=redis_settings(redis_url), queue_name=QUEUE, on_startup=startup,
                  on_shutdown=shutdown, max_jobs=jobs, poll_delay=0.1, health_check_interval=10,
                  handle_signals=True)
