"""The table page in Chromium: the Announce box refuses what is not a score before anything is sent; the
join page tells the table's own game title and target, and the creator sits down as he creates; moves are
numbered alike in the log and the analysis; nothing is announced while discarding; the seat token is in
no address; the cribbage board's holes, numbers, names and pegs; the Muggins! countdown; motion, sound and
their switch."""

from __future__ import annotations

import json
import re
import urllib.request
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
    server,
    shots,
)

__all__ = ["browser", "server", "shots"]  # fixtures
pytestmark = needs_chromium
STATE = "muggins.state"


def sit_as_creator(page: Any, base: str, game: str, preset: str, seats: list[str | None], name: str = "Ann",
                   target: int | None = None, grace: str = "0", options: str = "") -> str:
    """Make a table through the lobby form with my name and seat 1: I am seated at once."""
    return create_table(page, base, game, preset, seats, target, options, creator=name, grace=grace)


def moves_of(n: str) -> list[int]:
    """The move numbers a log row shows: "12", or "12\u201314" for a run of moves told in one row."""
    first, _, last = n.partition("\u2013")
    return list(range(int(first), int(last or first) + 1))


def my_turn(page: Any) -> None:
    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Your turn')")


def sent_frames(page: Any) -> list[str]:
    """Every text frame the page sends on its sockets, from now on."""
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: frames.append(str(payload))))
    return frames


def test_the_announce_box_refuses_what_is_not_a_score_before_anything_is_sent(server: tuple[str, Any],
                                                                               browser: Any) -> None:
    base, app = server
    ctx, page, errors = new_page(browser, DESKTOP)
    frames = sent_frames(page)
    table_id = sit_as_creator(page, base, "dominoes", "muggins", [None, "beginner"])
    bound = app.state.manager.get(table_id).claim_bound()
    my_turn(page)
    tile = page.get_attribute("#my-tiles svg.playable", "data-tile")
    page.click(f"#my-tiles svg[data-tile='{tile}']")
    page.wait_for_selector("#moves button.primary[data-move]")
    actions = page.evaluate(f"{STATE}.last.table.actions")
    acts_before = sum('"act"' in f for f in frames)
    for typed, says in [("-5", "below zero"), ("1.5", "not a whole number"), ("five", "not a number"),
                        (str(bound + 1), "too many")]:
        page.fill("#claim", typed)
        page.click("#moves button.primary[data-move]")
        err = page.inner_text("#claim-err")
        assert says in err, (typed, err)
        assert f"at most {bound} points — the most one play can score in this game" in err, err
        assert "'claim'" not in err and "claim_" not in err
        assert page.input_value("#claim") == typed            # what was typed stays, to be put right
        assert page.get_attribute("#claim", "aria-invalid") == "true"
        assert sum('"act"' in f for f in frames) == acts_before, frames[-1]   # nothing was sent
        assert page.evaluate(f"{STATE}.last.table.actions") == actions
        assert page.is_visible(f"#my-tiles svg[data-tile='{tile}']")
    # a score within the bound goes with the move, and the message goes away
    page.fill("#claim", "0")
    page.click("#moves button.primary[data-move]")
    page.wait_for_function(f"n => {STATE}.last.table.actions > n", arg=actions)
    assert page.inner_text("#claim-err") == "" and page.input_value("#claim") == ""
    act = next(f for f in frames if '"act"' in f)
    assert '"claim":0' in act and f'"at":{actions}' in act, act
    assert not errors, errors
    ctx.close()


