"""Counting drills and ``muggins train``: every drill's answer is the engine's (checked again by hand, on many
seeds), and the command as a user meets it: right and wrong answers, bad input, quitting, the record
written and read back, --stats, --plot and the data directory."""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

import pexpect
import pytest
from typer.testing import CliRunner

from muggins.cards.deck import Card, parse_card
from muggins.cli.main import app
from muggins.core.rules import get_game
from muggins.train import (
    BadAnswer,
    Question,
    TrainError,
    data_dir,
    find_drill,
    parse_answer,
    registered_drills,
)

runner = CliRunner()
SEEDS = range(150)
ANSI = r"(?:\x1b\[[0-9;]*m)*"  # styles a terminal gets between the words


def questions(key: str, seed: int, n: int) -> list[Question]:
    """The questions ``muggins train KEY --seed SEED`` asks, in order."""
    rng = random.Random(seed)
    drill = find_drill(key).drill
    return [drill.make(rng) for _ in range(n)]


def fits_a_terminal(q: Question) -> None:
    """The heading rule, the body, the prompt, the verdict and its explanation fit 80x24."""
    lines = q.body.split("\n")
    assert all(len(line) <= 80 for line in lines), lines
    assert 1 + len(lines) + 1 + 1 + len(q.why) <= 24, (len(lines), len(q.why))


# ------------------------------------------------------------------------------ the registry ----
def test_each_game_registers_its_drill() -> None:
    drills = registered_drills()
    assert {k: d.game for k, d in drills.items()} == {"count": "dominoes", "pegging": "card-muggins",
                                                      "show": "cribbage"}
    for key, d in drills.items():
        assert d.drill.name == key and d.title
        assert f"{d.drill.__module__}:{type(d.drill).__name__}" in get_game(d.game).drills
    assert find_drill("cribbage:show").key == "show"
    with pytest.raises(TrainError, match="unknown drill 'nope'; drills: count, pegging, show"):
        find_drill("nope")


def test_a_drill_name_two_games_share_is_told_apart_by_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from muggins.core import rules

    spec = get_game("cribbage")
    twin = dataclasses.replace(spec, name="twin", drills=spec.drills, default=False)
    rules.register(twin)
    try:
        keys = set(registered_drills())
        assert {"cribbage:show", "twin:show"} <= keys and "show" not in keys
        assert find_drill("twin:show").game == "twin"
    finally:
        rules.unregister("twin")


# ------------------------------------------------------------------------ answers are true ----
def _double_ends_count(view: dict) -> int:
    """The count by hand for rules without a spinner: every open end, a double at an end twice."""
    total = 0
    for e in view["open_ends"]:
        a, _, b = str(e["on"]).partition("-")
        total += e["value"] * (2 if a == b else 1)
    return total


def test_the_domino_count_is_the_engines() -> None:
    d = find_drill("count").drill
    assert d.rules.spinner == "none"  # what the count by hand below assumes
    from muggins.dominoes.scoring import score_table

    for seed in SEEDS:
        st = d.position(random.Random(seed))
        q = d.make(random.Random(seed))
        assert q.answer == st.count == _double_ends_count(st.view(None)), seed
        assert len(st.layout()) >= 2 and not st.is_over()
        assert q.why[-1].startswith(f"The count is {st.count}:")
        assert (f"scores {score_table(d.rules.score_fn)[st.count]}" in q.why[-1]) == \
            bool(score_table(d.rules.score_fn)[st.count])
        a, b = st.layout()[-1]["tile"].split("-")
        drawn = (f"[{a}│{b}]", f"[{b}│{a}]", f"╔{a}╗", f"┌{a}", f"┌{b}", "row(s) above")
        assert any(x in q.body for x in drawn)  # the last tile is drawn (or the drawing says what it cut)
        fits_a_terminal(q)


