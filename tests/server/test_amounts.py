"""Amounts a player names (a claim, a muggins call) reach the engine only as plain whole numbers within
what one scoring step of the game can make: anything else is refused with a clear error and changes
nothing, in memory or in the database."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from muggins.server.tables import TableError
from tests.server.conftest import new_table, sit, table_socket


def open_window(client: TestClient) -> tuple[str, Any, int, str]:
    """A dominoes table of two people with false_call_penalty=award, after the first play: the other
    seat may call Muggins. Returns the table id, the table, the caller's seat and token."""
    t = new_table(client, seats=[None, None], options={"false_call_penalty": "award"})
    tokens = [sit(client, t["id"], 0, "Ann"), sit(client, t["id"], 1, "Bob")]
    table = client.app.state.manager.get(t["id"])  # type: ignore[attr-defined]
    st = table.state
    seat = min(st.waiting_for())
    play = next(a for a in st.legal_actions(seat) if a.kind == "play")
    table.act(seat, st.format_action(play), None)
    caller = 1 - seat
    assert "muggins" in st.view(caller)["legal"]
    return t["id"], table, caller, tokens[caller]


HUGE: list[tuple[str, Any]] = [
    ("muggins", 10**17),                       # 18 digits: a JSON number the parser still reads
    ("muggins", 1001),                         # beyond any one step of this game
    ("muggins", True),
    ("muggins", 7.5),
    ("muggins", "10"),
    ("muggins", -1),
    ("muggins 1000000000000000000", None),     # 10**18 named in the move's text
    (f"muggins {2**70}", None),
    ("muggins 99999999", None),
]


def test_a_false_call_naming_a_huge_amount_is_refused_and_changes_nothing(client: TestClient) -> None:
    table_id, table, _caller, token = open_window(client)
    st = table.state
    before = (st.scores(), len(st.history), len(st.log), [st.view(s) for s in (None, 0, 1)])
    stored = [s.actions for s in client.app.state.store.load_all()]  # type: ignore[attr-defined]
    with table_socket(client, table_id, token) as ws:
        ws.receive_json()
        for i, (move, claim) in enumerate(HUGE):
            ws.send_json({"type": "act", "move": move, "claim": claim, "at": before[1], "ref": i})
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["ref"] == i, (move, claim, reply)
            assert "number" in reply["message"] or "digits" in reply["message"], reply
            assert len(reply["message"]) < 300
        # numbers the JSON itself refuses: 10**18 and 2**70 as claims, Infinity, 1e400 (a float: inf)
        for raw in ('{"type":"act","move":"muggins","claim":1000000000000000000,"ref":"a"}',
                    f'{{"type":"act","move":"muggins","claim":{2**70},"ref":"b"}}',
                    '{"type":"act","move":"muggins","claim":Infinity,"ref":"c"}',
                    '{"type":"act","move":"muggins","claim":1e400,"ref":"d"}'):
            ws.send_text(raw)
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["message"], (raw, reply)
        assert (st.scores(), len(st.history), len(st.log), [st.view(s) for s in (None, 0, 1)]) == before
        assert [s.actions for s in client.app.state.store.load_all()] == stored  # type: ignore[attr-defined]
        # the connection still works, and a plain call is taken
        ws.send_json({"type": "act", "move": "muggins", "at": before[1], "ref": "ok"})
        while (reply := ws.receive_json())["type"] == "state":
            pass
        assert reply == {"type": "ack", "ref": "ok", "index": before[1]}


@pytest.mark.parametrize("move,claim", [("muggins", 10**18), ("muggins", 2**70), ("muggins", 10**5000),
                                        ("muggins 1000000000000000000", None), (f"muggins {2**70}", None)],
                         ids=["claim-1e18", "claim-2^70", "claim-5000-digits", "text-1e18", "text-2^70"])
def test_the_table_refuses_huge_amounts_before_the_engine(client: TestClient, move: str, claim: Any) -> None:
    _, table, caller, _ = open_window(client)
    scores = table.state.scores()
    with pytest.raises(TableError) as e:
        table.act(caller, move, claim)
    assert e.value.status == 400 and len(str(e.value)) < 300
    assert table.state.scores() == scores


def test_an_announced_claim_above_the_games_bound_is_refused(client: TestClient) -> None:
    t = new_table(client, seats=[None, None])
    sit(client, t["id"], 0, "Ann")
    sit(client, t["id"], 1, "Bob")
    table = client.app.state.manager.get(t["id"])  # type: ignore[attr-defined]
    seat = min(table.state.waiting_for())
    move = table.state.view(seat)["legal"][0]
    bound = table.claim_bound()
    assert 0 < bound < 10**5
    with pytest.raises(TableError) as e:
        table.act(seat, move, bound + 1)
    assert f"from 0 to {bound}" in str(e.value)
    assert len(table.state.history) == 0
    assert json.dumps(table.summary())  # still a sound table
