"""A bot that fails never stops its table: the failure is logged with the table and the seat, the bot is
asked once more, then the greedy bot's move (or any legal move) is played for it, also for a table
resumed after a restart. A hint that cannot be worked out says so."""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from muggins.bots.bot import AttentiveBot
from muggins.server.app import create_app
from muggins.server.store import Store
from muggins.server.tables import Connection, GameTable, TableManager
from tests.server.conftest import new_table, sit, table_socket
from tests.server.test_api import next_state


async def until_over(table: GameTable, seconds: float = 60.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if table.status == "finished":
            return
        await asyncio.sleep(0.01)


def boom(*_args: Any, **_kw: Any) -> Any:
    raise RuntimeError("no world consistent with what the seat has seen")


def test_a_bot_that_always_fails_is_replaced_by_the_greedy_move_and_the_game_ends(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    calls = [0]

    def failing(*_args: Any, **_kw: Any) -> Any:
        calls[0] += 1
        return boom()

    async def run() -> GameTable:
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'b.db'}"), time_scale=0.0)
        t = manager.create("dominoes", None, None, ["beginner", "casual"], grace=0, bot_delay=0)
        bot = t.seats[0].bot_obj
        assert bot is not None
        monkeypatch.setattr(bot, "act", failing)
        t.attach(Connection(None))  # a game of bots plays while somebody watches it
        await until_over(t)
        manager.shutdown()
        return t

    with caplog.at_level(logging.ERROR, logger="muggins.server"):
        t = asyncio.run(run())
    assert t.status == "finished"
    moves_of_seat_0 = sum(1 for seat, _a in t.state.history if seat == 0)
    assert moves_of_seat_0 > 0 and calls[0] >= 2 * moves_of_seat_0  # asked twice before each fallback
    failures = [r.getMessage() for r in caplog.records if "failed to choose" in r.getMessage()]
    assert failures and all(f"table {t.id}" in m and "seat 0" in m for m in failures)
    assert any("attempt 2 of 2" in m for m in failures)
    # what was stored replays to the same finished game
    stored = t.manager.store.load_one(t.id)
    assert stored is not None and stored.status == "finished" and len(stored.actions) == len(t.state.history)


def test_a_bot_failing_once_plays_its_own_move_on_the_second_try(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    real = AttentiveBot.act
    asked: list[int] = []

    def flaky(self: AttentiveBot, state: Any, seat: int, rng: random.Random | None = None) -> Any:
        asked.append(len(state.history))
        if asked.count(len(state.history)) == 1:
            raise ValueError("a passing fault")
        return real(self, state, seat, rng)

    async def run() -> GameTable:
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'f.db'}"), time_scale=0.0)
        t = manager.create("dominoes", None, None, ["beginner", "beginner"], grace=0, bot_delay=0)
        monkeypatch.setattr(AttentiveBot, "act", flaky)
        t.attach(Connection(None))
        await until_over(t)
        manager.shutdown()
        return t

    t = asyncio.run(run())
    assert t.status == "finished" and asked


def test_when_even_the_greedy_bot_fails_any_legal_move_is_played_also_after_a_restart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'r.db'}"

    async def first() -> str:
        manager = TableManager(Store(url), time_scale=0.0)
        t = manager.create("dominoes", None, None, ["beginner", "beginner"], grace=0, bot_delay=0)
        manager.shutdown()
        manager.store.close()
        return t.id

    async def restarted(table_id: str) -> GameTable:
        monkeypatch.setattr(AttentiveBot, "act", boom)  # every bot fails, the greedy fallback too
        manager = TableManager(Store(url), time_scale=0.0)
        assert manager.load() == 1
        manager.start()
        t = manager.get(table_id)
        t.attach(Connection(None))
        await until_over(t)
        manager.shutdown()
        return t

    table_id = asyncio.run(first())
    t = asyncio.run(restarted(table_id))
    assert t.status == "finished" and len(t.state.history) > 0


def test_a_hint_that_fails_answers_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("muggins.server.insight.hint_of", boom)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}", rate=1e6, burst=1e6, time_scale=0.0,
                               tables_burst=1e6, seats_burst=1e6)) as c:
        t = new_table(c, seats=[None, None], hints=True)
        toks = [sit(c, t["id"], i, name) for i, name in enumerate(("Ann", "Bob"))]
        answers = [c.get(f"/api/tables/{t['id']}/hint", headers={"Authorization": f"Bearer {tok}"}) for tok in toks]
    failed = [r for r in answers if r.status_code != 409 or "turn" not in r.json()["error"]]
    assert len(failed) == 1  # the seat to act asked, the other was told it is not its turn
    assert failed[0].status_code == 409 and "no hint could be worked out" in failed[0].json()["error"]


def test_one_process_reloads_a_table_the_store_is_ahead_of(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A table whose next action is stored already (another server wrongly writing the same database) is not
    left refusing every move: its copy is dropped, its socket closed, and the table served again as stored,
    its bot playing on."""
    db = f"sqlite:///{tmp_path / 'one.db'}"
    other = Store(db)  # what a second server on the same database wrote
    with TestClient(create_app(db, rate=1e6, burst=1e6, time_scale=0.0)) as c:
        t = new_table(c, game="card-muggins", seats=[None, None], options={"target": 31})
        tokens = [sit(c, t["id"], 0, "Ann"), sit(c, t["id"], 1, "Bob")]
        manager = c.app.state.manager  # type: ignore[attr-defined]
        first = manager.tables[t["id"]]
        mover = min(first.state.to_act())
        with table_socket(c, t["id"], tokens[mover]) as ws:
            legal = next_state(ws)["view"]["legal"]
            other.append_action(t["id"], 0, mover, legal[-1], None, None, None)
            ws.send_json({"type": "act", "move": legal[0], "at": 0, "ref": "r"})
            with pytest.raises(WebSocketDisconnect):  # refused, then closed: the page reconnects
                while (r := ws.receive_json())["type"] == "state":
                    pass
                assert r["type"] == "error" and "moved on elsewhere" in r["message"], r
                ws.receive_json()
        now = manager.tables[t["id"]]
        assert now is not first and "reloaded from the store" in caplog.text
        assert [now.state.action_to_json(s, x)["move"] for s, x in now.state.history] == [legal[-1]]
        with table_socket(c, t["id"], tokens[1 - mover]) as ws:  # the game goes on from the stored move
            m = next_state(ws)
            assert m["table"]["actions"] == 1
            ws.send_json({"type": "act", "move": m["view"]["legal"][0], "at": 1, "ref": "s"})
            while (r := ws.receive_json()).get("ref") != "s":
                pass
            assert r["type"] == "ack" and r["index"] == 1, r
        assert len(other.load_one(t["id"]).actions) == 2  # type: ignore[union-attr]
