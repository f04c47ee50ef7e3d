"""The bot API in scale-out mode, across real `muggins serve` processes on one Redis and one database: the
reference client connected to a process that does not own its table plays a whole game (its game stream
relayed from the owner, its events published to every process), and a challenge made on one process is
answered on another after the first one died."""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
import redis

from muggins.botclient import Policy
from tests.server.botapi_helpers import SHORT, auth, bot_account, person, wait_for
from tests.server.test_botapi_games import RecordingClient, check_lines, start
from tests.server.test_failover import assert_no_leak, servers, show_logs, stop


@dataclass
class Site:
    """Two scale-out processes (``owner``, where the tables are made, and ``other``), a person (``ann``, logged
    in on ``owner``) and her bot account's token."""

    procs: dict[int, subprocess.Popen[bytes]]
    owner: str
    other: str
    who: str
    bot: str
    ann: httpx.Client
    token: str

    def owner_plays(self, redis_url: str, table_id: str) -> bool:
        lease: Any = redis.Redis.from_url(redis_url).get(f"muggins:lease:{table_id}")
        return lease is not None and f":{self.procs[int(self.owner.rsplit(':', 1)[1])].pid}:" in lease.decode()


@contextmanager
def site(redis_url: str, tmp_path: Path) -> Iterator[Site]:
    _, procs = servers(redis_url, tmp_path, count=2)
    try:
        owner, other = (f"http://127.0.0.1:{port}" for port in procs)
        tag = secrets.token_hex(3)  # names new in the database (PostgreSQL's is not emptied between tests)
        who, bot = f"ann{tag}", f"ada{tag}-bot"
        ann = person(owner, who)
        yield Site(procs, owner, other, who, bot, ann, bot_account(ann, bot))
    finally:
        stop(procs)


def test_the_reference_client_plays_through_a_process_that_does_not_own_its_table(redis_url: str,
                                                                                  tmp_path: Path) -> None:
    with site(redis_url, tmp_path) as s:
        owner, other, ann, token = s.owner, s.other, s.ann, s.token
        client = RecordingClient(other, token, "beginner", Policy("rated"), max_games=1, seed=5,
                                 say=lambda _s: None)
        th = start(client)
        # an unrated challenge made on the owner reaches the client's event stream on the other process,
        # which declines it there: the stream is open before the game starts
        cid = ann.post(f"/api/challenge/{s.bot}", json={"game": "cribbage"}).json()["id"]
        wait_for(lambda: ann.get(f"/api/challenge/{cid}").json()["status"] == "declined")
        preset, options = SHORT["dominoes"]
        r = httpx.post(f"{owner}/api/challenge/beginner", headers=auth(token),
                       json={"game": "dominoes", "preset": preset, "options": options, "rated": True})
        assert r.status_code == 201, r.text
        table_id = r.json()["table"]
        assert s.owner_plays(redis_url, table_id)
        th.join(300)
        if th.is_alive():
            show_logs(tmp_path)
        assert not th.is_alive(), "the client did not finish its game"
        assert [f["id"] for f in client.finished] == [table_id] and client.finished[0]["status"] == "finished"
        rec = httpx.get(f"{other}/api/tables/{table_id}/record").json()
    events = [m["type"] for p, m in client.lines if p == "/api/bot/stream/event"]
    # (a challenge made while the stream opens may be told twice: in its first lines and as it happens)
    assert events[0] == "challenge" and "gameStart" in events and set(events) <= {"challenge", "gameStart",
                                                                                  "gameFinish"}
    stream = [m for p, m in client.lines if p == f"/api/bot/game/stream/{table_id}"]
    seat = stream[0]["you"]
    assert sum(1 for e in rec["actions"] if e["seat"] == seat) > 0  # the client's moves were played
    assert stream[-1]["type"] == "gameFinish" and stream[-1]["table"]["status"] == "finished"
    check_lines(client, "dominoes")
    # the relayed stream carries nothing its seat may not see
    seen: Any = SimpleNamespace(seat=seat, states=[m for m in stream if "view" in m])  # as a socket's person
    assert_no_leak("dominoes", rec, [seen])


def test_a_challenge_outlives_the_process_it_was_made_on(redis_url: str, tmp_path: Path) -> None:
    with site(redis_url, tmp_path) as s:
        who, bot, ann, token, first = s.who, s.bot, s.ann, s.token, s.procs[int(s.owner.rsplit(":", 1)[1])]
        cid = ann.post(f"/api/challenge/{bot}", json={"game": "cribbage", "players": 2}).json()["id"]
        os.kill(first.pid, signal.SIGKILL)
        first.wait()
        base = s.other
        # the other process knows it: the bot's event stream there tells it, its status is there
        with httpx.stream("GET", f"{base}/api/bot/stream/event", headers=auth(token), timeout=30) as r:
            told = json.loads(next(line for line in r.iter_lines() if line.strip()))
        assert told["type"] == "challenge" and told["challenge"]["id"] == cid
        there = httpx.Client(base_url=base, cookies=ann.cookies, timeout=30)
        assert there.get(f"/api/challenge/{cid}").json()["status"] == "created"
        accepted = httpx.post(f"{base}/api/bot/challenge/{cid}/accept", headers=auth(token), timeout=30)
        assert accepted.status_code == 200, accepted.text
        c = there.get(f"/api/challenge/{cid}").json()
        assert c["status"] == "accepted" and c["table"] == accepted.json()["game"]["id"]
        again = httpx.post(f"{base}/api/bot/challenge/{cid}/decline", headers=auth(token), timeout=30)
        assert again.status_code == 409  # answered once
        table = there.get(f"/api/tables/{c['table']}").json()
        assert [seat["name"] for seat in table["seats"]][c["seat"]] == who
        assert bot in [seat["name"] for seat in table["seats"]]


def test_a_bot_invited_to_a_table_of_another_process_is_seated_there(redis_url: str, tmp_path: Path) -> None:
    with site(redis_url, tmp_path) as s:
        other, who, bot, ann, token = s.other, s.who, s.bot, s.ann, s.token
        t = ann.post("/api/tables", json={"game": "dominoes", "seats": [None, None]}).json()
        assert ann.post(f"/api/tables/{t['id']}/seats/0", json={}).status_code == 200
        there = httpx.Client(base_url=other, cookies=ann.cookies, timeout=30)
        # the invitation and its acceptance, both sent to the other process, are run at the table's owner
        c = there.post(f"/api/challenge/{bot}", json={"table": t["id"], "seat": 1})
        assert c.status_code == 201, c.text
        accepted = httpx.post(f"{other}/api/bot/challenge/{c.json()['id']}/accept", headers=auth(token), timeout=30)
        assert accepted.status_code == 200, accepted.text
        assert there.get(f"/api/challenge/{c.json()['id']}").json()["status"] == "accepted"
        table = there.get(f"/api/tables/{t['id']}").json()
        assert [seat["name"] for seat in table["seats"]] == [who, bot] and table["status"] == "playing"
        assert s.owner_plays(redis_url, t["id"])  # played where it was made


if not os.environ.get("MUGGINS_TEST_REDIS_URL") and os.environ.get("CI") != "true":
    pytestmark = pytest.mark.skip("no Redis server to test against")
