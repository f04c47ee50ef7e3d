"""Every way to a rated game ends in the ratings: ranked play between two accounts, and ranked play
filled by a house bot after the wait."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from muggins.server.matchmaking import Matchmaker
from tests.server.test_accounts import Counting, other, sign_up
from tests.server.test_ratings import play_through_sockets, profile


def ranked(c: TestClient, game: str) -> dict[str, Any]:
    r = c.post("/api/play", json={"game": game, "players": 2, "ranked": True})
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_a_ranked_game_between_two_accounts_changes_both_ratings(client: TestClient) -> None:
    client.app.state.accounts.hasher = Counting()  # type: ignore[attr-defined]
    bob = other(client)
    assert sign_up(client, "Ann_1").status_code == 201 and sign_up(bob, "Bob_2").status_code == 201
    a = ranked(client, "card-muggins")
    b = ranked(bob, "card-muggins")
    if a["status"] != "matched":
        a = client.get(f"/api/play/{a['ticket']}").json()
    assert a["status"] == b["status"] == "matched" and a["table"] == b["table"]
    table = client.app.state.manager.get(a["table"])  # type: ignore[attr-defined]
    assert table.meta["rated"] and table.meta["ranked"]
    tokens = [""] * 2
    tokens[a["seat"]], tokens[b["seat"]] = a["token"], b["token"]
    play_through_sockets(client, a["table"], tokens)
    assert table.status == "finished"
    names = {a["seat"]: "Ann_1", b["seat"]: "Bob_2"}
    winner = min(table.state.winners())
    for seat, name in names.items():
        r = profile(client, name)["ratings"]["card-muggins"]
        assert r["games"] == 1 and (r["rating"] > 1500) == (seat == winner), (name, r)


def test_a_ranked_game_against_the_house_bot_moves_the_bots_rating_too(client: TestClient) -> None:
    client.app.state.accounts.hasher = Counting()  # type: ignore[attr-defined]
    mm: Matchmaker = client.app.state.matchmaker  # type: ignore[attr-defined]
    mm.wait_for_bot = 0.0  # nobody else comes: the bot takes the seat at once
    assert sign_up(client, "Ann_1").status_code == 201
    a = ranked(client, "card-muggins")
    for _ in range(50):
        if a["status"] == "matched":
            break
        a = client.get(f"/api/play/{a['ticket']}").json()
    assert a["status"] == "matched", a
    table = client.app.state.manager.get(a["table"])  # type: ignore[attr-defined]
    bot_seat = 1 - a["seat"]
    level = table.seats[bot_seat].bot
    assert level is not None and table.meta["rated"]
    before = profile(client, level)["ratings"]["card-muggins"]["rating"] if client.get(
        f"/api/players/{level}").status_code == 200 else None
    mine = play_through_sockets_one(client, a["table"], a["token"], a["seat"])
    assert mine.status == "finished"
    person = profile(client, "Ann_1")["ratings"]["card-muggins"]
    assert person["games"] == 1
    house = profile(client, level)["ratings"]["card-muggins"]
    assert house["games"] >= 1 and (before is None or house["rating"] != before)
    assert (person["rating"] > 1500) == (a["seat"] in table.state.winners())


def play_through_sockets_one(client: TestClient, table_id: str, token: str, seat: int) -> Any:
    """The person at ``seat`` plays his first legal move whenever the game waits for him; the bot answers
    by itself."""
    import time

    from tests.server.conftest import table_socket

    table = client.app.state.manager.get(table_id)  # type: ignore[attr-defined]
    with table_socket(client, table_id, token) as ws:
        for k in range(5000):
            if table.status != "playing":
                break
            if seat not in table.state.waiting_for():
                time.sleep(0.005)
                continue
            move = table.state.format_action(table.state.legal_actions(seat)[0])
            ws.send_json({"type": "act", "move": move, "at": len(table.state.history), "ref": k})
            while True:
                m = ws.receive_json()
                if m.get("ref") == k:
                    break
    return table


def test_rated_games_are_played_only_on_the_presets_marked_ranked(client: TestClient) -> None:
    """A rated table, a ranked queue and a rated challenge on a preset not marked ranked are refused (422) and
    leave nothing behind; the catalogue names each game's ranked presets."""
    from muggins.core.rules import all_games

    client.app.state.accounts.hasher = Counting()  # type: ignore[attr-defined]
    assert sign_up(client, "Ann_1").status_code == 201
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    for name, spec in all_games().items():
        assert games[name]["ranked"] == list(spec.ranked) and set(spec.ranked) <= set(spec.presets)
        assert spec.default_preset in spec.ranked  # "Ranked" in the lobby plays the default preset
        unranked = [p for p in spec.presets if p not in spec.ranked]
        assert unranked, name
        before = client.get("/api/tables").json()["total"]
        r = client.post("/api/tables", json={"game": name, "preset": unranked[0], "seats": [None, "casual"],
                                             "rated": True})
        assert r.status_code == 422 and "ranked presets" in r.json()["error"], r.text
        r = client.post("/api/play", json={"game": name, "preset": unranked[0], "players": 2, "ranked": True})
        assert r.status_code == 422 and "ranked presets" in r.json()["error"], r.text
        r = client.post("/api/challenge/casual", json={"game": name, "preset": unranked[0], "rated": True})
        assert r.status_code == 422 and "ranked presets" in r.json()["error"], r.text
        assert client.get("/api/tables").json()["total"] == before
        # the same preset unrated is fine
        ok = client.post("/api/tables", json={"game": name, "preset": unranked[0], "seats": [None, "casual"]})
        assert ok.status_code == 201, ok.text
