"""Ratings: rated games between accounts (and house bots) played through the API and the table's socket,
the ratings and their history, resigned and abandoned games, the once-only rule, the leaderboards and the
profiles with their muggins figures."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as hs
from sqlalchemy import func, select

from muggins.core.chance import Chance
from muggins.core.rules import get_game
from muggins.server.app import create_app
from muggins.server.profiles import MIN_GAMES, muggins_of
from muggins.server.ratings import HOUSE_START, Ratings, elo_to_scale, expected_score, rating_of, side_ranks
from muggins.server.store import StoredTable, rated_tables_t, rating_history_t, ratings_t
from tests.server.conftest import new_table, table_socket
from tests.server.test_accounts import Counting, other, sign_up
from tests.server.test_migrations import pg_schema_url

__all__ = ["pg_schema_url"]  # a fixture

# the shortest rules of each game: a rated game of each is played to its end
SHORT = {"dominoes": {"options": {"target": 30}}, "card-muggins": {"options": {"target": 31}},
         "cribbage": {"preset": "cribbage-61"}}


def quick(client: TestClient) -> None:
    client.app.state.accounts.hasher = Counting()  # type: ignore[attr-defined]


def two_players(client: TestClient, a: str = "Ann_1", b: str = "Bob_2") -> tuple[TestClient, TestClient]:
    quick(client)
    second = other(client)
    assert sign_up(client, a).status_code == 201 and sign_up(second, b).status_code == 201
    return client, second


def rated_table(client: TestClient, players: list[TestClient], game: str = "dominoes", bots: list[str] | None = None,
                **body: Any) -> tuple[str, list[str]]:
    """A rated table made by the first player; each player (logged in) takes the next open seat."""
    seats: list[str | None] = [None] * len(players) + list(bots or [])
    t = new_table(client, game=game, seats=seats, rated=True, **body)
    assert t["rated"] is True
    tokens = []
    for i, c in enumerate(players):
        r = c.post(f"/api/tables/{t['id']}/seats/{i}", json={})
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    return t["id"], tokens


def play_through_sockets(client: TestClient, table_id: str, tokens: list[str], moves: int = 5000) -> Any:
    """Each seat plays its first legal move through its own socket whenever the game waits for it (the
    server's state says who), ``moves`` moves at most; returns the table."""
    table = client.app.state.manager.get(table_id)  # type: ignore[attr-defined]
    with table_socket(client, table_id, tokens[0]) as w0, table_socket(client, table_id, tokens[1]) as w1:
        ws = [w0, w1]
        for k in range(moves):
            if table.status != "playing":
                break
            seat = min(table.state.waiting_for())
            move = table.state.format_action(table.state.legal_actions(seat)[0])
            ws[seat].send_json({"type": "act", "move": move, "at": len(table.state.history), "ref": k})
            while True:
                m = ws[seat].receive_json()
                if m.get("ref") == k:
                    assert m["type"] == "ack", m
                    break
    return table


def rows(client: TestClient, t: Any) -> list[dict[str, Any]]:
    with client.app.state.store.engine.connect() as conn:  # type: ignore[attr-defined]
        return [dict(r) for r in conn.execute(select(t)).mappings()]


def profile(c: TestClient, name: str) -> dict[str, Any]:
    r = c.get(f"/api/players/{name}")
    assert r.status_code == 200, r.text
    return dict(r.json())


@pytest.mark.parametrize("game", list(SHORT))
def test_a_rated_game_of_each_game_played_to_its_end_changes_both_ratings(client: TestClient, game: str) -> None:
    ann, bob = two_players(client)
    tid, tokens = rated_table(ann, [ann, bob], game, **SHORT[game])
    assert client.get(f"/api/tables/{tid}").json()["rated"] is True
    table = play_through_sockets(client, tid, tokens)
    assert table.status == "finished"
    winner = min(table.state.winners())
    names = ["Ann_1", "Bob_2"]
    family = "card-muggins" if game == "card-muggins" else game
    after = {n: profile(client, n) for n in names}
    for seat, n in enumerate(names):
        r = after[n]["ratings"][family]
        assert r["games"] == 1 and r["provisional"] is True
        assert (r["rating"] > 1500) == (seat == winner), (n, r)  # the winner gained, the loser lost
        assert len(after[n]["history"][family]) == 1 and after[n]["history"][family][0]["table"] == tid
        assert after[n]["games"] == {game: {"played": 1, "won": int(seat == winner)}}
        entry = after[n]["recent"][0]
        assert entry["id"] == tid and entry["rated"] and entry["replay"] == f"/t/{tid}/replay"
        assert entry["result"] == ("won" if seat == winner else "lost")
        assert entry["analysis"] == f"/api/tables/{tid}/analysis"
    assert rows(client, rated_tables_t) and rows(client, rated_tables_t)[0]["outcome"] == "finished"
    # nobody announced (the first legal move carries no claim) in a game with the muggins rule: every point
    # of the plays was missed, none counted
    if table.muggins_rule:
        figures = after[names[winner]]["muggins"]
        assert figures["games"] == 1 and figures["announced"] == 0 and figures["counting_accuracy"] in (0.0, None)
    # the ratings are not on the leaderboard before the few games it asks
    assert client.get(f"/api/leaderboard/{family}").json()["players"] == []


def resign_after_one_move(client: TestClient, tid: str, tokens: list[str], resigner: int) -> None:
    play_through_sockets(client, tid, tokens, moves=1)
    r = client.post(f"/api/tables/{tid}/resign", headers={"authorization": f"Bearer {tokens[resigner]}"}, json={})
    assert r.status_code == 200, r.text


def test_resigning_is_a_loss_and_the_leaderboard_lists_players_with_enough_games(client: TestClient) -> None:
    ann, bob = two_players(client)
    for _ in range(MIN_GAMES):
        assert client.get("/api/leaderboard/dominoes").json()["players"] == []
        tid, tokens = rated_table(ann, [ann, bob])
        resign_after_one_move(client, tid, tokens, 1)  # Bob resigns, whatever the scores
    board = client.get("/api/leaderboard/dominoes").json()
    assert board["min_games"] == MIN_GAMES
    assert [(p["rank"], p["name"], p["games"]) for p in board["players"]] == [(1, "Ann_1", 3), (2, "Bob_2", 3)]
    assert board["players"][0]["rating"] > 1500 > board["players"][1]["rating"]
    assert all(isinstance(p["provisional"], bool) for p in board["players"])
    assert client.get("/api/leaderboard/Card-Muggins").json()["game"] == "card-muggins"  # in any case
    assert client.get("/api/leaderboard/chess").status_code == 404
    history = profile(client, "Bob_2")["history"]["dominoes"]
    assert len(history) == MIN_GAMES and history[0]["rating"] > history[-1]["rating"]  # losing, game after game
    assert profile(client, "bob_2")["recent"][0]["result"] == "resigned"  # names in any case


def test_a_table_is_rated_once_only_also_after_a_restart(db_url: str) -> None:
    with TestClient(create_app(db_url, time_scale=0.0)) as client:
        ann, bob = two_players(client)
        tid, tokens = rated_table(ann, [ann, bob])
        resign_after_one_move(client, tid, tokens, 0)
        ratings: Ratings = client.app.state.ratings  # type: ignore[attr-defined]
        table = client.app.state.manager.get(tid)  # type: ignore[attr-defined]
        before = rows(client, ratings_t)
        assert len(before) == 2
        assert ratings.rate(table) is False  # asked again: nothing changes
        assert rows(client, ratings_t) == before and len(rows(client, rating_history_t)) == 2
    with TestClient(create_app(db_url, time_scale=0.0)) as client:  # a restart catches up with nothing
        assert client.app.state.ratings.catch_up() == 0  # type: ignore[attr-defined]
        assert rows(client, ratings_t) == before and len(rows(client, rating_history_t)) == 2


def test_a_rated_table_that_ended_unrated_is_rated_at_the_next_start(db_url: str) -> None:
    with TestClient(create_app(db_url, time_scale=0.0)) as client:
        ann, bob = two_players(client)
        client.app.state.manager.end_listeners.clear()  # type: ignore[attr-defined]  # as if stopped before it
        tid, tokens = rated_table(ann, [ann, bob])
        resign_after_one_move(client, tid, tokens, 0)
        assert rows(client, ratings_t) == []
    with TestClient(create_app(db_url, time_scale=0.0)) as client:
        rated = {r["account_id"]: r for r in rows(client, ratings_t)}
        assert len(rated) == 2 and sorted(r["games"] for r in rated.values()) == [1, 1]
        assert [r["table_id"] for r in rows(client, rated_tables_t)] == [tid]


def test_unrated_tables_change_no_rating(client: TestClient) -> None:
    ann, bob = two_players(client)
    t = new_table(ann, seats=[None, None])
    assert t["rated"] is False
    tokens = [c.post(f"/api/tables/{t['id']}/seats/{i}", json={}).json()["token"] for i, c in enumerate((ann, bob))]
    resign_after_one_move(client, t["id"], tokens, 1)
    assert rows(client, ratings_t) == [] and rows(client, rating_history_t) == [] and rows(client, rated_tables_t) == []
    assert profile(client, "Ann_1")["ratings"]["dominoes"] == {"rating": 1500, "deviation": 350, "games": 0,
                                                               "provisional": True}
    assert profile(client, "Ann_1")["games"] == {"dominoes": {"played": 1, "won": 1}}  # played all the same


def test_guests_cannot_make_or_join_rated_tables(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "dominoes", "seats": [None, None], "rated": True})
    assert r.status_code == 401 and "log in" in r.json()["error"]
    quick(client)
    sign_up(client)
    for bad, why in (({"rated": "yes"}, "true or false"), ({"rated": True, "hints": True}, "without hints"),
                     ({"rated": True, "seats": [None, "random"]}, "house bots")):
        r = client.post("/api/tables", json={"game": "dominoes", **bad})
        assert r.status_code == 422 and why in r.json()["error"], (bad, r.text)
    assert client.get("/api/tables").json()["total"] == 0  # nothing was made
    t = new_table(client, seats=[None, None], rated=True)
    guest = other(client)
    r = guest.post(f"/api/tables/{t['id']}/seats/1", json={"name": "Zed"})
    assert r.status_code == 401 and "rated" in r.json()["error"]
    assert client.get(f"/api/tables/{t['id']}").json()["seats"][1]["open"] is True


