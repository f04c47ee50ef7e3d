"""Request bodies and messages are bounded before they cost anything: an oversized body is refused without
being read (or, sent in chunks, as soon as it passes the cap), a deeply nested one is refused before it is
parsed, and on the socket a bad frame is answered with an error while the connection keeps working."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from muggins.server.app import MAX_BODY_BYTES, create_app
from muggins.server.guard import MAX_DEPTH, json_depth
from tests.server.conftest import new_table, table_socket

CHUNK = 65536


def post_asgi(app: FastAPI, path: str, chunks: Iterator[bytes], headers: dict[str, str]
              ) -> tuple[int, dict[str, Any], int]:
    """POST straight to the ASGI app, feeding the body chunk by chunk from ``chunks``; returns the status,
    the JSON answer and how many body bytes the app asked for."""
    consumed = 0
    sent: list[dict[str, Any]] = []
    pending = next(chunks, None)

    async def receive() -> dict[str, Any]:
        nonlocal consumed, pending
        if pending is None:
            return {"type": "http.disconnect"}
        chunk, pending = pending, next(chunks, None)
        consumed += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": pending is not None}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
             "client": ("127.0.0.1", 40000), "server": ("testserver", 80)}
    asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], json.loads(body), consumed


def endless(total: int) -> Iterator[bytes]:
    """``total`` bytes of a JSON-looking body, one chunk at a time (never all in memory)."""
    yield b'{"game": "dominoes", "x": "'
    for _ in range(total // CHUNK):
        yield b"a" * CHUNK


def test_a_body_declared_too_long_is_refused_before_a_byte_is_read(db_url: str) -> None:
    app = create_app(db_url, time_scale=0.0)
    status, answer, consumed = post_asgi(app, "/api/tables", endless(8 * 2**20),
                                         {"host": "testserver", "content-type": "application/json",
                                          "content-length": str(200 * 2**20)})
    assert status == 413 and f"over {MAX_BODY_BYTES} bytes" in answer["error"]
    assert consumed == 0
    app.state.store.close()


def test_a_chunked_body_stops_being_read_at_the_cap(db_url: str) -> None:
    app = create_app(db_url, time_scale=0.0)
    status, answer, consumed = post_asgi(app, "/api/tables", endless(8 * 2**20),
                                         {"host": "testserver", "content-type": "application/json",
                                          "transfer-encoding": "chunked"})
    assert status == 413 and "bytes" in answer["error"]
    assert consumed <= MAX_BODY_BYTES + CHUNK + 64  # not the 8 MiB sent
    assert app.state.manager.listing()["total"] == 0
    app.state.store.close()


def test_a_deeply_nested_body_is_a_clear_400(client: TestClient) -> None:
    for body in ("[" * 5000 + "]" * 5000, '{"options": ' + '{"a": ' * 2000 + "1" + "}" * 2001,
                 '{"game": "dominoes", "options": {"target": ' + "9" * 5000 + "}}"):
        r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400, r.text
        assert "nested deeper" in r.json()["error"] or "digits" in r.json()["error"]
    t = new_table(client, seats=[None, "beginner"])
    r = client.post(f"/api/tables/{t['id']}/seats/0", content="[" * 3000 + "]" * 3000,
                    headers={"content-type": "application/json"})
    assert r.status_code == 400 and "nested deeper" in r.json()["error"]
    assert client.get("/api/tables").json()["total"] == 1


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    assert json_depth('{"name": "' + "[" * 100 + '", "x": "\\"[[["}') == 1
    assert json_depth("[" * (MAX_DEPTH + 5)) == MAX_DEPTH + 1  # stops counting past the limit
    assert json_depth('[[{"a": [1]}]]') == 4


def test_the_depth_scan_is_linear_on_unterminated_strings() -> None:
    """A body of escaped quotes that never closes is scanned once, not once per quote."""
    for text in ('"' + '\\"' * 8000, '["' + '\\"' * 8000, '"' * 16383):
        start = time.perf_counter()
        assert json_depth(text) <= 1
        assert time.perf_counter() - start < 0.5  # a quadratic scan takes seconds


def test_a_nested_frame_gets_an_error_and_the_socket_keeps_working(client: TestClient) -> None:
    t = new_table(client, seats=[None, "beginner"])
    with table_socket(client, t["id"]) as ws:
        assert ws.receive_json()["type"] == "state"
        for frame in ("[" * 1500 + "]" * 1500, '{"type": "ping", "ref": ' + "[" * 1000 + "]" * 1000 + "}",
                      '{"type": "act", "claim": ' + "1" * 500 + "}", '{"type": "ping", "ref": NaN}'):
            ws.send_text(frame)
            reply = ws.receive_json()
            assert reply["type"] == "error" and ("nested deeper" in reply["message"]
                                                 or "digits" in reply["message"]
                                                 or "not a JSON number" in reply["message"]), reply
        ws.send_json({"type": "ping", "ref": 1})
        assert ws.receive_json() == {"type": "pong", "ref": 1}
