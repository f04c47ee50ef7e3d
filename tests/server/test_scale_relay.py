"""Scale-out mode in one test process: two apps on one Redis and one database. A table is owned by the app
that created it; the other app relays its sockets and its changing requests there."""

from __future__ import annotations

from pathlib import Path

import redis
from fastapi.testclient import TestClient

from muggins.core.records import replay
from muggins.server.app import create_app
from tests.server.conftest import new_table, sit, table_socket
from tests.server.test_api import play_out


def two_apps(db: str, redis_url: str) -> tuple[TestClient, TestClient]:
    def one() -> TestClient:
        return TestClient(create_app(db, rate=1e6, burst=1e6, time_scale=0.0, tables_burst=1e6, seats_burst=1e6,
                                     redis_url=redis_url))
    return one(), one()


def test_a_game_played_through_the_process_that_does_not_own_the_table(redis_url: str, tmp_path: Path) -> None:
    a, b = two_apps(f"sqlite:///{tmp_path / 'shared.db'}", redis_url)
    with a, b:
        t = new_table(a, seats=[None, "beginner"], options={"target": 60})
        lease = redis.Redis.from_url(redis_url).get(f"muggins:lease:{t['id']}")
        assert lease is not None and lease.decode() == a.app.state.cluster.node  # type: ignore[attr-defined]
        assert t["id"] not in b.app.state.manager.tables  # type: ignore[attr-defined]
        assert b.get("/api/tables").json()["total"] == 1  # the lobby lists the other process's table
        tok = sit(b, t["id"], 0)  # run at the owner
        assert b.post(f"/api/tables/{t['id']}/seats/0", json={"name": "Bo"}).json()["error"] == "seat 0 is taken"
        with table_socket(b, t["id"], tok) as ws:
            last = play_out(ws, 0)
        assert last["table"]["status"] == "finished"
        assert t["id"] not in b.app.state.manager.tables  # type: ignore[attr-defined]
        rec = b.get(f"/api/tables/{t['id']}/record").json()
        assert replay(rec).scores() == last["view"]["scores"]
        figures = a.get("/metrics").text  # the owner timed the relayed moves
        person = next(line for line in figures.splitlines() if line.startswith('muggins_actions_total{by="person"'))
        assert f"muggins_action_latency_seconds_count {person.split()[-1]}" in figures


def test_a_table_removed_through_the_other_process_is_removed_at_its_owner(redis_url: str, tmp_path: Path) -> None:
    a, b = two_apps(f"sqlite:///{tmp_path / 'shared.db'}", redis_url)
    with a, b:
        t = new_table(a, seats=[None, None])
        tok = sit(b, t["id"], 0)
        r = b.delete(f"/api/tables/{t['id']}", headers={"authorization": f"Bearer {tok}"})
        assert r.status_code == 200 and r.json()["status"] == "abandoned"
        assert a.get(f"/api/tables/{t['id']}").json()["status"] == "abandoned"
        assert a.app.state.manager.tables[t["id"]].abandoned  # type: ignore[attr-defined]
        refused = b.delete(f"/api/tables/{t['id']}", headers={"authorization": "Bearer nope"})
        assert refused.status_code in (403, 409)


def test_a_second_process_takes_over_the_tables_of_one_that_stopped(redis_url: str, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    a, b = two_apps(db, redis_url)
    with a:
        t = new_table(a, seats=[None, None])
        tok = sit(a, t["id"], 0)
    # a stopped process gives its leases back: the other one takes the table at once
    with b:
        assert b.app.state.cluster.owns(t["id"])  # type: ignore[attr-defined]
        with table_socket(b, t["id"], tok) as ws:
            m = ws.receive_json()
            assert m["type"] == "state" and m["you"] == 0
        assert "muggins_lease_changes_total 1.0" in b.get("/metrics").text


def test_a_bots_moves_sent_to_the_process_that_does_not_own_the_table_are_relayed(redis_url: str,
                                                                                   tmp_path: Path) -> None:
    """The bot API's moves, like the page's, may land on any process: they are played at the table's owner."""
    from tests.server.test_accounts import Counting

    a, b = two_apps(f"sqlite:///{tmp_path / 'shared.db'}", redis_url)
    with a, b:
        a.app.state.accounts.hasher = Counting()  # type: ignore[attr-defined]
        assert a.post("/api/account", json={"username": "Owner_1", "password": "correct horse"}).status_code == 201
        assert a.post("/api/bot/accounts", json={"username": "ada-bot"}).status_code == 201
        token = a.post("/api/bot/accounts/ada-bot/tokens", json={}).json()["token"]
        t = new_table(a, seats=[None, None], options={"target": 60})
        assert a.post("/api/bot/accounts/ada-bot/seat", json={"table": t["id"], "seat": 1}).status_code == 200
        sit(a, t["id"], 0)
        table = a.app.state.manager.get(t["id"])  # type: ignore[attr-defined]
        assert t["id"] not in b.app.state.manager.tables  # type: ignore[attr-defined]
        auth = {"authorization": f"Bearer {token}"}
        played = 0
        for _ in range(200):
            if 1 not in table.state.waiting_for():
                if table.status != "playing":
                    break
                seat = min(table.state.waiting_for())
                table.act(seat, table.state.format_action(table.state.legal_actions(seat)[0]), None)
                continue
            move = table.state.action_to_json(1, table.state.legal_actions(1)[0])["move"]
            r = b.post(f"/api/bot/game/{t['id']}/move/{move}", headers=auth)  # sent to the other process
            assert r.status_code == 200, r.text
            played += 1
            if played == 3:
                break
        assert played == 3 and sum(1 for s, _ in table.state.history if s == 1) >= 3
        assert t["id"] not in b.app.state.manager.tables  # type: ignore[attr-defined]
        r = b.post(f"/api/bot/game/{t['id']}/resign", headers=auth)
        assert r.status_code == 200 and table.status == "resigned"


def test_players_of_quick_play_on_two_processes_wait_in_one_queue(redis_url: str, tmp_path: Path) -> None:
    """Quick play's queue is held by one process; a player who reaches the other one waits in it too (his
    polls as well), so two players on two processes are seated together. When its holder stops, the other
    process holds the queue."""
    a, b = two_apps(f"sqlite:///{tmp_path / 'shared.db'}", redis_url)
    with a, b:
        clusters = [c.app.state.cluster for c in (a, b)]  # type: ignore[attr-defined]
        assert sorted(c.queue_held for c in clusters) == [False, True]  # one holder, whichever started first
        ann = a.post("/api/play", json={"game": "dominoes", "players": 2, "name": "Ann"}).json()
        assert ann["status"] == "waiting", ann
        bob = b.post("/api/play", json={"game": "dominoes", "players": 2, "name": "Bob"}).json()
        assert bob["status"] == "matched", bob
        for c in (a, b):  # a ticket is answered by either process
            again = c.get(f"/api/play/{ann['ticket']}").json()
            assert again["status"] == "matched" and again["table"] == bob["table"]
            assert {again["seat"], bob["seat"]} == {0, 1}
        with table_socket(b, bob["table"], again["token"]) as ws:
            assert ws.receive_json()["you"] == again["seat"]
    with two_apps(f"sqlite:///{tmp_path / 'shared.db'}", redis_url)[0] as c:  # a lone process holds the queue
        assert c.app.state.cluster.queue_held  # type: ignore[attr-defined]
        assert c.post("/api/play", json={"game": "dominoes", "players": 2}).json()["status"] == "waiting"
