"""Load benchmark of the web table (not a test): scripted clients on loopback play many tables at once.

Starts ``muggins serve`` on a fresh SQLite file in a subprocess, creates ``--tables`` tables with two
scripted seats each, and lets every seat play its first legal move ``--think`` seconds (on average)
after its turn comes, for ``--duration`` seconds. Reports the tables held (both connections still up
and the game moving), the moves made and the p50/p99 round trip from sending a move to its
acknowledgement (which the server sends only once the move is committed).

    python benchmarks/bench_server.py --tables 500 --duration 30
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_up(base: str, tries: int = 400) -> None:
    """Wait for the server at ``base`` to answer (0.05 s between tries)."""
    for _ in range(tries):
        try:
            urllib.request.urlopen(base + "/api/games", timeout=1)
            return
        except OSError:
            time.sleep(0.05)


def stop_server(proc: subprocess.Popen[bytes], wait: float = 20.0) -> None:
    proc.terminate()
    try:
        proc.wait(wait)
    except subprocess.TimeoutExpired:
        proc.kill()


def post(base: str, path: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


class Seat:
    """One scripted player: acts on its turn after a think time, measures send-to-ack."""

    def __init__(self, url: str, token: str, seat: int, think: float, rng: random.Random, rtts: list[float],
                 stop: float) -> None:
        self.url, self.seat, self.think, self.rng, self.rtts, self.stop = url, seat, think, rng, rtts, stop
        self.token = token
        self.moves = 0
        self.errors = 0
        self.alive = False
        self.over = False

    async def run(self) -> None:
        async with websockets.connect(self.url, max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))  # who sits here: never in the URL
            self.alive = True
            state: dict[str, Any] | None = None
            sent_at: float | None = None
            due: float | None = None
            while time.monotonic() < self.stop:
                timeout = 0.5 if due is None else max(0.0, due - time.monotonic())
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=timeout)
                except TimeoutError:
                    raw = None
                if raw is not None:
                    m = json.loads(raw)
                    if m["type"] == "state":
                        state = m
                    elif m["type"] in ("ack", "error") and sent_at is not None:
                        if m["type"] == "ack":
                            self.rtts.append(time.perf_counter() - sent_at)
                            self.moves += 1
                        else:
                            self.errors += 1
                        sent_at = None
                if state is None or sent_at is not None:
                    continue
                view = state["view"]
                if view["over"]:
                    self.over = True
                    break
                waited = self.seat in view.get("waiting_for", view["to_act"])
                mine = waited and any(x != "muggins" for x in view["legal"])
                if not mine:
                    due = None
                    continue
                if due is None:
                    due = time.monotonic() + self.rng.expovariate(1 / self.think) if self.think > 0 else 0.0
                if time.monotonic() >= due:
                    move = next(x for x in view["legal"] if x != "muggins")
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "act", "move": move, "at": state["table"]["actions"]}))
                    due = None
            self.alive = not ws.close_code if hasattr(ws, "close_code") else True


async def run(args: argparse.Namespace, base: str, port: int) -> dict[str, Any]:
    gc.collect()
    gc.freeze()
    gc.set_threshold(20000, 20, 20)  # the clients' own collector pauses would show as server latency
    rng = random.Random(args.seed)
    seats: list[tuple[str, Seat]] = []
    rtts: list[float] = []
    t0 = time.monotonic()
    tables = []
    for _ in range(args.tables):
        t = post(base, "/api/tables", {"game": args.game, "seats": [None, None], "grace": 0})
        toks = [post(base, f"/api/tables/{t['id']}/seats/{i}", {"name": f"p{i}"})["token"] for i in (0, 1)]
        tables.append((t["id"], toks))
    setup = time.monotonic() - t0
    stop = time.monotonic() + args.duration
    for tid, toks in tables:
        for i, tok in enumerate(toks):
            seats.append((tid, Seat(f"ws://127.0.0.1:{port}/ws/{tid}", tok, i, args.think,
                                    random.Random(rng.random()), rtts, stop)))
    results = await asyncio.gather(*(s.run() for _, s in seats), return_exceptions=True)
    failures = [r for r in results if isinstance(r, BaseException)]
    by_table: dict[str, list[Seat]] = {}
    for tid, s in seats:
        by_table.setdefault(tid, []).append(s)
    failed_ids = {tid for (tid, _), r in zip(seats, results, strict=True) if isinstance(r, BaseException)}
    held = sum(1 for tid, ss in by_table.items() if tid not in failed_ids and sum(s.moves for s in ss) > 0)
    q = sorted(rtts)

    def pct(p: float) -> float:
        return 1000 * q[min(len(q) - 1, int(p * len(q)))] if q else float("nan")

    return {"tables": args.tables, "tables_held": held, "connections": len(seats),
            "connection_failures": len(failures), "moves": len(q),
            "moves_per_s": round(len(q) / args.duration, 1), "errors": sum(s.errors for _, s in seats),
            "rtt_ms": {"p50": round(pct(0.50), 2), "p90": round(pct(0.90), 2), "p99": round(pct(0.99), 2),
                       "max": round(1000 * q[-1], 2) if q else None,
                       "mean": round(1000 * statistics.fmean(q), 2) if q else None},
            "setup_s": round(setup, 1), "duration_s": args.duration, "think_s": args.think, "game": args.game,
            "first_error": repr(failures[0]) if failures else None}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=500)
    ap.add_argument("--duration", type=float, default=30.0)
    ap.add_argument("--think", type=float, default=1.0, help="mean seconds a player thinks before moving")
    ap.add_argument("--game", default="dominoes")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    args = ap.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        proc = subprocess.Popen([sys.executable, "-m", "muggins", "serve", "--port", str(port), "--db", db],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            wait_until_up(base)
            try:
                import uvloop

                out = uvloop.run(run(args, base, port))
            except ImportError:
                out = asyncio.run(run(args, base, port))
        finally:
            stop_server(proc)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
