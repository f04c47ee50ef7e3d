"""Tables in play: the game state, the seats, the connections watching, and the bots' timers.

Everything a table does goes through the game protocol: ``parse_action``/``apply`` validate, ``view``
and ``events_for`` give each connection exactly what its seat may know. A table is driven from the
event loop only; the single-threaded loop is what serialises actions on one table.

Timing is public too: how long a bot waits before it acts depends only on what everybody can see (the
table's settings, whether a muggins window is open that a seated person may call on), never on whether
points were missed or on anything in a hand.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import hashlib
import itertools
import json
import logging
import math
import random
import re
import secrets
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from muggins.bots.base import regular_actions
from muggins.bots.bot import AttentiveBot
from muggins.bots.names import BOT_NICKNAMES, table_names
from muggins.bots.policies import GreedyPolicy
from muggins.bots.registry import LEVELS, make_bot
from muggins.core.chance import Chance
from muggins.core.claims import check_points
from muggins.core.errors import BadAmount, IllegalAction, MugginsError, RecordError, RulesError
from muggins.core.protocol import Action, GameState
from muggins.core.records import apply_record_action, to_record
from muggins.core.rules import GameSpec, get_game
from muggins.server.handend import HandPause, HandPauses
from muggins.server.metrics import NoMetrics
from muggins.server.seating import resigned_winners
from muggins.server.store import ACTIVE, ENDED, Store, StoreConflict, StoredTable, StoreUnavailable

log = logging.getLogger("muggins.server")
MAX_MOVE_CHARS = 200
MAX_MOVE_DIGITS = 6      # no tile, card or amount needs more; longer numbers never reach the engine
RESYNC_AFTER = 32
MAX_NAME_CHARS = 40
DEFAULT_GRACE = 3.0
DEFAULT_BOT_DELAY = 0.8
DEFAULT_IDLE = 3600.0    # seconds without an action or a connection before a table is abandoned
MAX_ACTIVE_TABLES = 2000
ARCHIVE_CACHE = 16       # ended tables read back from the store and kept for the next request
LIST_LIMIT = 20
MAX_LIST_LIMIT = 100
MAX_QUERY_CHARS = 100
BOT_LEVELS = tuple(LEVELS)
RESERVED_NAME = "you"    # the page calls each player's own seat "You"
# what a bot may be called at any table: "Casual bot 2" or a level and a bot's nickname ("Expert Heron 2")
_BOT_NAME = re.compile(rf"(?:{'|'.join(BOT_LEVELS)}) (?:bot|{'|'.join(BOT_NICKNAMES)})(?: \d+)?", re.IGNORECASE)
_LONG_NUMBER = re.compile(rf"\d{{{MAX_MOVE_DIGITS + 1},}}")


NOT_SAVED = "the database does not answer; nothing was changed, try again in a moment"


class TableError(Exception):
    """A request about a table that cannot be met; ``status`` is the HTTP status that fits."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def name_key(name: str) -> str:
    """How names are compared: trimmed, inner spaces collapsed, case folded."""
    return " ".join(name.split()).casefold()


def quoted(value: Any) -> str:
    """``value`` as an error message may show it: short, and a huge number by its size alone."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 40:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def record_url(table_id: str) -> str:
    return f"/api/tables/{table_id}/record"


_OPENED = itertools.count()


class Connection:
    """One WebSocket (or test) client of a table: a seat or a spectator, with its outgoing queue."""

    def __init__(self, seat: int | None, send: Callable[[dict[str, Any]], Any] | None = None,
                 queue_size: int = 256) -> None:
        self.seat = seat
        self.log_pos = 0
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(maxsize=queue_size)
        self.send = send
        self.closed = False
        self.opened = next(_OPENED)  # the order the connections came in: a seat's oldest leaves first

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
    heir: str | None = None  # kept for a rematch: the hash of the token that held it at the last table
    bot_obj: AttentiveBot | None = field(default=None, repr=False)

    def to_store(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot, "token_hash": self.token_hash,
                **({"heir": self.heir} if self.heir else {})}

    def public(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot,
                "open": self.bot is None and self.token_hash is None and self.heir is None,
                **({"kept": True} if self.heir else {})}


def seats_of(rows: list[dict[str, Any]]) -> list[Seat]:
    """The seats of a stored table, every bot named (tables stored before bots had names get them)."""
    names = table_names([r.get("bot") for r in rows])
    return [Seat(r.get("name") or names[i], r.get("bot"), r.get("token_hash"), r.get("heir"))
            for i, r in enumerate(rows)]


def muggins_rule_of(game: str, preset: str | None, options: dict[str, Any]) -> bool:
    """Whether a game played with these rules has the muggins rule (points announced, calls possible)."""
    try:
        rules = get_game(game).rules(preset, options)
    except MugginsError:
        return False
    return getattr(rules, "claims", "auto") == "manual"


def stored_summary(s: StoredTable) -> dict[str, Any]:
    """The summary of an ended table as the store keeps it: the same fields as
    :meth:`GameTable.summary`, without replaying the game."""
    result = s.result or {}
    return {"id": s.id, "game": s.game, "preset": s.preset, "options": s.options, "status": s.status,
            "seats": [x.public() for x in seats_of(s.seats)], "scores": result.get("scores"),
            "grace": s.grace, "bot_delay": s.bot_delay, "actions": result.get("actions"), "spectators": 0,
            "muggins_rule": muggins_rule_of(s.game, s.preset, s.options), "winners": result.get("winners", []),
            "created": s.created, "ended": s.ended,
            "record": record_url(s.id) if s.status == "finished" else None, "paused": False,
            "hints": s.hints, "resigned": result.get("resigned"), "rematch": result.get("rematch"),
            "rated": bool((s.meta or {}).get("rated"))}


def page_renderer(spec: GameSpec) -> str:
    """The name of the renderer the page draws ``spec``'s table with ("generic": its own for any game)."""
    return spec.page_renderer or "generic"


