"""The replay of a game step by step, the rules, the tutorial and the drills of the page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from muggins.core.chance import Chance
from muggins.core.rules import get_game
from muggins.server.app import create_app
from tests.server.conftest import new_table, sit, table_socket
from tests.server.test_api import play_out


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_replay_of_a_finished_game_is_the_spectators_view_of_every_step(client: TestClient) -> None:
    t = new_table(client, game="cribbage", seats=[None, "beginner"], options={"target": 31})
    tok = sit(client, t["id"], 0)
    assert client.get(f"/api/tables/{t['id']}/replay").status_code == 409  # in play, no seat
    with table_socket(client, t["id"], tok) as ws:
        last = play_out(ws, 0)
    r = client.get(f"/api/tables/{t['id']}/replay")
    assert r.status_code == 200
    data = r.json()
    steps = data["steps"]
    assert data["you"] is None and len(steps) == last["table"]["actions"] + 1
    assert [s["number"] for s in steps] == list(range(len(steps)))
    assert steps[-1]["view"]["scores"] == last["view"]["scores"] and steps[-1]["view"]["over"]
    # a spectator's views only: no hand of any seat
    assert all(not s["view"].get("my_hand") for s in steps)
    rec = client.get(f"/api/tables/{t['id']}/record").json()
    assert [s["move"] for s in steps[1:]] == [a["move"] for a in rec["actions"]]
    assert any(s["hand_end"] and s["hand_end"]["show"] for s in steps)
    # the analysis numbers the same actions: its action index i is the replay's step i + 1
    a = client.get(f"/api/tables/{t['id']}/analysis").json()
    for d in a["decisions"]:
        assert steps[d["action"] + 1]["seat"] == d["seat"]


def test_a_seat_replays_its_own_game_so_far_through_its_own_views(client: TestClient) -> None:
    t = new_table(client, game="card-muggins", seats=[None, None])
    ann, bob = sit(client, t["id"], 0, "Ann"), sit(client, t["id"], 1, "Bob")
    for seat, tok in ((0, ann), (1, bob)) * 3:
        with table_socket(client, t["id"], tok) as ws:
            while (m := ws.receive_json())["type"] != "state":
                pass
            if seat in m["view"]["to_act"] and m["view"]["legal"]:
                ws.send_json({"type": "act", "move": m["view"]["legal"][0], "ref": 1, "at": m["table"]["actions"]})
                while ws.receive_json().get("ref") != 1:
                    pass
    data = client.get(f"/api/tables/{t['id']}/replay", headers=auth(ann)).json()
    assert data["you"] == 0 and len(data["steps"]) >= 2
    table = client.app.state.manager.get(t["id"])  # type: ignore[attr-defined]
    # the events are Ann's own log, as her socket was sent it
    assert [e for s in data["steps"] for e in s["events"]] == table.state.events_for(0, 0)
    # each step is Ann's view then: her hand, never Bob's
    spec = get_game(table.game)
    st = spec.new(spec.rules(table.preset, table.options), 2, chance=Chance(seed=table.seed))
    for step, entry in zip(data["steps"], [None, *table.state.history], strict=True):
        if entry is not None:
            st.apply(*entry)
        assert step["view"]["seat"] == 0 and step["view"]["my_hand"] == st.view(0).to_json()["my_hand"]
        assert step["view"]["my_hand"] != st.view(1).to_json()["my_hand"]
    # Bob's moves are not written out for Ann
    assert all(s["move"] is None for s in data["steps"][1:] if s["seat"] == 1)
    assert any(s["move"] for s in data["steps"][1:] if s["seat"] == 0)


def test_rules_of_every_game_with_examples(client: TestClient) -> None:
    games = client.get("/api/rules").json()["games"]
    catalogue = client.get("/api/games").json()["games"]
    assert [g["name"] for g in games] == [g["name"] for g in catalogue]
    for g, c in zip(games, catalogue, strict=True):
        assert [p["name"] for p in g["presets"]] == c["presets"]
        assert all(p["description"] == c["descriptions"][p["name"]] for p in g["presets"])
        assert g["examples"] and all(e["body"] and isinstance(e["answer"], int) for e in g["examples"])
        default = next(p for p in g["presets"] if p["default"])
        assert default["differs"] == {} and any("wins" in s for s in default["rules"])


def test_tutorial_teaches_announcing_and_calling(client: TestClient) -> None:
    tut = client.get("/api/tutorial").json()
    kinds = [s["expect"] for s in tut["steps"]]
    assert "play" in kinds and "muggins" in kinds and kinds[-1] == "done"
    play = next(s for s in tut["steps"] if s["expect"] == "play")
    assert all(a["claim"] > 0 and a["move"] in play["view"]["legal"] for a in play["accept"])
    call = next(s for s in tut["steps"] if s["expect"] == "muggins")
    assert "muggins" in [m.lower() for m in call["view"]["legal"]]
    done = tut["steps"][-1]["view"]["scores"]
    assert done[0] > next(s for s in tut["steps"] if s["expect"] == "muggins")["view"]["scores"][0]


def test_a_drill_answered_is_stored_in_the_training_record(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("MUGGINS_DATA_DIR", str(tmp_path / "data"))
    with TestClient(create_app(f"sqlite:///{tmp_path / 'd.db'}", time_scale=0.0)) as client:
        listing = client.get("/api/drills").json()
        key = listing["drills"][0]["key"]
        assert listing["stats"]["drills"] == []
        r = client.post(f"/api/drills/{key}/sessions", json={"rounds": 2})
        assert r.status_code == 200
        sid, q = r.json()["session"], r.json()["question"]
        assert q["number"] == 1 and q["body"] and "answer" not in q
        bad = client.post(f"/api/drills/sessions/{sid}/answer", json={"given": "-5"})
        assert bad.status_code == 422 and "never negative" in bad.json()["error"]
        a = client.post(f"/api/drills/sessions/{sid}/answer", json={"given": "7"}).json()
        assert a["given"] == 7 and a["right"] == (a["answer"] == 7) and a["next"]["number"] == 2
        assert not (tmp_path / "data" / "training.jsonl").exists()
        b = client.post(f"/api/drills/sessions/{sid}/answer", json={"given": 3}).json()
        assert b["done"] and b["stored"]
        lines = (tmp_path / "data" / "training.jsonl").read_text().splitlines()
        assert len(lines) == 1
        rec = json.loads(lines[0])
        assert rec["drill"] == key and rec["answered"] == 2 and [x["given"] for x in rec["answers"]] == [7, 3]
        stats = client.get("/api/drills").json()["stats"]["drills"]
        assert stats == [{"drill": key, "game": rec["game"], "sessions": 1, "answered": 2, "right": rec["right"]}]
        assert client.post(f"/api/drills/sessions/{sid}/answer", json={"given": 3}).status_code == 409
        assert client.post("/api/drills/nope/sessions", json={"rounds": 1}).status_code == 404
        assert client.post(f"/api/drills/{key}/sessions", json={"rounds": 0}).status_code == 422


@pytest.mark.parametrize("rounds", [3])
def test_a_drill_stopped_early_keeps_what_was_answered(tmp_path: Path, monkeypatch: Any, rounds: int) -> None:
    monkeypatch.setenv("MUGGINS_DATA_DIR", str(tmp_path / "data"))
    with TestClient(create_app(f"sqlite:///{tmp_path / 'd.db'}", time_scale=0.0)) as client:
        key = client.get("/api/drills").json()["drills"][-1]["key"]
        sid = client.post(f"/api/drills/{key}/sessions", json={"rounds": rounds}).json()["session"]
        client.post(f"/api/drills/sessions/{sid}/answer", json={"given": "4"})
        r = client.post(f"/api/drills/sessions/{sid}/stop").json()
        assert r["stored"] and r["answered"] == 1
        rec = json.loads((tmp_path / "data" / "training.jsonl").read_text())
        assert rec["rounds"] == rounds and rec["answered"] == 1


def test_every_worked_example_carries_its_board_and_nothing_hidden(client: TestClient) -> None:
    from tests.test_train import shows_only_the_text

    renderers = {g["name"]: g["renderer"] for g in client.get("/api/games").json()["games"]}
    for g in client.get("/api/rules").json()["games"]:
        for ex in g["examples"]:
            assert ex["renderer"] == renderers[g["name"]] != "generic"
            view = ex["view"]
            assert view["game"] == g["name"] and view["seat"] in (None, *range(view["players"]))
            shows_only_the_text(view, ex["body"])
            if view["seat"] is not None:   # a seat's own hand, as the text shows it: no other seat's
                assert view["my_kept"] and not view.get("my_hand")
