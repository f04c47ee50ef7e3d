"""In Chromium, two accounts in two browsers: a rated game of dominoes and of cribbage played to the end
through their pages, after which each profile shows the new rating and the game; a rated game's rematch
from the page stays rated between the same accounts; the own-profile settings: a password changed, bots
and their tokens made and revoked, and the account deleted (its finished game kept under another name)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from muggins.core.rules import get_game
from tests.server.browser_helpers import (
    DESKTOP,
    DomPlayer,
    browser,
    create_table,
    needs_chromium,
    new_page,
    play_to_the_end,
    server,
    shots,
    take_seat,
)
from tests.server.test_accounts import Counting
from tests.server.test_browser_access import serious_violations
from tests.server.test_browser_accounts import PASSWORD, account_form
from tests.server.test_browser_ratings import CELLS, NAMES

pytestmark = needs_chromium
__all__ = ["browser", "server", "shots"]  # fixtures
NEW_PASSWORD = "a new and longer secret"
# (game, preset, target): the shortest rated games
SHORT = {"dominoes": ("muggins", 30), "cribbage": ("cribbage-61", None)}


def two_accounts(browser: Any, app: Any, base: str) -> list[tuple[Any, Any, list[str]]]:
    """Two browsers, each signed up from the header as its own account."""
    app.state.accounts.hasher = Counting()  # argon2id, quick
    opened = [new_page(browser, DESKTOP) for _ in NAMES]
    for (_ctx, page, _errors), name in zip(opened, NAMES, strict=True):
        account_form(page, base, "#signup-btn", name)
    return opened


def rated_table(pages: list[Any], base: str, game: str) -> str:
    """Ann makes a rated table for two people in the lobby and sits; Bob takes the other seat."""
    preset, target = SHORT[game]
    tid = create_table(pages[0], base, game, preset, [None, None], target, creator="Ann", rated=True)
    take_seat(pages[1], base, tid, 1, "Bob")
    for page in pages:
        page.wait_for_function("() => muggins.state.last.table.status === 'playing'")
        assert page.inner_text("#rated-mark") == "Rated"
    return tid


def my_profile(page: Any, base: str) -> None:
    """The header's name opens my own profile."""
    page.goto(base + "/")
    page.click("#account-name")
    page.wait_for_selector("#profile-ratings")


def rating_row(page: Any, game: str) -> list[str]:
    title = get_game(game).title
    rows = [r for r in page.eval_on_selector_all("#profile-ratings tbody tr", CELLS) if r[0] == title]
    assert len(rows) == 1, rows
    return list(rows[0])


def close(opened: list[tuple[Any, Any, list[str]]]) -> None:
    for ctx, _page, errors in opened:
        assert not errors, errors
        ctx.close()


@pytest.mark.parametrize("game", list(SHORT))
def test_two_accounts_play_a_rated_game_and_their_profiles_show_the_new_ratings(
        browser: Any, server: tuple[str, Any], shots: Path, game: str) -> None:
    base, app = server
    opened = two_accounts(browser, app, base)
    pages = [p for _, p, _ in opened]
    for page in pages:
        my_profile(page, base)
        assert rating_row(page, game)[1:] == ["1500?", "± 350", "0"]  # a new player
    tid = rated_table(pages, base, game)
    assert [s["name"] for s in pages[0].evaluate("() => muggins.state.last.table.seats")] == list(NAMES)
    players = [DomPlayer(page, app, tid, seat, seed=11 + seat) for seat, page in enumerate(pages)]
    play_to_the_end(players, limit_s=120)
    winner = min(app.state.manager.get(tid).state.winners())
    assert re.match(rf"Game over: {NAMES[winner]} won", pages[1 - winner].inner_text("#status"))
    for seat, page in enumerate(pages):
        my_profile(page, base)
        row = rating_row(page, game)
        rating = int(row[1].rstrip("?"))
        assert (rating > 1500) == (seat == winner) and rating != 1500, (seat, winner, row)
        assert row[3] == "1"
        assert page.get_attribute(f"svg.rating-chart[data-family='{game}']", "data-points") == "1"
        first = page.locator("#profile-recent li").first
        assert first.get_attribute("data-table") == tid
        text = first.inner_text()
        assert "(rated)" in text and ("won" if seat == winner else "lost") in text, text
        assert NAMES[1 - seat] in text  # played with the other account
        final = app.state.manager.get(tid).state.scores()  # each score after its player's name, in seat order
        assert f"({NAMES[0]} {final[0]}, {NAMES[1]} {final[1]})" in text, (text, final)
    pages[0].screenshot(path=str(shots / f"rated-{game}-profile.png"), full_page=True)
    close(opened)