def test_the_join_page_tells_the_tables_own_game_and_target_and_the_creator_is_seated(
        server: tuple[str, Any], browser: Any, shots: Path) -> None:
    base, _app = server
    ctx, page, errors = new_page(browser, PHONE)
    table_id = sit_as_creator(page, base, "dominoes", "muggins", [None, None], name="Ann", target=50)
    # the creator did not pass through the join page: he is at seat 1, named, waiting for the other
    assert page.evaluate(f"{STATE}.me") == 0
    assert page.evaluate(f"{STATE}.last.table.seats[0].name") == "Ann"
    assert page.is_hidden("#join")
    assert page.input_value("#invite-link").endswith("/t/" + table_id)
    page.screenshot(path=str(shots / "creator-seated-390.png"), full_page=True)
    guest_ctx, guest, guest_errors = new_page(browser, DESKTOP)
    guest.goto(f"{base}/t/{table_id}")
    guest.wait_for_selector("button.take[data-seat='1']")
    assert guest.inner_text("#join-title") == "Fives-family dominoes: muggins"
    desc = guest.inner_text("#join-desc")
    assert "50" in desc and "200" not in desc, desc
    assert not guest.is_visible("button.take[data-seat='0']")   # his seat is taken
    guest.screenshot(path=str(shots / "join-50-1280.png"), full_page=True)
    # with no name, the creator chooses his seat on the table's page, his name asked there once
    page.goto(base + "/")
    page.wait_for_selector("#game option", state="attached")
    page.fill("#my-name", "")
    page.click("#create-btn")
    page.wait_for_selector("button.take[data-seat='0']")
    assert page.is_visible("#name-box")
    assert not errors and not guest_errors, errors + guest_errors
    ctx.close()
    guest_ctx.close()


def test_the_announce_box_and_its_help_are_hidden_while_discarding(server: tuple[str, Any], browser: Any) -> None:
    base, _app = server
    ctx, page, errors = new_page(browser, PHONE)
    sit_as_creator(page, base, "cribbage", "cribbage-muggins", [None, "beginner"])
    my_turn(page)
    assert page.is_visible("#discard-btn")
    assert page.is_hidden("#claim-box") and page.is_hidden("#help-muggins")
    for c in [page.get_attribute(f"#my-cards .card:nth-child({k})", "data-card") for k in (1, 2)]:
        page.click(f"#my-cards .card[data-card='{c}']")
    page.click("#discard-btn")
    # in the play the box is back, with its help, when it is my turn to play a card
    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Your turn') && "
                           f"{STATE}.last.view.phase === 'play'", timeout=15000)
    assert page.is_visible("#claim-box") and page.is_visible("#help-muggins")
    assert not errors, errors
    ctx.close()


def test_the_seat_token_is_in_no_address(server: tuple[str, Any], browser: Any) -> None:
    base, _app = server
    ctx, page, errors = new_page(browser, DESKTOP)
    urls: list[str] = []
    page.on("websocket", lambda ws: urls.append(ws.url))
    page.on("request", lambda r: urls.append(r.url))
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text))
    frames = sent_frames(page)
    table_id = sit_as_creator(page, base, "card-muggins", "muggins", [None, "beginner"])
    page.reload()   # the seat comes back from this browser's storage, over a new socket
    page.wait_for_function(f"() => {STATE}.last !== null && {STATE}.me === 0")
    token = page.evaluate(f"JSON.parse(localStorage.getItem('muggins-seat-{table_id}')).token")
    assert len(token) > 16
    sockets = [u for u in urls if "/ws/" in u]
    assert len(sockets) == 2, urls
    assert not [u for u in urls if token in u], "the token is in an address"
    assert not [c for c in console if token in c]
    hellos = [f for f in frames if '"hello"' in f]
    assert len(hellos) == 2 and all(token in f for f in hellos), frames
    assert not errors, errors
    ctx.close()


