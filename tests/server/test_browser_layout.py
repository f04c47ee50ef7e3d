"""The domino layout turns at the edge of the board like a real table instead of shrinking: long
layouts (a line, a spinner's four arms, Five Up's branches, a double-nine line) drawn at phone and at
desktop width keep every tile at a readable size, inside the board, with no two tiles overlapping; the
selected tile in the hand is lifted and outlined."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from muggins.core.chance import Chance
from muggins.core.rules import get_game
from tests.server.browser_helpers import DESKTOP, PHONE, browser, needs_chromium, new_page, server, shots

__all__ = ["browser", "server", "shots"]  # fixtures
pytestmark = needs_chromium
MIN_SHORT_PX = 22   # the short side of a tile on the table, at any width
MIN_LONG_PX = 44


def long_state(preset: str, options: dict[str, Any], players: int, want: int) -> Any:
    """A game played by random legal moves (plays preferred) until the layout holds ``want`` tiles."""
    spec = get_game("dominoes")
    for seed in range(1, 200):
        st = spec.new(spec.rules(preset, options), players, chance=Chance(seed=seed))
        rng = random.Random(seed)
        for _ in range(3000):
            if st.is_over():
                break
            seat = min(st.waiting_for())
            legal = [a for a in st.legal_actions(seat) if a.kind not in ("muggins", "claim")]
            st.apply(seat, rng.choice([a for a in legal if a.kind == "play"] or legal))
            if not st.is_over() and len(st.layout()) >= want:
                return st
    raise AssertionError(f"no {preset} layout of {want} tiles")


CASES = [("muggins", {}, 2, 22), ("muggins-spinner", {}, 3, 22), ("five-up", {}, 2, 20),
         ("muggins", {"tile_set": 9}, 4, 34)]

MEASURE_JS = """() => {
  const rs = [...document.querySelectorAll('#layout g.placed rect.face')].map((r) => {
    const b = r.getBoundingClientRect(); return {x: b.x, y: b.y, w: b.width, h: b.height};
  });
  const board = document.querySelector('#board').getBoundingClientRect();
  return {rects: rs, board: {x: board.x, w: board.width}, page: document.documentElement.scrollWidth,
          viewport: window.innerWidth};
}"""


def watch_open_table(page: Any, base: str) -> None:
    """Spectate a table that waits for a player (nothing moves there), to draw views on its page."""
    page.goto(base + "/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", "dominoes")
    page.click("#create-btn")
    page.wait_for_selector("#watch:visible")
    page.click("#watch")
    page.wait_for_function("() => muggins.state.last !== null")


def show(page: Any, view: dict[str, Any], seat: int | None = None, selected: str | None = None) -> None:
    page.evaluate("""([v, seat, sel]) => {
        const s = muggins.state; s.me = seat; s.last = {...s.last, view: v}; s.selected = sel ? [sel] : [];
        muggins.render(); }""", [view, seat, selected])


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_long_layouts_turn_at_the_edge_and_keep_tiles_readable(server: tuple[str, Any], browser: Any, shots: Path,
                                                               viewport: dict[str, int]) -> None:
    base, _app = server
    ctx, page, errors = new_page(browser, viewport)
    watch_open_table(page, base)
    width = viewport["width"]
    for preset, options, players, want in CASES:
        st = long_state(preset, options, players, want)
        view = st.view(None).to_json()
        show(page, view)
        name = f"layout-{preset}{'-d9' if options else ''}-{width}"
        page.locator("#board").screenshot(path=str(shots / f"{name}.png"))
        m = page.evaluate(MEASURE_JS)
        rects = m["rects"]
        assert len(rects) == len(view["layout"]), (len(rects), len(view["layout"]))
        for r in rects:
            assert min(r["w"], r["h"]) >= MIN_SHORT_PX - 1, (name, r)   # the face is inset a little
            assert max(r["w"], r["h"]) >= MIN_LONG_PX - 2, (name, r)
            left, right = m["board"]["x"], m["board"]["x"] + m["board"]["w"]
            assert r["x"] >= left - 0.5 and r["x"] + r["w"] <= right + 0.5, (name, r)
        for i, a in enumerate(rects):
            for b in rects[i + 1:]:
                overlap_x = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
                overlap_y = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
                assert overlap_x <= 0.5 or overlap_y <= 0.5, (name, a, b)
        assert m["page"] <= m["viewport"], "the page scrolls sideways"
        # a long line turns: it takes more than one row of tiles
        assert len({round(r["y"]) for r in rects}) >= 3, name
    assert not errors, errors
    ctx.close()


def test_the_selected_tile_is_lifted_and_its_targets_outlined(server: tuple[str, Any], browser: Any,
                                                              shots: Path) -> None:
    base, _app = server
    ctx, page, errors = new_page(browser, PHONE)
    watch_open_table(page, base)
    st = long_state("muggins-spinner", {}, 2, 8)
    seat = min(st.waiting_for())
    view = st.view(seat).to_json()
    playable = [t for t in view["my_hand"] if any(m.split(" ")[0] in (t, "-".join(reversed(t.split("-"))))
                                                  for m in view["legal"] if m[0].isdigit())]
    assert playable, view["legal"]
    show(page, view, seat)
    before = page.eval_on_selector(f"#my-tiles svg[data-tile='{playable[0]}']", "e => e.getBoundingClientRect().y")
    show(page, view, seat, playable[0])
    page.locator("#table").screenshot(path=str(shots / "layout-selected-390.png"))
    sel = page.eval_on_selector(f"#my-tiles svg[data-tile='{playable[0]}']", """e => ({
        y: e.getBoundingClientRect().y, cls: e.getAttribute('class'),
        filter: getComputedStyle(e).filter})""")
    assert "selected" in sel["cls"]
    assert before - sel["y"] >= 8, (before, sel)        # lifted
    assert sel["filter"] != "none"                      # and outlined in colour
    halos = page.eval_on_selector_all("#layout g.target", "els => els.map((e) => e.dataset.moves)")
    buttons = page.eval_on_selector_all("#moves button.primary[data-move]", "els => els.map((e) => e.dataset.move)")
    on_table = {m for h in halos for m in h.split("|")}
    assert on_table and on_table <= set(buttons), (halos, buttons)
    assert not errors, errors
    ctx.close()
