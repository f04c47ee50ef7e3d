"""The clock of ranked tables: time past a move comes out of the bank; a seat out of time gets the game's
safe default move, and loses the game after three; the clock is the same for every seat and spectator;
it survives a restart; and the rematch of a ranked table is ranked (rated, with its clock) too."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from muggins.server.app import create_app
from muggins.server.clock import TIMEOUT_LIMIT, default_action
from muggins.server.store import clocks_t
from tests.server.conftest import table_socket
from tests.server.test_migrations import pg_schema_url
from tests.server.test_play import Clock, account, as_, mm, play, poll, table_of

__all__ = ["mm", "pg_schema_url"]  # fixtures


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def ranked_pair(client: TestClient) -> tuple[Any, dict[int, tuple[str, str]]]:
    """A ranked table of two accounts: the table, and each seat's (token, session cookie)."""
    ann, bob = account(client, "Ann_1"), account(client, "Bob_1")
    a = play(as_(client, ann), ranked=True)
    b = play(as_(client, bob), ranked=True)
    a = poll(client, a["ticket"])
    return table_of(client, b["table"]), {a["seat"]: (a["token"], ann), b["seat"]: (b["token"], bob)}


def wait_for(what: Any, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, "it did not happen in time"
        time.sleep(0.02)


def test_a_seat_out_of_time_gets_the_default_move_and_loses_after_three(client: TestClient, mm: Any) -> None:
    mm.wait_for_bot = 0.0
    mm.clocks[("dominoes", "muggins")] = {"move": 0.05, "bank": 0.1}
    as_(client, account(client, "Ann_1"))
    mine = play(client, ranked=True)  # nobody else waits: the bot of the player's strength at once
    t = table_of(client, mine["table"])
    me = mine["seat"]
    assert t.meta["clock"] == {"move": 0.05, "bank": 0.1}
    # the person never moves; the table says "resigned" from the first line of the resignation, which then
    # stores the end and stops the clocks in the server's thread: the test waits for all of it
    wait_for(lambda: t.status == "resigned" and t.ended is not None and not t.clock.since)
    assert t.resigned == me and t.clock.timeouts[me] == TIMEOUT_LIMIT and t.clock.banks[me] == 0.0
    public = t.clock.public()
    assert public["seats"][1 - me] is None and public["running"] == []  # bots have no clock
    # every move of the person's seat was the clock's: the game's safe default, nothing announced
    replay = client.app.state.manager.rebuild_start(t)  # type: ignore[attr-defined]
    made = 0
    for seat, action in t.state.history:
        if seat == me:
            assert action == default_action(replay, me) and action.claim is None
            made += 1
        replay.apply(seat, action)
    assert made == TIMEOUT_LIMIT
    assert client.get(f"/api/tables/{t.id}").json()["winners"] == [1 - me]


def test_the_default_move_is_pass_draw_or_the_lowest_play() -> None:
    from muggins.bots.base import regular_actions
    from muggins.core.chance import Chance
    from muggins.core.rules import get_game

    for game in ("dominoes", "card-muggins", "cribbage"):
        spec = get_game(game)
        st = spec.new(spec.rules(None, {"claims": "manual"} if game != "cribbage" else {}), 2, chance=Chance(seed=5))
        for _ in range(40):
            if st.is_over():
                break
            seat = min(st.waiting_for())
            action = default_action(st, seat)
            regular = regular_actions(st, seat)
            assert action is not None and action in regular and action.claim is None
            kinds = {a.kind for a in regular}
            if kinds & {"pass", "draw", "go"}:
                assert action.kind in ("pass", "draw", "go")
            elif action.kind == "play":
                assert all(weight(action) <= weight(a) for a in regular)
            st.apply(seat, action)


def weight(action: Any) -> int:
    x = action.subject
    return int(x.pips if hasattr(x, "pips") else x.rank)


def test_the_clock_is_the_same_for_every_seat_and_spectator(client: TestClient, mm: Any) -> None:
    t, seats = ranked_pair(client)
    with table_socket(client, t.id, seats[0][0]) as s0, table_socket(client, t.id, seats[1][0]) as s1, \
            table_socket(client, t.id, None) as watcher:
        first = [ws.receive_json() for ws in (s0, s1, watcher)]
        assert all(m["clock"]["running"] == sorted(t.state.waiting_for()) for m in first)
        mover = min(t.state.waiting_for())
        move = t.state.action_to_json(mover, default_action(t.state, mover))["move"]
        (s0, s1)[mover].send_json({"type": "act", "move": move, "at": 0, "ref": 1})
        after = []
        for ws in (s0, s1, watcher):
            m = ws.receive_json()
            while m.get("type") != "state":
                m = ws.receive_json()
            after.append(m)
        clocks = [m["clock"] for m in after]
        assert clocks[0] == clocks[1] == clocks[2]
        assert set(clocks[0]) == {"move", "bank", "limit", "running", "seats"}
        assert clocks[0]["running"] == sorted(t.state.waiting_for()) and mover not in clocks[0]["running"]
        for i, s in enumerate(clocks[0]["seats"]):
            assert set(s) == {"bank", "left", "timeouts"} and (s["left"] is None) == (i != clocks[0]["running"][0])


def test_time_past_the_move_comes_from_the_bank_and_the_clock_survives_a_restart(db_url: str) -> None:
    bank_and_restart(db_url)


def test_the_clock_survives_a_restart_on_postgres(pg_schema_url: str) -> None:
    bank_and_restart(pg_schema_url)


def bank_and_restart(db_url: str) -> None:
    from argon2 import PasswordHasher

    fake = Clock()
    with TestClient(create_app(db_url, rate=1e6, burst=1e6, time_scale=0.0, seats_burst=1e6)) as client:
        client.app.state.accounts.hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)  # type: ignore[attr-defined]
        client.app.state.manager.clock = fake  # type: ignore[attr-defined]
        client.app.state.matchmaker.clock = fake  # type: ignore[attr-defined]
        t, seats = ranked_pair(client)
        mover = min(t.state.waiting_for())
        other = 1 - mover
        fake.now += 25  # 5 s past the move's 20
        move = t.state.action_to_json(mover, default_action(t.state, mover))["move"]
        with table_socket(client, t.id, seats[mover][0]) as ws:
            ws.receive_json()
            ws.send_json({"type": "act", "move": move, "at": 0, "ref": 1})
            m = ws.receive_json()
            while m.get("type") != "state":
                m = ws.receive_json()
        assert m["clock"]["seats"][mover] == {"bank": 55.0, "left": None, "timeouts": 0}
        assert m["clock"]["seats"][other] == {"bank": 60.0, "left": 80.0, "timeouts": 0}
        # the other seat runs out: its default move is made, its bank is empty
        assert t.state.waiting_for() == {other}
        before = len(t.state.history)
        fake.now += 80
        client.portal.call(t.clock.run_out)  # type: ignore[union-attr]
        assert len(t.state.history) == before + 1 and t.state.history[-1][0] == other
        assert t.clock.timeouts[other] == 1 and t.clock.banks[other] == 0.0
        store = client.app.state.store  # type: ignore[attr-defined]
        with store.engine.connect() as conn:
            row = conn.execute(select(clocks_t).where(clocks_t.c.table_id == t.id)).mappings().one()
        assert row["banks"][mover] == 55.0 and row["timeouts"][other] == 1
        waiting = sorted(t.state.waiting_for())
    with TestClient(create_app(db_url, time_scale=0.0)) as again:
        t2 = again.app.state.manager.get(t.id)  # type: ignore[attr-defined]
        assert t2.clock is not None and t2.clock.banks[mover] == 55.0 and t2.clock.banks[other] == 0.0
        assert t2.clock.timeouts == t.clock.timeouts and t2.clock.public()["running"] == waiting