def test_moves_are_numbered_alike_in_the_log_and_the_analysis(tmp_path: Path, browser: Any) -> None:
    from muggins.server.app import create_app

    gen = serve(create_app(f"sqlite:///{tmp_path / 'a.db'}", rate=1e6, burst=1e6, time_scale=0, tables_burst=1e6,
                           seats_burst=1e6, analysis_samples=8))
    base, app = next(gen)
    try:
        ctx, page, errors = new_page(browser, DESKTOP)
        table_id = sit_as_creator(page, base, "dominoes", "muggins", [None, "beginner"], target=30)
        play_to_the_end([DomPlayer(page, app, table_id, 0, seed=5)], limit_s=90)
        record = app.state.manager.get(table_id).record()
        names = {0: "You", 1: app.state.manager.get(table_id).seats[1].name}
        rows = page.evaluate("""() => [...document.querySelectorAll('#log li.numbered')].map((e) =>
            ({n: e.dataset.n, text: e.textContent, id: e.id}))""")
        assert rows, "no numbered move in the log"
        seen: list[int] = []
        for r in rows:
            span = moves_of(r["n"])
            seen.extend(span)
            assert r["id"] == f"move-{span[0]}"
            for n in span:   # the row tells that move of the record: its player and, for a tile, the tile
                entry = record["actions"][n - 1]
                assert r["text"].startswith(names[entry["seat"]]), (n, entry, r["text"])
                tile = entry["move"].split(" ")[0]
                if re.fullmatch(r"\d+-\d+", tile):
                    assert tile in r["text"] or "-".join(reversed(tile.split("-"))) in r["text"], (entry, r)
        assert seen == sorted(set(seen)) and seen[0] >= 1 and seen[-1] <= len(record["actions"])
        page.click("#analyse-btn")
        page.wait_for_selector("#analysis .moments, #analysis p", timeout=120000)
        refs = page.evaluate("[...document.querySelectorAll('#analysis a.move-ref')].map((a) => [a.textContent,"
                             " a.getAttribute('href')])")
        with urllib.request.urlopen(f"{base}/api/tables/{table_id}/analysis", timeout=60) as resp:
            analysis = json.loads(resp.read())   # what the page showed, as the server gives it
        for text, href in refs:
            n = int(text.split(" ")[1])
            assert href == f"#move-{n}"
            assert any(n in moves_of(r["n"]) for r in rows), n
        assert [f"Move {m['action'] + 1}" for m in analysis["moments"]] == [t for t, _ in refs]
        assert "Action " not in page.inner_text("#analysis")
        assert not errors, errors
        ctx.close()
    finally:
        for _ in gen:
            pass


def test_the_cribbage_board_has_its_holes_numbers_names_and_pegs(server: tuple[str, Any], browser: Any,
                                                                   shots: Path) -> None:
    base, _app = server
    for preset, players, target in [("cribbage", 2, 121), ("cribbage-61", 2, 61), ("four-hand", 4, 121)]:
        ctx, page, errors = new_page(browser, DESKTOP)
        sit_as_creator(page, base, "cribbage", preset, [None] + ["beginner"] * (players - 1))
        # the page stops listening first: a bot's move arriving later would draw the real board over this one
        page.evaluate(f"""() => {{ const s = {STATE}; s.ws.onmessage = null; s.ws.onclose = null;
            s.last = {{...s.last, view: {{...s.last.view, board: [{{front: 47, back: 40}}, {{front: 12, back: 0}}],
                                         scores: [47, 12]}}}}; muggins.render(); }}""")
        sides = 2
        holes = page.eval_on_selector_all("#pegboard circle[r='1.6']", "els => els.length")
        assert holes == sides * (target - 1), (preset, holes)       # each side's track, the game hole apart
        numbers = page.eval_on_selector_all("#pegboard text", "els => els.map((e) => e.textContent)")
        assert [str(n) for n in range(5, target, 5)] == [x for x in numbers if x.isdigit() and int(x) < target]
        assert str(target) in numbers
        pegs = page.eval_on_selector_all("#pegboard [data-peg]", "els => els.map((e) => e.dataset.peg)")
        assert sorted(pegs) == ["0-back", "0-front", "1-back", "1-front"]
        legend = page.inner_text(".peglegend")
        label = page.get_attribute("#pegboard", "aria-label") or ""
        assert "47" in legend and "12" in legend and "back peg 40" in label, (legend, label)
        if players == 4:
            assert legend.count("(partners)") == 2 and "You &" in legend, legend
        else:
            assert "You: 47" in legend and "(partners)" not in legend, legend
        # the front peg of the first side stands in hole 47 of its track: the 17th hole of the second row
        front = page.eval_on_selector("#pegboard [data-peg='0-front']",
                                      "e => [+e.getAttribute('cx'), +e.getAttribute('cy')]")
        hole = page.evaluate("""() => { const hs = [...document.querySelectorAll('#pegboard circle[r="1.6"]')];
            return hs.map((h) => [+h.getAttribute('cx'), +h.getAttribute('cy')]); }""")
        assert front in hole
        page.locator(".pegwrap").screenshot(path=str(shots / f"pegboard-{preset}.png"))
        assert not errors, errors
        ctx.close()