def fallback_action(state: GameState, seat: int, bot: AttentiveBot, rng: random.Random, where: str
                    ) -> Action | None:
    """A safe move for a bot that failed: the greedy bot's (with the failed bot's attention), else the
    first of the regular legal moves; None when the game does not wait for the seat."""
    try:
        return AttentiveBot("greedy", GreedyPolicy(), bot.attention).act(state, seat, rng)
    except Exception:
        log.exception("%s: the greedy move for seat %d failed too; the first legal move is played", where, seat)
    if seat not in state.waiting_for():
        return None
    regular = regular_actions(state, seat)
    return regular[0] if regular else None


class BotRetry:
    """When a bot's move could not be stored, the table's bots are scheduled again after a wait that
    doubles from :attr:`FIRST` to :attr:`MOST` seconds, until a move is stored."""

    FIRST = 0.25
    MOST = 15.0

    def __init__(self) -> None:
        self.delay = 0.0
        self.task: asyncio.Task[None] | None = None

    def failed(self, table: GameTable) -> None:
        self.delay = min(self.MOST, self.delay * 2 or self.FIRST)
        self.cancel()
        self.task = asyncio.get_running_loop().create_task(self._later(table, self.delay))

    async def _later(self, table: GameTable, delay: float) -> None:
        await asyncio.sleep(delay)
        self.task = None
        log.warning("table %s: its bots try again after %.2f s", table.id, delay)
        table.schedule_bots()

    def succeeded(self) -> None:
        self.delay = 0.0

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None


@dataclass
class Staged:
    """An action applied to a copy of a table's state, waiting for its write to be committed."""

    before: GameState  # the table's state when it was staged
    after: GameState   # a copy with the action applied: what is written
    mark: Any          # what the end of a hand needs (HandPauses.before_action)
    seat: int
    action: Action
    write: tuple[Any, ...]  # Store.append_action's arguments


def _quietly(task: asyncio.Task[Any]) -> None:
    """Read the outcome of a task whose caller may be gone, so that its refusal is not reported as an
    exception never retrieved."""
    if not task.cancelled():
        task.exception()


