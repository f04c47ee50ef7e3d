"""A move's write waits off the event loop: while one table's commit is held up, another table's move is
stored, applied and acknowledged; the held move is seen by nobody until it is stored, a second move of its
table waits behind it (and is checked against the position it leaves), and a write that fails changes nothing."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from sqlalchemy import event

from muggins.server import seating
from muggins.server.app import handle_message
from muggins.server.guard import RateLimiter
from muggins.server.store import Store, StoreConflict, StoreUnavailable
from muggins.server.tables import Connection, GameTable, TableError, TableManager


class HeldStore(Store):
    """A store whose writes of one table wait until they are let through (or fail, if told to)."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.write_threads = 2  # two writes at once: the held one and another table's
        self.held: str | None = None
        self.reached = threading.Event()  # a held write has started
        self.go = threading.Event()
        self.fail = False
        self.stored: list[tuple[str, int]] = []  # (table, index) in the order the writes were committed

    def _action_work(self, table_id: str, idx: int, *args: Any) -> Callable[[Any], None]:
        statements = super()._action_work(table_id, idx, *args)

        def work(conn: Any) -> None:  # on a writer thread
            if table_id == self.held:
                self.reached.set()
                assert self.go.wait(60), "the held write was never let through"
                if self.fail:
                    raise StoreUnavailable("the database did not take the move")
            statements(conn)
            self.stored.append((table_id, idx))

        return work


def run_on(store: HeldStore, play: Callable[[TableManager], Coroutine[Any, Any, None]]) -> None:
    """Run ``play`` with a manager of tables on ``store``, then close both."""
    manager = TableManager(store, time_scale=0.0)

    async def run() -> None:
        await play(manager)
        manager.shutdown()

    try:
        asyncio.run(run())
    finally:
        store.close()


def two_people(manager: TableManager) -> GameTable:
    t = manager.create("dominoes", None, None, [None, None], grace=0, bot_delay=0)
    t.take_seat(0, "Ann")
    t.take_seat(1, "Bob")
    return t


def a_move(t: GameTable) -> tuple[int, str, Any]:
    """The seat to act at ``t``, the text of a regular move of it, and its claim."""
    seat = min(t.state.waiting_for())
    action = next(a for a in t.state.legal_actions(seat) if a.kind not in ("muggins", "claim"))
    j = t.state.action_to_json(seat, action)
    return seat, j["move"], j.get("claim")


def watching(t: GameTable) -> Connection:
    """A spectator of ``t`` whose queue holds what it was sent since."""
    watcher = Connection(None)
    t.attach(watcher)
    while not watcher.queue.empty():
        watcher.queue.get_nowait()
    return watcher


def act_message(t: GameTable, ref: int) -> tuple[Connection, str]:
    seat, move, claim = a_move(t)
    body = f'"claim":{claim},' if claim is not None else ""
    return Connection(seat), f'{{"type":"act","ref":{ref},"move":"{move}",{body}"at":{len(t.state.history)}}}'


def test_a_held_write_holds_its_own_table_only(tmp_path: Path) -> None:
    store = HeldStore(f"sqlite:///{tmp_path / 'held.db'}")

    async def run(manager: TableManager) -> None:
        slow, quick = two_people(manager), two_people(manager)
        store.held = slow.id
        n = len(slow.state.history)
        watcher = watching(slow)
        conn, raw = act_message(slow, 1)
        held = asyncio.create_task(handle_message(slow, conn, raw, RateLimiter(100, 100)))
        again = asyncio.create_task(slow.act_async(*a_move(slow), len(slow.state.history)))  # the same position
        assert await asyncio.to_thread(store.reached.wait, 60)
        # the other table moves meanwhile: its move stored, applied and acknowledged
        qconn, qraw = act_message(quick, 2)
        reply = await handle_message(quick, qconn, qraw, RateLimiter(100, 100))
        assert reply is not None and reply["type"] == "ack", reply
        assert len(quick.state.history) == reply["index"] + 1
        assert store.stored[-1] == (quick.id, reply["index"])
        # ... while the held move is neither acknowledged, nor applied, nor shown to anybody
        assert not held.done() and not again.done()
        assert len(slow.state.history) == n and watcher.queue.empty()
        assert (slow.id, n) not in store.stored
        store.go.set()
        ack = await held
        assert ack == {"type": "ack", "ref": 1, "index": n}
        assert len(slow.state.history) == n + 1 and not watcher.queue.empty()  # applied and shown once stored
        # the second move was chosen at the position the first one took: refused once its turn came
        try:
            await again
            raise AssertionError("a move for a position that has passed was applied")
        except TableError as e:
            assert e.status == 409 and "passed" in str(e)
        found = store.load_one(slow.id)
        assert found is not None and len(found.actions) == n + 1
        assert [i for t, i in store.stored if t == slow.id] == [n]

    run_on(store, run)


