"""Optional accounts: a player signs up with a name and a password and stays logged in by a cookie; guests
play as before.

* Passwords are hashed with argon2id (argon2-cffi's PasswordHasher; a hash made with older parameters is
  made again at the next login). Only the hash is stored.
* A session is a random token in an HttpOnly, SameSite=Lax cookie (``Secure`` over https), stored as its
  SHA-256 with an expiry. Every request that changes anything passes the origin check of the other
  endpoints.
* Failed logins are limited per name (whether or not it exists) and per client address: past the limit,
  429 with Retry-After. A wrong password and an unknown name get the same answer, after the same work (a
  hash is checked for an unknown name too).
* A seat taken while logged in is taken under the account's name and belongs to the account: the
  account asks for it again (``POST /api/tables/{id}/seats/{seat}``, logged in, on any device) and gets
  a fresh token for it; the device that held it before becomes a spectator (as when a seat moves by a
  link). ``GET /api/tables/{id}/my-seat`` says which seat of a table is the account's.
* Deleting an account removes its password hash, its sessions and the link to its seats; its games are
  kept, its name in them replaced by "deleted player" and four random hex digits.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from muggins.bots.names import BOT_NICKNAMES
from muggins.server import seating
from muggins.server.guard import BadRequest, ClientLimits, settle
from muggins.server.store import ENDED, Store, StoreUnavailable, accounts_t, seat_owners_t, sessions_t, tables_t
from muggins.server.tables import _BOT_NAME, BOT_LEVELS, GameTable, TableError, TableManager, hash_token

log = logging.getLogger("muggins.server")
COOKIE = "muggins_session"
SESSION_SECONDS = 30 * 24 * 3600.0
MIN_PASSWORD, MAX_PASSWORD = 8, 1024
USERNAME = re.compile(r"[A-Za-z0-9_-]{3,20}", re.ASCII)
RESERVED = frozenset({
    "you", "admin", "administrator", "root", "bot", "bots", "guest", "system", "muggins", "deleted", "moderator",
    "mod", "staff", "support", "server", "anonymous", "null", "none", "undefined", "player", "spectator",
    *BOT_LEVELS, *(n.casefold() for n in BOT_NICKNAMES)})
_BOTLIKE = re.compile(r"(?:^|[_-])bots?(?:$|[_\-\d])|bots?\d*$")
WRONG = "wrong username or password"
LOGIN_FAILS_PER_NAME = (2.0, 10.0)     # failed logins a minute, and at once, for one name
LOGIN_FAILS_PER_CLIENT = (10.0, 20.0)  # failed logins a minute, and at once, from one address
SIGNUPS_PER_CLIENT = (5.0, 10.0)       # accounts made a minute, and at once, from one address


@dataclass
class Account:
    id: int
    username: str
    created: float


def username_error(name: Any) -> str | None:
    """Why ``name`` may not be a username (None: it may): 3-20 ASCII letters, digits, ``_`` and ``-``, not
    reserved and not like a bot's name."""
    if not isinstance(name, str) or not USERNAME.fullmatch(name):
        return "a username is 3-20 characters: letters A-Z, digits, _ and - (no spaces or other letters)"
    key = name.casefold()
    spaced = " ".join(re.split(r"[_-]+", key)).strip()
    if key in RESERVED or spaced in RESERVED or key.startswith("deleted"):
        return f"the name {name!r} is reserved; choose another"
    if _BOT_NAME.fullmatch(spaced) or _BOTLIKE.search(key) or any(p in BOT_LEVELS for p in spaced.split()):
        return f"names like {name!r} are kept for the bots; choose another"
    return None


def password_error(password: Any) -> str | None:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        return f"a password is {MIN_PASSWORD}-{MAX_PASSWORD} characters"
    return None


class FailureLimits(ClientLimits):
    """Failed attempts per key: checked before an attempt, counted only when it fails."""

    def check(self, key: str) -> None:
        bucket = self.buckets.get(key)
        if bucket is not None:
            wait = bucket.wait()
            if wait > 0:
                raise BadRequest(f"too many {self.what}; try again in {max(1, round(wait))} s", 429,
                                 max(1, round(wait + 0.5)))

    def fail(self, key: str) -> None:
        self.charge(key)