@pytest.fixture
def timed_server(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    """The app on real time: the bots wait the grace period."""
    from muggins.server.app import create_app

    yield from serve(create_app(f"sqlite:///{tmp_path / 't.db'}", rate=1e6, burst=1e6, tables_burst=1e6,
                                seats_burst=1e6))


def test_the_muggins_grace_period_is_counted_down_from_the_servers_field(timed_server: tuple[str, Any],
                                                                        browser: Any) -> None:
    base, app = timed_server
    ctx, page, errors = new_page(browser, DESKTOP)
    page.add_init_script("""window.graceSeen = [];
        new MutationObserver(() => { const t = document.querySelector('#grace-timer');
          if (t && !t.hidden) window.graceSeen.push([t.dataset.left, muggins.state.last.grace_left,
            muggins.state.last.table.actions, t.textContent.trim()]); })
          .observe(document, {subtree: true, attributes: true, childList: true});""")
    table_id = sit_as_creator(page, base, "card-muggins", "muggins", [None, "beginner"], grace="2")
    player = DomPlayer(page, app, table_id, 0, seed=3, call_rate=0.0, false_calls=0)
    for _ in range(400):
        if len({a for _, _, a, _ in page.evaluate("window.graceSeen")}) >= 2 or player.over():
            break
        if not player.step():
            page.wait_for_timeout(50)
    seen = page.evaluate("window.graceSeen")
    windows = {}
    for left, server_left, actions, text in seen:
        windows.setdefault(actions, (float(left), server_left))
        assert re.fullmatch(r"Muggins! may be called for \d+\.\d s more", text.split("\n")[0].strip()), text
    assert len(windows) >= 2, seen
    for first, server_left in windows.values():
        # each countdown starts from the server's grace_left (what is left of the table's 2 s)
        assert server_left is not None and 0 < server_left <= 2.0
        assert 0 <= first <= server_left + 0.05
    assert not errors, errors
    ctx.close()


def test_motion_and_sound_follow_their_switch_and_reduced_motion(server: tuple[str, Any], browser: Any) -> None:
    base, _app = server
    record_glides = """window.glides = [];
        const animate = Element.prototype.animate;
        Element.prototype.animate = function (...a) {
          window.glides.push(this.getAttribute('data-tile') || this.getAttribute('data-card') ||
                             this.getAttribute('data-peg') || this.tagName);
          return animate.apply(this, a); };"""
    for reduced, switch_on in [(False, True), (False, False), (True, True)]:
        ctx = browser.new_context(viewport=DESKTOP, reduced_motion="reduce" if reduced else "no-preference")
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.add_init_script(record_glides)
        page.goto(base + "/")
        page.wait_for_selector("#game option", state="attached")
        if not switch_on:
            page.uncheck("#fx")
            page.reload()
            page.wait_for_selector("#game option", state="attached")
            assert not page.is_checked("#fx")   # remembered in this browser
            assert page.evaluate("localStorage.getItem('muggins-fx')") == "off"
        table_id = sit_as_creator(page, base, "dominoes", "muggins", [None, "beginner"])
        player = DomPlayer(page, _app, table_id, 0, seed=2, call_rate=0.0, false_calls=0)
        for _ in range(6):      # a few plays each way
            my_turn(page)
            player.step()
        page.wait_for_timeout(100)
        glides = page.evaluate("window.glides")
        sounds = page.evaluate("muggins.fxLog")
        if switch_on and not reduced:
            assert any(re.fullmatch(r"\d+-\d+", g) for g in glides), glides   # tiles glided to their places
            # each of my tiles glided from my hand, whichever way round it was laid (a play names it as laid,
            # "2-5", the hand as dealt, "5-2"); only a play that ended the hand may not, the next deal on the board
            mine = {"-".join(sorted(e.split("-"), key=int, reverse=True)) for e in page.evaluate(
                "muggins.state.logEvents.filter((e) => e.kind === 'play' && e.seat === 0).map((e) => e.tile)")}
            assert mine and len(mine & set(glides)) >= len(mine) - 1, (mine, glides)
        else:
            assert glides == [], glides
        assert ("chime" in sounds) == switch_on, sounds   # sound follows the switch, not the motion setting
        assert not errors, errors
        ctx.close()