def _show_by_hand(hand: list[Card], starter: Card, crib: bool) -> int:
    """A plain reference count of a show: fifteens, pairs, runs, flush, nobs."""
    five = [*hand, starter]
    pts = 2 * sum(1 for n in range(2, 6) for c in combinations(five, n) if sum(x.value for x in c) == 15)
    pts += 2 * sum(1 for a, b in combinations(five, 2) if a.rank == b.rank)
    ranks = Counter(c.rank for c in five)
    for length in (5, 4, 3):
        runs = [r for r in range(1, 15 - length) if all(ranks[r + k] for k in range(length))]
        if runs:
            for r in runs:
                ways = 1
                for k in range(length):
                    ways *= ranks[r + k]
                pts += length * ways
            break
    if len({c.suit for c in hand}) == 1:
        pts += 5 if starter.suit == hand[0].suit else (0 if crib else 4)
    pts += sum(1 for c in hand if c.rank == 11 and c.suit == starter.suit)
    return pts


def _cards_after(label: str, body: str) -> list[Card]:
    line = next(x for x in body.split("\n") if x.strip().startswith(label))
    words = line.split(":", 1)[1].split()
    return [parse_card(w) for w in words]


def test_the_show_is_the_engines() -> None:
    from muggins.cards.cribbage.show import explain_show

    d = find_drill("show").drill
    seen_crib = seen_hand = 0
    for seed in SEEDS:
        q = d.make(random.Random(seed))
        crib = "The crib:" in q.body
        held = _cards_after("The crib:" if crib else "The hand:", q.body)
        starter = _cards_after("Starter:", q.body)[0]
        assert len(held) == 4 and starter not in held
        assert q.answer == _show_by_hand(held, starter, crib) == explain_show(held, starter, crib).total, seed
        assert q.why and q.why[-1].startswith('"') and 0 <= q.answer <= q.limit == 29
        assert sum(int(line.split()[0]) for line in q.why[:-1]) == q.answer
        seen_crib += crib
        seen_hand += not crib
        fits_a_terminal(q)
    assert seen_crib and seen_hand


def test_the_shown_cards_are_a_real_deal() -> None:
    """The hand is one a seat kept in a real game, and the starter that game's cut."""
    d = find_drill("show").drill
    for seed in range(20):
        rng = random.Random(seed)
        st = d.position(rng)
        held, starter, crib = d.pick(st, rng)
        assert st.phase == "show" and starter == st.starter
        assert list(held) == (st.crib if crib else next(k for k in st.kept if list(held) == k))


def test_the_running_total_is_the_engines() -> None:
    d = find_drill("pegging").drill
    for seed in SEEDS:
        st, before, seat = d.position(random.Random(seed))
        q = d.make(random.Random(seed))
        pile = _cards_after("Pile:", q.body)
        assert [c.text for c in pile] == [c.text for c in st.pile] and len(pile) >= 2
        assert q.answer == st.total == sum(min(c.rank, 10) for c in pile) <= st.rules.cap, seed
        assert q.why[0] == " + ".join(str(min(c.rank, 10)) for c in pile) + f" = {q.answer}"
        scored = before.claim_for(seat, st.history[-1][1])
        assert f"scored {scored if scored else 'nothing'}" in q.why[1]
        fits_a_terminal(q)


def test_the_same_seed_asks_the_same_questions() -> None:
    for key in registered_drills():
        assert questions(key, 11, 3) == questions(key, 11, 3)
        assert questions(key, 11, 3) != questions(key, 12, 3)


# --------------------------------------------------------------------------- typed answers ----
@pytest.mark.parametrize(("text", "value"), [("7", 7), (" 12 ", 12), ("+3", 3), ("0", 0), ("-0", 0)])
def test_a_count_is_read(text: str, value: int) -> None:
    assert parse_answer(text, 29) == value


@pytest.mark.parametrize(("text", "why"), [("abc", "not a number"), ("-1", "never negative"),
                                           ("99999999999999999999", "more than any count"),
                                           ("30", "more than any count"), ("", "whole number"),
                                           ("\uff11\uff12", "not a number"), ("1.5", "not a number")])
def test_a_bad_answer_says_what_to_type(text: str, why: str) -> None:
    with pytest.raises(BadAnswer, match=why):
        parse_answer(text, 29)


# ----------------------------------------------------------------------------- the command ----
@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MUGGINS_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def record(home: Path) -> list[dict]:
    return [json.loads(line) for line in (home / "training.jsonl").read_text().splitlines()]


