"""The daily deal through the API: the same deal and the same bot seeds for everybody, one attempt per player,
day and game, the results kept per day and per player and ranked by the margin against the bot, shown (with
the replays) only to those who have ended their own game of the deal until the day is over, another day's
deal, bad days and games refused changing nothing, and a restart that keeps it all."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from muggins.server.app import create_app
from muggins.server.daily import DAILY_BOT, FINISH_FIRST, Daily, DailyGame, daily_games, deal_seed, ranked
from muggins.server.store import daily_deals_t, daily_results_t, tables_t
from tests.server.conftest import table_socket
from tests.server.test_accounts import PASSWORD, Counting, other, sign_up
from tests.server.test_api import play_out
from tests.server.test_migrations import pg_schema_url

__all__ = ["pg_schema_url"]  # a fixture

GAME = "card-muggins"
NOON = dt.datetime(2026, 3, 14, 12, tzinfo=dt.UTC).timestamp()
DAY = "2026-03-14"
FOREIGN = {"Origin": "https://elsewhere.example"}


def daily_of(c: TestClient) -> Daily:
    d: Daily = c.app.state.daily  # type: ignore[attr-defined]
    return d


def at(c: TestClient, when: float) -> None:
    """The server's daily clock set to ``when`` (the day it deals)."""
    daily_of(c).clock = lambda: when


def app_client(db_url: str) -> TestClient:
    return TestClient(create_app(db_url, rate=1e6, burst=1e6, time_scale=0.0, tables_burst=1e6, seats_burst=1e6))


@pytest.fixture
def ann(client: TestClient) -> TestClient:
    """Ann logged in, the server's day ``DAY``."""
    client.app.state.accounts.hasher = Counting()  # type: ignore[attr-defined]
    at(client, NOON)
    assert sign_up(client, "Ann_1").status_code == 201
    return client


def person(c: TestClient, name: str) -> TestClient:
    """Another player on the same server, with his own cookies, logged in."""
    p = other(c)
    assert sign_up(p, name).status_code == 201
    return p


def start(c: TestClient, game: str = GAME, status: int = 201) -> dict[str, Any]:
    r = c.post(f"/api/daily/{game}", json={})
    assert r.status_code == status, r.text
    return dict(r.json())


def finish(c: TestClient, started: dict[str, Any]) -> dict[str, Any]:
    """Play the game to its end through the table's socket (the first legal move each time)."""
    with table_socket(c, started["table"]["id"], started["token"]) as ws:
        last = play_out(ws, 0)
    assert last["view"]["over"]
    return last


def counts(c: TestClient) -> tuple[int, ...]:
    """How many tables, daily deals and daily results the store holds."""
    engine = c.app.state.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        return tuple(conn.execute(select(func.count()).select_from(t)).scalar_one()
                     for t in (tables_t, daily_deals_t, daily_results_t))


def test_two_players_get_the_same_deal_and_the_same_bot_seeds(ann: TestClient) -> None:
    bob = person(ann, "Bob_2")
    a, b = start(ann), start(bob)
    assert a["day"] == b["day"] == DAY and a["table"]["id"] != b["table"]["id"]
    manager = ann.app.state.manager  # type: ignore[attr-defined]
    ta, tb = manager.get(a["table"]["id"]), manager.get(b["table"]["id"])
    daily = daily_of(ann)
    assert ta.seed == tb.seed == deal_seed(daily.key(), DAY, GAME)
    assert ta.meta == tb.meta == {"daily": DAY}
    # the same first deal, seen from each seat, and the same bot with the same seed at seat 2
    sa, sb = manager.rebuild_start(ta), manager.rebuild_start(tb)
    for seat in (None, 0, 1):
        assert sa.view(seat).to_json() == sb.view(seat).to_json()
    assert sa.view(0).to_json() != sa.view(1).to_json()  # the seats' hands differ: the views show a deal
    assert [s.bot for s in ta.seats] == [s.bot for s in tb.seats] == [None, DAILY_BOT]
    assert ta.seats[1].bot_obj.seed == tb.seats[1].bot_obj.seed
    assert ta.seats[0].name == "Ann_1" and tb.seats[0].name == "Bob_2"
    # what the deal uses is the list's: the preset, its options, the bot
    listed = {g["game"]: g for g in ann.get("/api/daily").json()["games"]}
    assert set(listed) == {g.game for g in daily_games()}
    assert ta.preset == listed[GAME]["preset"] and listed[GAME]["bot"] == DAILY_BOT
    # every game's deal is seeded by its name as well as the day
    seeds = {deal_seed(daily.key(), DAY, g.game) for g in daily_games()}
    assert len(seeds) == len(daily_games())


