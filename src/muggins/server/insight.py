"""The analysis of a finished game and the hints of a seat to act, served off the event loop.

Both are long computations (worlds sampled and played out), so both run in a worker thread: the event
loop goes on serving every table meanwhile (in scale-out mode they are jobs for ``muggins worker``
processes instead: see jobs.py). A table has at most one analysis running; once done it is
kept (a finished game never changes). A hint is computed only when the seat asks for it, from that seat's
own view (:func:`~muggins.analysis.evaluate.rank_moves` samples the hidden hands), and answered to that
request alone: nothing of it is broadcast, and nobody else's messages wait for it.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, TypeVar

from muggins.analysis import AnalysisError, analyse_record, rank_moves
from muggins.analysis.analyse import Progress
from muggins.analysis.wording import move_phrase
from muggins.core.errors import MugginsError
from muggins.server.guard import BadRequest
from muggins.server.tables import GameTable, TableError

log = logging.getLogger("muggins.server")

ANALYSIS_SAMPLES = 32     # worlds per decision for the web analysis (the terminal's default is 64)
ANALYSIS_SEED = 0
ANALYSIS_CACHE = 64       # analyses kept in memory, the least recently asked for leave first
MAX_ANALYSES = 2          # analyses computed at once over all tables; more wait their turn
HINT_SAMPLES = 12         # worlds per hint: a quick estimate while a player waits
HINT_SEED = 0
HINT_CACHE = 256
_PLOT_LOCK = threading.Lock()  # pyplot keeps global state: one plot at a time


@dataclass
class Done:
    """A finished analysis: its JSON and its plot."""

    data: dict[str, Any]
    png: bytes


def _analyse(record: dict[str, Any], samples: int, seed: int, progress: Progress) -> Done:
    """In a worker thread: the analysis and its plot."""
    from muggins.analysis.report import plot

    analysis = analyse_record(record, samples=samples, seed=seed, progress=progress)
    fd, path = tempfile.mkstemp(suffix=".png")
    os.close(fd)
    try:
        with _PLOT_LOCK:
            plot(analysis, path)
        with open(path, "rb") as f:
            png = f.read()
    finally:
        os.unlink(path)
    return Done(analysis.to_json(), png)


def hint_of(state: Any, seat: int, samples: int = HINT_SAMPLES, seed: int = HINT_SEED) -> dict[str, Any]:
    """What a hint shows the seat to act: the count of the ends (a game with open ends), the move the
    bot would make and its expected points, from ``state`` as the seat knows it (hidden hands sampled).
    ``move`` is None when the seat has no regular move to rank (it may only call or claim); ``phrase`` is
    the move as the words that follow "the bot would" ("play 10S", "draw", "say go")."""
    # (the count of the ends: a card game's ``count`` is another count, its pegging's, and no hint's)
    count = getattr(state, "count", None) if hasattr(state.view(seat), "open_ends") else None
    out: dict[str, Any] = {"seat": seat, "index": len(state.history),
                           "count": count if isinstance(count, int) and not isinstance(count, bool) else None,
                           "move": None, "phrase": None, "points": None, "samples": samples}
    try:
        ranked = rank_moves(state, seat, samples=samples, seed=f"hint:{seed}:{len(state.history)}")
    except AnalysisError:
        return out
    best = ranked[0]
    out["move"], out["phrase"], out["points"] = best.text, move_phrase(best.text), round(best.points, 2)
    return out


K = TypeVar("K")
V = TypeVar("V")


def _keep(cache: OrderedDict[K, V], key: K, task: asyncio.Task[V], limit: int) -> None:
    """Keep the result of a finished ``task`` under ``key``, the oldest dropped past ``limit`` (a task
    cancelled or failed leaves nothing: it is asked again next time)."""
    if task.cancelled() or task.exception() is not None:
        return
    cache[key] = task.result()
    while len(cache) > limit:
        cache.popitem(last=False)


class Insight:
    """The analyses and hints of one server's tables."""

    def __init__(self, samples: int = ANALYSIS_SAMPLES, seed: int = ANALYSIS_SEED,
                 hint_samples: int = HINT_SAMPLES) -> None:
        self.samples = samples
        self.seed = seed
        self.hint_samples = hint_samples
        self.done: OrderedDict[str, Done] = OrderedDict()
        self.running: dict[str, asyncio.Task[Done]] = {}
        self.progress: dict[str, tuple[int, int]] = {}  # actions replayed, of how many
        self.slots = asyncio.Semaphore(MAX_ANALYSES)
        self.hints: OrderedDict[tuple[str, int, int], dict[str, Any]] = OrderedDict()
        self.hint_tasks: dict[tuple[str, int, int], asyncio.Task[dict[str, Any]]] = {}

    def state_of(self, table_id: str) -> str:
        """"done", "running" or "none": what the page may show before it asks."""
        return "done" if table_id in self.done else "running" if table_id in self.running else "none"

    def status(self, table_id: str) -> dict[str, Any]:
        """How far the running analysis of a table is: actions replayed of how many (0 of 0 while it
        waits for its turn)."""
        done, total = self.progress.get(table_id, (0, 0))
        return {"status": "running", "done": done, "total": total}

    def start(self, table: GameTable) -> asyncio.Task[Done] | None:
        """The running analysis of the table's finished game, started if need be; None when it is done.
        TableError 409 for a game not over (its record would show hidden hands in play)."""
        if table.id in self.done:
            return None
        task = self.running.get(table.id)
        if task is None:
            record = table.record()  # raises 409 while the game is not over
            task = asyncio.create_task(self._run(table.id, record))
            self.running[table.id] = task
            task.add_done_callback(functools.partial(self._finished, table.id))
        return task

    async def _run(self, table_id: str, record: dict[str, Any]) -> Done:
        def progress(done: int, total: int) -> None:
            self.progress[table_id] = (done, total)

        async with self.slots:
            return await asyncio.to_thread(_analyse, record, self.samples, self.seed, progress)

    async def analysis(self, table: GameTable) -> Done:
        """The analysis of the table's finished game: the one kept, or the running one when it ends."""
        task = self.start(table)
        if task is not None:
            try:
                await asyncio.shield(task)
            except MugginsError as e:
                raise TableError(f"this game cannot be analysed: {e}", 500) from None
        got = self.done[table.id]
        self.done.move_to_end(table.id)
        return got

    def _finished(self, table_id: str, task: asyncio.Task[Done]) -> None:
        self.running.pop(table_id, None)
        self.progress.pop(table_id, None)
        _keep(self.done, table_id, task, ANALYSIS_CACHE)

    async def hint(self, table: GameTable, seat: int) -> dict[str, Any]:
        """The hint of ``seat`` (proved by its token) at this moment of the table. TableError 409 when
        the table gives no hints, or the game waits for another seat."""
        if not table.hints:
            raise TableError("this table was created without hints", 409)
        st = table.state
        if table.status != "playing" or seat not in st.waiting_for():
            raise TableError("a hint is given to the seat whose turn it is, while the game is played", 409)
        key = (table.id, seat, len(st.history))
        got = self.hints.get(key)
        if got is not None:
            return got
        task = self.hint_tasks.get(key)
        if task is None:
            task = asyncio.create_task(self._hint(table.id, seat, st.clone()))
            self.hint_tasks[key] = task
            task.add_done_callback(functools.partial(self._hinted, key))
        try:
            return await asyncio.shield(task)
        except BadRequest:  # no worker answers (scale-out mode): 503, try again
            raise
        except Exception as e:
            log.exception("table %s: the hint of seat %d failed", table.id, seat)
            raise TableError(f"no hint could be worked out for this position ({type(e).__name__}); "
                             f"play on, or ask again after the next move", 409) from None

    async def _hint(self, table_id: str, seat: int, state: Any) -> dict[str, Any]:
        """The hint of ``seat`` at ``state`` (the table's, copied when asked), worked out in a thread (a worker's
        job in scale-out mode: see jobs.py)."""
        return await asyncio.to_thread(hint_of, state, seat, self.hint_samples)

    def _hinted(self, key: tuple[str, int, int], task: asyncio.Task[dict[str, Any]]) -> None:
        self.hint_tasks.pop(key, None)
        _keep(self.hints, key, task, HINT_CACHE)

    async def open(self) -> None:
        """Connect to what does the work (nothing to do in-process)."""

    async def close(self) -> None:
        """Let go of it."""

    async def refresh(self) -> None:
        """Look at what waits elsewhere, for /metrics (nothing elsewhere in-process)."""

    def cancel(self) -> None:
        for task in [*self.running.values(), *self.hint_tasks.values()]:
            task.cancel()
