"""Scale-out mode across real processes: three `muggins serve` on one Redis and one database (PostgreSQL when
MUGGINS_PG_URL names one, else a shared SQLite file). A game of each kind is played by scripted people whose
sockets sit on the processes that do not own the table; the owner is killed with SIGKILL mid-game. Each
game goes on through another process to its end, every acknowledged action is in its record, the record
replays, and each seat saw only what it may."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

websockets = pytest.importorskip("websockets", reason="the failover test needs websockets")
redis = pytest.importorskip("redis", reason="the failover test needs redis-py")

from muggins.core.engine import ENGINE_ENV  # noqa: E402
from muggins.core.records import apply_record_action, start_from_record  # noqa: E402
from tests.server.test_restart import free_port, get, post, start  # noqa: E402
from tests.server.test_secrecy import checked_text, hidden_in, norm, tokens  # noqa: E402

GAMES: list[tuple[str, dict[str, Any], list[str | None]]] = [
    ("dominoes", {"target": 60}, [None, None, "beginner"]),
    ("card-muggins", {}, [None, None, "beginner"]),
    ("cribbage", {"target": 61}, [None, "beginner"]),
]
KILL_AFTER = 6  # actions every table has made when the owner is killed


class Person:
    """A scripted player: plays the first legal move on its turn, presses Next hand, reconnects (to another
    live process) when its socket closes; keeps every state message and every acknowledged move."""

    def __init__(self, table_id: str, seat: int, token: str, ports: list[int]) -> None:
        self.table_id, self.seat, self.token, self.ports = table_id, seat, token, ports
        self.states: list[dict[str, Any]] = []
        self.acked: list[tuple[int, str]] = []
        self.reconnects = 0
        self.over = False
        self.think = 0.0  # seconds before each move

    def stuck(self) -> dict[str, Any]:
        """Where a person that did not see its game end was left."""
        m = self.states[-1] if self.states else {"table": {}, "view": {}}
        return {"table": self.table_id, "seat": self.seat, "reconnects": self.reconnects,
                "actions": m["table"].get("actions"), "to_act": m["view"].get("to_act"),
                "legal": m["view"].get("legal", [])[:3], "hand_end": m.get("hand_end")}

    async def play(self, alive: list[int]) -> None:
        port = self.ports[0]
        while not self.over:
            try:
                async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{self.table_id}", open_timeout=5,
                                              close_timeout=1) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    await self.session(ws)
            except (OSError, websockets.ConnectionClosed, TimeoutError):
                pass
            if not self.over:
                self.reconnects += 1
                live = [p for p in self.ports if p in alive] or alive
                port = live[self.reconnects % len(live)]
                await asyncio.sleep(0.2)

    async def session(self, ws: Any) -> None:
        sent: dict[str, str] = {}
        last: dict[str, Any] | None = None
        answered = True  # the last request of this seat was answered (an ack or an error)
        while True:
            try:
                m = json.loads(await asyncio.wait_for(ws.recv(), 3.0))
            except TimeoutError:  # nothing new: the request is asked again, from the last state
                m, answered = last, True
                if m is None:
                    continue
            if m["type"] in ("ack", "error") and m.get("ref") is not None:
                if m["type"] == "ack" and m["ref"] in sent and m.get("index") is not None:
                    self.acked.append((m["index"], sent[m["ref"]]))
                answered = True
                m = last  # a refused move (the position passed, the hand paused) is chosen again
                if m is None:
                    continue
            if m["type"] != "state":
                continue
            if m is not last:
                self.states.append(m)
            last = m
            view, at = m["view"], m["table"]["actions"]
            if view["over"]:
                self.over = True
                return
            if not answered:
                continue
            pause = m.get("hand_end") or {}
            if pause.get("paused") and self.seat in pause.get("waiting", []):
                answered = False
                await ws.send(json.dumps({"type": "next", "ref": f"n{at}"}))
            elif self.seat in view.get("waiting_for", view["to_act"]) and view["legal"]:
                if self.think:
                    await asyncio.sleep(self.think)
                ref = f"a{at}:{len(sent)}"
                sent[ref] = view["legal"][0]
                answered = False
                await ws.send(json.dumps({"type": "act", "move": view["legal"][0], "at": at, "ref": ref}))


async def play_through_a_kill(redis_url: str, tables: list[dict[str, Any]], people: list[Person],
                              owner: subprocess.Popen[bytes], owner_port: int, alive: list[int], logs: Path) -> float:
    """Play until every table made KILL_AFTER actions, kill the owner, play on to the end. Returns the seconds
    from the kill until every table had a new owner."""
    tasks = [asyncio.create_task(p.play(alive)) for p in people]
    r = redis.Redis.from_url(redis_url)
    for _ in range(6000):
        made = [max((s["table"]["actions"] for p in people if p.table_id == t["id"] for s in p.states), default=0)
                for t in tables]
        if min(made) >= KILL_AFTER:
            break
        await asyncio.sleep(0.01)
    dead = owner.pid
    os.kill(dead, signal.SIGKILL)
    owner.wait()
    alive.remove(owner_port)
    killed = time.monotonic()
    taken = None
    for _ in range(2400):  # two minutes at most
        holders = [r.get(f"muggins:lease:{t['id']}") for t in tables]
        if taken is None and all(h is not None and f":{dead}:" not in h.decode() for h in holders):
            taken = time.monotonic() - killed
        if all(t.done() for t in tasks):
            break
        await asyncio.sleep(0.05)
    for t in tasks:
        t.cancel()
    r.close()
    holders = [r.get(f"muggins:lease:{t['id']}") for t in tables]
    if not all(p.over for p in people):
        show_logs(logs)
    assert all(p.over for p in people), (holders, [p.stuck() for p in people if not p.over])
    assert taken is not None
    return taken


def servers(redis_url: str, tmp_path: Path, count: int = 3) -> tuple[str, dict[int, subprocess.Popen[bytes]]]:
    """``count`` scale-out servers on free ports, on one Redis and one database (PostgreSQL when MUGGINS_PG_URL
    names one); their output goes to serve-PORT.log in ``tmp_path``."""
    db = os.environ.get("MUGGINS_PG_URL") or f"sqlite:///{tmp_path / 'shared.db'}"
    procs: dict[int, subprocess.Popen[bytes]] = {}
    try:
        for _ in range(count):
            port = free_port()
            procs[port] = serve(db, port, redis_url, tmp_path)
    except BaseException:
        stop(procs)  # those started already are not left running
        raise
    return db, procs


def serve(db: str, port: int, redis_url: str, tmp_path: Path) -> subprocess.Popen[bytes]:
    # the test's own settings stay out of the servers; the engine in force goes on to them
    env = {k: v for k, v in os.environ.items() if not k.startswith("MUGGINS_") or k == ENGINE_ENV}
    return start(db, port, "--redis", redis_url, env=env, log=tmp_path / f"serve-{port}.log")


def stop(procs: dict[int, subprocess.Popen[bytes]]) -> None:
    for proc in procs.values():
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc in procs.values():
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def seat_people(creator: int, others: list[int], games: list[tuple[str, dict[str, Any], list[str | None]]] = GAMES
                ) -> tuple[list[dict[str, Any]], list[Person]]:
    """A table of each of ``games`` made on port ``creator``, each person's seat taken through one of
    ``others``, where the person's socket goes first (the next of ``others`` after it)."""
    tables, people = [], []
    for game, options, seats in games:
        t = post(f"http://127.0.0.1:{creator}", "/api/tables", {"game": game, "options": options, "seats": seats,
                                                                "grace": 0, "bot_delay": 0})
        tables.append(t)
        for seat, who in enumerate(seats):
            if who is None:
                port = others[seat % len(others)]
                tok = post(f"http://127.0.0.1:{port}", f"/api/tables/{t['id']}/seats/{seat}",
                           {"name": f"P{seat}"})["token"]
                people.append(Person(t["id"], seat, tok, [port, others[(seat + 1) % len(others)]]))
    return tables, people