def test_a_house_bot_is_rated_from_its_measured_start(client: TestClient) -> None:
    fresh = profile(client, "Expert")  # before any game: its measured start
    assert fresh["kind"] == "house" and fresh["name"] == "expert"
    measured = round(HOUSE_START["card-muggins"]["expert"])
    assert fresh["ratings"]["card-muggins"] == {"rating": measured, "deviation": 100, "games": 0, "provisional": False}
    quick(client)
    sign_up(client)
    t = new_table(client, game="card-muggins", seats=[None, "expert"], rated=True)
    token = client.post(f"/api/tables/{t['id']}/seats/0", json={}).json()["token"]
    r = client.post(f"/api/tables/{t['id']}/resign", headers={"authorization": f"Bearer {token}"}, json={})
    assert r.status_code == 200, r.text
    expert = profile(client, "expert")
    assert expert["kind"] == "house"
    start = HOUSE_START["card-muggins"]["expert"]
    got = expert["ratings"]["card-muggins"]
    assert got["games"] == 1 and start < got["rating"] < start + 60 and not got["provisional"]
    assert expert["starts"]["card-muggins"] == round(start)  # where its chart begins
    assert profile(client, "Ann_1")["starts"]["card-muggins"] == 1500
    ann = profile(client, "Ann_1")["ratings"]["card-muggins"]
    # a loss to a strong opponent costs a newcomer less than a loss to an even one would
    assert 1500 - 200 < ann["rating"] < 1500
    assert profile(client, "expert")["recent"][0]["result"] == "won"


