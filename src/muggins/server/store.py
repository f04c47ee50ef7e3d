"""Persistence with SQLAlchemy Core: one row per table (the record's envelope) and an append-only
actions table. Every action is committed, together with any chance outcomes it drew, before the
server acknowledges it, so a restarted server resumes each table at its last acknowledged action.

Finished and abandoned tables stay in the database (the archive) and are read back one at a time when
somebody asks for one; a server starts with the tables still in play only."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    inspect,
    or_,
    select,
    text,
    type_coerce,
    update,
)
from sqlalchemy.exc import IntegrityError, OperationalError, SQLAlchemyError

from muggins.server import migrations

log = logging.getLogger("muggins.server")
FAULTS_ENV = "MUGGINS_FAULTS"
metadata = MetaData()

tables_t = Table(
    "game_tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("preset", String(64), nullable=True),
    Column("options", JSON, nullable=False),
    Column("num_players", Integer, nullable=False),
    Column("seed", String(40), nullable=False),  # a string: 64-bit seeds overflow some integer columns
    Column("grace", Float, nullable=False),
    Column("bot_delay", Float, nullable=False),
    Column("seats", JSON, nullable=False),       # [{"name", "bot", "token_hash"}]
    Column("chance", Text, nullable=False),      # JSON list of every chance outcome drawn so far
    Column("status", String(16), nullable=False),  # open, playing, finished or abandoned
    Column("created", Float, nullable=False),
    # added later (an older database gains them at start, empty): see _add_columns
    Column("creator_hash", String(64), nullable=True),  # the hash of the token that may remove the table
    Column("names", Text, nullable=True),        # the players' names, lower case, one a line: for search
    Column("result", Text, nullable=True),       # JSON {"scores", "winners", "actions"} once it ended
    Column("ended", Float, nullable=True),       # when it finished or was abandoned
    Column("hints", Boolean, nullable=True),     # the seat to act may ask for a hint (null: off)
    Column("quarantined", Text, nullable=True),  # why its stored data cannot be resumed (null: it can)
    # revision 0003: what kind of table it is, as an object (null: a casual table), e.g. {"rated": true}
    Column("meta", JSON, nullable=True),
)
status_index = Index("game_tables_status", tables_t.c.status, tables_t.c.ended)
ADDED_COLUMNS = ("creator_hash", "names", "result", "ended", "hints", "quarantined")

actions_t = Table(
    "game_actions", metadata,
    Column("table_id", String(32), ForeignKey("game_tables.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("move", String(200), nullable=False),
    Column("claim", Integer, nullable=True),
)

# accounts (revision 0002): a player's name and password hash, his login sessions (a token's hash each),
# and the seats he took while logged in (the seat comes back to him on any device)
accounts_t = Table(
    "accounts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("username", String(20), nullable=False),               # as the player wrote it
    Column("username_key", String(20), nullable=False, unique=True),  # casefolded: names are unique in any case
    Column("password_hash", String(255), nullable=False),         # argon2id, with its parameters
    Column("created", Float, nullable=False),
    # revision 0003: "person", "bot" (an outside program playing through the bot API, owned by a person's
    # account) or "house" (a built-in bot level holding a rating)
    Column("kind", String(8), nullable=False, server_default="person"),
    Column("owner_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True),
)
sessions_t = Table(
    "account_sessions", metadata,
    Column("token_hash", String(64), primary_key=True),           # sha256 of the cookie's random token
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
)
seat_owners_t = Table(
    "seat_owners", metadata,
    Column("table_id", String(32), ForeignKey("game_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
)

# ratings (revision 0003): an account's rating per game family ("dominoes", "card-muggins", "cribbage"),
# and every change of it, with the table whose end changed it
ratings_t = Table(
    "ratings", metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("family", String(16), primary_key=True),
    Column("rating", Float, nullable=False),       # the displayed rating
    Column("deviation", Float, nullable=False),    # its uncertainty ("?" while provisional)
    Column("mu", Float, nullable=False),           # the rating library's own figures
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)
rating_history_t = Table(
    "rating_history", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("family", String(16), nullable=False),
    Column("table_id", String(32), nullable=False),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("at", Float, nullable=False),
)

# --- ratings and profiles (revision 0004) ---
# every ended table the ratings looked at, once: rated (its outcome) or not (why not); a table listed here is
# never rated again, after a restart too
rated_tables_t = Table(
    "rated_tables", metadata,
    Column("table_id", String(32), ForeignKey("game_tables.id"), primary_key=True),
    Column("family", String(16), nullable=True),
    Column("outcome", String(16), nullable=False),  # finished, resigned, abandoned, or "unrated"
    Column("note", String(200), nullable=True),     # why it was not rated
    Column("at", Float, nullable=False),
)


# --- quick and ranked play (revision 0005) ---
# the clock of each ranked table: each seat's bank of seconds left and how many of its moves the clock
# made (a table without a row has full banks)
clocks_t = Table(
    "table_clocks", metadata,
    Column("table_id", String(32), ForeignKey("game_tables.id"), primary_key=True),
    Column("banks", JSON, nullable=False),      # [seconds] per seat
    Column("timeouts", JSON, nullable=False),   # [moves made by the clock] per seat
    Column("updated", Float, nullable=False),
)


# --- the bot API (revision 0006) ---
# the tokens of the bot accounts: a random secret shown once, kept as its SHA-256; its scopes, a label its
# owner gave it, and when it was made and last used. A revoked token's row is deleted.
bot_tokens_t = Table(
    "bot_tokens", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("scopes", String(100), nullable=False),
    Column("label", String(40), nullable=False),
    Column("created", Float, nullable=False),
    Column("last_used", Float, nullable=True),
)


# --- the daily deal (revision 0007) ---
# the server's key that seeds the deals (one row, made at random when first needed), the deal of each day
# and game, and each player's game of it: in play, then its result (scores, margin against the bot, won)
daily_keys_t = Table(
    "daily_keys", metadata,
    Column("id", Integer, primary_key=True),
    Column("key", String(64), nullable=False),         # hex of 32 random bytes
    Column("created", Float, nullable=False),
)
daily_deals_t = Table(
    "daily_deals", metadata,
    Column("day", String(10), primary_key=True),       # YYYY-MM-DD, UTC
    Column("game", String(64), primary_key=True),
    Column("preset", String(64), nullable=False),
    Column("options", JSON, nullable=False),
    Column("level", String(32), nullable=False),        # the bot everybody plays against
    Column("seed", String(40), nullable=False),
    Column("created", Float, nullable=False),
)
daily_results_t = Table(
    "daily_results", metadata,
    Column("day", String(10), primary_key=True),
    Column("game", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("table_id", String(32), ForeignKey("game_tables.id"), nullable=False),
    Column("status", String(16), nullable=False),      # playing, then the table's end: finished, resigned, abandoned
    Column("score", Integer, nullable=True),            # the player's points, the bot's, and the difference
    Column("opponent", Integer, nullable=True),
    Column("margin", Integer, nullable=True),
    Column("won", Boolean, nullable=True),
    Column("started", Float, nullable=False),
    Column("ended", Float, nullable=True),
    Index("ix_daily_results_table_id", "table_id", unique=True),
)

# --- the bot API's challenges (revision 0008) ---
# each challenge until it is answered and a while after (so that any process of the site answers for it):
# who made it (an account, a person's or a bot's), to whom (a bot account, or a built-in level), the game
challenges_t = Table(
    "challenges", metadata,
    Column("id", String(16), primary_key=True),
    Column("challenger_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("challenger_name", String(20), nullable=False),
    Column("challenger_kind", String(8), nullable=False),   # "person" or "bot"
    Column("dest", String(20), nullable=False),             # the bot account's name, or a built-in level
    Column("dest_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True, index=True),
    Column("game", String(64), nullable=False),
    Column("preset", String(64), nullable=True),
    Column("options", JSON, nullable=False),
    Column("players", Integer, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("bots", JSON, nullable=False),                   # built-in levels for the other seats
    Column("table_id", String(32), nullable=True),          # the open table invited to, or the table made
    Column("status", String(16), nullable=False),           # created, accepted, declined, canceled
    Column("created", Float, nullable=False, index=True),
)


# the columns as read back: JSON ones as they are stored, parsed one row at a time (see Store._stored),
# so that one row that is not JSON cannot stop the reading of the others
_READ_COLUMNS = [type_coerce(c, Text).label(c.name) if isinstance(c.type, JSON) else c for c in tables_t.c]

ACTIVE = ("open", "playing")
ENDED = ("finished", "abandoned", "resigned")


class DamagedRow(Exception):
    """A stored table whose row cannot be read back (a field of the wrong type, text that is not JSON)."""


class StoreUnavailable(Exception):
    """A write the database did not take, even retried on a fresh connection: nothing of it was kept."""


class StoreConflict(Exception):
    """A write refused because what it adds is stored already (an action at an index another process
    wrote first): the database answers, the writer's copy of the table is stale. Nothing of it was kept."""


