"""The muggins window in real time: after a score a person could still take, bots wait out the grace
period before their next move, while a bot's own call waits only for its reaction time."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from muggins.core.protocol import Action
from muggins.server.app import handle_message
from muggins.server.store import Store
from muggins.server.tables import Connection, GameTable, RateLimiter, TableManager


def scoring_miss_by_a_bot(table: GameTable) -> int | None:
    """Play first legal moves until a bot makes a scoring play; make it with no claim. Returns the next
    bot that the game then waits for, if any."""
    st: Any = table.state
    for _ in range(2000):
        if st.is_over():
            return None
        seat = min(st.waiting_for())
        legal = [a for a in st.legal_actions(seat) if a.kind not in ("muggins", "claim")]
        scoring = [a for a in legal if st.claim_for(seat, a) > 0]
        if table.seats[seat].bot and scoring:
            table._apply(seat, scoring[0].with_claim(None))
            nxt = min(st.waiting_for())
            if table.seats[nxt].bot:
                return nxt
            continue
        table._apply(seat, legal[0].with_claim(st.claim_for(seat, legal[0]) or None))
    return None


async def grace_case(tmp: Path) -> tuple[GameTable, int, dict[str, Any]]:
    manager = TableManager(Store(f"sqlite:///{tmp / 'g.db'}"))
    for _ in range(20):
        t = manager.create("dominoes", None, None, [None, "beginner", "beginner"], grace=3.0, bot_delay=0.25)
        t.take_seat(0, "Ann")
        conn = Connection(0)
        t.attach(conn)
        nxt = scoring_miss_by_a_bot(t)
        if nxt is not None:
            msg = t.message_for(conn)
            manager.shutdown()
            return t, nxt, msg
    raise AssertionError("no bot missed points before another bot's turn")


def test_a_bot_waits_out_the_grace_period_after_a_missed_score(tmp_path: Path) -> None:
    table, nxt, msg = asyncio.run(grace_case(tmp_path))
    left = table._grace_left()
    assert left is not None and 0 < left <= 3.0
    assert "muggins" in msg["view"]["legal"]
    assert "grace" not in json.dumps({k: v for k, v in msg.items() if k != "table"})  # not told to anybody
    regular = next(a for a in table.state.legal_actions(nxt) if a.kind not in ("muggins", "claim"))
    assert table.delay_for(nxt, regular) > 2.0  # held back for the grace period, not the 0.25 s bot delay
    bot = table.seats[nxt].bot_obj
    assert bot is not None
    call = table.delay_for(nxt, Action("muggins"))  # the bot's own call: its reaction time, grace or not
    assert call >= 0
    if bot.attention.reaction_spread == 0:
        assert call == bot.attention.reaction


def test_no_grace_when_nothing_can_be_taken(tmp_path: Path) -> None:
    async def run() -> float:
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'n.db'}"))
        t = manager.create("dominoes", None, None, [None, "beginner"], grace=3.0, bot_delay=0.25)
        t.take_seat(0, "Ann")
        a = t.state.legal_actions(min(t.state.waiting_for()))[0]  # no score yet: nothing to take
        manager.shutdown()
        return t.delay_for(1, a)
    assert asyncio.run(run()) == 0.25


JSONish = hs.recursive(hs.none() | hs.booleans() | hs.integers() | hs.text(max_size=20),
                       lambda c: hs.lists(c, max_size=4) | hs.dictionaries(hs.text(max_size=8), c, max_size=4),
                       max_leaves=10)
MOVES = hs.one_of(hs.text(max_size=30), hs.sampled_from(["draw", "pass", "knock", "muggins", "claim 5", "6-6",
                                                         "5-5 on 9-9", "99999999999-1", "play AH", "go"]))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=hs.one_of(hs.text(max_size=60), JSONish.map(json.dumps),
                     hs.builds(lambda m, c: json.dumps({"type": "act", "move": m, "claim": c}), MOVES,
                               hs.one_of(hs.none(), hs.integers(-5, 50), hs.text(max_size=3)))))
def test_any_message_is_applied_legally_or_answered_with_an_error(tmp_path: Path, raw: str) -> None:
    async def run() -> None:
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'h.db'}"))
        t = manager.create("dominoes", None, None, [None, None], grace=0, bot_delay=0)
        t.take_seat(0, "Ann")
        t.take_seat(1, "Bob")
        seat = min(t.state.waiting_for())
        conn = Connection(seat)
        before = [t.state.view(s) for s in (0, 1)]
        n = len(t.state.history)
        reply = handle_message(t, conn, raw, RateLimiter(100, 100))
        assert reply is not None and reply["type"] in ("ack", "error", "pong")
        if reply["type"] == "ack":
            assert len(t.state.history) == n + 1
        else:
            assert reply["type"] == "pong" or reply["message"]
            assert [t.state.view(s) for s in (0, 1)] == before and len(t.state.history) == n
        manager.shutdown()
        manager.store.close()
    asyncio.run(run())


def test_a_client_far_behind_gets_one_fresh_update_and_keeps_its_acks(tmp_path: Path) -> None:
    async def run() -> list[dict[str, Any]]:
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'r.db'}"))
        t = manager.create("card-muggins", None, None, [None, None], grace=0, bot_delay=0)
        t.take_seat(0, "Ann")
        t.take_seat(1, "Bob")
        slow = Connection(0)
        t.attach(slow)
        slow.push({"type": "ack", "ref": 1, "index": 0})
        for _ in range(40):
            seat = min(t.state.waiting_for())
            t.act(seat, next(m for m in t.state.view(seat)["legal"] if m != "muggins"), None)
        out = []
        while not slow.queue.empty():
            m = slow.queue.get_nowait()
            assert m is not None
            out.append(m)
        manager.shutdown()
        return out
    msgs = asyncio.run(run())
    assert len(msgs) < 40 and not any(m.get("type") == "error" for m in msgs)
    assert {"type": "ack", "ref": 1, "index": 0} in msgs
    fresh = [m for m in msgs if m["type"] == "state" and m["event_start"] == 0]
    assert fresh and fresh[-1]["events"][0]["kind"] == "cut_for_deal"  # the whole log again
    last = [m for m in msgs if m["type"] == "state"][-1]
    assert last["table"]["actions"] == 40