def test_partners_share_the_result_of_their_side(client: TestClient) -> None:
    """Four-hand cribbage: seats 0 and 2 against 1 and 3. The account at seat 0 resigns: its partner (a house
    bot) loses with it, both opponents gain."""
    quick(client)
    sign_up(client)
    t = new_table(client, game="cribbage", preset="four-hand", seats=[None, "beginner", "casual", "club"], rated=True)
    token = client.post(f"/api/tables/{t['id']}/seats/0", json={}).json()["token"]
    r = client.post(f"/api/tables/{t['id']}/resign", headers={"authorization": f"Bearer {token}"}, json={})
    assert r.status_code == 200, r.text
    start = HOUSE_START["cribbage"]
    got = {n: profile(client, n)["ratings"]["cribbage"]["rating"] for n in ("Ann_1", "beginner", "casual", "club")}
    assert got["Ann_1"] < 1500 and got["casual"] < round(start["casual"])
    assert got["beginner"] > round(start["beginner"]) and got["club"] > round(start["club"])


def test_an_abandoned_rated_game_is_lost_by_who_left(client: TestClient) -> None:
    ann, bob = two_players(client)
    tid, tokens = rated_table(ann, [ann, bob])
    play_through_sockets(client, tid, tokens, moves=2)
    with table_socket(client, tid, tokens[0]) as ws:  # Ann is at the table, Bob has gone
        ws.receive_json()
        r = client.delete(f"/api/tables/{tid}", headers={"authorization": f"Bearer {tokens[0]}",
                                                         "origin": str(client.base_url)})
        assert r.status_code == 200 and r.json()["status"] == "abandoned"
    a, b = (profile(client, n)["ratings"]["dominoes"] for n in ("Ann_1", "Bob_2"))
    assert a["rating"] > 1500 > b["rating"] and a["games"] == b["games"] == 1
    tid, tokens = rated_table(ann, [ann, bob])  # removed before its first move: nobody is rated
    r = client.delete(f"/api/tables/{tid}", headers={"authorization": f"Bearer {tokens[0]}",
                                                     "origin": str(client.base_url)})
    assert r.status_code == 200 and profile(client, "Bob_2")["ratings"]["dominoes"]["games"] == 1
    notes = [x["note"] for x in rows(client, rated_tables_t) if x["table_id"] == tid]
    assert notes == ["abandoned before its first move"]