def test_the_rematch_of_a_ranked_table_is_ranked_and_its_seats_stay_the_accounts(client: TestClient,
                                                                                  mm: Any) -> None:
    t, seats = ranked_pair(client)
    r = client.post(f"/api/tables/{t.id}/resign", headers=auth(seats[0][0]))
    assert r.status_code == 200
    r = as_(client, seats[1][1]).post(f"/api/tables/{t.id}/rematch", headers=auth(seats[1][0]))
    assert r.status_code == 200, r.text
    new = table_of(client, r.json()["table"]["id"])
    assert new.meta == {"rated": True, "ranked": True, "clock": {"move": 20.0, "bank": 60.0}}
    assert new.clock is not None
    r0 = as_(client, seats[0][1]).post(f"/api/tables/{t.id}/rematch", headers=auth(seats[0][0]))
    assert r0.json()["table"]["id"] == new.id and new.status == "playing"
    for seat, (_token, cookie) in seats.items():  # each seat is still its account's
        assert as_(client, cookie).get(f"/api/tables/{new.id}/my-seat").json()["seat"] == seat
    assert new.clock.public()["running"] == sorted(new.state.waiting_for())


def test_the_rematch_of_a_quick_table_is_quick_and_a_casual_ones_casual(client: TestClient, mm: Any) -> None:
    a, b = play(client, name="Ann"), play(client, name="Bob")
    a = poll(client, a["ticket"])
    client.post(f"/api/tables/{a['table']}/resign", headers=auth(a["token"]))
    r = client.post(f"/api/tables/{a['table']}/rematch", headers=auth(b["token"]))
    assert table_of(client, r.json()["table"]["id"]).meta == {"quick": True}
    casual = client.post("/api/tables", json={"game": "dominoes", "seats": [None, "beginner"]}).json()
    token = client.post(f"/api/tables/{casual['id']}/seats/0", json={"name": "Cy"}).json()["token"]
    client.post(f"/api/tables/{casual['id']}/resign", headers=auth(token))
    r = client.post(f"/api/tables/{casual['id']}/rematch", headers=auth(token))
    new = table_of(client, r.json()["table"]["id"])
    assert new.meta == {} and new.clock is None


def test_the_clock_stops_while_a_hand_end_is_on_screen(db_url: str) -> None:
    from argon2 import PasswordHasher

    with TestClient(create_app(db_url, rate=1e6, burst=1e6, time_scale=1.0, seats_burst=1e6, hand_pause=30.0)) as c:
        c.app.state.accounts.hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)  # type: ignore[attr-defined]
        t, _seats = ranked_pair(c)

        def to_the_hand_end() -> int:
            while not t.pausing():
                seat = min(t.state.waiting_for())
                t._apply(seat, default_action(t.state, seat))
            return len(t.state.history)

        c.portal.call(to_the_hand_end)  # type: ignore[union-attr]
        assert t.clock.public()["running"] == [] and t.state.waiting_for()  # the game waits, the clock does not
        c.portal.call(t.end_pause)  # type: ignore[union-attr]
        assert t.clock.public()["running"] == sorted(t.state.waiting_for())
