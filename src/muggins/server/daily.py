"""The daily deal: each UTC day, for each game, one seeded deal that every player plays against the same bot,
and everybody's results on it compared as bridge clubs compare the same hands (duplicate scoring).

* The games and their rules come from one place, :func:`daily_games`: for each registered game, its first
  preset that has the muggins rule and can be played by two, its target halved (rounded up) when over
  :data:`SITTING_TARGET`, so that a deal is played in one sitting; and the bot everybody meets,
  :data:`DAILY_BOT` ("club": a heuristic bot with a club player's attention; its choices depend only on
  the game and its random generator, never on a clock, as a search bot's do).
* The seed of a day's deal is the first 62 bits of HMAC-SHA256(key, "YYYY-MM-DD:game"), where ``key`` is the
  server's daily key: 32 random bytes made when first needed and kept in the database (``daily_keys``), so
  that the same server deals the same game to everybody that day, and nobody can work out a deal before it
  is played from the day's date. The table is made with that seed, so the cards or tiles, the cut and
  who begins are the same for everybody; the bot at seat 2 is seeded from the same seed (as every table
  seeds its bots: see ``GameTable``), so it starts with the same generator for everybody. Duplicate means
  the same deal and the same bot seeds: the bot answers what the person plays, so two people who play
  differently meet different answers, and hands after the first are drawn from the same generator as far
  as the game draws the same number of times (a domino drawn from the boneyard changes what follows).
  A server restarted in the middle of a game seeds its bot's generator afresh.
* ``POST /api/daily/{game}`` starts (or resumes) the logged-in player's game of today's deal, at seat 1; a
  guest is refused (401): results are kept per player. One attempt per player, day and game: asking again
  gives the same table (a fresh seat token while it is in play).
* When the game ends (finished, resigned or abandoned) the result is stored: the player's points, the
  bot's, the margin (player minus bot) and whether he won. ``GET /api/daily/{game}/{day}`` ranks the
  results of that deal: finished games before resigned or abandoned ones, then by margin, the larger
  first; equal ones share a rank. ``matchpoints`` is bridge's matchpoint percentage: each other result
  this one beats counts 1, each it ties ½, over the number of other results, times 100. The list, with
  each game's replay, is given to a player who has ended his own game of that deal; to everybody once the
  day is over (UTC); others get 403 "finish the deal first". Until then the replay, the record and the
  analysis of the day's games, and watching them, are refused in the same way.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import hmac
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse
from sqlalchemy import Text, insert, select, type_coerce, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from muggins.core.rules import all_games, get_game
from muggins.server.accounts import Account, Accounts
from muggins.server.guard import BadRequest
from muggins.server.store import (
    ENDED,
    Store,
    accounts_t,
    daily_deals_t,
    daily_keys_t,
    daily_results_t,
    tables_t,
)
from muggins.server.tables import GameTable, TableError, TableManager

log = logging.getLogger("muggins.server")
PAGE = Path(__file__).resolve().parent.parent / "web" / "index.html"
DAY = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
DAILY_BOT = "club"
FIRST_DAY = "2000-01-01"  # no deal before this day
FINISH_FIRST = "finish the deal first: everyone's results and replays open when your own game of it has ended"


@dataclass(frozen=True)
class DailyGame:
    """One game of the daily deal: its rules (a preset and options) for two players."""

    game: str
    preset: str
    options: dict[str, Any] = field(default_factory=dict)


PLAYERS = 2
SITTING_TARGET = 100  # a daily deal's target above this is halved (rounded up): one sitting


def daily_games() -> tuple[DailyGame, ...]:
    """The daily deal of each registered game: its first preset with the muggins rule for two players, its
    target halved (rounded up) when over :data:`SITTING_TARGET` (a game with no such preset has none). Worked
    out when asked (a fraction of a millisecond), so that a game registered later has its deal too."""
    out = []
    for spec in all_games().values():
        for preset in spec.presets:
            rules = spec.rules(preset, {})
            if getattr(rules, "claims", "auto") == "manual" and PLAYERS in spec.players_for(rules):
                target = getattr(rules, "target", None)
                options = {"target": -(-target // 2)} if isinstance(target, int) and target > SITTING_TARGET else {}
                out.append(DailyGame(spec.name, preset, options))
                break
    return tuple(out)


def day_of(timestamp: float) -> str:
    """The UTC day of a time, as YYYY-MM-DD."""
    return dt.datetime.fromtimestamp(timestamp, dt.UTC).date().isoformat()


def deal_seed(key: bytes, day: str, game: str) -> int:
    """The seed of ``game``'s deal on ``day``: the first 62 bits of HMAC-SHA256(key, "YYYY-MM-DD:game")."""
    digest = hmac.new(key, f"{day}:{game}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def outcome(status: str, scores: list[int], winners: list[int]) -> dict[str, Any]:
    """The stored result of a daily game (the person at seat 0, the bot at seat 1)."""
    score, opponent = int(scores[0]), int(scores[1])
    return {"status": status, "score": score, "opponent": opponent, "margin": score - opponent,
            "won": 0 in winners}


def ranked(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The ended results of one deal in order, each with its ``rank`` and ``matchpoints`` (see the module)."""
    def key(r: dict[str, Any]) -> tuple[int, int]:
        return (1 if r["status"] == "finished" else 0, int(r["margin"] or 0))

    rows = sorted(rows, key=lambda r: (key(r), -(r["ended"] or 0.0)), reverse=True)
    keys = [key(r) for r in rows]
    out = []
    for r, k in zip(rows, keys, strict=True):
        beaten = sum(1 for o in keys if o < k)
        tied = keys.count(k) - 1
        others = len(keys) - 1
        out.append({**r, "rank": 1 + sum(1 for o in keys if o > k),
                    "matchpoints": round(100 * (beaten + tied / 2) / others, 1) if others else None})
    return out


class Daily:
    """The daily deals of one store: the day's deal of each game, the players' games of it and their results."""

    def __init__(self, store: Store, manager: TableManager, accounts: Accounts,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.manager = manager
        self.accounts = accounts
        self.clock = clock  # the time that says which day it is (UTC)
        self._key: bytes | None = None
        manager.end_listeners.append(self.ended)

    def _db(self, work: Callable[[Any], Any]) -> Any:
        return self.accounts._db(work)

    # --- days and deals -------------------------------------------------------------------------------
    def today(self) -> str:
        return day_of(self.clock())

    def check_day(self, day: str) -> str:
        """``day`` when it is a day with a deal (today or before); 422 for what is not a date, 404 for a day
        to come."""
        try:
            parsed = dt.date.fromisoformat(day) if DAY.fullmatch(day) else None
        except ValueError:
            parsed = None
        if parsed is None:
            raise BadRequest(f"a day is written YYYY-MM-DD, like {self.today()}; got {day[:20]!r}", 422)
        if day > self.today():
            raise BadRequest(f"there is no deal for {day} yet: today is {self.today()} (UTC)", 404)
        if day < FIRST_DAY:
            raise BadRequest(f"there are no deals before {FIRST_DAY}", 404)
        return day

    @staticmethod
    def check_game(game: str) -> DailyGame:
        found = [g for g in daily_games() if g.game == game]
        if not found:
            names = ", ".join(g.game for g in daily_games())
            raise BadRequest(f"no daily deal of {game[:40]!r}: the games are {names}", 404)
        return found[0]

    def key(self) -> bytes:
        """The server's daily key, made at random the first time and kept in the database."""
        if self._key is None:
            def read(conn: Any) -> Any:
                return conn.execute(select(daily_keys_t.c.key).where(daily_keys_t.c.id == 1)).scalar()

            found = self._db(read)
            if found is None:
                with contextlib.suppress(IntegrityError):  # another process made it first: its key is everybody's
                    self._db(lambda c: c.execute(insert(daily_keys_t).values(
                        id=1, key=secrets.token_hex(32), created=time.time())))
                found = self._db(read)
            self._key = bytes.fromhex(found)
        return self._key

    def deal(self, day: str, game: str) -> dict[str, Any]:
        """The deal of ``game`` on ``day`` (its rules, bot and seed), stored the first time it is asked for."""
        g = self.check_game(game)

        def read(conn: Any) -> Any:
            return conn.execute(select(daily_deals_t).where(daily_deals_t.c.day == day,
                                                            daily_deals_t.c.game == game)).mappings().first()

        row = self._db(read)
        if row is None:
            fresh = {"day": day, "game": game, "preset": g.preset, "options": dict(g.options), "level": DAILY_BOT,
                     "seed": str(deal_seed(self.key(), day, game)), "created": time.time()}
            with contextlib.suppress(IntegrityError):  # stored meanwhile by another request: the same deal
                self._db(lambda c: c.execute(insert(daily_deals_t).values(**fresh)))
            row = self._db(read)
        return {"day": row["day"], "game": row["game"], "preset": row["preset"], "options": dict(row["options"]),
                "bot": row["level"], "seed": int(row["seed"])}

    # --- a player's games ------------------------------------------------------------------------------
    def _mine(self, account: Account, day: str, game: str | None = None) -> list[dict[str, Any]]:
        q = select(daily_results_t).where(daily_results_t.c.account_id == account.id, daily_results_t.c.day == day)
        if game is not None:
            q = q.where(daily_results_t.c.game == game)
        return self._settled([dict(r) for r in self._db(lambda c: c.execute(q).mappings().all())])

    def start(self, account: Account, game: str, here: Callable[[str], bool] = lambda _id: True
              ) -> tuple[GameTable, str | None, bool]:
        """The player's game of today's deal of ``game``: made and his seat taken the first time; the same
        table afterwards, its seat given again under a fresh token. Returns the table, a seat token and
        whether it was made now. The token is None once the game has ended, and when the table is played
        by another process (``here`` says which tables are this one's): the seat is then taken back by
        ``POST /api/tables/ID/seats/0``, logged in, which that process answers."""
        day = self.today()
        d = self.deal(day, game)
        found = self._mine(account, day, game)
        if found:
            table = self.manager.get(found[0]["table_id"])
            mine = table.status not in ENDED and here(table.id)
            return table, self.accounts.take_seat(table, 0, account) if mine else None, False
        table = self.manager.create(game, d["preset"], d["options"], [None, d["bot"]], meta={"daily": day},
                                    seed=d["seed"])
        try:
            self._db(lambda c: c.execute(insert(daily_results_t).values(
                day=day, game=game, account_id=account.id, table_id=table.id, status="playing",
                started=time.time())))
        except (IntegrityError, BadRequest) as e:  # a second start at the same moment, or no database
            table.abandon("a second start of the same daily deal")
            if isinstance(e, BadRequest):
                raise
            return self.start(account, game, here)
        try:
            token = self.accounts.take_seat(table, 0, account)
        except (TableError, BadRequest):
            self._db(lambda c: c.execute(daily_results_t.delete().where(daily_results_t.c.table_id == table.id)))
            table.abandon("the player's seat could not be taken")
            raise
        return table, token, True

    def ended(self, table: GameTable) -> None:
        """The end listener: the result of a daily game, stored with the player's row."""
        if "daily" not in table.meta:
            return
        result = table.result()
        self._store_result(table.id, {**outcome(table.status, table.state.scores(), result["winners"]),
                                      "ended": table.ended})

    def _store_result(self, table_id: str, values: dict[str, Any]) -> None:
        self._db(lambda c: c.execute(update(daily_results_t).where(daily_results_t.c.table_id == table_id)
                                     .values(**values)))

    def _settled(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``rows`` with the result of any game that ended while its result could not be stored (read from
        the table's own stored end, and stored now)."""
        open_ids = [r["table_id"] for r in rows if r["status"] not in ENDED]
        if not open_ids:
            return rows
        q = select(tables_t.c.id, tables_t.c.status, tables_t.c.result, tables_t.c.ended).where(
            tables_t.c.id.in_(open_ids), tables_t.c.status.in_(ENDED))
        ends = {tid: (status, res, ended) for tid, status, res, ended in self._db(lambda c: c.execute(q).all())}
        for r in rows:
            if r["table_id"] in ends:
                status, res, ended = ends[r["table_id"]]
                try:
                    data = json.loads(res) if isinstance(res, str) else res
                    values = {**outcome(status, data["scores"], data.get("winners", [])), "ended": ended}
                except (ValueError, TypeError, KeyError, IndexError):
                    continue
                self._store_result(r["table_id"], values)
                r.update(values)
        return rows

    # --- what the players see ------------------------------------------------------------------------
    @staticmethod
    def public(row: dict[str, Any]) -> dict[str, Any]:
        return {"status": row["status"], "score": row["score"], "opponent": row["opponent"],
                "margin": row["margin"], "won": row["won"], "table": row["table_id"],
                "replay": f"/t/{row['table_id']}/replay", "started": row["started"], "ended": row["ended"]}

    def today_list(self, account: Account | None) -> dict[str, Any]:
        day = self.today()
        mine = {r["game"]: r for r in self._mine(account, day)} if account is not None else {}
        games = []
        for g in daily_games():
            d = self.deal(day, g.game)
            row = mine.get(g.game)
            games.append({"game": g.game, "title": get_game(g.game).title, "preset": d["preset"],
                          "options": d["options"], "bot": d["bot"], "day": day, "played": row is not None,
                          "result": self.public(row) if row is not None else None,
                          "results": f"/api/daily/{g.game}/{day}"})
        tomorrow = dt.datetime.fromisoformat(day).replace(tzinfo=dt.UTC) + dt.timedelta(days=1)
        return {"day": day, "logged_in": account is not None, "games": games,
                "next_deal_in": round(tomorrow.timestamp() - self.clock(), 1)}

    def finished(self, account: Account | None, day: str, game: str) -> bool:
        """Whether the deal's results are open to ``account``: the day is over, or his game of it has ended."""
        if day < self.today():
            return True
        return account is not None and any(r["status"] in ENDED for r in self._mine(account, day, game))

    def results(self, account: Account | None, game: str, day: str) -> dict[str, Any]:
        g = self.check_game(game)
        day = self.check_day(day)
        if not self.finished(account, day, game):
            raise BadRequest(FINISH_FIRST, 403)
        q = (select(daily_results_t, accounts_t.c.username).join(accounts_t, accounts_t.c.id ==
                                                                 daily_results_t.c.account_id)
             .where(daily_results_t.c.day == day, daily_results_t.c.game == game))
        rows = self._settled([dict(r) for r in self._db(lambda c: c.execute(q).mappings().all())])
        done = ranked([r for r in rows if r["status"] in ENDED])
        deal = self.deal(day, game) if day == self.today() or rows else {
            "preset": g.preset, "options": dict(g.options), "bot": DAILY_BOT}
        return {"day": day, "game": game, "title": get_game(game).title, "preset": deal["preset"],
                "options": deal["options"], "bot": deal["bot"], "over": day < self.today(),
                "playing": len(rows) - len(done),
                "results": [{"rank": r["rank"], "player": r["username"], "matchpoints": r["matchpoints"],
                             "mine": account is not None and r["account_id"] == account.id, **self.public(r)}
                            for r in done]}

    def watch_allowed(self, table_id: str, account: Account | None) -> bool:
        """Whether ``account`` may see the hidden side of ``table_id`` (its replay, record, analysis) or watch
        it: always, unless it is a game of a deal whose day is not over that he has not ended himself (his
        own game he may watch and replay)."""
        q = (select(tables_t.c.game, type_coerce(tables_t.c.meta, Text), daily_results_t.c.account_id)
             .select_from(tables_t.outerjoin(daily_results_t, daily_results_t.c.table_id == tables_t.c.id))
             .where(tables_t.c.id == table_id))
        row = self._db(lambda c: c.execute(q).first())
        meta = row[1] if row is not None else None  # as stored: JSON text (SQLite) or parsed by the driver
        try:
            day = (json.loads(meta) if isinstance(meta, str) else meta or {}).get("daily")
        except (ValueError, AttributeError):
            day = None  # a damaged row: the table's own endpoints say so
        if not isinstance(day, str):
            return True  # not a daily game (or no such table: its endpoint answers 404)
        game, owner = row[0], row[2]  # no owner: the player's account was deleted since
        return (account is not None and owner == account.id) or self.finished(account, day, game)


# the table requests that show what a daily game hid (the hands), or let somebody watch it
_GUARDED = re.compile(r"^/(?:api/tables/([^/]{1,64})/(?:replay|record|analysis|analysis\.png)|ws/([^/]{1,64}))$")


class DailyGuard:
    """ASGI middleware: a daily game of a day not over is shown (replay, record, analysis, its socket) only to
    its player and to those who have ended their own game of the same deal."""

    def __init__(self, app: ASGIApp, daily: Daily) -> None:
        self.app = app
        self.daily = daily

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        m = _GUARDED.match(scope.get("path", "")) if scope["type"] in ("http", "websocket") else None
        if m is None:
            await self.app(scope, receive, send)
            return
        try:
            account = self.daily.accounts.account_of(cast(Request, HTTPConnection(scope)))
            allowed = self.daily.watch_allowed(m.group(1) or m.group(2), account)
        except BadRequest as e:
            allowed, message, status = False, str(e), e.status
        except SQLAlchemyError:
            allowed, message, status = False, "the database does not answer; try again in a moment", 503
        else:
            message, status = FINISH_FIRST, 403
        if allowed:
            await self.app(scope, receive, send)
        elif scope["type"] == "http":
            await JSONResponse({"error": message}, status_code=status)(scope, receive, send)
        else:  # as the table's socket refuses: the reason in a message, then closed
            await receive()
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": json.dumps({"type": "error", "message": message,
                                                                       "fatal": True})})
            await send({"type": "websocket.close", "code": 4403})


