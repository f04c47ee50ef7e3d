"""One damaged stored table does not stop the server: it is quarantined (marked in the store, logged, its
data kept as it was) and the other tables start; an ended game whose stored result cannot be read is still
listed and shown."""

from __future__ import annotations

import logging
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from muggins.core.chance import Chance
from muggins.core.rules import get_game
from muggins.server.app import create_app
from muggins.server.store import Store, StoredTable

# each damaged table: the column set to what, by SQL
DAMAGE = {
    "chance": "UPDATE game_tables SET chance = 'not json' WHERE id = 'chance'",
    "seed": "UPDATE game_tables SET seed = 'twelve' WHERE id = 'seed'",
    "options": "UPDATE game_tables SET options = '{\"target\": ' WHERE id = 'options'",
    "optlist": "UPDATE game_tables SET options = '[1, 2]' WHERE id = 'optlist'",
    "preset": "UPDATE game_tables SET preset = 'no-such-preset' WHERE id = 'preset'",
    "actions": "UPDATE game_actions SET move = 'zz' WHERE table_id = 'actions'",
}


def row(table_id: str, status: str = "playing", **kw: Any) -> StoredTable:
    spec = get_game("dominoes")
    state = spec.new(spec.rules(), 2, chance=Chance(seed=5))
    seat = min(state.to_act())
    move = state.action_to_json(seat, state.legal_actions(seat)[0])["move"]
    return StoredTable(id=table_id, game="dominoes", preset="muggins", options={}, num_players=2, seed=5,
                       grace=0.0, bot_delay=0.0,
                       seats=[{"name": "Ann", "bot": None, "token_hash": "x"},
                              {"name": "Casual bot", "bot": "casual", "token_hash": None}],
                       chance=[dict(o) for o in state.chance.outcomes], status=status, created=time.time(),
                       actions=[{"seat": seat, "move": move}], **kw)


def rows_but_the_mark(db: sqlite3.Connection) -> dict[str, tuple[Any, ...]]:
    """Every stored table's row by id, without its quarantine mark."""
    cur = db.execute("SELECT * FROM game_tables")
    names = [d[0] for d in cur.description]
    return {r[0]: tuple(v for n, v in zip(names, r, strict=True) if n != "quarantined") for r in cur}


def test_damaged_tables_are_quarantined_and_the_rest_start(tmp_path: Path, caplog: pytest.LogCaptureFixture
                                                           ) -> None:
    path = tmp_path / "q.db"
    Store(f"sqlite:///{path}").create_tables([row("good"), *(row(name) for name in DAMAGE)])
    with sqlite3.connect(path) as db:
        for sql in DAMAGE.values():
            db.execute(sql)
        before = rows_but_the_mark(db)
    with caplog.at_level(logging.ERROR, logger="muggins.server"), \
            TestClient(create_app(f"sqlite:///{path}", time_scale=0.0)) as c:
        manager: Any = c.app.state.manager  # type: ignore[attr-defined]
        assert set(manager.tables) == {"good"}
        assert c.get("/api/tables/good").json()["status"] == "playing"
        assert c.get("/api/tables").json()["total"] == 1
        for name in DAMAGE:
            r = c.get(f"/api/tables/{name}")
            assert r.status_code == 409 and "damaged" in r.json()["error"], name
        quarantined = manager.store.quarantined()
    assert set(quarantined) == set(DAMAGE)
    assert "chance cannot be read" in quarantined["chance"] and "seed cannot be read" in quarantined["seed"]
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert all(f"table {name} is quarantined" in logged for name in DAMAGE)
    with sqlite3.connect(path) as db:  # the data is kept as it was; only the mark is new
        after = rows_but_the_mark(db)
        assert db.execute("SELECT move FROM game_actions WHERE table_id = 'actions'").fetchone() == ("zz",)
    assert after == before
    # a second start leaves the quarantined aside without reading them again
    with TestClient(create_app(f"sqlite:///{path}", time_scale=0.0)) as c:
        assert set(c.app.state.manager.tables) == {"good"}  # type: ignore[attr-defined]


@pytest.mark.parametrize("result", ["{not json", "[1, 2]", "17"])
def test_a_finished_game_with_a_damaged_result_is_still_listed_and_shown(tmp_path: Path, result: str) -> None:
    path = tmp_path / "r.db"
    Store(f"sqlite:///{path}").create_tables([
        row("broken", "finished", result={"scores": [1, 2]}, ended=time.time()),
        row("fine", "finished", result={"scores": [3, 4], "winners": [1], "actions": 1}, ended=time.time())])
    with sqlite3.connect(path) as db:
        db.execute("UPDATE game_tables SET result = ? WHERE id = 'broken'", (result,))
    with TestClient(create_app(f"sqlite:///{path}", time_scale=0.0)) as c:
        archive = c.get("/api/tables?status=finished")
        assert archive.status_code == 200
        listed = {t["id"]: t for t in archive.json()["tables"]}
        assert set(listed) == {"broken", "fine"} and listed["broken"]["scores"] is None
        assert listed["fine"]["scores"] == [3, 4]
        assert c.get("/api/tables/broken").status_code == 200
        assert c.get("/api/tables?status=finished&q=ann").status_code == 200
