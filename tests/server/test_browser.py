"""A person plays a whole domino hand against a bot in Chromium, clicking tiles and ends, and calls
Muggins! on a miss; checked by the page's text and screenshots."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api", reason="the browser test needs the playwright package")
uvicorn = pytest.importorskip("uvicorn", reason="the browser test needs uvicorn")

from muggins.server.app import create_app  # noqa: E402


def chromium_path() -> str | None:
    for name in (os.environ.get("MUGGINS_CHROMIUM", ""), "chromium", "chromium-browser", "google-chrome"):
        if name and (found := shutil.which(name)):
            return found
    return None


CHROMIUM = chromium_path()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (apt-get install chromium)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    port = free_port()
    app = create_app(f"sqlite:///{tmp_path / 'browser.db'}")
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


def test_a_person_plays_a_hand_against_a_bot_and_calls_muggins(server: tuple[str, Any], tmp_path: Path) -> None:
    base, app = server
    shots = Path(os.environ.get("MUGGINS_SHOTS", str(tmp_path)))
    shots.mkdir(parents=True, exist_ok=True)
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 390, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        # the lobby: create a table with a beginner bot and a short grace period
        page.goto(base + "/")
        page.select_option("#game", "dominoes")
        page.select_option("#preset", "muggins")
        page.select_option(".seatpick[data-seat='1']", "beginner")
        page.fill("#grace", "1.5")
        page.click("#create-btn")
        page.wait_for_selector("#name")
        assert "/t/" in page.url
        table_id = page.url.rsplit("/", 1)[1]
        page.fill("#name", "Ann")
        page.click("button.take")
        page.wait_for_selector("#status")
        page.screenshot(path=str(shots / "start.png"))
        called = hands_done = 0
        deadline = time.monotonic() + 150
        while time.monotonic() < deadline and not (called and hands_done):
            page.wait_for_timeout(150)
            state: Any = page.evaluate("last && {v: last.view, grace: last.grace_until}")
            if not state:
                continue
            view = state["v"]
            log = page.inner_text("#log")
            hands_done = log.count("hand over")
            called = log.count("You called Muggins on Beginner bot: steal")
            if view["over"]:
                break
            legal = view["legal"]
            table = app.state.manager.get(table_id)
            # an attentive person: calls when the bot's points went unclaimed (the page never says so)
            if "muggins" in legal and table.state.muggable(0) > 0 and page.is_visible("#grace-bar"):
                page.screenshot(path=str(shots / "muggins-window.png"))
                page.click("#muggins-btn")
                page.wait_for_timeout(300)
                continue
            if 0 not in view["to_act"] or not [m for m in legal if m != "muggins"]:
                continue
            plays = [m for m in legal if m[0].isdigit()]
            if plays:
                tile = plays[0].split(" ")[0]
                a, b = tile.split("-")
                hand_tile = f"{max(int(a), int(b))}-{min(int(a), int(b))}"
                page.click(f"#my-tiles svg[data-tile='{hand_tile}']")
                if " on " in plays[0]:
                    page.click("#layout g.target", force=True)
                else:
                    page.click("#layout rect[data-lead]", force=True)
            else:
                page.click(f"#moves button[data-move='{next(m for m in legal if m != 'muggins')}']")
            page.wait_for_timeout(250)
        page.screenshot(path=str(shots / "end.png"), full_page=True)
        text = page.inner_text("body")
        browser.close()
    assert not errors, errors
    assert hands_done >= 1, "no hand was finished"
    assert called >= 1, "no Muggins call was made"
    assert "You played" in text and "Beginner bot played" in text
    assert (shots / "end.png").stat().st_size > 10000
