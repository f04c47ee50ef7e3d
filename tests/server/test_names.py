"""Names at a table tell the players apart: every bot seat has its own stable name, and a person may not
take a bot's name, another player's, or "You" (how the page shows each player his own seat). The lobby
learns from the server which games have the muggins rule, and each preset's description and options."""

from __future__ import annotations

from fastapi.testclient import TestClient

from muggins.server.app import create_app
from tests.server.conftest import new_table, sit, table_socket


def names(client: TestClient, table_id: str) -> list[str | None]:
    return [s["name"] for s in client.get(f"/api/tables/{table_id}").json()["seats"]]


def test_every_bot_seat_has_its_own_stable_name(db_url: str) -> None:
    with TestClient(create_app(db_url, time_scale=0.0)) as c:
        t = new_table(c, seats=["casual", "casual", None, "beginner"])
        first = names(c, t["id"])
        assert first == ["Casual Otter", "Casual Wren", None, "Beginner Fox"]
        u = new_table(c, seats=["club", "club", "club"])
        assert names(c, u["id"]) == ["Club Otter", "Club Wren", "Club Fox"]
    with TestClient(create_app(db_url, time_scale=0.0)) as c:  # the same names after a restart
        assert names(c, t["id"]) == first


def test_a_person_may_not_take_a_bots_name_a_players_name_or_you(client: TestClient) -> None:
    t = new_table(client, seats=[None, "casual", "casual", None])
    sit(client, t["id"], 0, "Ann")
    refused = {"You": 422, "  you ": 422, "YOU": 422, "casual otter": 409, " Casual  Wren ": 409,
               "CASUAL OTTER": 409, "ann": 409, "  ANN  ": 409, "Expert bot": 422, "beginner bot 7": 422,
               "Expert Heron": 422, "club  crow 2": 422, "CASUAL FOX": 422}
    for name, status in refused.items():
        r = client.post(f"/api/tables/{t['id']}/seats/3", json={"name": name})
        assert r.status_code == status, (name, r.text)
        assert "choose another name" in r.json()["error"], r.json()
    for blank in ("", "   ", "\t"):
        r = client.post(f"/api/tables/{t['id']}/seats/3", json={"name": blank})
        assert r.status_code == 422 and "empty" in r.json()["error"], (blank, r.text)
    assert client.get(f"/api/tables/{t['id']}").json()["seats"][3]["open"] is True
    sit(client, t["id"], 3, "  Annie  ")
    assert names(client, t["id"]) == ["Ann", "Casual Otter", "Casual Wren", "Annie"]


def test_the_catalogue_describes_each_preset_and_its_options(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    for g in games.values():
        # the fields the page already reads are still there
        assert isinstance(g["presets"], list) and g["default_preset"] in g["presets"] and g["descriptions"]
        assert set(g["preset_details"]) == set(g["presets"])
        for preset, info in g["preset_details"].items():
            assert info["description"] == g["descriptions"].get(preset, ""), preset
            assert isinstance(info["muggins_rule"], bool)
            assert "target" in info["main_options"] and info["main_options"]["target"] == info["options"]["target"]
        target = g["options"]["target"]
        assert target["type"] == "integer" and 1 <= target["minimum"] < target["maximum"] <= 10000
    assert games["dominoes"]["preset_details"]["muggins"]["muggins_rule"] is True
    assert games["card-muggins"]["preset_details"]["muggins"]["muggins_rule"] is True
    assert games["card-muggins"]["preset_details"]["no-muggins"]["muggins_rule"] is False
    assert games["cribbage"]["preset_details"]["cribbage"]["muggins_rule"] is False
    assert "manual" in games["dominoes"]["options"]["claims"]["enum"]


def test_the_table_says_whether_its_game_has_the_muggins_rule(client: TestClient) -> None:
    with_rule = new_table(client, game="card-muggins", seats=[None, "beginner"])
    without = new_table(client, game="card-muggins", preset="no-muggins", seats=[None, "beginner"])
    crib_manual = new_table(client, game="cribbage", options={"claims": "manual"}, seats=[None, "beginner"])
    assert with_rule["muggins_rule"] is True and without["muggins_rule"] is False
    assert crib_manual["muggins_rule"] is True
    tok = sit(client, without["id"], 0)
    with table_socket(client, without["id"], tok) as ws:
        m = ws.receive_json()
        assert m["table"]["muggins_rule"] is False and "muggins" not in m["view"]["legal"]
    listed = {t["id"]: t["muggins_rule"] for t in client.get("/api/tables").json()["tables"]}
    assert listed == {with_rule["id"]: True, without["id"]: False, crib_manual["id"]: True}