def test_right_wrong_and_bad_answers_then_quit(home: Path) -> None:
    qs = questions("pegging", 5, 3)
    wrong = qs[1].answer + 1
    typed = [str(qs[0].answer), "abc", "-1", "99999", str(wrong), "q"]
    res = runner.invoke(app, ["train", "pegging", "--rounds", "3", "--seed", "5"], input="\n".join(typed) + "\n")
    assert res.exit_code == 0, res.output
    out = res.output
    assert f"Right: {qs[0].answer}" in out
    assert f"Wrong: it is {qs[1].answer}, not {wrong}" in out and qs[1].why[0] in out
    assert "'abc' is not a number" in out and "never negative" in out and "more than any count" in out
    assert "Score 1 of 2 (3 asked for): accuracy 50%" in out
    assert out.count("Pile:") == 3  # the third question was shown, then q
    [s] = record(home)
    assert s["drill"] == "pegging" and s["game"] == "card-muggins" and s["seed"] == 5 and s["rounds"] == 3
    assert [(a["answer"], a["given"]) for a in s["answers"]] == [(qs[0].answer, qs[0].answer),
                                                                 (qs[1].answer, wrong)]
    assert s["right"] == 1 and all(a["seconds"] >= 0 for a in s["answers"])


def test_end_of_input_quits_and_keeps_the_answers(home: Path) -> None:
    qs = questions("show", 2, 4)
    res = runner.invoke(app, ["train", "show", "--seed", "2", "-n", "4"], input=f"{qs[0].answer}\n")
    assert res.exit_code == 0, res.output
    assert "Score 1 of 1 (4 asked for)" in res.output
    assert [a["given"] for a in record(home)[0]["answers"]] == [qs[0].answer]


def test_nothing_answered_writes_nothing(home: Path) -> None:
    res = runner.invoke(app, ["train", "count", "--seed", "1"], input="q\n")
    assert res.exit_code == 0 and "No question answered" in res.output
    assert not (home / "training.jsonl").exists()


def test_the_menu_offers_every_drill(home: Path) -> None:
    qs = questions("show", 9, 1)
    res = runner.invoke(app, ["train", "--rounds", "1", "--seed", "9"], input=f"zzz\n7\nshow\n{qs[0].answer}\n")
    assert res.exit_code == 0, res.output
    for d in registered_drills().values():
        assert d.title in res.output
    assert "No drill 'zzz'" in res.output and "No drill '7'" in res.output
    assert "Score 1 of 1: accuracy 100%" in res.output
    res = runner.invoke(app, ["train"], input="q\n")
    assert res.exit_code == 0 and not (home / "training.jsonl").read_text().count("\n") > 1


def test_stats_and_plot_read_the_record_back(home: Path, tmp_path: Path) -> None:
    res = runner.invoke(app, ["train", "--stats"])
    assert res.exit_code == 0 and "No training recorded yet" in res.output
    res = runner.invoke(app, ["train", "--plot", str(tmp_path / "none.png")])
    assert res.exit_code == 2 and "nothing to plot" in res.output
    for seed, right in ((1, True), (2, False)):
        q = questions("count", seed, 1)[0]
        given = q.answer if right else q.answer + 1
        assert runner.invoke(app, ["train", "count", "-n", "1", "--seed", str(seed)],
                             input=f"{given}\n").exit_code == 0
    q = questions("pegging", 3, 1)[0]
    runner.invoke(app, ["train", "pegging", "-n", "1", "--seed", "3"], input=f"{q.answer}\n")
    with (home / "training.jsonl").open("a") as f:
        f.write("{not json\n")
    res = runner.invoke(app, ["train", "--stats"])
    assert res.exit_code == 0, res.output
    out = res.output
    assert "1 damaged line(s)" in out
    assert "count: Dominoes: count the open ends  (2 session(s), 1/2 right in all)" in out
    assert "pegging: Card Muggins: the running total  (1 session(s), 1/1 right in all)" in out
    assert "█" * 20 + " 100%" in out and "·" * 20 + "   0%" in out
    res = runner.invoke(app, ["train", "pegging", "--stats"])
    assert "pegging" in res.output and "count:" not in res.output
    png = tmp_path / "chart.png"
    res = runner.invoke(app, ["train", "--plot", str(png)])
    assert res.exit_code == 0, res.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and "3 session(s)" in res.output


