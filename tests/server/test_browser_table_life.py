"""In Chromium: a hand's end paused and resumed, Resign and the rematch with its invite link, a replay
stepped back and forth with the analysis beside it, the guided first game finished, a drill answered."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.npm_packages import npm_package_file_if_any
from tests.server.browser_helpers import (
    DESKTOP,
    PHONE,
    browser,
    needs_chromium,
    new_page,
    serve,
    shots,
)
from tests.server.test_browser_access import serious_violations

pytestmark = needs_chromium
__all__ = ["browser", "shots"]  # fixtures


def app_with(tmp_path: Path, time_scale: float) -> Any:
    from muggins.server.app import create_app

    return create_app(f"sqlite:///{tmp_path / 'life.db'}", rate=1e6, burst=1e6, time_scale=time_scale,
                      tables_burst=1e6, seats_burst=1e6, analysis_samples=2)


@pytest.fixture
def paused_server(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    yield from serve(app_with(tmp_path, 1.0))   # a hand's end waits 30 s for the people


@pytest.fixture
def quick_server(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    yield from serve(app_with(tmp_path, 0.0))


def axe_clean(page: Any, what: str) -> None:
    """No serious or critical accessibility violation on the page as it is (when axe-core is installed)."""
    if npm_package_file_if_any("axe-core", "axe.min.js") is not None:
        assert serious_violations(page) == [], what


def seated_page(browser: Any, base: str, body: dict[str, Any],
                seat: int = 0) -> tuple[Any, Any, list[str], str]:
    """A table made through the API, and a page seated at ``seat`` through the join screen."""
    ctx, page, errors = new_page(browser, DESKTOP)
    r = page.request.post(base + "/api/tables", data=json.dumps({"grace": 0, "bot_delay": 0, **body}),
                          headers={"content-type": "application/json", "origin": base})
    assert r.ok, r.text()
    tid = r.json()["id"]
    page.goto(f"{base}/t/{tid}")
    page.wait_for_selector(f"button.take[data-seat='{seat}']")
    page.fill("#name", "Ann")
    page.click(f"button.take[data-seat='{seat}']")
    page.wait_for_function("() => muggins.state.last !== null")
    return ctx, page, errors, tid


MY_TURN = """() => { const l = muggins.state.last; if (!l) return null;
  return {mine: !l.view.over && (l.view.waiting_for || l.view.to_act || []).includes(muggins.state.me)
          && (l.view.legal || []).length > 0, paused: !!(l.hand_end && l.hand_end.paused), over: l.view.over,
          actions: l.table.actions}; }"""
PLAY_FIRST = ("() => { const l = muggins.state.last;"
              " muggins.state.ws.send(JSON.stringify({type: 'act', move: l.view.legal[0],"
              " at: l.table.actions})); }")


def play_until(page: Any, stop: str) -> None:
    """This seat plays its first legal move whenever it may, until ``stop`` ("paused" or "over")."""
    for _ in range(3000):
        s = page.evaluate(MY_TURN)
        if s and s[stop]:
            return
        if s and s["mine"] and not s["paused"]:
            page.evaluate(PLAY_FIRST)
            page.wait_for_function(f"() => muggins.state.last.table.actions !== {s['actions']}"
                                   " || !!(muggins.state.last.hand_end && muggins.state.last.hand_end.paused)"
                                   " || muggins.state.last.view.over", timeout=10000)
        else:
            page.wait_for_timeout(20)
    raise AssertionError(f"never {stop}")


def test_a_hands_end_pauses_and_resumes(browser: Any, paused_server: tuple[str, Any], shots: Path) -> None:
    base, _app = paused_server
    ctx, page, errors, _tid = seated_page(browser, base, {"game": "dominoes", "seats": [None, "beginner"],
                                                          "options": {"claims": "auto"}})
    play_until(page, "paused")
    page.wait_for_selector("#handend:visible")
    text = page.inner_text("#handend")
    assert "Hand 1 is over" in text and "pips" in text and "is dealt in" in text
    assert page.locator("#board svg").count() > 0  # the final layout is drawn
    assert page.locator("#my-tiles svg").count() == 0  # not the next hand's tiles
    page.screenshot(path=str(shots / "handend-paused.png"), full_page=True)
    axe_clean(page, "the hand's end")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(400)  # the board is drawn again for its new width
    page.screenshot(path=str(shots / "handend-paused-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    actions = page.evaluate("() => muggins.state.last.table.actions")
    page.click("#next-hand")
    page.wait_for_selector("#handend", state="hidden")
    page.wait_for_function("() => muggins.state.last.hand_end === null")
    assert page.evaluate("() => muggins.state.last.table.actions") >= actions
    page.screenshot(path=str(shots / "handend-resumed.png"), full_page=True)
    assert not errors
    ctx.close()


def test_resign_then_rematch_with_an_invite_link(browser: Any, quick_server: tuple[str, Any], shots: Path) -> None:
    base, _app = quick_server
    ctx, page, errors, tid = seated_page(browser, base, {"game": "card-muggins", "seats": [None, "beginner"]})
    page.wait_for_selector("#resign-btn")
    page.on("dialog", lambda d: d.accept())
    page.click("#resign-btn")
    page.wait_for_function("() => muggins.state.last.table.status === 'resigned'")
    page.wait_for_selector("#rematch-btn")
    assert "Resigned by Ann" in page.inner_text("#seat-actions")
    page.screenshot(path=str(shots / "resigned.png"), full_page=True)
    lobby = page.request.get(base + "/api/tables").json()["tables"]
    assert tid not in [t["id"] for t in lobby]
    lobby_page = ctx.new_page()
    lobby_page.goto(base + "/")
    row = lobby_page.wait_for_selector(f"#finished .tablerow[data-id='{tid}']")
    assert "won by Beginner Otter (Ann resigned)" in row.inner_text() and "replay" in row.inner_text()
    assert lobby_page.locator(f"#tables .tablerow[data-id='{tid}']").count() == 0
    lobby_page.close()
    page.click("#rematch-btn")
    page.wait_for_selector("input.invite")
    link = page.input_value("input.invite")
    assert link.startswith(base + "/t/") and tid not in link
    page.screenshot(path=str(shots / "rematch.png"), full_page=True)
    page.click("#go-rematch")
    page.wait_for_function(f"() => location.href === {json.dumps(link)} && muggins.state.last !== null")
    assert page.evaluate("() => muggins.state.me") == 0
    assert page.evaluate("() => muggins.state.last.table.status") == "playing"
    assert not errors
    ctx.close()


def test_a_replay_stepped_back_and_forth_with_the_analysis(browser: Any, quick_server: tuple[str, Any],
                                                          shots: Path) -> None:
    base, _app = quick_server
    ctx, page, errors, tid = seated_page(browser, base, {"game": "dominoes", "seats": [None, "beginner"],
                                                         "options": {"target": 100}})
    play_until(page, "over")
    page.goto(f"{base}/t/{tid}/replay")
    page.wait_for_selector("#rp-at")
    total = page.evaluate("() => muggins.state.last.table.actions")
    assert f"Move {total} of {total}" in page.inner_text("#rp-at")
    page.click("#rp-first")
    assert "Move 0 of" in page.inner_text("#rp-at") and page.is_disabled("#rp-back")
    page.click("#rp-fwd")
    page.click("#rp-fwd")
    assert "Move 2 of" in page.inner_text("#rp-at") and "Move 2:" in page.inner_text("#rp-move")
    # the log numbers the moves as the replay does
    assert page.evaluate("() => [...document.querySelectorAll('#log li.numbered')].pop().dataset.n") == "2"
    page.keyboard.press("ArrowLeft")
    assert "Move 1 of" in page.inner_text("#rp-at")
    page.wait_for_selector("#rp-notes h4", timeout=60000)
    assert "Analysis of move 1" in page.inner_text("#rp-notes")
    assert page.locator("#board svg").count() > 0
    # the step that ended the first hand shows that hand's end, its layout drawn
    steps = page.evaluate(f"() => fetch('/api/tables/{tid}/replay').then((r) => r.json())")["steps"]
    ending = next(s["number"] for s in steps if s["hand_end"])
    page.click("#rp-first")
    for _ in range(ending):
        page.keyboard.press("ArrowRight")
    assert f"Move {ending} of" in page.inner_text("#rp-at")
    assert "Hand 1 is over" in page.inner_text("#handend") and page.locator("#board svg").count() > 0
    page.screenshot(path=str(shots / "replay-handend.png"), full_page=True)
    page.keyboard.press("ArrowLeft")
    assert page.is_hidden("#handend")
    page.screenshot(path=str(shots / "replay.png"), full_page=True)
    axe_clean(page, "the replay")
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(shots / "replay-phone.png"), full_page=True)
    assert not errors
    ctx.close()


def test_the_guided_first_game_is_finished(browser: Any, quick_server: tuple[str, Any], shots: Path) -> None:
    base, _app = quick_server
    ctx, page, errors = new_page(browser, DESKTOP)
    page.goto(base + "/tutorial")
    page.wait_for_selector("#tutor-text")
    steps = page.evaluate("() => fetch('/api/tutorial').then((r) => r.json())")["steps"]
    for i, step in enumerate(steps):
        page.wait_for_function(f"() => document.querySelector('#tutor h3').textContent.includes('step {i + 1} of')")
        if step["expect"] == "next":
            page.click("#tutor-next")
        elif step["expect"] == "play":
            move = step["accept"][0]
            page.click(f"#my-tiles svg[data-tile='{move['move'].split()[0]}']")
            page.click(f"#moves button[data-move='{move['move']}']")   # no announcement: refused
            assert "Announce box" in page.inner_text("#tutor-err")
            page.screenshot(path=str(shots / "tutorial-announce.png"), full_page=True)
            page.fill("#claim", str(move["claim"]))
            page.click(f"#my-tiles svg[data-tile='{move['move'].split()[0]}']")
            page.click(f"#moves button[data-move='{move['move']}']")
        elif step["expect"] == "muggins":
            page.screenshot(path=str(shots / "tutorial-muggins.png"), full_page=True)
            page.click("#muggins-btn")
    page.wait_for_selector("#tutor-done")
    log = page.inner_text("#log")
    assert "Muggins" in log and "announced" in log  # the game so far, in the log as at a table
    axe_clean(page, "the tutorial")
    assert "finished the tutorial" in page.inner_text("#tutor-text")
    assert not errors
    ctx.close()


def test_a_drill_answered_in_the_page_is_stored(browser: Any, quick_server: tuple[str, Any], shots: Path,
                                                tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("MUGGINS_DATA_DIR", str(tmp_path / "data"))
    base, _app = quick_server
    ctx, page, errors = new_page(browser, DESKTOP)
    page.goto(base + "/drills")
    page.wait_for_selector("button.drill-start")
    key = page.get_attribute("button.drill-start", "data-drill")
    page.click("button.drill-start")
    page.wait_for_selector("#drill-answer")
    page.fill("#drill-answer", "-3")
    page.click("#drill-form button[type=submit]")
    page.wait_for_function("() => document.querySelector('#drill-err').textContent.includes('never negative')")
    assert page.input_value("#drill-answer") == "-3"  # kept to correct
    page.fill("#drill-answer", "5")
    page.click("#drill-form button[type=submit]")
    page.wait_for_selector("#drill-result")
    assert page.inner_text("#drill-err") == ""  # the refusal is gone once a count is taken
    page.screenshot(path=str(shots / "drill.png"), full_page=True)
    axe_clean(page, "a drill")
    page.click("#drill-stop")
    page.wait_for_function("() => document.querySelector('#drill-result').textContent.includes('saved')")
    rec = json.loads((tmp_path / "data" / "training.jsonl").read_text())
    assert rec["drill"] == key and rec["answered"] == 1 and rec["answers"][0]["given"] == 5
    page.goto(base + "/rules")
    page.wait_for_selector(".preset-rules")
    assert page.locator("figure.example").count() >= 3
    page.screenshot(path=str(shots / "rules.png"))
    axe_clean(page, "the rules")
    assert not errors
    ctx.close()


def test_a_seat_continues_on_another_device(browser: Any, quick_server: tuple[str, Any], shots: Path) -> None:
    base, _app = quick_server
    ctx, page, errors, tid = seated_page(browser, base, {"game": "cribbage", "seats": [None, "beginner"]})
    page.click("#handoff-btn")
    page.wait_for_selector("input.invite")
    link = page.input_value("input.invite")
    assert link.startswith(f"{base}/t/{tid}#seat=")
    token = page.evaluate(f"() => JSON.parse(localStorage.getItem('muggins-seat-{tid}')).token")
    assert token not in link
    page.screenshot(path=str(shots / "handoff.png"), full_page=True)
    ctx2, other, errors2 = new_page(browser, DESKTOP)
    requests: list[str] = []
    other.on("request", lambda r: requests.append(r.url))
    other.goto(link)
    other.wait_for_function("() => muggins.state.last !== null && muggins.state.me === 0")
    assert "#seat=" not in other.url  # the spent code leaves the address bar
    assert not any("seat=" in u for u in requests)  # the fragment never reached the server
    assert other.evaluate("() => muggins.state.last.view.my_hand.length") > 0
    page.wait_for_function("() => muggins.state.me === null")
    assert "moved to another device" in page.inner_text("#seat-msg")
    assert not errors and not errors2
    ctx.close()
    ctx2.close()


@pytest.mark.parametrize(("preset", "players", "options"), [("cribbage-muggins", 2, {}),
                                                      ("three-hand", 3, {"claims": "manual"}),
                                                      ("four-hand", 4, {"claims": "manual"})])
def test_the_dealer_counts_the_crib_in_sight(browser: Any, quick_server: tuple[str, Any], shots: Path,
                                             preset: str, players: int, options: dict[str, str]) -> None:
    """With announced points, when the dealer is to count the crib its cards are on the page, for him and
    for the others alike, before anything is announced."""
    base, _app = quick_server
    seats: list[str | None] = [None] + ["beginner"] * (players - 1)
    ctx, page, errors, _tid = seated_page(browser, base, {"game": "cribbage", "preset": preset,
                                                          "seats": seats, "options": options})
    for _ in range(3000):
        s = page.evaluate("""() => { const l = muggins.state.last; if (!l) return null;
          const acting = l.view.waiting_for || l.view.to_act || [];
          return {legal: l.view.legal || [], mine: acting.includes(muggins.state.me), over: l.view.over,
                  crib: l.view.crib, actions: l.table.actions}; }""")
        if s and s["mine"] and "count crib" in s["legal"]:
            break
        if s and s["mine"] and s["legal"] and not s["over"]:
            page.evaluate(PLAY_FIRST)
            page.wait_for_function(f"() => muggins.state.last.table.actions !== {s['actions']}", timeout=10000)
        else:
            page.wait_for_timeout(20)
    else:
        raise AssertionError("this seat never counted a crib")
    assert s is not None and len(s["crib"]) == 4, s
    crib_row = page.locator("#board .hand", has_text="Crib:")
    crib_row.wait_for()
    labels = crib_row.locator("[aria-label]").evaluate_all("(els) => els.map((e) => e.getAttribute('aria-label'))")
    assert len(labels) == 4 and all(" of " in x for x in labels), labels
    page.screenshot(path=str(shots / f"crib-count-{preset}.png"), full_page=True)
    assert not errors
    ctx.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_rules_draw_each_games_examples_with_its_table_board(browser: Any, quick_server: tuple[str, Any],
                                                              shots: Path, viewport: dict[str, int]) -> None:
    base, _app = quick_server
    ctx, page, errors = new_page(browser, viewport)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    games = page.request.get(base + "/api/rules").json()["games"]
    page.goto(base + "/rules")
    page.wait_for_selector("figure.example .example-board")
    for g in games:
        drawn = page.locator(f"figure.example[data-game='{g['name']}'] .example-board")
        assert drawn.count() == len(g["examples"]) > 0, g["name"]
        for k in range(drawn.count()):   # each example drawn: an svg board or cards face up
            assert drawn.nth(k).locator("svg, .card[data-card]").count() > 0, (g["name"], k)
        # the text drawing stays with it, behind its toggle
        text = page.locator(f"figure.example[data-game='{g['name']}'] details pre.drawing")
        assert text.count() == len(g["examples"])
    # the pile of the first card Muggins example, as its view holds it (ids are numbered over the page)
    at = next(i for i, g in enumerate(games) if g["name"] == "card-muggins")
    first = sum(len(g["examples"]) for g in games[:at])
    cards = page.locator(f"figure.example[data-game='card-muggins'] #example-{first}-pile .card[data-card]")
    pile = games[at]["examples"][0]["view"]["pile"]
    assert [cards.nth(k).get_attribute("data-card") for k in range(cards.count())] == pile
    ids = page.evaluate("() => [...document.querySelectorAll('[id]')].map((e) => e.id)")
    assert len(ids) == len(set(ids))   # the boards' ids are each example's own
    page.screenshot(path=str(shots / f"rules-boards-{viewport['width']}.png"), full_page=True)
    axe_clean(page, "the rules with boards")
    assert not errors and not console
    ctx.close()
