"""A game the page has never heard of (count to 21, registered only by this test) played in Chromium to
"Game over" with the page's generic renderer: the view's fields on the board, a button for every move,
the Announce box and the Muggins! button."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from muggins.core.rules import GameSpec
from tests.server.browser_helpers import (
    DESKTOP,
    browser,
    create_table,
    log_lines,
    needs_chromium,
    new_page,
    server,
    shots,
    take_seat,
)
from tests.toy import NAME, toy_registered

__all__ = ["browser", "server", "shots"]  # fixtures
pytestmark = needs_chromium


@pytest.fixture
def toy() -> Iterator[GameSpec]:
    with toy_registered() as spec:
        yield spec


def test_a_whole_toy_game_in_the_page(toy: GameSpec, server: tuple[str, Any], browser: Any, shots: Path) -> None:
    base, _app = server
    ctx, page, errors = new_page(browser, DESKTOP)
    table_id = create_table(page, base, NAME, "toy", [None, "casual"])
    take_seat(page, base, table_id, 0, "Ann")
    assert page.evaluate("muggins.state.last.renderer") == "generic"
    rng = random.Random(3)
    moves = calls = announced = 0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        status = page.inner_text("#status")
        if status.startswith("Game over"):
            break
        if page.is_enabled("#muggins-btn") and page.is_visible("#muggins-btn") and rng.random() < 0.5:
            page.click("#muggins-btn")
            calls += 1
            page.wait_for_timeout(50)
            continue
        if not status.startswith("Your turn"):
            page.wait_for_timeout(50)
            continue
        total = int(page.inner_text("#generic [data-field='total']").split(":")[1])
        buttons = page.eval_on_selector_all("#moves button.move", "bs => bs.map(b => b.dataset.move)")
        adds = [m for m in buttons if m.startswith("add ")]
        assert sorted(adds) == ["add 1", "add 2", "add 3"], buttons
        scoring = [m for m in adds if (total + int(m[4:])) % 5 == 0]
        move = scoring[0] if scoring else rng.choice(adds)
        if scoring:
            page.fill("#claim", str((total + int(move[4:])) // 5))
            announced += 1
        before = page.evaluate("muggins.state.last.view.total + 100 * muggins.state.last.view.round")
        page.click(f"#moves button[data-move='{move}']")
        moves += 1
        page.wait_for_function("() => { const v = muggins.state.last.view; "
                               f"return v.over || v.total + 100 * v.round !== {before}; }}")
    page.screenshot(path=str(shots / "count-to-21-end.png"), full_page=True)
    status = page.inner_text("#status")
    assert re.match(r"Game over: .+ won", status), status
    assert moves >= 3 and announced >= 1
    assert page.inner_text("#generic [data-field='round']").startswith("round")
    lines = log_lines(page)
    assert any("announced" in x for x in lines) and any(x.startswith("Game over") for x in lines), lines
    assert any(re.search(r"played [123] \(total \d+\)", x) for x in lines), lines  # a play, in the log's words
    assert not errors, errors
    ctx.close()
