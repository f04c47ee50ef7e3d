"""The lobby API and the WebSocket protocol, with the app in-process."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

import muggins
from muggins.core.records import replay
from muggins.server.app import create_app
from tests.server.conftest import new_table, sit, table_socket


def next_state(ws: Any) -> dict[str, Any]:
    while True:
        m = ws.receive_json()
        if m["type"] == "state":
            return dict(m)


def test_games_catalogue_lists_every_game_and_the_bot_levels(client: TestClient) -> None:
    data = client.get("/api/games").json()
    assert {g["name"] for g in data["games"]} == {"dominoes", "card-muggins", "cribbage"}
    assert data["bots"] == ["beginner", "casual", "club", "expert"]
    assert data["defaults"]["grace"] == 3.0


def test_page_is_served(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and "<html" in r.text.lower()
    # the page's modules load as native ES modules: each is served as JavaScript, and the table's own
    # address serves the same page
    assert '<script type="module" src="/static/js/main.js">' in r.text
    modules = sorted(p.stem for p in (Path(muggins.__file__).parent / "web" / "js").glob("*.js"))
    assert {"main", "api", "lobby", "table", "domino-board", "card-table", "analysis", "util"} <= set(modules)
    for name in modules:
        js = client.get(f"/static/js/{name}.js")
        assert js.status_code == 200, name
        assert js.headers["content-type"].split(";")[0] in ("text/javascript", "application/javascript"), js.headers
    t = client.get("/t/abc123")
    assert t.status_code == 200 and t.text == r.text


def test_create_table_refuses_bad_requests_with_reasons(client: TestClient) -> None:
    cases: list[tuple[Any, str]] = [
        ({"game": "chess"}, "unknown game"),
        ({"game": "dominoes", "preset": "nope"}, "unknown preset"),
        ({"game": "dominoes", "options": {"target": "lots"}}, "whole number"),
        ({"game": "dominoes", "options": {"colour": 1}}, "unknown option"),
        ({"game": "dominoes", "seats": [None]}, "2-6 seats"),
        ({"game": "dominoes", "seats": [None, "grandmaster"]}, "bot level"),
        ({"game": "dominoes", "grace": -1}, "grace"),
        ({"game": "dominoes", "grace": True}, "grace"),
        ([1, 2], "JSON object"),
    ]
    for body, words in cases:
        r = client.post("/api/tables", json=body)
        assert r.status_code == 422, body
        assert words in r.json()["error"], (body, r.json())
    r = client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert client.get("/api/tables").json()["tables"] == []


def test_table_list_shows_open_and_playing_tables(client: TestClient) -> None:
    a = new_table(client, seats=[None, "club"])
    b = new_table(client, game="card-muggins", seats=[None, None])
    listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
    assert listed[a["id"]]["status"] == "open" and listed[b["id"]]["status"] == "open"
    sit(client, a["id"], 0)
    assert client.get(f"/api/tables/{a['id']}").json()["status"] == "playing"
    assert client.get(f"/api/tables/{b['id']}").json()["seats"][0]["open"] is True


def test_taking_seats(client: TestClient) -> None:
    t = new_table(client, seats=[None, "beginner", None])
    tok = sit(client, t["id"], 0, "Ann")
    assert len(tok) >= 24
    assert client.post(f"/api/tables/{t['id']}/seats/0", json={"name": "Bob"}).status_code == 409
    assert client.post(f"/api/tables/{t['id']}/seats/1", json={"name": "Bob"}).status_code == 409
    assert client.post(f"/api/tables/{t['id']}/seats/9", json={"name": "Bob"}).status_code == 404
    assert client.post(f"/api/tables/{t['id']}/seats/2", json={"name": ""}).status_code == 422
    assert client.post(f"/api/tables/{t['id']}/seats/2", json={"name": "x" * 100}).status_code == 422
    assert client.post(f"/api/tables/{t['id']}/seats/2", json={}).status_code == 422
    assert client.post("/api/tables/nope/seats/0", json={"name": "Bob"}).status_code == 404
    tok2 = sit(client, t["id"], 2, "Bob")
    assert tok2 != tok
    seats = client.get(f"/api/tables/{t['id']}").json()["seats"]
    assert [s["name"] for s in seats] == ["Ann", "Beginner Otter", "Bob"]
    assert "token" not in json.dumps(client.get("/api/tables").json())


def test_bad_token_and_unknown_table_are_refused(client: TestClient) -> None:
    t = new_table(client, seats=[None, "beginner"])
    with table_socket(client, t["id"], "forged") as ws:
        m = ws.receive_json()
        assert m["type"] == "error" and m["fatal"] and "not valid" in m["message"]
    with table_socket(client, "nope") as ws:
        assert "no table" in ws.receive_json()["message"]


def test_hostile_messages_change_nothing_and_keep_the_connection(client: TestClient) -> None:
    t = new_table(client, seats=[None, None])
    tok = sit(client, t["id"], 0)
    sit(client, t["id"], 1, "Bob")
    with table_socket(client, t["id"], tok) as ws:
        first = next_state(ws)
        bad: list[Any] = ["not json", "[1,2]", json.dumps({"type": "launch"}), json.dumps({"type": "act"}),
                          json.dumps({"type": "act", "move": "draw"}),
                          json.dumps({"type": "act", "move": "draw", "at": 1}),
                          json.dumps({"type": "act", "at": 0, "move": 5}),
                          json.dumps({"type": "act", "at": 0, "move": "zz"}),
                          json.dumps({"type": "act", "at": 0, "move": "6-6 on 9-9"}),
                          json.dumps({"type": "act", "at": 0, "move": "draw", "claim": -3}),
                          json.dumps({"type": "act", "at": 0, "move": "draw", "claim": "ten"}),
                          json.dumps({"type": "act", "at": 0, "move": "x" * 5000})]
        for raw in bad:
            ws.send_text(raw)
            m = ws.receive_json()
            assert m["type"] == "error" and m["message"], raw
        ws.send_bytes(b"\x00\x01binary")
        assert "text frames" in ws.receive_json()["message"]
        ws.send_json({"type": "ping", "ref": 7})
        assert ws.receive_json() == {"type": "pong", "ref": 7}
        table = client.app.state.manager.get(t["id"])  # type: ignore[attr-defined]
        assert len(table.state.history) == 0
        assert table.state.view(0) == first["view"]


def test_spectator_sees_but_cannot_act(client: TestClient) -> None:
    t = new_table(client, seats=[None, "beginner"])
    sit(client, t["id"], 0)
    with table_socket(client, t["id"]) as ws:
        m = next_state(ws)
        assert m["you"] is None and "my_hand" not in m["view"]
        ws.send_json({"type": "act", "move": "draw"})
        assert "spectators cannot act" in ws.receive_json()["message"]


def test_game_waits_until_every_seat_is_taken(client: TestClient) -> None:
    t = new_table(client, seats=[None, None])
    tok = sit(client, t["id"], 0)
    with table_socket(client, t["id"], tok) as ws:
        next_state(ws)
        ws.send_json({"type": "act", "move": "6-6", "at": 0})
        assert "every seat" in ws.receive_json()["message"]


def test_rate_limit_answers_with_an_error_and_keeps_the_connection(db_url: str) -> None:
    with TestClient(create_app(db_url, rate=0.001, burst=3, time_scale=0.0)) as c:
        t = new_table(c, seats=[None, "beginner"])
        with table_socket(c, t["id"]) as ws:
            next_state(ws)
            replies = []
            for i in range(6):
                ws.send_json({"type": "ping", "ref": i})
                replies.append(ws.receive_json())
            assert [r["type"] for r in replies[:3]] == ["pong"] * 3
            assert all("too many" in r["message"] for r in replies[3:])
            assert [r["ref"] for r in replies] == list(range(6))


def play_out(ws: Any, seat: int, limit: int = 5000, calls: bool = True) -> dict[str, Any]:
    """Play the first legal move whenever this seat is waited for, until the game ends; without ``calls``
    never a Muggins! call (with several bots at once a call races them all). After each move it reads up to
    the answer: the last state before an ack already shows the move."""
    m = next_state(ws)
    errors = 0
    for _ in range(limit):
        view = m["view"]
        if view["over"]:
            return m
        legal = [x for x in view["legal"] if calls or x != "muggins"]
        if seat in view.get("waiting_for", view["to_act"]) and legal:
            ws.send_json({"type": "act", "move": legal[0], "at": m["table"]["actions"], "ref": "x"})
            while True:
                r = ws.receive_json()
                if r["type"] == "state":
                    m = r
                elif r.get("ref") == "x":
                    # a bot moved first (a muggins call): a stale move, answered from the newer state next;
                    # only errors in a row mean the game is stuck (over a whole game a loaded machine lets the
                    # bots win many such races)
                    errors = errors + 1 if r["type"] == "error" else 0
                    break
            assert errors < 20, r
        else:
            m = next_state(ws)
    raise AssertionError("the game did not end")


def test_full_game_against_a_bot_and_its_record(client: TestClient) -> None:
    t = new_table(client, seats=[None, "beginner"], options={"target": 60})
    tok = sit(client, t["id"], 0)
    r = client.get(f"/api/tables/{t['id']}/record")
    assert r.status_code == 409 and "not over" in r.json()["error"]
    with table_socket(client, t["id"], tok) as ws:
        last = play_out(ws, 0)
    assert last["table"]["status"] == "finished"
    rec = client.get(f"/api/tables/{t['id']}/record").json()
    assert rec["players"][0]["name"] == "Ann" and rec["players"][1]["bot"] == "beginner"
    again = replay(rec)
    assert again.is_over() and again.scores() == last["view"]["scores"]


def test_reconnect_with_the_token_gets_the_seat_back(client: TestClient) -> None:
    t = new_table(client, game="card-muggins", seats=[None, "beginner"])
    tok = sit(client, t["id"], 0)
    with table_socket(client, t["id"], tok) as ws:
        m = next_state(ws)
        hand = m["view"]["my_hand"]
    with table_socket(client, t["id"], tok) as ws:
        m = next_state(ws)
        assert m["you"] == 0
        assert set(hand) & set(m["view"]["my_hand"]) or m["table"]["actions"] > 0
        assert m["events"] == m["events"] and m["event_start"] == 0


def test_the_seat_token_travels_in_the_first_message_never_in_the_address(client: TestClient) -> None:
    t = new_table(client, seats=[None, "beginner"])
    tok = sit(client, t["id"], 0)
    # in the address it is refused, even a valid one, before anything is sent of the table
    with client.websocket_connect(f"/ws/{t['id']}?token={tok}") as ws:
        m = ws.receive_json()
        assert m["type"] == "error" and m["fatal"] and "first message" in m["message"]
    # a first message that is not a hello is refused
    for first in ["{}", json.dumps({"type": "act", "move": "draw"}), json.dumps({"type": "hello", "token": 5}), "x"]:
        with client.websocket_connect(f"/ws/{t['id']}") as ws:
            ws.send_text(first)
            m = ws.receive_json()
            assert m["type"] == "error" and m["fatal"] and '"hello"' in m["message"], (first, m)
    # the hello seats the connection; without a token it watches
    with table_socket(client, t["id"], tok) as ws:
        assert next_state(ws)["you"] == 0
    with table_socket(client, t["id"], None) as ws:
        assert next_state(ws)["you"] is None


def test_each_event_comes_with_the_index_of_the_action_that_logged_it(client: TestClient) -> None:
    from muggins.core.records import apply_record_action, start_from_record

    t = new_table(client, game="card-muggins", seats=["beginner", "beginner"])   # a game of bots, watched
    events: list[Any] = []
    actions: list[Any] = []
    with table_socket(client, t["id"]) as ws:
        while True:
            m = next_state(ws)
            assert len(m["event_actions"]) == len(m["events"])
            assert m["event_start"] == len(events)
            events += m["events"]
            actions += m["event_actions"]
            if m["view"]["over"]:
                break
    # the record replayed action by action logs exactly the events numbered with that action
    rec = client.get(f"/api/tables/{t['id']}/record").json()
    st = start_from_record(rec)
    expected: list[int | None] = [None] * len(st.log)
    for i, entry in enumerate(rec["actions"]):
        before = len(st.log)
        apply_record_action(st, i, entry)
        expected += [i] * (len(st.log) - before)
    assert actions == expected
    assert len(set(actions) - {None}) == len(rec["actions"])
