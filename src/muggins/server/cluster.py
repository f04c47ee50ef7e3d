"""Scale-out mode's tables: each table in play is owned by one process at a time, and a socket that lands
on another process is relayed to the owner over Redis pub/sub.

- **Leases**: ``muggins:lease:TABLE`` holds the owner's id (``host:pid:random``), set with SET NX PX and
  renewed while the owner lives. A watcher in every process claims the lease of any table in play whose
  lease has lapsed (its owner died) and rebuilds the table from the store; the store's action index is the
  arbiter of a race (a write for an index already stored is refused), and a process that finds its lease
  gone drops the table.
- **Relays**: a process subscribes to ``muggins:table:DB:TABLE`` for each table it owns. A socket on another
  process sends its hello and then its frames there (``open``, ``msg``, ``close``, each with the relay's
  node and connection id); the owner answers on the relay's own channel ``muggins:node:DB:NODE`` with the very
  messages a local socket of that seat would get. When the owner changes or stops answering, the relay
  closes the socket with code 1012 and the page reconnects, to the new owner through any process. A bot's
  game stream (``GET /api/bot/game/stream/ID``) opened on another process is relayed the same way, as a
  socket of the bot's seat (the owner checks that the seat is the bot's).
- **Bot events**: the bot API's events (a challenge, a game started or finished) are published on
  ``muggins:bot-events:DB``; every process gives them to the event streams it holds for that bot.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import json
import logging
import os
import re
import secrets
import socket
import threading
import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from typing import Any

from sqlalchemy import select

from muggins.server.botapi import BotConnection
from muggins.server.store import ACTIVE, tables_t
from muggins.server.tables import Connection, GameTable, TableError, TableManager

log = logging.getLogger("muggins.server")

LEASE_SECONDS = 3.0       # a dead owner's tables are taken over after this, plus one watcher round
ROUND_SECONDS = 1.0       # how often leases are renewed and lapsed ones looked for
LOOP_PATIENCE = 30.0      # leases are renewed while the event loop showed life this recently
OPEN_TIMEOUT = 2.0        # a relay waits this long for the owner to answer its open before asking again
RELAY_PATIENCE = 12.0     # ... and gives up after this long without an owner (the page then reconnects)
LEASE = "muggins:lease:"
TABLE_CHANNEL = "muggins:table:"
# quick and ranked play's queue is held by one process at a time, under a lease of this name (never a table's
# id: those are 12 characters); the other processes relay its requests there, so that everybody waits in one
# queue. Its holder keeps the tickets in Redis as well: the next holder takes them over (on_queue)
QUEUE = "play-queue"
PLAY_PATH = re.compile(r"^/api/play(?:/[A-Za-z0-9_-]{1,64})?$")
NODE_CHANNEL = "muggins:node:"
BOT_CHANNEL = "muggins:bot-events"

# renew each lease that is still ours (1), not another's (0); give one back only if it is ours
RENEW = """
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then out[i] = redis.call('PEXPIRE', key, ARGV[2]) else out[i] = 0 end
end
return out
"""
RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"


def node_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class Relayed:
    """A socket of this process whose table is owned by another: what the owner sends it arrives here."""

    def __init__(self) -> None:
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=1024)


class Cluster:
    """The leases, the takeovers and the relays of one process."""

    def __init__(self, redis: Any, redis_url: str, manager: TableManager,
                 handle: Callable[[GameTable, Connection, str, Any], Awaitable[dict[str, Any] | None]],
                 limiter: Callable[[], Any], metrics: Any, room_for_seat: int, max_spectators: int,
                 lease_seconds: float = LEASE_SECONDS) -> None:
        self.redis = redis
        self.manager = manager
        self.handle = handle            # a client message at an owned table: the app's handle_message
        self.limiter = limiter          # a message rate limiter for one relayed socket
        self.metrics = metrics
        self.room_for_seat = room_for_seat
        self.max_spectators = max_spectators
        self.lease_ms = int(lease_seconds * 1000)
        # a Redis server's pub/sub channels are shared by all its databases: the channels of a site are named
        # after its database number, so that sites (or test runs) on other databases of the server are not heard
        space = f"{int(redis.connection_pool.connection_kwargs.get('db') or 0)}:"
        self.table_channel = TABLE_CHANNEL + space
        self.node_channel = NODE_CHANNEL + space
        self.bot_channel = BOT_CHANNEL + ":" + space
        self.node = node_id()
        self.owned: set[str] = set()    # tables served here: each one in the manager, its lease ours
        self.taking: dict[str, asyncio.Future[bool]] = {}  # takeovers under way
        self.broken: set[str] = set()   # tables that could not be rebuilt here: not claimed again
        self.relayed: dict[str, Relayed] = {}                                  # this process's relayed sockets
        self.remote: dict[str, tuple[str, Connection, Any, asyncio.Task[None]]] = {}  # others', at owned tables
        self.pubsub: Any = None
        self.app: Any = None            # the process's ASGI app: requests relayed here are run through it (set
                                        # by the app that makes this)
        self.requests: set[asyncio.Task[None]] = set()
        self.answering: dict[str, asyncio.Task[None]] = {}  # each relayed socket's last message, being answered
        self.closing = False            # handing over or stopped: no table is taken any more
        self.tasks: list[asyncio.Task[None]] = []
        self.redis_url = redis_url
        self.release = redis.register_script(RELEASE)
        self.beat = time.monotonic()     # the event loop's last round: a sign of life for the renewer
        self.stopped = threading.Event()
        self.loop: asyncio.AbstractEventLoop | None = None
        manager.on_stale = self.reload
        self.queue_held = False  # this process holds the play queue (see QUEUE)
        self.on_queue: Callable[[], Awaitable[None]] | None = None  # takes the queue's tickets over (set by the app)
        self.on_bot_event: Callable[[int, dict[str, Any]], None] | None = None  # gives a bot's event to its
                                                                                 # streams here (set by the app)
        self.bot_outbox: asyncio.Queue[str] | None = None  # events to publish, in the order they happened
        # the open table a request of the bot API seats a bot at (path, body), if any: such a request is run at
        # that table's owner (set by the app; run in a thread, it may read the store)
        self.table_of: Callable[[str, bytes], str | None] | None = None

    # --- life -------------------------------------------------------------------------------------
    async def start(self) -> None:
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self.pubsub.subscribe(self.node_channel + self.node, self.bot_channel)
        self.loop = asyncio.get_running_loop()
        self.bot_outbox = asyncio.Queue()
        self.tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._watch()),
                      asyncio.create_task(self._publish_bot_events())]
        threading.Thread(target=self._renew_leases, name="muggins-leases", daemon=True).start()
        await self.round(settled=False)  # the tables without an owner are taken at once

    async def hand_over(self) -> None:
        """On SIGTERM, before the sockets are closed: take no more tables, stop playing those owned here (their
        bots stop, their sockets close: the pages reconnect through the other processes) and give their leases
        back, so that the other processes take them over at their next round (within a second) rather than
        after the leases lapse."""
        self.closing = True
        self.stopped.set()
        for task in self.tasks:
            task.cancel()
        await self._let_queue_go()
        for table_id in sorted(self.owned):
            await self.drop(table_id)
            with contextlib.suppress(Exception):
                await self.release(keys=[LEASE + table_id], args=[self.node])
        log.info("%s handed its tables over", self.node)

    async def stop(self) -> None:
        """Give every lease back (a restarted process's tables are taken over at once, not after the lease
        lapses) and stop listening."""
        self.closing = True
        self.stopped.set()
        for task in self.tasks:
            task.cancel()
        await self._let_queue_go()
        for table_id in list(self.owned):
            with contextlib.suppress(Exception):
                await self.release(keys=[LEASE + table_id], args=[self.node])
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await self.pubsub.aclose()

    def owns(self, table_id: str) -> bool:
        return table_id in self.owned

    # --- the play queue ---------------------------------------------------------------------------
    async def hold_queue(self) -> bool:
        """Take the play queue's lease when nobody holds it; whether this process holds it now."""
        if self.queue_held:
            return True
        if self.closing or not await self.redis.set(LEASE + QUEUE, self.node, nx=True, px=self.lease_ms):
            return False
        if self.on_queue is not None:
            try:
                await self.on_queue()
            except Exception:
                log.exception("the play queue's tickets could not be taken over")
                with contextlib.suppress(Exception):
                    await self.release(keys=[LEASE + QUEUE], args=[self.node])
                return False
        self.queue_held = True
        if self.pubsub is not None:
            await self.pubsub.subscribe(self.table_channel + QUEUE)
        log.info("%s holds the play queue", self.node)
        return True

    async def _let_queue_go(self) -> None:
        if not self.queue_held:
            return
        self.queue_held = False
        with contextlib.suppress(Exception):
            await self.release(keys=[LEASE + QUEUE], args=[self.node])
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await self.pubsub.unsubscribe(self.table_channel + QUEUE)

    # --- leases -----------------------------------------------------------------------------------
    async def adopt(self, table_id: str) -> bool:
        """Claim the lease of a table just made here (in the manager); True when this process now owns it.
        When another process's watcher was first (it found the new table in the store without a lease), the
        table is played there: the copy here is let go."""
        if not await self.redis.set(LEASE + table_id, self.node, nx=True, px=self.lease_ms):
            table = self.manager.tables.pop(table_id, None)
            if table is not None:
                table.cancel()
            return False
        self.owned.add(table_id)
        await self.pubsub.subscribe(self.table_channel + table_id)
        return True

    async def take_over(self, table_id: str) -> bool:
        """Claim a table whose lease lapsed and rebuild it from the store; True when it is now served here.
        A table is owned (:meth:`owns`) only once it is rebuilt and in the manager: until then a socket or a
        request for it waits for the takeover under way (one per table), never meeting a half-made table."""
        if table_id in self.owned:
            return True
        if self.closing:
            return False
        pending = self.taking.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        if table_id in self.broken:
            return False
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.taking[table_id] = done
        try:
            taken = await self._take_over(table_id)
        finally:
            del self.taking[table_id]
            if not done.done():
                done.set_result(table_id in self.owned)
        return taken

    async def _take_over(self, table_id: str) -> bool:
        if not await self.redis.set(LEASE + table_id, self.node, nx=True, px=self.lease_ms):
            return False
        try:
            stored = await asyncio.to_thread(self.manager.store.load_one, table_id)
            if stored is None or stored.status not in ACTIVE:  # it ended meanwhile
                await self.release(keys=[LEASE + table_id], args=[self.node])
                return False
            table = self.manager._rebuild(stored)
        except Exception as e:
            log.error("table %s could not be taken over: %s", table_id, e)
            self.broken.add(table_id)
            return False
        self.manager.archived.pop(table_id, None)
        self.manager.tables[table_id] = table
        self.owned.add(table_id)
        await self.pubsub.subscribe(self.table_channel + table_id)
        table.schedule_bots()
        self.manager.table_changed(table)  # a ranked table's clock goes on here
        self.metrics.lease_changes.inc()
        log.info("table %s taken over by %s at action %d", table_id, self.node, len(table.state.history))
        return True

    def reload(self, table: GameTable) -> None:
        """``table`` found its next action stored already: another process played it meanwhile (this one's
        lease had lapsed unnoticed). This copy is dropped (its sockets reconnect), its lease given back, and
        the table taken over again from the store, here or by whichever process is first."""
        async def again() -> None:
            if self.manager.tables.get(table.id) is table:
                await self.drop(table.id)
            with contextlib.suppress(Exception):
                await self.release(keys=[LEASE + table.id], args=[self.node])
            await self.take_over(table.id)

        log.warning("table %s: a stale copy, reloaded from the store", table.id)
        task = asyncio.get_running_loop().create_task(again())
        self.requests.add(task)
        task.add_done_callback(self.requests.discard)

    async def drop(self, table_id: str) -> None:
        """Stop serving ``table_id`` here (its lease is lost or given back): its bots stop, its sockets close
        so that their pages reconnect to the owner."""
        self.owned.discard(table_id)
        with contextlib.suppress(Exception):
            await self.pubsub.unsubscribe(self.table_channel + table_id)
        table = self.manager.tables.pop(table_id, None)
        if table is not None:
            self.metrics.lease_changes.inc()
            table.cancel()
            for conn in list(table.conns):
                conn.close()

    async def round(self, settled: bool = True) -> None:
        """Renew this process's leases (dropping those lost) and take over the tables in play that have none;
        when ``settled``, only those made a lease ago or more: a process that makes a table claims it at once
        (adopt), and a sweep finding it in the store first would take it from its maker (a maker that died
        has its table taken over a lease later)."""
        kept = []
        for table_id in sorted(self.owned):
            table = self.manager.tables.get(table_id)
            if table is not None and table.status not in ACTIVE and not table.conns:
                self.manager.tables.pop(table_id, None)  # an ended table nobody watches: the store keeps it
                await self.release(keys=[LEASE + table_id], args=[self.node])
                self.owned.discard(table_id)
                with contextlib.suppress(Exception):
                    await self.pubsub.unsubscribe(self.table_channel + table_id)
            else:
                kept.append(table_id)
        self.beat = time.monotonic()
        if not self.queue_held and not self.closing:
            await self.hold_queue()
        made_before = time.time() - (self.lease_ms / 1000 if settled else 0.0)
        active = await asyncio.to_thread(self._active_ids, made_before)
        others = [t for t in active if t not in self.owned and t not in self.broken]
        if not others:
            return
        holders = await self.redis.mget([LEASE + t for t in others])
        for table_id, holder in zip(others, holders, strict=True):
            if holder is None:
                await self.take_over(table_id)

    def _renew_leases(self) -> None:
        """In a thread of its own, every second: renew this process's leases, all in one Redis call. A busy
        event loop (seconds between its turns, as when every move waits for a slow database) keeps its tables;
        a dead process (its thread dies with it) or a loop stalled past LOOP_PATIENCE lets them lapse. A lease
        found another's is dropped, on the event loop."""
        import redis

        client = redis.Redis.from_url(self.redis_url, socket_timeout=ROUND_SECONDS * 2)
        renew = client.register_script(RENEW)
        try:
            while not self.stopped.wait(ROUND_SECONDS):
                mine = tuple(self.owned) + ((QUEUE,) if self.queue_held else ())
                if not mine or time.monotonic() - self.beat > LOOP_PATIENCE:
                    continue
                try:
                    renewed = renew(keys=[LEASE + t for t in mine], args=[self.node, self.lease_ms])
                except Exception:
                    log.exception("the table leases could not be renewed")
                    continue
                lost = [t for t, ok in zip(mine, renewed, strict=True) if not ok]
                if lost and self.loop is not None and not self.stopped.is_set():
                    self.loop.call_soon_threadsafe(self._lost, lost)
        finally:
            client.close()

    def _lost(self, lost: list[str]) -> None:
        task = asyncio.get_running_loop().create_task(self._drop_lost(lost))
        self.requests.add(task)
        task.add_done_callback(self.requests.discard)

    async def _drop_lost(self, lost: list[str]) -> None:
        for table_id in lost:  # looked at again: it may have been taken back meanwhile (a reload)
            holder = await self.redis.get(LEASE + table_id)
            if table_id == QUEUE:
                if holder is None or holder.decode() != self.node:
                    await self._let_queue_go()
                continue
            if table_id in self.owned and (holder is None or holder.decode() != self.node):
                log.warning("table %s: its lease was lost; it is served elsewhere now", table_id)
                await self.drop(table_id)

    def _active_ids(self, made_before: float) -> list[str]:
        query = select(tables_t.c.id).where(tables_t.c.status.in_(list(ACTIVE)), tables_t.c.quarantined.is_(None),
                                            tables_t.c.created < made_before)
        with self.manager.store.engine.connect() as conn:
            return [row[0] for row in conn.execute(query)]

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(ROUND_SECONDS)
            try:
                await self.round()
            except Exception:
                log.exception("the round of table leases failed")

    # --- messages ---------------------------------------------------------------------------------
    async def _listen(self) -> None:
        while True:
            try:
                async for item in self.pubsub.listen():
                    if item.get("type") != "message":
                        continue
                    channel = item["channel"].decode()
                    data = json.loads(item["data"])
                    if channel == self.bot_channel:
                        if self.on_bot_event is not None:
                            self.on_bot_event(int(data["account"]), data["event"])
                    elif channel.startswith(self.node_channel):
                        box = self.relayed.get(data.get("conn", ""))
                        if box is not None:
                            with contextlib.suppress(asyncio.QueueFull):
                                box.inbox.put_nowait(data)
                    else:
                        await self._at_owner(channel[len(self.table_channel):], data)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the relay listener failed; it starts again")
                await asyncio.sleep(0.2)

    def tell_bot(self, account_id: int, event: dict[str, Any]) -> None:
        """Publish a bot's event to every process (this one too), from the event loop or any thread."""
        text = json.dumps({"account": account_id, "event": event}, separators=(",", ":"))
        if self.loop is None or self.bot_outbox is None:  # not started: nobody elsewhere can be listening
            if self.on_bot_event is not None:
                self.on_bot_event(account_id, event)
            return
        self.loop.call_soon_threadsafe(self.bot_outbox.put_nowait, text)

    async def _publish_bot_events(self) -> None:
        assert self.bot_outbox is not None
        while True:
            text = await self.bot_outbox.get()
            try:
                await self.redis.publish(self.bot_channel, text)
            except Exception:
                log.exception("a bot's event could not be published")

    async def _send(self, node: str, message: dict[str, Any]) -> int:
        return int(await self.redis.publish(self.node_channel + node, json.dumps(message, separators=(",", ":"))))

    async def _at_owner(self, table_id: str, data: dict[str, Any]) -> None:
        """A relay's message for a table of this process."""
        op, cid, node = data.get("op"), str(data.get("conn", "")), str(data.get("node", ""))
        table = self.manager.tables.get(table_id)
        if op == "open":
            if table is None or table_id not in self.owned:
                return  # not (or no longer) ours: the relay asks again, and finds the owner
            bot = data.get("bot")
            try:
                token = data.get("token")
                seat = table.seat_of_token(token) if token else self._bot_seat(table, bot, data.get("seat"))
            except TableError as e:
                await self._send(node, {"conn": cid, "op": "refused", "message": str(e),
                                        "code": 4404 if e.status == 404 else 4403})
                return
            if seat is None and table.spectators() >= self.max_spectators:
                await self._send(node, {"conn": cid, "op": "refused", "code": 1013,
                                        "message": "this table has too many spectators; try again later"})
                return
            if seat is not None:
                table.make_room_for_seat(seat, self.room_for_seat)
            conn = Connection(seat) if bot is None or seat is None else BotConnection(table, seat)
            pump = asyncio.create_task(self._pump(node, cid, conn))
            self.remote[cid] = (table_id, conn, self.limiter(), pump)
            await self._send(node, {"conn": cid, "op": "opened", "seat": seat})
            table.attach(conn)
        elif op == "msg":
            got = self.remote.get(cid)
            if got is None or table is None:
                await self._send(node, {"conn": cid, "op": "closed"})
                return
            _, conn, limiter, _ = got
            arrived = float(data.get("at", time.time()))
            # answered in a task of its own, after the socket's earlier messages: a move waiting for its
            # commit holds neither the other tables' messages nor this listener
            task = asyncio.create_task(self._answer(self.answering.get(cid), table, conn, limiter,
                                                    str(data.get("raw", "")), arrived))
            self.answering[cid] = task
            self.requests.add(task)
            task.add_done_callback(functools.partial(self._answered, cid))
        elif op == "http":
            if (table_id in self.owned or (table_id == QUEUE and self.queue_held)) and self.app is not None:
                task = asyncio.create_task(self._request(node, cid, data))
                self.requests.add(task)
                task.add_done_callback(self.requests.discard)
        elif op == "close":
            got = self.remote.pop(cid, None)
            if got is not None:
                if table is not None:
                    table.detach(got[1])
                got[1].close()

    async def _answer(self, before: asyncio.Task[None] | None, table: GameTable, conn: Connection, limiter: Any,
                      raw: str, arrived: float) -> None:
        """A relayed socket's message, answered once the socket's message ``before`` it has been."""
        if before is not None:
            await asyncio.wait({before})
        reply = await self.handle(table, conn, raw, limiter)
        if reply is not None:
            if reply["type"] == "ack":
                self.metrics.latency.observe(max(0.0, time.time() - arrived))
            conn.push(reply)

    def _answered(self, cid: str, task: asyncio.Task[None]) -> None:
        self.requests.discard(task)
        if self.answering.get(cid) is task:
            del self.answering[cid]
    @staticmethod
    def _bot_seat(table: GameTable, bot: Any, seat: Any) -> int | None:
        """The seat a bot's game stream relayed here follows (the relay found it linked to the bot's account;
        it is checked again against the table as it is here); None for a spectator."""
        if bot is None:
            return None
        if type(seat) is not int or not 0 <= seat < len(table.seats) or table.seats[seat].name != bot \
                or table.seats[seat].token_hash is None:
            raise TableError(f"the bot {bot} holds no seat at table {table.id}"[:120], 403)
        return seat

    async def _pump(self, node: str, cid: str, conn: Connection) -> None:
        """The owner's messages for one relayed socket, to its relay."""
        try:
            while True:
                msg = await conn.queue.get()
                if msg is None or conn.closed:
                    break
                if not await self._send(node, {"conn": cid, "msg": msg}):
                    break  # the relay is gone
        finally:
            got = self.remote.pop(cid, None)
            if got is not None:
                table = self.manager.tables.get(got[0])
                if table is not None:
                    table.detach(conn)
            conn.close()
            with contextlib.suppress(Exception):
                await self._send(node, {"conn": cid, "op": "closed"})

    # --- the relay side ---------------------------------------------------------------------------
    async def relay(self, ws: Any, table_id: str, token: str | None) -> bool:
        """Serve a socket (its hello read) whose table is in play and owned by another process, by relaying;
        False when this process owns the table after all (it took it over) or it is not in play, so that it
        is served here."""
        cid = secrets.token_hex(8)
        box = self.relayed[cid] = Relayed()
        try:
            owner = await self._open(table_id, cid, token, box)
            if owner is None:
                return False
            if isinstance(owner, dict):  # refused by the owner
                await ws.send_json({"type": "error", "message": owner.get("message", ""), "fatal": True})
                await ws.close(code=int(owner.get("code", 4403)))
                return True
            await self._carry(ws, table_id, cid, owner, box)
            return True
        finally:
            self.relayed.pop(cid, None)

    async def follow(self, table_id: str, seat: int, bot: str, quiet: float
                     ) -> AsyncGenerator[dict[str, Any] | None, None] | dict[str, Any] | None:
        """Open a bot's game stream of a table in play owned by another process, as a socket of the bot's
        ``seat`` there: the owner's messages to it (see :meth:`_follow`), the owner's refusal, or None when
        this process serves the table after all (it took it over) or it is not in play."""
        cid = secrets.token_hex(8)
        box = self.relayed[cid] = Relayed()
        owner: str | dict[str, Any] | None = None
        try:
            owner = await self._open(table_id, cid, None, box, {"bot": bot, "seat": seat})
        finally:
            if not isinstance(owner, str):
                self.relayed.pop(cid, None)
        if not isinstance(owner, str):
            return owner
        return self._follow(table_id, cid, owner, box, quiet)

    async def _follow(self, table_id: str, cid: str, owner: str, box: Relayed, quiet: float
                      ) -> AsyncGenerator[dict[str, Any] | None, None]:
        """The owner's messages to a relayed bot's seat, None after each ``quiet`` seconds without one, until
        the owner closes it or the table changes owner (the bot then opens its stream again)."""
        said = checked = time.monotonic()
        try:
            while True:
                try:
                    item = await asyncio.wait_for(box.inbox.get(), min(quiet, ROUND_SECONDS))
                except TimeoutError:
                    item = None
                now = time.monotonic()
                if item is not None and "msg" in item:
                    said = now
                    yield item["msg"]
                elif item is not None and item.get("op") == "closed":
                    return
                elif now - said >= quiet:
                    said = now
                    yield None
                if now - checked >= ROUND_SECONDS:
                    checked = now
                    holder = await self.redis.get(LEASE + table_id)
                    if holder is None or holder.decode() != owner:
                        return
        finally:
            self.relayed.pop(cid, None)
            with contextlib.suppress(Exception):
                await self.redis.publish(self.table_channel + table_id,
                                         json.dumps({"op": "close", "node": self.node, "conn": cid}))

    async def forward(self, table_id: str, request: dict[str, Any]) -> dict[str, Any] | None:
        """Run an HTTP request for a table owned by another process there: its answer (status, headers,
        body), or None when this process serves the table after all (it took it over) or it is not in play."""
        cid = secrets.token_hex(8)
        box = self.relayed[cid] = Relayed()
        try:
            give_up = time.monotonic() + RELAY_PATIENCE
            while time.monotonic() < give_up:
                holder = await self.redis.get(LEASE + table_id)
                if table_id == QUEUE and (holder is None or holder.decode() == self.node):
                    if await self.hold_queue():
                        return None  # the queue is held here now
                    await asyncio.sleep(0.1)
                    continue
                if holder is None or holder.decode() == self.node:
                    stored = await asyncio.to_thread(self.manager.store.load_one, table_id)
                    if stored is None or stored.status not in ACTIVE or await self.take_over(table_id):
                        return None
                    await asyncio.sleep(0.2)
                    continue
                ask = {**request, "op": "http", "node": self.node, "conn": cid}
                if await self.redis.publish(self.table_channel + table_id, json.dumps(ask)):
                    with contextlib.suppress(TimeoutError):
                        return dict(await asyncio.wait_for(box.inbox.get(), RELAY_PATIENCE))
                else:
                    await asyncio.sleep(0.3)
            return {"status": 503, "headers": [["content-type", "application/json"], ["retry-after", "2"]],
                    "body": base64.b64encode(b'{"error": "the table\'s server does not answer; try again"}').decode()}
        finally:
            self.relayed.pop(cid, None)

    async def _request(self, node: str, cid: str, data: dict[str, Any]) -> None:
        """A relayed HTTP request, run through this process's app; its answer sent back to the relay."""
        body = base64.b64decode(data.get("body", ""))
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": data["method"],
                 "scheme": data.get("scheme", "http"), "path": data["path"], "raw_path": data["path"].encode(),
                 "query_string": data.get("query", "").encode(), "root_path": "",
                 "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in data.get("headers", [])],
                 "client": tuple(data["client"]) if data.get("client") else None,
                 "server": tuple(data["server"]) if data.get("server") else None}
        sent = False
        answer: dict[str, Any] = {"conn": cid, "op": "answer", "status": 500, "headers": [], "body": ""}
        chunks: list[bytes] = []

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            await asyncio.sleep(3600)
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
                answer["headers"] = [[k.decode("latin-1"), v.decode("latin-1")] for k, v in message["headers"]]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        try:
            await self.app(scope, receive, send)
        except Exception:
            log.exception("a relayed request %s %s failed", data.get("method"), data.get("path"))
        answer["body"] = base64.b64encode(b"".join(chunks)).decode()
        await self._send(node, answer)

    async def _open(self, table_id: str, cid: str, token: str | None, box: Relayed,
                    bot: dict[str, Any] | None = None) -> str | dict[str, Any] | None:
        """Open the relayed connection at the table's owner (a bot's seat: ``bot`` gives its name and seat):
        its node id, its refusal, or None when the table is to be served here."""
        give_up = time.monotonic() + RELAY_PATIENCE
        while time.monotonic() < give_up:
            holder = await self.redis.get(LEASE + table_id)
            if holder is None:
                stored = await asyncio.to_thread(self.manager.store.load_one, table_id)
                if stored is None or stored.status not in ACTIVE:
                    return None  # not in play (or no such table): shown from the store here
                if await self.take_over(table_id) or table_id in self.owned:
                    return None
                await asyncio.sleep(0.2)
                continue
            owner = str(holder.decode())
            if owner == self.node:
                if await self.take_over(table_id):  # ours, or being taken over here: served here once it is
                    return None
                await asyncio.sleep(0.2)
                continue
            hello = {"op": "open", "node": self.node, "conn": cid, "token": token, **(bot or {})}
            if await self.redis.publish(self.table_channel + table_id, json.dumps(hello)):
                try:
                    reply = await asyncio.wait_for(box.inbox.get(), OPEN_TIMEOUT)
                except TimeoutError:
                    continue
                if reply.get("op") == "opened":
                    return owner
                if reply.get("op") == "refused":
                    return dict(reply)
                continue
            await asyncio.sleep(0.3)  # its owner died, or has not subscribed yet: the lease will tell
        return {"message": "the table's server does not answer; reconnecting", "code": 1012}

    async def _carry(self, ws: Any, table_id: str, cid: str, owner: str, box: Relayed) -> None:
        """Carry frames both ways until the socket closes, the owner closes it, or the owner changes."""
        channel = self.table_channel + table_id

        async def up() -> None:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    return
                raw = frame.get("text")
                if raw is None:
                    raw = "\x00binary"  # refused at the owner like any non-JSON message
                msg = {"op": "msg", "node": self.node, "conn": cid, "raw": raw[:8192], "at": time.time()}
                if not await self.redis.publish(channel, json.dumps(msg)):
                    return  # nobody owns the table now

        async def down() -> None:
            while True:
                item = await box.inbox.get()
                if "msg" in item:
                    await ws.send_text(json.dumps(item["msg"], separators=(",", ":")))
                elif item.get("op") == "closed":
                    return

        async def watch() -> None:
            while True:
                await asyncio.sleep(ROUND_SECONDS)
                holder = await self.redis.get(LEASE + table_id)
                if holder is None or holder.decode() != owner:
                    return

        tasks = [asyncio.create_task(x) for x in (up(), down(), watch())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            with contextlib.suppress(Exception):
                await self.redis.publish(channel, json.dumps({"op": "close", "node": self.node, "conn": cid}))
            with contextlib.suppress(Exception):
                await ws.close(code=1012)  # the page reconnects: to the new owner, through any process


# the requests about one table: the table's own, and a bot's moves, resignation and Next hand at it (and the
# worlds a bot asks for, read from the table in play)
TABLE_PATH = re.compile(r"^/api/(?:tables|bot/game)/([A-Za-z0-9_-]{1,32})(/.*)?$")
WORLD_PATH = re.compile(r"^/api/bot/game/[A-Za-z0-9_-]{1,32}/world$")
# the bot API's requests that may seat a bot at an open table: a challenge inviting it there, the acceptance of
# such a challenge, a bot seated by its owner (Cluster.table_of tells the table)
SEATING_PATH = re.compile(r"^/api/(?:challenge/[^/]{1,40}|bot/challenge/[A-Za-z0-9_-]{1,16}/accept|"
                          r"bot/accounts/[^/]{1,40}/seat)$")
MAX_RELAYED_BODY = 65536


class RelayRequests:
    """ASGI middleware: a request that changes a table (anything but GET) played by another process is run
    there; everything else goes on to the app here."""

    def __init__(self, app: Any, cluster: Cluster) -> None:
        self.app = app
        self.cluster = cluster

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        key: str | None = None
        if PLAY_PATH.match(path):  # every request of the play queue, its polls too, is served by its holder
            key = None if self.cluster.queue_held else QUEUE
        elif (m := TABLE_PATH.match(path)) and not self.cluster.owns(m[1]) and (
                scope["method"] not in ("GET", "HEAD", "OPTIONS") or WORLD_PATH.match(path)):
            key = m[1]
        seating = key is None and self.cluster.table_of is not None and scope["type"] == "http" \
            and scope["method"] == "POST" and SEATING_PATH.match(path) is not None
        if (key is None and not seating) or self.cluster.pubsub is None:
            await self.app(scope, receive, send)
            return
        chunks, size = [], 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > MAX_RELAYED_BODY:
                break
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        if seating and size <= MAX_RELAYED_BODY and self.cluster.table_of is not None:
            table = await asyncio.to_thread(self.cluster.table_of, path, body)
            key = table if table is not None and not self.cluster.owns(table) else None
        request = {"method": scope["method"], "scheme": scope.get("scheme", "http"), "path": scope["path"],
                   "query": scope.get("query_string", b"").decode("latin-1"),
                   "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope.get("headers", [])],
                   "client": list(scope["client"]) if scope.get("client") else None,
                   "server": list(scope["server"]) if scope.get("server") else None,
                   "body": base64.b64encode(body).decode()}
        answer = None if size > MAX_RELAYED_BODY or key is None else await self.cluster.forward(key, request)
        if answer is None:  # served here after all: the body read is given to the app again
            replayed = False

            async def again() -> dict[str, Any]:
                nonlocal replayed
                if not replayed:
                    replayed = True
                    return {"type": "http.request", "body": body, "more_body": False}
                return dict(await receive())

            await self.app(scope, again, send)
            return
        await send({"type": "http.response.start", "status": int(answer["status"]),
                    "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in answer["headers"]]})
        await send({"type": "http.response.body", "body": base64.b64decode(answer["body"])})
