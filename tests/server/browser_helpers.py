"""Shared parts of the browser tests: the app served in a thread, Chromium, and a scripted player who
plays only through the page: it reads the controls the page shows (playable tiles and cards, targets on
the table, move buttons, the Muggins! button) and clicks them, typing its announcements in the page's
Announce box. The server's state is read for two things only: how many points a chosen move makes (so
that the player can announce right or, on purpose, wrong) and whether a Muggins! call would take points
(an attentive player's judgement, which the page never gives away)."""

from __future__ import annotations

import inspect
import os
import random
import re
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the playwright package")
uvicorn = pytest.importorskip("uvicorn", reason="the browser tests need uvicorn")

from muggins.server.app import create_app  # noqa: E402

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
RAW_CARD = re.compile(r"\b(10|[2-9TJQKA])[SHDC]\b")
WINDOW_TEXT = re.compile(r"^.+ (played|took the go|showed (your|their) hand|showed the crib|dominoed) and announced "
                         r"(nothing|\d+) — if you think points were missed, you may call Muggins! before the "
                         r"next play\.$")


def chromium_path() -> str | None:
    for name in (os.environ.get("MUGGINS_CHROMIUM", ""), "chromium", "chromium-browser", "google-chrome"):
        if name and (found := shutil.which(name)):
            return found
    return None


CHROMIUM = chromium_path()
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (apt-get install chromium)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def make_app(db_url: str) -> Any:
    """The app with bots answering at once and no rate limits (a script clicks fast and makes many
    tables from one address)."""
    limits = {"tables_per_minute": 1e6, "tables_burst": 1e6, "seats_per_minute": 1e6, "seats_burst": 1e6,
              "sockets_per_client": 10**6, "connects_per_minute": 1e6, "connects_burst": 1e6}
    accepted = inspect.signature(create_app).parameters
    return create_app(db_url, rate=1e6, burst=1e6, time_scale=0, **{k: v for k, v in limits.items() if k in accepted})


