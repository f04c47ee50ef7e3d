"""Players' profiles and the leaderboards, and the rated tables of plain play.

* ``GET /api/players/{name}``: an account's profile (a person's, an outside bot's or a house bot's):
  ``ratings`` ``{family: {"rating", "deviation", "games", "provisional"}}``, ``games`` played and won per
  game, the rating ``history`` per family (for the chart; ``starts``: the rating each family started
  from), the ``recent`` games (with their replay and analysis links) and the ``muggins`` figures of its
  games with the muggins rule. 404 for a name that is no account (a deleted account is gone).
* ``GET /api/leaderboard/{game}`` (a family, or a game's name): the best :data:`LEADERS` accounts with at
  least :data:`MIN_GAMES` rated games in it, people and bots, the provisional ones marked.
* ``POST /api/tables`` with ``"rated": true`` (see :func:`rated_meta`) makes a rated table; only accounts
  take its seats.

The muggins figures are read from the events of each game's record, replayed (the same events the
analysis reads its slips from), over the account's last :data:`MUGGINS_GAMES` ended games with the rule:

* ``calls``: Muggins! calls made, ``right`` (they took points) and ``false`` (nothing was missed);
* ``stolen``: points the account's right calls took;
* ``missed``: points of its own plays it did not announce: left unclaimed, or taken by an opponent's call;
* ``announced``: points it announced right (a void over-claim announces nothing);
* ``counting_accuracy``: announced / (announced + missed), the share of what its plays were worth that it
  counted itself (None before any scoring play).
"""

from __future__ import annotations

import asyncio
import threading
from collections import Counter, OrderedDict
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse
from sqlalchemy import select

from muggins.core.chance import Chance
from muggins.core.events import EventKind
from muggins.core.records import apply_record_action
from muggins.core.rules import all_games, get_game
from muggins.server.accounts import Account
from muggins.server.guard import BadRequest
from muggins.server.ratings import FAMILIES, PROVISIONAL, Ratings, family_of, figures, rating_of, shown, start_of
from muggins.server.store import (
    ENDED,
    Store,
    StoredTable,
    _json,
    accounts_t,
    rating_history_t,
    ratings_t,
    seat_owners_t,
    tables_t,
)
from muggins.server.tables import BOT_LEVELS, TableError, TableManager, muggins_rule_of

MIN_GAMES = 3         # rated games in a family before an account is on its leaderboard
LEADERS = 100
RECENT = 20           # recent games on a profile
MUGGINS_GAMES = 50    # the last games with the muggins rule the figures are read from
FIGURES_CACHE = 2000  # tables whose figures are kept in memory (a game's figures never change)
HISTORY = 500         # rating changes per family in the chart, the latest


def rated_meta(data: dict[str, Any], account: Account | None) -> dict[str, Any] | None:
    """The ``meta`` of a table asked for by ``POST /api/tables``: ``{"rated": true}`` for a rated one, None
    for a casual one. A rated table is asked for logged in (401), with seats open for people or house bots,
    and without hints (422)."""
    rated = data.get("rated", False)
    if not isinstance(rated, bool):
        raise TableError("'rated' is true or false", 422)
    if not rated:
        return None
    if account is None:
        raise TableError("log in to make a rated table: ratings belong to accounts", 401)
    seats = data.get("seats")
    if seats is not None and (not isinstance(seats, list) or any(s is not None and s not in BOT_LEVELS
                                                                 for s in seats)):
        raise TableError(f"a rated table's seats are open (null) or house bots: {', '.join(BOT_LEVELS)}", 422)
    if data.get("hints", False) is not False:
        raise TableError("a rated game is played without hints", 422)
    game, preset = data.get("game"), data.get("preset")
    if isinstance(game, str) and game in all_games() and (preset is None or isinstance(preset, str)):
        why = get_game(game).ranked_error(preset)
        if why:
            raise TableError(why, 422)
    return {"rated": True}


def muggins_of(stored: StoredTable) -> list[Counter[str]]:
    """The muggins figures of each seat of a stored game, from its events (see the module doc)."""
    spec = get_game(stored.game)
    st = spec.new(spec.rules(stored.preset, stored.options), stored.num_players, chance=Chance(seed=stored.seed))
    per: list[Counter[str]] = [Counter() for _ in range(stored.num_players)]
    for i, entry in enumerate(stored.actions):
        before = len(st.log)
        apply_record_action(st, i, entry)
        evs = st.log[before:]
        void = {e.seat for e in evs if e.kind == EventKind.OVER_CLAIM}
        for e in evs:
            seat, data = e.seat, e.data
            if not isinstance(seat, int):
                continue
            if e.kind == EventKind.CLAIM and seat not in void:
                per[seat]["announced"] += int(data["points"])
            elif e.kind == EventKind.MISSED:
                per[seat]["missed"] += int(data["points"])
            elif e.kind == EventKind.MUGGINS:
                per[seat]["calls"] += 1
                if data["outcome"] == "false_call":
                    per[seat]["false"] += 1
                else:
                    per[seat]["right"] += 1
                    per[seat]["stolen"] += int(data["points"])
                    per[int(data["on"])]["missed"] += int(data["missed"])
    return per