def faults_from_env(value: str | None = None) -> Callable[[], None] | None:
    """The fault injected into every store write, from MUGGINS_FAULTS (read once, when the server
    starts; for tests of the server's resilience): ``store_down_file=PATH`` makes each write fail while
    the file PATH exists. None when the variable is empty; ValueError for anything else."""
    value = os.environ.get(FAULTS_ENV, "") if value is None else value
    if not value.strip():
        return None
    key, _, path = value.strip().partition("=")
    if key != "store_down_file" or not path:
        raise ValueError(f"{FAULTS_ENV}={value!r}: the one fault known is store_down_file=PATH")

    def store_down() -> None:
        if os.path.exists(path):
            raise OperationalError("write", None, OSError(f"the store is down while {path} exists"))

    return store_down


@dataclass
class StoredTable:
    """A table as read back from the database."""

    id: str
    game: str
    preset: str | None
    options: dict[str, Any]
    num_players: int
    seed: int
    grace: float
    bot_delay: float
    seats: list[dict[str, Any]]
    chance: list[dict[str, Any]]
    status: str
    created: float
    actions: list[dict[str, Any]]
    creator_hash: str | None = None
    result: dict[str, Any] | None = None
    ended: float | None = None
    hints: bool = False
    meta: dict[str, Any] | None = None  # what kind of table (rated, daily, clock...); None: casual


