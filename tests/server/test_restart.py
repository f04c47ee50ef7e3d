"""A server killed with SIGKILL during play and started again on the same SQLite file has lost nothing
it acknowledged, and its bots play on (a game of bots alone, while somebody watches it)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

ws_client = pytest.importorskip("websockets.sync.client", reason="the restart test needs websockets")

from muggins.server.store import Store  # noqa: E402
from tests.server.conftest import hello  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(db: str, port: int, *args: str, env: dict[str, str] | None = None,
          log: Path | None = None) -> subprocess.Popen[bytes]:
    """``muggins serve`` on ``port``, once it answers; its output goes to ``log`` (appended) when given."""
    out: Any = open(log, "ab") if log is not None else subprocess.PIPE  # noqa: SIM115 (the child keeps it)
    proc = subprocess.Popen([sys.executable, "-m", "muggins", "serve", "--port", str(port), "--db", db, *args],
                            stdout=out, stderr=subprocess.STDOUT, env=env)
    if log is not None:
        out.close()
    deadline = time.monotonic() + 60  # a loaded machine takes long to import everything
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    proc.wait()
    output = proc.stdout.read() if proc.stdout else log.read_bytes() if log is not None else b""
    raise AssertionError(f"the server did not start: {output!r}")


def post(base: str, path: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=5) as r:
        return json.load(r)


def get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=5) as r:
        return json.load(r)


def opened(ws: Any, token: str | None) -> Any:
    """A table's socket after its first message, which says who is there."""
    ws.send(hello(token))
    return ws


def recv_until(ws: Any, kind: str) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Read up to a message of ``kind``; also return the last state seen on the way."""
    state = None
    while True:
        m = json.loads(ws.recv(timeout=10))
        if m["type"] == "state":
            state = m
        if m["type"] == kind:
            return m, state


def test_kill_9_loses_no_acknowledged_action(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'restart.db'}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start(db, port)
    try:
        t = post(base, "/api/tables", {"game": "card-muggins", "seats": [None, None], "grace": 0})
        tokens = [post(base, f"/api/tables/{t['id']}/seats/{i}", {"name": f"P{i}"})["token"] for i in (0, 1)]
        bot_table = post(base, "/api/tables", {"game": "dominoes", "seats": ["beginner", "beginner"],
                                               "grace": 0, "bot_delay": 0.05})
        socks = [opened(ws_client.connect(f"ws://127.0.0.1:{port}/ws/{t['id']}"), tok) for tok in tokens]
        # a game of bots plays while somebody watches it
        watcher = opened(ws_client.connect(f"ws://127.0.0.1:{port}/ws/{bot_table['id']}"), None)
        states = [recv_until(s, "state")[0] for s in socks]
        acked: list[dict[str, Any]] = []
        for _ in range(40):
            view = states[0]["view"]
            seat = min(view["to_act"])
            s = socks[seat]
            mine = states[seat]["view"]["legal"]
            move = next(m for m in mine if m != "muggins")
            s.send(json.dumps({"type": "act", "move": move, "at": states[seat]["table"]["actions"]}))
            _ack, st = recv_until(s, "ack")
            acked.append({"seat": seat, "move": move})
            states[seat] = st or states[seat]
            other = 1 - seat
            while True:  # bring the other seat's view up to date
                m = json.loads(socks[other].recv(timeout=10))
                if m["type"] == "state" and m["table"]["actions"] == len(acked):
                    states[other] = m
                    break
        for _ in range(300):  # let the bots' game get going
            if (bot_actions := get(base, f"/api/tables/{bot_table['id']}")["actions"]) >= 3:
                break
            time.sleep(0.05)
        # one more move in flight while the server dies
        seat = min(states[0]["view"]["to_act"])
        socks[seat].send(json.dumps({"type": "act", "move": next(m for m in states[seat]["view"]["legal"]
                                                                  if m != "muggins"),
                                     "at": states[seat]["table"]["actions"]}))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        for s in [*socks, watcher]:
            s.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    stored = {x.id: x for x in Store(db).load_all()}
    actions = stored[t["id"]].actions
    assert actions[: len(acked)] == acked
    assert len(actions) in (len(acked), len(acked) + 1)
    assert len(stored[bot_table["id"]].actions) >= bot_actions > 0
    proc = start(db, port)
    try:
        assert get(base, f"/api/tables/{t['id']}")["actions"] == len(actions)
        with ws_client.connect(f"ws://127.0.0.1:{port}/ws/{t['id']}") as s:
            s.send(hello(tokens[0]))
            m = recv_until(s, "state")[0]
            assert m["you"] == 0 and m["table"]["seats"][1]["name"] == "P1"
            assert m["table"]["actions"] == len(actions)
        later = len(stored[bot_table["id"]].actions)
        with ws_client.connect(f"ws://127.0.0.1:{port}/ws/{bot_table['id']}") as watching:
            watching.send(hello(None))
            for _ in range(400):  # the bots resume their game (a muggins reaction may take seconds)
                if get(base, f"/api/tables/{bot_table['id']}")["actions"] > later:
                    break
                time.sleep(0.05)
            assert get(base, f"/api/tables/{bot_table['id']}")["actions"] > later
    finally:
        proc.kill()
        proc.wait(10)
