"""The reference client (``muggins bot connect``) plays whole rated games through the bot API, served by
uvicorn on a local port: each game against a person who plays through the table's socket and against a
built-in bot. Every message of the bot's game stream is held against what its seat may not see (the
check of the socket's secrecy test) and every stream line against the API's JSON Schemas; the client
comes back after its server restarts, and stops on Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from muggins.botclient import BotClient, Policy
from muggins.server import botapi
from muggins.server.guard import ClientLimits
from muggins.server.store import accounts_t, seat_owners_t
from tests.server.botapi_helpers import (
    SHORT,
    SocketPlayer,
    auth,
    bot_account,
    make_app,
    person,
    serve,
    validator,
    wait_for,
)
from tests.server.test_secrecy import checked_text, hidden_from, norm, tokens

EVENTS = validator("bot-event.schema.json")
GAME = validator("bot-game.schema.json")
VIEWS = {g: validator(f"view.{g}.schema.json") for g in SHORT}
LOG = validator("events.schema.json")


class RecordingClient(BotClient):
    """The reference client, keeping every stream message it reads."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.lines: list[tuple[str, dict[str, Any]]] = []

    def _lines(self, path: str) -> Iterator[dict[str, Any]]:
        for msg in super()._lines(path):
            self.lines.append((path, msg))
            yield msg

    def post(self, path: str, **params: Any) -> httpx.Response:
        r = super().post(path, **params)
        self.lines.append((path, {"status": r.status_code}))
        return r


