"""In Chromium: two accounts, each in its own browser, play a rated game of card Muggins to its end through
the page (made from the lobby's form with Rated ticked); then the leaderboard and both profiles show the new
ratings, the history chart, the game with its replay link and the Muggins! calls each made."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from muggins.core.rules import get_game
from muggins.server.profiles import MIN_GAMES
from tests.server.browser_helpers import (
    DESKTOP,
    DomPlayer,
    browser,
    needs_chromium,
    new_page,
    play_to_the_end,
    server,
    shots,
    take_seat,
)
from tests.server.test_accounts import Counting
from tests.server.test_browser_access import serious_violations
from tests.server.test_browser_accounts import account_form

pytestmark = needs_chromium
__all__ = ["browser", "server", "shots"]  # fixtures
NAMES = ("Ann_1", "Bob_2")
CELLS = "rs => rs.map((r) => [...r.cells].map((c) => c.textContent))"  # a table's rows as lists of texts


def post(page: Any, base: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"content-type": "application/json", "origin": base}
    if token:
        headers["authorization"] = f"Bearer {token}"
    r = page.request.post(base + path, data=json.dumps(body), headers=headers)
    assert r.ok, r.text()
    return r.json()


def resigned_game(pages: list[Any], base: str, resigner: int) -> None:
    """A rated game made and resigned through the API, in each player's own browser (his cookie)."""
    t = post(pages[0], base, "/api/tables", {"game": "card-muggins", "seats": [None, None], "rated": True,
                                             "grace": 0, "bot_delay": 0})
    tokens = [post(p, base, f"/api/tables/{t['id']}/seats/{i}", {})["token"] for i, p in enumerate(pages)]
    post(pages[resigner], base, f"/api/tables/{t['id']}/resign", {}, tokens[resigner])


def test_two_accounts_play_a_rated_game_and_the_leaderboard_and_profiles_show_it(
        browser: Any, server: tuple[str, Any], shots: Path) -> None:
    base, app = server
    app.state.accounts.hasher = Counting()
    opened = [new_page(browser, DESKTOP) for _ in NAMES]
    pages = [p for _, p, _ in opened]
    for page, name in zip(pages, NAMES, strict=True):
        account_form(page, base, "#signup-btn", name)
    for k in range(MIN_GAMES - 1):  # the leaderboard lists players with a few games: these and the one below
        resigned_game(pages, base, k % 2)
    ann, bob = pages
    ann.goto(base + "/")
    ann.wait_for_selector("#game option", state="attached")
    ann.select_option("#game", "card-muggins")
    ann.select_option("#preset", "muggins")
    for seat in (0, 1):
        ann.select_option(f".seatpick[data-seat='{seat}']", "")  # both open, for people
    ann.fill("#target", "31")
    ann.fill("#grace", "0")
    ann.fill("#my-name", "Ann")
    ann.select_option("#my-seat", "0")
    ann.check("#rated")
    ann.click("#create-btn")
    ann.wait_for_selector("#status:visible")
    assert "/t/" in ann.url, ann.inner_text("#create-err")
    tid = ann.url.rsplit("/", 1)[1]
    take_seat(bob, base, tid, 1, "Bob")
    for page in pages:
        page.wait_for_function("() => muggins.state.last.table.status === 'playing'")
        assert page.inner_text("#rated-mark") == "Rated"
    assert [s["name"] for s in ann.evaluate("() => muggins.state.last.table.seats")] == list(NAMES)
    before = [ann.request.get(f"{base}/api/players/{n}").json()["ratings"]["card-muggins"] for n in NAMES]
    players = [DomPlayer(page, app, tid, seat, seed=7 + seat) for seat, page in enumerate(pages)]
    play_to_the_end(players, limit_s=240)
    table = app.state.manager.get(tid)
    assert table.status == "finished"
    winner = min(table.state.winners())
    profiles = [ann.request.get(f"{base}/api/players/{n}").json() for n in NAMES]
    for seat, (p, was) in enumerate(zip(profiles, before, strict=True)):
        now = p["ratings"]["card-muggins"]
        assert now["games"] == was["games"] + 1 == MIN_GAMES
        assert (now["rating"] > was["rating"]) == (seat == winner), (seat, was, now)
        # the calls each made at the page are the calls its profile counts, right and false
        assert (p["muggins"]["right"], p["muggins"]["false"]) == (players[seat].tally.calls,
                                                                  players[seat].tally.false_calls)

    ann.click("#leaderboard-link")
    ann.click("nav.board-tabs a[href='/leaderboard/card-muggins']")
    ann.wait_for_selector("#leaderboard")
    rows = ann.eval_on_selector_all("#leaderboard tbody tr", CELLS)
    by_rating = sorted(zip(NAMES, profiles, strict=True), key=lambda np: -np[1]["ratings"]["card-muggins"]["rating"])
    expected = [[str(i + 1), n, str(p["ratings"]["card-muggins"]["rating"])
                 + ("?" if p["ratings"]["card-muggins"]["provisional"] else "")] for i, (n, p) in enumerate(by_rating)]
    assert [r[:3] for r in rows] == expected
    ann.screenshot(path=str(shots / "ratings-leaderboard.png"), full_page=True)
    assert serious_violations(ann) == []
    # the same board opened at its address: titled, with its tabs, as when reached from the lobby
    ann.goto(base + "/leaderboard/card-muggins")
    ann.wait_for_selector("#leaderboard")
    assert ann.inner_text("#players h2") == f"{get_game('card-muggins').title} leaderboard"
    games = ann.evaluate("() => fetch('/api/games').then((r) => r.json()).then((c) => c.games.length)")
    assert ann.locator("nav.board-tabs a").count() == games
    assert [r[:3] for r in ann.eval_on_selector_all("#leaderboard tbody tr", CELLS)] == expected

    for page, name, p in zip(pages, NAMES, profiles, strict=True):
        page.goto(base + "/")
        page.click("#account-name")  # the header's account area: my profile
        page.wait_for_selector("#profile-ratings")
        assert page.url.endswith(f"/players/{name}")
        cells = page.eval_on_selector_all("#profile-ratings tbody tr", CELLS)
        shown = p["ratings"]["card-muggins"]
        title = get_game("card-muggins").title
        assert [title, f"{shown['rating']}{'?' if shown['provisional'] else ''}", f"± {shown['deviation']}",
                str(MIN_GAMES)] in cells
        assert page.get_attribute("svg.rating-chart[data-family='card-muggins']", "data-points") == str(MIN_GAMES)
        first = page.locator("#profile-recent li").first
        assert first.get_attribute("data-table") == tid
        assert first.locator("a", has_text="Replay").get_attribute("href") == f"/t/{tid}/replay"
        calls = page.inner_text("#profile-muggins")
        assert f"{p['muggins']['calls']} ({p['muggins']['right']} right, {p['muggins']['false']} false)" in calls
        page.screenshot(path=str(shots / f"ratings-profile-{name}.png"), full_page=True)
        assert serious_violations(page) == []
    first.locator("a", has_text="Replay").click()  # the replay of the rated game opens from the profile
    pages[-1].wait_for_selector("#replay-bar:visible")
    for ctx, _page, errors in opened:
        assert not errors
        ctx.close()