def names_of(seats: list[dict[str, Any]]) -> str:
    """The searchable text of a table's players: every name, lower case, one a line."""
    return "\n".join(str(s["name"]).lower() for s in seats if s.get("name"))


def default_url() -> str:
    """A SQLite file in the user's data directory."""
    from platformdirs import user_data_dir

    path = Path(user_data_dir("muggins", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path / 'muggins.db'}"


def _like(q: str) -> str:
    """``q`` as a LIKE pattern matching it anywhere, its own wildcards taken literally."""
    return "%" + q.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


MAX_BATCH = 64  # writes committed together at most by a writer thread


@dataclass
class QueuedWrite:
    """A write waiting for a writer thread: its statements (run inside a transaction) and its outcome."""

    what: str
    work: Callable[[Any], None]
    done: Future[None]


def _in_transaction(work: Callable[[Any], None]) -> Callable[[Any], None]:
    def run(conn: Any) -> None:
        with conn.begin():
            work(conn)

    return run


class Store:
    """Access to the database; every write is its own committed transaction. The writes are synchronous,
    but for :meth:`append_action_async`: its write is queued for the store's writer threads, so that the
    event loop goes on while the database commits. A writer thread commits the writes queued meanwhile
    together, in one transaction (the commit's wait, not the statements, is most of a write's cost); when
    that transaction fails, each of them is written alone, and fails or not by itself."""

    def __init__(self, url: str) -> None:
        self.url = url
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        # a pooled connection is tested before use: one left stale by a database restart is replaced
        self.engine: Engine = create_engine(url, pool_pre_ping=True, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        # a database made before migrations first gains the columns added by hand since, so that it is
        # exactly the first revision; then every database is upgraded in place to the newest one
        self._add_columns()
        if inspect(self.engine).has_table("game_tables"):
            status_index.create(self.engine, checkfirst=True)  # an older database's table gains it too
        migrations.upgrade(self.engine)
        # statements built once: building them per action costs more than the SQLite commit itself
        self._insert_action = insert(actions_t)
        self._set_status = (update(tables_t).where(tables_t.c.id == bindparam("tid"))
                            .values(status=bindparam("status")))
        self._set_status_chance = (update(tables_t).where(tables_t.c.id == bindparam("tid"))
                                   .values(status=bindparam("status"), chance=bindparam("chance")))
        self._set_end = (update(tables_t).where(tables_t.c.id == bindparam("tid"))
                         .values(status=bindparam("status"), result=bindparam("result"), ended=bindparam("ended")))
        self._writers: list[Any] = []  # every thread's writer connection, closed by close()
        self._local = threading.local()
        self._lock = threading.Lock()
        # SQLite takes one writer at a time: one thread; PostgreSQL commits several at once, each on its
        # own pooled connection (the pool keeps 5: the loop's own writer, readers and the lease's)
        self.write_threads = 1 if url.startswith("sqlite") else 3
        self._queue: queue.SimpleQueue[QueuedWrite | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._connect_writer()
        self.fault = faults_from_env()  # a fault injected before each write attempt (None: none)
        # after a write failed on a fresh connection too, writes are refused at once for this long: a
        # database that is down is not asked (nor reconnected to) for every move meanwhile
        self.retry_after = 1.0
        self._down_until = 0.0

    @property
    def _writer(self) -> Any:
        """This thread's writer connection (None after a failure, until the next write connects)."""
        return getattr(self._local, "conn", None)

    def _connect_writer(self) -> Any:
        conn = self.engine.connect()
        self._local.conn = conn
        with self._lock:
            self._writers.append(conn)
        return conn

    async def _queued(self, what: str, work: Callable[[Any], None]) -> None:
        """Queue the statements ``work`` for a writer thread; returns once they are committed, or raises
        StoreUnavailable / StoreConflict as :meth:`_write` would (nothing of them kept)."""
        if not self._threads:
            self._threads = [threading.Thread(target=self._writing, name=f"store-write-{i}", daemon=True)
                             for i in range(self.write_threads)]
            for t in self._threads:
                t.start()
        write = QueuedWrite(what, work, Future())
        self._queue.put(write)
        await asyncio.wrap_future(write.done)

    def _writing(self) -> None:
        """A writer thread: commits what is queued, the writes waiting together, until told to stop (None)."""
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < MAX_BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)  # for this thread's next round
                    break
                batch.append(more)
            # a write whose waiter was cancelled before it began is dropped, never committed: its caller
            # was told it did not happen; the others cannot be cancelled from here on
            batch = [w for w in batch if w.done.set_running_or_notify_cancel()]
            try:
                if batch:
                    self._commit(batch)
            except BaseException as e:  # the thread must outlive any one batch: every later write needs it
                log.exception("a writer thread failed on %d writes; they are reported as not saved", len(batch))
                for w in batch:
                    if not w.done.done():
                        w.done.set_exception(StoreUnavailable(f"the database did not take {w.what}: {e}"))

    def _commit(self, batch: list[QueuedWrite]) -> None:
        if len(batch) > 1 and time.monotonic() >= self._down_until:
            try:
                if self.fault is not None:
                    self.fault()
                conn = self._writer if self._writer is not None else self._connect_writer()
                with conn.begin():
                    for w in batch:
                        w.work(conn)
            except Exception as e:  # which write failed, and how, is found by writing each alone
                log.info("%d writes together were not taken (%s); each is written alone", len(batch), e)
            else:
                for w in batch:
                    w.done.set_result(None)
                return
        for w in batch:
            try:
                self._write(w.what, _in_transaction(w.work))
            except BaseException as e:
                w.done.set_exception(e)
            else:
                w.done.set_result(None)

    def _write(self, what: str, work: Callable[[Any], None]) -> None:
        """Run ``work`` on the writer connection; a failed write is tried once more on a fresh
        connection (the pool emptied first), then StoreUnavailable, and so is every write for the next
        :attr:`retry_after` seconds. A write the database refuses as stored already is StoreConflict at once."""
        if time.monotonic() < self._down_until:
            raise StoreUnavailable(f"the database did not take {what}: it did not answer a moment ago")
        for attempt in (1, 2):
            try:
                if self.fault is not None:
                    self.fault()
                work(self._writer if self._writer is not None else self._connect_writer())
                return
            except IntegrityError as e:  # the database answered: no outage, nothing to try again
                raise StoreConflict(f"the database refused {what}: it is stored already") from e
            except (SQLAlchemyError, OSError) as e:
                log.warning("the database did not take %s (attempt %d of 2): %s", what, attempt, e)
                self._reset()
                if attempt == 2:
                    self._down_until = time.monotonic() + self.retry_after
                    raise StoreUnavailable(f"the database did not take {what}") from e

    def _reset(self) -> None:
        """Drop this thread's writer connection and every pooled one: the next write connects afresh."""
        conn = self._writer
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()
            self._local.conn = None
            with self._lock:
                self._writers.remove(conn)
        with contextlib.suppress(Exception):
            self.engine.dispose()

    def _add_columns(self) -> None:
        """A database made before the archive columns existed gains them (empty), and the search text of
        its tables is filled in."""
        insp = inspect(self.engine)
        if not insp.has_table("game_tables"):
            return
        have = {c["name"] for c in insp.get_columns("game_tables")}
        missing = [c for c in ADDED_COLUMNS if c not in have]
        if not missing:
            return
        with self.engine.begin() as conn:
            for name in missing:
                kind = tables_t.c[name].type.compile(dialect=self.engine.dialect)
                conn.execute(text(f"ALTER TABLE game_tables ADD COLUMN {name} {kind}"))
            rows = conn.execute(select(tables_t.c.id, type_coerce(tables_t.c.seats, Text))).all()
            for tid, seats in rows:
                try:
                    names = names_of(list(_json(seats)))
                except (ValueError, TypeError, KeyError, AttributeError):
                    continue  # a damaged row: quarantined when the server loads it
                conn.execute(update(tables_t).where(tables_t.c.id == tid).values(names=names))

    def close(self) -> None:
        for _ in self._threads:
            self._queue.put(None)
        for t in self._threads:
            t.join()
        self._threads = []
        with self._lock:
            writers, self._writers = self._writers, []
        for conn in writers:
            with contextlib.suppress(Exception):
                conn.close()
        self.engine.dispose()

    @staticmethod
    def _row(t: StoredTable) -> dict[str, Any]:
        return {"id": t.id, "game": t.game, "preset": t.preset, "options": t.options, "num_players": t.num_players,
                "seed": str(t.seed), "grace": t.grace, "bot_delay": t.bot_delay, "seats": t.seats,
                "chance": json.dumps(t.chance), "status": t.status, "created": t.created,
                "creator_hash": t.creator_hash, "names": names_of(t.seats),
                "result": json.dumps(t.result) if t.result is not None else None, "ended": t.ended,
                "hints": t.hints, "meta": t.meta}

    def create_table(self, t: StoredTable) -> None:
        self.create_tables([t])

    def create_tables(self, tables: Iterable[StoredTable]) -> None:
        """Several tables (with their actions) in one transaction."""
        tables = list(tables)
        rows = [self._row(t) for t in tables]
        acts = [{"table_id": t.id, "idx": i, "seat": a["seat"], "move": a["move"], "claim": a.get("claim")}
                for t in tables for i, a in enumerate(t.actions)]

        def work(conn: Any) -> None:
            with conn.begin():
                conn.execute(insert(tables_t), rows)
                if acts:
                    conn.execute(insert(actions_t), acts)

        self._write("the new table", work)

    def update_seats(self, table_id: str, seats: list[dict[str, Any]], status: str) -> None:
        def work(conn: Any) -> None:
            with conn.begin():
                conn.execute(update(tables_t).where(tables_t.c.id == table_id)
                             .values(seats=seats, status=status, names=names_of(seats)))

        self._write("the seats", work)

    def append_action(self, table_id: str, idx: int, seat: int, move: str, claim: int | None,
                      chance: list[dict[str, Any]] | None, status: str | None,
                      result: dict[str, Any] | None = None, ended: float | None = None) -> None:
        """One transaction: the action, plus the chance outcomes when it drew new ones, plus the status
        when it changed (None: unchanged), plus the result when the game ended with it."""
        self._write("the move", _in_transaction(
            self._action_work(table_id, idx, seat, move, claim, chance, status, result, ended)))

    async def append_action_async(self, table_id: str, idx: int, seat: int, move: str, claim: int | None,
                                  chance: list[dict[str, Any]] | None, status: str | None,
                                  result: dict[str, Any] | None = None, ended: float | None = None) -> None:
        """:meth:`append_action` by a writer thread, perhaps together with other tables' writes; returns
        once it is committed."""
        await self._queued("the move", self._action_work(table_id, idx, seat, move, claim, chance, status,
                                                         result, ended))

    def _action_work(self, table_id: str, idx: int, seat: int, move: str, claim: int | None,
                     chance: list[dict[str, Any]] | None, status: str | None,
                     result: dict[str, Any] | None, ended: float | None) -> Callable[[Any], None]:
        """The statements that store an action (see :meth:`append_action`), to run in a transaction."""
        def work(conn: Any) -> None:
            conn.execute(self._insert_action,
                         {"table_id": table_id, "idx": idx, "seat": seat, "move": move, "claim": claim})
            if chance is None:
                if status is not None:
                    conn.execute(self._set_status, {"tid": table_id, "status": status})
            else:
                conn.execute(self._set_status_chance,
                             {"tid": table_id, "status": status or "playing", "chance": json.dumps(chance)})
            if result is not None:
                conn.execute(self._set_end, {"tid": table_id, "status": status, "result": json.dumps(result),
                                             "ended": ended})

        return work

    def end_table(self, table_id: str, status: str, result: dict[str, Any], ended: float) -> None:
        """Mark a table ended (``abandoned``) with its result so far."""
        def work(conn: Any) -> None:
            with conn.begin():
                conn.execute(self._set_end, {"tid": table_id, "status": status, "result": json.dumps(result),
                                             "ended": ended})

        self._write("the end of the table", work)

    def _read(self, conn: Any, where: Any, damaged: list[tuple[str, str]] | None = None) -> list[StoredTable]:
        """The tables matching ``where`` with their actions. A row that cannot be read is left out and
        listed in ``damaged`` (its id, and why) when given; without it, DamagedRow is raised."""
        rows = conn.execute(select(*_READ_COLUMNS).where(where).order_by(tables_t.c.created)).mappings().all()
        if not rows:
            return []
        ids = [r["id"] for r in rows]
        acts: dict[str, list[dict[str, Any]]] = {}
        for i in range(0, len(ids), 500):  # bounded IN lists
            q = (select(actions_t).where(actions_t.c.table_id.in_(ids[i:i + 500]))
                 .order_by(actions_t.c.table_id, actions_t.c.idx))
            for a in conn.execute(q).mappings():
                entry: dict[str, Any] = {"seat": a["seat"], "move": a["move"]}
                if a["claim"] is not None:
                    entry["claim"] = a["claim"]
                acts.setdefault(a["table_id"], []).append(entry)
        out = []
        for r in rows:
            try:
                out.append(self._stored(r, acts.get(r["id"], [])))
            except DamagedRow as e:
                if damaged is None:
                    raise
                damaged.append((r["id"], str(e)))
        return out

    @staticmethod
    def _stored(r: Any, actions: list[dict[str, Any]]) -> StoredTable:
        """The table of a row; DamagedRow names the field that cannot be read. A ``result`` that cannot be
        read is left out (the summary of an ended game shows no scores) rather than hiding the game."""
        field = "id"
        try:
            field = "options"
            options = _typed(_json(r["options"]), dict, "an object")
            field = "seed"
            seed = int(r["seed"])
            field = "seats"
            seats = list(_json(r["seats"]))
            if not all(isinstance(x, dict) for x in seats):
                raise TypeError("each seat must be an object")
            field = "chance"
            chance = _typed(_json(r["chance"]), list, "a list")
            field = "num_players"
            num_players = int(r["num_players"])
        except (ValueError, TypeError) as e:
            raise DamagedRow(f"its {field} cannot be read: {e}"[:300]) from None
        result: Any = None
        if r["result"]:
            try:
                result = _json(r["result"])
            except ValueError:
                result = None
            if not isinstance(result, dict):
                log.warning("table %s: its stored result cannot be read; it is shown without one", r["id"])
                result = None
        meta: Any = None
        if r["meta"]:
            try:
                meta = _json(r["meta"])
            except ValueError:
                meta = None
            if meta is not None and not isinstance(meta, dict):
                raise DamagedRow("its meta cannot be read: an object was expected")
        return StoredTable(
            id=r["id"], game=r["game"], preset=r["preset"], options=options,
            num_players=num_players, seed=seed, grace=r["grace"], bot_delay=r["bot_delay"],
            seats=seats, chance=chance, status=r["status"], created=r["created"],
            actions=actions, creator_hash=r["creator_hash"], result=result, ended=r["ended"],
            hints=bool(r["hints"]), meta=meta)

    def load_all(self) -> list[StoredTable]:
        with self.engine.connect() as conn:
            return self._read(conn, tables_t.c.id.is_not(None))

    def load_active(self, damaged: list[tuple[str, str]] | None = None) -> list[StoredTable]:
        """The tables still open or in play, with their actions: what a starting server resumes. The
        quarantined are left out; rows that cannot be read are listed in ``damaged`` (see :meth:`_read`)."""
        with self.engine.connect() as conn:
            return self._read(conn, tables_t.c.status.in_(ACTIVE) & tables_t.c.quarantined.is_(None), damaged)

    def load_one(self, table_id: str) -> StoredTable | None:
        """The table, or None when there is none; DamagedRow when its row cannot be read."""
        with self.engine.connect() as conn:
            found = self._read(conn, tables_t.c.id == table_id)
        return found[0] if found else None

    def quarantine(self, table_id: str, why: str) -> None:
        """Set a table aside: it is no longer resumed, and everything stored of it is kept as it is."""
        def work(conn: Any) -> None:
            with conn.begin():
                conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(quarantined=why[:1000]))

        self._write("the quarantine of a table", work)

    def quarantined(self) -> dict[str, str]:
        """The quarantined tables: id -> why."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(tables_t.c.id, tables_t.c.quarantined)
                                .where(tables_t.c.quarantined.is_not(None))).all()
        return {tid: why for tid, why in rows}

    def archive(self, q: str | None, offset: int, limit: int) -> tuple[list[StoredTable], int]:
        """A page of the ended tables (finished or abandoned), newest first, without their actions; with
        ``q``, only those whose id, game, preset or a player's name holds it (any case). Also the count
        of all that match."""
        where: Any = tables_t.c.status.in_(ENDED)
        if q:
            pattern = _like(q.lower())
            where = where & or_(*(func.lower(c).like(pattern, escape="\\")
                                  for c in (tables_t.c.id, tables_t.c.game, tables_t.c.preset, tables_t.c.names)))
        with self.engine.connect() as conn:
            total = conn.execute(select(func.count()).select_from(tables_t).where(where)).scalar_one()
            rows = conn.execute(select(*_READ_COLUMNS).where(where)
                                .order_by(func.coalesce(tables_t.c.ended, tables_t.c.created).desc(),
                                          tables_t.c.id)
                                .offset(offset).limit(limit)).mappings().all()
        out = []
        for r in rows:
            try:
                out.append(self._stored(r, []))
            except DamagedRow as e:  # one damaged row does not hide the page
                log.error("table %s cannot be listed in the archive: %s", r["id"], e)
        return out, int(total)


def _json(value: Any) -> Any:
    """A JSON column's value: parsed from its text (a driver that parses JSON itself gives the value)."""
    return json.loads(value) if isinstance(value, (str, bytes)) else value


def _typed(value: Any, kind: type, name: str) -> Any:
    """``value`` when it is of ``kind``, else TypeError saying that ``name`` was expected."""
    if not isinstance(value, kind):
        raise TypeError(f"{name} was expected, not {type(value).__name__}")
    return value


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL keeps readers and the writer apart; a committed transaction survives the process being killed."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
