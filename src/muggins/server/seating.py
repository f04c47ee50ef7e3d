"""What a seated player may do besides playing: leave, resign, move the seat to another device, and ask
for a rematch (functions of a :class:`~muggins.server.tables.GameTable`).

* Leaving a seat before the table's first move opens it again; leaving later is resigning.
* Resigning ends the game: stored as ``resigned`` with the scores so far and the resigning seat; the
  other sides win, the best placed of them when there are several.
* A seat's owner may ask for a one-time code (valid ``HANDOFF_SECONDS``, the last one asked for only)
  that another browser exchanges for a new token of the seat: the seat moves there, and the
  connections holding the old token become spectators. The code travels in a link's fragment
  (``/t/ID#seat=CODE``), which browsers do not send to the server, and is redeemed in a POST body.
* A rematch is a new table with the same game, preset, options, timings and seats (the same bots; a
  person's seat kept for that person, who takes it by asking for the rematch with the old table's
  token, and still the account's where it was an account's), whose first deal goes to the seat after the
  one that dealt first here. It keeps the table's kind: a rated (ranked, quick) table's rematch is rated
  (ranked, quick) too, with the same clock. The second person to ask joins the first one's rematch.
"""

from __future__ import annotations

import logging
import secrets
import time
from typing import TYPE_CHECKING, Any

from muggins.core.protocol import GameState

if TYPE_CHECKING:
    from muggins.server.tables import GameTable

log = logging.getLogger("muggins.server")
HANDOFF_SECONDS = 600.0
KEPT_META = ("rated", "ranked", "quick", "clock")  # what a rematch keeps of its table's kind: rated stays rated


def opener(st: GameState) -> int:
    """The seat that deals first (or leads first where nobody deals) in a game just begun."""
    dealer = st.view(None).to_json().get("dealer")
    if isinstance(dealer, int):
        return dealer
    return min(st.waiting_for() or st.to_act() or {0})


def _hash(token: str) -> str:
    from muggins.server.tables import hash_token

    return hash_token(token)


def _error(message: str, status: int) -> Exception:
    from muggins.server.tables import TableError

    return TableError(message, status)


def _save_seats(t: GameTable) -> None:
    t.manager.store.update_seats(t.id, [x.to_store() for x in t.seats], t.status)

def _demote(t: GameTable, seat: int, notice: dict[str, Any]) -> None:
    """The connections of ``seat`` become spectators, told why."""
    for c in list(t.conns):
        if c.seat == seat:
            c.seat = None
            c.log_pos = 0
            c.push(notice)

# --- leave and resign ----------------------------------------------------------------------------
def leave(t: GameTable, seat: int) -> str:
    """Leave ``seat``: open again before the first move, resigning after it. Returns what happened,
    ``"left"`` or ``"resigned"``."""
    if t.status in ("finished", "abandoned", "resigned"):
        raise _error(f"this table is {t.status}; there is nothing to leave", 409)
    if t.state.history:
        resign(t, seat)
        return "resigned"
    s = t.seats[seat]
    s.name, s.token_hash = None, None
    revoke_handoff(t, seat)
    _save_seats(t)
    _demote(t, seat, {"type": "left", "seat": seat, "message": "You left your seat; you are watching."})
    t._update_grace()
    t.changed()
    return "left"

def resign(t: GameTable, seat: int) -> None:
    """End the game now, lost by ``seat``'s side: kept in the archive as resigned, scores as they stand."""
    if t.status != "playing":
        why = "has not started: leave the seat instead" if t.status == "open" else f"is {t.status}"
        raise _error(f"the game {why}; it cannot be resigned", 409)
    t.check_no_write()
    ended = time.time()
    t.resigned = seat  # the result read for the store names the resigner
    try:
        with t._storing("the resignation"):
            t.manager.store.end_table(t.id, "resigned", t.result(), ended)
    except BaseException:
        t.resigned = None  # not stored: the game goes on as it was
        raise
    t.stop_pause()
    t._stop_bots()
    t.ended = ended
    t.manager.table_ended(t)
    t.changed()

def resigned_winners(t: GameTable) -> list[int]:
    """The seats that win a resigned game: the best placed side other than the resigner's."""
    st = t.state
    assert t.resigned is not None
    loser = st.side_of(t.resigned)
    side_scores = st.side_scores()
    others = [k for k in range(st.num_sides) if k != loser]
    best = max(side_scores[k] for k in others)
    return sorted(i for i in range(st.num_players) if st.side_of(i) != loser and side_scores[st.side_of(i)] == best)

