"""The reference client of the bot API (docs/bot-api.md): one of this package's bots plays a bot account's
games on a server.

It follows the bot's event stream, accepts the challenges its options allow (declines the others), and
plays each game in a thread of its own: it follows the game's stream and, whenever its seat has a legal
move, asks the server for a *world* of that position (``GET /api/bot/game/{id}/world``: a whole game the
seat cannot tell from the real one, its hidden pieces drawn by the game's own sampling from what the seat
has seen), replays that record into a state, and lets the bot choose there, exactly as a built-in bot
chooses on the server (a search bot samples again from it, which gives the same worlds as sampling from
the true game). The move goes back in the game's notation, with its claim and the position it was chosen
in, so a move never lands in a later position. A dropped stream is opened again (waiting 1, 2, 4 ... 30 s
between attempts); Ctrl-C stops the client cleanly.
"""

from __future__ import annotations

import json
import logging
import queue
import random
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx

from muggins.bots.registry import make_bot
from muggins.core.records import replay

log = logging.getLogger("muggins.botclient")
ACCEPT = ("all", "rated", "casual", "none")
RETRY_FIRST, RETRY_MOST = 1.0, 30.0
BUSY = (429, 503)  # refused for now: asked again after Retry-After
JOIN_SECONDS = 10.0   # how long a stopping client waits for each game's thread
READ_TIMEOUT = 60.0   # seconds without a byte (the server sends a newline every few) before reconnecting


_TRY_AGAIN = re.compile(r"[;,]?\s*try again in [^;]*$")


class _Later(Exception):
    """The server asked the client to come back (429 or 503): the same state is answered again then."""

    def __init__(self, r: httpx.Response) -> None:
        # the client says when it tries again: the server's own "try again in ..." would say it twice
        super().__init__(f"{r.status_code} {_TRY_AGAIN.sub('', _error_of(r))}")
        try:
            self.wait = min(RETRY_MOST, max(0.05, float(r.headers.get("Retry-After", RETRY_FIRST))))
        except ValueError:
            self.wait = RETRY_FIRST


class ClientError(Exception):
    """The server refused the client for good (a revoked token, a bot with no rights): it stops."""


@dataclass
class Policy:
    """Which challenges the client accepts."""

    accept: str = "all"
    games: frozenset[str] = frozenset()  # empty: every game

    def allows(self, challenge: dict[str, Any]) -> bool:
        if self.games and challenge.get("game") not in self.games:
            return False
        rated = bool(challenge.get("rated"))
        return self.accept == "all" or (self.accept == "rated" and rated) or (self.accept == "casual" and not rated)


