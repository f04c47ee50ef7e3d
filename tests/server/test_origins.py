"""Cross-site requests: a page on another site may not create tables, take seats, remove tables or open
a socket on a player's behalf. Requests from the server's own page, from an allowed origin, or without an
Origin header (a script) are served; a POST body must be declared JSON."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from muggins.cli.main import app as cli_app
from muggins.server.app import create_app
from muggins.server.guard import OriginPolicy, origin_key
from tests.server.conftest import new_table, sit, table_socket

EVIL = {"origin": "http://evil.example"}
BODY = '{"game": "dominoes", "seats": [null, "beginner"], "grace": 0, "bot_delay": 0}'


def tables(client: TestClient) -> int:
    return int(client.get("/api/tables").json()["total"])


def test_a_foreign_origin_cannot_create_a_table_even_as_text_plain(client: TestClient) -> None:
    r = client.post("/api/tables", content=BODY, headers={**EVIL, "content-type": "text/plain"})
    assert r.status_code == 403 and "cross-site" in r.json()["error"]
    r = client.post("/api/tables", content=BODY, headers={**EVIL, "content-type": "application/json"})
    assert r.status_code == 403
    r = client.post("/api/tables", content=BODY, headers={"origin": "null", "content-type": "application/json"})
    assert r.status_code == 403
    assert tables(client) == 0


def test_a_post_body_must_be_declared_json(client: TestClient) -> None:
    for ctype in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        r = client.post("/api/tables", content=BODY, headers={"content-type": ctype})
        assert r.status_code == 415 and "Content-Type: application/json" in r.json()["error"], ctype
    r = client.post("/api/tables", content=BODY.encode())  # no Content-Type at all
    assert r.status_code == 415
    assert tables(client) == 0
    r = client.post("/api/tables", content=BODY, headers={"content-type": "application/json; charset=utf-8"})
    assert r.status_code == 201


def test_the_servers_own_origin_is_served(client: TestClient) -> None:
    own = {"origin": "http://testserver", "content-type": "application/json"}
    r = client.post("/api/tables", content=BODY, headers=own)
    assert r.status_code == 201
    t = r.json()
    r = client.post(f"/api/tables/{t['id']}/seats/0", json={"name": "Ann"}, headers={"origin": "http://testserver"})
    assert r.status_code == 200
    with table_socket(client, t["id"], headers={"origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "state"
    # the same origin written with its default port, in capitals
    assert client.get("/api/tables").json()["total"] == 1
    r = client.post("/api/tables", content=BODY, headers={**own, "origin": "HTTP://TestServer:80"})
    assert r.status_code == 201
    # another port or scheme of the same host is another origin
    for other in ("http://testserver:8080", "https://testserver"):
        assert client.post("/api/tables", content=BODY, headers={**own, "origin": other}).status_code == 403


def test_foreign_origins_cannot_take_seats_remove_tables_or_open_sockets(client: TestClient) -> None:
    t = new_table(client, seats=[None, "beginner"])
    r = client.post(f"/api/tables/{t['id']}/seats/0", json={"name": "Ann"}, headers=EVIL)
    assert r.status_code == 403
    r = client.delete(f"/api/tables/{t['id']}", headers={**EVIL, "authorization": f"Bearer {t['creator_token']}"})
    assert r.status_code == 403
    assert client.get(f"/api/tables/{t['id']}").json()["status"] == "open"
    tok = sit(client, t["id"], 0)
    with pytest.raises(WebSocketDisconnect) as e, \
            table_socket(client, t["id"], tok, headers=EVIL) as ws:
        ws.receive_json()
    assert e.value.code == 1008
    table = client.app.state.manager.get(t["id"])  # type: ignore[attr-defined]
    assert not table.conns


def test_an_allowed_origin_is_served(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUGGINS_ALLOWED_ORIGINS", "https://b.example.net, http://c.example.com:8443")
    with TestClient(create_app(db_url, time_scale=0.0, allowed_origins=["https://games.example.org"])) as c:
        for origin in ("https://games.example.org", "https://games.example.org:443", "https://b.example.net",
                       "http://c.example.com:8443"):
            r = c.post("/api/tables", content=BODY, headers={"origin": origin, "content-type": "application/json"})
            assert r.status_code == 201, origin
            with table_socket(c, r.json()["id"], headers={"origin": origin}) as ws:
                assert ws.receive_json()["type"] == "state"
        r = c.post("/api/tables", content=BODY, headers={**EVIL, "content-type": "application/json"})
        assert r.status_code == 403


def test_an_allow_list_entry_must_be_an_origin(tmp_path: Path) -> None:
    for bad in ("games.example.org", "https://games.example.org/lobby", "ftp://x.example", "*"):
        with pytest.raises(ValueError, match="not an origin"):
            OriginPolicy([bad])
    result = CliRunner().invoke(cli_app, ["serve", "--allow-origin", "example.org",
                                          "--db", f"sqlite:///{tmp_path / 'x.db'}"])
    assert result.exit_code == 2 and "not an origin" in result.output


def test_origin_keys() -> None:
    assert origin_key("http://Example.COM") == origin_key("http://example.com:80") == "http://example.com:80"
    assert origin_key("https://example.com") == "https://example.com:443"
    assert origin_key("http://[::1]:8000") == "http://[::1]:8000"
    for bad in ("null", "", "file://x", "http://user@example.com", "http://example.com:99999", "http://"):
        assert origin_key(bad) is None, bad
    policy = OriginPolicy()
    assert policy.allows(None, "http", "h:1")  # no Origin: not a browser's cross-site request
    assert policy.allows("http://h:1", "ws", "h:1") and not policy.allows("http://h:1", "wss", "h:1")
    assert not policy.allows("http://h:1", "http", None)
