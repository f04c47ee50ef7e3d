"""Tables in play: the game state, the seats, the connections watching, and the bots' timers.

Everything a table does goes through the game protocol: ``parse_action``/``apply`` validate, ``view``
and ``events_for`` give each connection exactly what its seat may know. A table is driven from the
event loop only; the single-threaded loop is what serialises actions on one table.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from muggins.bots.bot import AttentiveBot
from muggins.bots.registry import LEVELS, make_bot
from muggins.core.chance import Chance
from muggins.core.errors import IllegalAction, MugginsError, RecordError, RulesError
from muggins.core.protocol import Action, GameState
from muggins.core.records import apply_record_action, to_record
from muggins.core.rules import get_game
from muggins.server.store import Store, StoredTable

log = logging.getLogger("muggins.server")
MAX_MOVE_CHARS = 200
RESYNC_AFTER = 32
MAX_NAME_CHARS = 40
DEFAULT_GRACE = 3.0
DEFAULT_BOT_DELAY = 0.8
BOT_LEVELS = tuple(LEVELS)


class TableError(Exception):
    """A request about a table that cannot be met; ``status`` is the HTTP status that fits."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class RateLimiter:
    """A token bucket: ``rate`` messages a second on average, bursts up to ``burst``."""

    __slots__ = ("burst", "last", "level", "rate")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.level = burst
        self.last = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.last) * self.rate)
        self.last = now
        if self.level >= 1.0:
            self.level -= 1.0
            return True
        return False


