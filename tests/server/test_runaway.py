"""Tables cannot run away with the server: creation and seat taking are limited per client, idle tables
are abandoned, games of bots play only while watched, a table's creator (or a player) can remove it, and
the table list is paged, with the finished games in a searchable archive read from the store."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from muggins.server.app import create_app
from muggins.server.guard import BadRequest, ClientLimits
from muggins.server.store import Store, StoredTable
from muggins.server.tables import Connection, TableError, TableManager
from tests.server.conftest import new_table, sit, table_socket

NAMES = ["Ann", "Bob", "Cleo", "Dev", "Eve"]


def finished_rows(n: int) -> list[StoredTable]:
    """``n`` finished games as the store keeps them (not played: only their envelopes and results)."""
    now = time.time()
    return [StoredTable(id=f"old{i:05d}", game="dominoes", preset="muggins", options={}, num_players=2, seed=i,
                        grace=3.0, bot_delay=0.8,
                        seats=[{"name": NAMES[i % 5], "bot": None, "token_hash": None},
                               {"name": None, "bot": "casual", "token_hash": None}],
                        chance=[], status="finished" if i % 10 else "abandoned", created=now - 10**5 + i,
                        actions=[], result={"scores": [200, i], "winners": [0], "actions": 50},
                        ended=now - 10**4 + i)
            for i in range(n)]


def test_a_thousand_finished_games_keep_the_list_small_and_are_paged_and_searchable(db_url: str) -> None:
    Store(db_url).create_tables(finished_rows(1000))
    with TestClient(create_app(db_url, rate=1e6, burst=1e6, time_scale=0.0, tables_burst=100)) as c:
        assert not c.app.state.manager.tables  # type: ignore[attr-defined]  # the archive stays in the store
        for i in range(25):
            t = new_table(c, seats=[None, "beginner"])
            if i % 2:
                sit(c, t["id"], 0, "Zed")
        r = c.get("/api/tables")
        data = r.json()
        assert len(r.content) < 16384, len(r.content)
        assert data["total"] == 25 and data["page"] == 1 and data["pages"] == 2 and len(data["tables"]) == 20
        statuses = [t["status"] for t in data["tables"]]
        assert statuses == sorted(statuses, key=lambda s: s != "open") and set(statuses) == {"open", "playing"}
        assert len(c.get("/api/tables?page=2").json()["tables"]) == 5
        # the archive: finished and abandoned games, newest first, with the record's address
        r = c.get("/api/tables?status=finished&limit=50&page=3")
        page = r.json()
        assert page["total"] == 1000 and page["pages"] == 20 and len(page["tables"]) == 50
        ids = [t["id"] for t in page["tables"]]
        assert ids == [f"old{i:05d}" for i in range(899, 849, -1)]
        for t in page["tables"]:
            assert t["record"] == (f"/api/tables/{t['id']}/record" if t["status"] == "finished" else None)
            assert t["scores"][0] == 200 and t["seats"][1]["name"] == "Casual Otter"
        assert set(page["tables"][0]) == set(data["tables"][0])  # one shape of summary
        # search: a player's name (any case), a table id, a preset
        cleo = c.get("/api/tables?status=finished&q=cLEo&limit=100").json()
        assert cleo["total"] == 200 and all(t["seats"][0]["name"] == "Cleo" for t in cleo["tables"])
        assert [t["id"] for t in c.get("/api/tables?status=finished&q=old00042").json()["tables"]] == ["old00042"]
        assert c.get("/api/tables?status=finished&q=100%25").json()["total"] == 0  # a LIKE wildcard is literal
        assert c.get("/api/tables?q=zed").json()["total"] == 12
        for bad in ("status=all", "page=0", "limit=101", "limit=x", "q=" + "a" * 101):
            r = c.get(f"/api/tables?{bad}")
            assert r.status_code == 422 and r.json()["error"], bad


def test_a_finished_game_leaves_memory_and_is_read_back_with_its_record(db_url: str) -> None:
    with TestClient(create_app(db_url, rate=1e6, burst=1e6, time_scale=0.0)) as c:
        manager: Any = c.app.state.manager  # type: ignore[attr-defined]
        t = new_table(c, seats=["beginner", "beginner"], options={"target": 61})
        with table_socket(c, t["id"]) as ws:  # a game of bots plays while watched
            while (m := ws.receive_json())["type"] != "state" or m["table"]["status"] != "finished":
                pass
        manager.sweep()
        assert t["id"] not in manager.tables
        archived = c.get("/api/tables?status=finished").json()["tables"]
        assert [x["id"] for x in archived] == [t["id"]] and archived[0]["scores"] == m["table"]["scores"]
        rec = c.get(archived[0]["record"])
        assert rec.status_code == 200 and rec.json()["players"][0]["name"] == "Beginner Otter"
        assert c.get(f"/api/tables/{t['id']}").json()["status"] == "finished"


def test_creating_tables_and_taking_seats_are_limited_per_client(db_url: str) -> None:
    with TestClient(create_app(db_url, time_scale=0.0, tables_burst=3, tables_per_minute=1,
                               seats_burst=2, seats_per_minute=1)) as c:
        made = [new_table(c, seats=[None, None]) for _ in range(3)]
        r = c.post("/api/tables", json={"game": "dominoes"})
        assert r.status_code == 429 and "too many new tables" in r.json()["error"]
        assert 1 <= int(r.headers["retry-after"]) <= 60
        assert c.get("/api/tables").json()["total"] == 3
        sit(c, made[0]["id"], 0, "Ann")
        sit(c, made[0]["id"], 1, "Bob")
        r = c.post(f"/api/tables/{made[1]['id']}/seats/0", json={"name": "Cleo"})
        assert r.status_code == 429 and "too many seats" in r.json()["error"] and r.headers["retry-after"]
    limits = ClientLimits("new tables", 60, 1)
    limits.charge("10.0.0.1")
    limits.charge("10.0.0.2")  # another address has its own allowance
    with pytest.raises(BadRequest) as e:
        limits.charge("10.0.0.1")
    assert e.value.status == 429 and e.value.retry_after == 1


def test_idle_tables_are_abandoned_and_kept_in_the_archive(tmp_path: Path) -> None:
    async def run() -> None:
        now = [1000.0]
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'i.db'}"), time_scale=0.0, idle_timeout=600,
                               clock=lambda: now[0])
        waiting = manager.create("dominoes", None, None, [None, None])           # nobody ever sits
        left = manager.create("dominoes", None, None, [None, "beginner"])        # a person sat, then left
        left.take_seat(0, "Ann")
        watched = manager.create("dominoes", None, None, [None, "beginner"])
        watched.take_seat(0, "Bob")
        watched.attach(Connection(0))
        await asyncio.sleep(0.05)  # the bot may make its move
        now[0] += 599
        assert manager.sweep() == 0
        now[0] += 2
        assert manager.sweep() == 2
        assert set(manager.tables) == {watched.id}  # the abandoned leave memory; the watched one stays
        assert not left.bot_tasks and left.status == "abandoned"
        stored = {s.id: s for s in manager.store.load_all()}
        assert stored[waiting.id].status == stored[left.id].status == "abandoned"
        assert stored[left.id].result is not None and stored[left.id].ended is not None
        again = manager.get(left.id)  # read back from the store
        assert again.status == "abandoned" and again.summary()["record"] is None
        with pytest.raises(TableError, match="abandoned"):
            again.act(0, "draw", None)
        with pytest.raises(TableError, match="abandoned"):
            manager.get(waiting.id).take_seat(0, "Cleo")
        assert [t["id"] for t in manager.listing("finished")["tables"]] == [left.id, waiting.id]
        manager.shutdown()
        manager.store.close()
    asyncio.run(run())


def test_a_game_of_bots_plays_only_while_watched(tmp_path: Path) -> None:
    async def run() -> None:
        now = [0.0]
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'w.db'}"), time_scale=0.0, idle_timeout=60,
                               clock=lambda: now[0])
        t = manager.create("dominoes", None, None, ["beginner", "beginner"], grace=0, bot_delay=0)
        await asyncio.sleep(0.05)
        assert len(t.state.history) == 0 and t.summary()["paused"] is True
        conn = Connection(None)
        t.attach(conn)
        for _ in range(200):
            await asyncio.sleep(0.001)
            if len(t.state.history) >= 5:
                break
        assert len(t.state.history) >= 5 and t.summary()["paused"] is False
        t.detach(conn)
        await t.writes_settled()  # a bot's move already being committed lands; no other begins
        played = len(t.state.history)
        await asyncio.sleep(0.05)
        assert len(t.state.history) == played and not t.bot_tasks  # stopped while nobody watches
        now[0] += 61
        assert manager.sweep() == 1 and t.status == "abandoned"
        t.attach(Connection(None))  # an abandoned game does not start again
        await asyncio.sleep(0.02)
        assert len(t.state.history) == played
        manager.shutdown()
        manager.store.close()
    asyncio.run(run())


def test_the_creator_or_a_player_can_remove_a_table(client: TestClient) -> None:
    t = new_table(client, seats=[None, "beginner"])
    u = new_table(client, seats=[None, None])
    tok = sit(client, u["id"], 0, "Ann")
    assert client.delete(f"/api/tables/{t['id']}").status_code == 401
    assert client.delete(f"/api/tables/{t['id']}", headers={"authorization": "Bearer nope"}).status_code == 403
    assert client.delete(f"/api/tables/{t['id']}", headers={"authorization": f"Bearer {tok}"}).status_code == 403
    r = client.delete(f"/api/tables/{t['id']}", headers={"authorization": f"Bearer {t['creator_token']}"})
    assert r.status_code == 200 and r.json()["status"] == "abandoned"
    r = client.delete(f"/api/tables/{u['id']}?token={tok}")  # a seated player's token
    assert r.status_code == 200 and r.json()["status"] == "abandoned"
    assert client.get("/api/tables").json()["total"] == 0
    assert {x["id"] for x in client.get("/api/tables?status=finished").json()["tables"]} == {t["id"], u["id"]}
    assert "creator_token" not in client.get(f"/api/tables/{t['id']}").json()


def test_binary_frames_count_against_the_rate_limit(db_url: str) -> None:
    with TestClient(create_app(db_url, rate=0.001, burst=3, time_scale=0.0)) as c:
        t = new_table(c, seats=[None, "beginner"])
        with table_socket(c, t["id"]) as ws:
            ws.receive_json()
            for _ in range(3):
                ws.send_bytes(b"\x00binary")
                assert "text frames" in ws.receive_json()["message"]
            ws.send_json({"type": "ping", "ref": 1})
            assert "too many" in ws.receive_json()["message"]
