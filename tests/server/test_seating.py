"""Leaving, resigning, moving a seat to another device, and the rematch."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from muggins.server.seating import opener
from tests.server.conftest import new_table, sit, table_socket


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def first_state(ws: Any) -> dict[str, Any]:
    while (m := ws.receive_json())["type"] != "state":
        pass
    return m


def play_one(client: TestClient, tid: str, tokens: dict[int, str]) -> None:
    """The seat to move makes its first legal move."""
    t = client.app.state.manager.get(tid)  # type: ignore[attr-defined]
    seat = sorted(t.state.to_act())[0]
    with table_socket(client, tid, tokens[seat]) as ws:
        m = first_state(ws)
        ws.send_json({"type": "act", "move": m["view"]["legal"][0], "ref": "m", "at": m["table"]["actions"]})
        while (r := ws.receive_json()).get("ref") != "m":
            pass
        assert r["type"] == "ack", r


def test_leaving_before_the_first_move_opens_the_seat_again(client: TestClient) -> None:
    t = new_table(client, seats=[None, None])
    ann = sit(client, t["id"], 0, "Ann")
    bob = sit(client, t["id"], 1, "Bob")
    assert client.get(f"/api/tables/{t['id']}").json()["status"] == "playing"
    assert client.post(f"/api/tables/{t['id']}/leave").status_code == 401
    assert client.post(f"/api/tables/{t['id']}/leave", headers=auth("nope")).status_code == 403
    r = client.post(f"/api/tables/{t['id']}/leave", headers=auth(bob))
    assert r.status_code == 200 and r.json()["outcome"] == "left"
    s = r.json()["table"]
    assert s["status"] == "open" and s["seats"][1] == {"name": None, "bot": None, "open": True}
    assert client.post(f"/api/tables/{t['id']}/leave", headers=auth(bob)).status_code == 403  # token void
    sit(client, t["id"], 1, "Cid")  # somebody else takes it
    assert client.get(f"/api/tables/{t['id']}").json()["seats"][0]["name"] == "Ann" and ann


def test_resigning_ends_the_game_and_archives_it(client: TestClient) -> None:
    t = new_table(client, seats=[None, None, "beginner"], options={"claims": "auto"})
    tokens = {0: sit(client, t["id"], 0, "Ann"), 1: sit(client, t["id"], 1, "Bob")}
    r = client.post(f"/api/tables/{t['id']}/resign", headers=auth(tokens[0]))
    # not before the first move? the game is in play once every seat is taken: resigning is allowed
    assert r.status_code == 200, r.text
    s = r.json()["table"]
    assert s["status"] == "resigned" and s["resigned"] == 0 and 0 not in s["winners"] and s["winners"]
    active = client.get("/api/tables").json()["tables"]
    assert t["id"] not in [x["id"] for x in active]
    archive = client.get("/api/tables?status=finished").json()["tables"]
    stored = next(x for x in archive if x["id"] == t["id"])
    assert stored["status"] == "resigned" and stored["resigned"] == 0 and stored["winners"] == s["winners"]
    # nothing more is played, and a second resignation is refused
    with table_socket(client, t["id"], tokens[1]) as ws:
        m = first_state(ws)
        assert m["table"]["status"] == "resigned"
        ws.send_json({"type": "act", "move": "pass", "ref": 1, "at": m["table"]["actions"]})
        while (r2 := ws.receive_json())["type"] == "state":
            pass
        assert r2["type"] == "error" and "resigned" in r2["message"]
    assert client.post(f"/api/tables/{t['id']}/resign", headers=auth(tokens[1])).status_code == 409


def test_leaving_during_play_is_resigning(client: TestClient) -> None:
    t = new_table(client, seats=[None, None], options={"claims": "auto"})
    tokens = {0: sit(client, t["id"], 0, "Ann"), 1: sit(client, t["id"], 1, "Bob")}
    play_one(client, t["id"], tokens)
    r = client.post(f"/api/tables/{t['id']}/leave", headers=auth(tokens[1]))
    assert r.status_code == 200 and r.json()["outcome"] == "resigned"
    assert r.json()["table"]["status"] == "resigned" and r.json()["table"]["winners"] == [0]


def test_a_seat_continues_on_another_device_with_a_one_time_code(client: TestClient) -> None:
    t = new_table(client, seats=[None, "beginner"])
    old = sit(client, t["id"], 0, "Ann")
    r = client.post(f"/api/tables/{t['id']}/handoff", headers=auth(old))
    assert r.status_code == 200
    link, code = r.json()["link"], r.json()["code"]
    assert link == f"/t/{t['id']}#seat={code}" and old not in link
    # a newer code voids the first one
    newer = client.post(f"/api/tables/{t['id']}/handoff", headers=auth(old)).json()["code"]
    assert client.post(f"/api/tables/{t['id']}/redeem", json={"code": code}).status_code == 403
    with table_socket(client, t["id"], old) as first:
        assert first_state(first)["you"] == 0
        r = client.post(f"/api/tables/{t['id']}/redeem", json={"code": newer})
        assert r.status_code == 200 and r.json()["seat"] == 0
        new = r.json()["token"]
        while (m := first.receive_json())["type"] != "moved":
            pass
        assert m["seat"] == 0
        m = first_state(first)
        assert m["you"] is None and not m["view"].get("my_hand")
    assert client.post(f"/api/tables/{t['id']}/redeem", json={"code": newer}).status_code == 403  # spent
    assert client.post(f"/api/tables/{t['id']}/leave", headers=auth(old)).status_code == 403  # old token void
    with table_socket(client, t["id"], new) as ws:
        assert first_state(ws)["you"] == 0
    # a revoked code is refused
    code = client.post(f"/api/tables/{t['id']}/handoff", headers=auth(new)).json()["code"]
    assert client.request("DELETE", f"/api/tables/{t['id']}/handoff", headers=auth(new)).json()["revoked"]
    assert client.post(f"/api/tables/{t['id']}/redeem", json={"code": code}).status_code == 403
    assert client.post(f"/api/tables/{t['id']}/redeem", json={"code": 5}).status_code == 422


def test_rematch_keeps_the_settings_and_seats_and_rotates_the_deal(client: TestClient) -> None:
    t = new_table(client, game="cribbage", preset="three-hand", seats=[None, "beginner", None], grace=1.5,
                  bot_delay=0.5, options={"target": 61}, hints=True)
    tokens = {0: sit(client, t["id"], 0, "Ann"), 2: sit(client, t["id"], 2, "Bob")}
    assert client.post(f"/api/tables/{t['id']}/rematch", headers=auth(tokens[0])).status_code == 409  # in play
    client.post(f"/api/tables/{t['id']}/resign", headers=auth(tokens[2]))
    r = client.post(f"/api/tables/{t['id']}/rematch", headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    new = r.json()["table"]
    assert r.json()["seat"] == 0 and r.json()["link"] == f"/t/{new['id']}"
    for key in ("game", "preset", "options", "grace", "bot_delay", "hints"):
        assert new[key] == t[key], key
    assert [s["name"] for s in new["seats"]] == ["Ann", "Beginner Otter", "Bob"]
    assert new["seats"][2] == {"name": "Bob", "bot": None, "open": False, "kept": True}
    assert new["status"] == "open"
    # nobody else may take Bob's seat; Bob's press joins the same rematch
    assert client.post(f"/api/tables/{new['id']}/seats/2", json={"name": "Eve"}).status_code == 409
    r2 = client.post(f"/api/tables/{t['id']}/rematch", headers=auth(tokens[2]))
    assert r2.status_code == 200 and r2.json()["table"]["id"] == new["id"] and r2.json()["seat"] == 2
    assert r2.json()["table"]["status"] == "playing"
    assert client.get(f"/api/tables/{t['id']}").json()["rematch"] == new["id"]
    # the first deal goes to the seat after the one that dealt first in the last game
    manager = client.app.state.manager  # type: ignore[attr-defined]
    old_first = opener(manager.rebuild_start(manager.get(t["id"])))
    assert opener(manager.rebuild_start(manager.get(new["id"]))) == (old_first + 1) % 3
    # a token that did not sit at the old table gets nothing
    assert client.post(f"/api/tables/{t['id']}/rematch", headers=auth("nope")).status_code == 403
