"""Every acknowledged action is stored: a new server on the same database resumes each table exactly,
with the same future deals, and tokens still hold their seats."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from muggins.core.chance import Chance
from muggins.core.protocol import GameState
from muggins.core.rules import get_game
from muggins.server.app import create_app
from tests.server.conftest import new_table, sit, table_socket


def first_legal_moves(state: GameState, n: int) -> list[tuple[int, str]]:
    """Apply ``n`` moves (first legal of the first seat waited for) and return them."""
    done = []
    for _ in range(n):
        if state.is_over():
            break
        seat = min(state.waiting_for())
        action = state.legal_actions(seat)[0]
        state.apply(seat, action)
        done.append((seat, state.format_action(action)))
    return done


def test_restart_resumes_every_table_with_the_same_future(db_url: str) -> None:
    with TestClient(create_app(db_url, time_scale=0.0)) as c:
        ids = []
        for game, opts in (("dominoes", {}), ("card-muggins", {}), ("cribbage", {"claims": "manual"})):
            t = new_table(c, game=game, seats=[None, None], options=opts)
            tokens = [sit(c, t["id"], 0, "Ann"), sit(c, t["id"], 1, "Bob")]
            table = c.app.state.manager.get(t["id"])  # type: ignore[attr-defined]
            # play through the table's own path, so each move is stored, across at least one new deal
            moves = 0
            while moves < 120 and not table.state.is_over():
                seat = min(table.state.waiting_for())
                table.act(seat, table.state.format_action(table.state.legal_actions(seat)[0]), None)
                moves += 1
            ids.append((t["id"], tokens, table.state.clone(), len(table.state.chance.outcomes)))
    assert any(n > 1 for *_, n in ids)  # some table has drawn chance outcomes after its first deal
    with TestClient(create_app(db_url, time_scale=0.0)) as c:
        manager: Any = c.app.state.manager  # type: ignore[attr-defined]
        for table_id, tokens, before, _ in ids:
            table = manager.get(table_id)
            assert table.state.history == before.history
            for seat in (None, 0, 1):
                assert table.state.view(seat) == before.view(seat)
            future_a = first_legal_moves(table.state, 150)
            future_b = first_legal_moves(before, 150)
            assert future_a == future_b
            assert [table.state.view(s) for s in (0, 1)] == [before.view(s) for s in (0, 1)]
            assert table.seat_of_token(tokens[1]) == 1
            with table_socket(c, table_id, tokens[0]) as ws:
                m = ws.receive_json()
                assert m["you"] == 0 and m["table"]["seats"][1]["name"] == "Bob"


def test_the_acknowledged_action_is_in_the_database_before_the_ack(db_url: str) -> None:
    with TestClient(create_app(db_url, time_scale=0.0)) as c:
        t = new_table(c, seats=[None, None])
        tok = [sit(c, t["id"], 0), sit(c, t["id"], 1, "Bob")]
        table = c.app.state.manager.get(t["id"])  # type: ignore[attr-defined]
        seat = min(table.state.waiting_for())
        move = table.state.view(seat)["legal"][0]
        with table_socket(c, t["id"], tok[seat]) as ws:
            ws.receive_json()
            ws.send_json({"type": "act", "move": move, "at": 0, "ref": 1})
            while ws.receive_json()["type"] != "ack":
                pass
            stored = c.app.state.store.load_all()  # type: ignore[attr-defined]
            assert [s.actions for s in stored if s.id == t["id"]] == [[{"seat": seat, "move": move}]]


OLD_SCHEMA = """
CREATE TABLE game_tables (id VARCHAR(32) NOT NULL PRIMARY KEY, game VARCHAR(64) NOT NULL, preset VARCHAR(64),
    options JSON NOT NULL, num_players INTEGER NOT NULL, seed VARCHAR(40) NOT NULL, grace FLOAT NOT NULL,
    bot_delay FLOAT NOT NULL, seats JSON NOT NULL, chance TEXT NOT NULL, status VARCHAR(16) NOT NULL,
    created FLOAT NOT NULL);
CREATE TABLE game_actions (table_id VARCHAR(32) NOT NULL REFERENCES game_tables (id), idx INTEGER NOT NULL,
    seat INTEGER NOT NULL, move VARCHAR(200) NOT NULL, claim INTEGER, PRIMARY KEY (table_id, idx));
"""


def test_a_database_from_before_the_archive_is_upgraded_and_its_tables_resume(tmp_path: Path) -> None:
    """An older database gains the archive's columns (its players' names filled in for the search); a
    table whose rules are no longer accepted is quarantined instead of stopping the server."""
    path = tmp_path / "old.db"
    spec = get_game("dominoes")
    state = spec.new(spec.rules(), 2, chance=Chance(seed=5))
    chance = json.dumps([dict(o) for o in state.chance.outcomes])
    seats = json.dumps([{"name": "Ann", "bot": None, "token_hash": "x"}, {"name": None, "bot": "casual",
                                                                           "token_hash": None}])
    with sqlite3.connect(path) as db:
        db.executescript(OLD_SCHEMA)
        row = "INSERT INTO game_tables VALUES (?, 'dominoes', 'muggins', ?, 2, '5', 3.0, 0.8, ?, ?, ?, ?)"
        db.execute(row, ("live", "{}", seats, chance, "playing", 1.0))
        db.execute(row, ("done", "{}", seats, chance, "finished", 2.0))
        db.execute(row, ("huge", json.dumps({"target": 10**9}), seats, chance, "playing", 3.0))
    with TestClient(create_app(f"sqlite:///{path}", time_scale=0.0)) as c:
        manager: Any = c.app.state.manager  # type: ignore[attr-defined]
        assert set(manager.tables) == {"live"}
        live = c.get("/api/tables/live").json()
        assert live["status"] == "playing" and [s["name"] for s in live["seats"]] == ["Ann", "Casual Otter"]
        archive = c.get("/api/tables?status=finished&q=ANN").json()
        assert sorted(t["id"] for t in archive["tables"]) == ["done"]
        assert set(manager.store.quarantined()) == {"huge"}