@pytest.fixture
def secrecy(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Each message of a bot's game stream, checked when it is made against what its seat may not see."""
    found: dict[str, Any] = {"messages": 0, "own": 0, "leaks": []}
    push = botapi.BotConnection.push

    def checked(self: botapi.BotConnection, msg: dict[str, Any]) -> None:
        push(self, msg)
        if msg.get("type") != "state" or self.seat is None:
            return
        line = {**msg, "legal_moves": botapi.legal_moves(self.table.state, self.seat)}
        seen = tokens(self.table.game, checked_text(line))
        leaked = seen & hidden_from(self.table, self.seat)
        if leaked:
            found["leaks"].append(f"{self.table.game} seat {self.seat}: {sorted(leaked)}")
        found["own"] += len(seen & norm(self.table.game, self.table.state.hands[self.seat]))  # type: ignore[attr-defined]
        found["messages"] += 1

    monkeypatch.setattr(botapi.BotConnection, "push", checked)
    return found


def start(client: BotClient) -> threading.Thread:
    th = threading.Thread(target=client.run, daemon=True)
    th.start()
    return th


def check_lines(client: RecordingClient, game: str) -> None:
    """Every line of the client's streams follows its schema (the views and the events theirs)."""
    kinds = set()
    for path, msg in client.lines:
        if "/stream/" not in path:
            continue  # a request the client made
        if path.endswith("/stream/event"):
            EVENTS.validate(msg)
            assert not tokens(game, json.dumps(msg))  # an event names no piece at all
        else:
            GAME.validate(msg)
            if msg["type"] != "gameFinish":
                VIEWS[game].validate(msg["view"])
                for e in msg["events"]:
                    LOG.validate(e)
        kinds.add(msg["type"])
    assert {"gameStart", "gameFull", "gameFinish"} <= kinds, kinds


def owners(app: Any, table_id: str) -> dict[int, tuple[str, str]]:
    with app.state.store.engine.begin() as c:
        q = (select(seat_owners_t.c.seat, accounts_t.c.username, accounts_t.c.kind)
             .join(accounts_t, accounts_t.c.id == seat_owners_t.c.account_id)
             .where(seat_owners_t.c.table_id == table_id))
        return {s: (u, k) for s, u, k in c.execute(q).all()}


CASES = [(g, opponent) for g in SHORT for opponent in ("person", "house")]


@pytest.mark.parametrize(("game", "opponent"), CASES)
def test_the_reference_client_plays_a_whole_rated_game(tmp_path: Path, secrecy: dict[str, Any], game: str,
                                                       opponent: str) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'bots.db'}")
    preset, options = SHORT[game]
    # the expert searches from the worlds the API gives (a small budget keeps the test short)
    level = "expert:iterations=200:time=0.05" if game == "dominoes" else "casual"
    with serve(app) as base:
        ann = person(base, "ann")
        token = bot_account(ann, "ada-bot")
        client = RecordingClient(base, token, level, Policy("rated"), max_games=1, seed=5, say=lambda _s: None)
        th = start(client)
        body = {"game": game, "preset": preset, "options": options, "rated": True}
        if opponent == "person":
            cid = ann.post("/api/challenge/ada-bot", json=body).json()["id"]
            c = wait_for(lambda: (x := ann.get(f"/api/challenge/{cid}").json())["status"] == "accepted" and x)
            seat_token = ann.post(f"/api/tables/{c['table']}/seats/{c['seat']}", json={}).json()["token"]
            player = SocketPlayer(base, c["table"], seat_token, seed=3)
            player.start()
            table_id = c["table"]
        else:
            r = httpx.post(f"{base}/api/challenge/beginner", headers=auth(token), json=body)
            assert r.status_code == 201 and r.json()["status"] == "accepted", r.text
            table_id = r.json()["table"]
        th.join(300)
        assert not th.is_alive(), "the client did not finish its game"
    t = app.state.manager.get(table_id)
    assert t.status == "finished" and t.meta["rated"] is True
    assert [f["id"] for f in client.finished] == [table_id] and client.finished[0]["status"] == "finished"
    bot_seat = next(i for i, s in enumerate(t.seats) if s.name == "ada-bot")
    linked = owners(app, table_id)
    if opponent == "person":
        assert linked == {bot_seat: ("ada-bot", "bot"), 1 - bot_seat: ("ann", "person")}
        # a move refused only because the other seat moved first (both discard at once in cribbage)
        assert player.moves > 0 and not [e for e in player.errors if "position has passed" not in e]
    else:
        assert linked == {bot_seat: ("ada-bot", "bot")} and t.seats[1 - bot_seat].bot == "beginner"
    assert sum(1 for s, _a in t.state.history if s == bot_seat) > 0  # the client played the bot's moves
    check_lines(client, game)
    assert not secrecy["leaks"], secrecy["leaks"][:3]
    assert secrecy["messages"] > 0 and secrecy["own"] > 0  # the check sees pieces: the seat's own


def test_the_client_presses_next_hand_when_the_table_waits_for_it(tmp_path: Path) -> None:
    # each hand's end waits up to 1000 s for every seated player (the bots' delays stay near nothing)
    app = make_app(f"sqlite:///{tmp_path / 'bots.db'}", hand_pause=1e6, idle_timeout=1e6)
    app.state.manager.time_scale = 1e-3
    with serve(app) as base:
        ann = person(base, "ann")
        token = bot_account(ann, "ada-bot")
        client = RecordingClient(base, token, "beginner", max_games=1, seed=8, say=lambda _s: None)
        th = start(client)
        cid = ann.post("/api/challenge/ada-bot", json={"game": "dominoes", "options": {"target": 100}}).json()["id"]
        c = wait_for(lambda: (x := ann.get(f"/api/challenge/{cid}").json())["status"] == "accepted" and x)
        seat_token = ann.post(f"/api/tables/{c['table']}/seats/{c['seat']}", json={}).json()["token"]
        SocketPlayer(base, c["table"], seat_token, seed=5).start()
        th.join(300)
        assert not th.is_alive()
    nexts = [m["status"] for p, m in client.lines if p.endswith("/next")]
    # a hand ended, the table waited, the client pressed Next hand (409: a press that crossed the other
    # player's, answered from a message sent before the pause ended)
    assert 200 in nexts and set(nexts) <= {200, 409}
    assert app.state.manager.get(c["table"]).status == "finished"