@dataclass
class BotClient:
    """Connects to ``url`` with a bot ``token`` and plays as ``bot`` (a level or skill ``make_bot`` knows)."""

    url: str
    token: str
    bot: str = "expert"
    policy: Policy = field(default_factory=Policy)
    max_games: int | None = None      # stop after this many games ended (None: run until stopped)
    seed: int | None = None
    say: Callable[[str], None] = field(default=lambda text: print(text, flush=True))
    transport: httpx.BaseTransport | None = None

    def __post_init__(self) -> None:
        make_bot(self.bot)  # a bad bot name is refused before anything is connected
        self.stop = threading.Event()
        self.rng = random.Random(self.seed)
        self.lock = threading.Lock()
        self.playing: dict[str, threading.Thread] = {}
        self.finished: list[dict[str, Any]] = []
        self.http = httpx.Client(base_url=self.url.rstrip("/"), transport=self.transport,
                                 headers={"Authorization": f"Bearer {self.token}"},
                                 timeout=httpx.Timeout(30.0, read=READ_TIMEOUT))

    # --- the connection ---------------------------------------------------------------------------------
    def _lines(self, path: str) -> Iterator[dict[str, Any]]:
        """The messages of one NDJSON stream (keep-alive newlines skipped) until it ends or the client
        stops; ClientError for a refusal that trying again cannot mend."""
        with self.http.stream("GET", path) as r:
            if r.status_code in (401, 403, 404):
                r.read()
                raise ClientError(f"{path}: {r.status_code} {_error_of(r)}")
            r.raise_for_status()
            for line in r.iter_lines():
                if self.stop.is_set():
                    return
                if line.strip():
                    yield json.loads(line)

    def _follow(self, path: str, handle: Callable[[dict[str, Any]], bool]) -> None:
        """Follow a stream, opened again whenever it drops, until ``handle`` returns True (done), the
        client stops, or the server refuses it for good."""
        wait = RETRY_FIRST
        while not self.stop.is_set():
            try:
                for msg in self._lines(path):
                    wait = RETRY_FIRST
                    if handle(msg):
                        return
                if self.stop.is_set():
                    return
            except (httpx.TransportError, httpx.HTTPStatusError) as e:
                self.say(f"{path}: the stream dropped ({type(e).__name__}); again in {wait:g} s")
            if self.stop.wait(wait):
                return
            wait = min(RETRY_MOST, wait * 2)

    def post(self, path: str, **params: Any) -> httpx.Response:
        return self.http.post(path, params={k: v for k, v in params.items() if v is not None})

    # --- events -----------------------------------------------------------------------------------------
    def run(self) -> list[dict[str, Any]]:
        """Play until stopped (or ``max_games`` have ended); returns the ended games' summaries."""
        me = self.http.get("/api/bot/account")
        if me.status_code != 200:
            raise ClientError(f"the token is refused: {me.status_code} {_error_of(me)}")
        self.say(f"connected as {me.json()['username']}, playing as {self.bot}")
        try:
            self._follow("/api/bot/stream/event", self.on_event)
        finally:
            self.stop.set()
            for t in list(self.playing.values()):
                t.join(timeout=JOIN_SECONDS)
            # closed aside, its wait bounded: a Ctrl-C that lands inside the connection pool can leave the
            # pool's lock held, and closing would then wait for it forever
            closer = threading.Thread(target=self.http.close, daemon=True, name="close")
            closer.start()
            closer.join(timeout=JOIN_SECONDS)
        return self.finished

    def on_event(self, event: dict[str, Any]) -> bool:
        kind = event.get("type")
        if kind == "challenge":
            c = event["challenge"]
            ok = self.policy.allows(c)
            r = self.post(f"/api/bot/challenge/{c['id']}/{'accept' if ok else 'decline'}")
            self.say(f"challenge {c['id']} from {c['challenger']['name']} ({c['game']}): "
                     f"{'accepted' if ok else 'declined'} ({r.status_code})")
        elif kind == "gameStart":
            game = event["game"]
            with self.lock:
                if game["id"] not in self.playing:
                    t = threading.Thread(target=self.play, args=(game["id"],), daemon=True,
                                         name=f"game {game['id']}")
                    self.playing[game["id"]] = t
                    t.start()
        with self.lock:
            return self.max_games is not None and len(self.finished) >= self.max_games

    # --- a game -----------------------------------------------------------------------------------------
    def play(self, table_id: str) -> None:
        """Play one game to its end: a reader thread follows the stream, this one answers the newest state."""
        inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        bot = make_bot(self.bot, self.rng.randrange(2**62))

        def read(msg: dict[str, Any]) -> bool:
            inbox.put(msg)
            return msg.get("type") == "gameFinish"

        def reader() -> None:
            try:
                self._follow(f"/api/bot/game/stream/{table_id}", read)
            except ClientError as e:
                self.say(f"game {table_id}: {e}")
            finally:
                inbox.put(None)

        threading.Thread(target=reader, daemon=True, name=f"stream {table_id}").start()
        while not self.stop.is_set():
            msg = inbox.get()
            while msg is not None and msg.get("type") != "gameFinish":  # only the newest state is answered
                try:
                    msg = inbox.get_nowait()
                except queue.Empty:
                    break
            if msg is None:
                return
            if msg.get("type") == "gameFinish":
                t = msg["table"]
                with self.lock:
                    self.finished.append(t)
                    if self.max_games is not None and len(self.finished) >= self.max_games:
                        self.stop.set()  # the event stream ends at its next line (a keep-alive at the latest)
                self.say(f"game {table_id} {t['status']}: scores {t['scores']}, winners {t['winners']}")
                return
            try:
                self.answer(table_id, bot, msg)
            except (httpx.TransportError, _Later) as e:  # the answer was lost or refused for now: the same
                wait = e.wait if isinstance(e, _Later) else RETRY_FIRST  # state is answered again, unless a
                self.say(f"game {table_id}: {e or type(e).__name__}; trying again in {wait:g} s")  # newer came
                if not self.stop.wait(wait) and inbox.empty():
                    inbox.put(msg)

    def answer(self, table_id: str, bot: Any, msg: dict[str, Any]) -> None:
        seat = msg["you"]
        pause = msg.get("hand_end")
        if pause and pause.get("paused") and seat in pause.get("waiting", ()):
            if (r := self.post(f"/api/bot/game/{table_id}/next")).status_code in BUSY:
                raise _Later(r)
            return
        if msg["table"]["status"] != "playing" or not msg.get("legal_moves"):
            return
        at = msg["table"]["actions"]
        r = self.http.get(f"/api/bot/game/{table_id}/world", params={"seed": self.rng.randrange(10**9)})
        if r.status_code in BUSY:
            raise _Later(r)
        if r.status_code != 200:
            self.say(f"game {table_id}: no world ({r.status_code} {_error_of(r)})")
            return
        world = r.json()
        if world["actions"] != at:
            return  # the game moved on: its newer state is coming
        try:
            state = replay(world["record"])
            action = bot.act(state, seat, self.rng)
            if action is None:
                return
            move = state.action_to_json(seat, action)
        except Exception as e:  # a bot that fails plays the first regular move rather than stall the game
            log.exception("game %s: the bot failed to choose", table_id)
            regular = [m for m in msg["legal_moves"] if m["move"] not in ("muggins", "claim")]
            if not regular:
                return
            move = {"move": regular[0]["move"], "claim": None}
            self.say(f"game {table_id}: the bot failed ({type(e).__name__}); it plays {move['move']!r}")
        r = self.post(f"/api/bot/game/{table_id}/move/{quote(move['move'], safe='')}",
                      claim=move.get("claim"), at=at)
        if r.status_code in BUSY:
            raise _Later(r)
        if r.status_code >= 400 and r.status_code != 409:  # 409: the position passed, the next state comes
            self.say(f"game {table_id}: move {move['move']!r} refused: {r.status_code} {_error_of(r)}")


def _error_of(r: httpx.Response) -> str:
    try:
        return str(r.json().get("error", ""))
    except (ValueError, AttributeError):
        return r.text[:200]


def connect(url: str, token: str, bot: str, policy: Policy, max_games: int | None = None,
            seed: int | None = None) -> int:
    """Run the client until Ctrl-C (or ``max_games``): the exit code (0, or 1 when refused)."""
    client = BotClient(url, token, bot, policy, max_games, seed)
    try:
        client.run()
    except KeyboardInterrupt:
        client.stop.set()
        client.say("stopped")
    except ClientError as e:
        client.say(f"error: {e}")
        return 1
    return 0