def add_daily_routes(app: FastAPI, daily: Daily, body: Callable[..., Awaitable[Any]]) -> None:
    """The endpoints and the page of the daily deal, and the guard of its games."""
    app.state.daily = daily
    app.add_middleware(DailyGuard, daily=daily)
    for path in ("/daily", "/daily/{game}/{day}"):
        app.add_api_route(path, lambda: FileResponse(PAGE), methods=["GET"], include_in_schema=False)

    @app.get("/api/daily")
    async def today(request: Request) -> dict[str, Any]:
        """Today's deal of each game, and the logged-in player's game of each."""
        return daily.today_list(daily.accounts.account_of(request))

    @app.post("/api/daily/{game}", response_model=None)
    async def start(game: str, request: Request) -> JSONResponse:
        """Start (or resume) my game of today's deal of ``game``: 201 when made, 200 when it was already."""
        await body(request)
        account = daily.accounts.account_of(request)
        if account is None:
            raise BadRequest("log in to play the daily deal: each player's result is kept with his account", 401)
        daily.check_game(game)
        cluster = getattr(request.app.state, "cluster", None)  # scale-out mode: tables played by several processes
        table, token, made = daily.start(account, game, cluster.owns if cluster is not None else lambda _id: True)
        if made and cluster is not None:
            await cluster.adopt(table.id)
        return JSONResponse({"day": table.meta["daily"], "game": game, "table": table.summary(), "seat": 0,
                             "token": token, "link": f"/t/{table.id}",
                             "results": f"/api/daily/{game}/{table.meta['daily']}"},
                            status_code=201 if made else 200)

    @app.get("/api/daily/{game}/{day}")
    async def results(game: str, day: str, request: Request) -> dict[str, Any]:
        """Everybody's results on the deal, ranked by duplicate scoring (see the module)."""
        return daily.results(daily.accounts.account_of(request), game, day)
