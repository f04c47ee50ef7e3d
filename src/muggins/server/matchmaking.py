"""Quick play and ranked play: people who want the same game are seated together.

* ``POST /api/play`` ``{"game", "preset"?, "players": 2-4, "ranked": bool, "name"?}`` puts the caller in
  the queue of that game, preset and player count and answers 201 with a ``ticket`` (a secret: whoever
  holds it gets the seat). Quick play is open to guests (``name`` is the name shown at the table; a guest
  without one is "Guest" and four digits); ranked play needs an account (401).
* ``GET /api/play/{ticket}`` says how it stands: ``waiting`` (with the seconds waited and those until a
  bot joins), or ``matched`` with the ``table``, the ``seat`` and its ``token``. A logged-in player's seat
  is linked to the account (as taking a seat while logged in does). A waiting ticket that is not asked
  about for :data:`TICKET_TTL` seconds leaves the queue; a matched one is answered for
  :data:`MATCHED_TTL` seconds.
* ``DELETE /api/play/{ticket}`` leaves the queue.

Pairing: the oldest waiting ticket is seated with others waiting for the same thing; in ranked play only
with players close in rating (the displayed rating of the game's family, 1500 for a player without one):
each ticket accepts ratings within :data:`RATING_WINDOW` of its own, widening by :data:`WIDEN_PER_SECOND`
while it waits, and two players are paired when each accepts the other; the closest ratings go first.
When a ticket has waited :data:`WAIT_FOR_BOT` seconds, the seats nobody fills are given to the house
bot whose rating is nearest the players' (a ranked game against it is rated too).

A ranked table's ``meta`` is ``{"rated": true, "ranked": true, "clock": {...}}`` (its clock:
server/clock.py); a quick one's ``{"quick": true}``.

The queue is kept in this process's memory. A server run as several processes (``--redis``) keeps one queue:
the process holding its lease serves every request of ``/api/play``, relayed there by the others
(server/cluster.py), and writes each ticket it changes to Redis (the hash :data:`TICKETS_KEY`) before it
answers; when that process stops or dies, the next holder takes the tickets over from there, so that a
player waiting keeps his ticket and his place.
"""

from __future__ import annotations

import bisect
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from muggins.bots.registry import LEVELS
from muggins.core.chance import Chance
from muggins.core.errors import MugginsError
from muggins.core.rules import all_games, get_game
from muggins.server import ratings
from muggins.server.accounts import Account, Accounts
from muggins.server.clock import ClockKeeper, clock_for
from muggins.server.guard import BadRequest
from muggins.server.store import accounts_t, ratings_t
from muggins.server.tables import (
    _BOT_NAME,
    DEFAULT_BOT_DELAY,
    DEFAULT_GRACE,
    MAX_NAME_CHARS,
    RESERVED_NAME,
    GameTable,
    TableError,
    TableManager,
    hash_token,
    name_key,
    quoted,
)

log = logging.getLogger("muggins.server")
WAIT_FOR_BOT = 15.0        # seconds a ticket waits for people before bots fill the seats left
TICKET_TTL = 10.0          # a waiting ticket nobody asks about for this long leaves the queue
MATCHED_TTL = 120.0        # a matched ticket tells its seat for this long
RATING_WINDOW = 100.0      # ranked: the ratings a new ticket accepts, either side of its own
WIDEN_PER_SECOND = 20.0    # ... widening by this much each second it waits
MAX_PLAYERS = 4
PAIRING_EVERY = 0.5        # seconds between two pairings when no ticket came or went (polls cost little)
TICKETS_PER_CLIENT = 4     # tickets waiting at once from one address
MAX_TICKETS = 5000         # tickets waiting at once on the server
DEFAULT_RATING = 1500.0
FIELDS = frozenset({"game", "preset", "players", "ranked", "name"})
TICKETS_KEY = "muggins:play:tickets"  # scale-out mode: each ticket by its key, as JSON (times as Unix times)


def family_of(game: str) -> str:
    """The rating family of a game (dominoes, card-muggins or cribbage; see :mod:`muggins.server.ratings`)."""
    return ratings.family_of(game) or game


def guest_name_error(name: str) -> str | None:
    """Why a guest may not be called ``name`` at a table (None: he may)."""
    if not name or len(name) > MAX_NAME_CHARS or not name.isprintable():
        return f"'name' must be 1-{MAX_NAME_CHARS} printable characters"
    key = name_key(name)
    if key == RESERVED_NAME:
        return f"{name!r} is how the page shows each player his own seat; choose another name"
    if _BOT_NAME.fullmatch(key):
        return f"names like {name!r} are kept for the bots; choose another name"
    return None


