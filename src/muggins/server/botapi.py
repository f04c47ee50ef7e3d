"""The bot API, in the shape of lichess's: outside programs play at the tables through bot accounts.

* A logged-in person makes a bot account (``POST /api/bot/accounts``); the account belongs to him
  (``owner_id``) and never logs in with a password. He makes tokens for it: random, shown once, stored as
  their SHA-256, scoped (``bot:play``), listed without the secret, revoked by ``DELETE``. A bot
  authenticates with ``Authorization: Bearer TOKEN``; failed tokens are limited per client address.
* A bot's name follows the rules of a person's (3-20 letters A-Z, digits, ``_`` and ``-``, no reserved name,
  no name of a built-in bot or level) except that it may look like a bot's: ``heron-bot`` is a fine bot.
* ``GET /api/bot/stream/event`` streams the bot's events as NDJSON (a challenge, its decline or cancel, a
  game started, a game finished), with an empty line every few seconds to keep the connection open.
* ``POST /api/challenge/{name}`` (by a person's session or a bot's token) challenges a bot account, which
  accepts or declines; a built-in level's name (``expert``) is a challenge the house accepts at once, that
  level playing its seat. Accepting makes the table (or, for an invitation to an open table, seats the bot
  there) and links every account's seat to it.
* ``GET /api/bot/game/stream/{id}`` is the game from the bot's seat: the very messages the table's socket
  sends that seat (so exactly its secrecy), each with the seat's legal moves as notation and integer ids.
  ``POST /api/bot/game/{id}/move/{move}`` plays one (notation or id, ``?claim=N``, ``?at=N``); resign,
  next hand likewise. ``GET /api/bot/game/{id}/world`` gives a game the seat cannot tell from the real one
  (the game's own sampling of what the seat has not seen, drawn from a generator seeded only by what the
  request gives), so that a program built on this package's bots can think from a whole state.

Challenges are kept in the store (any process of a site answers for them, a restart keeps them); a
challenge not answered within :data:`CHALLENGE_SECONDS` is forgotten. The bots' events reach the event
streams of the process where they happen; in scale-out mode they go over Redis to every process
(server/cluster.py), and a game stream opened on a process that does not play the table is relayed from
the one that does, over the table's own channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import StreamingResponse
from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from muggins.core.errors import MugginsError
from muggins.core.protocol import GameState
from muggins.core.records import to_record
from muggins.core.rules import default_game, get_game
from muggins.server import seating
from muggins.server.accounts import RESERVED, USERNAME, Account, Accounts, FailureLimits, username_error
from muggins.server.guard import BadRequest, ClientLimits
from muggins.server.store import ENDED, _json, accounts_t, bot_tokens_t, challenges_t, seat_owners_t
from muggins.server.tables import (
    _BOT_NAME,
    BOT_LEVELS,
    Connection,
    GameTable,
    TableError,
    TableManager,
    hash_token,
    quoted,
)

SCOPES = ("bot:play",)
TOKEN_PREFIX = "mgb_"
KEEPALIVE = 5.0                  # seconds between the keep-alive newlines of a quiet stream
MAX_TOKENS = 10                  # tokens one bot account holds at once
MAX_BOTS = 5                     # bot accounts one person owns
MAX_PENDING = 20                 # challenges one challenger has waiting at once
CHALLENGE_SECONDS = 600.0        # a challenge not answered in this time is forgotten
MAX_EVENT_STREAMS = 4            # event streams open at once for one bot
MAX_LABEL = 40
TOKENS_PER_CLIENT = (10.0, 10.0)       # tokens and bot accounts made a minute, and at once, from one address
BAD_TOKENS_PER_CLIENT = (20.0, 30.0)   # requests with a wrong token a minute, and at once, from one address
CHALLENGES_PER_CLIENT = (30.0, 30.0)   # challenges a minute, and at once, from one address
WORLDS_PER_BOT = (240.0, 60.0)         # worlds drawn a minute, and at once, for one bot
MOVES_PER_BOT = (600.0, 120.0)         # moves a minute, and at once, for one bot
UNUSABLE_HASH = "!"              # a bot account's password hash: no password matches it


@dataclass
class Bot:
    """A bot account, as its token shows it."""

    id: int
    username: str
    owner_id: int | None
    scopes: tuple[str, ...]
    created: float

    def account(self) -> Account:
        return Account(self.id, self.username, self.created)


@dataclass
class Challenge:
    id: str
    challenger: Account
    challenger_kind: str     # "person" or "bot"
    dest: str                # the bot account's name, or a built-in level
    dest_id: int | None      # the bot account (None: a built-in level, accepted at once)
    game: str
    preset: str | None
    options: dict[str, Any]
    players: int
    rated: bool
    seat: int                # the challenger's seat (a new table)
    bots: list[str]          # built-in levels for the other seats
    table: str | None = None  # an invitation to this open table's seat ``seat``; else the table made
    status: str = "created"  # created, accepting (a moment), accepted, declined, canceled
    created: float = field(default_factory=time.time)

    def row(self) -> dict[str, Any]:
        """The challenge as a row of the store."""
        return {"id": self.id, "challenger_id": self.challenger.id, "challenger_name": self.challenger.username,
                "challenger_kind": self.challenger_kind, "dest": self.dest, "dest_id": self.dest_id,
                "game": self.game, "preset": self.preset, "options": self.options, "players": self.players,
                "rated": self.rated, "seat": self.seat, "bots": self.bots, "table_id": self.table,
                "status": self.status, "created": self.created}

    @classmethod
    def of_row(cls, r: Any) -> Challenge:
        return cls(r["id"], Account(r["challenger_id"], r["challenger_name"], 0.0), r["challenger_kind"], r["dest"],
                   r["dest_id"], r["game"], r["preset"], dict(_json(r["options"]) or {}), r["players"],
                   bool(r["rated"]), r["seat"], list(_json(r["bots"]) or []), r["table_id"], r["status"],
                   r["created"])

    def public(self) -> dict[str, Any]:
        return {"id": self.id, "challenger": {"name": self.challenger.username, "kind": self.challenger_kind},
                "dest": self.dest, "game": self.game, "preset": self.preset, "options": self.options,
                "players": self.players, "rated": self.rated, "seat": self.seat, "bots": self.bots,
                "table": self.table, "status": self.status, "created": self.created}


def bot_name_error(name: Any) -> str | None:
    """Why ``name`` may not be a bot account's name (None: it may): a person's rules, except that it may
    look like a bot's; the built-in bots' names and levels stay refused."""
    if not isinstance(name, str) or not USERNAME.fullmatch(name):
        return username_error(name)
    key = name.casefold()
    spaced = " ".join(key.replace("_", "-").split("-")).strip()
    if key in RESERVED or spaced in RESERVED or key.startswith("deleted"):
        return f"the name {name!r} is reserved; choose another"
    if _BOT_NAME.fullmatch(spaced) or any(p in BOT_LEVELS for p in spaced.split()):
        return f"names like {name!r} are the built-in bots'; choose another"
    return None


def legal_moves(st: GameState, seat: int) -> list[dict[str, Any]]:
    """The seat's legal moves now: each in the game's notation (with its claim, if it carries one) and its
    integer id (docs/actions.md)."""
    out = []
    for a in st.legal_actions(seat):
        j = st.action_to_json(seat, a)
        try:
            ident: int | None = st.action_id(a)
        except MugginsError:
            ident = None
        out.append({"move": j["move"], "claim": j.get("claim"), "id": ident})
    return out


class BotConnection(Connection):
    """The bot's seat at a table, as a socket of that seat: each state message gains the seat's legal
    moves, computed when the message is made (the position it shows)."""

    def __init__(self, table: GameTable, seat: int) -> None:
        super().__init__(seat)
        self.table = table

    def push(self, msg: dict[str, Any]) -> None:
        if msg.get("type") == "state" and self.seat is not None:
            msg = {**msg, "legal_moves": legal_moves(self.table.state, self.seat)}
        super().push(msg)


def ndjson(msg: dict[str, Any]) -> bytes:
    return (json.dumps(msg, separators=(",", ":")) + "\n").encode("utf-8")


class BotApi:
    """Bot accounts, their tokens, challenges and the bots' event streams."""

    def __init__(self, accounts: Accounts, manager: TableManager, keepalive: float = KEEPALIVE) -> None:
        self.accounts = accounts
        self.manager = manager
        self.keepalive = keepalive
        self.subscribers: dict[int, set[asyncio.Queue[dict[str, Any] | None]]] = {}
        # scale-out mode: an event is published to every process (server/cluster.py), each giving it to its
        # own streams of that bot (deliver); else it is delivered here
        self.publish: Callable[[int, dict[str, Any]], None] | None = None
        self.made = ClientLimits("bot tokens and accounts made", *TOKENS_PER_CLIENT)
        self.bad_tokens = FailureLimits("requests with a wrong bot token", *BAD_TOKENS_PER_CLIENT)
        self.challenging = ClientLimits("challenges", *CHALLENGES_PER_CLIENT)
        self.worlds = ClientLimits("worlds drawn", *WORLDS_PER_BOT)
        self.moves = ClientLimits("moves", *MOVES_PER_BOT)
        manager.end_listeners.append(self.game_ended)

    _db = property(lambda self: self.accounts._db)

    # --- accounts and tokens ----------------------------------------------------------------------------
    def make_bot(self, owner: Account, name: Any) -> dict[str, Any]:
        why = bot_name_error(name)
        if why is not None:
            raise BadRequest(why, 422)
        owned = self._db(lambda c: c.execute(select(accounts_t.c.id).where(
            accounts_t.c.owner_id == owner.id, accounts_t.c.kind == "bot")).all())
        if len(owned) >= MAX_BOTS:
            raise BadRequest(f"an account owns at most {MAX_BOTS} bots", 409)
        now = time.time()
        try:
            self._db(lambda c: c.execute(insert(accounts_t).values(
                username=name, username_key=name.casefold(), password_hash=UNUSABLE_HASH, created=now,
                kind="bot", owner_id=owner.id)))
        except IntegrityError:
            raise BadRequest("that name is taken; choose another", 409) from None
        return {"username": name, "kind": "bot", "owner": owner.username, "created": now}

    def owned_bot(self, owner: Account, name: str) -> Bot:
        row = self._db(lambda c: c.execute(select(accounts_t).where(
            accounts_t.c.username_key == name.casefold()[:40], accounts_t.c.kind == "bot")).mappings().first())
        if row is None or row["owner_id"] != owner.id:
            raise BadRequest(f"you own no bot named {quoted(name)}", 404)
        return Bot(row["id"], row["username"], row["owner_id"], SCOPES, row["created"])

    def bots_of(self, owner: Account) -> list[dict[str, Any]]:
        rows = self._db(lambda c: c.execute(select(accounts_t.c.username, accounts_t.c.created).where(
            accounts_t.c.owner_id == owner.id, accounts_t.c.kind == "bot").order_by(accounts_t.c.id)).all())
        return [{"username": u, "kind": "bot", "owner": owner.username, "created": c} for u, c in rows]

    def make_token(self, bot: Bot, data: Any) -> dict[str, Any]:
        scopes = data.get("scopes", list(SCOPES))
        label = data.get("label", "")
        if not isinstance(scopes, list) or not scopes or any(s not in SCOPES for s in scopes):
            raise BadRequest(f"'scopes' lists scopes among: {', '.join(SCOPES)}", 422)
        if not isinstance(label, str) or len(label) > MAX_LABEL or not label.isprintable():
            raise BadRequest(f"'label' is printable text of at most {MAX_LABEL} characters", 422)
        held = self._db(lambda c: c.execute(select(bot_tokens_t.c.id).where(
            bot_tokens_t.c.account_id == bot.id)).all())
        if len(held) >= MAX_TOKENS:
            raise BadRequest(f"a bot holds at most {MAX_TOKENS} tokens; revoke one first", 409)
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        now = time.time()
        scope_text = " ".join(sorted(set(scopes)))
        ident = self._db(lambda c: c.execute(insert(bot_tokens_t).values(
            account_id=bot.id, token_hash=hash_token(token), scopes=scope_text, label=label, created=now)
        ).inserted_primary_key[0])
        return {"id": ident, "token": token, "bot": bot.username, "scopes": scope_text.split(), "label": label,
                "created": now, "last_used": None}

    def tokens_of(self, bot: Bot) -> list[dict[str, Any]]:
        rows = self._db(lambda c: c.execute(select(bot_tokens_t).where(
            bot_tokens_t.c.account_id == bot.id).order_by(bot_tokens_t.c.id)).mappings().all())
        return [{"id": r["id"], "bot": bot.username, "scopes": r["scopes"].split(), "label": r["label"],
                 "created": r["created"], "last_used": r["last_used"]} for r in rows]

    def revoke(self, owner: Account, token_id: int) -> None:
        row = self._db(lambda c: c.execute(
            select(bot_tokens_t.c.id).join(accounts_t, accounts_t.c.id == bot_tokens_t.c.account_id)
            .where(bot_tokens_t.c.id == token_id, accounts_t.c.owner_id == owner.id)).first())
        if row is None:
            raise BadRequest(f"you hold no bot token {token_id}", 404)
        self._db(lambda c: c.execute(delete(bot_tokens_t).where(bot_tokens_t.c.id == token_id)))

    def bot_of(self, request: Request, scope: str = "bot:play") -> Bot:
        """The bot whose token the request carries (``Authorization: Bearer``); 401 without a valid one,
        403 when the token lacks ``scope``, 429 past the limit of wrong tokens from one address."""
        client = request.client.host if request.client is not None else "unknown"
        auth = request.headers.get("authorization", "")
        token = auth[7:].strip() if auth[:7].lower() == "bearer " else ""
        if not token:
            raise BadRequest("give the bot's token as Authorization: Bearer TOKEN", 401)
        self.bad_tokens.check(client)
        row = None
        if token.startswith(TOKEN_PREFIX) and len(token) <= 100:
            q = (select(accounts_t.c.id, accounts_t.c.username, accounts_t.c.owner_id, accounts_t.c.created,
                        bot_tokens_t.c.scopes, bot_tokens_t.c.id.label("token_id"))
                 .join(accounts_t, accounts_t.c.id == bot_tokens_t.c.account_id)
                 .where(bot_tokens_t.c.token_hash == hash_token(token), accounts_t.c.kind == "bot"))
            row = self._db(lambda c: c.execute(q).mappings().first())
        if row is None:
            self.bad_tokens.fail(client)
            raise BadRequest("this bot token is not valid (revoked, or never made)", 401)
        bot = Bot(row["id"], row["username"], row["owner_id"], tuple(row["scopes"].split()), row["created"])
        if scope not in bot.scopes:
            raise BadRequest(f"this token lacks the scope {scope!r}", 403)
        now = time.time()
        self._db(lambda c: c.execute(update(bot_tokens_t).where(bot_tokens_t.c.id == row["token_id"])
                                     .values(last_used=now)))
        return bot

    # --- events -----------------------------------------------------------------------------------------
    def emit(self, account_id: int, event: dict[str, Any]) -> None:
        if self.publish is not None:
            self.publish(account_id, event)
        else:
            self.deliver(account_id, event)

    def deliver(self, account_id: int, event: dict[str, Any]) -> None:
        """Give an event to the bot's event streams open on this process."""
        for q in list(self.subscribers.get(account_id, ())):
            with contextlib.suppress(asyncio.QueueFull):
                q.put_nowait(event)

    def bots_at(self, table_id: str) -> list[tuple[int, int]]:
        """(seat, bot account id) of every bot account seated at the table."""
        q = (select(seat_owners_t.c.seat, seat_owners_t.c.account_id)
             .join(accounts_t, accounts_t.c.id == seat_owners_t.c.account_id)
             .where(seat_owners_t.c.table_id == table_id, accounts_t.c.kind == "bot"))
        return [(int(s), int(a)) for s, a in self._db(lambda c: c.execute(q).all())]

    @staticmethod
    def game_info(t: GameTable, seat: int) -> dict[str, Any]:
        return {"id": t.id, "seat": seat, "game": t.game, "preset": t.preset, "players": len(t.seats),
                "rated": bool(t.meta.get("rated")), "challenge": t.meta.get("challenge"), "status": t.status,
                "stream": f"/api/bot/game/stream/{t.id}"}

    def game_started(self, t: GameTable) -> None:
        for seat, account_id in self.bots_at(t.id):
            self.emit(account_id, {"type": "gameStart", "game": self.game_info(t, seat)})

    def game_ended(self, t: GameTable) -> None:
        for seat, account_id in self.bots_at(t.id):
            self.emit(account_id, {"type": "gameFinish", "game": {
                **self.game_info(t, seat), "scores": t.state.scores(), "winners": t.result()["winners"]}})

    async def events(self, bot: Bot) -> AsyncIterator[bytes]:
        """The bot's event stream: its pending challenges and games in play first, then what happens."""
        subs = self.subscribers.setdefault(bot.id, set())
        if len(subs) >= MAX_EVENT_STREAMS:
            raise BadRequest(f"a bot has at most {MAX_EVENT_STREAMS} event streams open at once", 429, 5)
        q: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(maxsize=256)
        subs.add(q)
        first: list[dict[str, Any]] = [{"type": "challenge", "challenge": c.public()}
                                       for c in self.pending(challenges_t.c.dest_id == bot.id)]
        for seat in self.accounts.active_seats(bot.account()):
            with contextlib.suppress(TableError):
                first.append({"type": "gameStart",
                              "game": self.game_info(self.manager.get(seat["table"]), seat["seat"])})

        async def stream() -> AsyncIterator[bytes]:
            try:
                for told in first:
                    yield ndjson(told)
                while True:
                    try:
                        e = await asyncio.wait_for(q.get(), self.keepalive)
                    except TimeoutError:
                        yield b"\n"
                        continue
                    if e is None:
                        return
                    yield ndjson(e)
            finally:
                subs.discard(q)
        return stream()

    # --- challenges -------------------------------------------------------------------------------------
    def pending(self, *where: Any) -> list[Challenge]:
        """The challenges waiting for an answer (and matching ``where``), oldest first; those older than
        CHALLENGE_SECONDS are forgotten first."""
        since = time.time() - CHALLENGE_SECONDS
        self._db(lambda c: c.execute(delete(challenges_t).where(challenges_t.c.created < since)))
        rows = self._db(lambda c: c.execute(select(challenges_t).where(
            challenges_t.c.status == "created", challenges_t.c.created >= since, *where)
            .order_by(challenges_t.c.created)).mappings().all())
        return [Challenge.of_row(r) for r in rows]

    def _keep(self, c: Challenge) -> None:
        self._db(lambda conn: conn.execute(insert(challenges_t).values(**c.row())))

    def _answer(self, c: Challenge, status: str, table: str | None = None, was: str = "created") -> None:
        """Move ``c`` from ``was`` to ``status`` in the store (and here); 409 when another request (on any
        process) answered it first."""
        values: dict[str, Any] = {"status": status} if table is None else {"status": status, "table_id": table}
        done = self._db(lambda conn: conn.execute(update(challenges_t).where(
            challenges_t.c.id == c.id, challenges_t.c.status == was).values(**values)).rowcount)
        if not done:
            raise BadRequest("this challenge was answered meanwhile", 409)
        c.status = status
        if table is not None:
            c.table = table

    def challenge(self, challenger: Account, kind: str, dest: str, data: Any) -> Challenge:
        if not isinstance(data, dict):
            raise BadRequest("the request body must be a JSON object", 422)
        if len(self.pending(challenges_t.c.challenger_id == challenger.id)) >= MAX_PENDING:
            raise BadRequest(f"at most {MAX_PENDING} challenges wait at once; cancel one", 429, 10)
        level = dest.casefold() if dest.casefold() in BOT_LEVELS else None
        dest_id = None
        if level is None:
            row = self._db(lambda c: c.execute(select(accounts_t.c.id, accounts_t.c.username).where(
                accounts_t.c.username_key == dest.casefold()[:40], accounts_t.c.kind == "bot")).first())
            if row is None:
                raise BadRequest(f"no bot named {quoted(dest)}: challenge a bot account or a built-in level "
                                 f"({', '.join(BOT_LEVELS)})", 404)
            dest_id, dest = int(row[0]), str(row[1])
            if dest_id == challenger.id:
                raise BadRequest("a bot cannot challenge itself", 422)
        rated = data.get("rated", False)
        if not isinstance(rated, bool):
            raise BadRequest(f"'rated' is true or false; got {quoted(rated)}", 422)
        table_id = data.get("table")
        if table_id is not None:  # an invitation to a seat of an open table the challenger sits at
            return self._invitation(challenger, kind, dest, dest_id, level, table_id, data.get("seat"), rated)
        game = data.get("game", default_game().name)
        players = data.get("players", 2)
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
            raise BadRequest(f"'players' is 2, 3 or 4; got {quoted(players)}", 422)
        seat = data.get("seat", 0)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise BadRequest(f"'seat' (the challenger's) is 0-{players - 1}; got {quoted(seat)}", 422)
        bots = data.get("bots", ["casual"] * (players - 2))
        if not isinstance(bots, list) or len(bots) != players - 2 or any(b not in BOT_LEVELS for b in bots):
            raise BadRequest(f"'bots' lists a built-in level ({', '.join(BOT_LEVELS)}) for each of the "
                             f"{players - 2} other seats", 422)
        options = data.get("options") or {}
        preset = data.get("preset")
        # the rules are checked now, so that a challenge accepted later cannot fail on them
        try:
            spec = get_game(game) if isinstance(game, str) else None
            if spec is None:
                raise BadRequest("'game' must be a game name", 422)
            if not isinstance(options, dict) or not (preset is None or isinstance(preset, str)):
                raise BadRequest("'preset' is a preset name and 'options' an object of rule options", 422)
            spec.rules(preset, options)
            if rated and (why := spec.ranked_error(preset)):
                raise BadRequest(why, 422)
            if not spec.min_players <= players <= spec.max_players:
                raise BadRequest(f"{game} is for {spec.min_players}-{spec.max_players} players", 422)
        except MugginsError as e:
            raise BadRequest(str(e), 422) from None
        c = Challenge(secrets.token_urlsafe(9), challenger, kind, dest, dest_id, game, preset, dict(options),
                      players, rated, seat, list(bots))
        if level is not None:  # the house accepts at once: the level plays the bot's seat
            c.bots.insert(0, level)
            self._keep(c)
            try:
                self.accept(c)
            except Exception:  # no table was made: nothing of it is kept
                self._db(lambda conn: conn.execute(delete(challenges_t).where(challenges_t.c.id == c.id)))
                raise
        else:
            assert dest_id is not None
            self._keep(c)
            self.emit(dest_id, {"type": "challenge", "challenge": c.public()})
        return c

    def _invitation(self, challenger: Account, kind: str, dest: str, dest_id: int | None, level: str | None,
                    table_id: Any, seat: Any, rated: bool) -> Challenge:
        if level is not None or dest_id is None:
            raise BadRequest("a built-in level is seated when the table is made; invite a bot account", 422)
        if rated:
            raise BadRequest("an invitation to an open table keeps the table as it was made: 'rated' is false",
                             422)
        if not isinstance(table_id, str) or len(table_id) > 32:
            raise BadRequest("'table' is a table's id", 422)
        t = self.local(table_id)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(t.seats):
            raise BadRequest(f"'seat' is the open seat the bot is invited to: 0-{len(t.seats) - 1}", 422)
        if self.accounts.seat_of(challenger, t.id) is None:
            raise BadRequest("you invite bots only to a table where you hold a seat", 403)
        self._check_open(t, seat)
        c = Challenge(secrets.token_urlsafe(9), challenger, kind, dest, dest_id, t.game, t.preset, t.options,
                      len(t.seats), False, seat, [], table=t.id)
        self._keep(c)
        self.emit(dest_id, {"type": "challenge", "challenge": c.public()})
        return c

    @staticmethod
    def _check_open(t: GameTable, seat: int) -> None:
        s = t.seats[seat]
        if t.status != "open" or s.bot is not None or s.token_hash is not None or s.heir is not None:
            raise BadRequest(f"seat {seat} of table {t.id} is not open", 409)

    def find(self, cid: str) -> Challenge:
        since = time.time() - CHALLENGE_SECONDS
        row = None if len(cid) > 16 else self._db(lambda conn: conn.execute(select(challenges_t).where(
            challenges_t.c.id == cid, challenges_t.c.created >= since)).mappings().first())
        c = None if row is None else Challenge.of_row(row)
        if c is None:
            raise BadRequest(f"no challenge {quoted(cid)} (answered long ago, or never made)", 404)
        return c

    def seat_account(self, t: GameTable, seat: int, account: Account) -> None:
        """Seat ``account`` at ``t`` under its name, linked to it (the seat token made is not given: a
        person asks for his seat with his session, a bot plays with its own token)."""
        self.accounts.take_seat(t, seat, account)

    def accept(self, c: Challenge) -> GameTable:
        if c.status != "created":
            raise BadRequest(f"this challenge is {c.status}", 409)
        self._answer(c, "accepting")  # one acceptance wins, whichever process it reaches
        try:
            t = self._accepted(c)
        except BaseException:
            self._answer(c, "created", was="accepting")
            raise
        self._answer(c, "accepted", t.id, was="accepting")
        self.game_started(t)
        return t

    def _accepted(self, c: Challenge) -> GameTable:
        """The table of the accepted challenge ``c``, its accounts seated."""
        if c.table is not None:
            t = self.local(c.table)
            self._check_open(t, c.seat)
            assert c.dest_id is not None
            self.seat_account(t, c.seat, Account(c.dest_id, c.dest, 0.0))
        else:
            seats: list[str | None] = [None] * c.players
            others = iter(c.bots)
            bot_seat = (c.seat + 1) % c.players
            house = c.dest_id is None
            for i in range(c.players):
                if i != c.seat and (house or i != bot_seat):
                    seats[i] = next(others)
            meta = {"rated": c.rated, "challenge": c.id}
            t = self.manager.create(c.game, c.preset, c.options, seats, meta=meta)
            try:
                self.seat_account(t, c.seat, c.challenger)
                if c.dest_id is not None:
                    self.seat_account(t, bot_seat, Account(c.dest_id, c.dest, 0.0))
            except Exception:
                t.abandon("a seat of the challenge could not be taken")
                raise
        return t

    def answer(self, bot: Bot, cid: str, accept: bool) -> dict[str, Any]:
        c = self.find(cid)
        if c.dest_id != bot.id:
            raise BadRequest("this challenge is not to this bot", 403)
        if not accept:
            if c.status != "created":
                raise BadRequest(f"this challenge is {c.status}", 409)
            self._answer(c, "declined")
            self.tell_challenger(c, "challengeDeclined")
            return c.public()
        t = self.accept(c)
        return {**c.public(), "game": self.game_info(t, self.accounts.seat_of(bot.account(), t.id) or 0)}

    def cancel(self, who: Account, cid: str) -> dict[str, Any]:
        c = self.find(cid)
        if c.challenger.id != who.id:
            raise BadRequest("only the challenger cancels a challenge", 403)
        if c.status != "created":
            raise BadRequest(f"this challenge is {c.status}", 409)
        self._answer(c, "canceled")
        if c.dest_id is not None:
            self.emit(c.dest_id, {"type": "challengeCanceled", "challenge": c.public()})
        return c.public()

    def tell_challenger(self, c: Challenge, kind: str) -> None:
        if c.challenger_kind == "bot":
            self.emit(c.challenger.id, {"type": kind, "challenge": c.public()})

    def table_of(self, path: str, body: bytes) -> str | None:
        """The open table a request seats a bot at, when it does (scale-out mode runs it at the table's
        owner): a challenge's ``table``, the table of the challenge accepted, the table a bot is seated at."""
        if path.endswith("/accept"):
            with contextlib.suppress(BadRequest):
                c = self.find(path.rsplit("/", 2)[-2])
                return c.table if c.status == "created" else None
            return None
        try:
            data = json.loads(body or b"null")
        except ValueError:
            return None
        table = data.get("table") if isinstance(data, dict) else None
        return table if isinstance(table, str) and 0 < len(table) <= 32 else None

    # --- games ------------------------------------------------------------------------------------------
    def local(self, table_id: str) -> GameTable:
        """The table, played in this process. In scale-out mode a table in play lives in the process that
        holds its lease: a copy read here would neither follow the game nor may it change it (503)."""
        t = self.manager.get(table_id)
        if self.manager.shared and t.id not in self.manager.tables and t.status not in ENDED:
            raise BadRequest("this table is played by another process of this site; the bot API serves a game "
                             "from the process that plays it", 503, 5)
        return t

    def seat_of(self, bot: Bot, table_id: str, anywhere: bool = False) -> tuple[GameTable, int]:
        """The table and the bot's own seat there; 403 when the bot holds no seat at that table. The table
        is the one played here, unless ``anywhere`` (then it may be a copy read from the store)."""
        t = self.manager.get(table_id) if anywhere else self.local(table_id)
        seat = self.accounts.seat_of(bot.account(), t.id)
        if seat is None or not 0 <= seat < len(t.seats) or t.seats[seat].name != bot.username \
                or t.seats[seat].token_hash is None:
            raise BadRequest(f"the bot {bot.username} holds no seat at table {t.id}", 403)
        return t, seat

    async def game_stream(self, t: GameTable, seat: int) -> AsyncIterator[bytes]:
        """The game of a table played here, as the seat's socket gives it (see :meth:`game_lines`)."""
        async def messages() -> AsyncGenerator[dict[str, Any] | None, None]:
            t.make_room_for_seat(seat, 16)
            conn = BotConnection(t, seat)
            t.attach(conn)
            try:
                while not conn.closed:
                    try:
                        msg = await asyncio.wait_for(conn.queue.get(), self.keepalive)
                    except TimeoutError:
                        yield None
                        continue
                    if msg is None:
                        return
                    yield msg
            finally:
                t.detach(conn)
                conn.close()

        async for line in self.game_lines(messages(), seat):
            yield line

    @staticmethod
    async def game_lines(messages: AsyncGenerator[dict[str, Any] | None, None], seat: int) -> AsyncIterator[bytes]:
        """The stream of a game from the messages its seat's socket gets (None: a quiet while, a keep-alive
        newline): a full state first (``gameFull``), then each change (``gameState``); ``gameFinish`` when
        it has ended."""
        first = True
        async with contextlib.aclosing(messages):
            async for msg in messages:
                if msg is None:
                    yield b"\n"
                    continue
                if msg.get("type") != "state":
                    continue
                yield ndjson({**msg, "type": "gameFull" if first else "gameState"})
                first = False
                if msg["table"]["status"] in ENDED:
                    yield ndjson({"type": "gameFinish", "table": msg["table"], "you": seat})
                    return

    async def move(self, bot: Bot, t: GameTable, seat: int, move: str, claim: Any, at: Any) -> dict[str, Any]:
        self.moves.charge(str(bot.id))
        if at is not None:
            stale = t.position_error(at)
            if stale is not None:
                raise BadRequest(stale, 409)
        text = move.strip()
        if text.isascii() and text.isdigit() and len(text) <= 9:  # an integer id: it carries its claim
            if claim is not None:
                raise BadRequest("a move's integer id carries its claim: leave 'claim' out", 422)
            try:
                action = t.state.action_from_id(seat, int(text))
            except MugginsError as e:
                raise BadRequest(f"move id {text}: {e}", 400) from None
            j = t.state.action_to_json(seat, action)
            text, claim = j["move"], j.get("claim")
        try:
            idx = await t.act_async(seat, text, claim, at)
        except MugginsError as e:
            raise BadRequest(str(e) or type(e).__name__, 400) from None
        return {"ok": True, "index": idx, "table": t.id, "seat": seat}

    def world(self, bot: Bot, t: GameTable, seat: int, seed: int) -> dict[str, Any]:
        """A game ``seat`` cannot tell from ``t``'s: what it has not seen drawn by the game's own sampling
        from a generator seeded with ``seed`` alone (so the same for any two games the seat cannot tell
        apart), as a record that replays to it."""
        self.worlds.charge(str(bot.id))
        if t.status in ENDED:
            raise BadRequest("the game has ended: its record is at /api/tables/{id}/record", 409)
        sample = t.state.sample_hidden(seat, random.Random(seed))
        rec = to_record(sample, players=[{"name": s.name or f"Seat {i + 1}"} for i, s in enumerate(t.seats)],
                        meta={"table": t.id, "world_of": seat})
        return {"table": t.id, "seat": seat, "actions": len(t.state.history), "seed": seed, "record": rec}


