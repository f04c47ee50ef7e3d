"""Ratings of rated games: one rating per account and game family, by openskill's Plackett-Luce model
(2-4 players, partnerships as teams).

* The scale: the model's defaults (mu 25, sigma 25/3), shown as ``rating = 1500 + 42 * (mu - 25)`` and
  ``deviation = 42 * sigma``; a new player is 1500 ± 350, *provisional* ("?") while the deviation is above
  110. An account with no rating row in a family has exactly that.
* What is rated: an ended table whose ``meta`` says ``"rated": true`` and whose every seat is an account: a
  person's or an outside bot's seat linked to it (``seat_owners``), or a built-in bot, rated as the house
  account of its level (kind ``"house"``, named after the level, made when first needed). A table where one
  account holds two seats is not rated.
* The outcome, as ranks of the sides (a partnership is one side): a finished game ranks its winners first,
  then the others by their score; a resigned game puts the side that resigned last (the others as in a
  finished game); an abandoned game puts last the sides that left it: the people's seats with no
  connection open when it was abandoned, or, when all or none of them were connected (a table that went
  idle, a table removed), the people's seats the game was waiting for, who let it lapse. When that names no
  side, or every side, or the game was abandoned before its first move, the table is not rated.
* Once only: every ended rated table is entered in ``rated_tables`` with its ratings' change, in one
  transaction; a table already there is never rated again (a server started afresh catches up with the
  rated tables that ended before their rating was stored).
* The house bots start from a rating measured on the bot ladder (:data:`HOUSE_START`), not from 1500, with a
  deviation of :data:`HOUSE_DEVIATION`, and move with their games like anybody's.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from muggins.core.rules import all_games
from muggins.server.store import (
    ENDED,
    Store,
    accounts_t,
    rated_tables_t,
    rating_history_t,
    ratings_t,
    seat_owners_t,
    tables_t,
)
from muggins.server.tables import BOT_LEVELS, GameTable, TableError, TableManager

log = logging.getLogger("muggins.server")

MODEL = PlackettLuce()
BASE, SCALE = 1500.0, 42.0
PROVISIONAL = 110.0     # a deviation above this is shown with "?"
# the families are the registered games (a game's rating is its own, whatever its preset)
FAMILIES: tuple[str, ...] = tuple(all_games())
# the rating each house bot starts with, per family: the bot ladder measured by benchmarks/house_ratings.py
# (`muggins tournament --players 2 --bots beginner,casual,club,expert --seed 2026` in each game's default
# preset; its Elo ratings carried onto this scale by the model's own odds, the levels' mean at 1500), kept as
# data in house_ratings.json. Figures and commands: benchmarks/README.md, "House bot ratings"
HOUSE_START: dict[str, dict[str, float]] = json.loads(
    (Path(__file__).with_name("house_ratings.json")).read_text(encoding="utf-8"))
HOUSE_DEVIATION = 100.0  # a measured start: not provisional, and it moves less than a newcomer's


def family_of(game: Any) -> str | None:
    """The rating family of a game name (or a family's own name), None for anything else."""
    if not isinstance(game, str):
        return None
    key = game.strip().lower()
    return key if key in FAMILIES else None


def shown(mu: float, sigma: float) -> tuple[float, float]:
    """The displayed rating and deviation of the model's figures."""
    return BASE + SCALE * (mu - MODEL.mu), SCALE * sigma


def figures(rating: float, deviation: float, games: int) -> dict[str, Any]:
    return {"rating": round(rating), "deviation": round(deviation), "games": games,
            "provisional": deviation > PROVISIONAL}


def rating_of(store: Store, account_id: int, family: str) -> dict[str, Any]:
    """``{"rating", "deviation", "games", "provisional"}`` of an account in a family (1500 ± 350 and 0 games
    without a rating yet; a house bot its starting rating)."""
    with store.engine.connect() as conn:
        row = conn.execute(select(ratings_t.c.rating, ratings_t.c.deviation, ratings_t.c.games).where(
            ratings_t.c.account_id == account_id, ratings_t.c.family == family)).first()
        if row is not None:
            return figures(row[0], row[1], int(row[2]))
        kind = conn.execute(select(accounts_t.c.kind, accounts_t.c.username)
                            .where(accounts_t.c.id == account_id)).first()
    mu, sigma = start_of(family, kind[1] if kind is not None and kind[0] == "house" else None)
    return figures(*shown(mu, sigma), 0)


def start_of(family: str, level: str | None) -> tuple[float, float]:
    """The model's figures before any game: a house bot's measured start, anybody else's default."""
    start = HOUSE_START.get(family, {}).get(level or "")
    if start is None:
        return MODEL.mu, MODEL.sigma
    return MODEL.mu + (start - BASE) / SCALE, HOUSE_DEVIATION / SCALE


def side_ranks(side_scores: list[int], first: Iterable[int], last: Iterable[int] = ()) -> list[int]:
    """The rank of each side (0 best; equal ranks tie): the sides in ``first`` ahead, those in ``last``
    behind, each group ordered by score."""
    first, last = set(first), set(last)

    def key(k: int) -> tuple[int, int]:
        return (0 if k in first else 2 if k in last else 1), -side_scores[k]

    keys = [key(k) for k in range(len(side_scores))]
    distinct = sorted(set(keys))
    return [distinct.index(x) for x in keys]


def outcome(table: GameTable) -> tuple[list[int] | None, str]:
    """The ranks of the table's sides for rating, and the outcome's name ("finished", "resigned",
    "abandoned"); ranks None (with why) when the ending says nothing about who was better."""
    st = table.state
    scores = list(st.side_scores())
    status = table.status
    if status == "finished":
        return side_ranks(scores, {st.side_of(s) for s in st.winners()}), status
    if status == "resigned" and table.resigned is not None:
        winners = table.result()["winners"]
        return side_ranks(scores, {st.side_of(s) for s in winners}, {st.side_of(table.resigned)}), status
    if status == "abandoned" and not st.history:
        return None, "abandoned before its first move"
    if status == "abandoned":
        people = [i for i, s in enumerate(table.seats) if s.bot is None]
        connected = {c.seat for c in table.conns if c.seat is not None}
        gone = [i for i in people if i not in connected]
        if not gone or len(gone) == len(people):  # nobody there, or everybody: who let the game lapse
            waited = st.waiting_for() or st.to_act()
            gone = [i for i in people if i in waited]
        losers = {st.side_of(i) for i in gone}
        if not losers or len(losers) == st.num_sides:
            return None, "nobody or everybody left"
        return side_ranks(scores, (), losers), status
    return None, f"the table is {status}"


class Ratings:
    """The ratings of one store: the end listener that rates tables, and what profiles read."""

    def __init__(self, store: Store, manager: TableManager) -> None:
        self.store = store
        self.manager = manager

    # --- accounts ---------------------------------------------------------------------------------------
    def house_account(self, level: str) -> int:
        """The id of the house account of a bot level, made when first needed."""
        def find(conn: Any) -> Any:
            return conn.execute(select(accounts_t.c.id).where(accounts_t.c.username_key == level)).scalar()

        with self.store.engine.connect() as conn:
            found = find(conn)
        if found is None:
            try:
                with self.store.engine.begin() as conn:
                    made: Any = conn.execute(insert(accounts_t).values(
                        username=level, username_key=level, password_hash="!house", created=time.time(),
                        kind="house")).inserted_primary_key
                    found = made[0]
            except IntegrityError:  # made by another process at the same moment
                with self.store.engine.connect() as conn:
                    found = find(conn)
        return int(found)

    def seat_accounts(self, table: GameTable) -> tuple[list[int] | None, dict[int, str]]:
        """The account of each seat (None when a seat has none), and the level of each house account
        among them."""
        with self.store.engine.connect() as conn:
            owners = dict(conn.execute(select(seat_owners_t.c.seat, seat_owners_t.c.account_id)
                                       .where(seat_owners_t.c.table_id == table.id)).all())
        out: list[int] = []
        levels: dict[int, str] = {}
        for i, s in enumerate(table.seats):
            if s.bot is not None:
                if s.bot not in BOT_LEVELS:
                    return None, {}
                aid = self.house_account(s.bot)
                levels[aid] = s.bot
            elif i in owners:
                aid = int(owners[i])
            else:
                return None, {}
            out.append(aid)
        return out, levels

    # --- rating a table ---------------------------------------------------------------------------------
    def on_end(self, table: GameTable) -> None:
        """The end listener: rate the table if it is a rated one."""
        if table.meta.get("rated"):
            self.rate(table)

    def rate(self, table: GameTable) -> bool:
        """Rate an ended rated table once; True when ratings changed. Stored in one transaction with the
        table's entry in ``rated_tables``: a table entered there is left alone."""
        family = family_of(table.game)
        try:
            accounts, levels = self.seat_accounts(table) if family is not None else (None, {})
            with self.store.engine.begin() as conn:
                if conn.execute(select(rated_tables_t.c.table_id)
                                .where(rated_tables_t.c.table_id == table.id)).first() is not None:
                    return False
                changed = self._rate(conn, table, family, accounts, levels)
        except IntegrityError:  # entered by another process meanwhile
            return False
        except SQLAlchemyError:
            log.exception("table %s: its ratings could not be stored", table.id)
            return False
        return changed

    def _rate(self, conn: Any, table: GameTable, family: str | None, accounts: list[int] | None,
              levels: dict[int, str]) -> bool:
        now = time.time()

        def enter(outcome_name: str, note: str | None = None) -> None:
            conn.execute(insert(rated_tables_t).values(table_id=table.id, family=family, outcome=outcome_name,
                                                       note=note[:200] if note else None, at=now))

        ranks, what = outcome(table)
        why = ("not a game with ratings" if family is None else "a seat without an account" if accounts is None
               else "an account at two seats" if len(set(accounts)) < len(accounts) else what if ranks is None
               else None)
        if why is not None or accounts is None or ranks is None or family is None:
            enter("unrated", why)
            log.info("table %s is not rated: %s", table.id, why)
            return False
        st = table.state
        rows = {r["account_id"]: r for r in conn.execute(select(ratings_t).where(
            ratings_t.c.account_id.in_(accounts), ratings_t.c.family == family)).mappings()}
        players = {}
        for aid in accounts:
            r = rows.get(aid)
            mu, sigma = (r["mu"], r["sigma"]) if r is not None else start_of(family, levels.get(aid))
            players[aid] = MODEL.rating(mu=mu, sigma=sigma)
        sides = [[i for i in range(len(accounts)) if st.side_of(i) == k] for k in range(st.num_sides)]
        teams = [[players[accounts[i]] for i in side] for side in sides]
        rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
        enter(what)
        for side, new_team in zip(sides, rated, strict=True):
            for i, new in zip(side, new_team, strict=True):
                aid = accounts[i]
                rating, deviation = shown(new.mu, new.sigma)
                values = {"rating": rating, "deviation": deviation, "mu": new.mu, "sigma": new.sigma,
                          "updated": now}
                if aid in rows:
                    conn.execute(update(ratings_t).where(ratings_t.c.account_id == aid,
                                                         ratings_t.c.family == family)
                                 .values(games=rows[aid]["games"] + 1, **values))
                else:
                    conn.execute(insert(ratings_t).values(account_id=aid, family=family, games=1, **values))
                conn.execute(insert(rating_history_t).values(account_id=aid, family=family, table_id=table.id,
                                                             rating=rating, deviation=deviation, at=now))
        log.info("table %s rated (%s, %s)", table.id, family, what)
        return True

    def catch_up(self) -> int:
        """Rate the rated tables that ended before their rating was stored (a server stopped in between);
        returns how many were rated."""
        with self.store.engine.connect() as conn:
            ids = [tid for tid, meta in conn.execute(
                select(tables_t.c.id, tables_t.c.meta).where(
                    tables_t.c.status.in_(ENDED), tables_t.c.quarantined.is_(None),
                    tables_t.c.id.not_in(select(rated_tables_t.c.table_id)))).all()
                   if _rated(meta)]
        done = 0
        for tid in ids:
            try:
                done += self.rate(self.manager.get(tid))
            except TableError as e:
                log.error("table %s cannot be rated: %s", tid, e)
        return done


def _rated(meta: Any) -> bool:
    if isinstance(meta, str):
        import json

        try:
            meta = json.loads(meta)
        except ValueError:
            return False
    return isinstance(meta, dict) and bool(meta.get("rated"))


def expected_score(a: tuple[float, float], b: tuple[float, float]) -> float:
    """The chance that a player of displayed rating and deviation ``a`` beats one of ``b`` (two players),
    by the model."""
    pa = MODEL.rating(mu=MODEL.mu + (a[0] - BASE) / SCALE, sigma=a[1] / SCALE)
    pb = MODEL.rating(mu=MODEL.mu + (b[0] - BASE) / SCALE, sigma=b[1] / SCALE)
    return float(MODEL.predict_win([[pa], [pb]])[0])


def elo_to_scale(elo_diff: float, deviation: float = HOUSE_DEVIATION) -> float:
    """The difference on this scale that gives the same chance of winning as ``elo_diff`` Elo points
    between two players of ``deviation`` (how the ladder's Elo ratings become :data:`HOUSE_START`)."""
    target = 1.0 / (1.0 + 10.0 ** (-elo_diff / 400.0))
    lo, hi = -3000.0, 3000.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if expected_score((BASE + mid, deviation), (BASE, deviation)) < target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2