def test_the_client_waits_out_a_refusal_and_answers_the_same_state_again(tmp_path: Path) -> None:
    # two worlds at once, then one every 0.2 s: a bot that answers every state is refused (429) many times
    app = make_app(f"sqlite:///{tmp_path / 'bots.db'}")
    app.state.bots.worlds = ClientLimits("worlds drawn", 300, 2)
    said: list[str] = []
    with serve(app) as base:
        ann = person(base, "ann")
        token = bot_account(ann, "ada-bot")
        client = RecordingClient(base, token, "beginner", max_games=1, seed=4, say=said.append)
        th = start(client)
        preset, options = SHORT["dominoes"]
        r = httpx.post(f"{base}/api/challenge/beginner", headers=auth(token),
                       json={"game": "dominoes", "preset": preset, "options": options})
        assert r.status_code == 201, r.text
        th.join(300)
        assert not th.is_alive(), "the client stopped answering after a refusal"
    refused = [s for s in said if "429" in s]
    assert refused and all("trying again in" in s and "try again" not in s for s in refused), refused[-5:]
    assert app.state.manager.get(r.json()["table"]).status == "finished"


def test_the_event_stream_tells_challenges_and_games(tmp_path: Path) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'bots.db'}")
    with serve(app) as base:
        ann = person(base, "ann")
        token = bot_account(ann, "ada-bot")
        other = bot_account(ann, "bea-bot")
        seen: dict[str, list[dict[str, Any]]] = {"ada": [], "bea": []}

        def follow(name: str, tok: str) -> None:
            with httpx.stream("GET", f"{base}/api/bot/stream/event", headers=auth(tok), timeout=30) as r:
                for line in r.iter_lines():
                    if line.strip():
                        seen[name].append(json.loads(line))

        for name, tok in (("ada", token), ("bea", other)):
            threading.Thread(target=follow, args=(name, tok), daemon=True).start()
        wait_for(lambda: len(app.state.bots.subscribers.get(2, ())) and len(app.state.bots.subscribers.get(3, ())))
        first = ann.post("/api/challenge/ada-bot", json={"game": "cribbage"}).json()
        httpx.post(f"{base}/api/bot/challenge/{first['id']}/decline", headers=auth(token))
        second = ann.post("/api/challenge/ada-bot", json={"game": "dominoes"}).json()
        ann.post(f"/api/challenge/{second['id']}/cancel")
        third = httpx.post(f"{base}/api/challenge/ada-bot", headers=auth(other), json={"game": "card-muggins"}).json()
        httpx.post(f"{base}/api/bot/challenge/{third['id']}/decline", headers=auth(token))
        house = httpx.post(f"{base}/api/challenge/club", headers=auth(token), json={"game": "dominoes"}).json()
        assert httpx.post(f"{base}/api/bot/game/{house['table']}/resign", headers=auth(token)).status_code == 200
        wait_for(lambda: [e["type"] for e in seen["ada"]][-1:] == ["gameFinish"])
        wait_for(lambda: seen["bea"])
        # the stream of an ended game: its whole state, then its end, and it closes
        ended = httpx.get(f"{base}/api/bot/game/stream/{house['table']}", headers=auth(token), timeout=30)
        lines = [json.loads(x) for x in ended.text.splitlines() if x.strip()]
        assert [m["type"] for m in lines] == ["gameFull", "gameFinish"] and lines[1]["table"]["status"] == "resigned"
        for m in lines:
            GAME.validate(m)
    assert [e["type"] for e in seen["ada"]] == ["challenge", "challenge", "challengeCanceled", "challenge",
                                               "gameStart", "gameFinish"]
    assert [e["type"] for e in seen["bea"]] == ["challengeDeclined"]
    for e in seen["ada"] + seen["bea"]:
        EVENTS.validate(e)
    finish = seen["ada"][-1]["game"]
    assert (finish["id"], finish["status"]) == (house["table"], "resigned")
    assert finish["winners"] == [1 - finish["seat"]]


