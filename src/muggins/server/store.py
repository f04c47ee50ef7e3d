"""Persistence with SQLAlchemy Core: one row per table (the record's envelope) and an append-only
actions table. Every action is committed, together with any chance outcomes it drew, before the
server acknowledges it, so a restarted server resumes each table at its last acknowledged action."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    insert,
    select,
    update,
)

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
    Column("status", String(16), nullable=False),
    Column("created", Float, nullable=False),
)

actions_t = Table(
    "game_actions", metadata,
    Column("table_id", String(32), ForeignKey("game_tables.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("move", String(200), nullable=False),
    Column("claim", Integer, nullable=True),
)


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


def default_url() -> str:
    """A SQLite file in the user's data directory."""
    from platformdirs import user_data_dir

    path = Path(user_data_dir("muggins", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path / 'muggins.db'}"


class Store:
    """Synchronous access to the database; every write is its own committed transaction."""

    def __init__(self, url: str) -> None:
        self.url = url
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine: Engine = create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)
        # statements built once: building them per action costs more than the SQLite commit itself
        self._insert_action = insert(actions_t)
        self._set_status = (update(tables_t).where(tables_t.c.id == bindparam("tid"))
                            .values(status=bindparam("status")))
        self._set_status_chance = (update(tables_t).where(tables_t.c.id == bindparam("tid"))
                                   .values(status=bindparam("status"), chance=bindparam("chance")))
        self._writer = self.engine.connect()

    def close(self) -> None:
        self._writer.close()
        self.engine.dispose()

    def create_table(self, t: StoredTable) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(tables_t).values(
                id=t.id, game=t.game, preset=t.preset, options=t.options, num_players=t.num_players,
                seed=str(t.seed), grace=t.grace, bot_delay=t.bot_delay, seats=t.seats,
                chance=json.dumps(t.chance), status=t.status, created=t.created))

    def update_seats(self, table_id: str, seats: list[dict[str, Any]], status: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(seats=seats, status=status))

    def append_action(self, table_id: str, idx: int, seat: int, move: str, claim: int | None,
                      chance: list[dict[str, Any]] | None, status: str | None) -> None:
        """One transaction: the action, plus the chance outcomes when it drew new ones, plus the status
        when it changed (None: unchanged)."""
        conn = self._writer
        with conn.begin():
            conn.execute(self._insert_action,
                         {"table_id": table_id, "idx": idx, "seat": seat, "move": move, "claim": claim})
            if chance is None:
                if status is not None:
                    conn.execute(self._set_status, {"tid": table_id, "status": status})
            else:
                conn.execute(self._set_status_chance,
                             {"tid": table_id, "status": status or "playing", "chance": json.dumps(chance)})

    def load_all(self) -> list[StoredTable]:
        out: list[StoredTable] = []
        with self.engine.connect() as conn:
            rows = conn.execute(select(tables_t).order_by(tables_t.c.created)).mappings().all()
            acts: dict[str, list[dict[str, Any]]] = {}
            for a in conn.execute(select(actions_t).order_by(actions_t.c.table_id, actions_t.c.idx)).mappings():
                entry: dict[str, Any] = {"seat": a["seat"], "move": a["move"]}
                if a["claim"] is not None:
                    entry["claim"] = a["claim"]
                acts.setdefault(a["table_id"], []).append(entry)
        for r in rows:
            out.append(StoredTable(
                id=r["id"], game=r["game"], preset=r["preset"], options=dict(r["options"]),
                num_players=r["num_players"], seed=int(r["seed"]), grace=r["grace"], bot_delay=r["bot_delay"],
                seats=list(r["seats"]), chance=json.loads(r["chance"]), status=r["status"], created=r["created"],
                actions=acts.get(r["id"], [])))
        return out


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL keeps readers and the writer apart; a committed transaction survives the process being killed."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