@pytest.mark.parametrize("game", ["card-muggins", "cribbage"])
def test_two_players_who_play_alike_play_the_same_game(ann: TestClient, game: str) -> None:
    """The same deal and the same bot seeds: the bot answers the same moves with the same moves."""
    bob = person(ann, "Bob_2")
    a, b = start(ann, game), start(bob, game)
    manager = ann.app.state.manager  # type: ignore[attr-defined]
    for x in (a, b):  # each bot's first move (the discard of cribbage), made as its player sat down, is applied
        t = manager.get(x["table"]["id"])   # as well as stored: the table in memory is the stored one
        for _wait in range(250):
            if not t.bot_tasks and not t.saving.locked():
                break
            time.sleep(0.02)
        assert len(manager.store.load_one(t.id).actions) == len(t.state.history)
    finish(ann, a)
    finish(bob, b)
    ha, hb = (manager.get(x["table"]["id"]).state.history for x in (a, b))
    assert len(ha) > 5 and [(s, str(x)) for s, x in ha] == [(s, str(x)) for s, x in hb]


def test_each_game_has_a_two_player_muggins_deal_for_one_sitting() -> None:
    assert daily_games() == (DailyGame("dominoes", "muggins", {"target": 100}), DailyGame("card-muggins", "muggins"),
                             DailyGame("cribbage", "cribbage-muggins", {"target": 61}))


def test_one_attempt_per_player_day_and_game(ann: TestClient) -> None:
    first = start(ann)
    again = start(ann, status=200)  # a second start: the same table, a fresh token for the same seat
    assert again["table"]["id"] == first["table"]["id"] and again["seat"] == 0
    assert again["token"] and again["token"] != first["token"]
    before = counts(ann)
    finish(ann, again)
    after_end = start(ann, status=200)
    assert after_end["table"]["id"] == first["table"]["id"]
    assert after_end["token"] is None and after_end["table"]["status"] == "finished"
    assert counts(ann) == before  # no new table, no new result row
    assert ann.get(f"/daily/{GAME}/{DAY}").status_code == 200  # the results' page
    other_game = start(ann, "dominoes")  # another game of the same day is another attempt
    assert other_game["table"]["id"] != first["table"]["id"]


def test_results_are_kept_per_player_and_shown_only_after_finishing(ann: TestClient) -> None:
    bob, guest = person(ann, "Bob_2"), other(ann)
    a = start(ann)
    url = f"/api/daily/{GAME}/{DAY}"
    r = ann.get(url)
    assert r.status_code == 403 and r.json()["error"] == FINISH_FIRST
    last = finish(ann, a)
    scores = last["table"]["scores"]
    res = ann.get(url).json()
    assert [x["player"] for x in res["results"]] == ["Ann_1"] and res["over"] is False
    mine = res["results"][0]
    assert (mine["score"], mine["opponent"], mine["margin"]) == (scores[0], scores[1], scores[0] - scores[1])
    assert mine["won"] == (0 in last["table"]["winners"]) and mine["status"] == "finished" and mine["mine"]
    assert mine["replay"] == f"/t/{a['table']['id']}/replay" and mine["rank"] == 1
    listed = {g["game"]: g for g in ann.get("/api/daily").json()["games"]}
    assert listed[GAME]["played"] and listed[GAME]["result"]["margin"] == mine["margin"]
    assert not listed["dominoes"]["played"] and listed["dominoes"]["result"] is None
    # Bob has not played: neither the list nor Ann's replay, record, analysis or socket
    replay = f"/api/tables/{a['table']['id']}/replay"
    for c in (bob, guest):
        assert c.get(url).status_code == 403
        assert c.get(replay).status_code == 403
        assert c.get(f"/api/tables/{a['table']['id']}/record").status_code == 403
        with table_socket(c, a["table"]["id"], None) as ws:
            refused = ws.receive_json()
        assert refused["type"] == "error" and refused["fatal"] and refused["message"] == FINISH_FIRST
    assert ann.get(replay).status_code == 200  # her own game
    b = start(bob)
    assert bob.get(url).status_code == 403  # started is not finished
    finish(bob, b)
    res = bob.get(url).json()
    assert sorted(x["player"] for x in res["results"]) == ["Ann_1", "Bob_2"]
    margins = [x["margin"] for x in res["results"]]
    assert margins == sorted(margins, reverse=True)
    assert [x["mine"] for x in res["results"] if x["player"] == "Bob_2"] == [True]
    assert bob.get(replay).status_code == 200 and bob.get(replay).json()["steps"]
    assert guest.get(url).status_code == 403
    # the day is over: everybody sees the results and the replays
    at(ann, NOON + 86400)
    res = guest.get(url).json()
    assert res["over"] is True and len(res["results"]) == 2
    assert guest.get(replay).status_code == 200


