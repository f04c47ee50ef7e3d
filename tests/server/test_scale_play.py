"""Quick play in scale-out mode, across real `muggins serve` processes on one Redis and one database: the
process holding the play queue is killed with SIGKILL while a player waits; the player, polling through
another process, keeps his ticket there and is seated with the next player who comes."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import redis
from websockets.sync.client import connect

from muggins.server.cluster import LEASE, QUEUE
from muggins.server.matchmaking import TICKETS_KEY
from muggins.server.tables import hash_token
from tests.server.botapi_helpers import wait_for
from tests.server.test_failover import servers, show_logs, stop

WANT = {"game": "dominoes", "players": 2}


def test_a_waiting_ticket_outlives_the_process_holding_the_queue(redis_url: str, tmp_path: Path) -> None:
    _, procs = servers(redis_url, tmp_path, count=2)
    r = redis.Redis.from_url(redis_url)
    try:
        holder: Any = wait_for(lambda: r.get(LEASE + QUEUE))
        pid = int(holder.decode().split(":")[1])
        (dead,) = [port for port, proc in procs.items() if proc.pid == pid]
        (port,) = [p for p in procs if p != dead]
        play = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
        first = play.post("/api/play", json={**WANT, "name": "Ann"})  # run at the holder
        assert first.status_code == 201 and first.json()["status"] == "waiting", first.text
        ticket = first.json()["ticket"]
        kept: Any = r.hgetall(TICKETS_KEY)
        assert hash_token(ticket).encode() in kept, (kept, holder)  # kept in Redis, under its hash
        os.kill(pid, signal.SIGKILL)
        procs[dead].wait()
        killed = time.monotonic()
        polled = play.get(f"/api/play/{ticket}")
        print(f"the poll after the kill answered in {time.monotonic() - killed:.2f} s")
        if polled.status_code != 200:
            show_logs(tmp_path)
        assert polled.status_code == 200 and polled.json()["status"] == "waiting", polled.text
        now: Any = r.get(LEASE + QUEUE)
        assert f":{procs[port].pid}:" in now.decode()  # the queue is held by the process left
        second = play.post("/api/play", json={**WANT, "name": "Bea"})
        assert second.status_code == 201 and second.json()["status"] == "matched", second.text
        mine = play.get(f"/api/play/{ticket}").json()
        assert mine["status"] == "matched" and mine["table"] == second.json()["table"]
        assert {mine["seat"], second.json()["seat"]} == {0, 1}
        table = play.get(f"/api/tables/{mine['table']}").json()
        assert table["seats"][mine["seat"]]["name"] == "Ann" and table["seats"][1 - mine["seat"]]["name"] == "Bea"
        # the seat is his: his token opens it (the socket relayed to the table's owner)
        with connect(f"ws://127.0.0.1:{port}/ws/{mine['table']}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "token": mine["token"]}))
            state = json.loads(ws.recv(timeout=20))
        assert state["type"] == "state" and state["you"] == mine["seat"]
        # a cancelled ticket leaves Redis too
        third = play.post("/api/play", json={**WANT, "name": "Cy"}).json()["ticket"]
        assert play.delete(f"/api/play/{third}").status_code == 200
        assert not r.hexists(TICKETS_KEY, hash_token(third))
    finally:
        stop(procs)
        r.close()
