"""The server's own origin is the address it listens on (and the address a connection reached), never the
request's Host header: a page on a rebound name that points at the server is refused."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from muggins.server.app import create_app
from muggins.server.guard import OriginPolicy, own_addresses

BODY = '{"game": "dominoes", "seats": [null, "beginner"], "grace": 0, "bot_delay": 0}'


@pytest.mark.parametrize("base", ["http://testserver", "https://testserver"])
def test_an_origin_matching_only_the_host_header_is_refused(db_url: str, base: str) -> None:
    scheme = base.split(":")[0]
    forged = {"origin": f"{scheme}://evil.example", "host": "evil.example"}
    with TestClient(create_app(db_url, time_scale=0.0), base_url=base) as c:
        r = c.post("/api/tables", content=BODY, headers={**forged, "content-type": "application/json"})
        assert r.status_code == 403 and "cross-site" in r.json()["error"]
        assert c.get("/api/tables").json()["total"] == 0
        r = c.post("/api/tables", content=BODY, headers={"content-type": "application/json"})
        t = r.json()
        with pytest.raises(WebSocketDisconnect) as e, c.websocket_connect(f"/ws/{t['id']}", headers=forged) as ws:
            ws.receive_json()
        assert e.value.code == 1008
        r = c.delete(f"/api/tables/{t['id']}", headers={**forged, "authorization": f"Bearer {t['creator_token']}"})
        assert r.status_code == 403
        # the server's own address is served, whatever Host says
        own = {"origin": base, "host": "evil.example", "content-type": "application/json"}
        assert c.post("/api/tables", content=BODY, headers=own).status_code == 201


def test_the_address_given_to_serve_and_its_local_names_are_the_servers_own(db_url: str) -> None:
    with TestClient(create_app(db_url, time_scale=0.0, address=("127.0.0.1", 8123))) as c:
        for origin in ("http://localhost:8123", "http://127.0.0.1:8123", "http://[::1]:8123"):
            r = c.post("/api/tables", content=BODY, headers={"origin": origin, "content-type": "application/json"})
            assert r.status_code == 201, origin
        for origin in ("http://localhost:8124", "http://evil.example:8123"):
            r = c.post("/api/tables", content=BODY, headers={"origin": origin, "content-type": "application/json",
                                                             "host": origin[7:]})
            assert r.status_code == 403, origin
    assert own_addresses("games.example.org", 80) == ["games.example.org:80"]
    assert "localhost:8000" in own_addresses("0.0.0.0", 8000) and "[::1]:8000" in own_addresses("::", 8000)
    policy = OriginPolicy(own=own_addresses("10.0.0.5", 8000))
    assert policy.allows("http://10.0.0.5:8000", "ws", None) and not policy.allows("http://localhost:8000", "ws", None)
