"""The clock of a ranked table: a time for each move plus a small bank.

A table whose ``meta`` has ``"clock": {"move": seconds, "bank": seconds}`` times its people (bots have
no clock). While the game waits for a seat, that seat's move time runs; time taken past it comes out of
the seat's bank. A seat whose move time and bank are both spent (connected or not) gets the game's safe
default move (:func:`default_action`: pass, draw or go where the game offers one, else its lowest legal
play, announcing nothing), its bank is empty from then on, and after :data:`TIMEOUT_LIMIT` such moves it
loses the game (it resigns). Nothing runs while the table holds a hand's end on screen.

Everything about the clock is public and the same for every seat and spectator: who is waited for (the
game's ``waiting_for``) and how long each took. The state message carries it as ``clock``::

    {"move": 20, "bank": 60, "limit": 3, "running": [seat, ...],
     "seats": [{"bank": seconds, "left": seconds or null, "timeouts": n} or null (a bot), ...]}

where ``left`` is what a running seat has left, this move's time and its bank together.

The banks and the count of clock moves are stored (``table_clocks``) each time they change, so a
restarted server goes on with them; the move under way when it stopped starts again from its full move
time (the time it had taken is not charged).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, insert, select

from muggins.bots.base import CLAIM_KINDS, regular_actions
from muggins.core.protocol import Action, GameState
from muggins.server import seating
from muggins.server.store import StoreUnavailable, clocks_t

if TYPE_CHECKING:
    from muggins.server.tables import GameTable, TableManager

log = logging.getLogger("muggins.server")
DEFAULT_CLOCK = {"move": 20.0, "bank": 60.0}
TIMEOUT_LIMIT = 3     # moves made by the clock for one seat before that seat loses the game
SAFE_KINDS = ("pass", "draw", "go", "knock", "count")
RETRY_SECONDS = 1.0   # a clock move that could not be stored is tried again after this long


def clock_for(game: str, preset: str) -> dict[str, float]:
    """The clock ranked play gives a table of this game and preset (the same for all, unless the server sets
    another for a preset: ``Matchmaker.clocks``)."""
    return dict(DEFAULT_CLOCK)


def _weight(subject: Any) -> float:
    """How "low" a played piece is: a tile's pips, a card's rank, the sum of several."""
    if isinstance(subject, (tuple, list)):
        return sum(_weight(x) for x in subject)
    for attr in ("pips", "rank"):
        value = getattr(subject, attr, None)
        if isinstance(value, int):
            return value
    return 0


def default_action(state: GameState, seat: int) -> Action | None:
    """The safe move the clock makes for ``seat``: pass, draw, go or count where the game offers it, else
    the lowest of its legal plays (ties broken by the move's text), with nothing announced. None when the
    game does not wait for the seat."""
    if seat not in state.waiting_for():
        return None
    regular = regular_actions(state, seat)
    if not regular:
        return None
    pool = [a for a in regular if a.kind in SAFE_KINDS] or regular
    best = min(pool, key=lambda a: (_weight(a.subject), str(state.action_to_json(seat, a)["move"])))
    return best.with_claim(None)


class Clock:
    """The clock of one table."""

    def __init__(self, table: GameTable, move: float, bank: float, banks: list[float], timeouts: list[int],
                 limit: int) -> None:
        self.table = table
        self.move = move
        self.bank = bank
        self.banks = banks
        self.timeouts = timeouts
        self.limit = limit
        self.since: dict[int, float] = {}  # running seats: when their move began (the manager's clock)
        self.seen = len(table.state.history)
        self.timer: asyncio.TimerHandle | None = None
        self._shown: tuple[int, dict[str, Any]] | None = None

    def timed(self, seat: int) -> bool:
        return self.table.seats[seat].bot is None

    def deadline(self, seat: int) -> float:
        return self.since[seat] + self.move + self.banks[seat]

    def public(self, fresh: bool = True) -> dict[str, Any]:
        """The clock as the state message carries it; unless ``fresh``, the one built for the same change
        is given again, so that every connection told of one change gets the same."""
        version = self.table.version
        if not fresh and self._shown is not None and self._shown[0] == version:
            return self._shown[1]
        now = self.table.manager.clock()
        seats: list[dict[str, Any] | None] = []
        for i in range(len(self.table.seats)):
            if not self.timed(i):
                seats.append(None)
                continue
            left = round(max(0.0, self.deadline(i) - now), 1) if i in self.since else None
            seats.append({"bank": round(self.banks[i], 1), "left": left, "timeouts": self.timeouts[i]})
        out = {"move": self.move, "bank": self.bank, "limit": self.limit, "running": sorted(self.since),
               "seats": seats}
        self._shown = (version, out)
        return out

    # --- following the game --------------------------------------------------------------------------
    def update(self) -> None:
        """After a change of the table: charge the seats that moved (or are no longer waited for) for the
        time they took past their move time, start the clock of the seats now waited for, and set the
        timer for the first of them to run out."""
        t = self.table
        now = t.manager.clock()
        st = t.state
        # a Muggins! call or a late claim is not the seat's move: its time runs on
        acted = {seat for seat, action in st.history[self.seen:] if action.kind not in CLAIM_KINDS}
        self.seen = len(st.history)
        playing = t.status == "playing"
        waiting = set(st.waiting_for()) if playing and not t.pausing() else set()
        charged = False
        for seat in list(self.since):
            if seat not in waiting or seat in acted:
                over = now - self.since.pop(seat) - self.move
                if over > 0:
                    self.banks[seat] = max(0.0, self.banks[seat] - over)
                    charged = True
        for seat in waiting:
            if self.timed(seat) and seat not in self.since:
                self.since[seat] = now
        if charged:
            self.save()
        self.arm()

    def arm(self) -> None:
        self.cancel()
        if not self.since or self.table.manager.closing:
            return
        wait = min(self.deadline(s) for s in self.since) - self.table.manager.clock()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a test driving the table directly): nothing runs out
            return
        self.timer = loop.call_later(max(0.0, wait), self.run_out)

    def cancel(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def run_out(self) -> None:
        """The timer: every running seat whose time is spent gets its default move."""
        self.timer = None
        t = self.table
        if t.manager.tables.get(t.id) is not t:  # no longer served by this process (or server)
            return
        now = t.manager.clock()
        for seat in sorted(self.since):
            if seat in self.since and self.deadline(seat) <= now + 1e-3 and t.status == "playing":
                self.time_out(seat)
        if self.timer is None:
            self.arm()

    def time_out(self, seat: int) -> None:
        """``seat`` ran out of time: its default move is made for it; at the limit it loses the game."""
        t = self.table
        action = default_action(t.state, seat)
        if action is None:  # not waited for after all (the game moved on this instant)
            self.since.pop(seat, None)
            return
        from muggins.server.tables import TableError

        banks, timeouts = list(self.banks), list(self.timeouts)
        self.since.pop(seat)
        self.banks[seat] = 0.0
        self.timeouts[seat] += 1
        try:
            self.save(strict=True)
            t._apply(seat, action)
        except (StoreUnavailable, TableError) as e:  # nothing was changed: tried again in a moment
            log.warning("table %s: the clock's move for seat %d was not stored (%s); trying again", t.id, seat, e)
            self.banks, self.timeouts = banks, timeouts
            self.save()
            self.since[seat] = t.manager.clock() - self.move - self.banks[seat] + RETRY_SECONDS
            return
        log.info("table %s: seat %d ran out of time (%d of %d); the clock played %s", t.id, seat,
                 self.timeouts[seat], self.limit, action)
        if self.timeouts[seat] >= self.limit and t.status == "playing":
            try:
                seating.resign(t, seat)
            except Exception:
                log.exception("table %s: seat %d ran out of time too often but could not be resigned", t.id, seat)

    # --- the store -----------------------------------------------------------------------------------
    def save(self, strict: bool = False) -> None:
        """Store the banks and the clock moves (replacing what was stored); a failure is logged (the clock
        goes on from memory), or raised with ``strict``."""
        tid, banks, timeouts = self.table.id, list(self.banks), list(self.timeouts)

        def work(conn: Any) -> None:
            with conn.begin():
                conn.execute(delete(clocks_t).where(clocks_t.c.table_id == tid))
                conn.execute(insert(clocks_t).values(table_id=tid, banks=banks, timeouts=timeouts,
                                                     updated=time.time()))

        try:
            self.table.manager.store._write("the clock", work)
        except StoreUnavailable:
            if strict:
                raise
            log.warning("table %s: its clock was not stored; it goes on from memory", tid)


def load_clock(table: GameTable, limit: int = TIMEOUT_LIMIT) -> Clock | None:
    """The clock of ``table`` as stored (full banks when nothing is), or None for a table without one."""
    spec = table.meta.get("clock") if isinstance(table.meta, dict) else None
    if not isinstance(spec, dict):
        return None
    move, bank = float(spec.get("move", DEFAULT_CLOCK["move"])), float(spec.get("bank", DEFAULT_CLOCK["bank"]))
    n = len(table.seats)
    banks, timeouts = [bank] * n, [0] * n
    try:
        with table.manager.store.engine.connect() as conn:
            row = conn.execute(select(clocks_t.c.banks, clocks_t.c.timeouts)
                               .where(clocks_t.c.table_id == table.id)).first()
    except Exception:
        log.exception("table %s: its stored clock could not be read; full banks are given", table.id)
        row = None
    if row is not None and isinstance(row[0], list) and len(row[0]) == n and len(row[1]) == n:
        banks = [max(0.0, min(bank, float(x))) for x in row[0]]
        timeouts = [max(0, int(x)) for x in row[1]]
    return Clock(table, move, bank, banks, timeouts, limit)


class ClockKeeper:
    """Follows every table of a manager: a table with a clock in its ``meta`` gets one (read back from the
    store after a restart), kept up to date after each change."""

    def __init__(self, manager: TableManager, limit: int = TIMEOUT_LIMIT) -> None:
        self.limit = limit
        manager.change_listeners.append(self.follow)

    def follow(self, table: GameTable) -> None:
        if table.clock is None:
            if not table.meta.get("clock"):
                return
            table.clock = load_clock(table, self.limit)
            if table.clock is None:
                return
        table.clock.update()
