"""A rolling restart in scale-out mode: three `muggins serve` processes on one Redis and one database (PostgreSQL
when MUGGINS_PG_URL names one) are stopped with SIGTERM and started again one at a time while a game of each
kind is played by people whose sockets sit on the various processes. No game is lost: each one goes on to its
end, every acknowledged action is in its record, the record replays, each seat saw only what it may."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.server.test_failover import Person, check_games, seat_people, serve, servers, show_logs, stop

STEP = 3  # actions every table makes between two restarts
GAMES: list[tuple[str, dict[str, Any], list[str | None]]] = [  # long enough to outlast the restarts
    ("dominoes", {"target": 100}, [None, None, "beginner"]),
    ("card-muggins", {"target": 121}, [None, None, "beginner"]),
    ("cribbage", {"target": 121}, [None, "beginner"]),
]


async def play_through_restarts(procs: dict[int, subprocess.Popen[bytes]], tables: list[dict[str, Any]],
                                people: list[Person], db: str, redis_url: str, tmp_path: Path) -> list[list[int]]:
    """Play while each process in turn is stopped with SIGTERM and started again on its port, each restart once
    every table has made STEP more actions; play on to the end. Returns the actions of each table at each
    restart."""
    alive = list(procs)
    tasks = [asyncio.create_task(p.play(alive)) for p in people]
    table_ids = [t["id"] for t in tables]

    def made() -> list[int]:
        return [max((s["table"]["actions"] for p in people if p.table_id == t for s in p.states), default=0)
                for t in table_ids]

    at_restarts = []
    for port in list(procs):
        target = [n + STEP for n in made()]
        for _ in range(1200):
            if all(n >= t for n, t in zip(made(), target, strict=True)) or all(t.done() for t in tasks):
                break
            await asyncio.sleep(0.05)
        at_restarts.append(made())
        alive.remove(port)
        began = time.monotonic()
        procs[port].send_signal(signal.SIGTERM)
        # a clean stop (uvicorn ends by raising the signal it caught again, after its shutdown)
        assert await asyncio.to_thread(procs[port].wait, 30) in (0, -signal.SIGTERM)
        stopped = time.monotonic()
        procs[port] = await asyncio.to_thread(serve, db, port, redis_url, tmp_path)
        alive.append(port)
        print(f"restart of {port}: stopped in {stopped - began:.1f} s, started in {time.monotonic() - stopped:.1f} s")
    for _ in range(2400):  # two minutes at most
        if all(t.done() for t in tasks):
            break
        await asyncio.sleep(0.05)
    for t in tasks:
        t.cancel()
    if not all(p.over for p in people):
        show_logs(tmp_path)
    assert all(p.over for p in people), [p.stuck() for p in people if not p.over]
    return at_restarts


@pytest.mark.slow  # six server starts and three whole games: 45 s on a quiet machine, 90 s on a busy one
def test_a_rolling_restart_loses_no_game(redis_url: str, tmp_path: Path) -> None:
    db, procs = servers(redis_url, tmp_path)
    try:
        first, *others = procs
        tables, people = seat_people(first, others, GAMES)
        for p in people:
            p.think = 0.25  # a person takes a moment over each move
        at_restarts = asyncio.run(play_through_restarts(procs, tables, people, db, redis_url, tmp_path))
        print("actions of each table at each restart:", at_restarts)
        assert all(p.reconnects for p in people)  # every socket was moved at least once
        lengths = check_games(others[0], tables, people, tmp_path)
        assert all(n > last for n, last in zip(lengths, at_restarts[-1], strict=True))  # in play throughout
    finally:
        stop(procs)