def test_a_rated_games_rematch_from_the_page_stays_rated_between_the_same_accounts(
        browser: Any, server: tuple[str, Any]) -> None:
    base, app = server
    opened = two_accounts(browser, app, base)
    pages = [p for _, p, _ in opened]
    tid = rated_table(pages, base, "dominoes")
    ann, bob = pages
    ann.once("dialog", lambda d: d.accept())  # "Resign this game?"
    ann.click("#resign-btn")
    for page in pages:
        page.wait_for_selector("#rematch-btn")
        assert "Resigned by Ann_1." in page.inner_text("#seat-actions")
        page.click("#rematch-btn")
        with page.expect_navigation():
            page.click("#go-rematch")
        page.wait_for_function("(old) => window.muggins && muggins.state.last && muggins.state.last.table.id !== old",
                               arg=tid)
    ann.wait_for_function("() => muggins.state.last.table.status === 'playing'")
    new = ann.evaluate("() => muggins.state.last.table.id")
    assert bob.evaluate("() => muggins.state.last.table.id") == new
    for seat, page in enumerate(pages):
        page.wait_for_function("() => muggins.state.last.table.status === 'playing'")
        assert page.inner_text("#rated-mark") == "Rated"
        assert page.evaluate("() => muggins.state.me") == seat
        assert [s["name"] for s in page.evaluate("() => muggins.state.last.table.seats")] == list(NAMES)
        assert f"{NAMES[1 - seat]}: 0" in page.inner_text("#scores")  # the other account, by its name
    assert app.state.manager.get(new).meta.get("rated") is True
    close(opened)


def login_error(page: Any, base: str, username: str, password: str) -> str:
    """Log in from the header with these; the error the header shows."""
    page.goto(base + "/")
    page.wait_for_selector("#login-form, #logout-btn")  # the header has asked who is logged in
    if page.query_selector("#logout-btn"):
        page.click("#logout-btn")
    page.fill("#login-user", username)
    page.fill("#login-pass", password)
    page.click("#login-btn")
    page.wait_for_function("() => document.querySelector('#login-err').textContent !== ''")
    assert page.query_selector("#account-name") is None
    return str(page.inner_text("#login-err"))


def test_a_password_changed_on_the_profile_page_replaces_the_old_one(browser: Any, server: tuple[str, Any],
                                                                      shots: Path) -> None:
    base, app = server
    opened = two_accounts(browser, app, base)[:1]
    ctx2, elsewhere, errors2 = new_page(browser, DESKTOP)  # the same account logged in on another device
    opened.append((ctx2, elsewhere, errors2))
    account_form(elsewhere, base, "#login-btn", NAMES[0])
    page = opened[0][1]
    my_profile(page, base)
    page.wait_for_selector("#settings")
    assert serious_violations(page) == []
    page.fill("#pw-old", "not my password")
    page.fill("#pw-new", NEW_PASSWORD)
    page.fill("#pw-again", NEW_PASSWORD)
    page.click("#pw-btn")
    page.wait_for_selector("#pw-err:has-text('That is not your current password.')")
    page.fill("#pw-old", PASSWORD)
    page.fill("#pw-new", "short")
    page.fill("#pw-again", "short")
    page.click("#pw-btn")
    page.wait_for_selector("#pw-err:has-text('A password is at least 8 characters.')")
    page.fill("#pw-new", NEW_PASSWORD)
    page.fill("#pw-again", NEW_PASSWORD + "!")
    page.click("#pw-btn")
    page.wait_for_selector("#pw-err:has-text('The two new passwords differ.')")
    page.fill("#pw-again", NEW_PASSWORD)
    page.click("#pw-btn")
    page.wait_for_selector("#pw-done:has-text('Password changed.')")
    assert page.inner_text("#pw-err") == ""
    page.screenshot(path=str(shots / "settings-password.png"), full_page=True)
    page.reload()
    assert page.inner_text("#account-name") == NAMES[0]  # this browser stays logged in
    elsewhere.reload()
    elsewhere.wait_for_selector("#login-form")  # the other device is logged out
    page.click("#logout-btn")
    page.wait_for_selector("#login-form")
    wrong = login_error(page, base, NAMES[0], PASSWORD)  # the old password no longer logs in
    assert wrong == "wrong username or password"
    page.fill("#login-user", NAMES[0])
    page.fill("#login-pass", NEW_PASSWORD)
    page.click("#login-btn")
    page.wait_for_selector("#account-name")
    assert page.inner_text("#account-name") == NAMES[0]
    close(opened)


