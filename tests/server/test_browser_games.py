"""Whole games of every game in Chromium, played only through the page's controls to "Game over":
dominoes (a line, a spinner, Five Up), card Muggins, cribbage for two and for four, and one game with
two people at the same table. Screenshots at phone and desktop width; the finished log is in words."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.server.browser_helpers import (
    DESKTOP,
    PHONE,
    WINDOW_TEXT,
    DomPlayer,
    assert_readable_log,
    browser,
    create_table,
    needs_chromium,
    new_page,
    play_to_the_end,
    server,
    shots,
    take_seat,
)

__all__ = ["browser", "server", "shots"]  # fixtures
pytestmark = needs_chromium

# (game, preset, seats after the person's, target, extra options, viewport)
GAMES = [
    ("dominoes", "muggins", ["beginner"], 60, "", PHONE),
    ("dominoes", "muggins-spinner", ["beginner", "casual"], 100, "", DESKTOP),
    ("dominoes", "five-up", ["beginner"], 25, "", PHONE),
    ("card-muggins", "muggins", ["beginner"], 150, "", DESKTOP),
    ("cribbage", "cribbage-muggins", ["beginner"], 61, "", PHONE),
    ("cribbage", "four-hand", ["beginner", "casual", "beginner"], 61, "", DESKTOP),
]


@pytest.mark.parametrize(("game", "preset", "bots", "target", "options", "viewport"), GAMES,
                         ids=[f"{g[0]}-{g[1]}" for g in GAMES])
def test_a_whole_game_against_bots(server: tuple[str, Any], browser: Any, shots: Path, game: str, preset: str,
                                   bots: list[str], target: int, options: str, viewport: dict[str, int]) -> None:
    base, app = server
    ctx, page, errors = new_page(browser, viewport)
    table_id = create_table(page, base, game, preset, [None, *bots], target, options)
    take_seat(page, base, table_id, 0, "Ann")
    name = f"{game}-{preset}"
    page.screenshot(path=str(shots / f"{name}-start.png"))
    player = DomPlayer(page, app, table_id, 0, seed=len(name))
    mid_shot = False

    def shot_midway() -> None:
        nonlocal mid_shot
        if not mid_shot and player.tally.actions >= 6:
            page.screenshot(path=str(shots / f"{name}-mid.png"), full_page=True)
            mid_shot = True

    play_to_the_end([player], limit_s=60, on_step=shot_midway)
    page.screenshot(path=str(shots / f"{name}-end.png"), full_page=True)
    lines = assert_readable_log(page)
    status = page.inner_text("#status")
    assert re.match(r"Game over: .+ won", status), status
    t = player.tally
    assert t.actions >= 3 and t.turn_checks >= t.actions
    manual = page.evaluate("muggins.state.last.view.claims") == "manual"
    assert manual == (preset != "four-hand")
    assert page.is_visible("#claim-box") is False  # the game is over: nothing left to announce
    if manual:
        # the player announces a wrong amount on every third of his own scoring plays, the first among them;
        # how many he had depends on the deal (the bots may win a short game first)
        k = player.scoring_plays
        assert t.wrong == (k + 2) // 3 and t.announced >= k - t.wrong, (k, t)
        assert any("announced" in x for x in lines)  # the bots announce theirs
        assert t.calls == t.misses_seen, t  # an attentive player calls on every miss the page lets him
        if t.calls:
            assert any(x.startswith("You called Muggins!") and " took " in x for x in lines), lines
        if t.false_calls:
            assert any(x.startswith("You called Muggins!") and "false call" in x for x in lines), lines
    else:  # no muggins rule: no Muggins! button, no Announce box, no window notice
        assert not page.is_visible("#muggins-btn")
        assert t.calls == t.false_calls == 0 and not t.windows
    # the window notice tells only who scored and what they announced: one form, miss or no miss
    for text, _missed in t.windows:
        assert WINDOW_TEXT.match(text), text
    assert not errors, errors
    ctx.close()


def test_two_people_at_one_table(server: tuple[str, Any], browser: Any, shots: Path) -> None:
    """Ann creates a spinner table for two people and a bot; Bob joins from his own browser. Each page
    says whose turn it is from its own seat; both play to the end through their own pages."""
    base, app = server
    ctx_a, ann, errors_a = new_page(browser, PHONE)
    ctx_b, bob, errors_b = new_page(browser, DESKTOP)
    table_id = create_table(ann, base, "dominoes", "all-fives", [None, None, "beginner"], 60)
    take_seat(ann, base, table_id, 0, "Ann")
    assert ann.inner_text("#status").startswith("Waiting for players")
    take_seat(bob, base, table_id, 1, "Bob")
    ann.wait_for_function("() => muggins.state.last.table.status !== 'open'")
    players = [DomPlayer(ann, app, table_id, 0, seed=1), DomPlayer(bob, app, table_id, 1, seed=2)]
    seen_other_turn = 0

    def cross_check() -> None:
        nonlocal seen_other_turn
        sa, sb = ann.inner_text("#status"), bob.inner_text("#status")
        if sa.startswith("Your turn") and bob.evaluate("muggins.state.last.view.turn") == 0:
            assert sb.startswith("Waiting for Ann"), sb
            seen_other_turn += 1

    ann.screenshot(path=str(shots / "two-people-ann-start.png"))
    play_to_the_end(players, limit_s=60, on_step=cross_check)
    ann.screenshot(path=str(shots / "two-people-ann-end.png"), full_page=True)
    bob.screenshot(path=str(shots / "two-people-bob-end.png"), full_page=True)
    for page in (ann, bob):
        assert page.inner_text("#status").startswith("Game over")
        assert_readable_log(page)
    assert "You played" in "\n".join(ann.eval_on_selector_all("#log li", "e => e.map(x => x.textContent)"))
    assert any(line.startswith("Ann played") or line.startswith("Ann leads")
               for line in bob.eval_on_selector_all("#log li", "e => e.map(x => x.textContent)"))
    assert all(p.tally.actions >= 2 for p in players)
    assert seen_other_turn >= 1
    # with three at the table, a person may call Muggins! on the bot while the game waits for the other
    # person: the page says so without saying "Your turn"
    assert sum(p.tally.call_only for p in players) >= 1, [p.tally for p in players]
    assert not errors_a and not errors_b, errors_a + errors_b
    ctx_a.close()
    ctx_b.close()