def test_a_move_whose_socket_goes_while_it_is_committed_is_still_applied(tmp_path: Path) -> None:
    store = HeldStore(f"sqlite:///{tmp_path / 'gone.db'}")

    async def run(manager: TableManager) -> None:
        t = two_people(manager)
        store.held = t.id
        n = len(t.state.history)
        watcher = watching(t)
        conn, raw = act_message(t, 1)
        handler = asyncio.create_task(handle_message(t, conn, raw, RateLimiter(100, 100)))
        assert await asyncio.to_thread(store.reached.wait, 60)
        handler.cancel()  # the socket closed: its handler is cancelled while the move is being committed
        with contextlib.suppress(asyncio.CancelledError):
            await handler
        assert len(t.state.history) == n  # not yet stored, so not yet applied
        store.go.set()
        await t.writes_settled()
        assert (t.id, n) in store.stored
        assert len(t.state.history) == n + 1 and not watcher.queue.empty()  # applied and shown once stored
        seat, move, claim = a_move(t)  # the table goes on from there: its next move is stored after it
        assert await t.act_async(seat, move, claim, n + 1) == n + 1
        found = store.load_one(t.id)
        assert found is not None and len(found.actions) == n + 2

    run_on(store, run)


def test_a_write_cancelled_while_it_waits_is_dropped_and_the_writer_goes_on(tmp_path: Path) -> None:
    """A write whose caller is cancelled before a writer thread takes it (its event loop closed, its task
    cancelled) is never committed, and the writer thread lives on: before, finishing that write killed the
    only SQLite writer thread, and every later move of the server waited for ever."""
    store = HeldStore(f"sqlite:///{tmp_path / 'cancel.db'}")
    store.write_threads = 1

    async def run(manager: TableManager) -> None:
        held, dropped, later = two_people(manager), two_people(manager), two_people(manager)
        store.held = held.id
        first = asyncio.create_task(held.act_async(*a_move(held), 0))
        assert await asyncio.to_thread(store.reached.wait, 60)  # the only writer thread is busy
        seat, move, claim = a_move(dropped)
        staged = dropped._stage(seat, dropped._action_of(seat, move, claim))
        waiting = asyncio.create_task(store.append_action_async(*staged.write))
        await asyncio.sleep(0.05)  # queued behind the held write
        waiting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiting
        store.go.set()
        assert await first == 0
        assert await asyncio.wait_for(later.act_async(*a_move(later), 0), 60) == 0  # the writer thread lives
        assert [t for t, _ in store.stored] == [held.id, later.id]  # the cancelled write was not committed
        found = store.load_one(dropped.id)
        assert found is not None and found.actions == []

    run_on(store, run)


