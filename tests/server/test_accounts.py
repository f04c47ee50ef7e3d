"""Accounts: signing up, logging in and out, the password's storage and change, deletion, the limits on
failed logins, the rules of usernames, and a seat that follows its account to another device."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from argon2 import PasswordHasher, Type
from fastapi.testclient import TestClient
from sqlalchemy import select

from muggins.server.accounts import COOKIE, Accounts
from muggins.server.store import accounts_t, seat_owners_t, sessions_t
from tests.server.conftest import new_table, same_server, sit
from tests.server.test_migrations import pg_schema_url

PASSWORD = "correct horse battery"
FOREIGN = {"Origin": "https://elsewhere.example"}
__all__ = ["pg_schema_url"]  # a fixture


class Counting(PasswordHasher):
    """A quick argon2id hasher (tests make many hashes) that counts its checks."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**{"time_cost": 1, "memory_cost": 1024, "parallelism": 1, **kw})
        self.checks = 0

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        self.checks += 1
        return super().verify(hash, password)


@pytest.fixture
def acc(client: TestClient) -> Accounts:
    accounts: Accounts = client.app.state.accounts  # type: ignore[attr-defined]
    accounts.hasher = Counting()
    return accounts


def other(client: TestClient, **kw: Any) -> TestClient:
    """A second browser on the same server: its own cookie jar, the server's one event loop (see
    :func:`same_server`)."""
    return same_server(client, TestClient(client.app, **kw))



def sign_up(c: TestClient, username: str = "Ann_1", password: str = PASSWORD, **kw: Any) -> Any:
    return c.post("/api/account", json={"username": username, "password": password}, **kw)


def log_in(c: TestClient, username: str = "Ann_1", password: str = PASSWORD, **kw: Any) -> Any:
    return c.post("/api/session", json={"username": username, "password": password}, **kw)


def row(acc: Accounts, key: str) -> Any:
    with acc.store.engine.connect() as conn:
        return conn.execute(select(accounts_t).where(accounts_t.c.username_key == key)).mappings().first()


def test_sign_up_logs_in_and_the_account_is_the_logged_in_player(client: TestClient, acc: Accounts) -> None:
    assert client.get("/api/account").status_code == 401
    r = sign_up(client)
    assert r.status_code == 201 and r.json()["username"] == "Ann_1"
    me = client.get("/api/account")
    assert me.status_code == 200 and me.json()["username"] == "Ann_1" and me.json()["seats"] == []


def test_log_in_log_out_and_the_old_cookie_is_void(client: TestClient, acc: Accounts) -> None:
    sign_up(client)
    second = other(client)
    assert log_in(second, "ANN_1").status_code == 200  # the name in any case
    token = second.cookies.get(COOKIE)
    assert second.get("/api/account").json()["username"] == "Ann_1"
    assert second.delete("/api/session").status_code == 200
    assert second.get("/api/account").status_code == 401
    replay = other(client)
    replay.cookies.set(COOKIE, str(token))  # the token kept by somebody: void on the server too
    assert replay.get("/api/account").status_code == 401
    assert client.get("/api/account").status_code == 200  # the first browser's session is its own


def test_the_password_is_stored_only_as_an_argon2id_hash(client: TestClient, acc: Accounts) -> None:
    sign_up(client)
    stored = row(acc, "ann_1")
    assert stored["password_hash"].startswith("$argon2id$")
    assert all(PASSWORD not in str(v) for v in stored.values())
    assert PasswordHasher().verify(stored["password_hash"], PASSWORD)
    token = client.cookies.get(COOKIE)
    with acc.store.engine.connect() as conn:
        sessions = conn.execute(select(sessions_t)).mappings().all()
    assert [s["token_hash"] for s in sessions] == [hashlib.sha256(str(token).encode()).hexdigest()]
    assert Accounts(acc.store, acc.manager).hasher.type == Type.ID  # the server's own hasher: argon2id


def test_session_cookie_flags(client: TestClient, acc: Accounts) -> None:
    r = sign_up(client)
    cookie = r.headers["set-cookie"]
    parts = {p.strip().split("=")[0].lower(): p.strip() for p in cookie.split(";")}
    assert parts[COOKIE].startswith(COOKIE + "=") and len(parts[COOKIE]) > 40
    assert "httponly" in parts and parts["samesite"].lower() == "samesite=lax" and parts["path"] == "Path=/"
    assert "secure" not in parts  # plain http: a Secure cookie would never come back
    secure = other(client, base_url="https://testserver")
    cookie = log_in(secure).headers["set-cookie"].lower()
    assert "; secure" in cookie and "httponly" in cookie


def test_twenty_wrong_passwords_get_429(client: TestClient, acc: Accounts) -> None:
    sign_up(client)
    codes = [log_in(other(client), password=f"wrong password {i}").status_code for i in range(20)]
    assert codes[0] == 401 and codes[-1] == 429
    r = log_in(other(client))  # the right password too, while the name is held back
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1


