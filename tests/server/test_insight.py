"""The analysis of a finished game and the hints of the seat to act, through the API."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from muggins.analysis import analyse_record
from muggins.server.app import create_app
from tests.server.conftest import new_table, sit, table_socket
from tests.server.test_api import next_state, play_out

SAMPLES = 4


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.db'}", rate=1e6, burst=1e6, time_scale=0.0,
                               tables_burst=1e6, seats_burst=1e6, analysis_samples=SAMPLES)) as c:
        yield c


def finished(client: TestClient, **body: Any) -> tuple[str, str]:
    """A short game against a bot, played to its end: the table id and the seat token."""
    body.setdefault("seats", [None, "beginner"])
    body.setdefault("options", {"target": 30})
    t = new_table(client, **body)
    tok = sit(client, t["id"], 0)
    with table_socket(client, t["id"], tok) as ws:
        assert play_out(ws, 0)["table"]["status"] == "finished"
    return t["id"], tok


def test_the_analysis_is_that_of_the_record_and_has_a_plot(app_client: TestClient) -> None:
    c = app_client
    tid, tok = finished(c)
    r = c.get(f"/api/tables/{tid}/analysis", headers={"Authorization": f"Bearer {tok}"})
    assert r.status_code == 200, r.text
    got = r.json()
    rec = c.get(f"/api/tables/{tid}/record").json()
    want = analyse_record(rec, samples=SAMPLES, seed=0).to_json()
    assert {k: got[k] for k in want} == want
    assert got["plot"] == f"/api/tables/{tid}/analysis.png" and got["record"] == f"/api/tables/{tid}/record"
    assert len(got["seats"]) == 2 and got["over"] is True
    png = c.get(f"/api/tables/{tid}/analysis.png")
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    assert png.content[:8] == b"\x89PNG\r\n\x1a\n" and len(png.content) > 1000
    # a spectator (no token) may ask too; it is the same analysis, kept
    assert c.get(f"/api/tables/{tid}/analysis").json() == got


def test_no_analysis_before_the_end_nor_with_a_foreign_token(app_client: TestClient) -> None:
    c = app_client
    t = new_table(c, seats=[None, "beginner"])
    tok = sit(c, t["id"], 0)
    for path in ("analysis", "analysis.png"):
        r = c.get(f"/api/tables/{t['id']}/{path}", headers={"Authorization": f"Bearer {tok}"})
        assert r.status_code == 409 and "not over" in r.json()["error"]
    tid, _ = finished(c)
    r = c.get(f"/api/tables/{tid}/analysis", headers={"Authorization": f"Bearer {tok}"})
    assert r.status_code == 403 and "not valid at this table" in r.json()["error"]
    assert c.get("/api/tables/nosuchtable/analysis").status_code == 404


def test_the_table_answers_while_an_analysis_runs(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.db'}", rate=1e6, burst=1e6, time_scale=0.0,
                               tables_burst=1e6, seats_burst=1e6, analysis_samples=48)) as c:
        tid, _ = finished(c, options={"target": 60})
        insight = c.app.state.insight  # type: ignore[attr-defined]
        answers: list[int] = []
        worker = threading.Thread(target=lambda: answers.append(c.get(f"/api/tables/{tid}/analysis").status_code))
        worker.start()
        while insight.state_of(tid) == "none" and worker.is_alive():
            time.sleep(0.01)
        assert insight.state_of(tid) == "running"
        r = c.get(f"/api/tables/{tid}/analysis?wait=0")  # the page's poll: how far it is, at once
        assert r.status_code == 202 and r.json()["status"] == "running"
        assert 0 <= r.json()["done"] <= r.json()["total"]
        # a second table is served, and a second ask joins the running analysis rather than starting one
        assert c.get(f"/api/tables/{tid}").json()["status"] == "finished"
        assert c.get("/api/games").status_code == 200
        assert insight.state_of(tid) == "running" and len(insight.running) == 1
        worker.join()
        assert answers == [200] and insight.state_of(tid) == "done"


def test_hints_only_for_the_seat_to_act_at_a_table_that_gives_them(app_client: TestClient) -> None:
    c = app_client
    plain = new_table(c, seats=[None, "beginner"])
    assert plain["hints"] is False
    tok = sit(c, plain["id"], 0)
    r = c.get(f"/api/tables/{plain['id']}/hint", headers={"Authorization": f"Bearer {tok}"})
    assert r.status_code == 409 and "without hints" in r.json()["error"]
    r = c.post("/api/tables", json={"game": "dominoes", "hints": "yes"})
    assert r.status_code == 422 and "'hints'" in r.json()["error"]

    t = new_table(c, seats=[None, None], hints=True)
    assert t["hints"] is True and c.get(f"/api/tables/{t['id']}").json()["hints"] is True
    toks = [sit(c, t["id"], 0, "Ann"), sit(c, t["id"], 1, "Bob")]
    assert c.get(f"/api/tables/{t['id']}/hint").status_code == 401
    with table_socket(c, t["id"], toks[0]) as ws0, \
            table_socket(c, t["id"], toks[1]) as ws1:
        views = [next_state(ws0)["view"], next_state(ws1)["view"]]
        turn = views[0]["waiting_for"][0] if "waiting_for" in views[0] else views[0]["to_act"][0]
        other = 1 - turn
        r = c.get(f"/api/tables/{t['id']}/hint", headers={"Authorization": f"Bearer {toks[other]}"})
        assert r.status_code == 409 and "whose turn" in r.json()["error"]
        r = c.get(f"/api/tables/{t['id']}/hint", headers={"Authorization": f"Bearer {toks[turn]}"})
        assert r.status_code == 200, r.text
        hint = r.json()
        assert hint["seat"] == turn and hint["index"] == 0 and isinstance(hint["points"], float)
        assert hint["move"] in views[turn]["legal"]
        # the words after "the bot would": the move once, with one verb ("play 5-5", "draw"; never "play play")
        assert hint["phrase"].split()[0] in ("play", "draw", "pass", "knock") and hint["move"] in hint["phrase"]
        assert not hint["phrase"].startswith("play play")
        assert isinstance(hint["count"], int)
        # nothing was sent to either socket by the hint: the next message of each is the answer to a ping
        for ws in (ws0, ws1):
            ws.send_json({"type": "ping", "ref": "p"})
            assert ws.receive_json() == {"type": "pong", "ref": "p"}
        ws0.close()
        ws1.close()
    # the table remembers the option after a restart of the server's memory
    c.app.state.manager.tables.clear()  # type: ignore[attr-defined]
    c.app.state.manager.load()  # type: ignore[attr-defined]
    assert c.get(f"/api/tables/{t['id']}").json()["hints"] is True


def test_a_card_games_hint_says_its_verb_once() -> None:
    """The page writes "the bot would " and the hint's phrase: "play 10♠", never "play play 10♠"."""
    from muggins.core.rules import get_game
    from muggins.server.insight import hint_of

    spec = get_game("card-muggins")
    st = spec.new(spec.rules(None), 2, seed=3)
    seat = min(st.waiting_for())
    hint = hint_of(st, seat, samples=4)
    assert hint["move"].startswith("play ") and hint["phrase"] == hint["move"]
    assert hint["phrase"].split().count("play") == 1
    assert hint["count"] is None  # no ends to count in a card game


def test_a_cribbage_hint_names_no_count_of_the_ends() -> None:
    """Cribbage's running count of the play is no count of the ends: the hint carries none."""
    from muggins.core.rules import get_game
    from muggins.server.insight import hint_of

    spec = get_game("cribbage")
    st = spec.new(spec.rules(None), 2, seed=3)
    while st.phase == "discard":
        s = min(st.waiting_for())
        st.apply(s, st.legal_actions(s)[0])
    seat = min(st.waiting_for())
    st.apply(seat, st.legal_actions(seat)[0])  # a card laid: the count of the play is no longer 0
    seat = min(st.waiting_for())
    hint = hint_of(st, seat, samples=4)
    assert st.count > 0 and hint["move"] is not None
    assert hint["count"] is None
