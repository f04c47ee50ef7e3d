"""In Chromium: a short game against a bot at a table with hints, then its analysis on the page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.browser_helpers import (
    DESKTOP,
    PHONE,
    DomPlayer,
    browser,
    create_table,
    needs_chromium,
    new_page,
    play_to_the_end,
    serve,
    shots,
    take_seat,
)

__all__ = ["browser", "shots"]  # fixtures
pytestmark = needs_chromium


@pytest.fixture
def quick_server(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    """The app with bots answering at once and a light analysis (8 worlds a decision)."""
    from muggins.server.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'b.db'}", rate=1e6, burst=1e6, time_scale=0, tables_burst=1e6,
                     seats_burst=1e6, analysis_samples=8)
    yield from serve(app)


def test_hints_then_the_analysis_of_the_finished_game(quick_server: tuple[str, Any], browser: Any,
                                                      shots: Path) -> None:
    base, app = quick_server
    ctx, page, errors = new_page(browser, DESKTOP)
    table_id = create_table(page, base, "dominoes", "muggins", [None, "beginner"], 30, hints=True)
    take_seat(page, base, table_id, 0, "Ann")
    spy_ctx, spy, spy_errors = new_page(browser, PHONE)
    spy.goto(f"{base}/t/{table_id}")
    spy.click("#watch")
    spy.wait_for_function("() => muggins.state.last !== null")

    # the seat to act sees the count and the bot's move, one of its own legal moves
    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Your turn')")
    # the hint is a search run in a thread: on a loaded machine it can take more than the default 30 s
    page.wait_for_function("() => document.querySelector('#hint-box').textContent.includes('the bot would play')",
                           timeout=120_000)
    hint = page.inner_text("#hint-box")
    assert "count of the ends" in hint, hint
    legal = page.evaluate("muggins.state.last.view.legal")
    move = hint.split("the bot would play ", 1)[1].split(", expecting", 1)[0]
    assert move in legal, (move, legal)
    page.screenshot(path=str(shots / "hint-dominoes.png"), full_page=True)
    assert not spy.is_visible("#hint-box")  # a spectator sees no hint

    play_to_the_end([DomPlayer(page, app, table_id, 0, seed=3)], limit_s=45)
    assert page.inner_text("#status").startswith("Game over")
    assert not page.is_visible("#hint-box")
    page.evaluate("""() => { window.seenStates = [];
      new MutationObserver(() => window.seenStates.push(document.querySelector('#analysis-state').textContent))
        .observe(document.querySelector('#analysis-state'),
                 {childList: true, characterData: true, subtree: true}); }""")
    page.click("#analyse-btn")
    page.wait_for_selector("#analysis .analysis-seats", timeout=30000)
    page.wait_for_function("() => { const i = document.querySelector('#analysis-plot');"
                           " return i && i.complete && i.naturalWidth > 0; }")
    rows = page.eval_on_selector_all(".analysis-seats tbody tr", "rs => rs.map((r) => r.textContent)")
    assert len(rows) == 2 and rows[0].startswith("Ann (you)") and rows[1].startswith("Beginner Otter"), rows
    assert page.inner_text("#analysis").count("Turning moments") == 1
    assert page.get_attribute("#record-link a", "href") == f"/api/tables/{table_id}/record"
    assert not page.is_visible("#analyse-btn")
    seen = page.evaluate("window.seenStates")
    assert seen and all(x.startswith("Analysing…") for x in seen if x), seen  # shown while it ran
    page.screenshot(path=str(shots / "analysis-dominoes.png"), full_page=True)
    # the spectator may analyse the same game: the one kept is shown at once
    spy.wait_for_selector("#analyse-btn:visible")
    spy.click("#analyse-btn")
    spy.wait_for_selector("#analysis .analysis-seats")
    spy.wait_for_function("() => document.querySelector('#analysis-plot').naturalWidth > 0")
    spy.screenshot(path=str(shots / "analysis-dominoes-phone.png"), full_page=True)
    assert spy.inner_text(".analysis-seats") == page.inner_text(".analysis-seats").replace("Ann (you)", "Ann")
    assert not errors and not spy_errors, errors + spy_errors
    ctx.close()
    spy_ctx.close()
