"""Soak run of the web table (not a test): many tables kept moving while the store goes down once, a
client floods sockets and another reads slowly.

Starts ``muggins serve`` in a subprocess on a fresh SQLite file (or on ``--db URL``), creates ``--tables``
tables: a third two scripted people, a third a person against a bot, a third two bots watched by a
spectator. The scripted people play their first legal move about ``--think`` seconds after their turn
comes and reconnect whenever their socket closes. Meanwhile a flooder opens sockets from one address,
pings as fast as it can and reconnects whenever closed, and a slow reader watches busy tables reading one
message every few seconds. At a third of ``--duration`` the store goes down for ``--outage`` seconds: every
write fails (the server is started with MUGGINS_FAULTS=store_down_file=PATH and the file exists for the
outage), or ``--restart-cmd`` is run instead (for PostgreSQL, e.g. ``pg_ctlcluster 15 main restart``).

Reports the p50/p99 round trip from a person's move to its acknowledgement before, during and after the
outage; the tables stalled at the end (in play, yet no action during the last ``--stall-window`` seconds;
goal 0); and the acknowledged actions lost (an acked move missing from the store read back after the
server stopped; goal 0). Each client address is its own loopback address (127.0.x.y), as the server
limits sockets and requests per address.

    python benchmarks/bench_soak.py                      # about 2.5 minutes, 240 tables, SQLite
    python benchmarks/bench_soak.py --tables 90 --duration 60 --db postgresql+psycopg://...
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets
from bench_server import address, free_port, request, stop_server, wait_until_up

SRC = Path(__file__).resolve().parent.parent / "src"


@dataclass
class Clock:
    """The phases of the run: before the outage, during it, after it."""

    start: float
    outage_at: float
    outage_end: float

    def phase(self, t: float) -> str:
        return "before" if t < self.outage_at else "during" if t < self.outage_end else "after"


def hello(token: str | None) -> str:
    """A table socket's first message: who is there (a seat's token, or None to watch)."""
    return json.dumps({"type": "hello", "token": token})


@dataclass
class Person:
    """One scripted person at a table: acts on its turn, keeps what the server acknowledged."""

    table: str
    seat: int
    url: str
    source: str
    think: float
    rng: random.Random
    samples: list[tuple[str, float, bool]]   # (phase, seconds from send to answer, acknowledged)
    acked: list[tuple[int, int, str]] = field(default_factory=list)  # (index, seat, move)
    acked_at: list[float] = field(default_factory=list)  # seconds from the start of play
    reconnects: int = 0
    over: bool = False
    pending: bool = False   # a move sent and not answered when the run ended
    token: str | None = None  # the seat's token, sent in the socket's first message

    async def run(self, clock: Clock, stop: float) -> None:
        while time.monotonic() < stop and not self.over:
            try:
                async with websockets.connect(self.url, max_size=2**22, local_addr=(self.source, 0),
                                              open_timeout=20) as ws:
                    await ws.send(hello(self.token))
                    await self.play(ws, clock, stop)
            except (OSError, websockets.WebSocketException, TimeoutError):
                pass
            if not self.over and time.monotonic() < stop:
                self.reconnects += 1
                await asyncio.sleep(0.5 + self.rng.random())

    async def play(self, ws: Any, clock: Clock, stop: float) -> None:
        state: dict[str, Any] | None = None
        sent: tuple[float, str, int] | None = None
        due: float | None = None
        while time.monotonic() < stop:
            timeout = 0.5 if due is None else max(0.0, due - time.monotonic())
            try:
                m = json.loads(await asyncio.wait_for(ws.recv(), timeout=min(timeout, 0.5)))
            except TimeoutError:
                m = None
            if m is not None:
                if m["type"] == "state":
                    state = m
                    end = m.get("hand_end") or {}
                    if end.get("paused") and self.seat in end.get("waiting", ()):
                        await ws.send(json.dumps({"type": "next"}))  # a person presses Next hand at once
                elif m["type"] in ("ack", "error") and sent is not None and m.get("ref") == sent[2]:
                    took = time.perf_counter() - sent[0]
                    self.samples.append((clock.phase(time.monotonic()), took, m["type"] == "ack"))
                    if m["type"] == "ack":
                        self.acked.append((m["index"], self.seat, sent[1]))
                        self.acked_at.append(time.monotonic() - clock.start)
                    else:  # not stored (the store is down) or a stale position: try again later
                        due = time.monotonic() + 0.5
                    sent = None
                    self.pending = False
                elif m["type"] == "error" and m.get("fatal"):
                    return
            if state is None or sent is not None:
                continue
            view = state["view"]
            if view["over"] or state["table"]["status"] in ("finished", "abandoned"):
                self.over = True
                return
            moves = [x for x in view["legal"] if not x.startswith(("muggins", "claim"))]
            if self.seat not in view.get("waiting_for", view["to_act"]) or not moves:
                due = None
                continue
            if due is None:
                due = time.monotonic() + self.rng.expovariate(1 / self.think) if self.think > 0 else 0.0
            if time.monotonic() >= due:
                ref = self.rng.randrange(1 << 30)
                sent = (time.perf_counter(), moves[0], ref)
                self.pending = True
                await ws.send(json.dumps({"type": "act", "move": moves[0], "at": state["table"]["actions"],
                                          "ref": ref}))
                due = None


async def watch(url: str, source: str, stop: float) -> None:
    """A spectator of a game of bots (which plays only while somebody watches it), reconnecting."""
    while time.monotonic() < stop:
        try:
            async with websockets.connect(url, max_size=2**22, local_addr=(source, 0), open_timeout=20) as ws:
                await ws.send(hello(None))
                while time.monotonic() < stop:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(ws.recv(), timeout=1.0)
        except (OSError, websockets.WebSocketException, TimeoutError):
            await asyncio.sleep(1.0)


async def flood(urls: list[str], source: str, sockets: int, stop: float, counts: dict[str, int]) -> None:
    """One client opening ``sockets`` sockets, pinging as fast as answers come, reconnecting when closed."""
    async def one(i: int) -> None:
        while time.monotonic() < stop:
            counts["attempts"] += 1
            try:
                async with websockets.connect(urls[i % len(urls)], local_addr=(source, 0), open_timeout=5) as ws:
                    await ws.send(hello(None))
                    counts["opened"] += 1
                    while time.monotonic() < stop:
                        await ws.send('{"type": "ping"}')
                        m = json.loads(await asyncio.wait_for(ws.recv(), timeout=5))
                        if m.get("fatal"):
                            counts["refused"] += 1
                            break
                        counts["messages"] += 1
            except (OSError, websockets.WebSocketException, TimeoutError):
                pass
            await asyncio.sleep(0.05)

    await asyncio.gather(*(one(i) for i in range(sockets)))


async def slow_read(urls: list[str], source: str, stop: float, counts: dict[str, int]) -> None:
    """A spectator reading one message every 5 s: the server drops it rather than wait for it."""
    async def one(url: str) -> None:
        with contextlib.suppress(OSError, websockets.WebSocketException, TimeoutError):
            async with websockets.connect(url, local_addr=(source, 0), max_queue=1, open_timeout=20) as ws:
                await ws.send(hello(None))
                while time.monotonic() < stop:
                    await asyncio.sleep(5)
                    await asyncio.wait_for(ws.recv(), timeout=5)
                    counts["read"] += 1
        counts["cut_off"] += time.monotonic() < stop

    await asyncio.gather(*(one(u) for u in urls))


async def outage(args: argparse.Namespace, down_file: Path, clock: Clock) -> None:
    await asyncio.sleep(max(0.0, clock.outage_at - time.monotonic()))
    if args.restart_cmd:
        await asyncio.to_thread(subprocess.run, shlex.split(args.restart_cmd), check=False)
        clock.outage_end = time.monotonic()
        return
    down_file.touch()
    await asyncio.sleep(args.outage)
    down_file.unlink()


async def setup(args: argparse.Namespace, port: int) -> list[dict[str, Any]]:
    """The tables, created and seated five to a client address (each address's own limits hold)."""
    kinds = ["people", "bot", "bots"]

    def make(n: int) -> list[dict[str, Any]]:
        source = address(n)
        out = []
        for k in range(5 * n, min(args.tables, 5 * n + 5)):
            kind = kinds[k % 3]
            seats = {"people": [None, None], "bot": [None, "casual"], "bots": ["casual", "beginner"]}[kind]
            status, t = request(port, source, "POST", "/api/tables",
                                {"game": "dominoes", "seats": seats, "grace": 0, "bot_delay": args.bot_delay})
            if status != 201:
                raise RuntimeError(f"creating a table: {status} {t}")
            tokens = []
            for i, s in enumerate(seats):
                if s is None:
                    status, r = request(port, source, "POST", f"/api/tables/{t['id']}/seats/{i}", {"name": f"P{i}"})
                    if status != 200:
                        raise RuntimeError(f"taking a seat: {status} {r}")
                    tokens.append((i, r["token"]))
            out.append({"id": t["id"], "kind": kind, "tokens": tokens, "source": source})
        return out

    groups = await asyncio.gather(*(asyncio.to_thread(make, n) for n in range((args.tables + 4) // 5)))
    return [t for g in groups for t in g]


def actions_of(port: int, tables: list[dict[str, Any]]) -> dict[str, tuple[str, int, float]]:
    """Each table's status and actions so far, with when they were read (16 requests at a time)."""
    from concurrent.futures import ThreadPoolExecutor

    def one(t: dict[str, Any]) -> tuple[str, tuple[str, int, float]]:
        try:
            status, s = request(port, "127.0.0.1", "GET", f"/api/tables/{t['id']}")
        except OSError:  # no answer in 30 s: counted as unread
            status, s = 0, None
        got = (s["status"], s["actions"]) if status == 200 else ("unread", -1)
        return t["id"], (*got, time.monotonic())

    with ThreadPoolExecutor(16) as pool:
        return dict(pool.map(one, tables))


async def run(args: argparse.Namespace, port: int, down_file: Path) -> dict[str, Any]:
    t0 = time.monotonic()
    tables = await setup(args, port)
    setup_s = time.monotonic() - t0
    start = time.monotonic()
    stop = start + args.duration
    clock = Clock(start, start + args.duration / 3, start + args.duration / 3 + args.outage)
    rng = random.Random(args.seed)
    samples: list[tuple[str, float, bool]] = []
    people: list[Person] = []
    tasks = []
    ws_base = f"ws://127.0.0.1:{port}/ws/"
    for t in tables:
        for seat, token in t["tokens"]:
            p = Person(t["id"], seat, ws_base + t["id"], t["source"], args.think,
                       random.Random(rng.random()), samples, token=token)
            people.append(p)
            tasks.append(p.run(clock, stop + 600))  # until the last reading of the tables is done
        if t["kind"] == "bots":
            tasks.append(watch(ws_base + t["id"], t["source"], stop + 600))
    urls = [ws_base + t["id"] for t in tables]
    busy = [ws_base + t["id"] for t in tables if t["kind"] == "bots"][:10]
    # the flooder and the slow reader run in a process of their own: their work must not slow the people
    hostile = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--role", "hostile", "--duration", str(stop - time.monotonic()),
        "--flood-sockets", str(args.flood_sockets), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    assert hostile.stdin is not None
    hostile.stdin.write(json.dumps({"all": urls, "busy": busy}).encode() + b"\n")
    await hostile.stdin.drain()
    hostile.stdin.close()
    tasks.append(outage(args, down_file, clock))

    marks: dict[str, float] = {}

    async def snapshot(at: float, name: str) -> dict[str, tuple[str, int, float]]:
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        marks[name] = time.monotonic() - start
        return await asyncio.to_thread(actions_of, port, tables)

    playing = [asyncio.ensure_future(t) for t in tasks]
    # stalled: in play, yet no action between two readings --stall-window seconds apart, people still playing
    first = await snapshot(stop - args.stall_window, "first_reading_s")
    last = await snapshot(stop, "last_reading_s")
    for task in playing:
        task.cancel()
    await asyncio.gather(*playing, return_exceptions=True)
    hostile_out, _ = await hostile.communicate()
    flooder, slow = json.loads(hostile_out)
    stalled = [tid for tid, (status, n, when) in last.items() if status in ("open", "playing")
               and n == first[tid][1] and when - first[tid][2] >= args.stall_window / 2]
    unread = sum(1 for tid in last if last[tid][0] == "unread" or first[tid][0] == "unread")
    details = [request(port, "127.0.0.1", "GET", f"/api/tables/{tid}")[1] for tid in stalled[:5]]
    kind_of = {t["id"]: t["kind"] for t in tables}
    stalled_kinds = {k: sum(1 for tid in stalled if kind_of[tid] == k) for k in ("people", "bot", "bots")}
    after = last

    def pct(xs: list[float], p: float) -> float | None:
        xs = sorted(xs)
        return round(1000 * xs[min(len(xs) - 1, int(p * len(xs)))], 1) if xs else None

    phases = {}
    for ph in ("before", "during", "after"):
        acks = [s for p, s, ok in samples if p == ph and ok]
        errors = [s for p, s, ok in samples if p == ph and not ok]
        phases[ph] = {"acked": len(acks), "refused": len(errors), "refused_p99_ms": pct(errors, 0.99),
                      "p50_ms": pct(acks, 0.5), "p99_ms": pct(acks, 0.99),
                      "mean_ms": round(1000 * statistics.fmean(acks), 1) if acks else None}
    kinds = {k: sum(1 for t in tables if t["kind"] == k) for k in ("people", "bot", "bots")}
    ended = {k: sum(1 for t in tables if t["kind"] == k and after[t["id"]][0] == "finished") for k in kinds}
    return {"tables": len(tables), "kinds": kinds, "finished": ended, "setup_s": round(setup_s, 1),
            "duration_s": args.duration, "outage_s": round(clock.outage_end - clock.outage_at, 1),
            "phases": phases, "stalled": stalled, "stalled_kinds": stalled_kinds, "unread": unread,
            "stalled_details": [{k: d.get(k) for k in ("id", "status", "actions", "seats", "paused", "spectators")}
                                for d in details], "people": len(people),
            "unanswered": sum(p.pending for p in people), "marks_s": {k: round(v, 1) for k, v in marks.items()},
            "acks_by_10s": [sum(1 for q in people for a in q.acked_at if int(a // 10) == i)
                            for i in range(int(args.duration // 10) + 1)],
            "reconnects": sum(p.reconnects for p in people), "flooder": flooder, "slow_reader": slow,
            "bot_table_actions": sum(after[t["id"]][1] for t in tables if t["kind"] == "bots"),
            "_acked": {f"{p.table}:{p.seat}": p.acked for p in people}}


def lost_actions(db: str, acked: dict[str, list[tuple[int, int, str]]]) -> tuple[int, int]:
    """(acknowledged actions, of those missing from the store or stored differently)."""
    sys.path.insert(0, str(SRC))
    from muggins.server.store import Store

    store = Store(db)
    total = lost = 0
    try:
        cache: dict[str, Any] = {}
        for key, acks in acked.items():
            tid = key.split(":")[0]
            if tid not in cache:
                cache[tid] = store.load_one(tid)
            stored = cache[tid].actions if cache[tid] is not None else []
            for idx, seat, move in acks:
                total += 1
                if idx >= len(stored) or (stored[idx]["seat"], stored[idx]["move"]) != (seat, move):
                    lost += 1
    finally:
        store.close()
    return total, lost


async def hostile(args: argparse.Namespace) -> None:
    """The flooder and the slow reader, for ``--duration`` seconds; prints what they met as JSON."""
    urls = json.loads(sys.stdin.readline())  # the sockets to open, from the run
    stop = time.monotonic() + args.duration
    flooder = {"attempts": 0, "opened": 0, "refused": 0, "messages": 0}
    slow = {"read": 0, "cut_off": 0}
    await asyncio.gather(flood(urls["all"], "127.0.0.250", args.flood_sockets, stop, flooder),
                         slow_read(urls["busy"], "127.0.0.251", stop, slow))
    print(json.dumps([flooder, slow]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=240)
    ap.add_argument("--duration", type=float, default=150.0, help="seconds of play (the setup comes before)")
    ap.add_argument("--outage", type=float, default=6.0, help="seconds the store refuses every write")
    ap.add_argument("--think", type=float, default=1.5, help="mean seconds a person thinks before moving")
    ap.add_argument("--bot-delay", type=float, default=0.5)
    ap.add_argument("--flood-sockets", type=int, default=40)
    ap.add_argument("--stall-window", type=float, default=20.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--port", type=int, default=0, help="the server's port (default: a free one)")
    ap.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    ap.add_argument("--restart-cmd", default=None,
                    help="run this to restart the database instead of failing writes for --outage seconds")
    ap.add_argument("--json", action="store_true", help="print the whole report as JSON")
    ap.add_argument("--log", default=None, help="keep the server's log in this file")
    ap.add_argument("--role", default="run", choices=["run", "hostile"], help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.role == "hostile":
        asyncio.run(hostile(args))
        return
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    port = args.port or free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'soak.db'}"
        down = Path(tmp) / "store-down"
        env = {**os.environ, "MUGGINS_FAULTS": f"store_down_file={down}",
               "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
        log = open(Path(tmp) / "server.log", "w+b")  # noqa: SIM115 - read back after the server stops
        proc = subprocess.Popen([sys.executable, "-m", "muggins", "serve", "--port", str(port), "--db", db],
                                stdout=log, stderr=subprocess.STDOUT, env=env)
        try:
            wait_until_up(base)
            out = asyncio.run(run(args, port, down))
        finally:
            stop_server(proc)
            if args.log:
                log.seek(0)
                Path(args.log).write_bytes(log.read())
        acked = out.pop("_acked")
        out["acknowledged"], out["lost"] = lost_actions(db, acked)
        log.seek(0)
        text = log.read().decode(errors="replace")
        out["server_log"] = {"lines": text.count("\n"), "tracebacks": text.count("Traceback"),
                             "bot_retries": text.count("its bots try again"),
                             "store_warnings": text.count("did not take")}
    out["stalled_count"] = len(out["stalled"])
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"{out['tables']} tables {out['kinds']} for {args.duration:g} s; store down {out['outage_s']} s")
    for ph, v in out["phases"].items():
        print(f"  {ph:6}: {v['acked']:6} moves acked, {v['refused']:5} refused (answered in p99 "
              f"{v['refused_p99_ms']} ms); ack p50 {v['p50_ms']} ms, p99 {v['p99_ms']} ms")
    print(f"  tables stalled: {out['stalled_count']}; acknowledged actions lost: {out['lost']} of "
          f"{out['acknowledged']}; finished: {out['finished']}")
    print(f"  flooder: {out['flooder']}; slow reader: {out['slow_reader']}; reconnects: {out['reconnects']}")
    print(f"  server log: {out['server_log']}")


if __name__ == "__main__":
    main()
