"""Every move names the position it was chosen in ("at": the number of actions applied so far, the
table's "actions" in the state it was chosen from, the "index" its ack gives). A move for a position that
has passed is refused, so the same move sent from two sockets of one seat is applied once."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import new_table, sit, table_socket


def receive(ws: Any, kind: str) -> dict[str, Any]:
    while (m := ws.receive_json())["type"] != kind:
        pass
    return dict(m)


def twice_legal(client: TestClient) -> tuple[dict[str, Any], list[str], Any, int]:
    """A table of two people played (first legal moves) up to a position where the seat to act must
    draw, and could draw again after it: the same move sent twice would be legal twice."""
    for _ in range(50):
        t = new_table(client, seats=[None, None])
        toks = [sit(client, t["id"], 0, "Ann"), sit(client, t["id"], 1, "Bob")]
        table: Any = client.app.state.manager.get(t["id"])  # type: ignore[attr-defined]
        st = table.state
        while not st.is_over():
            seat = min(st.waiting_for())
            legal = [st.format_action(a) for a in st.legal_actions(seat)]
            if legal == ["draw"]:
                after = st.clone()
                after.apply(seat, after.parse_action("draw", seat))
                if seat in after.waiting_for() and "draw" in after.view(seat)["legal"]:
                    return t, toks, table, seat
            table.act(seat, legal[0], None)
    raise AssertionError("no position with two draws in a row in 50 games")


def test_the_same_move_from_two_sockets_of_one_seat_is_applied_once(client: TestClient) -> None:
    t, toks, table, seat = twice_legal(client)
    n = len(table.state.history)
    with table_socket(client, t["id"], toks[seat]) as a, \
            table_socket(client, t["id"], toks[seat]) as b:
        states = [receive(ws, "state") for ws in (a, b)]
        at = states[0]["table"]["actions"]
        assert at == states[1]["table"]["actions"] == n
        move = states[0]["view"]["legal"][0]
        assert move == "draw"
        for ref, ws in (("a", a), ("b", b)):
            ws.send_json({"type": "act", "move": move, "at": at, "ref": ref})
        replies = [next(m for m in iter(ws.receive_json, None) if m["type"] != "state") for ws in (a, b)]
    assert replies[0] == {"type": "ack", "ref": "a", "index": at}
    assert replies[1]["type"] == "error" and replies[1]["ref"] == "b"
    assert replies[1]["message"].startswith("that position has passed; the table moved on")
    assert len(table.state.history) == n + 1
    stored = client.app.state.store.load_one(t["id"])  # type: ignore[attr-defined]
    assert len(stored.actions) == n + 1 and stored.actions[-1]["move"] == "draw"


def test_a_move_without_its_position_or_for_a_later_one_is_refused(client: TestClient) -> None:
    t = new_table(client, seats=[None, None])
    toks = [sit(client, t["id"], 0, "Ann"), sit(client, t["id"], 1, "Bob")]
    table: Any = client.app.state.manager.get(t["id"])  # type: ignore[attr-defined]
    seat = min(table.state.waiting_for())
    with table_socket(client, t["id"], toks[seat]) as ws:
        move = receive(ws, "state")["view"]["legal"][0]
        for at, says in ((None, "give 'at'"), ("0", "give 'at'"), (True, "give 'at'"), (1, "has not reached"),
                         (-1, "has passed")):
            msg = {"type": "act", "move": move, "ref": 1, **({} if at is None else {"at": at})}
            ws.send_json(msg)
            reply = ws.receive_json()
            assert reply["type"] == "error" and says in reply["message"], (at, reply)
        assert len(table.state.history) == 0
        ws.send_json({"type": "act", "move": move, "at": 0, "ref": 2})
        assert receive(ws, "ack") == {"type": "ack", "ref": 2, "index": 0}
