"""The muggins window in real time. With a person seated who may call Muggins, every play that opens a
window makes the bots wait out the same grace period, whether the play scored, was announced right or
missed points: the pause must not tell the person to call. A bot's own call waits only for its reaction
time (the call itself is public)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from muggins.core.protocol import Action
from muggins.server.app import handle_message
from muggins.server.guard import RateLimiter
from muggins.server.store import Store
from muggins.server.tables import Connection, GameTable, TableManager


def regular(table: GameTable, seat: int) -> Action:
    return next(a for a in table.state.legal_actions(seat) if a.kind not in ("muggins", "claim"))


def missed_now(table: GameTable) -> bool:
    """Whether points are left to take (what a person must not learn from the timing)."""
    return any(table.state.muggable(i) > 0 for i in range(len(table.seats)))


def ks_statistic(a: list[float], b: list[float]) -> float:
    """The two-sample Kolmogorov-Smirnov statistic: the largest gap between the two empirical CDFs."""
    points = sorted(set(a) | set(b))
    return max(abs(sum(x <= p for x in a) / len(a) - sum(x <= p for x in b) / len(b)) for p in points)


async def sample_delays(tmp: Path, rounds: int = 40) -> tuple[dict[bool, list[float]], dict[bool, set[Any]], int]:
    """Bots' plays made by hand (scoring ones alternately announced right and missed), and after each play
    the delay the next bot would wait and the grace countdown the person is sent, by whether points were
    missed. The clock stands still, so every sample is exact."""
    manager = TableManager(Store(f"sqlite:///{tmp / 'd.db'}"))
    manager.clock = lambda: 1000.0
    delays: dict[bool, list[float]] = {True: [], False: []}
    shown: dict[bool, set[Any]] = {True: set(), False: set()}
    scored_right = 0
    toggle = False
    for _ in range(rounds):
        t = manager.create("dominoes", None, None, [None, "beginner", "beginner"], grace=3.0, bot_delay=0.25)
        t.take_seat(0, "Ann")
        conn = Connection(0)
        t.attach(conn)
        st: Any = t.state
        for _ in range(300):
            if st.is_over():
                break
            seat = min(st.waiting_for())
            move = regular(t, seat)
            points = st.claim_for(seat, move)
            if t.seats[seat].bot is None:
                t._apply(seat, move.with_claim(points or None))
                continue
            if points:
                toggle = not toggle
                scored_right += toggle
            t._apply(seat, move.with_claim(points if points and toggle else None))
            if st.is_over():
                break
            nxt = min(st.waiting_for())
            if t.seats[nxt].bot is None or move.kind != "play":  # a draw or a pass opens no window
                continue
            miss = missed_now(t)
            delays[miss].append(t.delay_for(nxt, regular(t, nxt)))
            msg = t.message_for(conn)
            table = {k: v for k, v in msg["table"].items() if k not in ("id", "created", "scores", "actions")}
            shown[miss].add(json.dumps({"grace_left": msg.get("grace_left"), "table": table}, sort_keys=True))
        if len(delays[True]) >= 8 and len(delays[False]) >= 20:
            break
    manager.shutdown()
    manager.store.close()
    return delays, shown, scored_right


def test_the_bots_wait_the_same_after_a_miss_as_after_any_other_play(tmp_path: Path) -> None:
    delays, shown, scored_right = asyncio.run(sample_delays(tmp_path))
    assert len(delays[True]) >= 8 and len(delays[False]) >= 20 and scored_right > 0
    assert set(delays[True]) == set(delays[False]) == {3.0}, {k: sorted(set(v)) for k, v in delays.items()}
    assert ks_statistic(delays[True], delays[False]) == 0.0
    # nothing sent to the person differs either: the same grace countdown and the same table fields
    assert shown[True] == shown[False] and len(shown[True]) == 1
    assert json.loads(next(iter(shown[True])))["grace_left"] == 3.0


async def play_with_real_bots(tmp: Path, games: int) -> tuple[dict[bool, list[float]], list[float]]:
    """Whole games with the bots on the event loop (delays scaled down) and a scripted person at seat 0
    who announces right. Every delay a bot is scheduled with while a muggins window is open on a bot's play
    (public: the person may call) is recorded, by whether points were missed (the secret); so are the bots' calls."""
    manager = TableManager(Store(f"sqlite:///{tmp / 'b.db'}"), time_scale=0.002)
    delays: dict[bool, list[float]] = {True: [], False: []}
    calls: list[float] = []
    for _ in range(games):
        t = manager.create("dominoes", None, {"target": 100}, [None, "beginner", "beginner"], grace=3.0,
                           bot_delay=0.25)
        t.take_seat(0, "Ann")
        t.attach(Connection(0))
        st: Any = t.state

        def recording(seat: int, action: Action, t: GameTable = t,
                      original: Callable[[int, Action], float] = t.delay_for) -> float:
            d = original(seat, action)
            if action.kind == "muggins":
                calls.append(d)
            elif (w := t.state.view(None)["window"]) is not None and w["scorer"] != 0:  # on a bot's play
                delays[missed_now(t)].append(d)
            return d

        t.delay_for = recording  # type: ignore[method-assign]
        for _ in range(20000):
            if st.is_over():
                break
            if 0 in st.waiting_for():
                move = regular(t, 0)
                t.act(0, st.format_action(move), st.claim_for(0, move) or None)
            await asyncio.sleep(0.001)
        assert st.is_over(), len(st.history)
        if len(delays[True]) >= 4:
            break
    manager.shutdown()
    manager.store.close()
    return delays, calls


