"""Accessibility in Chromium: axe-core finds no serious or critical violation on the lobby and at a table of
each game; every tile and card is named in words for a screen reader; and a whole dominoes game is played
from the keyboard alone (Tab to a tile, Enter, type the announcement, Enter on the place; the Muggins!
button from the keyboard too), and cribbage cards chosen for the crib and played the same way. axe-core
comes from the project's npm packages (npm ci): without it the axe test skips, which fails under CI=true."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.npm_packages import npm_package_file
from tests.server.browser_helpers import DESKTOP, PHONE, DomPlayer, browser, needs_chromium, new_page, server, shots
from tests.server.test_browser_table import STATE, my_turn, sit_as_creator

__all__ = ["browser", "server", "shots"]  # fixtures
pytestmark = needs_chromium
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
TABLES = [("dominoes", "muggins", 2), ("card-muggins", "muggins", 2), ("cribbage", "cribbage-muggins", 2),
          ("cribbage", "four-hand", 4)]
NUMBER = r"(blank|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
CARD = r"(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of (spades|hearts|diamonds|clubs)"


def serious_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's violations of impact serious or critical on the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
        .map((v) => ({id: v.id, impact: v.impact, help: v.help,
                      nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' '))}))""")
    return [v for v in found if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_axe_finds_nothing_serious_on_the_lobby_and_at_each_table(server: tuple[str, Any], browser: Any,
                                                                  shots: Path, viewport: dict[str, int]) -> None:
    npm_package_file("axe-core", "axe.min.js")
    base, _app = server
    ctx, page, errors = new_page(browser, viewport)
    page.goto(base + "/")
    page.wait_for_selector("#game option", state="attached")
    page.wait_for_selector("#tables p, #tables .tablerow")
    assert serious_violations(page) == []
    for game, preset, players in TABLES:
        sit_as_creator(page, base, game, preset, [None] + ["beginner"] * (players - 1))
        my_turn(page)
        name = f"table-{game}-{preset}-{viewport['width']}"
        page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
        assert serious_violations(page) == [], name
        if game == "dominoes" and page.locator("#my-tiles svg.playable").count():
            # a tile chosen: the places it may go are buttons too
            page.click("#my-tiles svg.playable")
            page.wait_for_selector("#moves button.primary")
            assert serious_violations(page) == [], name + " with a tile chosen"
    assert not errors, errors
    ctx.close()


def test_every_tile_and_card_is_named_in_words(server: tuple[str, Any], browser: Any) -> None:
    base, _app = server
    ctx, page, errors = new_page(browser, DESKTOP)
    for _ in range(20):   # a deal where my turn comes with a tile that fits
        sit_as_creator(page, base, "dominoes", "muggins", [None, "beginner"])
        my_turn(page)
        if page.locator("#my-tiles svg.playable").count():
            break
    tiles = page.eval_on_selector_all("#my-tiles [data-tile]", "els => els.map((e) => [e.dataset.tile, "
                                      "e.getAttribute('aria-label'), e.getAttribute('role'), e.tabIndex])")
    assert len(tiles) == 7
    words = ["blank", "one", "two", "three", "four", "five", "six"]
    for tile, label, role, tab in tiles:
        a, b = (int(x) for x in tile.split("-"))
        assert label.split(",")[0] == f"{words[a]}-{words[b]}", (tile, label)
        assert role == "button" and tab == 0
    page.click("#my-tiles svg.playable")
    page.wait_for_selector("#moves button.primary")
    places = page.eval_on_selector_all("#layout [role='button']", "els => els.map((e) => e.getAttribute('aria-label'))")
    if places:   # leading: the box to lead in; later: the tiles it goes on
        assert all(re.fullmatch(rf"(Lead {NUMBER}-{NUMBER} here|Play {NUMBER}-{NUMBER} on (the (side|end) of )?"
                                rf"{NUMBER}-{NUMBER}( \(\w+\))?)", p) for p in places), places
    sit_as_creator(page, base, "cribbage", "cribbage", [None, "beginner"])
    my_turn(page)
    cards = page.eval_on_selector_all("#my-cards .card", "els => els.map((e) => [e.getAttribute('aria-label'), "
                                      "e.getAttribute('role'), e.dataset.face])")
    assert len(cards) == 6
    for label, role, face in cards:
        assert re.fullmatch(CARD, label), label
        assert role == "button"
        assert face[:-1] in ("A", "J", "Q", "K", "10") or face[:-1].isdigit()
    assert not errors, errors
    ctx.close()


def focus_by_tab(page: Any, selector: str, limit: int = 150) -> bool:
    """Press Tab until what has the focus matches ``selector``."""
    for _ in range(limit):
        if page.evaluate("(s) => !!document.activeElement && document.activeElement.matches(s)", selector):
            return True
        page.keyboard.press("Tab")
    return False


def test_a_whole_dominoes_game_from_the_keyboard_alone(server: tuple[str, Any], browser: Any, shots: Path) -> None:
    base, app = server
    ctx, page, errors = new_page(browser, DESKTOP)
    table_id = sit_as_creator(page, base, "dominoes", "muggins", [None, "beginner"], target=60)
    player = DomPlayer(page, app, table_id, 0, seed=8)   # its judgement only: every key below is pressed here
    played = calls = 0
    for _ in range(2000):
        s = player.snap()
        if s["status"].startswith("Game over"):
            break
        if s["muggins_enabled"] and player.muggable() > 0:
            assert focus_by_tab(page, "#muggins-btn")
            page.keyboard.press("Enter")
            player.wait_change(s["events"])
            calls += 1
            continue
        if not s["status"].startswith("Your turn"):
            page.wait_for_timeout(30)
            continue
        if s["tiles"]:
            assert focus_by_tab(page, "#my-tiles svg.playable"), "no playable tile reached with Tab"
            tile = page.evaluate("document.activeElement.dataset.tile")
            page.keyboard.press("Enter")
            page.wait_for_selector(f"#my-tiles svg.selected[data-tile='{tile}']")
            # the focus went on to the tile's first place on the table
            assert page.evaluate("document.activeElement.matches("
                                 "'#layout [data-move], #layout [data-moves], #moves button.primary')")
            move = page.get_attribute("#moves button.primary[data-move]", "data-move")
            if s["claim_box"]:
                assert focus_by_tab(page, "#claim")
                page.keyboard.press("Control+A")
                points = player.true_points(move)
                page.keyboard.type(str(points) if points > 0 else "")
            assert focus_by_tab(page, f"#moves button.primary[data-move='{move}']")
            page.keyboard.press("Enter")
        else:   # nothing fits: draw or pass, with their buttons
            assert s["moves"], s
            assert focus_by_tab(page, "#moves button[data-move]")
            page.keyboard.press("Enter")
        player.wait_change(s["events"])
        played += 1
    assert page.inner_text("#status").startswith("Game over"), page.inner_text("#status")
    assert played >= 5
    assert app.state.manager.get(table_id).state.is_over()
    page.screenshot(path=str(shots / "keyboard-game-over.png"), full_page=True)
    assert not errors, errors
    ctx.close()


def test_cribbage_discards_and_plays_from_the_keyboard(server: tuple[str, Any], browser: Any) -> None:
    base, _app = server
    ctx, page, errors = new_page(browser, PHONE)
    sit_as_creator(page, base, "cribbage", "cribbage", [None, "beginner"])
    my_turn(page)
    chosen = []
    for _ in range(2):   # two cards for the crib: Tab to a card not chosen yet, Enter
        assert focus_by_tab(page, "#my-cards .card[aria-pressed='false']")
        chosen.append(page.evaluate("document.activeElement.dataset.card"))
        page.keyboard.press("Enter")
        page.wait_for_selector(f"#my-cards .card.selected[data-card='{chosen[-1]}']")
        assert page.get_attribute(f"#my-cards .card[data-card='{chosen[-1]}']", "aria-pressed") == "true"
    assert focus_by_tab(page, "#discard-btn:not([disabled])")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => {STATE}.last.view.phase === 'play' && "
                           "document.querySelector('#status').textContent.startsWith('Your turn')", timeout=15000)
    assert not set(chosen) & set(page.eval_on_selector_all("#my-cards .card", "els => els.map((e) => e.dataset.card)"))
    actions = page.evaluate(f"{STATE}.last.table.actions")
    assert focus_by_tab(page, "#my-cards .card.playable")
    card = page.evaluate("document.activeElement.dataset.card")
    page.keyboard.press("Enter")
    page.wait_for_function(f"n => {STATE}.last.table.actions > n", arg=actions)
    assert card not in page.eval_on_selector_all("#my-cards .card", "els => els.map((e) => e.dataset.card)")
    assert not errors, errors
    ctx.close()