class GameTable(HandPauses):
    """One table: a game in progress (or waiting for players, or over, or abandoned)."""

    def __init__(self, manager: TableManager, stored: StoredTable, state: GameState) -> None:
        self.manager = manager
        self.id = stored.id
        self.game = stored.game
        spec = get_game(stored.game)
        self.renderer = page_renderer(spec)  # the page draws the table with it; it never names a game
        self.piece_noun = list(spec.piece_noun)
        self.preset = stored.preset
        self.options = stored.options
        self.seed = stored.seed
        self.grace = stored.grace
        self.bot_delay = stored.bot_delay
        self.hints = stored.hints
        self.meta: dict[str, Any] = dict(stored.meta or {})  # what kind of table: {"rated": true}, ...
        self.created = stored.created
        self.creator_hash = stored.creator_hash
        self.abandoned = stored.status == "abandoned"
        result = stored.result or {}
        self.resigned: int | None = result.get("resigned") if stored.status == "resigned" else None
        self.rematch_id: str | None = result.get("rematch")
        self.handoffs: dict[str, tuple[int, float]] = {}  # hashed one-time code -> (seat, until)
        self.ended = stored.ended
        self.state = state
        self.seats = seats_of(stored.seats)
        for i, s in enumerate(self.seats):
            if s.bot is not None:
                s.bot_obj = make_bot(s.bot, (self.seed + 7919 * (i + 1)) % (2**63))
        self.saved_chance = len(state.chance.outcomes)
        self.conns: set[Connection] = set()
        self.version = 0
        self.bot_tasks: dict[int, asyncio.Task[None]] = {}
        self.saving = asyncio.Lock()  # held while an action of the table is validated, written and applied
        self.bot_retry = BotRetry()
        self.bot_rng = random.Random(self.seed ^ 0x5EED)
        now = manager.clock()
        self.changed_at = now    # when the last change was made: every bot's wait counts from it
        self.last_active = now   # the last action, connection or disconnection (for idle expiry)
        self.grace_open = False
        self.hand_pause: HandPause | None = None
        self.last_hand_end: dict[str, Any] | None = None  # the public end of the last hand that ended
        self._update_grace()
        self._log_marks: list[int] | None = None  # the log's length before the first action and after each
        self.clock: Any = None  # a ranked table's clock (server/clock.py): its public state goes in every message

    # --- status -------------------------------------------------------------------------------------
    @property
    def status(self) -> str:
        if self.abandoned:
            return "abandoned"
        if self.resigned is not None:
            return "resigned"
        if self.state.is_over():
            return "finished"
        if any(s.bot is None and s.token_hash is None for s in self.seats):
            return "open"
        return "playing"

    @property
    def all_bots(self) -> bool:
        return all(s.bot is not None for s in self.seats)

    @property
    def paused(self) -> bool:
        """A game of bots alone waits while nobody watches it."""
        return self.all_bots and not self.conns and self.status == "playing"

    @property
    def muggins_rule(self) -> bool:
        return getattr(self.state.rules, "claims", "auto") == "manual"

    def result(self) -> dict[str, Any]:
        st = self.state
        if self.resigned is not None:
            return {"scores": st.scores(), "winners": resigned_winners(self), "actions": len(st.history),
                    "resigned": self.resigned, **({"rematch": self.rematch_id} if self.rematch_id else {})}
        return {"scores": st.scores(), "winners": sorted(st.winners()), "actions": len(st.history),
                **({"rematch": self.rematch_id} if self.rematch_id else {})}

    def summary(self) -> dict[str, Any]:
        status = self.status
        return {"id": self.id, "game": self.game, "preset": self.state.rules.preset, "options": self.options,
                "status": status, "seats": [s.public() for s in self.seats], "scores": self.state.scores(),
                "grace": self.grace, "bot_delay": self.bot_delay, "actions": len(self.state.history),
                "spectators": self.spectators(),
                "muggins_rule": self.muggins_rule, "winners": self.result()["winners"],
                "created": self.created, "ended": self.ended,
                "record": record_url(self.id) if status == "finished" else None, "paused": self.paused,
                "hints": self.hints, "resigned": self.resigned, "rematch": self.rematch_id,
                "rated": bool(self.meta.get("rated"))}

    def matches(self, q: str) -> bool:
        """Whether ``q`` (any case) is part of the id, the game, the preset or a player's name."""
        q = q.casefold()
        return any(q in str(x).casefold() for x in (self.id, self.game, self.state.rules.preset,
                                                     *(s.name for s in self.seats if s.name)))

    def record(self) -> dict[str, Any]:
        if not self.state.is_over():
            why = ("was abandoned before its end" if self.abandoned else "was resigned before its end"
                   if self.resigned is not None else "is not over yet")
            raise TableError(f"the game {why}; a record holds every hidden card, so it is given only for "
                             f"finished games", 409)
        return to_record(self.state, players=[{"name": s.name or f"Seat {i + 1}", **({"bot": s.bot} if s.bot else {})}
                                              for i, s in enumerate(self.seats)],
                         meta={"table": self.id})

    # --- seats --------------------------------------------------------------------------------------
    def take_seat(self, seat: int, name: str) -> str:
        if not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise TableError(f"no seat {seat} at this table (seats 0-{len(self.seats) - 1})", 404)
        if self.status in ENDED:
            raise TableError(f"this table is {self.status}; its seats cannot be taken", 409)
        name = name.strip()
        if not name:
            raise TableError("type a name to take a seat: it cannot be empty or only spaces", 422)
        if len(name) > MAX_NAME_CHARS or not name.isprintable():
            raise TableError(f"a name must be 1-{MAX_NAME_CHARS} printable characters", 422)
        s = self.seats[seat]
        if s.bot is not None:
            raise TableError(f"seat {seat} is played by a bot", 409)
        if s.token_hash is not None:
            raise TableError(f"seat {seat} is taken", 409)
        if s.heir is not None:
            raise TableError(f"seat {seat} is kept for {s.name} from the last game: a rematch", 409)
        key = name_key(name)
        if key == RESERVED_NAME:
            raise TableError(f"{name!r} is how the page shows each player his own seat; choose another name", 422)
        for i, other in enumerate(self.seats):
            if i != seat and other.name is not None and name_key(other.name) == key:
                who = "a bot" if other.bot else "a player"
                raise TableError(f"{other.name!r} is the name of {who} at this table (seat {i}); "
                                 f"choose another name", 409)
        if _BOT_NAME.fullmatch(key):
            raise TableError(f"names like {name!r} are kept for the bots; choose another name", 422)
        token = secrets.token_urlsafe(24)
        before = s.name, s.token_hash
        s.name, s.token_hash = name, hash_token(token)
        try:
            self.manager.store.update_seats(self.id, [x.to_store() for x in self.seats], self.status)
        except StoreUnavailable:
            s.name, s.token_hash = before
            raise TableError(f"the seat was not taken: {NOT_SAVED}", 503) from None
        self.last_active = self.manager.clock()
        self._update_grace()
        self.changed()
        return token

    def seat_of_token(self, token: str) -> int:
        h = hash_token(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return i
        raise TableError("this seat token is not valid at this table", 403)

    def may_remove(self, token: str) -> bool:
        """The token given to whoever created the table, or a seated player's."""
        h = hash_token(token)
        hashes = [self.creator_hash, *(s.token_hash for s in self.seats)]
        return any(x is not None and secrets.compare_digest(x, h) for x in hashes)

    # --- messages -----------------------------------------------------------------------------------
    def message_for(self, conn: Connection, summary: dict[str, Any] | None = None) -> dict[str, Any]:
        """The full update for one connection: its seat's view and the events it has not yet seen.

        ``grace_left`` is the seconds the bots still wait for a muggins call: the same after every play
        that opens a window a seated person may call on, whatever the play scored or missed."""
        st = self.state
        events = st.events_for(conn.seat, conn.log_pos)
        start = conn.log_pos
        conn.log_pos = len(st.log)
        msg: dict[str, Any] = {
            "type": "state", "table": summary if summary is not None else self.summary(), "you": conn.seat,
            "view": st.view(conn.seat).to_json(), "renderer": self.renderer, "piece_noun": self.piece_noun,
            "events": events, "event_start": start, "grace_left": self.grace_left(),
            "hand_end": self.pause_message(fresh=summary is None),
            "event_actions": self.actions_of_events(start, conn.log_pos), "claim_bound": self.claim_bound(),
        }
        if self.clock is not None:
            msg["clock"] = self.clock.public(fresh=summary is None)
        return msg

    def actions_of_events(self, start: int, end: int) -> list[int | None]:
        """For each event of the log from ``start`` to ``end``, the index of the action that logged it (the
        number the analysis and the record give it), or None for what was logged before the first action."""
        marks = self._marks()
        return [k if k >= 0 else None for k in (bisect.bisect_right(marks, p) - 1 for p in range(start, end))]

    def _marks(self) -> list[int]:
        st = self.state
        if self._log_marks is None or len(self._log_marks) != len(st.history) + 1:
            fresh = type(st).new(st.rules, st.num_players, st.chance.rewound())  # the game replayed
            marks = [len(fresh.log)]
            for seat, action in st.history:
                fresh.apply(seat, action)
                marks.append(len(fresh.log))
            self._log_marks = marks
        return self._log_marks

    def grace_left(self) -> float | None:
        """Seconds left of the grace period (None when none is open)."""
        if not self.grace_open:
            return None
        left = self.changed_at + self.grace * self.manager.time_scale - self.manager.clock()
        return round(left, 3) if left > 0 else None

    def spectators(self) -> int:
        return sum(1 for c in self.conns if c.seat is None)

    def make_room_for_seat(self, seat: int, most: int) -> None:
        """Close the oldest connections of ``seat`` so that one more leaves it at ``most``: a seat's
        newest socket always gets in (spectators have a cap of their own)."""
        own = sorted((c for c in self.conns if c.seat == seat), key=lambda c: c.opened)
        for c in own[: max(0, len(own) - most + 1)]:
            c.close()
            self.conns.discard(c)

    def keeps_alive(self, conn: Connection) -> bool:
        """Whether ``conn`` keeps the table from going idle: a seated person's connection; anybody's at
        a game of bots alone, which plays only while somebody watches it. Spectators of a table with
        people at it do not keep it."""
        return conn.seat is not None or self.all_bots

    def attach(self, conn: Connection) -> None:
        self.conns.add(conn)
        if self.keeps_alive(conn):
            self.last_active = self.manager.clock()
        conn.push(self.message_for(conn))
        if self.all_bots and not self.bot_tasks:  # somebody watches: a game of bots goes on
            self.schedule_bots()

    def detach(self, conn: Connection) -> None:
        self.conns.discard(conn)
        if self.keeps_alive(conn):
            self.last_active = self.manager.clock()
        if self.paused:  # nobody watches a game of bots any more: it waits
            self._stop_bots()

    def broadcast(self) -> None:
        summary = self.summary()  # the same for everybody: built once
        for c in list(self.conns):
            if c.behind():
                c.resync()
            c.push(self.message_for(c, summary))

    def changed(self) -> None:
        """After any change: tell everybody, then let the bots think again."""
        self.version += 1
        self.changed_at = self.manager.clock()
        self.schedule_bots()
        self.manager.table_changed(self)
        self.broadcast()

    # --- actions ------------------------------------------------------------------------------------
    def claim_bound(self) -> int:
        """The largest amount a claim or call may name: what one scoring step of this game can make."""
        return int(self.state.max_step_points())

    def position_error(self, at: Any) -> str | None:
        """Why a move chosen at position ``at`` may not be applied now, or None. A position is the number
        of actions applied so far: the table's ``actions`` when it was shown, the ``index`` the move's
        ack gives. A move for a position that has passed (sent twice, from two sockets of one seat) is
        refused, so no move is applied twice."""
        now = len(self.state.history)
        if isinstance(at, bool) or not isinstance(at, int):
            return (f"give 'at': the position the move was chosen in, the table's 'actions' count shown with "
                    f"it (now {now}); got {quoted(at)}")
        if at < now:
            return f"that position has passed; the table moved on (the move was chosen at {at}, the table is at {now})"
        if at > now:
            return f"the table has not reached position {at}; it is at {now}"
        return None

    def act(self, seat: int, move: Any, claim: Any) -> int:
        """Validate and apply one action, commit it, and return its index; raises TableError or
        IllegalAction leaving everything unchanged. The commit is made on the event loop: the socket, the
        bots and the bot API use :meth:`act_async`."""
        return self._apply(seat, self._action_of(seat, move, claim))

    async def act_async(self, seat: int, move: Any, claim: Any, at: Any = None) -> int:
        """:meth:`act` with the commit made on the store's writer threads while the event loop goes on;
        the table's actions are validated, stored and applied one at a time, in the order they came.
        ``at``: the position the move was chosen in (None: not checked), checked when its turn comes.
        Once begun it runs to its end even if the caller is cancelled (a socket closing): a move committed
        is always applied, so the table in memory never falls behind the database."""
        async def in_turn() -> int:
            async with self.saving:
                if at is not None:
                    stale = self.position_error(at)
                    if stale is not None:
                        raise TableError(stale, 409)
                return await self._apply_async(seat, self._action_of(seat, move, claim))

        task = asyncio.get_running_loop().create_task(in_turn())
        task.add_done_callback(_quietly)  # its error, when nobody is left to hear it
        return await asyncio.shield(task)

    def _action_of(self, seat: int, move: Any, claim: Any) -> Action:
        """The action ``move`` (with ``claim``) of ``seat``, if the table takes it now; else TableError or
        IllegalAction."""
        if self.abandoned or self.resigned is not None:
            why = "was abandoned" if self.abandoned else "ended: a player resigned"
            raise TableError(f"this table {why}; nothing more can be played here", 409)
        if self.status == "open":
            raise TableError("the game starts when every seat is taken", 409)
        if not isinstance(move, str) or not move.strip() or len(move) > MAX_MOVE_CHARS:
            raise TableError(f"'move' must be the text of a move (1-{MAX_MOVE_CHARS} characters)")
        if _LONG_NUMBER.search(move):
            raise TableError(f"a number in a move has at most {MAX_MOVE_DIGITS} digits; no tile, card or "
                             f"amount of points needs more")
        if claim is not None:  # the engine's own check, before the move is even parsed
            try:
                check_points(claim, self.claim_bound(), "'claim'")
            except BadAmount as e:
                raise TableError(str(e)) from None
        action = self.state.parse_action(move, seat)
        if claim is not None:
            action = action.with_claim(claim)
        if self.pause_refuses(action):
            raise TableError("the hand is over: the next one is dealt when everybody has pressed Next hand "
                             "(a Muggins! call on the last play may still be made)", 409)
        return action

    def _apply(self, seat: int, action: Action) -> int:
        """Apply ``action``, its commit made on the event loop; refused (409) while a write of the table is
        under way, which it would overtake."""
        self.check_no_write()
        staged = self._stage(seat, action)
        began = time.perf_counter()
        with self._storing():
            self.manager.store.append_action(*staged.write)
        return self._applied(staged, time.perf_counter() - began)

    def check_no_write(self) -> None:
        """TableError (409) while an action of the table waits for its commit: a change made meanwhile on
        the event loop (an action, the game's end) would overtake it in the database."""
        if self.saving.locked():
            raise TableError("a move of this table is being saved; try again in a moment", 409)

    async def writes_settled(self) -> None:
        """Returns once no action of the table waits for its commit, so that what follows at once (a resign,
        a leave) comes after it rather than being refused by :meth:`check_no_write`."""
        while self.saving.locked():
            async with self.saving:
                pass

    async def _apply_async(self, seat: int, action: Action) -> int:
        """Apply ``action`` once the store's writer thread has committed it; the caller holds :attr:`saving`."""
        staged = self._stage(seat, action)
        began = time.perf_counter()
        with self._storing():
            await self.manager.store.append_action_async(*staged.write)
        return self._applied(staged, time.perf_counter() - began)

    def _stage(self, seat: int, action: Action) -> Staged:
        """``action`` applied to a copy of the state, and the write that stores it: until that write is
        committed, the table (and everybody who looks at it) sees only what is stored."""
        before = self.state
        mark = self.before_action()
        after = before.clone()
        after.apply(seat, action)
        idx = len(after.history) - 1
        entry = after.action_to_json(seat, after.history[-1][1])
        grew = len(after.chance.outcomes) > self.saved_chance
        self.state = after  # what the table's status and result will be, read from the new state
        try:
            status = self.status
            result = self.result() if status == "finished" else None
        finally:
            self.state = before
        ended = time.time() if result is not None else None
        write = (self.id, idx, seat, entry["move"], entry.get("claim"),
                 [dict(o) for o in after.chance.outcomes] if grew else None,
                 status if grew or status != "playing" else None, result, ended)
        return Staged(before, after, mark, seat, action, write)

    @contextlib.contextmanager
    def _storing(self, what: str = "that move") -> Iterator[None]:
        """Around a staged action's write: a write not stored changes nothing and is a TableError."""
        try:
            yield
        except StoreUnavailable:
            self.manager.metrics.store_failed()
            raise TableError(f"{what} was not saved: {NOT_SAVED}", 503) from None
        except StoreConflict:  # another process played this table meanwhile: this copy is stale
            self.manager.stale(self)
            raise TableError("this table moved on elsewhere; it is being reloaded, reconnect in a moment", 409) \
                from None

    def _applied(self, staged: Staged, stored: float) -> int:
        """The staged action, committed (in ``stored`` seconds), becomes the table's state; everybody is told."""
        st, seat, action = self.state, staged.seat, staged.action
        if st is not staged.before or len(st.history) != len(staged.after.history) - 1:
            raise TableError("this table moved on elsewhere; it is being reloaded, reconnect in a moment", 409)
        # the table's own state (which others may hold) takes the action; the same chance as the copy's
        st.apply(seat, action)
        ended = staged.write[-1]
        self.manager.metrics.action(self.game, self.seats[seat].bot_obj is not None, stored)
        self.saved_chance = len(st.chance.outcomes)
        if self._log_marks is not None and len(self._log_marks) == len(st.history):
            self._log_marks.append(len(st.log))
        if ended is not None:
            self.ended = ended
            self.manager.table_ended(self)
        self.after_action(staged.mark, seat, action)
        self.last_active = self.manager.clock()
        self._update_grace()
        self.changed()
        return len(st.history) - 1

    def _person_may_call(self) -> bool:
        """A seated person may call Muggins now: a window is open on a play of another side. Whether the
        play missed anything is not asked: that is the secret the window keeps."""
        st = self.state
        return any(s.bot is None and s.token_hash is not None
                   and any(a.kind == "muggins" for a in st.legal_actions(i))
                   for i, s in enumerate(self.seats))

    def _update_grace(self) -> None:
        """After every change: a grace period is open while a seated person may call Muggins."""
        self.grace_open = self.grace > 0 and self.status == "playing" and self._person_may_call()

    # --- bots ---------------------------------------------------------------------------------------
    def _stop_bots(self) -> None:
        self.bot_retry.cancel()
        for task in self.bot_tasks.values():
            task.cancel()
        self.bot_tasks.clear()

    def schedule_bots(self) -> None:
        self._stop_bots()
        if self.status != "playing" or self.manager.closing or self.paused:
            return
        st = self.state
        acting = st.to_act()
        for i, s in enumerate(self.seats):
            if s.bot_obj is not None and i in acting:
                self.bot_tasks[i] = asyncio.get_running_loop().create_task(self._bot_turn(i, self.version))

    def delay_for(self, seat: int, action: Action) -> float:
        """Seconds from the last change to a bot's action: its reaction time for a muggins call (the call
        itself is public); otherwise the table's bot delay, or the grace period while one is open, the
        same whatever the last play scored or missed."""
        bot = self.seats[seat].bot_obj
        if action.kind == "muggins" and bot is not None:
            delay = bot.reaction_delay(self.bot_rng)
        else:
            delay = self.bot_delay
            if self.grace_open:
                delay = max(delay, self.grace)
        return delay * self.manager.time_scale

    async def _bot_turn(self, seat: int, version: int) -> None:
        action = await self._bot_choice(seat, version)
        if action is None or version != self.version or self.pause_refuses(action):
            return
        # counted from the change, not from the end of the bot's thinking: how long a bot thinks
        # depends on its hand, and must not show in when it moves
        wait = self.changed_at + self.delay_for(seat, action) - self.manager.clock()
        if wait > 0:
            await asyncio.sleep(wait)
        if version != self.version:
            return
        self.bot_tasks.pop(seat, None)
        async with self.saving:
            if version != self.version:  # a write of the table came first
                return
            await self._bot_apply(seat, action)

    async def _bot_apply(self, seat: int, action: Action) -> None:
        try:
            await self._apply_async(seat, action)
        except IllegalAction as e:
            log.warning("table %s: bot at seat %d chose an illegal %r: %s; it plays a safe move instead",
                        self.id, seat, action, e)
            await self._bot_fallback_apply(seat)
        except TableError as e:
            log.error("table %s: the move of the bot at seat %d: %s", self.id, seat, e)
            self.manager.metrics.bot_failed()
            self.bot_retry.failed(self)
        except Exception:
            log.exception("table %s: the move of the bot at seat %d could not be applied", self.id, seat)
            self.manager.metrics.bot_failed()
            self.bot_retry.failed(self)
        else:
            self.bot_retry.succeeded()

    async def _bot_choice(self, seat: int, version: int) -> Action | None:
        """The bot's action; a bot that fails is asked once more, then the safe fallback moves for it
        (see :func:`fallback_action`). Every failure is logged with the table and the seat."""
        bot = self.seats[seat].bot_obj
        assert bot is not None
        for attempt in (1, 2):
            if version != self.version:
                return None
            try:
                if bot.policy.__class__.__name__ == "SearchPolicy":  # a search takes long: off the event loop
                    return await asyncio.to_thread(bot.act, self.state.clone(), seat, self.bot_rng)
                return bot.act(self.state, seat, self.bot_rng)
            except Exception:
                log.exception("table %s: the bot at seat %d failed to choose (attempt %d of 2)",
                              self.id, seat, attempt)
                self.manager.metrics.bot_failed()
        if version != self.version:
            return None
        return fallback_action(self.state, seat, bot, self.bot_rng, f"table {self.id}")

    async def _bot_fallback_apply(self, seat: int) -> None:
        """Apply the safe fallback move of a bot whose own move was refused."""
        bot = self.seats[seat].bot_obj
        assert bot is not None
        action = fallback_action(self.state, seat, bot, self.bot_rng, f"table {self.id}")
        if action is None:
            return
        try:
            await self._apply_async(seat, action)
        except Exception:
            log.exception("table %s: the fallback move of the bot at seat %d failed too", self.id, seat)
            self.bot_retry.failed(self)

    def abandon(self, why: str) -> bool:
        """End a game that will not be finished: stored as ``abandoned`` with its scores so far, its bots
        stopped, its watchers told. False when it had already ended."""
        if self.status in ENDED:
            return False
        self.check_no_write()
        ended = time.time()
        try:
            self.manager.store.end_table(self.id, "abandoned", self.result(), ended)
        except StoreUnavailable:
            raise TableError(f"the table was not removed: {NOT_SAVED}", 503) from None
        self.abandoned = True
        self.ended = ended
        self.grace_open = False
        self._stop_bots()
        self.manager.table_ended(self)
        log.info("table %s abandoned: %s", self.id, why)
        self.version += 1
        self.broadcast()
        return True

    def cancel(self) -> None:
        self._stop_bots()
        if self.clock is not None:
            self.clock.cancel()
        for c in list(self.conns):
            c.close()


class TableManager:
    """The tables of the server: those in play in memory (loaded from the store at start), the ended
    ones read back from the store when asked for."""

    def __init__(self, store: Store, time_scale: float = 1.0, idle_timeout: float = DEFAULT_IDLE,
                 clock: Callable[[], float] = time.monotonic, max_tables: int = MAX_ACTIVE_TABLES,
                 hand_pause: float = 0.0) -> None:
        self.store = store
        self.hand_pause = hand_pause  # seconds a hand's end waits for the people at most (0: no pause)
        self.time_scale = time_scale  # multiplies every bot delay (0 in tests: bots answer at once)
        self.idle_timeout = idle_timeout
        self.clock = clock
        self.max_tables = max_tables
        self.tables: dict[str, GameTable] = {}  # in play, and ended ones still watched
        self.archived: OrderedDict[str, GameTable] = OrderedDict()
        self.closing = False
        self.metrics: Any = NoMetrics()  # the app's figures (/metrics) count here
        self.shared = False  # scale-out mode: other processes play tables of the same store
        self.on_stale: Callable[[GameTable], None] | None = None  # see stale()
        # called once with each table whose game ends here (finished, resigned or abandoned), after its
        # end is stored: ratings, results and the like follow from it; a listener that fails is logged
        self.end_listeners: list[Callable[[GameTable], None]] = []
        # called with a table after each change of it (before its watchers are told), and with each table in
        # play when the manager starts: a ranked table's clock follows the game from them
        self.change_listeners: list[Callable[[GameTable], None]] = []

    def stale(self, table: GameTable) -> None:
        """A write of ``table`` found its action stored already: the table was played by another process
        (scale-out mode), and ``on_stale`` reloads it; with none (one process), it is logged and reloaded
        here (:meth:`reload`)."""
        if self.on_stale is not None:
            self.on_stale(table)
        else:
            log.error("table %s: its next action is stored already; is another server using this database? "
                      "It is reloaded from the store", table.id)
            self.reload(table)

    def reload(self, table: GameTable) -> None:
        """One process: the copy ``table``, behind the store, is dropped (its bots stopped, its sockets closed
        so that their pages reconnect) and the table served again as stored, its bots scheduled. A table
        that can no longer be read stays as it was, refusing its moves, and is logged."""
        if self.tables.get(table.id) is not table:
            return
        try:
            stored = self.store.load_one(table.id)
            if stored is None:
                raise TableError("it is no longer stored", 404)
            fresh = self._rebuild(stored)
        except Exception:
            log.exception("table %s could not be reloaded from the store", table.id)
            return
        table.cancel()
        if fresh.status in ENDED:
            del self.tables[table.id]
            self._archive(fresh)
        else:
            self.tables[table.id] = fresh
            fresh.schedule_bots()
            self.table_changed(fresh)

    def table_ended(self, table: GameTable) -> None:
        self._tell(self.end_listeners, table, "its end")

    def table_changed(self, table: GameTable) -> None:
        self._tell(self.change_listeners, table, "its change")

    @staticmethod
    def _tell(listeners: list[Callable[[GameTable], None]], table: GameTable, what: str) -> None:
        for listener in listeners:
            try:
                listener(table)
            except Exception:
                log.exception("table %s: what follows %s failed", table.id, what)

    def _rebuild(self, stored: StoredTable) -> GameTable:
        """A stored table as it stands: the same seed redraws the same deals, and the actions replay."""
        spec = get_game(stored.game)
        rules = spec.rules(stored.preset, stored.options)
        state = spec.new(rules, stored.num_players, chance=Chance(seed=stored.seed))
        for i, entry in enumerate(stored.actions):
            apply_record_action(state, i, entry)
        drawn = [dict(o) for o in state.chance.outcomes]
        if drawn[: len(stored.chance)] != stored.chance:
            raise RecordError(f"table {stored.id}: the stored chance outcomes differ from the replayed ones")
        return GameTable(self, stored, state)

    def load(self) -> int:
        """Rebuild every table still in play. One that cannot be read or rebuilt (a damaged field, rules
        no longer accepted, a record that no longer replays) is quarantined rather than stopping the
        server: marked in the store, logged, its data kept as it is."""
        damaged: list[tuple[str, str]] = []
        for stored in self.store.load_active(damaged):
            try:
                self.tables[stored.id] = self._rebuild(stored)
            except Exception as e:
                damaged.append((stored.id, f"it cannot be rebuilt: {type(e).__name__}: {e}"[:300]))
        for table_id, why in damaged:
            log.error("table %s is quarantined (%s); its data is kept, the other tables start", table_id, why)
            try:
                self.store.quarantine(table_id, why)
            except StoreUnavailable:
                log.exception("table %s could not be marked quarantined", table_id)
        return len(self.tables)

    def start(self) -> None:
        for t in self.tables.values():
            t.schedule_bots()
            self.table_changed(t)

    def shutdown(self) -> None:
        self.closing = True
        for t in [*self.tables.values(), *self.archived.values()]:
            t.cancel()

    def get(self, table_id: str) -> GameTable:
        t = self.tables.get(table_id)
        if t is not None:
            return t
        t = self.archived.get(table_id)
        if t is not None:
            self.archived.move_to_end(table_id)
            return t
        try:
            stored = self.store.load_one(table_id) if len(table_id) <= 32 else None
            if stored is None:
                raise TableError(f"no table {table_id!r}"[:80], 404)
            t = self._rebuild(stored)
            if self.shared and stored.status in ACTIVE:
                return t  # played on another process: read afresh each time, never kept
        except TableError:
            raise
        except Exception as e:  # a damaged row (DamagedRow), a record that no longer replays
            log.error("stored table %s cannot be replayed: %s", table_id, e)
            raise TableError(f"table {table_id!r} is stored, but its data is damaged and cannot be shown; "
                             f"it is kept aside", 409) from None
        self._archive(t)
        return t

    def _archive(self, t: GameTable) -> None:
        """Keep ``t``, a table not in play here, among those read back lately (ARCHIVE_CACHE at most, the oldest
        leave first)."""
        self.archived[t.id] = t
        while len(self.archived) > ARCHIVE_CACHE:
            self.archived.popitem(last=False)

    def sweep(self) -> int:
        """Abandon every table in play that nobody has acted at, joined or watched for the idle time
        (watching counts for games of bots alone: see :meth:`GameTable.keeps_alive`),
        and let ended tables nobody watches leave memory (the store keeps them). Returns how many were
        abandoned."""
        now = self.clock()
        abandoned = 0
        for t in list(self.tables.values()):
            if t.conns and (t.status in ENDED or any(t.keeps_alive(c) for c in t.conns)):
                continue
            if t.status in ACTIVE and now - t.last_active >= self.idle_timeout:
                try:
                    t.abandon(f"no action and nobody connected for {self.idle_timeout:g} s")
                except Exception:
                    log.exception("table %s could not be marked abandoned", t.id)
                    continue
                abandoned += 1
            if t.status in ENDED:
                del self.tables[t.id]
        return abandoned

    def create(self, game: Any, preset: Any = None, options: Any = None, seats: Any = None,
               grace: Any = DEFAULT_GRACE, bot_delay: Any = DEFAULT_BOT_DELAY,
               creator_hash: str | None = None, hints: Any = False, opener: int | None = None,
               heirs: list[str | None] | None = None, names: list[str | None] | None = None,
               meta: dict[str, Any] | None = None, seed: int | None = None) -> GameTable:
        """A new table. ``seats`` lists each seat: null (open for a person) or a bot level; with
        ``hints`` the seat to act may ask what the bot would play. ``meta`` says what kind of table it is
        (kept with it; None: casual); ``seed`` deals a given game (None: a fresh one)."""
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
                raise TableError(f"a seat is null (open) or a bot level: {', '.join(BOT_LEVELS)}; got {quoted(s)}",
                                 422)
        for name, value, top in (("grace", grace, 60.0), ("bot_delay", bot_delay, 30.0)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= top:
                raise TableError(f"'{name}' must be a number of seconds from 0 to {top:g}", 422)
        if not isinstance(hints, bool):
            raise TableError(f"'hints' is true or false; got {quoted(hints)}", 422)
        if sum(1 for t in self.tables.values() if t.status in ACTIVE) >= self.max_tables:
            raise TableError("the server has too many tables in play; try again later", 503)
        try:
            rules = spec.rules(preset, options)
            if seed is None:
                seed, state = self._deal(spec, rules, len(seats), opener)
            else:
                state = spec.new(rules, len(seats), chance=Chance(seed=seed))
        except (RulesError, MugginsError) as e:
            raise TableError(str(e), 422) from None
        names = [n or b for n, b in zip(names or [None] * len(seats), table_names(seats), strict=True)]
        seat_rows = [{"name": names[i], "bot": s, "token_hash": None} for i, s in enumerate(seats)]
        for row, heir in zip(seat_rows, heirs or [], strict=False):  # a rematch keeps its people's seats
            if heir is not None:
                row["heir"] = heir
        stored = StoredTable(id=secrets.token_urlsafe(9), game=game, preset=rules.preset, options=dict(options),
                             num_players=len(seats), seed=seed, grace=float(grace), bot_delay=float(bot_delay),
                             seats=seat_rows, chance=[dict(o) for o in state.chance.outcomes], status="open",
                             created=time.time(), actions=[], creator_hash=creator_hash, hints=hints,
                             meta=dict(meta) if meta else None)
        table = GameTable(self, stored, state)
        stored.status = table.status
        try:
            self.store.create_table(stored)
        except StoreUnavailable:
            self.metrics.store_failed()
            raise TableError(f"the table was not created: {NOT_SAVED}", 503) from None
        self.tables[table.id] = table
        table.schedule_bots()
        return table

    @staticmethod
    def _deal(spec: GameSpec, rules: Any, players: int, opener: int | None) -> tuple[int, GameState]:
        """A fresh seed and the game it starts; with ``opener``, one whose first deal (or lead) goes to that
        seat, among a few seeds tried (the cut still decides when none of them gives it)."""
        from muggins.server.seating import opener as first_seat

        for _ in range(64 if opener is not None else 1):
            seed = secrets.randbits(62)
            state = spec.new(rules, players, chance=Chance(seed=seed))
            if opener is None or first_seat(state) == opener:
                break
        return seed, state

    def rebuild_start(self, table: GameTable) -> GameState:
        """The game of ``table`` as it stood before its first move."""
        spec = get_game(table.game)
        return spec.new(spec.rules(table.preset, table.options), len(table.seats), chance=Chance(seed=table.seed))

    def listing(self, status: Any = "active", page: Any = 1, limit: Any = LIST_LIMIT, q: Any = None
                ) -> dict[str, Any]:
        """A page of the tables: ``active`` (open ones first, then those in play, newest first) or
        ``finished`` (the archive of finished and abandoned games, newest first); with ``q``, only
        those whose id, game, preset or a player's name holds it."""
        if status not in ("active", "finished"):
            raise TableError("'status' is active (open and playing tables) or finished (the archive)", 422)
        for name, value, top in (("page", page, 10**6), ("limit", limit, MAX_LIST_LIMIT)):
            if type(value) is not int or not 1 <= value <= top:
                raise TableError(f"'{name}' must be a whole number from 1 to {top}", 422)
        if q is not None and (not isinstance(q, str) or len(q) > MAX_QUERY_CHARS):
            raise TableError(f"'q' must be text of at most {MAX_QUERY_CHARS} characters", 422)
        if q is not None and any(unicodedata.category(ch) == "Cc" for ch in q):
            raise TableError("'q' holds a control character (like NUL or a line break); search for printable "
                             "text", 400)
        q = q.strip() if q else None
        offset = (page - 1) * limit
        if status == "active" and self.shared:  # other processes play tables too: the store has them all
            rows = [r for r in self.store.load_active([])
                    if not q or q.lower() in json.dumps(stored_summary(r)).lower()]
            rows.sort(key=lambda r: (r.status != "open", -r.created))
            total = len(rows)
            items = [self.tables[r.id].summary() if r.id in self.tables
                     else {**stored_summary(r), "actions": len(r.actions)} for r in rows[offset:offset + limit]]
        elif status == "active":
            found = [t for t in self.tables.values() if t.status in ACTIVE and (not q or t.matches(q))]
            found.sort(key=lambda t: (t.status != "open", -t.created))
            total = len(found)
            items = [t.summary() for t in found[offset:offset + limit]]
        else:
            rows, total = self.store.archive(q, offset, limit)
            items = [stored_summary(r) for r in rows]
        return {"tables": items, "total": total, "page": page, "pages": max(1, math.ceil(total / limit)),
                "limit": limit, "status": status}