def muggins_summary(total: Counter[str], games: int) -> dict[str, Any]:
    counted = total["announced"] + total["missed"]
    return {"games": games, "calls": total["calls"], "right": total["right"], "false": total["false"],
            "stolen": total["stolen"], "missed": total["missed"], "announced": total["announced"],
            "counting_accuracy": round(total["announced"] / counted, 3) if counted else None}


class Profiles:
    """What the profiles and leaderboards read, with the muggins figures of each game kept once read."""

    def __init__(self, store: Store, manager: TableManager, ratings: Ratings) -> None:
        self.store = store
        self.manager = manager
        self.ratings = ratings
        self._figures: OrderedDict[str, list[Counter[str]]] = OrderedDict()
        self._lock = threading.Lock()

    def account(self, name: str) -> dict[str, Any]:
        if not isinstance(name, str) or not 1 <= len(name) <= 40:
            raise BadRequest(f"no player {name!r}"[:80], 404)
        if name.casefold() in BOT_LEVELS:  # a house bot has a profile before its first rated game
            self.ratings.house_account(name.casefold())
        with self.store.engine.connect() as conn:
            row = conn.execute(select(accounts_t.c.id, accounts_t.c.username, accounts_t.c.kind,
                                      accounts_t.c.created).where(accounts_t.c.username_key == name.casefold())
                               ).mappings().first()
        if row is None:
            raise BadRequest(f"no player {name!r}"[:80], 404)
        return dict(row)

    def seats_of(self, acc: dict[str, Any]) -> list[tuple[dict[str, Any], int]]:
        """The account's ended games, newest first: each table's row (without its actions) and the seat."""
        cols = (tables_t.c.id, tables_t.c.game, tables_t.c.preset, tables_t.c.options, tables_t.c.status,
                tables_t.c.result, tables_t.c.ended, tables_t.c.created, tables_t.c.meta, tables_t.c.seats)
        with self.store.engine.connect() as conn:
            if acc["kind"] == "house":  # a house bot's games are its rated ones, at a seat of its level
                q = (select(*cols).where(tables_t.c.id.in_(select(rating_history_t.c.table_id).where(
                    rating_history_t.c.account_id == acc["id"]))))
                rows = [(dict(r), -1) for r in conn.execute(q).mappings()]
            else:
                q = (select(*cols, seat_owners_t.c.seat).join(seat_owners_t, seat_owners_t.c.table_id == tables_t.c.id)
                     .where(seat_owners_t.c.account_id == acc["id"], tables_t.c.status.in_(ENDED)))
                rows = [(dict(r), int(r["seat"])) for r in conn.execute(q).mappings()]
        out = []
        for r, seat in rows:
            for k in ("options", "result", "meta", "seats"):
                r[k] = _json(r[k])
            if seat < 0:
                seat = next((i for i, s in enumerate(r["seats"] or []) if isinstance(s, dict)
                             and s.get("bot") == acc["username"]), -1)
            if seat >= 0:
                out.append((r, seat))
        out.sort(key=lambda x: -(x[0]["ended"] or x[0]["created"] or 0))
        return out

    def profile(self, name: str) -> dict[str, Any]:
        acc = self.account(name)
        games = self.seats_of(acc)
        played: dict[str, dict[str, int]] = {}
        recent: list[dict[str, Any]] = []
        for r, seat in games:
            result = r["result"] if isinstance(r["result"], dict) else {}
            won = seat in (result.get("winners") or [])
            tally = played.setdefault(r["game"], {"played": 0, "won": 0})
            tally["played"] += 1
            tally["won"] += won
            if len(recent) < RECENT:
                recent.append(self.recent_entry(r, seat, won))
        ratings = {f: rating_of(self.store, acc["id"], f) for f in FAMILIES}
        level = acc["username"] if acc["kind"] == "house" else None
        starts = {f: round(shown(*start_of(f, level))[0]) for f in FAMILIES}
        return {"name": acc["username"], "kind": acc["kind"], "created": acc["created"], "ratings": ratings,
                "starts": starts,
                "games": played, "history": self.history(acc["id"]), "recent": recent,
                "muggins": self.muggins(games), "provisional_above": PROVISIONAL}

    @staticmethod
    def recent_entry(r: dict[str, Any], seat: int, won: bool) -> dict[str, Any]:
        result = r["result"] if isinstance(r["result"], dict) else {}
        status = r["status"]
        seats = r["seats"] if isinstance(r["seats"], list) else []
        outcome = ("won" if won else "lost") if status == "finished" else \
            ("resigned" if result.get("resigned") == seat else "won" if won else "lost") if status == "resigned" \
            else "abandoned"
        return {"id": r["id"], "game": r["game"], "preset": r["preset"], "status": status, "seat": seat,
                "result": outcome, "scores": result.get("scores"), "ended": r["ended"],
                "rated": bool((r["meta"] or {}).get("rated")) if isinstance(r["meta"], dict) else False,
                "players": [s.get("name") for s in seats if isinstance(s, dict)],
                "replay": f"/t/{r['id']}/replay",
                "analysis": f"/api/tables/{r['id']}/analysis" if status == "finished" else None}

    def history(self, account_id: int) -> dict[str, list[dict[str, Any]]]:
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(rating_history_t).where(rating_history_t.c.account_id == account_id)
                                .order_by(rating_history_t.c.at, rating_history_t.c.id)).mappings().all()
        out: dict[str, list[dict[str, Any]]] = {}
        for r in rows:
            out.setdefault(r["family"], []).append({"at": r["at"], "rating": round(r["rating"]),
                                                    "deviation": round(r["deviation"]), "table": r["table_id"]})
        return {f: xs[-HISTORY:] for f, xs in out.items()}

    def muggins(self, games: list[tuple[dict[str, Any], int]]) -> dict[str, Any]:
        total: Counter[str] = Counter()
        n = 0
        for r, seat in games:
            if n >= MUGGINS_GAMES:
                break
            if not muggins_rule_of(r["game"], r["preset"], r["options"] or {}):
                continue
            per = self.table_figures(r["id"])
            if per is None or seat >= len(per):
                continue
            total += per[seat]
            n += 1
        return muggins_summary(total, n)

    def table_figures(self, table_id: str) -> list[Counter[str]] | None:
        with self._lock:
            got = self._figures.get(table_id)
            if got is not None:
                self._figures.move_to_end(table_id)
                return got
        try:
            stored = self.store.load_one(table_id)
            if stored is None or stored.status not in ENDED:
                return None
            got = muggins_of(stored)
        except Exception:  # a damaged table: left out of the figures
            return None
        with self._lock:
            self._figures[table_id] = got
            while len(self._figures) > FIGURES_CACHE:
                self._figures.popitem(last=False)
        return got

    def leaderboard(self, game: str) -> dict[str, Any]:
        family = family_of(game)
        if family is None:
            raise BadRequest(f"no leaderboard {game!r}; the games are {', '.join(FAMILIES)}"[:200], 404)
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(accounts_t.c.username, accounts_t.c.kind, ratings_t.c.rating, ratings_t.c.deviation,
                       ratings_t.c.games)
                .join(accounts_t, accounts_t.c.id == ratings_t.c.account_id)
                .where(ratings_t.c.family == family, ratings_t.c.games >= MIN_GAMES)
                .order_by(ratings_t.c.rating.desc(), accounts_t.c.username_key).limit(LEADERS)).all()
        players = [{"rank": i + 1, "name": name, "kind": kind, **figures(rating, deviation, int(games))}
                   for i, (name, kind, rating, deviation, games) in enumerate(rows)]
        return {"game": family, "min_games": MIN_GAMES, "players": players}


def add_profile_routes(app: FastAPI, store: Store, manager: TableManager, page: Any) -> Ratings:
    """The ratings' end listener (and a catch-up of rated tables that ended unrated), the profile and
    leaderboard endpoints, and their pages (``page``: the page's HTML file)."""
    ratings = Ratings(store, manager)
    manager.end_listeners.append(ratings.on_end)
    try:
        ratings.catch_up()
    except Exception:  # the database not answering at start must not stop the server
        import logging

        logging.getLogger("muggins.server").exception("the ratings could not catch up")
    profiles = Profiles(store, manager, ratings)
    app.state.ratings = ratings
    app.state.profiles = profiles

    for path in ("/players/{name}", "/leaderboard", "/leaderboard/{game}"):
        app.add_api_route(path, lambda: FileResponse(page), methods=["GET"], include_in_schema=False)

    @app.get("/api/players/{name}")
    async def player(name: str) -> dict[str, Any]:
        return await asyncio.to_thread(profiles.profile, name)

    @app.get("/api/leaderboard/{game}")
    async def leaderboard(game: str, request: Request) -> dict[str, Any]:
        return await asyncio.to_thread(profiles.leaderboard, game)

    return ratings