def test_a_deleted_players_game_stays_hidden_until_the_deal_is_played(ann: TestClient) -> None:
    bob = person(ann, "Bob_2")
    a = start(ann)
    finish(ann, a)
    r = ann.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert r.status_code == 200, r.text
    replay = f"/api/tables/{a['table']['id']}/replay"
    assert bob.get(replay).status_code == 403  # the game is kept; the deal is still today's
    finish(bob, start(bob))
    assert bob.get(replay).status_code == 200
    assert [x["player"] for x in bob.get(f"/api/daily/{GAME}/{DAY}").json()["results"]] == ["Bob_2"]


def test_ranking_is_by_margin_finished_games_first_with_matchpoints() -> None:
    rows = [{"status": "finished", "margin": 5, "ended": 3.0}, {"status": "resigned", "margin": 40, "ended": 1.0},
            {"status": "finished", "margin": -7, "ended": 2.0}, {"status": "finished", "margin": 5, "ended": 4.0}]
    out = ranked(rows)
    assert [(r["status"], r["margin"], r["rank"]) for r in out] == [
        ("finished", 5, 1), ("finished", 5, 1), ("finished", -7, 3), ("resigned", 40, 4)]
    assert [r["matchpoints"] for r in out] == [83.3, 83.3, 33.3, 0.0]
    assert ranked([{"status": "finished", "margin": 0, "ended": 1.0}])[0]["matchpoints"] is None


def test_another_days_deal_differs_and_each_day_keeps_its_results(ann: TestClient) -> None:
    a = start(ann)
    finish(ann, a)
    at(ann, NOON + 86400)
    tomorrow = (dt.date.fromisoformat(DAY) + dt.timedelta(days=1)).isoformat()
    listed = ann.get("/api/daily").json()
    assert listed["day"] == tomorrow and not any(g["played"] for g in listed["games"])
    b = start(ann)  # a new day: a new attempt
    assert b["day"] == tomorrow and b["table"]["id"] != a["table"]["id"]
    manager = ann.app.state.manager  # type: ignore[attr-defined]
    ta, tb = manager.get(a["table"]["id"]), manager.get(b["table"]["id"])
    assert ta.seed != tb.seed
    assert manager.rebuild_start(ta).view(0).to_json() != manager.rebuild_start(tb).view(0).to_json()
    assert [x["table"] for x in ann.get(f"/api/daily/{GAME}/{DAY}").json()["results"]] == [a["table"]["id"]]
    assert ann.get(f"/api/daily/{GAME}/{tomorrow}").status_code == 403  # today's game not ended yet


