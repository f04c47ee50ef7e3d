"""In Chromium: quick play pairs two people, each in a browser of its own, who then sit at the same table; a
ranked game's clock runs out on the page, the default move is made for the player, and after three such
moves the game is lost; the quick play box and the clock pass axe-core."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.browser_helpers import DESKTOP, PHONE, browser, make_app, needs_chromium, new_page, serve, shots
from tests.server.test_browser_access import serious_violations
from tests.server.test_browser_accounts import account_form

pytestmark = needs_chromium
__all__ = ["browser", "shots"]  # fixtures


@pytest.fixture
def play_server(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    """The app with a tiny clock for ranked dominoes and no wait for a bot (the other tests of quick play
    set a long one)."""
    app = make_app(f"sqlite:///{tmp_path / 'browser.db'}")
    app.state.matchmaker.clocks[("dominoes", "muggins")] = {"move": 1.0, "bank": 0.5}
    app.state.matchmaker.wait_for_bot = 0.0
    yield from serve(app)


def test_quick_play_pairs_two_people_who_then_sit_at_the_same_table(browser: Any, play_server: tuple[str, Any],
                                                                    shots: Path) -> None:
    base, app = play_server
    app.state.matchmaker.wait_for_bot = 600.0  # nobody is given a bot here
    pages = []
    for name, viewport in (("Ann", DESKTOP), ("Bob", PHONE)):
        ctx, page, errors = new_page(browser, viewport)
        page.goto(base + "/")
        page.evaluate("name => localStorage.setItem('muggins-name', name)", name)
        page.wait_for_selector(".qp-quick[data-game='dominoes']")
        pages.append((ctx, page, errors))
    ann, bob = pages[0][1], pages[1][1]
    ann.click(".qp-quick[data-game='dominoes']")
    ann.wait_for_selector("#quickplay-cancel")
    assert ann.inner_text("#quickplay-text").startswith("Waiting for a player…")
    assert ann.is_disabled(".qp-quick[data-game='cribbage']")  # one queue at a time
    assert serious_violations(ann) == []
    ann.screenshot(path=str(shots / "quickplay-waiting.png"), full_page=True)
    bob.click(".qp-quick[data-game='dominoes']")
    for page in (ann, bob):
        page.wait_for_url("**/t/*")
        page.wait_for_function("() => muggins.state.last !== null && muggins.state.last.table.status === 'playing'")
    assert ann.url == bob.url
    seats = [p.evaluate("() => muggins.state.me") for p in (ann, bob)]
    assert sorted(seats) == [0, 1]
    names = ann.evaluate("() => muggins.state.last.table.seats.map((s) => s.name)")
    assert sorted(names) == ["Ann", "Bob"]
    assert ann.locator("#clock").is_hidden()  # quick play has no clock
    bob.screenshot(path=str(shots / "quickplay-table.png"), full_page=True)
    for ctx, _page, errors in pages:
        assert not errors, errors
        ctx.close()


def test_cancel_leaves_the_queue(browser: Any, play_server: tuple[str, Any]) -> None:
    base, app = play_server
    app.state.matchmaker.wait_for_bot = 600.0
    ctx, page, errors = new_page(browser, DESKTOP)
    page.goto(base + "/")
    page.click(".qp-quick[data-game='cribbage']")
    page.wait_for_selector("#quickplay-cancel")
    assert len(app.state.matchmaker.tickets) == 1
    page.click("#quickplay-cancel")
    page.wait_for_selector("#quickplay-wait", state="hidden")
    page.wait_for_function("() => !document.querySelector('.qp-quick').disabled")
    assert app.state.matchmaker.tickets == {}
    assert not errors, errors
    ctx.close()


def test_a_ranked_clock_runs_out_on_the_page_and_the_default_move_is_made(browser: Any, play_server: tuple[str, Any],
                                                                         shots: Path) -> None:
    base, app = play_server
    ctx, page, errors = new_page(browser, DESKTOP)
    account_form(page, base, "#signup-btn")
    page.click(".qp-ranked[data-game='dominoes']")  # nobody else waits: a bot of the player's strength at once
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#clock:visible")
    me = page.evaluate("() => muggins.state.me")
    # the clock counts down for the player, shown beside the scores; the bot's seat has none
    page.wait_for_selector(f"#clock .clock-seat.running[data-seat='{me}']")
    assert page.locator("#clock .clock-seat").count() == 1
    assert "bank" in page.inner_text("#clock")
    assert serious_violations(page) == []
    page.screenshot(path=str(shots / "ranked-clock.png"), full_page=True)
    # nobody touches the page: the clock moves for the player, once, then again
    page.wait_for_selector(f"#clock .clock-seat[data-seat='{me}'][data-timeouts='1']")
    assert "1 of 3 moves made by the clock" in page.inner_text("#clock")
    table = app.state.manager.get(page.url.rsplit("/", 1)[1])
    assert [s for s, _a in table.state.history].count(me) >= 1
    mine = page.evaluate("(me) => muggins.state.logEvents.filter((e) => e.seat === me).length", me)
    assert mine >= 1  # the page's log shows the move made for the player
    page.wait_for_function("() => muggins.state.last.table.status === 'resigned'")
    assert page.inner_text("#status").startswith("Game over: You resigned")
    assert page.locator("#clock").is_hidden()
    assert table.resigned == me
    assert not errors, errors
    ctx.close()