class Connection:
    """One WebSocket (or test) client of a table: a seat or a spectator, with its outgoing queue."""

    def __init__(self, seat: int | None, send: Callable[[dict[str, Any]], Any] | None = None,
                 queue_size: int = 256) -> None:
        self.seat = seat
        self.log_pos = 0
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(maxsize=queue_size)
        self.send = send
        self.closed = False

    def push(self, msg: dict[str, Any]) -> None:
        """Queue a message; a client too slow to keep up loses its connection rather than the table waiting."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(msg)
        except asyncio.QueueFull:
            log.warning("a client fell %d messages behind; closing its connection", self.queue.qsize())
            self.close()

    def behind(self) -> bool:
        """Many state updates wait unsent: the next one should replace them all (see :meth:`resync`)."""
        return self.queue.qsize() >= RESYNC_AFTER

    def resync(self) -> None:
        """Drop the queued state updates (keeping acks and errors); the next update then carries the
        whole event log, which the client takes as a fresh start."""
        kept = []
        while not self.queue.empty():
            m = self.queue.get_nowait()
            if m is None or m.get("type") != "state":
                kept.append(m)
        for m in kept:
            self.queue.put_nowait(m)
        self.log_pos = 0

    def close(self) -> None:
        self.closed = True
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)


@dataclass
class Seat:
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    bot_obj: AttentiveBot | None = field(default=None, repr=False)

    def to_store(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot, "token_hash": self.token_hash}

    def public(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot, "open": self.bot is None and self.token_hash is None}


class GameTable:
    """One table: a game in progress (or waiting for players, or over)."""

    def __init__(self, manager: TableManager, stored: StoredTable, state: GameState) -> None:
        self.manager = manager
        self.id = stored.id
        self.game = stored.game
        self.preset = stored.preset
        self.options = stored.options
        self.seed = stored.seed
        self.grace = stored.grace
        self.bot_delay = stored.bot_delay
        self.created = stored.created
        self.state = state
        self.seats = [Seat(s.get("name"), s.get("bot"), s.get("token_hash")) for s in stored.seats]
        for i, s in enumerate(self.seats):
            if s.bot is not None:
                s.bot_obj = make_bot(s.bot, (self.seed + 7919 * (i + 1)) % (2**63))
                if s.name is None:
                    s.name = f"{s.bot.capitalize()} bot"
        self.saved_chance = len(state.chance.outcomes)
        self.conns: set[Connection] = set()
        self.version = 0
        self.bot_tasks: dict[int, asyncio.Task[None]] = {}
        self.bot_rng = random.Random(self.seed ^ 0x5EED)
        self.grace_until: float | None = None

    # --- status -------------------------------------------------------------------------------------
    @property
    def status(self) -> str:
        if self.state.is_over():
            return "finished"
        if any(s.bot is None and s.token_hash is None for s in self.seats):
            return "open"
        return "playing"

    def summary(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "preset": self.state.rules.preset, "options": self.options,
                "status": self.status, "seats": [s.public() for s in self.seats], "scores": self.state.scores(),
                "grace": self.grace, "bot_delay": self.bot_delay, "actions": len(self.state.history),
                "spectators": sum(1 for c in self.conns if c.seat is None)}

    def record(self) -> dict[str, Any]:
        if not self.state.is_over():
            raise TableError("the game is not over yet; a record holds every hidden card, so it is "
                             "given only for finished games", 409)
        return to_record(self.state, players=[{"name": s.name or f"Seat {i}", **({"bot": s.bot} if s.bot else {})}
                                              for i, s in enumerate(self.seats)],
                         meta={"table": self.id})

    # --- seats --------------------------------------------------------------------------------------
    def take_seat(self, seat: int, name: str) -> str:
        if not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise TableError(f"no seat {seat} at this table (seats 0-{len(self.seats) - 1})", 404)
        name = name.strip()
        if not name or len(name) > MAX_NAME_CHARS or not name.isprintable():
            raise TableError(f"a name must be 1-{MAX_NAME_CHARS} printable characters", 422)
        s = self.seats[seat]
        if s.bot is not None:
            raise TableError(f"seat {seat} is played by a bot", 409)
        if s.token_hash is not None:
            raise TableError(f"seat {seat} is taken", 409)
        token = secrets.token_urlsafe(24)
        s.name, s.token_hash = name, hash_token(token)
        self.manager.store.update_seats(self.id, [x.to_store() for x in self.seats], self.status)
        self.changed()
        return token

    def seat_of_token(self, token: str) -> int:
        h = hash_token(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return i
        raise TableError("this seat token is not valid at this table", 403)

    # --- messages -----------------------------------------------------------------------------------
    def message_for(self, conn: Connection, summary: dict[str, Any] | None = None) -> dict[str, Any]:
        """The full update for one connection: its seat's view and the events it has not yet seen."""
        st = self.state
        events = st.events_for(conn.seat, conn.log_pos)
        start = conn.log_pos
        conn.log_pos = len(st.log)
        msg: dict[str, Any] = {
            "type": "state", "table": summary if summary is not None else self.summary(), "you": conn.seat,
            "view": st.view(conn.seat),
            "events": events, "event_start": start,
        }
        return msg

    def _grace_left(self) -> float | None:
        if self.grace_until is None:
            return None
        left = self.grace_until - time.monotonic()
        return round(left, 3) if left > 0 else None

    def attach(self, conn: Connection) -> None:
        self.conns.add(conn)
        conn.push(self.message_for(conn))

    def detach(self, conn: Connection) -> None:
        self.conns.discard(conn)

    def broadcast(self) -> None:
        summary = self.summary()  # the same for everybody: built once
        for c in list(self.conns):
            if c.behind():
                c.resync()
            c.push(self.message_for(c, summary))

    def changed(self) -> None:
        """After any change: tell everybody, then let the bots think again."""
        self.version += 1
        self.schedule_bots()
        self.broadcast()

    # --- actions ------------------------------------------------------------------------------------
    def act(self, seat: int, move: Any, claim: Any) -> int:
        """Validate and apply one action, commit it, and return its index; raises TableError or
        IllegalAction leaving everything unchanged."""
        if self.status == "open":
            raise TableError("the game starts when every seat is taken", 409)
        if not isinstance(move, str) or not move.strip() or len(move) > MAX_MOVE_CHARS:
            raise TableError(f"'move' must be the text of a move (1-{MAX_MOVE_CHARS} characters)")
        if claim is not None and (not isinstance(claim, int) or isinstance(claim, bool) or not 0 <= claim <= 10**6):
            raise TableError("'claim' must be a non-negative integer or null")
        st = self.state
        action = st.parse_action(move, seat)
        if claim is not None:
            action = action.with_claim(claim)
        return self._apply(seat, action)

    def _apply(self, seat: int, action: Action) -> int:
        st = self.state
        st.apply(seat, action)
        idx = len(st.history) - 1
        entry = st.action_to_json(seat, st.history[-1][1])
        grew = len(st.chance.outcomes) > self.saved_chance
        status = self.status
        try:
            self.manager.store.append_action(
                self.id, idx, seat, entry["move"], entry.get("claim"),
                [dict(o) for o in st.chance.outcomes] if grew else None,
                status if grew or status != "playing" else None)
        except Exception:
            st.undo(1)
            raise
        if grew:
            self.saved_chance = len(st.chance.outcomes)
        self._update_grace(seat)
        self.changed()
        return idx

    def _human_may_call(self) -> bool:
        """A person at the table could take points now: an unclaimed (or wrongly claimed) score. The
        grace period is never announced: telling a player that something was missed would do his
        noticing for him."""
        st = self.state
        return any(s.bot is None and st.muggable(i) > 0 for i, s in enumerate(self.seats))

    def _update_grace(self, seat: int) -> None:
        """Open the grace period after a score a person may still take; close it once nothing is left."""
        if self.grace > 0 and self._human_may_call():
            self.grace_until = time.monotonic() + self.grace
        else:
            self.grace_until = None

    # --- bots ---------------------------------------------------------------------------------------
    def schedule_bots(self) -> None:
        for task in self.bot_tasks.values():
            task.cancel()
        self.bot_tasks.clear()
        if self.status != "playing" or self.manager.closing:
            return
        st = self.state
        acting = st.to_act()
        for i, s in enumerate(self.seats):
            if s.bot_obj is not None and i in acting:
                self.bot_tasks[i] = asyncio.get_running_loop().create_task(self._bot_turn(i, self.version))

    def delay_for(self, seat: int, action: Action) -> float:
        """Seconds before a bot's action: its reaction time for a muggins call; otherwise the table's bot
        delay, stretched to the end of the grace period while a person could still call Muggins."""
        bot = self.seats[seat].bot_obj
        if action.kind == "muggins" and bot is not None:
            delay = bot.reaction_delay(self.bot_rng)
        else:
            delay = self.bot_delay
            left = self._grace_left()
            if left is not None:
                delay = max(delay, left)
        return delay * self.manager.time_scale

    async def _bot_turn(self, seat: int, version: int) -> None:
        bot = self.seats[seat].bot_obj
        assert bot is not None
        st = self.state
        if bot.policy.__class__.__name__ == "SearchPolicy":  # a search takes long: off the event loop
            action = await asyncio.to_thread(bot.act, st.clone(), seat, self.bot_rng)
        else:
            action = bot.act(st, seat, self.bot_rng)
        if action is None or version != self.version:
            return
        delay = self.delay_for(seat, action)
        if delay > 0:
            await asyncio.sleep(delay)
        if version != self.version:
            return
        self.bot_tasks.pop(seat, None)
        try:
            self._apply(seat, action)
        except IllegalAction as e:
            log.warning("table %s: bot at seat %d chose an illegal %r: %s", self.id, seat, action, e)
        except Exception:
            log.exception("table %s: bot at seat %d failed", self.id, seat)

    def cancel(self) -> None:
        for task in self.bot_tasks.values():
            task.cancel()
        self.bot_tasks.clear()
        for c in list(self.conns):
            c.close()