def serve(app: Any) -> Iterator[tuple[str, Any]]:
    """Run ``app`` with uvicorn on a free local port in a thread: yields (base URL, app), then stops it."""
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", app
    srv.should_exit = True
    th.join(10)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    yield from serve(make_app(f"sqlite:///{tmp_path / 'browser.db'}"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: $MUGGINS_SHOTS (to look at them) or the test's temporary directory."""
    d = Path(os.environ.get("MUGGINS_SHOTS", str(tmp_path)))
    d.mkdir(parents=True, exist_ok=True)
    return d


def new_page(browser: Any, viewport: dict[str, int] = PHONE) -> tuple[Any, Any, list[str]]:
    """A fresh context (its own storage: its own seat tokens) and page; page errors are collected."""
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, page, errors


def create_table(page: Any, base: str, game: str, preset: str, seats: list[str | None],
                 target: int | None = None, options: str = "", hints: bool = False, creator: str | None = None,
                 grace: str = "0", rated: bool = False) -> str:
    """Create a table through the lobby form; returns its id. The page is left on the join screen, or with
    ``creator`` (a name) at the table, seated at seat 1 as the form seats its creator."""
    page.goto(base + "/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", game)
    page.select_option("#preset", preset)
    page.select_option("#nplayers", str(len(seats)))
    for i, s in enumerate(seats):
        page.select_option(f".seatpick[data-seat='{i}']", s or "")
    if target is not None:
        page.fill("#target", str(target))
    page.fill("#my-name", creator or "")
    page.select_option("#my-seat", "0" if creator else "")  # else the join page seats him, as a guest
    page.fill("#grace", grace)
    page.fill("#options", options)
    if hints:
        page.check("#hints")
    if rated:
        page.check("#rated")
    page.click("#create-btn")
    if creator:
        page.wait_for_selector("#status:visible")
        page.wait_for_function("() => muggins.state.last !== null")
    else:
        page.wait_for_selector("#join-title:visible")
    assert "/t/" in page.url, page.inner_text("#create-err")
    return str(page.url.rsplit("/", 1)[1])


def take_seat(page: Any, base: str, table_id: str, seat: int, name: str) -> None:
    if "/t/" + table_id not in page.url:
        page.goto(f"{base}/t/{table_id}")
    page.wait_for_selector(f"button.take[data-seat='{seat}']")
    page.fill("#name", name)
    page.click(f"button.take[data-seat='{seat}']")
    page.wait_for_selector("#status:visible")
    page.wait_for_function("() => muggins.state.last !== null")


SNAPSHOT_JS = """() => {
  const last = muggins.state.last;
  const q = (s) => document.querySelector(s);
  const vis = (e) => !!e && e.getClientRects().length > 0;
  const mb = q('#muggins-btn');
  return {
    status: q('#status').textContent,
    muggins_visible: vis(mb), muggins_enabled: vis(mb) && !mb.disabled,
    muggins_note: q('#muggins-note').textContent,
    claim_box: vis(q('#claim-box')),
    grace: vis(q('#grace-bar')) ? q('#grace-bar').textContent : null,
    tiles: [...document.querySelectorAll('#my-tiles svg.playable')].map((e) => e.dataset.tile),
    cards: [...document.querySelectorAll('#my-cards .card.playable')].map((e) => e.dataset.card),
    all_cards: [...document.querySelectorAll('#my-cards .card')].map((e) => e.dataset.card),
    moves: [...document.querySelectorAll('#moves button[data-move]')].filter((b) => !b.disabled)
      .map((b) => b.dataset.move),
    discard: vis(q('#discard-btn')),
    events: muggins.state.logEvents.length,
    view: {waiting_for: last.view.waiting_for, turn: last.view.turn, over: last.view.over,
           to_act: last.view.to_act, legal: last.view.legal || []},
  };
}"""


@dataclass
class Tally:
    """What a scripted player did, for the assertions."""

    actions: int = 0
    announced: int = 0
    wrong: int = 0
    calls: int = 0
    false_calls: int = 0
    misses_seen: int = 0
    windows: list[tuple[str, bool]] = field(default_factory=list)  # (bar text, was there a miss)
    turn_checks: int = 0
    call_only: int = 0   # times this seat could call Muggins! while the game waited for another seat


class DomPlayer:
    """A person at one seat, playing through the page's own controls."""

    def __init__(self, page: Any, app: Any, table_id: str, seat: int, seed: int,
                 call_rate: float = 1.0, false_calls: int = 1) -> None:
        self.page = page
        self.app = app
        self.table_id = table_id
        self.seat = seat
        self.rng = random.Random(seed)
        self.call_rate = call_rate
        self.false_calls_left = false_calls
        self.tally = Tally()
        self.scoring_plays = 0
        self.last_click = ""

    # --- what the server knows (used only for judgement, never for choosing among moves) ---------------
    def _state(self) -> Any:
        return self.app.state.manager.get(self.table_id).state

    def _oracle(self, fn: Any, default: int = 0) -> int:
        for _ in range(5):  # the server thread may be applying a move this instant: read again
            try:
                return int(fn(self._state()))
            except Exception:
                time.sleep(0.01)
        return default

    def true_points(self, move: str) -> int:
        return self._oracle(lambda st: st.claim_for(self.seat, st.parse_action(move, self.seat)))

    def muggable(self) -> int:
        return self._oracle(lambda st: st.muggable(self.seat))

    # --- the page ------------------------------------------------------------------------------------
    def snap(self) -> dict[str, Any]:
        return dict(self.page.evaluate(SNAPSHOT_JS))

    def over(self) -> bool:
        return str(self.page.inner_text("#status")).startswith("Game over")

    def wait_change(self, before: int, timeout: float = 5000) -> None:
        """Wait for the page to show what the click did (new events in its log)."""
        try:
            self.page.wait_for_function("n => muggins.state.logEvents.length > n", arg=before, timeout=timeout)
        except playwright_api.TimeoutError:
            page_state = self.page.evaluate(
                "((s) => [s.logEvents.length, s.last.view.legal, s.selected, s.ws && s.ws.readyState])(muggins.state)")
            raise AssertionError(f"nothing happened after a click on {self.last_click!r}: "
                                 f"{self.page.inner_text('#play-err')!r}, status {self.page.inner_text('#status')!r}, "
                                 f"{page_state} (events before: {before})") from None

    def click(self, selector: str) -> None:
        self.last_click = selector
        self.page.click(selector)

    def announce(self, move: str, snap: dict[str, Any]) -> None:
        """Type the points of ``move`` in the Announce box: mostly right, sometimes wrong on purpose."""
        if not snap["claim_box"]:
            return
        truth = self.true_points(move)
        if truth <= 0:
            self.page.fill("#claim", "")
            return
        self.scoring_plays += 1
        k = self.scoring_plays
        if k % 3 == 1:     # wrong on purpose: too much (the first scoring play), nothing, or too little
            bound = self._oracle(lambda st: st.max_step_points(), truth + 1)
            over = truth + 1 if truth + 1 <= bound else truth - 1
            text = [str(over), "", str(truth - 1)][(k // 3) % 3]
            self.tally.wrong += 1
        else:
            text = str(truth)
        if text:
            self.tally.announced += 1  # typed in the box, right or wrong
        self.page.fill("#claim", text)

    def check_status(self, snap: dict[str, Any]) -> None:
        """The status says "Your turn" exactly when the game waits for this seat (a seat that may only
        call Muggins! is not waited for)."""
        view = snap["view"]  # read with the status, in one go: a message may come in at any time
        waiting = view.get("waiting_for")
        if waiting is None:
            waiting = [] if view["over"] or view.get("turn") is None else [view["turn"]]
        mine = snap["status"].startswith("Your turn")
        assert mine == (self.seat in waiting and not view["over"]), (snap["status"], waiting, view.get("to_act"))
        if "muggins" in view.get("legal", []) and self.seat not in waiting and not view["over"]:
            assert not mine and snap["status"].startswith("Waiting for"), snap["status"]
            assert snap["muggins_enabled"], "a call is legal but the Muggins! button is disabled"
            self.tally.call_only += 1
        self.tally.turn_checks += 1

    def step(self) -> bool:
        """One decision; True if something was clicked."""
        s = self.snap()
        if s["status"].startswith("Game over"):
            return False
        self.check_status(s)
        assert bool(s["muggins_note"]) == s["muggins_enabled"], s  # the note says when a call is possible
        if s["muggins_enabled"]:
            missed = self.muggable()
            if s["grace"] is not None:
                self.tally.windows.append((s["grace"], missed > 0))
            if missed > 0:
                self.tally.misses_seen += 1
            if (missed > 0 and self.rng.random() < self.call_rate) or (missed == 0 and self.false_calls_left > 0):
                if missed == 0:
                    self.false_calls_left -= 1
                    self.tally.false_calls += 1
                else:
                    self.tally.calls += 1
                self.click("#muggins-btn")
                self.wait_change(s["events"])
                return True
        if not s["status"].startswith("Your turn"):
            return False
        if s["discard"]:
            return self._discard(s)
        if s["tiles"]:
            return self._play_tile(s)
        if s["cards"]:
            card = self.pick(s["cards"], lambda c: self.true_points("play " + c))
            self.announce("play " + card, s)
            self.click(f"#my-cards .card[data-card='{card}']")
            return self._done(s)
        if s["moves"]:
            move = self.rng.choice(s["moves"])
            self.announce(move, s)
            self.click(f"#moves button[data-move='{move}']")
            return self._done(s)
        return False

    def _done(self, s: dict[str, Any]) -> bool:
        self.tally.actions += 1
        self.wait_change(s["events"])
        return True

    def pick(self, options: list[str], points: Callable[[str], int]) -> str:
        """Mostly the option that scores most (a person sees the count on the table), sometimes any."""
        if self.rng.random() < 0.3:
            return self.rng.choice(options)
        scores = {o: points(o) for o in options}
        best = max(scores.values())
        return self.rng.choice([o for o in options if scores[o] == best])

    def _play_tile(self, s: dict[str, Any]) -> bool:
        legal = s["view"]["legal"]

        def tile_points(t: str) -> int:
            a, b = t.split("-")
            return max((self.true_points(m) for m in legal if m.split(" ")[0] in (t, f"{b}-{a}")), default=0)

        tile = self.pick(s["tiles"], tile_points)
        self.click(f"#my-tiles svg[data-tile='{tile}']")
        self.page.wait_for_selector(f"#my-tiles svg.selected[data-tile='{tile}']")
        choices = self.page.evaluate("""() => ({
            table: [...document.querySelectorAll('#layout [data-move]')].map((e) => e.dataset.move),
            buttons: [...document.querySelectorAll('#moves button.primary[data-move]')].map((e) => e.dataset.move)})""")
        assert choices["buttons"], f"no move offered for the playable tile {tile}"
        move = self.pick(choices["buttons"], self.true_points)
        self.announce(move, s)
        if move in choices["table"]:  # click the highlighted tile (or the lead box) on the table
            self.click(f"#layout [data-move='{move}']")
        else:                          # the same tile fits in more than one place there: the button
            self.click(f"#moves button.primary[data-move='{move}']")
        return self._done(s)

    def _discard(self, s: dict[str, Any]) -> bool:
        need = int(re.search(r"Discard (\d+)", self.page.inner_text("#discard-btn")).group(1))  # type: ignore[union-attr]
        assert self.page.is_disabled("#discard-btn")
        picks = self.rng.sample(s["all_cards"], need)
        for c in picks:
            self.click(f"#my-cards .card[data-card='{c}']")
        assert self.page.get_attribute("#discard-btn", "disabled") is None, "the discard button stays disabled"
        self.click("#discard-btn")
        return self._done(s)


def play_to_the_end(players: list[DomPlayer], limit_s: float = 60.0,
                    on_step: Callable[[], None] | None = None) -> None:
    """Let the players act in turn until the game is over (or fail after ``limit_s`` seconds);
    ``on_step`` runs between steps (checks, screenshots)."""
    deadline = time.monotonic() + limit_s
    idle = 0
    while time.monotonic() < deadline:
        if players[0].over():
            return
        acted = False
        # whoever the game waits for goes last: the others look at their pages (and may call) first
        for p in sorted(players, key=lambda p: str(p.page.inner_text("#status")).startswith("Your turn")):
            acted = p.step() or acted
            if on_step is not None:
                on_step()
        if not acted:
            idle += 1
            players[0].page.wait_for_timeout(40 if idle < 20 else 150)
        else:
            idle = 0
    raise AssertionError(f"the game did not end within {limit_s:.0f} s: {players[0].page.inner_text('#status')}")


def log_lines(page: Any) -> list[str]:
    return [str(x) for x in page.eval_on_selector_all("#log li", "els => els.map((e) => e.textContent)")]


def assert_readable_log(page: Any) -> list[str]:
    """A finished game's log: written in words (no card codes, no snake_case), with a heading per hand."""
    lines = log_lines(page)
    assert lines, "the log is empty"
    text = "\n".join(lines)
    assert not RAW_CARD.search(text), RAW_CARD.search(text)
    assert "_" not in text, [x for x in lines if "_" in x][:3]
    assert "null" not in text and "undefined" not in text and "NaN" not in text, text[-500:]
    assert page.eval_on_selector_all("#log li.heading", "els => els.length") >= 2
    assert any(x.startswith("Game over") for x in lines)
    return lines
