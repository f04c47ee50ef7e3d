"""Fixtures of the web table tests: the app in-process on a fresh SQLite file."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web table needs fastapi (pip install -e '.[test]')")
pytest.importorskip("sqlalchemy", reason="the web table needs sqlalchemy")
pytest.importorskip("httpx", reason="the app tests need httpx")

from fastapi.testclient import TestClient

from muggins.server.app import create_app
from tests.server.redis_helpers import redis_url  # noqa: F401  (the fixture of the scale-out tests)


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tables.db'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    # bots answer at once, so a scripted player may send faster than a person could: no rate limits here
    # (the tests of the limits make their own app)
    with TestClient(create_app(db_url, rate=1e6, burst=1e6, time_scale=0.0, tables_burst=1e6,
                               seats_burst=1e6)) as c:
        yield c


def same_server(client: TestClient, browser: TestClient) -> TestClient:
    """``browser`` sends its requests to the event loop of ``client`` (started by ``with client``), as every
    browser of a real server reaches its one loop. Without it each request would run on a loop of its own,
    closed when the request ends, and the bot tasks the request started (a bot's first move after a seat is
    taken) would be cancelled with it, perhaps after their move was stored and before it was applied."""
    assert client.portal is not None, "the first client must be started (with TestClient(...) as client)"
    browser.portal = client.portal
    return browser


def new_table(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("game", "dominoes")
    body.setdefault("grace", 0)
    body.setdefault("bot_delay", 0)
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def sit(client: TestClient, table_id: str, seat: int, name: str = "Ann") -> str:
    r = client.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": name})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


@contextmanager
def table_socket(client: TestClient, table_id: str, token: str | None = None, **kw: Any) -> Iterator[Any]:
    """The table's WebSocket, opened as the page opens it: the seat token (None to watch) goes in the first
    message, never in the address."""
    with client.websocket_connect(f"/ws/{table_id}", **kw) as ws:
        ws.send_text(hello(token))
        yield ws


def hello(token: str | None) -> str:
    """The first message on a table's socket: who is there."""
    return json.dumps({"type": "hello", "token": token})

