"""Load benchmark of the web table (not a test): N tables, each a bot and a scripted person, on 1 and 2 processes.

For each number of tables in ``--tables`` and each setup in ``--setups``, it starts the servers, creates the
tables (a person's seat and a beginner bot each), connects one scripted person per table and lets it play its
first legal move ``--think`` seconds (on average) after its turn comes, pressing Next hand at each hand's end,
for ``--duration`` seconds. Reports, side by side, the tables held (the person's socket up and the game
moving), the actions a second (people's and bots', from the servers' /metrics), the p50/p99 round trip from
sending a move to its acknowledgement (sent once the move is committed), and where the time went: the CPU
seconds of the servers, of Redis and of the clients, and the mean commit wait of an action with the seconds
of commit wait a second per process (``muggins_store_write_seconds``: the writes are waited for on writer
threads, off the event loop, so this is the number of actions waiting for their commit at any moment).

Setups:

- ``1``: one ``muggins serve`` process, embedded mode (in-process messaging) on ``--db``;
- ``1r``: one process in scale-out mode (``--redis``), to see what Redis costs alone;
- ``2``: two processes in scale-out mode; each table is made on one of them in turn (which then owns it) and
  its person connects to its owner, as a proxy that routes a table's sockets to its owner would;
- ``2x``: two processes, each person connected to the process that does NOT own its table (every move
  relayed over Redis pub/sub: the worst case of a proxy that spreads sockets at random).

``--db`` is a database of the benchmark's own (PostgreSQL for the 2-process setups; default: a fresh SQLite file
for setup 1 alone): before each run, the tables still in play there are marked abandoned.

    python benchmarks/bench_server.py --tables 50,100,200,300 --setups 1,2 --duration 45 \\
        --db postgresql+psycopg://USER:PW@127.0.0.1/DB --redis redis://127.0.0.1:6379/3
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import http.client
import json
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets

CLK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_up(base: str, seconds: float = 90.0) -> None:
    """Wait for the server at ``base`` to answer."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(base + "/api/games", timeout=1)
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{base} did not start")


def stop_server(proc: subprocess.Popen[bytes], wait: float = 20.0) -> None:
    proc.terminate()
    try:
        proc.wait(wait)
    except subprocess.TimeoutExpired:
        proc.kill()


def address(n: int) -> str:
    """The n-th client address of the run (1-based), on the loopback network: each address's own limits hold."""
    return f"127.0.{1 + n // 250}.{1 + n % 250}"


def request(port: int, source: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        data = json.dumps(body).encode() if body is not None else None
        conn.request(method, path, body=data, headers={"content-type": "application/json"} if data else {})
        r = conn.getresponse()
        return r.status, json.loads(r.read() or b"null")
    finally:
        conn.close()


def post(port: int, source: str, path: str, body: dict[str, Any]) -> Any:
    status, out = request(port, source, "POST", path, body)
    if status not in (200, 201):
        raise RuntimeError(f"POST {path}: {status} {out}")
    return out


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK


def figures(base: str) -> dict[str, float]:
    """The totals of a server's /metrics the benchmark reads: actions, and the seconds of store commits."""
    with urllib.request.urlopen(base + "/metrics", timeout=30) as r:
        text = r.read().decode()
    out = {"actions": 0.0, "store_s": 0.0, "store_n": 0.0}
    for line in text.splitlines():
        if line.startswith("muggins_actions_total{"):
            out["actions"] += float(line.split()[-1])
        elif line.startswith("muggins_store_write_seconds_sum "):
            out["store_s"] = float(line.split()[-1])
        elif line.startswith("muggins_store_write_seconds_count "):
            out["store_n"] = float(line.split()[-1])
    return out


class Person:
    """One scripted person: acts on its turn after a think time, presses Next hand, measures send-to-ack."""

    def __init__(self, url: str, source: str, token: str, think: float, rng: random.Random, rtts: list[float],
                 stop: float) -> None:
        self.url, self.source, self.think, self.rng, self.rtts, self.stop = url, source, think, rng, rtts, stop
        self.token = token
        self.seat = 0
        self.moves = 0
        self.errors = 0

    async def run(self) -> None:
        async with websockets.connect(self.url, max_size=2**22, open_timeout=60, local_addr=(self.source, 0)) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))  # who sits here: never in the URL
            state: dict[str, Any] | None = None
            sent_at: float | None = None
            due: float | None = None
            pressed = -1
            while time.monotonic() < self.stop:
                timeout = 0.5 if due is None else max(0.0, due - time.monotonic())
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=min(timeout, self.stop - time.monotonic()))
                except TimeoutError:
                    raw = None
                if raw is not None:
                    m = json.loads(raw)
                    if m["type"] == "state":
                        state = m
                    elif m["type"] in ("ack", "error") and m.get("ref") == "a" and sent_at is not None:
                        if m["type"] == "ack":
                            self.rtts.append(time.perf_counter() - sent_at)
                            self.moves += 1
                        else:
                            self.errors += 1
                        sent_at = None
                if state is None or sent_at is not None:
                    continue
                view, at = state["view"], state["table"]["actions"]
                if view["over"]:
                    return
                pause = state.get("hand_end") or {}
                if pause.get("paused") and self.seat in pause.get("waiting", []):
                    if pressed != at:
                        pressed = at
                        await ws.send(json.dumps({"type": "next", "ref": "n"}))
                    continue
                waited = self.seat in view.get("waiting_for", view["to_act"])
                regular = [x for x in view["legal"] if x != "muggins"]
                if not (waited and regular):
                    due = None
                    continue
                if due is None:
                    due = time.monotonic() + (self.rng.expovariate(1 / self.think) if self.think > 0 else 0.0)
                if time.monotonic() >= due:
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "act", "move": regular[0], "at": at, "ref": "a"}))
                    due = None