# --- another device ------------------------------------------------------------------------------
def handoff(t: GameTable, seat: int) -> str:
    """A new one-time code that moves ``seat`` to another device (any earlier code of the seat is void)."""
    if t.status in ("finished", "abandoned", "resigned"):
        raise _error(f"this table is {t.status}; there is no seat to continue", 409)
    code = secrets.token_urlsafe(18)
    revoke_handoff(t, seat)
    t.handoffs[_hash(code)] = (seat, t.manager.clock() + HANDOFF_SECONDS)
    return code

def revoke_handoff(t: GameTable, seat: int) -> bool:
    """Void the seat's code; whether there was one."""
    before = len(t.handoffs)
    t.handoffs = {k: v for k, v in t.handoffs.items() if v[0] != seat}
    return len(t.handoffs) < before

def redeem(t: GameTable, code: str) -> tuple[int, str]:
    """The seat a code moves, with its new token; the code is spent and the old token void."""
    if t.status in ("finished", "abandoned", "resigned"):
        raise _error(f"this table is {t.status}; there is no seat to continue", 409)
    found = t.handoffs.pop(_hash(code), None)
    if found is None or found[1] < t.manager.clock():
        raise _error("this link is not valid: it was used already, replaced by a newer one, revoked or "
                     "expired; ask for a new one on the device that holds the seat", 403)
    seat = found[0]
    token = secrets.token_urlsafe(24)
    t.seats[seat].token_hash = _hash(token)
    _save_seats(t)
    _demote(t, seat, {"type": "moved", "seat": seat,
                        "message": "Your seat moved to another device; here you are watching."})
    t.changed()
    return seat, token

# --- rematch -------------------------------------------------------------------------------------
def rematch(t: GameTable, token: str) -> tuple[GameTable, int, str]:
    """The rematch table, made by the first person who asks; the asker's seat in it, and its token."""
    from muggins.server.tables import TableError

    if t.status not in ("finished", "abandoned", "resigned"):
        raise _error("a rematch is offered when the game has ended", 409)
    old = _seat_by_hash(t, _hash(token))
    new: GameTable | None = None
    if t.rematch_id is not None:
        try:
            new = t.manager.get(t.rematch_id)
        except TableError:
            new = None
    if new is None:
        start = t.manager.rebuild_start(t)
        new = t.manager.create(
            t.game, t.preset, t.options, [s.bot for s in t.seats], t.grace, t.bot_delay,
            hints=t.hints, opener=(opener(start) + 1) % len(t.seats),
            heirs=[s.token_hash if s.bot is None else None for s in t.seats],
            names=[s.name for s in t.seats], meta={k: v for k, v in t.meta.items() if k in KEPT_META} or None)
        _copy_owners(t, new)
        t.rematch_id = new.id
        t.manager.store.end_table(t.id, t.status, {**t.result(), "rematch": new.id},
                                     t.ended or time.time())
        t.changed()
    token_new = take_kept_seat(new, old, _hash(token))
    return new, old, token_new

def _copy_owners(t: GameTable, new: GameTable) -> None:
    """The rematch's seats belong to the accounts the old table's seats belonged to."""
    from sqlalchemy import insert, select

    from muggins.server.store import seat_owners_t

    def work(conn: Any) -> None:
        with conn.begin():
            rows = conn.execute(select(seat_owners_t.c.seat, seat_owners_t.c.account_id)
                                .where(seat_owners_t.c.table_id == t.id)).all()
            if rows:
                conn.execute(insert(seat_owners_t), [{"table_id": new.id, "seat": seat, "account_id": account}
                                                     for seat, account in rows])

    from muggins.server.store import StoreUnavailable

    try:
        t.manager.store._write("the seats' accounts", work)
    except StoreUnavailable:
        log.warning("table %s: its rematch %s is not linked to the players' accounts", t.id, new.id)

def _seat_by_hash(t: GameTable, h: str) -> int:
    for i, s in enumerate(t.seats):
        if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
            return i
    raise _error("this seat token is not valid at this table", 403)

def take_kept_seat(t: GameTable, seat: int, heir: str) -> str:
    """The seat kept for the holder of the old table's token hashed ``heir``: a new token for it."""
    s = t.seats[seat]
    if s.heir is None or not secrets.compare_digest(s.heir, heir):
        raise _error("your seat in the rematch was not kept for you", 409)
    token = secrets.token_urlsafe(24)
    s.token_hash, s.heir = _hash(token), None
    _save_seats(t)
    t._update_grace()
    t.changed()
    return token