class Accounts:
    """The accounts of one store, and the rules of logging in."""

    def __init__(self, store: Store, manager: TableManager, hasher: PasswordHasher | None = None) -> None:
        self.store = store
        self.manager = manager
        self.hasher = hasher or PasswordHasher()
        self._dummy: str | None = None
        self.per_name: Any = FailureLimits("failed logins for this name", *LOGIN_FAILS_PER_NAME)
        self.per_client: Any = FailureLimits("failed logins from your address", *LOGIN_FAILS_PER_CLIENT)
        self.signups: Any = ClientLimits("new accounts", *SIGNUPS_PER_CLIENT)

    def share(self, redis: Any) -> None:
        """Count the failed logins and the new accounts in ``redis`` (scale-out mode), so that the limits
        hold across every process using it."""
        from muggins.server.redis_limits import RedisClientLimits, RedisFailureLimits

        self.per_name = RedisFailureLimits(redis, "failed logins for this name", *LOGIN_FAILS_PER_NAME)
        self.per_client = RedisFailureLimits(redis, "failed logins from your address", *LOGIN_FAILS_PER_CLIENT)
        self.signups = RedisClientLimits(redis, "new accounts", *SIGNUPS_PER_CLIENT)

    # --- the database ---------------------------------------------------------------------------------
    def _db(self, work: Callable[[Any], Any]) -> Any:
        try:
            with self.store.engine.begin() as conn:
                return work(conn)
        except IntegrityError:
            raise
        except SQLAlchemyError:
            raise BadRequest("the database does not answer; nothing was changed, try again in a moment",
                             503) from None

    def find(self, username: str) -> tuple[Account, str] | None:
        row = self._db(lambda c: c.execute(select(accounts_t).where(
            accounts_t.c.username_key == username.casefold())).mappings().first())
        return None if row is None else (Account(row["id"], row["username"], row["created"]), row["password_hash"])

    def account_of(self, request: Request) -> Account | None:
        """The logged-in account of the request's session cookie, or None."""
        token = request.cookies.get(COOKIE)
        if not token or len(token) > 100:
            return None
        q = (select(accounts_t.c.id, accounts_t.c.username, accounts_t.c.created)
             .join(sessions_t, sessions_t.c.account_id == accounts_t.c.id)
             .where(sessions_t.c.token_hash == hash_token(token), sessions_t.c.expires > time.time()))
        row = self._db(lambda c: c.execute(q).first())
        return None if row is None else Account(*row)

    def start_session(self, account: Account) -> str:
        token = secrets.token_urlsafe(32)
        now = time.time()

        def work(conn: Any) -> None:
            conn.execute(delete(sessions_t).where(sessions_t.c.expires <= now))
            conn.execute(insert(sessions_t).values(token_hash=hash_token(token), account_id=account.id, created=now,
                                                   expires=now + SESSION_SECONDS))

        self._db(work)
        return token

    # --- passwords --------------------------------------------------------------------------------------
    def _verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored``; with no stored hash, a hash is checked all the same."""
        if stored is None:
            if self._dummy is None:
                self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
            stored = self._dummy
        try:
            self.hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False
        return True

    async def check_password(self, request: Request, username: str, password: str) -> Account:
        """The account when the password is its own; 401 otherwise (the same for an unknown name), 429 past
        the limits of failed attempts."""
        client = request.client.host if request.client is not None else "unknown"
        key = username.casefold()
        await settle(self.per_client.check(client))
        await settle(self.per_name.check(key))
        found = self.find(username) if USERNAME.fullmatch(username) else None
        ok = await asyncio.to_thread(self._verify, found[1] if found else None, password)
        if found is None or not ok:
            await settle(self.per_client.fail(client))
            await settle(self.per_name.fail(key))
            raise BadRequest(WRONG, 401)
        account, stored = found
        if self.hasher.check_needs_rehash(stored):
            new = await asyncio.to_thread(self.hasher.hash, password)
            self._db(lambda c: c.execute(update(accounts_t).where(accounts_t.c.id == account.id)
                                         .values(password_hash=new)))
        return account

    # --- seats ------------------------------------------------------------------------------------------
    def seat_of(self, account: Account, table_id: str) -> int | None:
        seat = self._db(lambda c: c.execute(select(seat_owners_t.c.seat).where(
            seat_owners_t.c.table_id == table_id, seat_owners_t.c.account_id == account.id)).scalar())
        return None if seat is None else int(seat)

    def take_seat(self, t: GameTable, seat: int, account: Account) -> str:
        """The seat for the account: its own seat again under a fresh token, or a free seat taken under
        its name and linked to it."""
        owner = self._db(lambda c: c.execute(select(seat_owners_t.c.account_id).where(
            seat_owners_t.c.table_id == t.id, seat_owners_t.c.seat == seat)).scalar())
        held = 0 <= seat < len(t.seats) and t.seats[seat].token_hash is not None
        if owner == account.id and held:
            return seating.redeem(t, seating.handoff(t, seat))[1]
        token = t.take_seat(seat, account.username)

        def work(conn: Any) -> None:
            conn.execute(delete(seat_owners_t).where(seat_owners_t.c.table_id == t.id, seat_owners_t.c.seat == seat))
            conn.execute(insert(seat_owners_t).values(table_id=t.id, seat=seat, account_id=account.id))

        self._db(work)
        return token

    def release(self, table_id: str, seat: int) -> None:
        """The seat was taken by a guest: whoever held it before (and left it) has no claim on it."""
        self._db(lambda c: c.execute(delete(seat_owners_t).where(seat_owners_t.c.table_id == table_id,
                                                                  seat_owners_t.c.seat == seat)))

    def forget(self, account: Account) -> tuple[str, int]:
        """Delete the account: its hash, sessions and seat links; its name in its games replaced. Returns
        the name now shown in the games and how many games were renamed."""
        shown = f"deleted player {secrets.token_hex(2)}"
        seats = self._db(lambda c: c.execute(select(seat_owners_t.c.table_id, seat_owners_t.c.seat).where(
            seat_owners_t.c.account_id == account.id)).all())
        renamed = set()
        for table_id, seat in seats:
            try:
                t = self.manager.get(table_id)
            except TableError as e:  # a damaged table, set aside: its link goes, its row is left as it is
                log.error("table %s: the name of a deleted account is left in it: %s", table_id, e)
                continue
            if t.seats[seat].name != account.username:
                continue  # the seat was left since
            t.seats[seat].name = shown
            try:
                self.store.update_seats(t.id, [s.to_store() for s in t.seats], t.status)
            except StoreUnavailable:
                t.seats[seat].name = account.username
                raise BadRequest("the database does not answer; the account is kept, try again in a moment",
                                 503) from None
            t.changed()
            renamed.add(table_id)

        def work(conn: Any) -> None:
            conn.execute(delete(seat_owners_t).where(seat_owners_t.c.account_id == account.id))
            conn.execute(delete(sessions_t).where(sessions_t.c.account_id == account.id))
            conn.execute(delete(accounts_t).where(accounts_t.c.id == account.id))

        self._db(work)
        return shown, len(renamed)

    def active_seats(self, account: Account) -> list[dict[str, Any]]:
        """The account's seats at tables not ended."""
        q = (select(seat_owners_t.c.table_id, seat_owners_t.c.seat)
             .join(tables_t, tables_t.c.id == seat_owners_t.c.table_id)
             .where(and_(seat_owners_t.c.account_id == account.id, tables_t.c.status.not_in(ENDED))))
        return [{"table": tid, "seat": seat} for tid, seat in self._db(lambda c: c.execute(q).all())]


