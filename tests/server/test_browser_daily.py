"""In Chromium: two accounts, each in its own browser, play today's daily deal of card Muggins to the end from
the lobby's Daily deal list; before finishing, the deal's results are refused; after, each sees the other's
result in the results table and opens the other's replay. axe-core finds nothing serious on the lobby's list
and on the results page."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from tests.npm_packages import npm_package_file
from tests.server.browser_helpers import (
    DESKTOP,
    PHONE,
    DomPlayer,
    browser,
    needs_chromium,
    new_page,
    play_to_the_end,
    server,
    shots,
)
from tests.server.test_browser_access import serious_violations
from tests.server.test_browser_accounts import account_form

pytestmark = needs_chromium
__all__ = ["browser", "server", "shots"]  # fixtures
GAME = "card-muggins"


def play_the_daily_deal(page: Any, app: Any, seed: int) -> str:
    """From the lobby: Play on today's card Muggins deal, then the whole game through the page; returns the
    table's id."""
    page.click(f".daily-play[data-game='{GAME}']")
    page.wait_for_url("**/t/*")
    page.wait_for_function("() => muggins.state.last !== null && muggins.state.me === 0")
    table_id = str(page.url.rsplit("/", 1)[1])
    page.wait_for_selector("#daily-note")  # the table says it is the daily deal
    play_to_the_end([DomPlayer(page, app, table_id, 0, seed=seed)], limit_s=90)
    return table_id


def results_rows(page: Any) -> dict[str, list[str]]:
    """The results table: each player's row, by name."""
    page.wait_for_selector("#daily-table")
    rows = page.eval_on_selector_all("#daily-table tbody tr", """els => els.map((tr) => [tr.dataset.player,
        ...[...tr.children].map((c) => c.textContent)])""")
    return {r[0]: r[1:] for r in rows}


def test_two_accounts_play_the_daily_deal_and_see_each_others_result_and_replay(
        browser: Any, server: tuple[str, Any], shots: Path) -> None:
    npm_package_file("axe-core", "axe.min.js")
    base, app = server
    day = app.state.daily.today()
    results = f"{base}/daily/{GAME}/{day}"
    ctx, ann, errors = new_page(browser, DESKTOP)
    account_form(ann, base, "#signup-btn", "Ann_1")
    ann.wait_for_selector(f".daily-play[data-game='{GAME}']")  # logged in: the list offers to play
    assert ann.inner_text("#daily-title") == f"Daily deal of {day}"
    assert serious_violations(ann) == []
    ann_table = play_the_daily_deal(ann, app, seed=1)
    assert serious_violations(ann) == []  # the finished table, with its daily note
    ann.click("#daily-note a")  # the note at the table leads to the deal's results
    mine = results_rows(ann)
    assert list(mine) == ["Ann_1"]
    score, bot = app.state.manager.get(ann_table).state.scores()
    assert mine["Ann_1"][2:4] == [f"{score} ({bot})", ("+" if score > bot else "\N{MINUS SIGN}" if score < bot else "")
                                  + str(abs(score - bot))]

    ctx2, bob, errors2 = new_page(browser, PHONE)
    account_form(bob, base, "#signup-btn", "Bob_2")
    bob.goto(results)
    bob.wait_for_selector("#daily-refused")
    assert "finish the deal first" in bob.inner_text("#daily-refused")  # not before his own game has ended
    bob.goto(base + "/")
    bob.wait_for_selector(f".daily-play[data-game='{GAME}']")
    bob_table = play_the_daily_deal(bob, app, seed=2)
    assert bob_table != ann_table
    assert app.state.manager.get(bob_table).seed == app.state.manager.get(ann_table).seed  # the same deal
    bob.goto(base + "/")  # the lobby now shows his result and the way to everyone's
    bob.wait_for_selector(f".daily-row[data-game='{GAME}'] .daily-mine")
    bob.screenshot(path=str(shots / "daily-lobby-phone.png"))
    assert serious_violations(bob) == []
    bob.click(f".daily-row[data-game='{GAME}'] .daily-results-link")
    both = results_rows(bob)
    assert sorted(both) == ["Ann_1", "Bob_2"]
    assert "(you)" in both["Bob_2"][1] and "(you)" not in both["Ann_1"][1]
    bob.screenshot(path=str(shots / "daily-results-phone.png"), full_page=True)
    assert serious_violations(bob) == []
    bob.click(".daily-prev")  # the day before: over, so open to all, and nobody played it
    bob.wait_for_url(f"**/daily/{GAME}/{dt.date.fromisoformat(day) - dt.timedelta(days=1)}")
    assert results_rows(bob) == {} and bob.locator(".daily-next").count() == 1

    # each opens the other's replay from the results table
    for page, who, table in ((bob, "Ann_1", ann_table), (ann, "Bob_2", bob_table)):
        page.goto(results)
        results_rows(page)
        page.click(f"#daily-table tr[data-player='{who}'] a.daily-replay")
        page.wait_for_url(f"**/t/{table}/replay")
        page.wait_for_selector("#rp-at")
        page.wait_for_function("() => muggins.state.last !== null && muggins.state.last.view.over")
        assert page.inner_text("#play-err") == ""
        assert page.evaluate("() => muggins.state.last.table.id") == table
    ann.screenshot(path=str(shots / "daily-replay-of-the-other.png"), full_page=True)
    assert not errors and not errors2, errors + errors2
    ctx.close()
    ctx2.close()