def test_a_held_write_that_fails_changes_nothing(tmp_path: Path) -> None:
    store = HeldStore(f"sqlite:///{tmp_path / 'fail.db'}")

    async def run(manager: TableManager) -> None:
        t = two_people(manager)
        store.held, store.fail = t.id, True
        n, before = len(t.state.history), [t.state.view(s) for s in (0, 1)]
        watcher = watching(t)
        conn, raw = act_message(t, 7)
        task = asyncio.create_task(handle_message(t, conn, raw, RateLimiter(100, 100)))
        assert await asyncio.to_thread(store.reached.wait, 60)
        store.go.set()
        reply = await task
        assert reply is not None and reply["type"] == "error" and "not saved" in reply["message"], reply
        assert len(t.state.history) == n and [t.state.view(s) for s in (0, 1)] == before and watcher.queue.empty()
        found = store.load_one(t.id)
        assert found is not None and len(found.actions) == n
        # the table goes on: the same move, once the store takes it
        store.held = None
        conn, raw = act_message(t, 8)
        reply = await handle_message(t, conn, raw, RateLimiter(100, 100))
        assert reply == {"type": "ack", "ref": 8, "index": n}

    run_on(store, run)


def test_writes_waiting_together_are_committed_together_and_fail_alone(tmp_path: Path) -> None:
    store = HeldStore(f"sqlite:///{tmp_path / 'batch.db'}")
    store.write_threads = 1  # the other writes queue behind the held one
    commits: list[int] = []
    event.listen(store.engine, "commit", lambda _conn: commits.append(1))

    async def queued(count: int) -> None:
        while store._queue.qsize() < count:  # the tasks below have queued their writes
            await asyncio.sleep(0.01)

    async def run(manager: TableManager) -> None:
        held, *others = [two_people(manager) for _ in range(3)]
        store.held = held.id
        first = asyncio.create_task(held.act_async(*a_move(held), None))
        assert await asyncio.to_thread(store.reached.wait, 60)
        moves = [asyncio.create_task(t.act_async(*a_move(t), None)) for t in others]
        await queued(2)
        commits.clear()
        store.go.set()
        assert await first == len(held.state.history) - 1
        assert [await m for m in moves] == [len(t.state.history) - 1 for t in others]
        assert len(commits) == 2  # the held write, then the two that waited for it: together
        # again, with a write among them that the database refuses (its action is stored already)
        store.go.clear()
        store.reached.clear()
        first = asyncio.create_task(held.act_async(*a_move(held), None))
        assert await asyncio.to_thread(store.reached.wait, 60)
        n = [len(t.state.history) for t in others]
        moves = [asyncio.create_task(t.act_async(*a_move(t), None)) for t in others]
        seat, move, claim = a_move(others[0])
        twice = asyncio.create_task(store.append_action_async(others[0].id, n[0] - 1, seat, move, claim, None, None))
        await queued(3)
        store.go.set()
        await first
        assert [await m for m in moves] == n  # each stored alone when the transaction of all three failed
        try:
            await twice
            raise AssertionError("an action stored twice")
        except StoreConflict:
            pass
        for t in others:
            found = store.load_one(t.id)
            assert found is not None and len(found.actions) == len(t.state.history)

    run_on(store, run)


def test_the_game_cannot_end_under_a_move_waiting_for_its_commit(tmp_path: Path) -> None:
    store = HeldStore(f"sqlite:///{tmp_path / 'end.db'}")

    async def run(manager: TableManager) -> None:
        t = two_people(manager)
        store.held = t.id
        n = len(t.state.history)
        seat, move, claim = a_move(t)
        task = asyncio.create_task(t.act_async(seat, move, claim))
        assert await asyncio.to_thread(store.reached.wait, 60)
        for end in (lambda: seating.resign(t, 1 - seat), lambda: t.abandon("idle")):
            try:
                end()
                raise AssertionError("the game ended under a move waiting for its commit")
            except TableError as e:
                assert e.status == 409 and "being saved" in str(e)
        assert t.status == "playing" and t.resigned is None and not t.abandoned
        store.go.set()
        assert await task == n
        seating.resign(t, 1 - seat)  # once stored, the game may end
        found = store.load_one(t.id)
        assert found is not None and found.status == "resigned" and len(found.actions) == n + 1

    run_on(store, run)