def _fields(data: Any, *names: str) -> list[Any]:
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object", 422)
    return [data.get(n) for n in names]


def add_account_routes(app: FastAPI, accounts: Accounts, body: Callable[..., Awaitable[Any]],
                       same_site: Callable[[Request], None]) -> None:
    """The endpoints of accounts and sessions."""

    def logged_in(request: Request) -> Account:
        account = accounts.account_of(request)
        if account is None:
            raise BadRequest("you are not logged in", 401)
        return account

    def with_session(request: Request, account: Account, status: int = 200) -> JSONResponse:
        token = accounts.start_session(account)
        r = JSONResponse(public(account), status_code=status)
        r.set_cookie(COOKIE, token, max_age=int(SESSION_SECONDS), path="/", httponly=True, samesite="lax",
                     secure=request.url.scheme == "https")
        return r

    def ended_session(request: Request, content: dict[str, Any]) -> JSONResponse:
        token = request.cookies.get(COOKIE)
        if token:
            accounts._db(lambda c: c.execute(delete(sessions_t).where(sessions_t.c.token_hash == hash_token(token))))
        r = JSONResponse(content)
        r.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https")
        return r

    def public(account: Account) -> dict[str, Any]:
        return {"username": account.username, "created": account.created}

    def credentials(data: Any) -> tuple[str, str]:
        username, password = _fields(data, "username", "password")
        if not isinstance(username, str) or not isinstance(password, str):
            raise BadRequest("give a 'username' and a 'password'", 422)
        return username, password

    @app.post("/api/account", status_code=201)
    async def sign_up(request: Request) -> JSONResponse:
        username, password = credentials(await body(request, accounts.signups))
        why = username_error(username) or password_error(password)
        if why:
            raise BadRequest(why, 422)
        stored = await asyncio.to_thread(accounts.hasher.hash, password)
        now = time.time()
        try:
            new_id = accounts._db(lambda c: c.execute(insert(accounts_t).values(
                username=username, username_key=username.casefold(), password_hash=stored,
                created=now)).inserted_primary_key[0])
        except IntegrityError:
            raise BadRequest("that username is taken; choose another", 409) from None
        return with_session(request, Account(new_id, username, now), 201)

    @app.post("/api/session")
    async def log_in(request: Request) -> JSONResponse:
        username, password = credentials(await body(request))
        if len(username) > 100 or len(password) > MAX_PASSWORD:
            raise BadRequest(WRONG, 401)  # not a name or a password there could be: no hash is worked out
        return with_session(request, await accounts.check_password(request, username, password))

    @app.delete("/api/session")
    async def log_out(request: Request) -> JSONResponse:
        same_site(request)
        return ended_session(request, {"logged_out": True})

    @app.get("/api/session")
    async def session(request: Request) -> dict[str, Any]:
        """Who this browser is logged in as: ``{"account": ...}``, null for a guest (200 either way, so a
        guest's page asks without an error)."""
        account = accounts.account_of(request)
        return {"account": None if account is None else {**public(account), "seats": accounts.active_seats(account)}}

    @app.get("/api/account")
    async def me(request: Request) -> dict[str, Any]:
        account = logged_in(request)
        return {**public(account), "seats": accounts.active_seats(account)}

    @app.post("/api/account/password")
    async def change_password(request: Request) -> JSONResponse:
        data = await body(request)
        account = logged_in(request)
        old, new = _fields(data, "password", "new_password")
        if not isinstance(old, str) or len(old) > MAX_PASSWORD:
            raise BadRequest(WRONG, 401)
        why = password_error(new)
        if why:
            raise BadRequest(f"the new password: {why}", 422)
        await accounts.check_password(request, account.username, old)
        stored = await asyncio.to_thread(accounts.hasher.hash, new)

        def work(conn: Any) -> None:  # every other session ends; this one goes on under a new token
            conn.execute(update(accounts_t).where(accounts_t.c.id == account.id).values(password_hash=stored))
            conn.execute(delete(sessions_t).where(sessions_t.c.account_id == account.id))

        accounts._db(work)
        return with_session(request, account)

    @app.delete("/api/account")
    async def delete_account(request: Request) -> JSONResponse:
        data = await body(request)
        account = logged_in(request)
        (password,) = _fields(data, "password")
        if not isinstance(password, str) or len(password) > MAX_PASSWORD:
            raise BadRequest(WRONG, 401)
        await accounts.check_password(request, account.username, password)
        shown, games = accounts.forget(account)
        return ended_session(request, {"deleted": account.username, "shown_as": shown, "games": games})

    @app.get("/api/tables/{table_id}/my-seat")
    async def my_seat(table_id: str, request: Request) -> dict[str, Any]:
        account = logged_in(request)
        seat = accounts.seat_of(account, table_id)
        if seat is None:
            raise BadRequest("you hold no seat at this table", 404)
        return {"table": table_id, "seat": seat}