def test_real_bots_wait_the_same_after_a_miss(tmp_path: Path) -> None:
    delays, _calls = asyncio.run(play_with_real_bots(tmp_path, 15))  # it stops once it has enough misses
    assert len(delays[True]) >= 4 and len(delays[False]) >= 10, {k: len(v) for k, v in delays.items()}
    assert ks_statistic(delays[True], delays[False]) == 0.0, {k: sorted(set(v)) for k, v in delays.items()}


def test_no_grace_when_no_person_may_call(tmp_path: Path) -> None:
    async def run() -> tuple[float, list[float], list[float], Any]:
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'n.db'}"))
        t = manager.create("dominoes", None, None, [None, "beginner"], grace=3.0, bot_delay=0.25)
        t.take_seat(0, "Ann")
        start = t.delay_for(1, regular(t, min(t.state.waiting_for())))  # no play yet: nothing to call on
        # the person's own plays open windows only the bot may call on: no grace for a person
        own: list[float] = []
        for _ in range(5):  # a short game may end before ten samples: deal another table
            st: Any = t.state
            while not st.is_over() and len(own) < 10:
                seat = min(st.waiting_for())
                move = regular(t, seat)
                t._apply(seat, move)
                if seat == 0 and move.kind == "play" and st.waiting_for() == {1}:
                    own.append(t.delay_for(1, regular(t, 1)))
            if len(own) >= 10:
                break
            t = manager.create("dominoes", None, None, [None, "beginner"], grace=3.0, bot_delay=0.25)
            t.take_seat(0, "Ann")
        # a game without the muggins rule never opens a window
        plain: list[float] = []
        for _ in range(5):  # likewise: a short game may end before ten samples
            u = manager.create("card-muggins", "no-muggins", None, [None, "beginner"], grace=3.0, bot_delay=0.25)
            u.take_seat(0, "Ann")
            ust: Any = u.state
            while not ust.is_over() and len(plain) < 10:
                seat = min(ust.waiting_for())
                u._apply(seat, regular(u, seat))
                if not ust.is_over() and ust.waiting_for() == {1}:
                    plain.append(u.delay_for(1, regular(u, 1)))
            if len(plain) >= 10:
                break
        msg = u.message_for(Connection(0))
        manager.shutdown()
        return start, own, plain, msg
    start, own, plain, msg = asyncio.run(run())
    assert start == 0.25
    assert len(own) >= 5 and set(own) == {0.25}
    assert len(plain) >= 5 and set(plain) == {0.25}
    assert msg["grace_left"] is None and msg["table"]["muggins_rule"] is False


def test_a_bots_call_waits_for_its_reaction_time_only(tmp_path: Path) -> None:
    async def run() -> tuple[float, float, Any]:
        manager = TableManager(Store(f"sqlite:///{tmp_path / 'c.db'}"))
        t = manager.create("dominoes", None, None, [None, "beginner", "beginner"], grace=3.0, bot_delay=0.25)
        t.take_seat(0, "Ann")
        st: Any = t.state
        while not t.grace_open:  # up to a bot's play a person may call on
            seat = min(st.waiting_for())
            t._apply(seat, regular(t, seat))
        nxt = min(st.waiting_for())
        bot = t.seats[nxt].bot_obj if t.seats[nxt].bot_obj is not None else t.seats[1].bot_obj
        manager.shutdown()
        return t.delay_for(nxt, regular(t, nxt)), t.delay_for(1, Action("muggins")), bot
    play, call, bot = asyncio.run(run())
    assert play == 3.0
    assert 0 <= call < 3.0 or bot.attention.reaction_spread > 0
    if bot.attention.reaction_spread == 0:
        assert call == bot.attention.reaction


JSONish = hs.recursive(hs.none() | hs.booleans() | hs.integers() | hs.text(max_size=20),
                       lambda c: hs.lists(c, max_size=4) | hs.dictionaries(hs.text(max_size=8), c, max_size=4),
                       max_leaves=10)
MOVES = hs.one_of(hs.text(max_size=30), hs.sampled_from(["draw", "pass", "knock", "muggins", "claim 5", "6-6",
                                                         "5-5 on 9-9", "99999999999-1", "play AH", "go"]))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=hs.one_of(hs.text(max_size=60), JSONish.map(json.dumps),
                     hs.builds(lambda m, c, at: json.dumps({"type": "act", "move": m, "claim": c, "at": at}), MOVES,
                               hs.one_of(hs.none(), hs.integers(-5, 50), hs.text(max_size=3)),
                               hs.one_of(hs.just(0), hs.none(), hs.integers(-2, 3), hs.booleans(),
                                         hs.text(max_size=2)))))
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
        reply = await handle_message(t, conn, raw, RateLimiter(100, 100))
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
