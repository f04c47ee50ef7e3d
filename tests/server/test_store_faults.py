"""A store that fails for a while stops nothing for good: each write is tried again on a fresh connection,
a bot table whose move was not stored resumes once the store answers, a person's move that was not stored
gets a clear error and changes nothing, and a table cannot be created while the store is down (503)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from muggins.server.app import create_app
from muggins.server.store import Store, StoreUnavailable, faults_from_env
from muggins.server.tables import Connection, GameTable, TableManager
from tests.server.conftest import new_table, sit, table_socket
from tests.server.test_postgres import PG_URL, reachable
from tests.server.test_resilience import until_over


class Failing:
    """A fault that makes the next ``n`` write attempts fail, then lets every write through."""

    def __init__(self, n: int) -> None:
        self.left = n
        self.raised = 0

    def __call__(self) -> None:
        if self.left > 0:
            self.left -= 1
            self.raised += 1
            raise OperationalError("write", None, OSError("disk full"))


def stored_moves(store: Store, table_id: str) -> list[str]:
    found = store.load_one(table_id)
    assert found is not None
    return [a["move"] for a in found.actions]


def test_a_write_failing_once_is_retried_on_a_fresh_connection(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 's.db'}")
    assert store.engine.pool._pre_ping  # type: ignore[attr-defined]
    manager = TableManager(store, time_scale=0.0)

    async def run() -> None:
        t = manager.create("dominoes", None, None, [None, None], grace=0, bot_delay=0)
        store.fault = Failing(1)
        t.take_seat(0, "Ann")  # the first attempt fails, the second, on a new connection, is stored
        store.fault = Failing(2)
        with pytest.raises(Exception, match="not taken") as e:
            t.take_seat(1, "Bob")
        assert getattr(e.value, "status", None) == 503 and t.seats[1].token_hash is None
        manager.shutdown()

    asyncio.run(run())
    found = store.load_all()[0]
    assert [s["name"] for s in found.seats] == ["Ann", None]


def test_a_bot_table_resumes_once_the_store_answers_again(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'b.db'}")
    fault = Failing(0)

    async def run() -> GameTable:
        manager = TableManager(store, time_scale=0.0)
        t = manager.create("dominoes", None, None, ["beginner", "beginner"], grace=0, bot_delay=0)
        store.fault = fault
        fault.left = 6  # three moves in a row are not stored (each tried twice)
        t.attach(Connection(None))
        await until_over(t)
        manager.shutdown()
        return t

    t = asyncio.run(run())
    assert fault.raised == 6 and t.status == "finished"
    assert stored_moves(store, t.id) == [t.state.action_to_json(s, a)["move"] for s, a in t.state.history]


def test_a_persons_move_not_stored_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'p.db'}"
    with TestClient(create_app(url, rate=1e6, burst=1e6, time_scale=0.0, tables_burst=1e6,
                               seats_burst=1e6)) as c:
        store: Store = c.app.state.store  # type: ignore[attr-defined]
        store.retry_after = 0.0  # the store is asked again at once
        t = new_table(c, seats=[None, None])
        toks = [sit(c, t["id"], i, name) for i, name in enumerate(("Ann", "Bob"))]
        opened = [table_socket(c, t["id"], tok) for tok in toks]  # kept: a dropped one closes its socket
        socks = [cm.__enter__() for cm in opened]
        views = [ws.receive_json() for ws in socks]
        turn = next(i for i, v in enumerate(views) if v["view"]["legal"])
        move = views[turn]["view"]["legal"][0]
        store.fault = Failing(2)
        socks[turn].send_json({"type": "act", "move": move, "at": 0, "ref": 1})
        err = socks[turn].receive_json()
        assert err["type"] == "error" and err["ref"] == 1 and "not saved" in err["message"]
        table: Any = c.app.state.manager.get(t["id"])  # type: ignore[attr-defined]
        assert len(table.state.history) == 0 and stored_moves(store, t["id"]) == []
        socks[turn].send_json({"type": "act", "move": move, "at": 0, "ref": 2})  # the store answers again
        replies = [socks[turn].receive_json() for _ in range(2)]
        assert {"type": "ack", "ref": 2, "index": 0} in replies
        assert stored_moves(store, t["id"]) == [move]
        for cm in opened:
            cm.__exit__(None, None, None)


def test_a_resign_not_stored_is_refused_and_the_game_goes_on(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'r.db'}", rate=1e6, burst=1e6, time_scale=0.0)) as c:
        store: Store = c.app.state.store  # type: ignore[attr-defined]
        store.retry_after = 0.0
        t = new_table(c, seats=[None, "beginner"])
        tok = sit(c, t["id"], 0)
        table: Any = c.app.state.manager.get(t["id"])  # type: ignore[attr-defined]
        resign = f"/api/tables/{t['id']}/resign"
        auth = {"authorization": f"Bearer {tok}"}

        def play_until(actions: int) -> None:
            """Ann plays her first legal move whenever it is hers, until the table has made ``actions``."""
            while len(table.state.history) < actions:
                msg = ws.receive_json()
                view = msg.get("view") or {}
                if msg.get("type") == "state" and view.get("legal"):
                    ws.send_json({"type": "act", "move": view["legal"][0], "at": msg["table"]["actions"]})

        with table_socket(c, t["id"], tok) as ws:
            play_until(1)  # the game has begun: leaving now would resign
            store.fault = Failing(10**6)  # every write fails (a bot's move meanwhile too) until it is removed
            r = c.post(resign, headers=auth)
            assert r.status_code == 503 and "resignation was not saved" in r.json()["error"], r.text
            assert table.status == "playing" and table.resigned is None
            store.fault = None
            assert store.load_one(t["id"]).status == "playing"  # type: ignore[union-attr]
            play_until(len(table.state.history) + 2)  # the game goes on, bot and person
            r = c.post(resign, headers=auth)
            assert r.status_code == 200, r.text
            assert table.status == "resigned" and table.resigned == 0
            assert store.load_one(t["id"]).status == "resigned"  # type: ignore[union-attr]


def test_creating_a_table_while_the_store_is_down_is_a_clear_503(tmp_path: Path) -> None:
    down = tmp_path / "down"
    down.touch()
    with TestClient(create_app(f"sqlite:///{tmp_path / 'c.db'}", time_scale=0.0)) as c:
        store: Store = c.app.state.store  # type: ignore[attr-defined]
        store.fault = faults_from_env(f"store_down_file={down}")
        store.retry_after = 0.0
        r = c.post("/api/tables", json={"game": "dominoes", "seats": [None, "beginner"]})
        assert r.status_code == 503 and "not created" in r.json()["error"]
        assert c.get("/api/tables").json()["total"] == 0
        down.unlink()
        r = c.post("/api/tables", json={"game": "dominoes", "seats": [None, "beginner"]})
        assert r.status_code == 201


def test_after_a_failed_retry_the_store_is_left_alone_for_a_moment(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'w.db'}")
    manager = TableManager(store, time_scale=0.0)

    async def run() -> None:
        t = manager.create("dominoes", None, None, [None, None], grace=0, bot_delay=0)
        store.retry_after = 0.2
        fault = store.fault = Failing(2)
        with pytest.raises(Exception, match="not taken"):
            t.take_seat(0, "Ann")
        with pytest.raises(Exception, match="not taken"):
            t.take_seat(0, "Ann")  # refused at once: the database is not asked
        assert fault.raised == 2
        await asyncio.sleep(0.3)
        t.take_seat(0, "Ann")
        manager.shutdown()

    asyncio.run(run())
    assert store.load_all()[0].seats[0]["name"] == "Ann"


def test_the_fault_variable_is_checked() -> None:
    assert faults_from_env("") is None
    with pytest.raises(ValueError, match="store_down_file=PATH"):
        faults_from_env("disk_full")


def test_a_postgresql_connection_cut_under_the_store_is_replaced(tmp_path: Path) -> None:
    """What a PostgreSQL restart does to the store's connections: the next write finds its connection
    dead, and is made again on a fresh one."""
    why = reachable(PG_URL)
    if why:
        pytest.skip(why)
    from sqlalchemy import create_engine, text

    from muggins.server.migrations import drop_all

    admin = create_engine(PG_URL)
    drop_all(admin)
    store = Store(PG_URL)
    try:
        manager = TableManager(store, time_scale=0.0)

        async def run() -> str:
            t = manager.create("dominoes", None, None, [None, None], grace=0, bot_delay=0)
            pid = store._writer.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
            store._writer.commit()
            with admin.begin() as conn:
                assert conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid}).scalar_one()
            t.take_seat(0, "Ann")
            manager.shutdown()
            return t.id

        table_id = asyncio.run(run())
        found = store.load_one(table_id)
        assert found is not None and found.seats[0]["name"] == "Ann"
        with pytest.raises(StoreUnavailable):
            store.fault = Failing(2)
            store.end_table(table_id, "abandoned", {}, 0.0)
    finally:
        store.close()
        drop_all(admin)
        admin.dispose()
