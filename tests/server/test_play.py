"""Quick play and ranked play through the API: people waiting for the same thing are seated at one table,
ranked players by rating (the window widening while they wait), a bot of the player's strength after the
wait; cancelling, expiry, and bad requests that change nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import insert, select

from muggins.server.accounts import COOKIE
from muggins.server.app import create_app
from muggins.server.matchmaking import Matchmaker
from muggins.server.ratings import HOUSE_START
from muggins.server.store import accounts_t, ratings_t, seat_owners_t
from tests.server.conftest import table_socket

PASSWORD = "correct horse battery"
FOREIGN = {"Origin": "https://elsewhere.example"}


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def mm(client: TestClient) -> Matchmaker:
    matchmaker: Matchmaker = client.app.state.matchmaker  # type: ignore[attr-defined]
    client.app.state.accounts.hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)  # type: ignore[attr-defined]
    matchmaker.clock = Clock()
    matchmaker.wait_for_bot = 1000.0
    matchmaker.ticket_ttl = 100.0  # the clock jumps ahead in the tests
    matchmaker.per_client = 100  # every request of the tests comes from one address
    return matchmaker


def account(client: TestClient, username: str, rating: float | None = None, game_family: str = "dominoes") -> str:
    """A new account (with a rating in ``game_family`` when given); returns its session cookie."""
    client.cookies.clear()
    r = client.post("/api/account", json={"username": username, "password": PASSWORD})
    assert r.status_code == 201, r.text
    cookie = client.cookies.get(COOKIE)
    assert cookie
    if rating is not None:
        store = client.app.state.store  # type: ignore[attr-defined]
        with store.engine.begin() as conn:
            aid = conn.execute(select(accounts_t.c.id).where(accounts_t.c.username == username)).scalar()
            conn.execute(insert(ratings_t).values(account_id=aid, family=game_family, rating=rating, deviation=80.0,
                                                  mu=25.0, sigma=2.0, games=30, updated=0.0))
    return str(cookie)


def as_(client: TestClient, cookie: str | None) -> TestClient:
    client.cookies.clear()
    if cookie is not None:
        client.cookies.set(COOKIE, cookie)
    return client


def play(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("game", "dominoes")
    body.setdefault("players", 2)
    r = client.post("/api/play", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def poll(client: TestClient, ticket: str) -> dict[str, Any]:
    r = client.get(f"/api/play/{ticket}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def table_of(client: TestClient, table_id: str) -> Any:
    return client.app.state.manager.get(table_id)  # type: ignore[attr-defined]


def test_two_people_waiting_for_the_same_game_get_one_table_at_different_seats(client: TestClient,
                                                                               mm: Matchmaker) -> None:
    a = play(client, name="Ann")
    assert a["status"] == "waiting" and a["bot_in"] > 0 and a["waiting"] == 1 and "token" not in a
    assert poll(client, a["ticket"])["status"] == "waiting"
    b = play(client, name="Ann")  # the same name: the second one is told apart at the table
    assert b["status"] == "matched"
    a = poll(client, a["ticket"])
    assert a["status"] == "matched" and a["table"] == b["table"] and {a["seat"], b["seat"]} == {0, 1}
    t = table_of(client, a["table"])
    assert t.meta == {"quick": True} and t.status == "playing" and t.game == "dominoes"
    assert sorted(s.name for s in t.seats) == ["Ann", "Ann 2"] and all(s.bot is None for s in t.seats)
    for mine in (a, b):  # each token is its own seat
        with table_socket(client, mine["table"], mine["token"]) as ws:
            msg = ws.receive_json()
            assert msg["you"] == mine["seat"] and "clock" not in msg
    assert mm.tickets and all(x.table == t.id for x in mm.tickets.values())


def test_different_player_counts_presets_or_games_do_not_pair(client: TestClient, mm: Matchmaker) -> None:
    tickets = [play(client, players=2), play(client, players=3), play(client, players=2, preset="all-fives"),
               play(client, game="card-muggins", players=2), play(client, players=2, ranked=False, name="Zed")]
    assert [x["status"] for x in tickets[:4]] == ["waiting"] * 4
    assert tickets[4]["status"] == "matched"  # the same as the first one
    assert poll(client, tickets[0]["ticket"])["table"] == tickets[4]["table"]
    for x in tickets[1:4]:
        assert poll(client, x["ticket"])["status"] == "waiting"


def test_ranked_play_needs_an_account_and_makes_a_rated_table_with_a_clock(client: TestClient, mm: Matchmaker) -> None:
    r = client.post("/api/play", json={"game": "dominoes", "players": 2, "ranked": True})
    assert r.status_code == 401 and "log in" in r.json()["error"]
    assert mm.tickets == {}
    ann, bob = account(client, "Ann_1"), account(client, "Bob_1")
    a = play(as_(client, ann), ranked=True)
    b = play(as_(client, bob), ranked=True)
    assert b["status"] == "matched" and a["name"] == "Ann_1"
    t = table_of(client, b["table"])
    assert t.meta == {"rated": True, "ranked": True, "clock": {"move": 20.0, "bank": 60.0}}
    assert sorted(s.name for s in t.seats) == ["Ann_1", "Bob_1"]
    # each seat is linked to its account, as taking a seat while logged in does
    r = as_(client, ann).get(f"/api/tables/{t.id}/my-seat")
    assert r.status_code == 200 and r.json()["seat"] == poll(client, a["ticket"])["seat"]
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        assert len(conn.execute(select(seat_owners_t).where(seat_owners_t.c.table_id == t.id)).all()) == 2
    # an account waits for one game at a time
    play(as_(client, ann), ranked=True)
    r = as_(client, ann).post("/api/play", json={"game": "cribbage", "players": 2})
    assert r.status_code == 409


def test_ranked_pairs_the_closest_ratings_first_and_widens_while_they_wait(client: TestClient, mm: Matchmaker) -> None:
    cookies = {name: account(client, name, rating) for name, rating in
               (("Ann_1", 1500), ("Bob_1", 1900), ("Cy_1", 1520), ("Dee_1", 1700))}
    clock = mm.clock
    assert isinstance(clock, Clock)
    ann = play(as_(client, cookies["Ann_1"]), ranked=True)
    bob = play(as_(client, cookies["Bob_1"]), ranked=True)
    assert bob["status"] == "waiting"  # 400 apart
    clock.now += 1
    cy = play(as_(client, cookies["Cy_1"]), ranked=True)
    assert cy["status"] == "matched" and poll(client, ann["ticket"])["table"] == cy["table"]  # 20 apart
    assert poll(client, bob["ticket"])["status"] == "waiting"
    dee = play(as_(client, cookies["Dee_1"]), ranked=True)
    assert dee["status"] == "waiting"  # 200 apart: more than a new ticket's window (100)
    clock.now += 4  # Dee's window is 180 now: not yet
    assert poll(client, dee["ticket"])["status"] == "waiting"
    clock.now += 1  # 200 for Dee (and 220 for Bob): each accepts the other
    poll(client, bob["ticket"])
    dee = poll(client, dee["ticket"])
    assert dee["status"] == "matched" and poll(client, bob["ticket"])["table"] == dee["table"]
    assert {s.name for s in table_of(client, dee["table"]).seats} == {"Bob_1", "Dee_1"}


@pytest.mark.parametrize("rating", [1780, 1080, None])
def test_after_the_wait_a_house_bot_of_the_players_strength_fills_the_seat(client: TestClient, mm: Matchmaker,
                                                                         rating: float | None) -> None:
    # the level whose measured start is nearest the player's rating (1500 for a guest)
    starts = HOUSE_START["dominoes"]
    level = min(starts, key=lambda lv: abs(starts[lv] - (1500 if rating is None else rating)))
    assert level == {1780: "expert", 1080: "beginner"}.get(rating, level)
    mm.wait_for_bot = 15.0
    clock = mm.clock
    assert isinstance(clock, Clock)
    ranked = rating is not None
    if ranked:
        as_(client, account(client, "Ann_1", rating))
    a = play(client, ranked=ranked)
    assert a["bot_in"] == 15.0
    clock.now += 10
    a = poll(client, a["ticket"])
    assert a["status"] == "waiting" and a["bot_in"] == 5.0
    clock.now += 5
    a = poll(client, a["ticket"])
    assert a["status"] == "matched"
    t = table_of(client, a["table"])
    assert [s.bot for i, s in enumerate(t.seats) if i != a["seat"]] == [level]
    assert t.status == "playing"
    assert t.meta == ({"rated": True, "ranked": True, "clock": {"move": 20.0, "bank": 60.0}} if ranked
                      else {"quick": True})


def test_a_house_bot_rating_of_its_own_is_used_when_it_has_one(client: TestClient, mm: Matchmaker) -> None:
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.begin() as conn:
        hid = conn.execute(insert(accounts_t).values(username="club", username_key="club", password_hash="-",
                                                     created=0.0, kind="house")).inserted_primary_key[0]
        conn.execute(insert(ratings_t).values(account_id=hid, family="dominoes", rating=1790.0, deviation=60.0,
                                              mu=30.0, sigma=1.5, games=500, updated=0.0))
    as_(client, account(client, "Ann_1", 1800))
    mm.wait_for_bot = 0.0
    a = play(client, ranked=True)
    assert a["status"] == "matched"
    assert [s.bot for s in table_of(client, a["table"]).seats if s.bot] == ["club"]


def test_three_players_wait_then_bots_fill_the_seat_nobody_took(client: TestClient, mm: Matchmaker) -> None:
    mm.wait_for_bot = 15.0
    clock = mm.clock
    assert isinstance(clock, Clock)
    a = play(client, players=3, name="Ann")
    b = play(client, players=3, name="Bob")
    assert b["status"] == "waiting" and b["waiting"] == 2
    clock.now += 15
    a = poll(client, a["ticket"])
    assert a["status"] == "matched" and poll(client, b["ticket"])["table"] == a["table"]
    seats = table_of(client, a["table"]).seats
    assert sorted(s.name for s in seats if s.bot is None) == ["Ann", "Bob"] and sum(1 for s in seats if s.bot) == 1


def test_cancelling_leaves_the_queue(client: TestClient, mm: Matchmaker) -> None:
    a = play(client, name="Ann")
    assert client.delete(f"/api/play/{a['ticket']}", headers=FOREIGN).status_code == 403  # another site may not
    assert poll(client, a["ticket"])["status"] == "waiting"
    r = client.delete(f"/api/play/{a['ticket']}")
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    assert client.get(f"/api/play/{a['ticket']}").status_code == 404
    assert client.delete(f"/api/play/{a['ticket']}").status_code == 404
    b = play(client, name="Bob")
    assert b["status"] == "waiting"  # nobody left to pair with
    c = play(client, name="Cy")
    assert c["status"] == "matched"
    r = client.delete(f"/api/play/{c['ticket']}")  # seated already: nothing to leave
    assert r.status_code == 409 and c["table"] in r.json()["error"]


def test_a_ticket_nobody_asks_about_leaves_the_queue(client: TestClient, mm: Matchmaker) -> None:
    clock = mm.clock
    assert isinstance(clock, Clock)
    a = play(client, name="Ann")
    clock.now += mm.ticket_ttl - 1
    assert poll(client, a["ticket"])["status"] == "waiting"  # asked about: it stays
    clock.now += mm.ticket_ttl + 1
    assert client.get(f"/api/play/{a['ticket']}").status_code == 404
    assert play(client, name="Bob")["status"] == "waiting"


@pytest.mark.parametrize("body", [
    [], "dominoes", {"game": "chess", "players": 2}, {"game": "dominoes", "preset": "nope", "players": 2},
    {"game": "dominoes", "preset": 3, "players": 2}, {"game": "dominoes", "players": 1},
    {"game": "dominoes", "players": 5}, {"game": "dominoes", "players": "2"}, {"game": "dominoes", "players": True},
    {"game": "dominoes", "players": 2.0}, {"game": "dominoes", "players": 2, "ranked": "yes"},
    {"game": "dominoes", "players": 2, "seats": [None]}, {"game": "dominoes", "players": 2, "name": "Expert bot"},
    {"game": "dominoes", "players": 2, "name": "  "}, {"game": "dominoes", "players": 2, "name": "x" * 41},
    {"game": "dominoes", "players": 2, "name": "You"}, {"game": "dominoes", "players": 2, "name": 7},
    {"game": "cribbage", "preset": "three-hand", "players": 2},
])
def test_a_bad_request_is_refused_and_changes_nothing(client: TestClient, mm: Matchmaker, body: Any) -> None:
    manager = client.app.state.manager  # type: ignore[attr-defined]
    r = client.post("/api/play", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["error"]
    assert mm.tickets == {} and manager.tables == {}


def test_requests_of_another_kind_are_refused(client: TestClient, mm: Matchmaker) -> None:
    r = client.post("/api/play", content=json.dumps({"game": "dominoes"}), headers={"content-type": "text/plain"})
    assert r.status_code == 415
    assert client.post("/api/play", json={"game": "dominoes", "players": 2}, headers=FOREIGN).status_code == 403
    assert client.get("/api/play/not-a-ticket-at-all").status_code == 404
    assert client.get("/api/play/" + "x" * 300).status_code == 404
    assert mm.tickets == {}


def test_joining_is_limited_per_address(db_url: str) -> None:
    presets = iter(["muggins", "all-fives", "sniff", "five-up", "all-threes", "fives-and-threes", "odd-primes"])

    def join(c: TestClient) -> Any:  # each for another preset: nobody is paired
        return c.post("/api/play", json={"game": "dominoes", "preset": next(presets), "players": 2})

    with TestClient(create_app(db_url, time_scale=0.0, seats_per_minute=1, seats_burst=6)) as c:
        matchmaker = c.app.state.matchmaker  # type: ignore[attr-defined]
        made = [join(c) for _ in range(4)]
        assert [r.status_code for r in made] == [201] * 4
        r = join(c)
        assert r.status_code == 429 and "at most 4" in r.json()["error"]  # tickets waiting from one address
        c.delete(f"/api/play/{made[0].json()['ticket']}")
        assert join(c).status_code == 201
        r = join(c)
        assert r.status_code == 429 and "Retry-After" in r.headers  # the address's rate of seats taken
        assert len(matchmaker.tickets) == 4