def test_bots_and_their_tokens_are_made_listed_and_revoked_on_the_profile_page(
        browser: Any, server: tuple[str, Any], shots: Path) -> None:
    base, app = server
    opened = two_accounts(browser, app, base)[:1]
    page = opened[0][1]
    my_profile(page, base)
    page.wait_for_selector("#bot-list")
    assert page.inner_text("#bot-list") == "No bots yet."
    page.fill("#bot-name", "expert-bot")  # a built-in level's name: refused, said why
    page.click("#bot-btn")
    page.wait_for_function("() => document.querySelector('#bot-err').textContent !== ''")
    assert page.query_selector("li.bot") is None
    page.fill("#bot-name", "ada-bot")
    page.click("#bot-btn")
    bot = page.locator("li.bot[data-bot='ada-bot']")
    bot.wait_for()
    assert page.inner_text("#bot-err") == ""
    assert bot.locator("ul.tokens").inner_text() == "No tokens."
    bot.locator("input[aria-label='Label of a new token of ada-bot']").fill("laptop")
    bot.locator("button.make-token").click()
    secret = bot.locator("input.token-secret")
    secret.wait_for()
    token = secret.input_value()
    assert token.startswith("mgb_")
    assert "shown only this once" in bot.locator(".new-token").inner_text()
    bot.locator("button.copy-token").click()
    copied = bot.locator(".copied")
    copied.filter(has_text=re.compile(r"\S")).wait_for()
    assert copied.inner_text() in ("Token copied.", "Select the token and copy it (Ctrl+C).")
    listed = bot.locator("ul.tokens li")
    listed.first.wait_for()
    assert listed.count() == 1 and "laptop" in listed.first.inner_text()
    assert serious_violations(page) == []
    page.screenshot(path=str(shots / "settings-bots.png"), full_page=True)
    who = page.request.get(base + "/api/bot/account", headers={"authorization": f"Bearer {token}"})
    assert who.ok and who.json()["username"] == "ada-bot"
    page.reload()  # shown once: the list keeps no secret
    bot.locator("ul.tokens li[data-token]").first.wait_for()
    assert token not in page.content() and "laptop" in bot.locator("ul.tokens").inner_text()
    bot.locator("button.revoke").click()
    bot.locator("ul.tokens li", has_text="No tokens.").wait_for()
    assert page.request.get(base + "/api/bot/account", headers={"authorization": f"Bearer {token}"}).status == 401
    close(opened)


def test_an_account_deleted_on_the_profile_page_is_gone_and_its_game_kept_under_another_name(
        browser: Any, server: tuple[str, Any], shots: Path) -> None:
    base, app = server
    opened = two_accounts(browser, app, base)
    (ann, bob) = (p for _, p, _ in opened)
    tid = create_table(ann, base, "dominoes", "muggins", [None, "beginner"], 30, creator="Ann")
    play_to_the_end([DomPlayer(ann, app, tid, 0, seed=3)], limit_s=60)
    assert app.state.manager.get(tid).status == "finished"
    my_profile(ann, base)
    ann.wait_for_selector("#delete-form")
    ann.fill("#del-name", "Ann")  # not the username
    ann.fill("#del-pass", PASSWORD)
    ann.click("#del-btn")
    ann.wait_for_selector(f"#del-err:has-text('Type your username, {NAMES[0]}, to confirm.')")
    ann.fill("#del-name", NAMES[0])
    ann.fill("#del-pass", "not my password")
    ann.click("#del-btn")
    ann.wait_for_selector("#del-err:has-text('That is not your current password.')")
    assert serious_violations(ann) == []
    ann.fill("#del-pass", PASSWORD)
    ann.click("#del-btn")
    ann.wait_for_selector("#deleted-msg")
    shown = re.search(r"“(deleted player \w+)”", ann.inner_text("#deleted-msg"))
    assert shown, ann.inner_text("#deleted-msg")
    ann.wait_for_selector("#login-form")  # the header shows a guest
    ann.screenshot(path=str(shots / "settings-deleted.png"), full_page=True)
    # logging in fails as a wrong password does
    assert login_error(ann, base, NAMES[0], PASSWORD) == login_error(bob, base, NAMES[1], "not my password")
    # the finished game is still in the archive and its replay, under the new name
    bob.goto(f"{base}/t/{tid}/replay")
    bob.wait_for_selector("#replay-bar:visible")
    bob.wait_for_function("(n) => document.body.innerText.includes(n)", arg=shown.group(1))
    assert NAMES[0] not in bob.inner_text("body")
    found = bob.request.get(f"{base}/api/tables/{tid}").json()
    assert found["seats"][0]["name"] == shown.group(1)
    assert bob.request.get(f"{base}/api/players/{NAMES[0]}").status == 404
    close(opened)