def abandon_in_play(db: str) -> None:
    """Mark the tables a previous run left in play abandoned, so that no process starts by taking them over."""
    from sqlalchemy import create_engine, text

    engine = create_engine(db)
    try:
        with engine.begin() as conn:
            if engine.dialect.has_table(conn, "game_tables"):
                conn.execute(text("UPDATE game_tables SET status = 'abandoned' WHERE status IN ('open', 'playing')"))
    finally:
        engine.dispose()


def redis_cpu(url: str | None) -> float:
    if not url:
        return 0.0
    import redis

    client = redis.Redis.from_url(url)
    try:
        info = client.info("cpu")
        return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
    finally:
        client.close()


async def play(args: argparse.Namespace, ports: list[int], tables: int, relayed: bool) -> dict[str, Any]:
    rng = random.Random(args.seed)
    rtts: list[float] = []
    made = []
    for i in range(tables):  # five tables to a client address
        owner, source = ports[i % len(ports)], address(i // 5)
        t = post(owner, source, "/api/tables", {"game": args.game, "seats": [None, "beginner"], "grace": 0,
                                                "bot_delay": args.bot_delay})
        tok = post(owner, source, f"/api/tables/{t['id']}/seats/0", {"name": "p"})["token"]
        at = ports[(i + 1) % len(ports)] if relayed else owner
        made.append((t["id"], tok, at, source))
    before = {p: figures(f"http://127.0.0.1:{p}") for p in ports}
    stop = time.monotonic() + args.duration
    people = [Person(f"ws://127.0.0.1:{port}/ws/{tid}", source, tok, args.think, random.Random(rng.random()), rtts,
                     stop) for tid, tok, port, source in made]
    began = time.monotonic()
    results = await asyncio.gather(*(p.run() for p in people), return_exceptions=True)
    elapsed = time.monotonic() - began
    after = {p: figures(f"http://127.0.0.1:{p}") for p in ports}
    failures = [r for r in results if isinstance(r, BaseException)]
    q = sorted(rtts)

    def pct(p: float) -> float:
        return round(1000 * q[min(len(q) - 1, int(p * len(q)))], 1) if q else float("nan")

    actions = sum(after[p]["actions"] - before[p]["actions"] for p in ports)
    store_s = sum(after[p]["store_s"] - before[p]["store_s"] for p in ports)
    store_n = sum(after[p]["store_n"] - before[p]["store_n"] for p in ports)
    return {"tables_held": sum(1 for p, r in zip(people, results, strict=True)
                               if p.moves and not isinstance(r, BaseException)),
            "actions_per_s": round(actions / elapsed, 1), "person_moves": len(q),
            "p50_ms": pct(0.50), "p99_ms": pct(0.99), "errors": sum(p.errors for p in people),
            "connection_failures": len(failures),
            "store_commit_ms": round(1000 * store_s / store_n, 2) if store_n else None,
            "loop_in_commits": round(store_s / elapsed / len(ports), 3),
            "first_error": repr(failures[0])[:200] if failures else None}


def one_run(args: argparse.Namespace, setup: str, tables: int, db: str) -> dict[str, Any]:
    count = 2 if setup.startswith("2") else 1
    scaled = setup != "1"
    if count > 1 and db.startswith("sqlite"):
        raise SystemExit("the 2-process setups need a shared database: give --db postgresql+psycopg://...")
    if scaled and not args.redis:
        raise SystemExit(f"setup {setup} needs --redis URL")
    abandon_in_play(db)
    if scaled:
        import redis

        redis.Redis.from_url(args.redis).flushdb()
    ports = [args.ports + i for i in range(count)] if args.ports else [free_port() for _ in range(count)]
    procs = []
    for port in ports:
        extra = ["--redis", args.redis] if scaled else []
        log = open(Path(args.logs) / f"serve-{tables}-{setup}-{port}.log", "wb") if args.logs else None  # noqa: SIM115
        procs.append(subprocess.Popen([sys.executable, "-m", "muggins", "serve", "--port", str(port), "--db", db,
                                       "--idle-minutes", "5", *extra],
                                      stdout=subprocess.DEVNULL, stderr=log or subprocess.DEVNULL))
        if log is not None:
            log.close()
    try:
        for port in ports:
            wait_until_up(f"http://127.0.0.1:{port}")
        cpu0 = [cpu_seconds(p.pid) for p in procs]
        me0 = resource.getrusage(resource.RUSAGE_SELF)
        r0 = redis_cpu(args.redis if scaled else None)
        out = asyncio.run(play(args, ports, tables, setup == "2x"))
        me1 = resource.getrusage(resource.RUSAGE_SELF)
        out["server_cpu_s"] = round(sum(cpu_seconds(p.pid) - c for p, c in zip(procs, cpu0, strict=True)), 1)
        out["redis_cpu_s"] = round(redis_cpu(args.redis if scaled else None) - r0, 1)
        out["client_cpu_s"] = round(me1.ru_utime + me1.ru_stime - me0.ru_utime - me0.ru_stime, 1)
    finally:
        for p in procs:
            stop_server(p)
    return {"setup": setup, "tables": tables, **out}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", default="50,100,200,300", help="numbers of tables, comma-separated")
    ap.add_argument("--setups", default="1,2", help="setups, comma-separated: 1, 1r, 2, 2x (see above)")
    ap.add_argument("--duration", type=float, default=45.0, help="seconds of play in each run")
    ap.add_argument("--think", type=float, default=1.0, help="mean seconds a person thinks before moving")
    ap.add_argument("--bot-delay", type=float, default=0.8, help="the tables' bot delay (seconds)")
    ap.add_argument("--game", default="dominoes")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--db", default=os.environ.get("MUGGINS_BENCH_DB"),
                    help="database URL, of the benchmark's own (default: a fresh SQLite file, setup 1 only)")
    ap.add_argument("--redis", default=None, help="Redis URL of the scale-out setups (its database is flushed)")
    ap.add_argument("--json", default=None, help="also write the results to this file")
    ap.add_argument("--logs", default=None, help="a directory for the servers' logs (default: none kept)")
    ap.add_argument("--ports", type=int, default=None,
                    help="the servers listen on this port and the next one (default: free ports the system picks)")
    args = ap.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    gc.collect()
    gc.freeze()
    gc.set_threshold(20000, 20, 20)  # the clients' own collector pauses would show as server latency
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        for n in (int(x) for x in args.tables.split(",")):
            for setup in args.setups.split(","):
                row = one_run(args, setup, n, db)
                rows.append(row)
                print(json.dumps(row), flush=True)
    print()
    print("| tables | setup | held | actions/s | p50 ms | p99 ms | commit ms | in commits | server CPU s | "
          "Redis CPU s | client CPU s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['tables']} | {r['setup']} | {r['tables_held']} | {r['actions_per_s']} | {r['p50_ms']} | "
              f"{r['p99_ms']} | {r['store_commit_ms']} | {r['loop_in_commits']:.0%} | {r['server_cpu_s']} | "
              f"{r['redis_cpu_s']} | {r['client_cpu_s']} |")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
