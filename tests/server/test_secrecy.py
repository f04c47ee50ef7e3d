"""No message to a seat or a spectator ever carries what that seat may not know.

Whole games are played by bots (with their muggins calls) while a connection per seat and a spectator
record every message; each message is checked, at the moment it is sent, against the tiles or cards
then hidden from its receiver: the other hands and the boneyard, stock or pack."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from muggins.server.store import Store
from muggins.server.tables import Connection, GameTable, TableManager

TILE = re.compile(r"(?<![\w-])(\d{1,2})-(\d{1,2})(?![\w-])")


NEW_DEAL = {"hand_start", "round_start", "deal"}
SHOWN = {"show", "explain", "hand_end"}  # hands laid down to be counted


def revealed_before_deal(event: dict[str, Any]) -> bool:
    """The lots (tiles or cards) drawn for the first lead or deal, shown to all, then shuffled back."""
    return event.get("kind") in ("lot", "cut_for_deal") or (event.get("kind") == "cut" and "seats" in event)


CARD = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK][SHDC])(?![A-Za-z0-9])")


def tokens(game: str, text: str) -> set[str]:
    if game == "dominoes":
        return {"-".join(sorted(m, key=int)) for m in TILE.findall(text)}
    return set(CARD.findall(text))


def norm(game: str, items: Any) -> set[str]:
    return tokens(game, " ".join(f" {x} " for x in items))


def hidden_from(table: GameTable, seat: int | None) -> set[str]:
    return hidden_in(table.game, table.state, seat)


def hidden_in(game: str, st: Any, seat: int | None) -> set[str]:
    """The tiles or cards of ``st`` that ``seat`` (None: a spectator) may not see."""
    out: set[str] = set()
    for j, hand in enumerate(st.hands):
        if j != seat:
            out |= norm(game, hand)
    if game == "dominoes":
        out |= norm(game, st.boneyard)
    elif game == "card-muggins":
        out |= norm(game, st.stock)
    else:
        starter = getattr(st, "starter", None)
        out |= norm(game, [c for c in st.pack if c != starter])
    return out


def checked_text(msg: dict[str, Any], peek: list[str] | None = None) -> str:
    """The part of a state message held against what is hidden from its receiver, as text."""
    body = dict(msg)
    # lots drawn for the first lead or deal are shown to all and shuffled back before the deal
    # and a show (with its explanation, given once the muggins window closes, which may be after
    # the next deal) lays down cards for everybody to count
    events = [e for e in body.get("events", []) if not revealed_before_deal(e) and e.get("kind") not in SHOWN]
    # an action that ends a hand also deals the next: the ended hand's events (its show, its
    # hands laid down) reveal cards that the new deal hides again, so only the events from the
    # new deal on are held against what is hidden now
    starts = [i for i, e in enumerate(events) if e.get("kind") in NEW_DEAL]
    body["events"] = events[starts[-1]:] if starts else events
    # likewise the view's record of the previous hand (its shows) and the hand's end that a pause holds on
    # screen (the hands laid down) are public history
    body["view"] = {k: v for k, v in body["view"].items() if k != "previous_hand"}
    body.pop("hand_end", None)
    if peek is not None:  # the control: a server that shows the next hand
        body["view"]["peek"] = peek
    summary = dict(body.pop("table", {}))
    table_id = summary.pop("id", None)
    text = json.dumps([body, summary])
    # the table's id is random letters, digits, - and _: "6D_9CHN..." names no card (it is also in addresses)
    return text.replace(table_id, "") if table_id else text


class Recorder(Connection):
    """A connection that checks each message when it is sent."""

    def __init__(self, table: GameTable, seat: int | None, found: dict[str, int], problems: list[str]) -> None:
        super().__init__(seat)
        self.problems = problems
        self.inject = False
        self.table = table
        self.found = found

    def push(self, msg: dict[str, Any]) -> None:
        peek = None
        if self.inject and self.seat is not None:  # the control: a server that shows the next hand
            other: Any = self.table.state.hands[(self.seat + 1) % len(self.table.seats)]  # type: ignore[attr-defined]
            peek = [str(x) for x in other]
        text = checked_text(msg, peek)
        seen = tokens(self.table.game, text)
        leaked = seen & hidden_from(self.table, self.seat)
        if leaked:  # recorded, not raised: this runs inside the bots' tasks
            self.found["leaks"] += 1
            self.problems.append(f"{self.table.game} seat {self.seat}: {sorted(leaked)} in {text[:6000]}")
        if self.seat is not None:
            own = norm(self.table.game, self.table.state.hands[self.seat])  # type: ignore[attr-defined]
            self.found["own"] += len(seen & own)
        self.found["messages"] += 1
        self.found["muggins"] += sum(1 for e in msg.get("events", []) if e.get("kind") == "muggins")


async def play_tables(tmp: Path, specs: list[tuple[str, dict[str, Any], list[str]]], inject: bool = False
                      ) -> dict[str, int]:
    manager = TableManager(Store(f"sqlite:///{tmp / 'secrecy.db'}"), time_scale=0.0)
    found = {"own": 0, "messages": 0, "muggins": 0, "leaks": 0}
    problems: list[str] = []
    tables = []
    for game, options, seats in specs:
        t = manager.create(game, None, options, seats, grace=0, bot_delay=0)
        for s in [None, *range(len(seats))]:
            rec = Recorder(t, s, found, problems)
            rec.inject = inject
            t.attach(rec)
        tables.append(t)
    for _ in range(20000):
        if all(t.state.is_over() for t in tables):
            break
        await asyncio.sleep(0.001)
    manager.shutdown()
    manager.store.close()
    if inject:
        return {"caught": len(problems)}
    assert not problems, problems[:3]
    assert all(t.state.is_over() for t in tables), [len(t.state.history) for t in tables]
    return found


SPECS: list[tuple[str, dict[str, Any], list[str]]] = [
    ("dominoes", {"target": 100}, ["beginner", "casual"]),
    ("dominoes", {"target": 60}, ["beginner", "beginner", "club"]),
    ("card-muggins", {}, ["beginner", "casual"]),
    ("card-muggins", {}, ["beginner", "beginner", "casual"]),
    ("cribbage", {"claims": "manual", "target": 61}, ["beginner", "casual"]),
]


def test_no_message_carries_a_hidden_tile_or_card(tmp_path: Path) -> None:
    found = asyncio.run(play_tables(tmp_path, SPECS * 2))
    assert found["messages"] > 1000
    assert found["muggins"] > 0  # the games include muggins calls
    assert found["own"] > 100  # the check does see pieces: each seat's own hand shows in its messages


def test_the_check_catches_a_leak(tmp_path: Path) -> None:
    caught = asyncio.run(play_tables(tmp_path, SPECS, inject=True))
    assert caught["caught"] > 0


@pytest.mark.slow
def test_no_message_leaks_over_many_games(tmp_path: Path) -> None:
    found = asyncio.run(play_tables(tmp_path, SPECS * 8))
    assert found["messages"] > 4000


def test_a_table_id_that_looks_like_a_card_is_not_taken_for_one() -> None:
    """Table ids are random: one may read "6D_..." (or "5-3..."), here and in the record's address."""
    for table_id in ("6D_9CHNBadbC", "x-5-3-Qq9"):
        msg = {"type": "state", "view": {"seat": 1}, "events": [], "record": f"/api/tables/{table_id}/record",
               "table": {"id": table_id}}
        text = checked_text(msg)
        assert not tokens("cribbage", text) and not tokens("dominoes", text), text
    leak = checked_text({"type": "state", "view": {"hand": ["6D"]}, "events": [], "table": {"id": "abc"}})
    assert tokens("cribbage", leak) == {"6D"}