@pytest.mark.parametrize(("path", "status", "says"), [
    (f"/api/daily/{GAME}/2026-03-15", 404, "no deal for 2026-03-15 yet"),
    (f"/api/daily/{GAME}/2026-13-01", 422, "YYYY-MM-DD"),
    (f"/api/daily/{GAME}/14-03-2026", 422, "YYYY-MM-DD"),
    (f"/api/daily/{GAME}/2026-02-30", 422, "YYYY-MM-DD"),
    (f"/api/daily/{GAME}/today", 422, "YYYY-MM-DD"),
    (f"/api/daily/{GAME}/1999-12-31", 404, "no deals before"),
    (f"/api/daily/chess/{DAY}", 404, "no daily deal of 'chess'"),
])
def test_bad_days_and_games_are_refused(ann: TestClient, path: str, status: int, says: str) -> None:
    before = counts(ann)
    r = ann.get(path)
    assert r.status_code == status and says in r.json()["error"], r.text
    assert counts(ann) == before


def test_bad_starts_change_nothing(ann: TestClient) -> None:
    before = counts(ann)
    r = ann.post("/api/daily/chess", json={})
    assert r.status_code == 404 and "card-muggins" in r.json()["error"]
    assert ann.post(f"/api/daily/{GAME}", json={}, headers=FOREIGN).status_code == 403
    assert ann.post(f"/api/daily/{GAME}", content=b"x" * 20000,
                    headers={"content-type": "application/json"}).status_code == 413
    r = other(ann).post(f"/api/daily/{GAME}", json={})
    assert r.status_code == 401 and "log in" in r.json()["error"]
    assert counts(ann) == before


def test_a_restart_keeps_the_deals_the_games_and_the_results(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'daily.db'}"
    with app_client(url) as c:
        at(c, NOON)
        c.app.state.accounts.hasher = Counting()  # type: ignore[attr-defined]
        assert sign_up(c, "Ann_1").status_code == 201
        bob = person(c, "Bob_2")
        a, b = start(c), start(bob)
        finish(c, a)
        key = daily_of(c).key()
        ann_cookies, bob_cookies = dict(c.cookies), dict(bob.cookies)
        before = c.get(f"/api/daily/{GAME}/{DAY}").json()["results"]
    with app_client(url) as c:
        at(c, NOON)
        assert daily_of(c).key() == key
        c.cookies.update(ann_cookies)
        assert c.get(f"/api/daily/{GAME}/{DAY}").json()["results"] == before
        bob = other(c)
        bob.cookies.update(bob_cookies)
        again = start(bob, status=200)  # Bob's game in play comes back to him
        assert again["table"]["id"] == b["table"]["id"] and again["token"]
        finish(bob, again)
        res = c.get(f"/api/daily/{GAME}/{DAY}").json()["results"]
        assert sorted(x["player"] for x in res) == ["Ann_1", "Bob_2"]
        mine = {g["game"]: g for g in c.get("/api/daily").json()["games"]}[GAME]
        assert mine["result"]["table"] == a["table"]["id"]


def test_a_result_missed_by_the_listener_is_read_from_the_table(ann: TestClient) -> None:
    daily = daily_of(ann)
    manager = ann.app.state.manager  # type: ignore[attr-defined]
    manager.end_listeners.remove(daily.ended)  # as when the database did not answer at the game's end
    a = start(ann)
    last = finish(ann, a)
    res = ann.get(f"/api/daily/{GAME}/{DAY}").json()["results"]
    assert [x["score"] for x in res] == [last["table"]["scores"][0]] and res[0]["status"] == "finished"


@pytest.fixture
def pg_client(pg_schema_url: str) -> Iterator[TestClient]:
    with app_client(pg_schema_url) as c:
        yield c


def test_the_daily_deal_on_postgres(pg_client: TestClient) -> None:
    at(pg_client, NOON)
    pg_client.app.state.accounts.hasher = Counting()  # type: ignore[attr-defined]
    assert sign_up(pg_client, "Ann_1").status_code == 201
    a = start(pg_client)
    again = start(pg_client, status=200)  # the seat's token is a fresh one: the first no longer works
    assert again["table"]["id"] == a["table"]["id"]
    finish(pg_client, again)
    res = pg_client.get(f"/api/daily/{GAME}/{DAY}").json()["results"]
    assert [x["player"] for x in res] == ["Ann_1"]
