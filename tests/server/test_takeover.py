"""Scale-out mode's takeovers in one test process, two apps on one Redis and one database: a socket that arrives
while its table is being taken over is served by the table taken over (never by a second copy of it), and a
process whose copy of a table is stale (another process stored the next action first) reloads it from the
store, the other tables untouched."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from starlette.websockets import WebSocketDisconnect

from muggins.server.store import Store, StoreConflict
from tests.server.conftest import new_table, sit, table_socket
from tests.server.test_api import next_state
from tests.server.test_scale_relay import two_apps


def test_a_socket_arriving_during_a_takeover_joins_the_table_taken_over(redis_url: str, tmp_path: Path) -> None:
    a, b = two_apps(f"sqlite:///{tmp_path / 'shared.db'}", redis_url)
    started, go = threading.Event(), threading.Event()
    with b:
        store = b.app.state.manager.store  # type: ignore[attr-defined]
        load_one = store.load_one
        held: list[str] = []

        def slow_load(table_id: str) -> Any:
            if not held:  # the takeover's own read is held back until the socket has arrived
                held.append(table_id)
                started.set()
                assert go.wait(20)
            return load_one(table_id)

        with a:
            t = new_table(a, seats=[None, None])
            tokens = [sit(a, t["id"], 0, "Ann"), sit(a, t["id"], 1, "Bob")]
            store.load_one = slow_load
        # a stopped: its lease is given back, and b's watcher begins taking the table over
        assert started.wait(20)
        assert held == [t["id"]]
        with table_socket(b, t["id"], tokens[0]) as ws:
            time.sleep(0.5)  # the socket's hello is read meanwhile: it waits for the takeover
            go.set()
            m = next_state(ws)
            table = b.app.state.manager.tables[t["id"]]  # type: ignore[attr-defined]
            assert [c.seat for c in table.conns] == [0]  # the socket is at the table b serves
            with table_socket(b, t["id"], tokens[1]) as other:
                mover = m["view"]["to_act"][0]
                sock, seen = (ws, m) if mover == 0 else (other, next_state(other))
                sock.send_json({"type": "act", "move": seen["view"]["legal"][0], "at": 0, "ref": "r"})
                while (r := sock.receive_json())["type"] == "state":
                    pass
                assert r["type"] == "ack" and r["index"] == 0, r
                assert len(table.state.history) == 1


def test_a_stale_copy_is_reloaded_from_the_store(redis_url: str, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    a, _ = two_apps(db, redis_url)
    other = Store(db)  # what another process wrote
    try:
        with a:
            t = new_table(a, seats=[None, None])
            untouched = new_table(a, seats=[None, None])
            tokens = [sit(a, t["id"], 0, "Ann"), sit(a, t["id"], 1, "Bob")]
            first = a.app.state.manager.tables[t["id"]]  # type: ignore[attr-defined]
            mover = min(first.state.to_act())
            with table_socket(a, t["id"], tokens[mover]) as ws:
                m = next_state(ws)
                legal = m["view"]["legal"]
                other.append_action(t["id"], 0, mover, legal[-1], None, None, None)
                ws.send_json({"type": "act", "move": legal[0], "at": 0, "ref": "r"})
                try:  # refused, and the socket closed: the page reconnects
                    while (r := ws.receive_json())["type"] == "state":
                        pass
                    assert r["type"] == "error" and "moved on elsewhere" in r["message"], r
                    ws.receive_json()
                    raise AssertionError("the socket of the stale copy stayed open")
                except WebSocketDisconnect:
                    pass
            # the copy that could not store its move was dropped; the table is served again from the store
            for _ in range(200):
                now = a.app.state.manager.tables.get(t["id"])  # type: ignore[attr-defined]
                if now is not None and now is not first:
                    break
                time.sleep(0.05)
            assert now is not first and a.app.state.cluster.owns(t["id"])  # type: ignore[attr-defined]
            assert [now.state.action_to_json(s, x)["move"] for s, x in now.state.history] == [legal[-1]]
            with table_socket(a, t["id"], tokens[mover]) as ws:
                m = next_state(ws)
                assert m["table"]["actions"] == 1
            # a conflict is no outage: the store takes the next write at once
            assert a.post(f"/api/tables/{untouched['id']}/seats/0", json={"name": "Cy"}).status_code == 200
            assert "muggins_store_write_failures_total 0.0" in a.get("/metrics").text
        try:
            other.append_action(t["id"], 0, mover, legal[0], None, None, None)
        except StoreConflict as e:
            assert "stored already" in str(e)
        else:
            raise AssertionError("a second action at one index was stored")
    finally:
        other.close()


def test_a_process_whose_lease_was_taken_stops_serving_the_table(redis_url: str, tmp_path: Path) -> None:
    import redis

    a, _ = two_apps(f"sqlite:///{tmp_path / 'shared.db'}", redis_url)
    with a:
        tables = [new_table(a, seats=[None, None]) for _ in range(3)]
        cluster = a.app.state.cluster  # type: ignore[attr-defined]
        assert all(cluster.owns(t["id"]) for t in tables)
        r = redis.Redis.from_url(redis_url)
        r.set(f"muggins:lease:{tables[1]['id']}", "elsewhere:1:x", px=60000)  # as if another process had it
        r.close()
        for _ in range(100):  # the next round of renewals finds it
            if not cluster.owns(tables[1]["id"]):
                break
            time.sleep(0.05)
        assert not cluster.owns(tables[1]["id"]) and tables[1]["id"] not in a.app.state.manager.tables  # type: ignore[attr-defined]
        assert cluster.owns(tables[0]["id"]) and cluster.owns(tables[2]["id"])  # the others' leases renewed