def test_wrong_passwords_for_many_names_from_one_address_get_429(client: TestClient, acc: Accounts) -> None:
    codes = [log_in(client, f"nobody_{i}", "wrong password").status_code for i in range(25)]
    assert codes[0] == 401 and codes[-1] == 429 and "retry-after" in log_in(client, "nobody_x").headers


def test_a_wrong_password_and_an_unknown_user_get_the_same_answer(client: TestClient, acc: Accounts) -> None:
    sign_up(client)
    acc.hasher.checks = 0  # type: ignore[attr-defined]
    wrong = log_in(other(client), "Ann_1", "not the password")
    assert acc.hasher.checks == 1  # type: ignore[attr-defined]
    unknown = log_in(other(client), "Bob_1", "not the password")
    assert acc.hasher.checks == 2  # type: ignore[attr-defined]  # a hash is checked for an unknown name too
    assert (wrong.status_code, wrong.json()) == (unknown.status_code, unknown.json()) == (
        401, {"error": "wrong username or password"})
    assert COOKIE not in wrong.headers.get("set-cookie", "") and COOKIE not in unknown.headers.get("set-cookie", "")


def test_a_foreign_origin_cannot_sign_up_log_in_log_out_or_change_the_password(
        client: TestClient, acc: Accounts) -> None:
    assert sign_up(client, "Eve_1", headers=FOREIGN).status_code == 403
    assert row(acc, "eve_1") is None
    sign_up(client)
    assert log_in(other(client), headers=FOREIGN).status_code == 403
    assert client.delete("/api/session", headers=FOREIGN).status_code == 403
    assert client.get("/api/account").status_code == 200
    r = client.post("/api/account/password", json={"password": PASSWORD, "new_password": "another one 1"},
                    headers=FOREIGN)
    assert r.status_code == 403
    assert client.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=FOREIGN).status_code == 403
    assert log_in(other(client)).status_code == 200  # nothing changed


@pytest.mark.parametrize("name", [
    "ab", "a" * 21, "x" * 10000, "Ann Lee", "ann!", "ann.lee", "",
    "\uff21nn_1",     # a fullwidth A
    "\u0410nn_1",     # a Cyrillic A
    "Ann_1\u200b",    # a zero-width space
    "admin", "You", "GUEST", "system", "muggins", "deleted_7f3a", "bot",
    "Expert_Heron", "casual-bot-2", "Casual_Otter", "club", "otter", "mybot", "bot_7", "robot9", "expert-ann",
])
def test_usernames_that_are_refused(client: TestClient, acc: Accounts, name: str) -> None:
    r = sign_up(client, name)
    assert r.status_code == 422, (name, r.text)
    assert client.get("/api/account").status_code == 401


def test_usernames_are_unique_in_any_case_and_look_alikes_are_refused(client: TestClient, acc: Accounts) -> None:
    assert sign_up(client, "Robin-Hood").status_code == 201
    assert sign_up(other(client), "robin-HOOD").status_code == 409
    assert sign_up(other(client), "R\u043ebin-Hood").status_code == 422  # a Cyrillic o
    assert sign_up(other(client), "Abbott").status_code == 201


def test_passwords_too_short_too_long_and_a_megabyte(client: TestClient, acc: Accounts) -> None:
    assert sign_up(client, password="short").status_code == 422
    assert sign_up(client, password="x" * 1025).status_code == 422
    assert sign_up(client, password="x" * 1_000_000).status_code == 413
    assert sign_up(client, password="x" * 1024).status_code == 201
    acc.hasher.checks = 0  # type: ignore[attr-defined]
    assert log_in(other(client), password="x" * 1_000_000).status_code == 413
    assert log_in(other(client), password="x" * 5000).status_code == 401
    assert acc.hasher.checks == 0  # type: ignore[attr-defined]  # never hashed


def test_changing_the_password_logs_the_other_sessions_out(client: TestClient, acc: Accounts) -> None:
    sign_up(client)
    phone = other(client)
    log_in(phone)
    wrong = client.post("/api/account/password", json={"password": "not it at all", "new_password": "new secret 1"})
    assert wrong.status_code == 401
    short = client.post("/api/account/password", json={"password": PASSWORD, "new_password": "short"})
    assert short.status_code == 422
    r = client.post("/api/account/password", json={"password": PASSWORD, "new_password": "new secret 1"})
    assert r.status_code == 200
    assert client.get("/api/account").status_code == 200
    assert phone.get("/api/account").status_code == 401
    assert log_in(other(client)).status_code == 401
    assert log_in(other(client), password="new secret 1").status_code == 200
    assert other(client).post("/api/account/password", json={"password": "new secret 1",
                                                             "new_password": "x" * 9}).status_code == 401


def test_a_hash_with_old_parameters_is_made_again_at_login(client: TestClient, acc: Accounts) -> None:
    sign_up(client)
    before = row(acc, "ann_1")["password_hash"]
    acc.hasher = Counting(memory_cost=2048)
    assert log_in(other(client)).status_code == 200
    after = row(acc, "ann_1")["password_hash"]
    assert "m=1024" in before and "m=2048" in after
    assert log_in(other(client)).status_code == 200