def test_errors_are_one_line(home: Path, tmp_path: Path) -> None:
    for args, text in ((["train", "nope"], "unknown drill 'nope'"), (["train", "-n", "0"], "--rounds must be"),
                       (["train", "--seed", "-3"], "--seed must be")):
        res = runner.invoke(app, args)
        assert res.exit_code == 2 and text in res.output and res.output.count("\n") == 1, res.output
    q = questions("count", 1, 1)[0]
    runner.invoke(app, ["train", "count", "-n", "1", "--seed", "1"], input=f"{q.answer}\n")
    res = runner.invoke(app, ["train", "--plot", str(tmp_path / "no" / "dir" / "x.png")])
    assert res.exit_code == 2 and "cannot write the plot" in res.output and res.output.count("\n") == 1


def test_an_unwritable_record_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("MUGGINS_DATA_DIR", str(blocker))
    q = questions("pegging", 1, 1)[0]
    res = runner.invoke(app, ["train", "pegging", "-n", "1", "--seed", "1"], input=f"{q.answer}\n")
    assert res.exit_code == 2 and "cannot write the training record" in res.output


def test_the_data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import platformdirs

    monkeypatch.setenv("MUGGINS_DATA_DIR", str(tmp_path / "x"))
    assert data_dir() == tmp_path / "x"
    monkeypatch.delenv("MUGGINS_DATA_DIR")
    assert data_dir() == Path(platformdirs.user_data_dir("muggins"))


def test_a_session_in_a_terminal(home: Path) -> None:
    """Through a pseudo-terminal: the question, a right answer, a bad one, then Ctrl-D."""
    qs = questions("count", 4, 2)
    child = pexpect.spawn(sys.executable, ["-m", "muggins", "train", "count", "-n", "2", "--seed", "4"],
                          encoding="utf-8", timeout=20, dimensions=(24, 80))
    try:
        child.expect_exact("What do the open ends count? ")
        child.sendline(str(qs[0].answer))
        child.expect(rf"Right{ANSI}: {qs[0].answer} ")
        child.expect_exact("What do the open ends count? ")
        child.sendline("lots")
        child.expect_exact("is not a number")
        child.sendeof()
        child.expect(r"Score 1 of 1 \(2 asked for\)")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert len(record(home)) == 1


PRIVATE_CARDS = ("my_hand", "my_kept", "my_discards", "crib")  # pieces that only some seat may see


def shows_only_the_text(view: dict[str, Any], body: str) -> None:
    """``view`` holds no piece hidden from a spectator that the text drawing ``body`` does not show: no
    hands, no moves of a seat, and every private card (a seat's own, or the crib) drawn in the text."""
    from muggins.tui.render_cards import card

    assert "hands" not in view and not view.get("legal")
    for key in PRIVATE_CARDS:
        for c in view.get(key) or ():
            assert card(c, False) in body, (key, c, body)
    assert not view.get("my_discards")


def test_every_drill_draws_its_position_for_the_page_with_nothing_hidden() -> None:
    """Each question carries the view the web table draws (with the game's page renderer); the seat's
    view when the drill shows a hand, the spectator's with the crib turned up when it shows the crib."""
    seen: Counter[str] = Counter()
    for key, d in registered_drills().items():
        spec = get_game(d.game)
        rng = random.Random(7)
        for _ in range(40):
            q = d.drill.make(rng)
            assert q.drawn is not None and q.drawn.renderer == spec.page_renderer, key
            v = q.drawn.view
            assert v["game"] == d.game and json.loads(json.dumps(v)) == v
            shows_only_the_text(v, q.body)
            if v.get("crib"):
                seen["crib"] += 1
                assert v["seat"] is None and not v.get("my_kept")
            elif v.get("my_kept"):
                seen["hand"] += 1
                assert isinstance(v["seat"], int) and "The hand:" in q.body
            else:
                assert v["seat"] is None and not v.get("my_hand")
    assert seen["crib"] and seen["hand"]
