"""The bot API's accounts, tokens and rights: a token shown once and stored hashed, revocable, refused
from a foreign origin; a bot acts only at its own seat; malformed moves and claims are refused and change
nothing; the world a bot may ask for is its seat's game and nothing more."""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from muggins.core.records import replay
from muggins.server.app import create_app
from muggins.server.guard import ClientLimits
from muggins.server.store import accounts_t, bot_tokens_t, challenges_t, seat_owners_t
from tests.server.botapi_helpers import PASSWORD, auth, validator
from tests.server.conftest import same_server

API = validator("bot-api.schema.json")


def valid(data: Any, name: str) -> Any:
    """``data``, checked against the definition ``name`` of the bot API's schema."""
    type(API)({"$ref": f"#/$defs/{name}", "$defs": API.schema["$defs"]}).validate(data)
    return data


@pytest.fixture
def app(db_url: str) -> Any:
    made = create_app(db_url, rate=1e6, burst=1e6, time_scale=0.0, tables_burst=1e6, seats_burst=1e6)
    made.state.bots.made = ClientLimits("bot tokens and accounts made", 1e6, 1e6)  # see the test of the limit
    return made


STARTED: dict[int, TestClient] = {}  # id(app) -> the client that runs its event loop (the ``web`` fixture)


@pytest.fixture
def web(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as c:
        STARTED[id(app)] = c
        yield c
        del STARTED[id(app)]


def login(app: Any, name: str) -> TestClient:
    c = TestClient(app)
    if id(app) in STARTED:  # the server's one event loop, as for every browser of a real server
        same_server(STARTED[id(app)], c)
    r = c.post("/api/account", json={"username": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return c


def new_bot(owner: TestClient, name: str) -> str:
    assert owner.post("/api/bot/accounts", json={"username": name}).status_code == 201
    r = owner.post(f"/api/bot/accounts/{name}/tokens", json={"label": "laptop"})
    assert r.status_code == 201, r.text
    return str(valid(r.json(), "newToken")["token"])


def rows(app: Any, table: Any) -> list[Any]:
    with app.state.store.engine.begin() as c:
        return list(c.execute(select(table)).mappings().all())


def test_a_token_is_shown_once_stored_as_its_hash_listed_without_it(app: Any, web: TestClient) -> None:
    ann = login(app, "ann")
    token = new_bot(ann, "ada-bot")
    stored = rows(app, bot_tokens_t)
    assert [r["token_hash"] for r in stored] == [hashlib.sha256(token.encode()).hexdigest()]
    assert token not in json.dumps([dict(r) for r in stored])
    listed = valid(ann.get("/api/bot/accounts/ada-bot/tokens").json(), "tokenList")
    assert [t["label"] for t in listed["tokens"]] == ["laptop"] and token not in json.dumps(listed)
    me = valid(web.get("/api/bot/account", headers=auth(token)).json(), "account")
    assert (me["username"], me["owner"], me["scopes"]) == ("ada-bot", "ann", ["bot:play"])
    assert valid(ann.get("/api/bot/accounts").json(), "botList")["bots"][0]["username"] == "ada-bot"
    by_name = {r["username"]: r for r in rows(app, accounts_t)}
    assert (by_name["ada-bot"]["kind"], by_name["ada-bot"]["owner_id"]) == ("bot", by_name["ann"]["id"])
    # a bot account never logs in with a password
    assert web.post("/api/session", json={"username": "ada-bot", "password": PASSWORD}).status_code == 401


def test_bot_names_may_look_like_bots_but_not_like_the_house_bots(app: Any, web: TestClient) -> None:
    ann = login(app, "ann")
    assert web.post("/api/account", json={"username": "ada-bot", "password": PASSWORD}).status_code == 422
    assert ann.post("/api/bot/accounts", json={"username": "ada-bot"}).status_code == 201
    for name in ("expert", "Expert-Bot", "casual_heron", "admin", "x", "ünïcode", "deleted-bot", 5):
        r = ann.post("/api/bot/accounts", json={"username": name})
        assert r.status_code == 422, (name, r.text)
    assert ann.post("/api/bot/accounts", json={"username": "ADA-BOT"}).status_code == 409
    assert ann.post("/api/bot/accounts", json={"username": "ann"}).status_code == 409
    assert web.post("/api/bot/accounts", json={"username": "guest-bot"}).status_code == 401  # not logged in
    assert [r["username"] for r in rows(app, accounts_t)] == ["ann", "ada-bot"]


def test_a_revoked_token_is_refused_and_only_its_owner_revokes_it(app: Any, web: TestClient) -> None:
    ann, bob = login(app, "ann"), login(app, "bob")
    token = new_bot(ann, "ada-bot")
    ident = ann.get("/api/bot/accounts/ada-bot/tokens").json()["tokens"][0]["id"]
    assert bob.delete(f"/api/bot/tokens/{ident}").status_code == 404
    assert bob.get("/api/bot/accounts/ada-bot/tokens").status_code == 404
    assert web.get("/api/bot/account", headers=auth(token)).status_code == 200
    assert valid(ann.delete(f"/api/bot/tokens/{ident}").json(), "revoked") == {"revoked": ident}
    r = web.get("/api/bot/account", headers=auth(token))
    assert r.status_code == 401 and "not valid" in valid(r.json(), "error")["error"]
    assert web.get("/api/bot/stream/event", headers=auth(token)).status_code == 401
    assert web.post("/api/challenge/beginner", headers=auth(token), json={}).status_code == 401
    assert rows(app, bot_tokens_t) == []


def test_a_foreign_origin_cannot_make_bots_or_tokens(app: Any, web: TestClient) -> None:
    ann = login(app, "ann")
    evil = {"Origin": "https://evil.example"}
    assert ann.post("/api/bot/accounts", json={"username": "ada-bot"}, headers=evil).status_code == 403
    assert len(rows(app, accounts_t)) == 1
    token = new_bot(ann, "ada-bot")
    assert ann.post("/api/bot/accounts/ada-bot/tokens", json={}, headers=evil).status_code == 403
    ident = rows(app, bot_tokens_t)[0]["id"]
    assert ann.delete(f"/api/bot/tokens/{ident}", headers=evil).status_code == 403
    assert len(rows(app, bot_tokens_t)) == 1
    r = web.post("/api/challenge/beginner", json={"game": "dominoes"}, headers={**evil, **auth(token)})
    assert r.status_code == 403 and app.state.manager.tables == {}


def test_wrong_tokens_and_new_tokens_are_limited_per_address(db_url: str) -> None:
    with TestClient(create_app(db_url)) as web:
        codes = [web.get("/api/bot/account", headers=auth(f"mgb_wrong{i}")).status_code for i in range(40)]
        assert codes[0] == 401 and codes[-1] == 429
        ann = login(web.app, "ann")
        codes = [ann.post("/api/bot/accounts", json={"username": f"b{i}-bot"}).status_code for i in range(6)]
        codes += [ann.post("/api/bot/accounts/b0-bot/tokens", json={}).status_code for i in range(10)]
        assert codes[0] == 201 and 429 in codes
        assert len(ann.get("/api/bot/accounts/b0-bot/tokens").json()["tokens"]) == codes.count(201) - 5


def challenge_accepted(app: Any, owner: TestClient, token: str, web: TestClient, **body: Any
                       ) -> tuple[str, int]:
    """``owner`` challenges the bot; the bot accepts: (table id, the bot's seat)."""
    body.setdefault("game", "dominoes")
    r = owner.post("/api/challenge/ada-bot", json=body)
    assert r.status_code == 201, r.text
    r = web.post(f"/api/bot/challenge/{r.json()['id']}/accept", headers=auth(token))
    assert r.status_code == 200, r.text
    game = r.json()["game"]
    return game["id"], game["seat"]


def test_a_token_acts_only_for_its_own_bots_seat(app: Any, web: TestClient) -> None:
    ann, cy = login(app, "ann"), login(app, "cyd")
    token = new_bot(ann, "ada-bot")
    other = new_bot(cy, "cyd-bot")
    tid, seat = challenge_accepted(app, ann, token, web, rated=True)
    t = app.state.manager.get(tid)
    assert t.meta == {"challenge": t.meta["challenge"], "rated": True}
    casual, _ = challenge_accepted(app, ann, token, web)
    assert app.state.manager.get(casual).meta["rated"] is False
    owners = {r["seat"]: r["account_id"] for r in rows(app, seat_owners_t) if r["table_id"] == tid}
    ids = {r["username"]: r["id"] for r in rows(app, accounts_t)}
    assert owners == {1 - seat: ids["ann"], seat: ids["ada-bot"]}
    person_seat = ann.post(f"/api/tables/{tid}/seats/{1 - seat}", json={}).json()["token"]
    before = (len(t.state.history), t.status)
    mover = min(t.state.to_act())
    move = t.state.view(mover).to_json()["legal"][0]
    for headers in (auth(other), auth(person_seat), {}):  # another bot, a person's seat token, nobody
        r = web.post(f"/api/bot/game/{tid}/move/{move}", headers=headers)
        assert r.status_code in (401, 403), r.text
        assert web.post(f"/api/bot/game/{tid}/resign", headers=headers).status_code in (401, 403)
        assert web.get(f"/api/bot/game/{tid}/world", headers=headers).status_code in (401, 403)
        assert web.get(f"/api/bot/game/stream/{tid}", headers=headers).status_code in (401, 403)
    # the bot's token is no seat token of the table
    assert web.post(f"/api/tables/{tid}/resign", headers=auth(token)).status_code == 403
    if mover != seat:  # the other seat's turn: the bot cannot play its move
        r = web.post(f"/api/bot/game/{tid}/move/{move}", headers=auth(token))
        assert r.status_code == 400, r.text
    # a table where the bot holds no seat
    plain = web.post("/api/tables", json={"game": "dominoes", "seats": [None, "beginner"]}).json()["id"]
    assert web.post(f"/api/bot/game/{plain}/move/pass", headers=auth(token)).status_code == 403
    assert (len(t.state.history), t.status) == before


def test_malformed_moves_and_claims_are_refused_and_change_nothing(app: Any, web: TestClient) -> None:
    ann = login(app, "ann")
    token = new_bot(ann, "ada-bot")
    tid, seat = challenge_accepted(app, ann, token, web, game="dominoes", preset="muggins")
    t = app.state.manager.get(tid)
    if seat not in t.state.to_act():  # the person plays first: his move, through the socket's own path
        st = t.state
        web.portal.call(t.act, 1 - seat, st.format_action(st.legal_actions(1 - seat)[0]), None)
    assert seat in t.state.to_act()
    n = len(t.state.history)
    url = f"/api/bot/game/{tid}/move"
    bad = {f"{url}/nonsense": 400, f"{url}/6-6 on 9-9": 400, f"{url}/99999999": 400,
           f"{url}/{'1' * 12}": 400, f"{url}/0?claim=abc": 422, f"{url}/x?claim=1e3": 422,
           f"{url}/x?claim={'9' * 30}": 422, f"{url}/x?at=-": 422, f"{url}/x?at=nope": 422,
           f"{url}/{'a' * 300}": 400}
    legal = t.state.legal_actions(seat)
    text = t.state.action_to_json(seat, legal[0])["move"]
    ident = t.state.action_id(legal[0])
    bad.update({f"{url}/{text}?claim=-3": 400, f"{url}/{text}?claim=999": 400, f"{url}/{ident}?claim=0": 422,
                f"{url}/{text}?at={n + 5}": 409, f"{url}/{text}?at={n - 1}": 409})
    for path, code in bad.items():
        r = web.post(path, headers=auth(token))
        assert r.status_code == code, (path, r.status_code, r.text)
        assert valid(r.json(), "error")["error"]
        assert len(t.state.history) == n
    r = web.post(f"{url}/{ident}?at={n}", headers=auth(token))
    assert valid(r.json(), "move")["index"] == n and len(t.state.history) == n + 1
    assert t.state.history[-1] == (seat, legal[0])


def test_challenges_are_declined_canceled_and_answered_once(app: Any, web: TestClient) -> None:
    ann, bob = login(app, "ann"), login(app, "bob")
    token = new_bot(ann, "ada-bot")
    first = ann.post("/api/challenge/ada-bot", json={"game": "cribbage"}).json()
    declined = valid(web.post(f"/api/bot/challenge/{first['id']}/decline", headers=auth(token)).json(), "challenge")
    assert declined["status"] == "declined"
    assert web.post(f"/api/bot/challenge/{first['id']}/accept", headers=auth(token)).status_code == 409
    second = ann.post("/api/challenge/ada-bot", json={"game": "cribbage"}).json()
    assert bob.post(f"/api/challenge/{second['id']}/cancel").status_code == 403
    assert ann.post(f"/api/challenge/{second['id']}/cancel").json()["status"] == "canceled"
    assert web.post(f"/api/bot/challenge/{second['id']}/accept", headers=auth(token)).status_code == 409
    for body, code in (({"game": "chess"}, 422), ({"players": 9}, 422), ({"rated": "yes"}, 422),
                       ({"game": "dominoes", "options": {"target": -5}}, 422), ({"seat": 5}, 422),
                       ({"bots": ["grandmaster"], "players": 3}, 422)):
        assert ann.post("/api/challenge/ada-bot", json=body).status_code == code, body
    assert ann.post("/api/challenge/nobody-here", json={}).status_code == 404
    assert web.post("/api/challenge/ada-bot", json={}).status_code == 401
    assert app.state.manager.tables == {}


def test_a_challenge_outlives_a_restart_and_is_kept_until_answered(db_url: str) -> None:
    def made() -> Any:
        return create_app(db_url, rate=1e6, burst=1e6, time_scale=0.0, tables_burst=1e6, seats_burst=1e6)

    before = made()
    with TestClient(before):
        ann = login(before, "ann")
        token = new_bot(ann, "ada-bot")
        cid = ann.post("/api/challenge/ada-bot", json={"game": "cribbage"}).json()["id"]
    after = made()  # the server restarted on the same store
    with TestClient(after) as web:
        assert valid(web.get(f"/api/challenge/{cid}", headers=auth(token)).json(), "challenge")["status"] == "created"
        accepted = web.post(f"/api/bot/challenge/{cid}/accept", headers=auth(token))
        assert accepted.status_code == 200, accepted.text
        assert web.post(f"/api/bot/challenge/{cid}/accept", headers=auth(token)).status_code == 409
        (row,) = rows(after, challenges_t)
        assert (row["id"], row["status"], row["table_id"]) == (cid, "accepted", accepted.json()["game"]["id"])
        assert sorted(str(seat.name) for seat in after.state.manager.get(row["table_id"]).seats) == ["ada-bot", "ann"]


def test_a_bot_is_seated_at_an_open_table_by_its_owner_or_by_invitation(app: Any, web: TestClient) -> None:
    ann, bob = login(app, "ann"), login(app, "bob")
    token = new_bot(ann, "ada-bot")
    made = web.post("/api/tables", json={"game": "card-muggins", "seats": [None, None, "beginner"]}).json()
    assert bob.post("/api/bot/accounts/ada-bot/seat", json={"table": made["id"], "seat": 0}).status_code == 404
    r = ann.post("/api/bot/accounts/ada-bot/seat", json={"table": made["id"], "seat": 0})
    assert valid(r.json(), "game")["seat"] == 0
    assert ann.post("/api/bot/accounts/ada-bot/seat", json={"table": made["id"], "seat": 2}).status_code == 409
    # by invitation: a person seated at another open table invites the bot to a seat there
    other = web.post("/api/tables", json={"game": "dominoes", "seats": [None, None]}).json()
    assert bob.post(f"/api/tables/{other['id']}/seats/0", json={}).status_code == 200
    invite = bob.post("/api/challenge/ada-bot", json={"table": other["id"], "seat": 1})
    assert invite.status_code == 201, invite.text
    r = web.post(f"/api/bot/challenge/{invite.json()['id']}/accept", headers=auth(token))
    assert r.status_code == 200 and app.state.manager.get(other["id"]).status == "playing"
    assert app.state.manager.get(other["id"]).seats[1].name == "ada-bot"
    assert web.get(f"/api/bot/game/{other['id']}/world", headers=auth(token)).status_code == 200


@pytest.mark.parametrize("game", ["dominoes", "card-muggins", "cribbage"])
def test_the_world_is_a_game_its_seat_cannot_tell_from_the_real_one(app: Any, web: TestClient, game: str) -> None:
    ann = login(app, "ann")
    token = new_bot(ann, "ada-bot")
    r = web.post("/api/challenge/beginner", headers=auth(token), json={"game": game, "rated": True})
    assert r.status_code == 201 and r.json()["status"] == "accepted", r.text
    t = app.state.manager.get(r.json()["table"])
    seat = next(i for i, s in enumerate(t.seats) if s.name == "ada-bot")
    rng = random.Random(4)
    differs = 0
    for _ in range(12):
        if t.state.is_over():
            break
        if seat in t.state.to_act():
            move = t.state.format_action(rng.choice(t.state.legal_actions(seat)))
            assert web.post(f"/api/bot/game/{t.id}/move/{move}", headers=auth(token)).status_code == 200
            if t.state.is_over():
                break
        for _wait in range(250):  # the house bot's answer to it, if any, stored and applied: a still table
            if not t.bot_tasks and not t.saving.locked():
                break
            time.sleep(0.02)
        w = valid(web.get(f"/api/bot/game/{t.id}/world?seed=7", headers=auth(token)).json(), "world")
        again = web.get(f"/api/bot/game/{t.id}/world?seed=7", headers=auth(token)).json()
        assert again == w  # the same seed at the same position: the same world
        st = replay(w["record"])
        assert st.view(seat) == t.state.view(seat) and st.events_for(seat) == t.state.events_for(seat)
        differs += any(sorted(map(str, st.hands[o])) != sorted(map(str, t.state.hands[o]))  # type: ignore[attr-defined]
                       for o in range(len(t.seats)) if o != seat)
        for _wait in range(50):  # the house bot answers
            if seat in t.state.to_act() or t.state.is_over():
                break
            time.sleep(0.02)
    assert differs > 0  # the world is drawn: its hidden hands are not the true ones


def test_the_document_names_every_endpoint_and_answer(app: Any) -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "bot-api.md").read_text()
    routes = {(m, r.path) for r in app.routes for m in getattr(r, "methods", ())
              if r.path.startswith(("/api/bot", "/api/challenge"))}
    assert len(routes) >= 18
    for method, path in routes:
        shown = path.replace(":path}", "}").replace("{table_id}", "{id}").replace("{cid}", "{id}") \
            .replace("{token_id}", "{id}").replace("{username}", "{username}")
        assert f"{method} {shown}" in doc, (method, shown)
    for name in API.schema["$defs"]:
        assert f"`{name}`" in doc or name in ("challengeOpen", "error"), name


def test_deleting_the_owner_removes_his_bots_and_their_tokens(app: Any, web: TestClient) -> None:
    ann, bob = login(app, "ann"), login(app, "bob")
    token = new_bot(ann, "ada-bot")
    kept = new_bot(bob, "bob-bot")
    r = ann.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert r.status_code == 200, r.text
    assert web.get("/api/bot/account", headers=auth(token)).status_code == 401
    assert web.get("/api/bot/account", headers=auth(kept)).status_code == 200
    assert sorted(r["username"] for r in rows(app, accounts_t)) == ["bob", "bob-bot"]
    assert len(rows(app, bot_tokens_t)) == 1


def test_a_table_played_by_another_process_is_refused_not_copied(app: Any, web: TestClient) -> None:
    ann = login(app, "ann")
    token = new_bot(ann, "ada-bot")
    tid, _seat = challenge_accepted(app, ann, token, web)
    manager = app.state.manager
    manager.shared = True  # scale-out mode, the table now leased to another process
    manager.tables.pop(tid).cancel()
    before = len(manager.get(tid).state.history)
    for r in (web.post(f"/api/bot/game/{tid}/move/0", headers=auth(token)),
              web.get(f"/api/bot/game/stream/{tid}", headers=auth(token)),
              web.post(f"/api/bot/game/{tid}/resign", headers=auth(token))):
        assert r.status_code == 503 and "another process" in r.json()["error"]
    assert len(manager.get(tid).state.history) == before and manager.get(tid).status == "playing"


def test_muggins_calls_and_late_claims_are_moves(app: Any, web: TestClient) -> None:
    ann = login(app, "ann")
    token = new_bot(ann, "ada-bot")
    # lenient timing: a scoring play announced with nothing may be claimed late while its window is open
    tid, seat = challenge_accepted(app, ann, token, web, game="dominoes", preset="muggins",
                                   options={"claim_timing": "lenient"})
    t = app.state.manager.get(tid)
    url = f"/api/bot/game/{tid}/move"
    called = claimed = False
    for _ in range(400):
        st = t.state
        if st.is_over() or (called and claimed):
            break
        legal = st.legal_actions(seat)
        if any(a.kind == "muggins" for a in legal) and not called:  # a window on the person's play: a call
            r = web.post(f"{url}/muggins?at={len(st.history)}", headers=auth(token))
            assert r.status_code == 200, r.text
            assert st.history[-1][0] == seat and st.history[-1][1].kind == "muggins"
            called = True
            continue
        scoring = [a for a in legal if a.kind not in ("muggins", "claim") and st.claim_for(seat, a) > 0]
        if scoring and not claimed:  # the bot announces nothing for a scoring play, then claims it late
            worth = st.claim_for(seat, scoring[0])
            move = st.action_to_json(seat, scoring[0])["move"]
            assert web.post(f"{url}/{move}", headers=auth(token)).status_code == 200
            assert web.post(f"{url}/claim?claim=1000", headers=auth(token)).status_code == 400  # past any bound
            r = web.post(f"{url}/claim?claim={worth}", headers=auth(token))
            assert r.status_code == 200, r.text
            assert t.state.history[-1][0] == seat and t.state.history[-1][1].kind == "claim"
            assert t.state.history[-1][1].claim == worth
            claimed = True
            continue
        mover = min(st.waiting_for())
        regular = [a for a in st.legal_actions(mover) if a.kind not in ("muggins", "claim")]
        if mover == seat:
            r = web.post(f"{url}/{st.action_to_json(seat, regular[0])['move']}", headers=auth(token))
            assert r.status_code == 200, r.text
        else:
            web.portal.call(t.act, mover, st.format_action(regular[0]), None)  # type: ignore[union-attr]
    assert called and claimed