@dataclass
class Ticket:
    """One player waiting (or seated: ``table`` set)."""

    key: str                # the hash of the ticket: the ticket itself is not kept
    game: str
    preset: str
    players: int
    ranked: bool
    name: str
    account: Account | None
    rating: float
    client: str
    created: float
    polled: float
    table: str | None = None
    seat: int | None = None
    token: str | None = None
    matched: float | None = None

    @property
    def queue(self) -> tuple[str, str, int, bool]:
        return self.game, self.preset, self.players, self.ranked


class Matchmaker:
    """The queues of quick and ranked play; the times are read from ``clock`` (the manager's)."""

    def __init__(self, manager: TableManager, accounts: Accounts, clock: Callable[[], float] | None = None) -> None:
        self.manager = manager
        self.accounts = accounts
        self.clock = clock or manager.clock
        self.wait_for_bot = WAIT_FOR_BOT
        self.ticket_ttl = TICKET_TTL
        self.matched_ttl = MATCHED_TTL
        self.window = RATING_WINDOW
        self.per_client = TICKETS_PER_CLIENT
        self.widen = WIDEN_PER_SECOND
        self.clocks: dict[tuple[str, str], dict[str, float]] = {}  # a preset's clock other than clock_for's
        self.tickets: dict[str, Ticket] = {}
        self.dirty = True             # a ticket came or went since the last pairing
        self.paired_at = float("-inf")
        self.redis: Any = None        # scale-out mode: where the tickets are kept (redis.asyncio), else None
        self.changed: set[str] = set()  # the keys of the tickets changed since they were last kept

    # --- the requests --------------------------------------------------------------------------------
    def join(self, data: Any, account: Account | None, client: str) -> tuple[str, Ticket]:
        """A new ticket for the request ``data`` (checked first: a bad one changes nothing)."""
        if not isinstance(data, dict):
            raise BadRequest("the request body must be a JSON object", 422)
        unknown = sorted(str(k) for k in data if k not in FIELDS)
        if unknown:
            raise BadRequest(f"unknown field {quoted(unknown[0])}; give {', '.join(sorted(FIELDS))}", 422)
        game = data.get("game")
        if not isinstance(game, str) or game not in all_games():
            raise BadRequest(f"'game' is one of {', '.join(all_games())}; got {quoted(game)}", 422)
        spec = get_game(game)
        preset = data.get("preset", spec.default_preset)
        if preset is None:
            preset = spec.default_preset
        if not isinstance(preset, str) or preset not in spec.presets:
            raise BadRequest(f"'preset' of {game} is one of {', '.join(spec.presets)}; got {quoted(preset)}", 422)
        players = data.get("players", spec.default_players)
        top = min(spec.max_players, MAX_PLAYERS)
        if type(players) is not int or not spec.min_players <= players <= top:
            raise BadRequest(f"'players' is a whole number from {spec.min_players} to {top}; got {quoted(players)}",
                             422)
        try:
            spec.new(spec.rules(preset, {}), players, chance=Chance(seed=1))
        except MugginsError as e:
            raise BadRequest(f"{game} {preset} is not played by {players}: {e}", 422) from None
        ranked = data.get("ranked", False)
        if not isinstance(ranked, bool):
            raise BadRequest(f"'ranked' is true or false; got {quoted(ranked)}", 422)
        if ranked and account is None:
            raise BadRequest("ranked play is for accounts: log in (or sign up) first; quick play is open to "
                             "guests", 401)
        if ranked and (why := spec.ranked_error(preset)):
            raise BadRequest(why, 422)
        name = data.get("name")
        if account is not None:
            name = account.username
        elif name is None:
            name = f"Guest {secrets.randbelow(10000):04d}"
        elif not isinstance(name, str):
            raise BadRequest(f"'name' is the name shown at the table, as text; got {quoted(name)}", 422)
        why = guest_name_error(name.strip())
        if why:
            raise BadRequest(why, 422)
        self.expire()
        if account is not None:
            held = next((t for t in self.tickets.values() if t.table is None and t.account is not None
                         and t.account.id == account.id), None)
            if held is not None:
                raise BadRequest("you are already waiting for a game; cancel that first", 409)
        waiting = [t for t in self.tickets.values() if t.table is None]
        if sum(1 for t in waiting if t.client == client) >= self.per_client:
            raise BadRequest(f"at most {self.per_client} players wait at once from one address; cancel one "
                             f"first", 429)
        if len(waiting) >= MAX_TICKETS:
            raise BadRequest("too many players are waiting on this server; try again in a moment", 503)
        rating = self.rating(account, family_of(game)) if account is not None else DEFAULT_RATING
        ticket = secrets.token_urlsafe(24)
        now = self.clock()
        entry = Ticket(hash_token(ticket), game, preset, players, ranked, name.strip(), account, rating, client,
                       now, now)
        self.tickets[entry.key] = entry
        self.dirty = True
        self.changed.add(entry.key)
        return ticket, entry

    def find(self, ticket: str) -> Ticket:
        entry = self.tickets.get(hash_token(ticket)) if 8 <= len(ticket) <= 64 else None
        if entry is None:
            raise BadRequest("no such ticket: it was cancelled, or it expired (a ticket not asked about for "
                             f"{self.ticket_ttl:g} s leaves the queue)", 404)
        return entry

    def leave(self, ticket: str) -> Ticket:
        entry = self.find(ticket)
        if entry.table is not None:
            raise BadRequest(f"a table was made for you already: /t/{entry.table}", 409)
        del self.tickets[entry.key]
        self.dirty = True
        self.changed.add(entry.key)
        return entry

    def describe(self, entry: Ticket) -> dict[str, Any]:
        """What the ticket's holder is told."""
        out: dict[str, Any] = {"game": entry.game, "preset": entry.preset, "players": entry.players,
                               "ranked": entry.ranked, "name": entry.name}
        if entry.table is not None:
            return {**out, "status": "matched", "table": entry.table, "seat": entry.seat, "token": entry.token,
                    "link": f"/t/{entry.table}"}
        waited = self.clock() - entry.created
        return {**out, "status": "waiting", "waited": round(waited, 1),
                "bot_in": round(max(0.0, self.wait_for_bot - waited), 1),
                "waiting": sum(1 for t in self.tickets.values() if t.table is None and t.queue == entry.queue)}

    # --- ratings -------------------------------------------------------------------------------------
    def _read(self, query: Any) -> list[Any]:
        try:
            with self.manager.store.engine.connect() as conn:
                return list(conn.execute(query).all())
        except SQLAlchemyError:
            raise BadRequest("the database does not answer; nothing was changed, try again in a moment",
                             503) from None

    def rating(self, account: Account, family: str) -> float:
        """The account's displayed rating in ``family`` (1500 without one)."""
        rows = self._read(select(ratings_t.c.rating).where(ratings_t.c.account_id == account.id,
                                                           ratings_t.c.family == family))
        return float(rows[0][0]) if rows else DEFAULT_RATING

    def house_ratings(self, family: str) -> dict[str, float]:
        """Each bot level's rating in ``family``: its house account's, else where it starts."""
        rows = self._read(select(accounts_t.c.username, ratings_t.c.rating)
                          .join(ratings_t, ratings_t.c.account_id == accounts_t.c.id)
                          .where(accounts_t.c.kind == "house", ratings_t.c.family == family))
        found = {str(name).casefold(): float(r) for name, r in rows}
        # a level without a rating of its own plays at its measured start (ratings.HOUSE_START)
        return {level: found.get(level, ratings.shown(*ratings.start_of(family, level))[0]) for level in LEVELS}

    def bot_for(self, rating: float, family: str) -> str:
        """The bot level whose rating is nearest ``rating`` (the weaker one on a tie)."""
        levels = self.house_ratings(family)
        return min(levels, key=lambda lv: (abs(levels[lv] - rating), levels[lv]))

    # --- pairing -------------------------------------------------------------------------------------
    def accepts(self, a: Ticket, b: Ticket, now: float) -> bool:
        """Whether ``a`` and ``b`` may be seated together: always in quick play; in ranked play when each
        one's window (widening while it waits) holds the other's rating."""
        if not a.ranked:
            return True
        gap = abs(a.rating - b.rating)
        return all(gap <= self.window + self.widen * max(0.0, now - t.created) for t in (a, b))

    def expire(self) -> None:
        now = self.clock()
        for key, t in list(self.tickets.items()):
            if (t.table is None and now - t.polled > self.ticket_ttl) or \
                    (t.matched is not None and now - t.matched > self.matched_ttl):
                del self.tickets[key]
                self.dirty = True
                self.changed.add(key)

    def group(self, anchor: Ticket, queue: list[Ticket], by_rating: list[Ticket], ratings: list[float],
              seated: set[str], now: float) -> list[Ticket]:
        """``anchor`` and as many others of ``queue`` not yet ``seated`` (up to a table's worth) as all
        accept each other: in ranked play the closest in rating first, looked for only within the anchor's
        window in ``by_rating`` (the queue sorted by rating, whose ratings are ``ratings``); in quick play the
        first come."""
        chosen = [anchor]
        if anchor.ranked:
            reach = self.window + self.widen * max(0.0, now - anchor.created)
            near = by_rating[bisect.bisect_left(ratings, anchor.rating - reach):
                             bisect.bisect_right(ratings, anchor.rating + reach)]
            others = sorted(near, key=lambda t: (abs(t.rating - anchor.rating), t.created))
        else:
            others = queue
        for t in others:
            if len(chosen) == anchor.players:
                break
            if t is not anchor and t.key not in seated and all(self.accepts(t, c, now) for c in chosen):
                chosen.append(t)
        return chosen

    def tick(self) -> list[GameTable]:
        """Expire the tickets nobody asks about, seat every full table of people that can be made, and
        fill with bots the seats of those who waited long enough. Returns the tables made."""
        self.expire()
        now = self.clock()
        if not self.dirty and now - self.paired_at < PAIRING_EVERY:
            return []
        self.dirty, self.paired_at = False, now
        queues: dict[tuple[str, str, int, bool], list[Ticket]] = {}
        for t in sorted(self.tickets.values(), key=lambda t: t.created):
            if t.table is None:
                queues.setdefault(t.queue, []).append(t)
        made = []
        seated: set[str] = set()
        for queue in queues.values():
            by_rating = sorted(queue, key=lambda t: t.rating) if queue[0].ranked else []
            ratings = [t.rating for t in by_rating]
            for anchor in queue:
                if anchor.key in seated:
                    continue
                group = self.group(anchor, queue, by_rating, ratings, seated, now)
                full = len(group) == anchor.players
                if not full and now - anchor.created < self.wait_for_bot:
                    continue
                table = self.seat(group)
                if table is not None:
                    made.append(table)
                    seated.update(t.key for t in group)
        return made

    def seat(self, group: list[Ticket]) -> GameTable | None:
        """A table for ``group`` (bots in the seats left), each seated in a random order; None when it
        could not be made (the tickets wait on)."""
        first = group[0]
        family = family_of(first.game)
        bots = first.players - len(group)
        level = self.bot_for(sum(t.rating for t in group) / len(group), family) if bots else None
        order: list[Ticket | None] = [*group, *([None] * bots)]
        secrets.SystemRandom().shuffle(order)
        if first.ranked:
            clock = self.clocks.get((first.game, first.preset)) or clock_for(first.game, first.preset)
            meta: dict[str, Any] = {"rated": True, "ranked": True, "clock": dict(clock)}
        else:
            meta = {"quick": True}
        try:
            table = self.manager.create(first.game, first.preset, None, [None if t else level for t in order],
                                        DEFAULT_GRACE, DEFAULT_BOT_DELAY, meta=meta)
        except TableError as e:
            log.warning("a table for %d waiting players was not made: %s", len(group), e)
            return None
        used = {name_key(s.name) for s in table.seats if s.bot is not None and s.name}
        used |= {name_key(t.name) for t in group if t.account is not None}
        try:
            for seat, t in enumerate(order):
                if t is None:
                    continue
                if t.account is not None:
                    token = self.accounts.take_seat(table, seat, t.account)
                else:
                    token = table.take_seat(seat, self.unique(t.name, used))
                    used.add(name_key(table.seats[seat].name or ""))
                t.table, t.seat, t.token, t.matched = table.id, seat, token, self.clock()
                self.changed.add(t.key)
        except (TableError, BadRequest) as e:
            log.warning("table %s for waiting players could not seat them (%s); they wait on", table.id, e)
            for t in group:
                t.table = t.seat = t.token = t.matched = None
            with contextlib.suppress(TableError):
                table.abandon("its players could not be seated")
            return None
        log.info("table %s made for %d waiting players (%s)", table.id, len(group),
                 "ranked" if first.ranked else "quick")
        return table

    # --- the tickets kept in Redis (scale-out mode) ----------------------------------------------------------
    async def keep(self) -> None:
        """Write the tickets changed since the last time to Redis (a ticket gone is deleted there), so that
        the next holder of the queue finds them; nothing without Redis. On failure they stay to be written."""
        if self.redis is None or not self.changed:
            self.changed.clear()
            return
        changed, self.changed = self.changed, set()
        now, wall = self.clock(), time.time()
        pipe = self.redis.pipeline(transaction=True)
        for key in sorted(changed):
            t = self.tickets.get(key)
            if t is None:
                pipe.hdel(TICKETS_KEY, key)
            else:
                pipe.hset(TICKETS_KEY, key, json.dumps(self.dump(t, now, wall), separators=(",", ":")))
        pipe.expire(TICKETS_KEY, int(max(self.matched_ttl, self.ticket_ttl) * 2) + 1)
        try:
            await pipe.execute()
        except BaseException:
            self.changed |= changed
            raise

    async def take_over(self) -> None:
        """This process holds the queue now: its tickets are those kept in Redis by the last holder. A
        waiting ticket counts as asked about now (its holder may have waited for this takeover)."""
        raw = await self.redis.hgetall(TICKETS_KEY)
        now, wall = self.clock(), time.time()
        tickets: dict[str, Ticket] = {}
        for text in raw.values():
            try:
                t = self.undump(json.loads(text), now, wall)
            except (ValueError, KeyError, TypeError) as e:
                log.warning("a kept ticket of the play queue cannot be read (%s); it is left out", e)
                continue
            if t.table is None:
                t.polled = now
            tickets[t.key] = t
        self.tickets, self.dirty, self.changed = tickets, True, set()
        log.info("the play queue taken over with %d tickets", len(tickets))

    @staticmethod
    def dump(t: Ticket, now: float, wall: float) -> dict[str, Any]:
        """A ticket as JSON: the queue's clock (this process's own) read as Unix times."""
        def at(x: float | None) -> float | None:
            return None if x is None else wall - (now - x)
        account = None if t.account is None else [t.account.id, t.account.username, t.account.created]
        return {"key": t.key, "game": t.game, "preset": t.preset, "players": t.players, "ranked": t.ranked,
                "name": t.name, "account": account, "rating": t.rating, "client": t.client,
                "created": at(t.created), "polled": at(t.polled), "table": t.table, "seat": t.seat,
                "token": t.token, "matched": at(t.matched)}

    @staticmethod
    def undump(d: dict[str, Any], now: float, wall: float) -> Ticket:
        def at(x: Any) -> float | None:
            return None if x is None else now - (wall - float(x))
        a = d["account"]
        created, polled = at(d["created"]), at(d["polled"])
        if created is None or polled is None:
            raise ValueError("a ticket without its times")
        return Ticket(str(d["key"]), str(d["game"]), str(d["preset"]), int(d["players"]), bool(d["ranked"]),
                      str(d["name"]), None if a is None else Account(int(a[0]), str(a[1]), float(a[2])),
                      float(d["rating"]), str(d["client"]), created, polled, d["table"], d["seat"], d["token"],
                      at(d["matched"]))

    @staticmethod
    def unique(name: str, used: set[str]) -> str:
        """``name``, or ``name 2``, ``name 3``... when another player at the table has it."""
        n, out = 1, name
        while name_key(out) in used:
            n += 1
            out = f"{name[: MAX_NAME_CHARS - 4]} {n}"
        return out


