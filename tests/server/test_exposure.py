"""What a deployment exposes: the API's description only when asked for (--api-docs), and a search of the
archive holding a control character is refused rather than matching everything."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from muggins.server.app import create_app
from muggins.server.store import Store
from tests.server.test_runaway import finished_rows


def test_the_api_description_is_off_by_default(db_url: str) -> None:
    with TestClient(create_app(db_url, time_scale=0.0)) as c:
        for path in ("/openapi.json", "/docs", "/redoc"):
            assert c.get(path).status_code == 404, path
        assert c.get("/api/games").status_code == 200


def test_api_docs_serves_the_description(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'd.db'}", time_scale=0.0, api_docs=True)) as c:
        assert "/api/tables" in c.get("/openapi.json").json()["paths"]
        assert c.get("/docs").status_code == 200 and c.get("/redoc").status_code == 200


@pytest.mark.parametrize("q", ["\x00", "ann\x00", "\x1b[2J", "a\nb", "\x7f"])
def test_a_control_character_in_the_search_is_a_clear_400(db_url: str, q: str) -> None:
    Store(db_url).create_tables(finished_rows(12))
    with TestClient(create_app(db_url, time_scale=0.0)) as c:
        for status in ("finished", "active"):
            r = c.get("/api/tables", params={"status": status, "q": q})
            assert r.status_code == 400 and "control character" in r.json()["error"], (status, r.text)
        # printable searches still work
        r = c.get("/api/tables", params={"status": "finished", "q": "ann"})
        assert r.status_code == 200 and 0 < r.json()["total"] < 12
