"""The pause at the end of every hand (every round of card Muggins).

The engine deals the next hand at once; the table holds it back. When a hand ends while people are
seated, every connection is sent the hand's end as everybody may see it (the final layout or piles,
what each seat still held and its pips, the awards, the show) and the table waits: the next hand's
first move is refused and the bots hold back their moves until every seated person has sent
``{"type": "next"}`` or the pause's time is up. A muggins call on the hand's last play (or a late
claim) stays allowed throughout, for the people and the bots alike.

What the pause shows is built once, from the spectator's view and events, the same for every seat.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from muggins.core.protocol import Action, GameState
from muggins.tui.table import hand_number, make_hand_end
from muggins.tui.text import hand_event, hand_start

if TYPE_CHECKING:
    from muggins.server.tables import Seat, TableManager

HAND_PAUSE = 30.0   # seconds a hand's end stays on screen at most (times the server's time scale)
OPEN_KINDS = frozenset({"muggins", "claim"})  # what may still be done on the hand's last play


def hand_closed(st: GameState, number: int, start: int) -> bool:
    """Whether the action whose events begin at ``start`` in the log, made in hand ``number``, ended that
    hand (the next one is dealt, or the game ended with the hand)."""
    return hand_number(st) != number or (st.is_over() and any(
        e.kind in ("hand_end", "round_end") for e in st.log[start:]))


def public_hand_end(st: GameState, before: GameState, seat: int, action: Action, start: int,
                    names: list[str]) -> dict[str, Any]:
    """The end of the hand that ``action`` of ``seat`` on ``before`` closed, as everybody may see it:
    the terminal's lines (``lines``), the final domino ``layout`` (or None), the revealed hands and pips
    (``revealed``), the show (``show``: starter and shows), the piles of the round (``piles``), the
    points each side made in it (``gained``) and the scores; ``start`` is where the last action's events
    begin in the log."""
    end = make_hand_end(st, before, seat, action, start, names, False)
    first = hand_start(st, start)
    gained = [0] * st.num_sides
    piles = []
    for e in st.log[first:]:
        d = e.to_dict(None)
        side = d.get("side") if e.kind == "score" else None
        if isinstance(side, int) and 0 <= side < len(gained):
            gained[side] += int(d.get("points", 0))
        if e.kind == "pile_end":
            piles.append(d)
    v = st.view(None).to_json()
    show = None
    if "shows" in v:
        prev = v.get("previous_hand") if not st.is_over() else None
        show = {"starter": (prev or v).get("starter"), "shows": (prev or v).get("shows") or []}
    return {"number": end.number, "word": end.word, "lines": end.lines, "layout": end.layout,
            "revealed": hand_event(st, start, "hand_end"), "show": show, "piles": piles[-6:],
            "gained": gained, "scores": st.scores(), "start": start, "over": st.is_over()}


@dataclass
class HandPause:
    """A hand's end on screen: its public data, when it ends (the manager's clock), who is still to
    press Next hand, and the timer that ends it."""

    end: dict[str, Any]
    seconds: float
    until: float
    waiting: set[int]
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)


class HandPauses:
    """What a table does at the end of each hand (mixed into :class:`~muggins.server.tables.GameTable`)."""

    manager: TableManager
    state: GameState
    seats: list[Seat]
    hand_pause: HandPause | None
    last_hand_end: dict[str, Any] | None
    _pause_shown: tuple[Any, dict[str, Any] | None] | None = None

    def changed(self) -> None: ...  # the table's

    def _people(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.bot is None and s.token_hash is not None]

    def pause_seconds(self) -> float:
        return self.manager.hand_pause * self.manager.time_scale

    def before_action(self) -> tuple[int, int, GameState] | None:
        """What :meth:`after_action` needs to see a hand end: taken before each action while a hand's end
        may pause (people seated), None otherwise."""
        if self.pause_seconds() <= 0 or not self._people():
            return None
        st = self.state
        return hand_number(st), len(st.log), st.clone()

    def after_action(self, mark: tuple[int, int, GameState] | None, seat: int, action: Action) -> None:
        """After an action: when it ended a hand, keep its end to show, and pause unless the game is over."""
        if mark is None:
            return
        number, start, before = mark
        st = self.state
        if not hand_closed(st, number, start):
            return
        names = [s.name or f"Seat {i + 1}" for i, s in enumerate(self.seats)]
        self.last_hand_end = public_hand_end(st, before, seat, action, start, names)
        if st.is_over():
            return
        seconds = self.pause_seconds()
        self._cancel_pause_timer()
        pause = HandPause(self.last_hand_end, seconds, self.manager.clock() + seconds, set(self._people()))
        with contextlib.suppress(RuntimeError):  # no event loop (a test driving the table directly)
            pause.timer = asyncio.get_running_loop().call_later(seconds, self._pause_over, pause)
        self.hand_pause = pause

    def _cancel_pause_timer(self) -> None:
        if self.hand_pause is not None and self.hand_pause.timer is not None:
            self.hand_pause.timer.cancel()

    def _pause_over(self, pause: HandPause) -> None:
        if self.hand_pause is pause:
            self.end_pause()

    def end_pause(self) -> None:
        self.stop_pause()
        self.changed()

    def pausing(self) -> bool:
        """Whether the table is holding the next hand back (its timer ends a pause whose time is up)."""
        p = self.hand_pause
        return p is not None and self.manager.clock() < p.until

    def stop_pause(self) -> None:
        """The game ended otherwise (a resignation): nothing more to wait for."""
        self._cancel_pause_timer()
        self.hand_pause = None

    def pause_refuses(self, action: Action) -> bool:
        """Whether ``action`` must wait for the pause to end: every move but a call or a late claim."""
        return action.kind not in OPEN_KINDS and self.pausing()

    def press_next(self, seat: int) -> None:
        """Seat ``seat`` is ready for the next hand; the last one to be ready deals it."""
        from muggins.server.tables import TableError

        if not self.pausing():
            raise TableError("no hand's end is waiting: the next hand is already being played", 409)
        assert self.hand_pause is not None
        self.hand_pause.waiting.discard(seat)
        if not self.hand_pause.waiting & set(self._people()):
            self.end_pause()
        else:
            self.changed()

    def pause_message(self, fresh: bool = True) -> dict[str, Any] | None:
        """The hand's end for the state message: while the table pauses, with who is still to press
        Next hand and the seconds left; at the game's end, its last hand (``waiting`` empty). Unless
        ``fresh``, the one built for the same change is given again: every connection told of one change
        gets the same."""
        version = getattr(self, "version", None)
        if not fresh and self._pause_shown is not None and self._pause_shown[0] == version:
            return self._pause_shown[1]
        msg = self._pause_now()
        self._pause_shown = (version, msg)
        return msg

    def _pause_now(self) -> dict[str, Any] | None:
        if self.pausing():
            p = self.hand_pause
            assert p is not None
            left = max(0.0, p.until - self.manager.clock())
            return {**p.end, "paused": True, "waiting": sorted(p.waiting), "seconds": round(p.seconds, 3),
                    "left": round(left, 3)}
        if self.last_hand_end is not None and self.state.is_over():
            return {**self.last_hand_end, "paused": False, "waiting": [], "seconds": 0, "left": 0}
        return None
