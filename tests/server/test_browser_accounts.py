"""In Chromium: an account signed up in one browser takes a seat; logged in from a second browser, the
table's page gets that seat back (and the first browser watches)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.server.browser_helpers import DESKTOP, browser, needs_chromium, new_page, server, shots, take_seat

pytestmark = needs_chromium
__all__ = ["browser", "server", "shots"]  # fixtures

PASSWORD = "correct horse battery"


def account_form(page: Any, base: str, button: str, username: str = "Ann_1") -> None:
    page.goto(base + "/")
    page.fill("#login-user", username)
    page.fill("#login-pass", PASSWORD)
    page.click(button)
    page.wait_for_selector("#account-name")
    assert page.inner_text("#account-name") == username


def test_a_seat_comes_back_when_the_account_logs_in_elsewhere(browser: Any, server: tuple[str, Any],
                                                             shots: Path) -> None:
    base, _app = server
    ctx, page, errors = new_page(browser, DESKTOP)
    account_form(page, base, "#signup-btn")
    r = page.request.post(base + "/api/tables", data=json.dumps({"game": "dominoes", "seats": [None, "beginner"],
                                                                 "grace": 0, "bot_delay": 0}),
                          headers={"content-type": "application/json", "origin": base})
    assert r.ok, r.text()
    tid = r.json()["id"]
    take_seat(page, base, tid, 0, "Someone")
    assert page.evaluate("() => muggins.state.last.table.seats[0].name") == "Ann_1"  # the account's name
    assert "muggins_session" not in page.evaluate("() => document.cookie")  # HttpOnly: no script reads it
    ctx2, other, errors2 = new_page(browser, DESKTOP)
    other.goto(f"{base}/t/{tid}")
    other.wait_for_selector("#join-title:visible")  # a guest: the join screen
    account_form(other, base, "#login-btn")
    other.goto(f"{base}/t/{tid}")
    other.wait_for_function("() => muggins.state.last !== null && muggins.state.me === 0")
    assert other.evaluate("() => muggins.state.last.view.my_hand.length") > 0
    other.screenshot(path=str(shots / "account-seat-back.png"), full_page=True)
    page.wait_for_function("() => muggins.state.me === null")  # the first browser now watches
    other.click("#logout-btn")
    other.wait_for_selector("#login-form")
    assert other.request.get(base + "/api/account").status == 401
    assert not errors and not errors2
    ctx.close()
    ctx2.close()