def check_games(port: int, tables: list[dict[str, Any]], people: list[Person], tmp_path: Path) -> list[int]:
    """Each game's record (read through ``port``) holds every acknowledged move at its index, by its seat; it
    replays (``muggins replay``); the bot played in it; each seat saw only what it may. Returns the number of
    actions of each."""
    lengths = []
    for t in tables:
        game, seats = t["game"], [s["bot"] for s in t["seats"]]
        rec = get(f"http://127.0.0.1:{port}", f"/api/tables/{t['id']}/record")
        mine = [p for p in people if p.table_id == t["id"]]
        for p in mine:
            assert p.acked, (game, p.seat)
            for index, move in p.acked:
                entry = rec["actions"][index]
                assert entry["seat"] == p.seat and entry["move"] == move, (game, index, entry, move)
        path = tmp_path / f"{game}.json"
        path.write_text(json.dumps(rec))
        done = subprocess.run([sys.executable, "-m", "muggins", "replay", str(path)], capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert_no_leak(game, rec, mine)
        assert rec["actions"] and all(e["seat"] in range(len(seats)) for e in rec["actions"])
        assert any(seats[e["seat"]] is not None for e in rec["actions"])  # the bot played on
        lengths.append(len(rec["actions"]))
    return lengths


def show_logs(tmp_path: Path) -> None:
    for log in sorted(tmp_path.glob("serve-*.log")):
        print(log.name, log.read_text()[-4000:])


def test_the_owner_killed_mid_game_loses_nothing(redis_url: str, tmp_path: Path) -> None:
    _, procs = servers(redis_url, tmp_path)
    try:
        owner_port, *others = procs
        tables, people = seat_people(owner_port, others)
        r = redis.Redis.from_url(redis_url)
        owner_pid = procs[owner_port].pid
        assert all(f":{owner_pid}:" in r.get(f"muggins:lease:{t['id']}").decode() for t in tables)
        r.close()
        alive = list(procs)
        taken = asyncio.run(play_through_a_kill(redis_url, tables, people, procs[owner_port], owner_port, alive,
                                                tmp_path))
        print(f"tables taken over {taken:.2f} s after the kill")
        assert any(p.reconnects for p in people)  # the relayed sockets were moved to the new owner
        check_games(others[0], tables, people, tmp_path)
    finally:
        stop(procs)


def assert_no_leak(game: str, rec: dict[str, Any], people: list[Person]) -> None:
    """Each state message a person got, held against what was hidden from that seat at its position."""
    states = [start_from_record(rec)]
    for i, entry in enumerate(rec["actions"]):
        st = states[-1].clone()
        apply_record_action(st, i, entry)
        states.append(st)
    own = 0
    for p in people:
        for m in p.states:
            st = states[m["table"]["actions"]]
            seen = tokens(game, checked_text(m))
            leaked = seen & hidden_in(game, st, p.seat)
            assert not leaked, (game, p.seat, m["table"]["actions"], sorted(leaked))
            own += len(seen & norm(game, st.hands[p.seat]))  # type: ignore[attr-defined]
    assert own > 0  # the check sees pieces: each seat's own hand shows in its messages