def add_play_routes(app: FastAPI, manager: TableManager, accounts: Accounts, body: Callable[..., Awaitable[Any]],
                    same_site: Callable[[Request], None], limits: Any = None) -> Matchmaker:
    """The endpoints of quick and ranked play, and the clocks of ranked tables; joining a queue is
    counted against ``limits`` (the app's per-address limit of seats taken)."""
    matchmaker = Matchmaker(manager, accounts)
    ClockKeeper(manager)
    app.state.matchmaker = matchmaker

    async def made(tables: list[GameTable]) -> None:
        cluster = getattr(app.state, "cluster", None)
        if cluster is not None:  # scale-out mode: this process plays them
            for t in tables:
                await cluster.adopt(t.id)

    def client_of(request: Request) -> str:
        return request.client.host if request.client is not None else "unknown"

    @app.post("/api/play", status_code=201)
    async def join(request: Request) -> JSONResponse:
        data = await body(request, limits)
        ticket, entry = matchmaker.join(data, accounts.account_of(request), client_of(request))
        await made(matchmaker.tick())
        await matchmaker.keep()
        return JSONResponse({"ticket": ticket, **matchmaker.describe(entry)}, status_code=201)

    @app.get("/api/play/{ticket}")
    async def poll(ticket: str) -> dict[str, Any]:
        matchmaker.expire()
        entry = matchmaker.find(ticket)
        entry.polled = matchmaker.clock()
        matchmaker.changed.add(entry.key)
        await made(matchmaker.tick())
        await matchmaker.keep()
        return {"ticket": ticket, **matchmaker.describe(entry)}

    @app.delete("/api/play/{ticket}")
    async def cancel(ticket: str, request: Request) -> dict[str, Any]:
        same_site(request)
        entry = matchmaker.leave(ticket)
        await matchmaker.keep()
        return {"ticket": ticket, "status": "cancelled", "game": entry.game}

    return matchmaker