def test_the_client_comes_back_after_its_server_restarts(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'bots.db'}"
    app = make_app(db)
    lines: list[str] = []
    with serve(app) as base:
        ann = person(base, "ann")
        token = bot_account(ann, "ada-bot")
        client = RecordingClient(base, token, "beginner", max_games=1, seed=2, say=lines.append)
        th = start(client)
        preset, options = SHORT["dominoes"]
        cid = ann.post("/api/challenge/ada-bot", json={"game": "dominoes", "preset": preset, "options": options,
                                                      "rated": True}).json()["id"]
        c = wait_for(lambda: (x := ann.get(f"/api/challenge/{cid}").json())["status"] == "accepted" and x)
        wait_for(lambda: any(p.startswith("/api/bot/game/stream/") for p, _m in client.lines))
        cookies = dict(ann.cookies)
    # the server is gone: the client's streams drop; a new server on the same port and store takes over
    app2 = make_app(db)
    with serve(app2) as base2:
        assert base2 == base
        ann2 = httpx.Client(base_url=base2, cookies=cookies, timeout=30)
        seat_token = ann2.post(f"/api/tables/{c['table']}/seats/{c['seat']}", json={}).json()["token"]
        player = SocketPlayer(base2, c["table"], seat_token, seed=4)
        player.start()
        th.join(300)
        assert not th.is_alive()
    assert app2.state.manager.get(c["table"]).status == "finished"
    assert [f["id"] for f in client.finished] == [c["table"]]
    assert any("dropped" in line for line in lines), lines


def test_ctrl_c_stops_the_client_cleanly(tmp_path: Path) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'bots.db'}")
    with serve(app) as base:
        token = bot_account(person(base, "ann"), "ada-bot")
        env = {**os.environ, "MUGGINS_BOT_TOKEN": token}
        proc = subprocess.Popen([sys.executable, "-m", "muggins", "bot", "connect", base, "--bot", "beginner"],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        assert proc.stdout is not None
        assert "connected as ada-bot" in proc.stdout.readline()
        wait_for(lambda: app.state.bots.subscribers.get(2))
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0, out
    assert "stopped" in out and "Traceback" not in out


def test_a_revoked_token_stops_the_client_with_an_error(tmp_path: Path) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'bots.db'}")
    with serve(app) as base:
        ann = person(base, "ann")
        token = bot_account(ann, "ada-bot")
        ident = ann.get("/api/bot/accounts/ada-bot/tokens").json()["tokens"][0]["id"]
        assert ann.delete(f"/api/bot/tokens/{ident}").status_code == 200
        out = subprocess.run([sys.executable, "-m", "muggins", "bot", "connect", base, "--token", token],
                             capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "401" in out.stdout and "Traceback" not in out.stdout + out.stderr


def test_a_bot_that_fails_plays_the_first_regular_move_and_the_game_ends(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken:
        name = "broken"

        def act(self, *_args: Any) -> Any:
            raise RuntimeError("a bug in the bot")

    app = make_app(f"sqlite:///{tmp_path / 'bots.db'}")
    said: list[str] = []
    with serve(app) as base:
        token = bot_account(person(base, "ann"), "ada-bot")
        client = RecordingClient(base, token, "beginner", max_games=1, say=said.append)
        monkeypatch.setattr("muggins.botclient.make_bot", lambda *_a: Broken())
        th = start(client)
        r = httpx.post(f"{base}/api/challenge/beginner", headers=auth(token), json={"game": "card-muggins"})
        th.join(300)
        assert not th.is_alive()
    assert app.state.manager.get(r.json()["table"]).status == "finished"
    assert any("the bot failed (RuntimeError)" in line for line in said)