class TableManager:
    """Every table of the server, loaded from the store at start and kept in memory."""

    def __init__(self, store: Store, time_scale: float = 1.0) -> None:
        self.store = store
        self.time_scale = time_scale  # multiplies every bot delay (0 in tests: bots answer at once)
        self.tables: dict[str, GameTable] = {}
        self.closing = False

    def load(self) -> int:
        """Rebuild every stored table: the same seed redraws the same deals, and the actions replay."""
        for stored in self.store.load_all():
            spec = get_game(stored.game)
            rules = spec.rules(stored.preset, stored.options)
            state = spec.new(rules, stored.num_players, chance=Chance(seed=stored.seed))
            for i, entry in enumerate(stored.actions):
                apply_record_action(state, i, entry)
            drawn = [dict(o) for o in state.chance.outcomes]
            if drawn[: len(stored.chance)] != stored.chance:
                raise RecordError(f"table {stored.id}: the stored chance outcomes differ from the replayed ones")
            self.tables[stored.id] = GameTable(self, stored, state)
        return len(self.tables)

    def start(self) -> None:
        for t in self.tables.values():
            t.schedule_bots()

    def shutdown(self) -> None:
        self.closing = True
        for t in self.tables.values():
            t.cancel()

    def get(self, table_id: str) -> GameTable:
        t = self.tables.get(table_id)
        if t is None:
            raise TableError(f"no table {table_id!r}", 404)
        return t

    def create(self, game: Any, preset: Any = None, options: Any = None, seats: Any = None,
               grace: Any = DEFAULT_GRACE, bot_delay: Any = DEFAULT_BOT_DELAY) -> GameTable:
        """A new table. ``seats`` lists each seat: null (open for a person) or a bot level."""
        if not isinstance(game, str):
            raise TableError("'game' must be a game name", 422)
        try:
            spec = get_game(game)
        except RulesError as e:
            raise TableError(str(e), 422) from None
        if preset is not None and not isinstance(preset, str):
            raise TableError("'preset' must be a preset name", 422)
        options = {} if options is None else options
        if not isinstance(options, dict) or len(options) > 64:
            raise TableError("'options' must be an object of rule options", 422)
        seats = [None] * spec.default_players if seats is None else seats
        if not isinstance(seats, list) or not spec.min_players <= len(seats) <= spec.max_players:
            raise TableError(f"'seats' must list {spec.min_players}-{spec.max_players} seats", 422)
        for s in seats:
            if s is not None and s not in BOT_LEVELS:
                raise TableError(f"a seat is null (open) or a bot level: {', '.join(BOT_LEVELS)}; got {s!r}", 422)
        for name, value, top in (("grace", grace, 60.0), ("bot_delay", bot_delay, 30.0)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= top:
                raise TableError(f"'{name}' must be a number of seconds from 0 to {top:g}", 422)
        seed = secrets.randbits(62)
        try:
            rules = spec.rules(preset, options)
            state = spec.new(rules, len(seats), chance=Chance(seed=seed))
        except (RulesError, MugginsError) as e:
            raise TableError(str(e), 422) from None
        seat_rows = [{"name": None, "bot": s, "token_hash": None} for s in seats]
        stored = StoredTable(id=secrets.token_urlsafe(9), game=game, preset=rules.preset, options=dict(options),
                             num_players=len(seats), seed=seed, grace=float(grace), bot_delay=float(bot_delay),
                             seats=seat_rows, chance=[dict(o) for o in state.chance.outcomes], status="open",
                             created=time.time(), actions=[])
        table = GameTable(self, stored, state)
        stored.status = table.status
        self.store.create_table(stored)
        self.tables[table.id] = table
        table.schedule_bots()
        return table

    def listing(self) -> list[dict[str, Any]]:
        return [t.summary() for t in sorted(self.tables.values(), key=lambda t: -t.created)]