def test_a_seat_taken_logged_in_comes_back_on_another_device(client: TestClient, acc: Accounts) -> None:
    sign_up(client)
    t = new_table(client, seats=[None, None])
    first = client.post(f"/api/tables/{t['id']}/seats/0", json={"name": "whatever"})
    assert first.status_code == 200
    table = client.app.state.manager.get(t["id"])  # type: ignore[attr-defined]
    assert table.seats[0].name == "Ann_1"  # taken under the account's name
    assert client.get("/api/account").json()["seats"] == [{"table": t["id"], "seat": 0}]
    guest = other(client)
    assert guest.post(f"/api/tables/{t['id']}/seats/0", json={"name": "Bob"}).status_code == 409
    assert guest.get(f"/api/tables/{t['id']}/my-seat").status_code == 401
    phone = other(client)
    log_in(phone)
    assert phone.get(f"/api/tables/{t['id']}/my-seat").json() == {"table": t["id"], "seat": 0}
    again = phone.post(f"/api/tables/{t['id']}/seats/0", json={})
    assert again.status_code == 200 and again.json()["seat"] == 0
    assert table.seat_of_token(again.json()["token"]) == 0
    with pytest.raises(Exception, match="not valid"):
        table.seat_of_token(first.json()["token"])  # one token per seat: the first device now watches
    assert phone.post(f"/api/tables/{t['id']}/seats/1", json={}).status_code == 409  # one seat a table
    assert sit(guest, new_table(client, seats=[None, None])["id"], 0, "Bob")  # guests sit as before


def test_deleting_the_account_keeps_its_games_under_another_name(client: TestClient, acc: Accounts) -> None:
    sign_up(client)
    t = new_table(client, seats=[None, "casual"])
    client.post(f"/api/tables/{t['id']}/seats/0", json={})
    assert client.request("DELETE", "/api/account", json={"password": "not the password"}).status_code == 401
    assert client.request("DELETE", "/api/account", json={}).status_code == 401
    r = client.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert r.status_code == 200 and r.json()["games"] == 1
    shown = r.json()["shown_as"]
    assert shown.startswith("deleted player ")
    assert client.get(f"/api/tables/{t['id']}").json()["seats"][0]["name"] == shown
    stored = acc.store.load_one(t["id"])
    assert stored is not None and stored.seats[0]["name"] == shown
    assert row(acc, "ann_1") is None
    with acc.store.engine.connect() as conn:
        assert conn.execute(select(sessions_t)).all() == []
        assert conn.execute(select(seat_owners_t)).all() == []
    assert client.get("/api/account").status_code == 401
    assert log_in(other(client)).status_code == 401
    assert sign_up(other(client)).status_code == 201  # the name is free again



def test_a_seat_left_and_taken_by_a_guest_is_no_longer_the_accounts(client: TestClient, acc: Accounts) -> None:
    sign_up(client)
    t = new_table(client, seats=[None, None])
    token = client.post(f"/api/tables/{t['id']}/seats/0", json={}).json()["token"]
    assert client.post(f"/api/tables/{t['id']}/leave", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    guest = other(client)
    guest_token = sit(guest, t["id"], 0, "Bob")
    assert client.get(f"/api/tables/{t['id']}/my-seat").status_code == 404
    assert client.post(f"/api/tables/{t['id']}/seats/0", json={}).status_code == 409
    table = client.app.state.manager.get(t["id"])  # type: ignore[attr-defined]
    assert table.seat_of_token(guest_token) == 0 and table.seats[0].name == "Bob"
    r = client.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert r.json()["games"] == 0 and table.seats[0].name == "Bob"  # the guest keeps his name


def test_accounts_on_postgres(pg_schema_url: str) -> None:
    from muggins.server.app import create_app

    with TestClient(create_app(pg_schema_url, time_scale=0.0)) as c:
        c.app.state.accounts.hasher = Counting()  # type: ignore[attr-defined]
        assert sign_up(c).status_code == 201 and sign_up(other(c), "ANN_1").status_code == 409
        t = new_table(c, seats=[None, "casual"])
        assert c.post(f"/api/tables/{t['id']}/seats/0", json={}).status_code == 200
        phone = other(c)
        assert log_in(phone).status_code == 200
        assert phone.post(f"/api/tables/{t['id']}/seats/0", json={}).status_code == 200
        r = phone.request("DELETE", "/api/account", json={"password": PASSWORD})
        assert r.status_code == 200 and r.json()["games"] == 1
        assert c.get("/api/account").status_code == 401


def test_the_session_says_who_is_logged_in_and_a_guest_gets_no_error(client: TestClient, acc: Accounts) -> None:
    """The page asks GET /api/session on every load: a guest gets 200 and null (no error in his console)."""
    r = client.get("/api/session")
    assert r.status_code == 200 and r.json() == {"account": None}
    sign_up(client)
    me = client.get("/api/session").json()["account"]
    assert me["username"] == "Ann_1" and me["seats"] == []
    client.delete("/api/session", headers={"origin": str(client.base_url)})
    assert client.get("/api/session").json() == {"account": None}
