"""Sockets cannot crowd anybody out: a seat's socket gets in however many spectators watch, spectators
alone do not keep a table with people at it from going idle, one client address opens a bounded number of
sockets at a bounded rate, and the sockets of one seat share one message rate limit."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from muggins.server.app import MAX_REFUSED, MAX_SPECTATORS_PER_TABLE, SLOW_DOWN, create_app
from muggins.server.guard import BadRequest, SharedLimiters, SocketGate
from muggins.server.store import Store
from muggins.server.tables import Connection, TableManager
from tests.server.conftest import hello, new_table, sit, table_socket

OPEN = {"rate": 1e6, "burst": 1e6, "time_scale": 0.0, "tables_burst": 1e6, "seats_burst": 1e6,
        "sockets_per_client": 10**6, "connects_burst": 1e6}


@contextlib.contextmanager
def app(tmp_path: Path, **kw: Any) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'l.db'}", **{**OPEN, **kw})) as c:
        yield c


def refused(c: TestClient, path: str) -> str:
    """The fatal error a socket is refused with (it is closed after it)."""
    with c.websocket_connect(path) as ws:
        with contextlib.suppress(Exception):  # a socket refused before its hello is read
            ws.send_text(hello(None))
        m = ws.receive_json()
        assert m["type"] == "error" and m["fatal"] is True, m
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    return str(m["message"])


def test_64_spectators_do_not_keep_the_seated_player_out(tmp_path: Path) -> None:
    with app(tmp_path) as c, contextlib.ExitStack() as stack:
        t = new_table(c, seats=[None, "beginner"], grace=0, bot_delay=5)
        token = sit(c, t["id"], 0)
        watchers = [stack.enter_context(table_socket(c, t['id'])) for _ in range(64)]
        for ws in watchers:
            assert ws.receive_json()["type"] == "state"
        assert "too many spectators" in refused(c, f"/ws/{t['id']}")
        with table_socket(c, t["id"], token) as seat:
            m = seat.receive_json()
            assert m["type"] == "state" and m["you"] == 0 and m["table"]["spectators"] == MAX_SPECTATORS_PER_TABLE


def test_a_seats_newest_socket_gets_in_and_its_oldest_leaves(tmp_path: Path) -> None:
    with app(tmp_path) as c:
        t = new_table(c, seats=[None, "beginner"], grace=0, bot_delay=5)
        token = sit(c, t["id"], 0)
        table: Any = c.app.state.manager.get(t["id"])  # type: ignore[attr-defined]
        with contextlib.ExitStack() as stack:
            socks = [stack.enter_context(table_socket(c, t["id"], token)) for _ in range(17)]
            for ws in socks[1:]:
                assert ws.receive_json()["type"] == "state"
            assert sum(1 for x in table.conns if x.seat == 0) == 16
            socks[-1].send_json({"type": "ping", "ref": "new"})
            assert socks[-1].receive_json() == {"type": "pong", "ref": "new"}
            socks[0].receive_json()  # its state, then the close
            with pytest.raises(WebSocketDisconnect):
                socks[0].receive_json()


def test_spectators_alone_do_not_keep_a_table_with_people_from_going_idle(tmp_path: Path) -> None:
    async def run() -> None:
        now = [1000.0]
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'i.db'}"), time_scale=0.0, idle_timeout=600,
                               clock=lambda: now[0])
        people = manager.create("dominoes", None, None, [None, "beginner"], bot_delay=5)
        people.take_seat(0, "Ann")
        bots = manager.create("dominoes", None, None, ["beginner", "beginner"], bot_delay=30)
        seated = manager.create("dominoes", None, None, [None, "beginner"], bot_delay=5)
        seated.take_seat(0, "Bob")
        for t in (people, bots):
            for _ in range(3):
                t.attach(Connection(None))
        seated.attach(Connection(0))
        now[0] += 400
        people.attach(Connection(None))  # a spectator coming late does not count as activity
        now[0] += 201
        assert manager.sweep() == 1
        assert people.status == "abandoned"
        assert bots.status == "playing" and seated.status == "playing"  # watched bots, a seated person
        manager.shutdown()

    asyncio.run(run())


def test_one_address_opens_a_bounded_number_of_sockets(tmp_path: Path) -> None:
    with app(tmp_path, sockets_per_client=3) as c, contextlib.ExitStack() as stack:
        a = new_table(c, seats=[None, "beginner"], bot_delay=5)
        b = new_table(c, seats=[None, "beginner"], bot_delay=5)
        for tid in (a["id"], a["id"], b["id"]):
            assert stack.enter_context(table_socket(c, tid)).receive_json()["type"] == "state"
        assert "too many open connections from your address" in refused(c, f"/ws/{b['id']}")
        stack.close()  # the three close: the address may open more again
        with table_socket(c, b['id']) as ws:
            assert ws.receive_json()["type"] == "state"


def test_one_address_opens_sockets_at_a_bounded_rate(tmp_path: Path) -> None:
    with app(tmp_path, connects_per_minute=1, connects_burst=5) as c:
        t = new_table(c, seats=[None, "beginner"], bot_delay=5)
        for _ in range(5):
            with table_socket(c, t['id']) as ws:
                assert ws.receive_json()["type"] == "state"
        # refused before the handshake (a browser sees a 403): a flood of reconnections costs little
        with pytest.raises(WebSocketDisconnect) as e, c.websocket_connect(f"/ws/{t['id']}") as ws:
            ws.receive_json()
        assert e.value.code == 1008
    gate = SocketGate(10, 60, 1)
    gate.enter("10.0.0.1")
    gate.enter("10.0.0.2")  # another address has its own allowance
    with pytest.raises(BadRequest, match="too many connections from your address; try again in") as again:
        gate.enter("10.0.0.1")
    assert again.value.status == 429 and again.value.retry_after == 1


def test_the_sockets_of_one_seat_share_one_message_burst(tmp_path: Path) -> None:
    with app(tmp_path, rate=0.001, burst=4) as c, contextlib.ExitStack() as stack:
        t = new_table(c, seats=[None, "beginner"], bot_delay=5)
        token = sit(c, t["id"], 0)
        socks = [stack.enter_context(table_socket(c, t["id"], token)) for _ in range(10)]
        answers = []
        for i, ws in enumerate(socks):
            assert ws.receive_json()["type"] == "state"
            ws.send_json({"type": "ping", "ref": i})
            answers.append(ws.receive_json())
        assert sum(1 for m in answers if m["type"] == "pong") == 4
        assert all(m["message"] == "too many messages; slow down" for m in answers if m["type"] != "pong")
        # a spectator's socket has its own allowance
        with table_socket(c, t['id']) as ws:
            ws.receive_json()
            ws.send_json({"type": "ping", "ref": "s"})
            assert ws.receive_json()["type"] == "pong"
    shared = SharedLimiters(0.001, 2)
    one = shared.take(("t", 0))
    shared.give_back(("t", 0))
    assert shared.take(("t", 0)) is one  # a seat reconnecting does not get a fresh burst


def test_a_socket_that_keeps_sending_past_the_limit_is_closed(tmp_path: Path) -> None:
    with app(tmp_path, rate=0.001, burst=2) as c:
        t = new_table(c, seats=[None, "beginner"], bot_delay=5)
        with table_socket(c, t['id']) as ws:
            ws.receive_json()
            replies = []
            for i in range(2 + MAX_REFUSED + 1):
                ws.send_json({"type": "ping", "ref": i})
                replies.append(ws.receive_json())
            assert [m["type"] for m in replies[:2]] == ["pong", "pong"]
            assert all(m["message"] == SLOW_DOWN for m in replies[2:])
            last = ws.receive_json()
            assert last["fatal"] is True and "this connection is closed" in last["message"]
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()


def test_the_sockets_of_one_address_share_twice_one_sockets_burst(tmp_path: Path) -> None:
    with app(tmp_path, rate=0.001, burst=3) as c, contextlib.ExitStack() as stack:
        t = new_table(c, seats=[None, "beginner"], bot_delay=5)
        socks = [stack.enter_context(table_socket(c, t['id'])) for _ in range(4)]
        pongs = []
        for ws in socks:
            ws.receive_json()
            got = 0
            for i in range(3):
                ws.send_json({"type": "ping", "ref": i})
                got += ws.receive_json()["type"] == "pong"
            pongs.append(got)
        assert pongs == [3, 3, 0, 0]