def test_a_rated_game_left_idle_is_lost_by_the_seat_it_waited_for(client: TestClient) -> None:
    ann, bob = two_players(client)
    tid, tokens = rated_table(ann, [ann, bob])
    table = play_through_sockets(client, tid, tokens, moves=3)  # then both sockets close
    lapsed = min(table.state.waiting_for())
    manager = client.app.state.manager  # type: ignore[attr-defined]
    table.last_active = manager.clock() - manager.idle_timeout - 1
    assert manager.sweep() == 1 and table.status == "abandoned"
    got = [profile(client, n)["ratings"]["dominoes"]["rating"] for n in ("Ann_1", "Bob_2")]
    assert got[lapsed] < 1500 < got[1 - lapsed]


def test_profiles_of_unknown_and_deleted_players_are_404(client: TestClient) -> None:
    ann, bob = two_players(client)
    tid, tokens = rated_table(ann, [ann, bob])
    resign_after_one_move(client, tid, tokens, 0)
    assert client.get("/api/players/nobody_here").status_code == 404
    r = bob.request("DELETE", "/api/account", json={"password": "correct horse battery"})
    assert r.status_code == 200
    assert client.get("/api/players/Bob_2").status_code == 404
    assert len(rows(client, ratings_t)) == 1  # his rating went with him
    assert profile(client, "Ann_1")["ratings"]["dominoes"]["games"] == 1


def test_the_pages_of_profiles_and_leaderboards_are_served(client: TestClient) -> None:
    for path in ("/players/Ann_1", "/leaderboard/dominoes", "/leaderboard"):
        r = client.get(path)
        assert r.status_code == 200 and "<main>" in r.text


