"""The lobby and the join screen in Chromium: each preset's description and main options, the help on
announcing and the grace period, an empty name refused with a visible error, no Muggins! button where the
game has no muggins rule, and the table lists (active tables paged, finished games searchable, each with
its record)."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from tests.server.browser_helpers import (
    DESKTOP,
    PHONE,
    browser,
    create_table,
    needs_chromium,
    new_page,
    server,
    shots,
    take_seat,
)

__all__ = ["browser", "server", "shots"]  # fixtures
pytestmark = needs_chromium


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def post_json(url: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def test_the_lobby_explains_each_preset_and_how_to_announce(server: tuple[str, Any], browser: Any, shots: Path) -> None:
    base, _app = server
    games = get_json(base + "/api/games")["games"]
    for viewport in (PHONE, DESKTOP):
        ctx, page, errors = new_page(browser, viewport)
        page.goto(base + "/")
        page.wait_for_selector("#game option", state="attached")
        page.screenshot(path=str(shots / f"lobby-{viewport['width']}.png"), full_page=True)
        for g in games:
            page.select_option("#game", g["name"])
            names = g["presets"] if isinstance(g["presets"], list) else list(g["presets"])
            for preset in names:
                name = preset if isinstance(preset, str) else preset["name"]
                page.select_option("#preset", name)
                desc = page.inner_text("#preset-desc")
                assert len(desc) > 20 and "undefined" not in desc, (name, desc)
                if isinstance(g.get("descriptions"), dict) and name in g["descriptions"]:
                    assert desc == g["descriptions"][name]
        # the main options of a preset, when the server lists them, with the target among them
        page.select_option("#game", "cribbage")
        page.select_option("#preset", "four-hand")
        info = page.inner_text("#preset-info")
        assert "partnership" in info.lower()
        page.click("#howto summary")
        howto = page.inner_text("#howto")
        assert "before" in howto and "Announce" in howto and "Muggins!" in howto
        assert "Grace" in page.inner_text("#create") and "seconds" in page.inner_text("#create")
        page.screenshot(path=str(shots / f"lobby-help-{viewport['width']}.png"), full_page=True)
        assert not errors, errors
        ctx.close()


def test_an_empty_name_gets_a_visible_error_and_takes_no_seat(server: tuple[str, Any], browser: Any,
                                                               shots: Path) -> None:
    base, _app = server
    ctx, page, errors = new_page(browser, PHONE)
    table_id = create_table(page, base, "dominoes", "muggins", [None, "beginner"])
    page.fill("#name", "   ")
    page.click("button.take[data-seat='0']")
    err = page.locator("#join-err")
    err.wait_for(state="visible")
    assert "name" in err.inner_text().lower()
    page.screenshot(path=str(shots / "join-empty-name.png"))
    assert get_json(f"{base}/api/tables/{table_id}")["seats"][0]["open"] is True
    # a name the server refuses (too long for its 40 characters, typed past the field) is shown too
    page.evaluate("document.querySelector('#name').removeAttribute('maxlength')")
    page.fill("#name", "x" * 60)
    page.click("button.take[data-seat='0']")
    page.wait_for_function("() => document.querySelector('#join-err').textContent.includes('name')")
    assert get_json(f"{base}/api/tables/{table_id}")["seats"][0]["open"] is True
    take_seat(page, base, table_id, 0, "Ann")
    assert page.inner_text("#status")
    assert not errors, errors
    ctx.close()


def test_no_muggins_button_without_the_muggins_rule(server: tuple[str, Any], browser: Any) -> None:
    base, _app = server
    ctx, page, errors = new_page(browser, PHONE)
    for game, preset, manual in (("card-muggins", "no-muggins", False), ("cribbage", "cribbage", False),
                                 ("card-muggins", "muggins", True)):
        table_id = create_table(page, base, game, preset, [None, "beginner"])
        take_seat(page, base, table_id, 0, "Ann")
        page.wait_for_function("() => muggins.state.last.table.status !== 'open'")
        assert page.is_visible("#muggins-btn") is manual, (game, preset)
        assert page.is_visible("#claim-box") is manual, (game, preset)
        assert page.is_visible("#help-muggins") is manual, (game, preset)
    assert not errors, errors
    ctx.close()


def test_the_lobby_lists_tables_in_pages_and_finished_games_with_their_records(
        server: tuple[str, Any], browser: Any, shots: Path) -> None:
    base, _app = server
    ctx, page, errors = new_page(browser, DESKTOP)
    # twelve open tables (one page holds ten), and two games played out by bots while a spectator watches
    for _ in range(12):
        post_json(base + "/api/tables", {"game": "dominoes", "seats": [None, "casual"], "grace": 0})
    finished = []
    for _ in range(2):
        t = post_json(base + "/api/tables", {"game": "card-muggins", "seats": ["beginner", "casual"], "grace": 0,
                                             "bot_delay": 0, "options": {"target": 15}})
        finished.append(t["id"])
        page.goto(f"{base}/t/{t['id']}")
        page.click("#watch")
        page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Game over')",
                               timeout=20000)
    page.goto(base + "/")
    page.wait_for_selector("#tables .tablerow")
    assert page.locator("#tables .tablerow").count() == 10
    assert "page 1 of 2" in page.inner_text("#tables-pager")
    page.click("#tables-pager button.next")
    page.wait_for_function("() => document.querySelector('#tables-pager').textContent.includes('page 2 of 2')")
    assert page.locator("#tables .tablerow").count() == 2
    rows = page.locator("#finished .tablerow")
    assert rows.count() == 2
    page.screenshot(path=str(shots / "lobby-lists.png"), full_page=True)
    # search the archive by table id; the record link gives the game's record
    page.fill("#finished-q", finished[0])
    page.click("#finished-search button")
    page.wait_for_function("() => document.querySelectorAll('#finished .tablerow').length === 1")
    href = page.get_attribute("#finished .tablerow .record-link", "href")
    assert href
    record = get_json(base + href if href.startswith("/") else href)
    assert record["meta"]["table"] == finished[0]
    # the archive's table link shows the finished game to a spectator
    page.click("#finished .tablerow .table-link")
    page.click("#watch")
    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Game over')")
    assert page.locator("#log li.heading").count() >= 2
    page.go_back()
    page.wait_for_selector("#finished-q")
    page.fill("#finished-q", "no such game anywhere")
    page.click("#finished-search button")
    page.wait_for_function("() => document.querySelectorAll('#finished .tablerow').length === 0")
    assert "No finished game matches" in page.inner_text("#finished")
    assert not errors, errors
    ctx.close()
