"""What the bot API's tests share: the app served by uvicorn on a local port, people and bot accounts
made through the API, a person who plays through the table's socket, and the stream messages' schemas."""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest

uvicorn = pytest.importorskip("uvicorn", reason="the bot API tests need uvicorn")
websockets_sync = pytest.importorskip("websockets.sync.client", reason="the bot API tests need websockets")

from muggins.server.app import create_app  # noqa: E402

PORTS = range(8630, 8640)
SCHEMAS = Path(__file__).resolve().parents[2] / "src" / "muggins" / "schemas"
PASSWORD = "correct horse battery"
# short games of each family, each with the muggins rule (calls and late claims are moves too)
SHORT = {"dominoes": ("muggins", {"target": 50}), "card-muggins": ("muggins", {"target": 31}),
         "cribbage": ("cribbage-muggins", {"target": 31})}


def port_of_range() -> int:
    """A free port of the range these tests may use."""
    for port in PORTS:
        with socket.socket() as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds: past connections' TIME_WAIT
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {PORTS.start}-{PORTS.stop - 1}")


def make_app(db_url: str, **kw: Any) -> Any:
    app = create_app(db_url, rate=1e6, burst=1e6, time_scale=0.0, tables_burst=1e6, seats_burst=1e6,
                     connects_burst=1e6, connects_per_minute=1e6, **kw)
    app.state.bots.keepalive = 0.3
    return app


@contextmanager
def serve(app: Any) -> Iterator[str]:
    """Run ``app`` with uvicorn in a thread on a port of the range: yields its base URL, then stops it."""
    port = port_of_range()
    # the streams never end by themselves: a stopping server cuts them after a moment
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                        timeout_graceful_shutdown=1))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    for _ in range(400):
        if srv.started:
            break
        time.sleep(0.025)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        th.join(15)


def person(base: str, name: str) -> httpx.Client:
    """A logged-in person (a new account)."""
    c = httpx.Client(base_url=base, timeout=30)
    r = c.post("/api/account", json={"username": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return c


def bot_account(owner: httpx.Client, name: str) -> str:
    """A bot account of ``owner`` and a token for it."""
    r = owner.post("/api/bot/accounts", json={"username": name})
    assert r.status_code == 201, r.text
    r = owner.post(f"/api/bot/accounts/{name}/tokens", json={"label": "tests"})
    assert r.status_code == 201, r.text
    return str(r.json()["token"])


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def wait_for(check: Callable[[], Any], seconds: float = 60.0) -> Any:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"still not so after {seconds:g} s")


class SocketPlayer(threading.Thread):
    """A person at a seat who plays through the table's socket, as the page does: a random regular move
    (never a call, never a claim: what he scores he leaves for the others to call), Next hand at each
    hand's end."""

    def __init__(self, base: str, table_id: str, token: str, seed: int) -> None:
        super().__init__(daemon=True)
        self.url = base.replace("http://", "ws://") + f"/ws/{table_id}"
        self.token = token
        self.rng = random.Random(seed)
        self.moves = 0
        self.last: dict[str, Any] | None = None
        self.errors: list[str] = []

    def run(self) -> None:
        with websockets_sync.connect(self.url, open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "token": self.token}))
            while True:
                msg = json.loads(ws.recv(timeout=120))
                if msg.get("type") == "error":
                    self.errors.append(msg["message"])
                    continue
                if msg.get("type") != "state":
                    continue
                self.last = msg
                table = msg["table"]
                if table["status"] not in ("open", "playing"):
                    return
                pause = msg.get("hand_end")
                if pause and pause.get("paused") and msg["you"] in pause.get("waiting", []):
                    ws.send(json.dumps({"type": "next"}))
                    continue
                regular = [m for m in msg["view"].get("legal", []) if m != "muggins" and not m.startswith("claim")]
                if table["status"] == "playing" and regular:
                    ws.send(json.dumps({"type": "act", "move": self.rng.choice(regular), "claim": None,
                                        "at": table["actions"]}))
                    self.moves += 1


def validator(name: str) -> jsonschema.protocols.Validator:
    schema = json.loads((SCHEMAS / name).read_text())
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema)