def called_game(false_call: bool) -> tuple[StoredTable, int, int]:
    """A card Muggins game where seat 0 plays a scoring card announcing nothing and seat 1 calls (or,
    with ``false_call``, seat 0 announces right and seat 1 calls all the same); the points at stake."""
    spec = get_game("card-muggins")
    for seed in range(200):
        st = spec.new(spec.rules("muggins", {}), 2, chance=Chance(seed=seed))
        while not st.is_over() and len(st.history) < 60:
            seat = min(st.waiting_for())
            scoring = [a for a in st.legal_actions(seat) if a.kind == "play" and st.claim_for(seat, a) > 0]
            if scoring:
                action = scoring[0]
                points = st.claim_for(seat, action)
                st.apply(seat, action.with_claim(points) if false_call else action)
                caller = 1 - seat
                calls = [a for a in st.legal_actions(caller) if a.kind == "muggins"]
                if not calls:
                    break
                st.apply(caller, calls[0])
                actions = [st.action_to_json(s, a) for s, a in st.history]
                stored = StoredTable("x", "card-muggins", "muggins", {}, 2, seed, 0, 0, [{}, {}], [], "finished",
                                     0.0, actions)
                return stored, caller, points
            st.apply(seat, st.legal_actions(seat)[0])
    raise AssertionError("no deal gave a scoring play")


def test_the_muggins_figures_count_calls_steals_and_misses() -> None:
    stored, caller, points = called_game(false_call=False)
    per = muggins_of(stored)
    scorer = 1 - caller
    assert per[caller]["calls"] == per[caller]["right"] == 1 and per[caller]["false"] == 0
    assert 0 < per[caller]["stolen"] <= points
    assert per[scorer]["missed"] >= points and per[scorer]["calls"] == 0
    stored, caller, points = called_game(false_call=True)
    per = muggins_of(stored)
    assert per[caller]["calls"] == per[caller]["false"] == 1 and per[caller]["stolen"] == 0
    assert per[1 - caller]["announced"] >= points and per[1 - caller]["missed"] == 0


@given(hs.lists(hs.integers(-50, 200), min_size=2, max_size=4), hs.data())
def test_side_ranks_put_the_winners_first_and_who_left_last(scores: list[int], data: Any) -> None:
    n = len(scores)
    first = set(data.draw(hs.lists(hs.integers(0, n - 1), max_size=n - 1)))
    last = set(data.draw(hs.lists(hs.integers(0, n - 1), max_size=n - 1))) - first
    ranks = side_ranks(scores, first, last)
    assert min(ranks) == 0 and sorted(set(ranks)) == list(range(max(ranks) + 1))  # no gaps
    for a in range(n):
        for b in range(n):
            if (a in first and b not in first) or (a not in last and b in last):
                assert ranks[a] < ranks[b]
            elif (a in first) == (b in first) and (a in last) == (b in last):
                assert (ranks[a] < ranks[b]) == (scores[a] > scores[b])


@given(hs.floats(-600, 600))
def test_the_ladder_carried_onto_the_scale_keeps_its_odds(elo: float) -> None:
    diff = elo_to_scale(elo)
    assert expected_score((1500 + diff, 100), (1500, 100)) == pytest.approx(1 / (1 + 10 ** (-elo / 400)), abs=1e-6)
    assert (diff > 0) == (elo > 0) or abs(elo) < 1e-9


def test_ratings_on_postgres(pg_schema_url: str) -> None:
    with TestClient(create_app(pg_schema_url, time_scale=0.0)) as client:
        ann, bob = two_players(client)
        tid, tokens = rated_table(ann, [ann, bob], bots=[])
        resign_after_one_move(client, tid, tokens, 1)
        store = client.app.state.store  # type: ignore[attr-defined]
        with store.engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(rating_history_t)).scalar_one() == 2
        ids = sorted(r["account_id"] for r in rows(client, ratings_t))
        assert rating_of(store, ids[0], "dominoes")["rating"] > 1500 > rating_of(store, ids[1], "dominoes")["rating"]