def _int_param(request: Request, name: str) -> int | None:
    value = request.query_params.get(name)
    if value is None:
        return None
    text = value[1:] if value.startswith("-") else value
    if not (text.isascii() and text.isdigit() and len(text) <= 9):
        raise BadRequest(f"'{name}' must be a whole number of at most 9 digits; got {quoted(value)}", 422)
    return int(value)


def add_bot_routes(app: FastAPI, bots: BotApi, body: Callable[..., Awaitable[Any]],
                   same_site: Callable[[Request], None]) -> None:
    """The endpoints of the bot API (docs/bot-api.md)."""
    accounts = bots.accounts

    def person(request: Request) -> Account:
        account = accounts.account_of(request)
        if account is None:
            raise BadRequest("log in to manage your bots", 401)
        return account

    def challenger(request: Request) -> tuple[Account, str]:
        if request.headers.get("authorization"):
            return bots.bot_of(request).account(), "bot"
        account = accounts.account_of(request)
        if account is None:
            raise BadRequest("log in, or give a bot's token as Authorization: Bearer TOKEN", 401)
        return account, "person"

    def nd(stream: AsyncIterator[bytes]) -> StreamingResponse:
        return StreamingResponse(stream, media_type="application/x-ndjson",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    @app.post("/api/bot/accounts", status_code=201)
    async def make_bot(request: Request) -> dict[str, Any]:
        data = await body(request, bots.made)
        name = data.get("username") if isinstance(data, dict) else None
        return bots.make_bot(person(request), name)

    @app.get("/api/bot/accounts")
    async def my_bots(request: Request) -> dict[str, Any]:
        return {"bots": bots.bots_of(person(request))}

    @app.post("/api/bot/accounts/{name}/tokens", status_code=201)
    async def make_token(name: str, request: Request) -> dict[str, Any]:
        data = await body(request, bots.made)
        return bots.make_token(bots.owned_bot(person(request), name), data if isinstance(data, dict) else {})

    @app.get("/api/bot/accounts/{name}/tokens")
    async def list_tokens(name: str, request: Request) -> dict[str, Any]:
        return {"tokens": bots.tokens_of(bots.owned_bot(person(request), name))}

    @app.delete("/api/bot/tokens/{token_id}")
    async def revoke_token(token_id: int, request: Request) -> dict[str, Any]:
        same_site(request)
        bots.revoke(person(request), token_id)
        return {"revoked": token_id}

    @app.post("/api/bot/accounts/{name}/seat")
    async def seat_bot(name: str, request: Request) -> dict[str, Any]:
        """The owner seats his bot at an open table."""
        data = await body(request, bots.challenging)
        bot = bots.owned_bot(person(request), name)
        table_id, seat = (data.get("table"), data.get("seat")) if isinstance(data, dict) else (None, None)
        if not isinstance(table_id, str) or isinstance(seat, bool) or not isinstance(seat, int):
            raise BadRequest("give the 'table' id and the open 'seat' number", 422)
        t = bots.local(table_id)
        if not 0 <= seat < len(t.seats):
            raise BadRequest(f"no seat {seat} at this table (seats 0-{len(t.seats) - 1})", 404)
        bots._check_open(t, seat)
        bots.seat_account(t, seat, bot.account())
        bots.game_started(t)
        return bots.game_info(t, seat)

    @app.get("/api/bot/account")
    async def bot_account(request: Request) -> dict[str, Any]:
        bot = bots.bot_of(request)
        owner = accounts._db(lambda c: c.execute(select(accounts_t.c.username).where(
            accounts_t.c.id == bot.owner_id)).scalar())
        return {"id": bot.id, "username": bot.username, "kind": "bot", "owner": owner, "created": bot.created,
                "scopes": list(bot.scopes)}

    @app.get("/api/bot/stream/event")
    async def event_stream(request: Request) -> StreamingResponse:
        return nd(await bots.events(bots.bot_of(request)))

    async def adopted(c: Challenge) -> Challenge:
        """In scale-out mode a table a challenge made is leased to this process, as any table made here."""
        cluster = getattr(app.state, "cluster", None)
        if cluster is not None and c.status == "accepted" and c.table is not None and not cluster.owns(c.table):
            await cluster.adopt(c.table)
        return c

    @app.post("/api/challenge/{username}", status_code=201)
    async def challenge(username: str, request: Request) -> dict[str, Any]:
        data = await body(request, bots.challenging)
        who, kind = challenger(request)
        return (await adopted(bots.challenge(who, kind, username, data))).public()

    @app.get("/api/challenge/{cid}")
    async def challenge_status(cid: str, request: Request) -> dict[str, Any]:
        who, _ = challenger(request)
        c = bots.find(cid)
        if who.id not in (c.challenger.id, c.dest_id):
            raise BadRequest("this challenge is another's", 403)
        return c.public()

    @app.post("/api/challenge/{cid}/cancel")
    async def cancel(cid: str, request: Request) -> dict[str, Any]:
        await body(request)
        who, _ = challenger(request)
        return bots.cancel(who, cid)

    @app.post("/api/bot/challenge/{cid}/accept")
    async def accept(cid: str, request: Request) -> dict[str, Any]:
        await body(request)
        answer = bots.answer(bots.bot_of(request), cid, True)
        await adopted(bots.find(cid))
        return answer

    @app.post("/api/bot/challenge/{cid}/decline")
    async def decline(cid: str, request: Request) -> dict[str, Any]:
        await body(request)
        return bots.answer(bots.bot_of(request), cid, False)

    @app.get("/api/bot/game/stream/{table_id}")
    async def game_stream(table_id: str, request: Request) -> StreamingResponse:
        bot = bots.bot_of(request)
        cluster = getattr(app.state, "cluster", None)
        if cluster is not None and not cluster.owns(table_id):
            # played by another process: its owner sends the seat's messages over the table's channel
            t, seat = bots.seat_of(bot, table_id, anywhere=True)
            if t.status not in ENDED:
                relayed = await cluster.follow(table_id, seat, bot.username, bots.keepalive)
                if isinstance(relayed, dict):
                    refused = int(relayed.get("code", 4403)) == 4403
                    raise BadRequest(str(relayed.get("message", "")), 403 if refused else 503,
                                     None if refused else 2)
                if relayed is not None:
                    return nd(bots.game_lines(relayed, seat))
        t, seat = bots.seat_of(bot, table_id)  # played here (or ended)
        return nd(bots.game_stream(t, seat))

    @app.post("/api/bot/game/{table_id}/move/{move:path}")
    async def move(table_id: str, move: str, request: Request) -> dict[str, Any]:
        await body(request)
        bot = bots.bot_of(request)
        t, seat = bots.seat_of(bot, table_id)
        return await bots.move(bot, t, seat, move, _int_param(request, "claim"), _int_param(request, "at"))

    @app.post("/api/bot/game/{table_id}/resign")
    async def resign(table_id: str, request: Request) -> dict[str, Any]:
        await body(request)
        t, seat = bots.seat_of(bots.bot_of(request), table_id)
        await t.writes_settled()
        seating.resign(t, seat)
        return {"ok": True, "table": t.summary(), "seat": seat}

    @app.post("/api/bot/game/{table_id}/next")
    async def next_hand(table_id: str, request: Request) -> dict[str, Any]:
        """The bot is ready for the next hand (the end of each hand waits for every seated player)."""
        await body(request)
        t, seat = bots.seat_of(bots.bot_of(request), table_id)
        t.press_next(seat)
        return {"ok": True, "seat": seat}

    @app.get("/api/bot/game/{table_id}/world")
    async def world(table_id: str, request: Request) -> dict[str, Any]:
        bot = bots.bot_of(request)
        t, seat = bots.seat_of(bot, table_id)
        return bots.world(bot, t, seat, _int_param(request, "seed") or 0)
